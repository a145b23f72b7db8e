//! The events a run reports (`reactloop::events`), natively: what each transition causes,
//! with its sentences, and only for the steps it touched.

use reactloop::agent::{Agent, ToolResult};
use reactloop::config::AgentConfig;
use reactloop::events::{Event, Part, Pending, Run};
use reactloop::llm::{Constrained, LlmError};
use reactloop::tools::{default_documents, HostContext, Registry};
use reactloop::trace::ModelReply;
use serde_json::{json, Value};

const HOST: HostContext = HostContext {
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 480,
};
const CALC: &str = "Thought: compute\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}";
const FINAL: &str = "Thought: done\nAction: final_answer\nAction Input: 42";

fn run() -> Run {
    let config = AgentConfig {
        constrained: Constrained::Off,
        ..AgentConfig::default()
    };
    let agent = Agent::new(
        "What is 6*7?",
        Registry::with_builtins(default_documents()),
        config,
    );
    Run::new(agent, "http://localhost:8000")
}

fn reply(text: &str) -> ModelReply {
    ModelReply {
        text: text.into(),
        ..ModelReply::default()
    }
}

fn tool(run: &mut Run) -> Vec<Event> {
    let output = run.agent().run_builtin(&HOST).expect("a built-in call");
    run.feed_tool(ToolResult {
        output,
        elapsed_ms: None,
        edited: false,
    })
    .expect("the run waits for the tool")
}

/// The events as the page gets them: `(type, step index or null)`.
fn kinds(events: &[Event]) -> Vec<(String, Value)> {
    events
        .iter()
        .map(|e| {
            let v = serde_json::to_value(e).unwrap();
            let step = match &v["step"] {
                Value::Object(s) => s["index"].clone(),
                other => other.clone(),
            };
            (v["type"].as_str().unwrap().to_string(), step)
        })
        .collect()
}

