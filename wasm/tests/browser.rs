//! The browser driver in headless Chromium against the mock OpenAI-compatible server
//! (tests/mock/server.mjs). `scripts/test` starts the mock and passes its URL in MOCK_URL
//! at compile time.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Promise};
use reactloop_wasm::{builtin_tools, check_tool, list_models, load_trace, JsAgent};
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// scripts/test sets MOCK_URL; the default is the port it uses when that one is free.
fn mock() -> &'static str {
    option_env!("MOCK_URL").unwrap_or("http://127.0.0.1:8788/")
}

fn js(value: &Value) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .expect("to js")
}

fn rust(value: JsValue) -> Value {
    serde_wasm_bindgen::from_value(value).expect("from js")
}

/// Settings for a mock scenario; `extra` overrides.
fn settings(scenario: &str, extra: Value) -> JsValue {
    let mut base = json!({
        "baseUrl": format!("{}s/{scenario}/v1", mock()),
        "model": "mock-model",
        "timeoutMs": 5000,
    });
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    js(&base)
}

fn agent(scenario: &str, extra: Value) -> JsAgent {
    JsAgent::new(settings(scenario, extra)).expect("valid settings")
}

/// Collects every event the agent emits.
struct Events {
    seen: Rc<RefCell<Vec<Value>>>,
    _closure: Closure<dyn FnMut(JsValue)>,
    function: Function,
}

impl Events {
    fn new() -> Events {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let sink = seen.clone();
        let closure = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            sink.borrow_mut().push(rust(e));
        });
        let function: Function = closure.as_ref().unchecked_ref::<Function>().clone();
        Events {
            seen,
            _closure: closure,
            function,
        }
    }

    fn of(&self, kind: &str) -> Vec<Value> {
        self.seen
            .borrow()
            .iter()
            .filter(|e| e["type"] == kind)
            .cloned()
            .collect()
    }

    /// The text that streamed in as `delta` events for one step.
    fn streamed(&self, step: u64) -> String {
        self.of("delta")
            .iter()
            .filter(|e| e["step"] == step)
            .map(|e| e["text"].as_str().unwrap().to_string())
            .collect()
    }
}

async fn await_js(promise: Promise) -> Result<Value, JsValue> {
    JsFuture::from(promise).await.map(rust)
}

async fn run(agent: &JsAgent, question: &str) -> (Value, Events) {
    let events = Events::new();
    let trace = await_js(agent.run(question.into(), Some(events.function.clone())))
        .await
        .expect("run resolves");
    (trace, events)
}

async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let set_timeout: Function = js_sys::Reflect::get(&global, &"setTimeout".into())
            .unwrap()
            .unchecked_into();
        set_timeout.call2(&global, &resolve, &ms.into()).unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// A scenario with a run id of its own, so its requests can be told apart from other runs.
fn fresh(scenario: &str) -> (String, String) {
    let run = format!("{}", (js_sys::Math::random() * 1e12) as u64);
    (format!("{scenario}@{run}"), run)
}

/// The chat requests the mock received for one run, oldest first (CORS preflights left out).
async fn mock_requests(run: &str) -> Vec<Value> {
    let url = format!("{}__requests?run={run}", mock());
    let response = gloo_net::http::Request::get(&url).send().await.unwrap();
    let all: Vec<Value> =
        serde_json::from_str(&response.text().await.unwrap()).expect("requests json");
    all.into_iter().filter(|r| r["method"] == "POST").collect()
}

fn outcome(trace: &Value) -> &Value {
    &trace["outcome"]
}

fn first_error(trace: &Value) -> &Value {
    trace["steps"]
        .as_array()
        .and_then(|s| s.iter().find(|s| !s["error"].is_null()))
        .map(|s| &s["error"])
        .unwrap_or(&Value::Null)
}

#[wasm_bindgen_test]
async fn a_full_run_reaches_the_final_answer() {
    let (scenario, id) = fresh("calc");
    let (trace, events) = run(&agent(&scenario, json!({})), "What is 23 * 17 + 4?").await;
    assert_eq!(outcome(&trace)["answer"], "The result is 395.");
    assert_eq!(trace["steps"].as_array().unwrap().len(), 2);
    assert_eq!(trace["steps"][0]["call"]["tool"], "calculator");
    let kinds: Vec<String> = events
        .seen
        .borrow()
        .iter()
        .map(|e| e["type"].as_str().unwrap_or("").to_string())
        .collect();
    for kind in ["request", "tool_start", "step", "done"] {
        assert!(
            kinds.iter().any(|k| k == kind),
            "no {kind} event in {kinds:?}"
        );
    }
    // the server received the stop sequence and append-only messages
    let sent = mock_requests(&id).await;
    assert_eq!(sent.len(), 2);
    let bodies: Vec<&Value> = sent.iter().map(|r| &r["body"]).rev().collect();
    assert_eq!(bodies[0]["stop"], json!(["Observation:"]));
    let (first, second) = (&bodies[1]["messages"], &bodies[0]["messages"]);
    let n = first.as_array().unwrap().len();
    assert_eq!(
        &second.as_array().unwrap()[..n],
        first.as_array().unwrap().as_slice()
    );
}