fn step_views(events: &[Event]) -> Vec<Value> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Step { step } => Some(step.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn each_transition_reports_its_steps_what_comes_next_and_the_end() {
    let mut run = run();
    assert_eq!(run.pending(), Pending::CallModel { step: 1 });
    let events = run.feed_model(reply(CALC)).unwrap();
    assert_eq!(
        kinds(&events),
        [("step".into(), json!(1)), ("next".into(), Value::Null)]
    );
    let Event::Next {
        next: Pending::RunTool { step: 1, call },
    } = &events[1]
    else {
        panic!("{events:?}")
    };
    assert_eq!(call.tool, "calculator");

    // The tool's result completes step 1 and opens step 2.
    let events = tool(&mut run);
    assert_eq!(
        kinds(&events),
        [
            ("step".into(), json!(1)),
            ("step".into(), json!(2)),
            ("next".into(), Value::Null)
        ]
    );
    assert_eq!(run.pending(), Pending::CallModel { step: 2 });

    let events = run.feed_model(reply(FINAL)).unwrap();
    let Some(Event::Done { message, .. }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(message.en, "Final answer: 42");
    assert_eq!(message.zh, "最终答案：42");
    assert!(matches!(
        &events[events.len() - 2],
        Event::Next {
            next: Pending::Done
        }
    ));
}

#[test]
fn only_a_step_new_in_the_transition_carries_its_request() {
    let mut run = run();
    // Step 1's request went out in its `request` event: its reply does not send it again.
    let views = step_views(&run.feed_model(reply(CALC)).unwrap());
    assert_eq!(views.len(), 1);
    assert!(views[0].get("request").is_none(), "{:?}", views[0]);
    // The tool's result completes step 1 (known) and opens step 2 (new: a paused page shows
    // the prompt it will send).
    let views = step_views(&tool(&mut run));
    assert_eq!(views.len(), 2);
    assert!(views[0].get("request").is_none(), "{:?}", views[0]);
    let sent = &views[1]["request"];
    assert_eq!(
        sent,
        &serde_json::to_value(&run.agent().trace().steps[1].request).unwrap()
    );
    assert_eq!(sent["messages"].as_array().map(Vec::len), Some(3));
}

#[test]
fn a_step_carries_its_sentences_and_utf16_spans() {
    let mut run = run();
    let events = run.feed_model(reply("Thought: 想一想 😀")).unwrap();
    let guard = events
        .iter()
        .find_map(|e| match e {
            Event::Guard { explanation, .. } => Some(explanation.clone()),
            _ => None,
        })
        .expect("a format_feedback guard");
    assert!(guard.en.contains("format error 1 in a row"), "{}", guard.en);
    assert!(guard.zh.contains("连续第 1 次"), "{}", guard.zh);
    let step = &step_views(&events)[0];
    let view = &step["view"];
    assert_eq!(view["guards"][0]["en"], json!(guard.en));
    // The Chinese is a whole sentence, with no English in brackets after it.
    assert_eq!(
        view["format_error"]["zh"],
        json!("只有 Thought，没有 Action 或 Final Answer")
    );
    // "Thought: " is 9 units; 想一想 3, the space 1 and the emoji 2 make 15.
    assert_eq!(view["spans"]["thought"], json!({"start": 9, "end": 15}));
    assert_eq!(view["can_retry"], json!(false));
}

#[test]
fn a_model_error_can_be_retried_and_the_failed_card_says_so_until_then() {
    let mut run = run();
    let error = LlmError::Timeout { ms: 1000 };
    let events = run.feed_model_error(error.clone()).unwrap();
    assert_eq!(
        kinds(&events)
            .iter()
            .map(|k| k.0.as_str())
            .collect::<Vec<_>>(),
        ["step", "error", "next", "done"]
    );
    let failed = &step_views(&events)[0];
    assert_eq!(failed["view"]["can_retry"], json!(true));
    assert_eq!(
        failed["view"]["error"]["message"],
        json!({"en": error.to_string(), "zh": "模型没有在 1 s 内回答。"})
    );

    let events = run.retry().unwrap();
    let steps = step_views(&events);
    assert_eq!(
        steps
            .iter()
            .map(|s| (s["index"].clone(), s["view"]["can_retry"].clone()))
            .collect::<Vec<_>>(),
        [(json!(1), json!(false)), (json!(2), json!(false))]
    );
    assert_eq!(run.pending(), Pending::CallModel { step: 2 });
}

#[test]
fn a_stop_keeps_the_partial_reply_of_a_model_call_only() {
    let mut run = run();
    let events = run.abort(Some("Thought: hal".into()));
    let step = &step_views(&events)[0];
    assert_eq!(step["reply"]["text"], json!("Thought: hal"));
    assert!(matches!(events.last(), Some(Event::Done { .. })));
    // Once over, a stop reports nothing.
    assert!(run.abort(Some("more".into())).is_empty());
    // Stopped while its tool runs, the step keeps its reply; the text is no reply of it.
    let mut run = self::run();
    run.feed_model(reply(CALC)).unwrap();
    let events = run.abort(Some("Thought: stale".into()));
    let step = &step_views(&events)[0];
    assert_eq!(step["reply"]["text"], json!(CALC));
}

#[test]
fn a_transition_reports_only_the_steps_it_touched() {
    let mut run = run();
    for n in 0..5 {
        let call = format!("Action: calculator\nAction Input: {{\"expression\": \"6*7+{n}\"}}");
        run.feed_model(reply(&call)).unwrap();
        tool(&mut run);
    }
    // Step 6 is waiting; a reply to it reports step 6 only, however long the run is.
    let events = run.feed_model(reply(FINAL)).unwrap();
    let indices: Vec<_> = step_views(&events)
        .iter()
        .map(|s| s["index"].clone())
        .collect();
    assert_eq!(indices, [json!(6)]);
}

#[test]
fn a_fork_starts_from_a_steps_history_and_leaves_the_run_alone() {
    let mut run = run();
    run.feed_model(reply(CALC)).unwrap();
    tool(&mut run);
    run.feed_model(reply(FINAL)).unwrap();
    let original = run.agent().trace().clone();
    assert_eq!(original.steps.len(), 2);

    // From step 2's reply: step 1 as it was, step 2 waiting for the model again.
    let mut fork = run.fork(2, Part::Reply).expect("step 2 waited for a reply");
    assert_eq!(fork.pending(), Pending::CallModel { step: 2 });
    assert_eq!(fork.agent().trace().steps[0], original.steps[0]);
    let edited = "Thought: check\nAction: calculator\nAction Input: {\"expression\": \"7*6\"}";
    fork.feed_model(reply(edited)).unwrap();
    tool(&mut fork);
    fork.feed_model(reply(FINAL)).unwrap();
    assert_eq!(fork.agent().trace().steps.len(), 3);
    assert_eq!(
        run.agent().trace(),
        &original,
        "the original run is untouched"
    );

    // From step 1's Observation: the call made, its result to be given.
    let mut fork = run
        .fork(1, Part::Observation)
        .expect("step 1 waited for its tool");
    assert!(matches!(fork.pending(), Pending::RunTool { step: 1, .. }));
    fork.feed_tool(ToolResult {
        output: Ok("41".into()),
        elapsed_ms: None,
        edited: true,
    })
    .unwrap();
    let step = &fork.agent().trace().steps[0];
    assert_eq!(
        step.observation.as_ref().map(|o| o.text.as_str()),
        Some("41")
    );
    // A fork of a fork goes on from its own history.
    assert!(fork.fork(1, Part::Observation).is_some());
    // A step the run never waited at has no fork.
    assert!(run.fork(2, Part::Observation).is_none());
    assert!(run.fork(9, Part::Reply).is_none());
}

/// A fork is the run replayed to its step: what was fed before it (a model error and the
/// retry that followed, an edited tool result) is there, exactly as the run had it.
#[test]
fn a_fork_replays_what_was_fed_before_its_step() {
    let mut run = run();
    run.feed_model_error(LlmError::Network {
        url: "http://localhost:8080/v1/chat/completions".into(),
        detail: "connection refused".into(),
    })
    .unwrap();
    // The retry opens step 2; its call runs with an edited result.
    run.retry().unwrap();
    run.feed_model(reply(CALC)).unwrap();
    run.feed_tool(ToolResult {
        output: Ok("41".into()),
        elapsed_ms: Some(3.0),
        edited: true,
    })
    .unwrap();
    let before_answer = run.agent().clone();
    run.feed_model(reply(FINAL)).unwrap();

    let fork = run.fork(3, Part::Reply).expect("step 3 waited for a reply");
    assert!(fork.agent().trace() == before_answer.trace());
    assert_eq!(fork.agent().next(), before_answer.next());
    // A fork of the fork, at the tool's result, is the run's own fork there.
    let again = fork
        .fork(2, Part::Observation)
        .expect("the fork ran step 2's tool");
    let direct = run.fork(2, Part::Observation).expect("the run did");
    assert!(again.agent().trace() == direct.agent().trace());
    assert!(matches!(again.pending(), Pending::RunTool { step: 2, .. }));
    // Step 1 never got a reply: it has no fork of its reply past the error.
    let first = run.fork(2, Part::Reply).expect("step 2 waited for a reply");
    assert_eq!(first.agent().trace().steps.len(), 2);
    assert!(first.agent().trace().steps[1].reply.is_none());
}