#[wasm_bindgen_test]
async fn streaming_with_awkward_chunks_gives_the_same_text() {
    let plain = run(&agent("awkward-chunks", json!({})), "q").await.0;
    let (streamed, events) = run(&agent("awkward-chunks", json!({"stream": true})), "q").await;
    assert_eq!(outcome(&streamed), outcome(&plain));
    let reply = streamed["steps"][0]["reply"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(reply, plain["steps"][0]["reply"]["text"].as_str().unwrap());
    assert!(reply.contains("中文") && reply.contains("😀"), "{reply}");
    assert_eq!(events.streamed(1), reply);
    assert!(events.of("delta").len() > 3, "deltas arrive as they stream");
}

#[wasm_bindgen_test]
async fn a_stream_without_done_still_completes_with_a_notice() {
    let (trace, events) = run(&agent("no-done", json!({"stream": true})), "q").await;
    assert_eq!(outcome(&trace)["type"], "answer");
    assert!(!events.of("notice").is_empty());
}

#[wasm_bindgen_test]
async fn each_error_class_lands_in_the_trace_with_a_message() {
    let cases = [
        ("http401", json!({}), "http", "key"),
        ("http403", json!({}), "http", "OLLAMA_ORIGINS"),
        ("http404", json!({}), "http", "model 'mock-model' not found"),
        ("http500", json!({}), "http", "internal failure"),
        ("not-json", json!({}), "not_json", ""),
        (
            "error-midstream",
            json!({"stream": true}),
            "server",
            "model crashed",
        ),
        ("cors-refuse", json!({}), "network", "OLLAMA_ORIGINS"),
        ("hang", json!({"timeoutMs": 400}), "timeout", ""),
    ];
    for (scenario, extra, kind, words) in cases {
        let (trace, events) = run(&agent(scenario, extra), "q").await;
        assert_eq!(outcome(&trace)["type"], "model_error", "{scenario}");
        assert_eq!(first_error(&trace)["type"], kind, "{scenario}: {trace}");
        let error = events.of("error");
        assert_eq!(error.len(), 1, "{scenario}");
        let text = format!("{} {}", error[0]["message"]["en"], error[0]["hint"]["en"]);
        assert!(!error[0]["message"]["en"].as_str().unwrap_or("").is_empty());
        assert!(!error[0]["message"]["zh"].as_str().unwrap_or("").is_empty());
        assert!(text.contains(words), "{scenario}: {text}");
    }
}

/// A reply over 4 MB (whole, or as JSON instead of a stream) and a stream line over 1 MB that
/// never ends: the run stops with an error that names the limit, the trace is kept.
#[wasm_bindgen_test]
async fn replies_over_the_size_limits_stop_with_a_clear_error() {
    let cases = [
        ("huge-body", json!({}), "body", "larger than 4 MB"),
        (
            "huge-body",
            json!({"stream": true}),
            "body",
            "larger than 4 MB",
        ),
        (
            "endless-line",
            json!({"stream": true}),
            "stream_line",
            "ran past 1 MB without ending",
        ),
    ];
    for (scenario, extra, part, words) in cases {
        let (trace, events) = run(&agent(scenario, extra.clone()), "q").await;
        assert_eq!(outcome(&trace)["type"], "model_error", "{scenario} {extra}");
        let error = first_error(&trace);
        assert_eq!(error["type"], "too_large", "{scenario} {extra}: {error}");
        assert_eq!(error["part"], part, "{scenario} {extra}");
        assert_eq!(trace["steps"].as_array().unwrap().len(), 1);
        let shown = &events.of("error")[0];
        let message = shown["message"]["en"].as_str().unwrap();
        assert!(message.contains(words), "{scenario}: {message}");
        assert!(!shown["hint"]["zh"].as_str().unwrap_or("").is_empty());
    }
    // A model list over the limit is refused the same way.
    let listed = JsFuture::from(list_models(settings("huge-body", json!({})))).await;
    let error = listed.expect_err("refused");
    let detail = rust(js_sys::Reflect::get(&error, &"detail".into()).unwrap());
    assert_eq!(detail["type"], "too_large", "{detail}");
}

#[wasm_bindgen_test]
async fn a_refused_port_is_a_network_error_with_a_fix() {
    let agent = JsAgent::new(js(
        &json!({"baseUrl": "http://127.0.0.1:9/v1", "model": "m"}),
    ))
    .unwrap();
    let (trace, events) = run(&agent, "q").await;
    assert_eq!(first_error(&trace)["type"], "network");
    let hint = events.of("error")[0]["hint"]["en"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(hint.contains("OLLAMA_ORIGINS=http://127.0.0.1"), "{hint}");
}

#[wasm_bindgen_test]
async fn rate_limits_and_503_are_retried_a_bounded_number_of_times() {
    let (scenario, id) = fresh("http429");
    let (trace, _) = run(&agent(&scenario, json!({})), "q").await;
    assert_eq!(first_error(&trace)["status"], 429);
    assert_eq!(mock_requests(&id).await.len(), 3, "three attempts");

    let (scenario, id) = fresh("flaky503");
    let (trace, _) = run(&agent(&scenario, json!({})), "q").await;
    assert_eq!(outcome(&trace)["type"], "answer", "{trace}");
    assert_eq!(
        mock_requests(&id).await.len(),
        4,
        "two 503s, then two steps"
    );
}

#[wasm_bindgen_test]
async fn a_failed_run_can_be_retried_and_keeps_its_trace() {
    let agent = agent("http500", json!({}));
    let (trace, _) = run(&agent, "q").await;
    assert_eq!(outcome(&trace)["type"], "model_error");
    agent.retry(None).unwrap();
    let trace = await_js(agent.resume(None)).await.unwrap();
    assert_eq!(
        trace["steps"].as_array().unwrap().len(),
        2,
        "both attempts kept"
    );
}

/// The fault matrix in the README, "retry works" column: every fault that ends a run with a
/// model error keeps its step, and Retry asks again, adding a step and keeping the first.
#[wasm_bindgen_test]
async fn every_model_fault_keeps_its_step_and_can_be_retried() {
    let refused = JsAgent::new(js(
        &json!({"baseUrl": "http://127.0.0.1:9/v1", "model": "m"}),
    ))
    .unwrap();
    let mut cases = vec![("refused port", refused, "network")];
    for (scenario, extra, kind) in [
        ("cors-refuse", json!({}), "network"),
        ("http401", json!({}), "http"),
        ("http403", json!({}), "http"),
        ("http404", json!({}), "http"),
        ("http429", json!({}), "http"),
        ("http500", json!({}), "http"),
        ("not-json", json!({}), "not_json"),
        ("error-midstream", json!({"stream": true}), "server"),
        ("cut-midstream", json!({"stream": true}), "stream"),
        ("hang", json!({"timeoutMs": 400}), "timeout"),
        ("huge-body", json!({}), "too_large"),
        ("endless-line", json!({"stream": true}), "too_large"),
    ] {
        cases.push((scenario, agent(scenario, extra), kind));
    }
    for (name, agent, kind) in cases {
        let (trace, _) = run(&agent, "q").await;
        assert_eq!(outcome(&trace)["type"], "model_error", "{name}");
        assert_eq!(trace["steps"].as_array().unwrap().len(), 1, "{name}");
        assert_eq!(first_error(&trace)["type"], kind, "{name}: {trace}");
        agent
            .retry(None)
            .unwrap_or_else(|_| panic!("{name}: retry refused"));
        let trace = await_js(agent.resume(None)).await.unwrap();
        let steps = trace["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 2, "{name}: both attempts kept");
        assert_eq!(
            steps[0]["error"]["type"], kind,
            "{name}: the first step is intact"
        );
        assert_eq!(steps[1]["error"]["type"], kind, "{name}: {trace}");
        assert_eq!(outcome(&trace)["type"], "model_error", "{name}");
    }
}

#[wasm_bindgen_test]
async fn abort_mid_stream_stops_at_once_and_keeps_the_trace() {
    let agent = agent("slow-stream", json!({"stream": true, "timeoutMs": 20000}));
    let events = Events::new();
    let running = agent.run("q".into(), Some(events.function.clone()));
    sleep(700).await;
    assert!(!events.of("delta").is_empty(), "streaming had started");
    let trace = abort_now(&agent, running).await;
    assert_eq!(trace["steps"].as_array().unwrap().len(), 1);
    assert_eq!(events.of("done").len(), 1);
}

#[wasm_bindgen_test]
async fn stop_while_auto_asks_the_server_what_it_is_ends_at_once() {
    // "auto" first asks GET /models; a server that never answers must not hold Stop up.
    let agent = agent("hang", json!({"timeoutMs": 60000}));
    let running = agent.run("q".into(), None);
    sleep(300).await;
    let trace = abort_now(&agent, running).await;
    assert!(trace.get("server").is_none(), "no kind was learnt");
}

/// Stops `running` and checks that the run ended as aborted within a second; its trace.
async fn abort_now(agent: &JsAgent, running: Promise) -> Value {
    let started = js_sys::Date::now();
    agent.abort();
    let trace = await_js(running).await.unwrap();
    assert!(js_sys::Date::now() - started < 1000.0, "stopped at once");
    assert_eq!(outcome(&trace)["type"], "aborted");
    trace
}

fn js_tool(agent: &JsAgent, body: &str, timeout_ms: u32) {
    let definition = js_sys::Object::new();
    let set = |k: &str, v: JsValue| js_sys::Reflect::set(&definition, &k.into(), &v).unwrap();
    set("name", "js_tool".into());
    set("description", "A test tool.".into());
    set(
        "parameters",
        js(&json!({"type": "object", "properties": {"x": {"type": "number"}}})),
    );
    set("run", Function::new_with_args("args, options", body).into());
    set("timeoutMs", timeout_ms.into());
    agent.register_tool(definition.into()).unwrap();
}

/// The Tools panel asks the core without an agent: the built-in specs, and whether a
/// definition would register (the same messages as registerTool).
#[wasm_bindgen_test]
fn tools_are_listed_and_checked_without_an_agent() {
    let names: Vec<String> = rust(builtin_tools().unwrap())
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["calculator", "search_docs", "current_time"]);
    let definition = |name: &str, run: bool| {
        let d = js_sys::Object::new();
        let set = |k: &str, v: JsValue| js_sys::Reflect::set(&d, &k.into(), &v).unwrap();
        set("name", name.into());
        set("description", "d".into());
        set(
            "parameters",
            js(&json!({"type": "object", "properties": {}})),
        );
        if run {
            set("run", Function::new_no_args("return 1").into());
        }
        JsValue::from(d)
    };
    assert!(check_tool(definition("lookup", true)).is_ok());
    let message = |e: JsValue| js_sys::Error::from(e).message().as_string().unwrap();
    let taken = message(check_tool(definition("calculator", true)).unwrap_err());
    assert!(taken.contains("calculator"), "{taken}");
    let no_run = message(check_tool(definition("lookup", false)).unwrap_err());
    assert!(no_run.contains("run(args)"), "{no_run}");
}

#[wasm_bindgen_test]
async fn misbehaving_js_tools_become_observations() {
    let cases = [
        ("js-throw", "throw new Error('boom')", "boom"),
        (
            "js-reject",
            "return Promise.reject(new Error('nope'))",
            "nope",
        ),
        (
            "js-hang",
            "return new Promise(() => {})",
            "did not answer within 300 ms",
        ),
        (
            "js-object",
            "return {a: 1, list: [2, 3]}",
            "{\"a\":1,\"list\":[2,3]}",
        ),
        (
            "js-circular",
            "const o = {}; o.self = o; return o",
            "cannot be written as text",
        ),
        ("js-undefined", "return undefined", "returned nothing"),
        ("js-object", "return 41 + args.x", "42"),
    ];
    for (scenario, body, expected) in cases {
        let agent = agent(scenario, json!({}));
        js_tool(&agent, body, 300);
        let (trace, _) = run(&agent, "q").await;
        let observation = trace["steps"][0]["observation"]["text"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(observation.contains(expected), "{scenario}: {observation}");
        assert_eq!(
            outcome(&trace)["type"],
            "answer",
            "{scenario}: the run goes on"
        );
    }
}

#[wasm_bindgen_test]
async fn a_js_tool_is_told_when_the_agent_stops_waiting() {
    // The agent's own timeout: the tool's signal aborts, so a tool running elsewhere can stop.
    let hanging = agent("js-hang", json!({}));
    js_tool(
        &hanging,
        "globalThis.__toolSignal = options.signal; return new Promise(() => {})",
        300,
    );
    let (trace, _) = run(&hanging, "q").await;
    let text = trace["steps"][0]["observation"]["text"].as_str().unwrap();
    assert!(text.contains("did not answer within 300 ms"), "{text}");
    let signal = js_sys::Reflect::get(&js_sys::global(), &"__toolSignal".into()).unwrap();
    let aborted = js_sys::Reflect::get(&signal, &"aborted".into()).unwrap();
    assert_eq!(aborted, JsValue::TRUE);

    // A tool with a limit of its own (www/worker-tool.js) rejects with a TimeoutError.
    let limited = agent("js-hang", json!({}));
    js_tool(
        &limited,
        "const e = new Error('its worker was stopped after 50 ms without an answer'); \
         e.name = 'TimeoutError'; return Promise.reject(e)",
        300,
    );
    let (trace, _) = run(&limited, "q").await;
    let step = &trace["steps"][0];
    assert_eq!(step["observation"]["source"], "tool_error");
    let text = step["observation"]["text"].as_str().unwrap();
    assert!(
        text.contains("js_tool timed out: its worker was stopped after 50 ms"),
        "{text}"
    );
}

#[wasm_bindgen_test]
async fn a_huge_js_result_is_truncated() {
    let agent = agent("big-observation", json!({}));
    js_tool(&agent, "return 'x'.repeat(1000000)", 2000);
    let (trace, _) = run(&agent, "q").await;
    let observation = &trace["steps"][0]["observation"];
    assert!(observation["text"].as_str().unwrap().contains("truncated"));
    assert_eq!(
        trace["steps"][0]["guards"][0]["type"],
        "observation_truncated"
    );
}

#[wasm_bindgen_test]
async fn step_through_with_an_edited_reply() {
    let (scenario, id) = fresh("calc");
    let agent = agent(&scenario, json!({}));
    // `auto`: the first step asks the server what it is, then the model (here, the edit);
    // `start` says so as the `next` event would.
    let next = rust(agent.start("What is 2 + 3?").unwrap());
    assert_eq!(next, json!({"type": "call_model", "step": 1}));
    let edit = js(
        &json!({"reply": "Thought: edited\nAction: calculator\nAction Input: {\"expression\": \"2 + 3\"}"}),
    );
    let next = await_js(agent.step(None, edit)).await.unwrap();
    assert_eq!(next["type"], "run_tool");
    assert_eq!(next["call"]["args"]["expression"], "2 + 3");
    let next = await_js(agent.step(None, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(next["type"], "call_model");
    let trace = rust(agent.trace().unwrap());
    assert_eq!(trace["steps"][0]["reply"]["edited"], true);
    assert_eq!(trace["steps"][0]["observation"]["text"], "5");
    assert!(
        mock_requests(&id).await.is_empty(),
        "the edited step asked no model"
    );
    let next = await_js(agent.step(None, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(next, json!({"type": "done"}));
    let trace = rust(agent.trace().unwrap());
    assert_eq!(trace["outcome"]["answer"], "The result is 5.");
    assert_eq!(mock_requests(&id).await.len(), 1);
}

#[wasm_bindgen_test]
async fn ask_shows_the_reply_before_it_is_fed_and_an_edit_replaces_it() {
    let (scenario, id) = fresh("calc");
    let agent = agent(&scenario, json!({}));
    agent.start("What is 23 * 17 + 4?").unwrap();
    let asked = await_js(agent.ask(None)).await.unwrap();
    assert!(asked["text"]
        .as_str()
        .unwrap()
        .contains("Action: calculator"));
    assert_eq!(
        rust(agent.pending().unwrap())["type"],
        "call_model",
        "not fed yet"
    );
    let edited = asked["text"]
        .as_str()
        .unwrap()
        .replace("23 * 17 + 4", "2 * 21");
    let edit = js(
        &json!({"reply": edited, "usage": asked["usage"], "elapsedMs": asked["elapsed_ms"], "edited": true}),
    );
    let next = await_js(agent.step(None, edit)).await.unwrap();
    assert_eq!(next["call"]["args"]["expression"], "2 * 21");
    assert_eq!(
        mock_requests(&id).await.len(),
        1,
        "the edit did not ask again"
    );
    let trace = rust(agent.trace().unwrap());
    assert_eq!(trace["steps"][0]["reply"]["edited"], true);
    assert!(trace["steps"][0]["reply"]["elapsed_ms"].as_f64().is_some());
}

#[wasm_bindgen_test]
async fn an_abort_keeps_the_text_streamed_so_far() {
    let agent = agent("slow-stream", json!({"stream": true, "timeoutMs": 20000}));
    let running = agent.run("q".into(), None);
    sleep(900).await;
    agent.abort();
    let trace = await_js(running).await.unwrap();
    let partial = trace["steps"][0]["reply"]["text"].as_str().unwrap_or("");
    assert!(
        !partial.is_empty() && "Thought: ".starts_with(&partial[..partial.len().min(9)]),
        "{partial:?}"
    );
}

#[wasm_bindgen_test]
async fn an_exported_trace_loads_back_for_replay() {
    let agent = agent("calc", json!({}));
    let (trace, _) = run(&agent, "q").await;
    let exported = agent.export_trace().unwrap();
    assert!(!exported.contains("apiKey") && !exported.contains("api_key"));
    assert!(exported.contains("\"model\": \"mock-model\""));
    let loaded = rust(load_trace(&exported).unwrap());
    assert_eq!(loaded, trace);
    let newer = exported.replacen("\"version\": 1", "\"version\": 7", 1);
    let error = load_trace(&newer).unwrap_err();
    let message = js_sys::Reflect::get(&error, &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(message.contains("version 7"), "{message}");
}

#[wasm_bindgen_test]
fn a_trace_over_the_step_limit_is_refused_with_the_limit() {
    let steps = vec![json!({}); 2001];
    let error = load_trace(&json!({"version": 1, "steps": steps}).to_string()).unwrap_err();
    let message = js_sys::Reflect::get(&error, &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(
        message.contains("2001 steps") && message.contains("at most 2000"),
        "{message}"
    );
    let limits = rust(reactloop_wasm::limits().unwrap());
    assert_eq!(limits["traceSteps"], 2000);
    assert_eq!(limits["traceBytes"], 20_000_000);
}

#[wasm_bindgen_test]
async fn the_demo_model_runs_without_any_server() {
    let agent = JsAgent::new(js(&json!({"demo": true}))).unwrap();
    let (trace, events) = run(&agent, "What is RAG?").await;
    assert_eq!(outcome(&trace)["type"], "answer");
    assert!(!events.of("delta").is_empty());
}

#[wasm_bindgen_test]
fn bad_settings_get_clear_errors() {
    for (settings, words) in [
        (json!({"baseUrl": "", "model": "m"}), "URL"),
        (json!({"baseUrl": "ftp://x", "model": "m"}), "http"),
        (json!({"demo": true, "maxSteps": -2}), "maxSteps"),
    ] {
        let error = JsAgent::new(js(&settings)).err().expect("refused");
        let message = js_sys::Reflect::get(&error, &"message".into())
            .unwrap()
            .as_string()
            .unwrap();
        assert!(message.contains(words), "{message}");
    }
}

#[wasm_bindgen_test]
async fn an_agent_runs_again_after_an_abort() {
    let agent = JsAgent::new(js(&json!({"demo": true, "demoDelayMs": 50}))).unwrap();
    let running = agent.run("What is 23 * 17 + 4?".into(), None);
    sleep(120).await;
    agent.abort();
    let trace = await_js(running).await.unwrap();
    assert_eq!(outcome(&trace)["type"], "aborted");
    let agent_again = JsAgent::new(js(&json!({"demo": true}))).unwrap();
    let (fresh, _) = run(&agent_again, "What is 23 * 17 + 4?").await;
    assert_eq!(outcome(&fresh)["type"], "answer");
    let (again, _) = run(&agent, "What is 23 * 17 + 4?").await;
    assert_eq!(
        outcome(&again),
        outcome(&fresh),
        "the aborted agent's next run is whole"
    );
}

/// Settings cross to Rust as JSON: numbers JSON cannot hold are refused by name instead of
/// becoming null, `undefined` fields count as missing, and a safe-integer BigInt is a number.
#[wasm_bindgen_test]
fn settings_cross_as_json() {
    let with = |key: &str, value: JsValue| {
        let settings = js(&json!({"demo": true}));
        js_sys::Reflect::set(&settings, &key.into(), &value).unwrap();
        settings
    };
    let message = |error: JsValue| {
        js_sys::Reflect::get(&error, &"message".into())
            .unwrap()
            .as_string()
            .unwrap()
    };
    let chinese = |error: &JsValue| {
        js_sys::Reflect::get(error, &"text".into())
            .and_then(|text| js_sys::Reflect::get(&text, &"zh".into()))
            .ok()
            .and_then(|zh| zh.as_string())
            .unwrap_or_default()
    };
    for (key, value, words, zh) in [
        (
            "maxSteps",
            f64::NAN,
            "maxSteps must be a finite number (got NaN)",
            "设置无效：maxSteps 必须是有限的数（收到的是 NaN）",
        ),
        (
            "temperature",
            f64::NEG_INFINITY,
            "temperature must be a finite number (got -Infinity)",
            "设置无效：temperature 必须是有限的数（收到的是 -Infinity）",
        ),
    ] {
        let error = JsAgent::new(with(key, value.into()))
            .err()
            .expect("refused");
        assert_eq!(chinese(&error), zh);
        let message = message(error);
        assert!(message.contains(words), "{message}");
        assert!(message.starts_with("Invalid settings"), "{message}");
    }
    let error = JsAgent::new(with("maxSteps", "3".into()))
        .err()
        .expect("refused");
    assert!(message(error).contains("expected f64"));
    assert!(JsAgent::new(with("maxSteps", JsValue::UNDEFINED)).is_ok());
    assert!(JsAgent::new(with("seed", js_sys::BigInt::from(7u32).into())).is_ok());
    let error = JsAgent::new(with("seed", js_sys::BigInt::from(u64::MAX).into()))
        .err()
        .expect("refused");
    assert!(chinese(&error).contains("seed 是一个 BigInt"));
    assert!(message(error).contains("seed is a BigInt too large"));
}

#[wasm_bindgen_test]
async fn an_abort_during_ask_keeps_the_streamed_text_too() {
    let agent = agent("slow-stream", json!({"stream": true, "timeoutMs": 20000}));
    agent.start("q").unwrap();
    let asking = agent.ask(None);
    sleep(900).await;
    agent.abort();
    assert!(await_js(asking).await.is_err(), "the ask was aborted");
    let trace = rust(agent.trace().unwrap());
    assert_eq!(outcome(&trace)["type"], "aborted");
    let partial = trace["steps"][0]["reply"]["text"].as_str().unwrap_or("");
    assert!(partial.starts_with("Th"), "{partial:?}");
}

// ---------------------------------------------------------------- a model in the page (useModel)

/** An Agent whose model is a JavaScript function (as the in-page engine's is). */
fn in_page_agent(body: &str) -> JsAgent {
    let agent = JsAgent::new(js(
        &json!({"inPage": true, "model": "in-page test", "maxTokens": 64}),
    ))
    .expect("inPage needs no baseUrl");
    agent.use_model(Some(Function::new_with_args("body, options", body)));
    agent
}

#[wasm_bindgen_test]
async fn a_model_function_gets_the_grammar_and_streams_like_a_server() {
    let agent = in_page_agent(
        r#"
        (globalThis.__bodies ??= []).push(body);
        const text = globalThis.__bodies.length === 1
          ? 'Thought: To answer this, I need the calculator.\nAction: calculator\nAction Input: {"expression": "23 * 17 + 4"}'
          : 'Thought: The Observation shows 395.\nAction: final_answer\nAction Input: The answer is 395.';
        for (let i = 0; i < text.length; i += 7) options.onDelta(text.slice(i, i + 7));
        return Promise.resolve({ text, usage: { prompt_tokens: 100, completion_tokens: 20 } });
        "#,
    );
    let (trace, events) = run(&agent, "What is 23 * 17 + 4?").await;
    assert_eq!(outcome(&trace)["type"], "answer");
    assert_eq!(
        trace["server"],
        json!({"kind": "in_page", "constrained": "grammar"})
    );
    let bodies = rust(js_sys::Reflect::get(&js_sys::global(), &"__bodies".into()).unwrap());
    let first = &bodies[0];
    assert!(first["grammar"].as_str().unwrap().starts_with("root ::= "));
    assert_eq!(first["cache_prompt"], true);
    assert_eq!(first["stream"], true);
    assert_eq!(first["max_tokens"], 64);
    assert_eq!(first["messages"][0]["role"], "system");
    // The second request is the first one plus what happened since: append-only.
    let (a, b) = (
        first["messages"].as_array().unwrap(),
        bodies[1]["messages"].as_array().unwrap(),
    );
    assert_eq!(&b[..a.len()], &a[..]);
    // The pieces arrived as delta events and make up the reply.
    assert_eq!(events.streamed(1), trace["steps"][0]["reply"]["text"]);
    assert_eq!(trace["steps"][0]["reply"]["usage"]["completion_tokens"], 20);
}

#[wasm_bindgen_test]
async fn stop_abandons_a_model_function_at_once_and_keeps_its_text() {
    let agent = in_page_agent(
        r#"
        options.onDelta('Thought: I will');
        globalThis.__signal = options.signal;
        return new Promise(() => {}); // an engine that never answers
        "#,
    );
    let events = Events::new();
    let running = agent.run("q".into(), Some(events.function.clone()));
    sleep(300).await;
    let trace = abort_now(&agent, running).await;
    assert_eq!(trace["steps"][0]["reply"]["text"], "Thought: I will");
    // The function was told to stop.
    let signal = js_sys::Reflect::get(&js_sys::global(), &"__signal".into()).unwrap();
    assert_eq!(
        js_sys::Reflect::get(&signal, &"aborted".into()).unwrap(),
        JsValue::TRUE
    );
}

#[wasm_bindgen_test]
async fn a_failing_model_function_is_a_model_error_and_no_function_says_so() {
    // A function's own error keeps its words; the in-page engine's code reaches the trace,
    // and the core words it (a code it does not know is `other`).
    let cases = [
        (
            "return Promise.reject(new Error('the engine ran out of memory'));",
            "other",
            "the engine ran out of memory",
        ),
        (
            "throw Object.assign(new Error('context'), {code: 'context', detail: 'kv cache full'});",
            "context",
            "kv cache full",
        ),
        (
            "return Promise.reject(Object.assign(new Error('x'), {code: 'not_loaded'}));",
            "not_loaded",
            "",
        ),
        (
            "return Promise.reject(Object.assign(new Error('gone'), {code: 'who_knows'}));",
            "other",
            "gone",
        ),
    ];
    for (body, code, detail) in cases {
        let (trace, _) = run(&in_page_agent(body), "q").await;
        assert_eq!(outcome(&trace)["type"], "model_error", "{body}");
        let error = first_error(&trace);
        assert_eq!(error["type"], "page_model", "{body}: {error}");
        assert_eq!(error["code"], code, "{body}: {error}");
        assert_eq!(error["detail"], detail, "{body}: {error}");
    }
    // inPage without useModel: a sentence, not a request to an empty URL.
    let agent = JsAgent::new(js(&json!({"inPage": true}))).unwrap();
    let (trace, _) = run(&agent, "q").await;
    assert_eq!(first_error(&trace)["code"], "not_loaded");
}

#[wasm_bindgen_test]
async fn each_strategy_sends_its_own_constraint_and_a_fork_goes_on_from_its_step() {
    // Chain of thought offers no tool, also in the grammar the server gets.
    let (scenario, id) = fresh("calc");
    let settings = json!({"strategy": "cot", "constrained": "grammar"});
    let (trace, _) = run(&agent(&scenario, settings), "What is 23 * 17 + 4?").await;
    let sent = mock_requests(&id).await;
    let grammar = sent[0]["body"]["grammar"].as_str().expect("a grammar");
    assert!(grammar.contains("final_answer"), "{grammar}");
    assert!(!grammar.contains("calculator"), "no tool in {grammar}");
    assert_eq!(trace["config"]["strategy"], "cot");
    // Plan asks for a plan first, with the plan's own grammar.
    let (scenario, id) = fresh("calc");
    let settings = json!({"strategy": "plan", "constrained": "grammar", "maxSteps": 2});
    run(&agent(&scenario, settings), "What is 23 * 17 + 4?").await;
    let sent = mock_requests(&id).await;
    let grammar = sent[0]["body"]["grammar"].as_str().expect("a grammar");
    assert!(grammar.starts_with("root ::= \"Plan:\\n1. \""), "{grammar}");
    // A fork from step 2's reply keeps step 1 and asks the model again from there.
    let (scenario, id) = fresh("calc");
    let original = agent(&scenario, json!({}));
    let (trace, _) = run(&original, "What is 23 * 17 + 4?").await;
    assert_eq!(outcome(&trace)["answer"], "The result is 395.");
    let fork = original
        .fork(2, "reply")
        .expect("step 2 waited for a reply");
    let events = Events::new();
    let edit = js(&json!({"reply": "Thought: t\nAction: final_answer\nAction Input: It is 395."}));
    await_js(fork.step(Some(events.function.clone()), edit))
        .await
        .expect("the edit is fed");
    let forked = rust(fork.trace().unwrap());
    assert_eq!(outcome(&forked)["answer"], "It is 395.");
    assert_eq!(forked["steps"][0], trace["steps"][0]);
    assert_eq!(
        mock_requests(&id).await.len(),
        2,
        "the fork asked nothing: its reply was given"
    );
    assert!(original.fork(2, "tool").is_err());
}

/// In the wasm the calculator's functions are the browser's `Math` (src/math.rs): its results,
/// as the model reads them, are the ones the native build gives with std's libm.
#[wasm_bindgen_test]
fn the_calculator_reads_the_same_with_the_browsers_math() {
    use reactloop::tools::{evaluate, format_number};
    let native = [
        ("sin(pi / 6)", "0.5"),
        ("cos(pi)", "-1"),
        ("tan(pi / 4)", "1"),
        ("exp(1)", "2.71828182846"),
        ("ln(10)", "2.30258509299"),
        ("log10(1000)", "3"),
        ("log(8, 2)", "3"),
        ("log(0.001)", "-3"),
        ("2 ^ 10", "1024"),
        ("2 ^ 0.5", "1.41421356237"),
        ("29 ^ 0.23", "2.16945946249"),
        ("1000 * 1.05 ^ 12", "1795.85632602"),
        ("1.0001 ^ 10000", "2.71814592682"),
        ("sin(1e6)", "-0.349993502171"),
        ("cos(123456789)", "0.140259681534"),
        ("tan(1.5)", "14.1014199472"),
        ("exp(-20)", "2.06115362244e-9"),
        ("ln(2) / ln(1.07)", "10.2447683511"),
    ];
    for (expr, want) in native {
        let got = evaluate(expr).map(format_number);
        assert_eq!(got.as_deref(), Ok(want), "{expr}");
    }
}
