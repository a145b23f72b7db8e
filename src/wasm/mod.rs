//! The browser driver: wasm-bindgen glue around the core. It converts values, does the I/O
//! the agent asks for (fetch, JS tools, timers) and reports what happens as events. Errors
//! cross to JS in one helper, [`js_error`].

mod client;
mod js_model;
mod js_tools;
mod timer;

use std::cell::{Cell, RefCell};
use std::fmt::Display;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, JSON};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortController;

use crate::agent::{self, AgentConfig, Guard, ModelReply, Next, Outcome, ToolResult, Trace};
use crate::history::MessageStyle;
use crate::llm::{
    ClientConfig, Constrained, LlmError, ModelRequest, ServerKind, Usage, DEFAULT_TIMEOUT_MS,
};
use crate::prompt::{FewShot, Lang, PromptConfig};
use crate::tools::{Document, HostContext, Registry, ToolCall, ToolSpec};
use js_tools::JsTool;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

#[wasm_bindgen(start)]
fn install_panic_hook() {
    // A bug that still panics is reported in the console instead of a bare "unreachable".
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("reactloop bug: {info}").into());
    }));
}

/// Rust → JS through JSON text and `JSON.parse`. Going through serde_json's `Value` builds
/// each type's `Serialize` once, for the `Value` serializer, which the request bodies and the
/// trace export use as well; a second serde format here would double that code in the wasm.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, serde_json::Error> {
    let text = serde_json::to_string(&serde_json::to_value(value)?)?;
    // serde_json writes valid JSON, so this cannot fail.
    Ok(JSON::parse(&text).unwrap_or(JsValue::NULL))
}

/// The one place errors become JS values: an `Error` with the message, plus `hint` and the
/// typed `detail` when there are any.
fn js_error(message: impl Display, hint: Option<String>, detail: Option<JsValue>) -> JsValue {
    let error = js_sys::Error::new(&message.to_string());
    if let Some(hint) = hint {
        let _ = Reflect::set(&error, &"hint".into(), &hint.into());
    }
    if let Some(detail) = detail {
        let _ = Reflect::set(&error, &"detail".into(), &detail);
    }
    error.into()
}

fn llm_error(error: &LlmError) -> JsValue {
    js_error(error, error.hint(&timer::page_origin()), to_js(error).ok())
}

/// JS → Rust through `JSON.stringify` and serde_json's `Value`, so each type's `Deserialize`
/// is built once (for `Value`, which `Trace::from_json` uses too). Numbers JSON cannot hold
/// (NaN, ±Infinity) are refused by name instead of silently becoming null; a BigInt that is
/// a safe integer passes as a number.
fn from_js<T: for<'de> Deserialize<'de>>(value: JsValue, what: &str) -> Result<T, JsValue> {
    let invalid =
        |message: &dyn Display| js_error(format!("Invalid {what}: {message}"), None, None);
    let replacer = Closure::<dyn FnMut(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
        |key: JsValue, value: JsValue| json_number(&key, value),
    );
    let text = JSON::stringify_with_replacer(&value, replacer.as_ref())
        .map_err(|e| invalid(&client::js_message(&e)))?;
    // `undefined`, a function or a symbol has no JSON text; it reads as null.
    let text = text.as_string().unwrap_or_else(|| "null".to_string());
    serde_json::from_str::<serde_json::Value>(&text)
        .and_then(serde_json::from_value)
        .map_err(|e| invalid(&e))
}

/// The `JSON.stringify` replacer of [`from_js`].
fn json_number(key: &JsValue, value: JsValue) -> Result<JsValue, JsValue> {
    let name = || match key.as_string() {
        Some(key) if !key.is_empty() => key,
        _ => "the value".to_string(),
    };
    if value.is_bigint() {
        return match i64::try_from(value.unchecked_into::<js_sys::BigInt>()) {
            Ok(n) if n.unsigned_abs() < 1 << 53 => Ok((n as f64).into()),
            _ => Err(js_sys::Error::new(&format!(
                "{} is a BigInt too large for a JavaScript number",
                name()
            ))
            .into()),
        };
    }
    match value.as_f64() {
        Some(n) if !n.is_finite() => {
            let got = if n.is_nan() {
                "NaN"
            } else if n > 0.0 {
                "Infinity"
            } else {
                "-Infinity"
            };
            Err(
                js_sys::Error::new(&format!("{} must be a finite number (got {got})", name()))
                    .into(),
            )
        }
        _ => Ok(value),
    }
}

/// The settings object the page passes to `new Agent(settings)`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Settings {
    /// Use the scripted demo model instead of a server.
    demo: bool,
    /// The model is the page's own function (`useModel`, e.g. the in-page engine): no server.
    in_page: bool,
    /// Milliseconds between the demo model's streamed pieces (0 = at once).
    demo_delay_ms: u32,
    base_url: String,
    api_key: Option<String>,
    model: String,
    temperature: Option<f64>,
    max_tokens: Option<u32>,
    stream: bool,
    seed: Option<u64>,
    timeout_ms: Option<u32>,
    constrained: Constrained,
    act_first: Option<bool>,
    lang: Lang,
    template: Option<String>,
    system_prompt: Option<String>,
    few_shot: Vec<FewShot>,
    max_steps: Option<f64>,
    max_format_errors: Option<f64>,
    max_repeats: Option<f64>,
    observation_limit: Option<f64>,
    history_rounds: Option<f64>,
    restate_question: bool,
    style: MessageStyle,
    stop: Option<Vec<String>>,
    documents: Option<Vec<Document>>,
    disabled_tools: Vec<String>,
}

/// A limit from JS: a whole number of at least 1.
fn limit(name: &str, value: Option<f64>, default: usize) -> Result<usize, JsValue> {
    match value {
        None => Ok(default),
        Some(v) if v >= 1.0 && v.fract() == 0.0 && v <= 1e9 => Ok(v as usize),
        Some(v) => Err(js_error(
            format!("{name} must be a whole number of at least 1 (got {v})."),
            None,
            None,
        )),
    }
}

struct Configured {
    agent: AgentConfig,
    /// `None` for the demo model.
    client: Option<ClientConfig>,
    demo_delay_ms: u32,
    registry: Registry,
}

fn configure(settings: Settings) -> Result<Configured, JsValue> {
    let defaults = AgentConfig::default();
    let agent = AgentConfig {
        max_steps: limit("maxSteps", settings.max_steps, defaults.max_steps)?,
        max_format_errors: limit(
            "maxFormatErrors",
            settings.max_format_errors,
            defaults.max_format_errors,
        )?,
        max_repeats: limit("maxRepeats", settings.max_repeats, defaults.max_repeats)?,
        observation_limit: limit(
            "observationLimit",
            settings.observation_limit,
            defaults.observation_limit,
        )?,
        history_rounds: limit(
            "historyRounds",
            settings.history_rounds,
            defaults.history_rounds,
        )?,
        restate_question: settings.restate_question,
        style: settings.style,
        stop: settings.stop.unwrap_or(defaults.stop),
        prompt: PromptConfig {
            lang: settings.lang,
            template: settings.template.filter(|t| !t.trim().is_empty()),
            few_shot: settings.few_shot,
        },
        system_prompt: settings.system_prompt.filter(|p| !p.trim().is_empty()),
        constrained: settings.constrained,
        act_first: settings.act_first.unwrap_or(defaults.act_first),
    };
    let client = if settings.demo {
        None
    } else if settings.in_page {
        // No URL to check: the request goes to the function given to `useModel`.
        Some(ClientConfig {
            temperature: settings.temperature,
            max_tokens: settings.max_tokens,
            seed: settings.seed,
            ..ClientConfig::new("", settings.model.trim())
        })
    } else {
        let client = ClientConfig {
            base_url: settings.base_url.trim().to_string(),
            api_key: settings.api_key.filter(|k| !k.trim().is_empty()),
            model: settings.model.trim().to_string(),
            temperature: settings.temperature,
            max_tokens: settings.max_tokens,
            stream: settings.stream,
            seed: settings.seed,
            timeout_ms: settings.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
        };
        client
            .validate()
            .map_err(|e| js_error(&e, None, to_js(&e).ok()))?;
        Some(client)
    };
    let documents = settings
        .documents
        .unwrap_or_else(crate::tools::default_documents);
    let mut registry = Registry::with_builtins(documents);
    for name in &settings.disabled_tools {
        registry.set_enabled(name, false);
    }
    Ok(Configured {
        agent,
        client,
        demo_delay_ms: settings.demo_delay_ms,
        registry,
    })
}

/// What happened, as the page receives it through `onEvent`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event<'a> {
    /// A request is about to be sent; the step card can open.
    Request {
        step: usize,
        request: &'a ModelRequest,
    },
    /// Streamed text of the reply in progress.
    Delta {
        step: usize,
        text: &'a str,
    },
    /// The step changed (reply parsed, observation in); render it from `step`.
    Step {
        step: &'a agent::Step,
    },
    ToolStart {
        step: usize,
        call: &'a ToolCall,
    },
    Guard {
        step: usize,
        guard: &'a Guard,
        explanation: String,
    },
    Notice {
        step: usize,
        message: &'a str,
    },
    Error {
        step: usize,
        error: &'a LlmError,
        message: String,
        hint: Option<String>,
    },
    Done {
        outcome: &'a Outcome,
        message: String,
    },
}

fn emit(on_event: &Option<Function>, event: &Event) {
    if let (Some(f), Ok(value)) = (on_event, to_js(event)) {
        // A throwing listener must not break the run.
        let _ = f.call1(&JsValue::NULL, &value);
    }
}

/// What the step debugger feeds instead of calling the model or the tool: a reply typed
/// by a person, or one fetched earlier with `ask()` (then `edited` says whether it changed).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Edit {
    reply: Option<String>,
    observation: Option<String>,
    usage: Option<Usage>,
    elapsed_ms: Option<f64>,
    edited: Option<bool>,
}

struct Inner {
    config: AgentConfig,
    client: Option<ClientConfig>,
    demo_delay_ms: u32,
    registry: RefCell<Registry>,
    tools: RefCell<Vec<Rc<JsTool>>>,
    /// The page's model function (`useModel`); when set, it answers instead of a server.
    model: RefCell<Option<Function>>,
    run: RefCell<Option<agent::Agent>>,
    /// The controller of the fetch in flight; replaced for every request.
    fetch: RefCell<AbortController>,
    /// Resolves when the user aborts, so waits on JS tools end at once.
    aborted: RefCell<(Promise, Function)>,
    busy: Cell<bool>,
    paused: Cell<bool>,
}

fn abort_promise() -> (Promise, Function) {
    let mut resolve = None;
    let promise = Promise::new(&mut |res, _| resolve = Some(res));
    // The executor runs synchronously, so `resolve` is set. The fallback is not compiled from
    // a string (`new Function`), so the module needs no 'unsafe-eval' under a CSP; calling it
    // fails, and every caller ignores that.
    let resolve = resolve.unwrap_or_else(|| JsValue::UNDEFINED.unchecked_into());
    (promise, resolve)
}

fn controller() -> Result<AbortController, JsValue> {
    AbortController::new()
}

/// Clears the busy flag however a step ends.
struct Busy<'a>(&'a Cell<bool>);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// A ReAct run in the browser: `new Agent(settings)`, then `run(question, onEvent)`, or
/// `start(question)` and `step(onEvent, edit)` one transition at a time.
#[wasm_bindgen(js_name = Agent)]
pub struct JsAgent {
    inner: Rc<Inner>,
}

#[wasm_bindgen(js_class = Agent)]
impl JsAgent {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Settings")] settings: JsValue,
    ) -> Result<JsAgent, JsValue> {
        let settings: Settings = if settings.is_undefined() || settings.is_null() {
            Settings {
                demo: true,
                ..Settings::default()
            }
        } else {
            from_js(settings, "settings")?
        };
        let c = configure(settings)?;
        Ok(JsAgent {
            inner: Rc::new(Inner {
                config: c.agent,
                client: c.client,
                demo_delay_ms: c.demo_delay_ms,
                registry: RefCell::new(c.registry),
                tools: RefCell::new(Vec::new()),
                model: RefCell::new(None),
                run: RefCell::new(None),
                fetch: RefCell::new(controller()?),
                aborted: RefCell::new(abort_promise()),
                busy: Cell::new(false),
                paused: Cell::new(false),
            }),
        })
    }

    /// Registers (or replaces) a JavaScript tool: `{name, description, parameters, run,
    /// timeoutMs}`. `run(args)` may return a value or a promise.
    #[wasm_bindgen(js_name = registerTool)]
    pub fn register_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolDefinition")] definition: JsValue,
    ) -> Result<(), JsValue> {
        let run = Reflect::get(&definition, &"run".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| js_error("A tool needs a run(args) function.", None, None))?;
        let def: js_tools::Definition = from_js(definition, "tool definition")?;
        let spec = ToolSpec {
            name: def.name.trim().to_string(),
            description: def.description,
            parameters: def.parameters,
        };
        self.inner
            .registry
            .borrow_mut()
            .register_external(spec.clone())
            .map_err(|e| js_error(&e, None, None))?;
        let mut tools = self.inner.tools.borrow_mut();
        tools.retain(|t| t.spec.name != spec.name);
        tools.push(Rc::new(JsTool {
            spec,
            run,
            timeout_ms: def.timeout_ms.unwrap_or(js_tools::DEFAULT_TIMEOUT_MS),
        }));
        Ok(())
    }

    /// Answers with a JavaScript function instead of a server: `fn(body, {signal, onDelta})`
    /// resolves to `{text, usage}` (see `js_model`). `null` goes back to the settings' server.
    #[wasm_bindgen(js_name = useModel)]
    pub fn use_model(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ModelFunction | null")] model: Option<Function>,
    ) {
        *self.inner.model.borrow_mut() = model;
    }

    #[wasm_bindgen(js_name = setToolEnabled)]
    pub fn set_tool_enabled(&self, name: &str, enabled: bool) -> bool {
        self.inner.registry.borrow_mut().set_enabled(name, enabled)
    }

    /// The enabled tools' specs, as the model will see them.
    #[wasm_bindgen(unchecked_return_type = "ToolSpec[]")]
    pub fn tools(&self) -> Result<JsValue, JsValue> {
        let registry = self.inner.registry.borrow();
        to_js(&registry.specs()).map_err(|e| js_error(e, None, None))
    }

    /// The system prompt a run would start with now.
    #[wasm_bindgen(js_name = systemPrompt)]
    pub fn system_prompt(&self) -> String {
        let registry = self.inner.registry.borrow();
        self.inner.config.system_prompt.clone().unwrap_or_else(|| {
            crate::prompt::system_prompt(&registry.specs(), &self.inner.config.prompt)
        })
    }

    /// Starts a new run (dropping any previous one) and returns what it needs first.
    #[wasm_bindgen(unchecked_return_type = "Next")]
    pub fn start(&self, question: &str) -> Result<JsValue, JsValue> {
        if self.inner.busy.get() {
            return Err(js_error(
                "A step is still running; abort it first.",
                None,
                None,
            ));
        }
        if question.trim().is_empty() {
            return Err(js_error("Ask a question first.", None, None));
        }
        let registry = self.inner.registry.borrow().clone();
        let mut run = agent::Agent::new(question, registry, self.inner.config.clone());
        run.label_model(match &self.inner.client {
            Some(client) => &client.model,
            None => "demo (scripted)",
        });
        let next = run.next();
        *self.inner.run.borrow_mut() = Some(run);
        *self.inner.aborted.borrow_mut() = abort_promise();
        self.inner.paused.set(false);
        to_js(&next).map_err(|e| js_error(e, None, None))
    }

    /// What the run needs next, or null before `start`.
    #[wasm_bindgen(unchecked_return_type = "Next | null")]
    pub fn pending(&self) -> Result<JsValue, JsValue> {
        match self.inner.run.borrow().as_ref() {
            Some(run) => to_js(&run.next()).map_err(|e| js_error(e, None, None)),
            None => Ok(JsValue::NULL),
        }
    }

    /// Performs one transition. `edit` may replace the model's reply (`{reply}`) or the
    /// tool's observation (`{observation}`). Resolves to what the run needs next.
    #[wasm_bindgen(unchecked_return_type = "Promise<Next>")]
    pub fn step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OnEvent | null | undefined")] on_event: Option<
            Function,
        >,
        #[wasm_bindgen(unchecked_param_type = "Edit | null | undefined")] edit: JsValue,
    ) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let edit: Edit = if edit.is_undefined() || edit.is_null() {
                Edit::default()
            } else {
                from_js(edit, "edit")?
            };
            let next = step_once(&inner, &on_event, edit).await?;
            to_js(&next).map_err(|e| js_error(e, None, None))
        })
    }

    /// Asks the model for the pending step without feeding the reply in, so a person can
    /// read and edit it first; pass it back with `step(onEvent, {reply, usage, elapsedMs,
    /// edited})`. Resolves to `{text, usage, elapsed_ms}`.
    #[wasm_bindgen(unchecked_return_type = "Promise<ModelReply>")]
    pub fn ask(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OnEvent | null | undefined")] on_event: Option<
            Function,
        >,
    ) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            if inner.busy.replace(true) {
                return Err(js_error("A step is already running.", None, None));
            }
            let _busy = Busy(&inner.busy);
            learn_server(&inner).await?;
            let (index, next) = with_run(&inner, |run| (run.trace().steps.len(), run.next()))?;
            let Next::CallModel { request } = next else {
                return Err(js_error(
                    "The run is not waiting for the model now.",
                    None,
                    None,
                ));
            };
            emit(
                &on_event,
                &Event::Request {
                    step: index,
                    request: &request,
                },
            );
            let partial = RefCell::new(String::new());
            let reply = ask_model(&inner, &request, &on_event, index, &partial).await;
            // As in a step: after abort() the text streamed so far stays in the trace.
            with_run(&inner, |run| run.keep_partial_reply(partial.take()))?;
            let reply = reply.map_err(|e| llm_error(&e))?;
            to_js(&reply).map_err(|e| js_error(e, None, None))
        })
    }

    /// Starts a run and steps it to the end; resolves to the whole trace.
    #[wasm_bindgen(unchecked_return_type = "Promise<Trace>")]
    pub fn run(
        &self,
        question: String,
        #[wasm_bindgen(unchecked_param_type = "OnEvent | null | undefined")] on_event: Option<
            Function,
        >,
    ) -> Promise {
        if let Err(e) = self.start(&question) {
            return Promise::reject(&e);
        }
        self.resume(on_event)
    }

    /// Steps the current run until it ends or `pause()` is called; resolves to the trace.
    #[wasm_bindgen(js_name = continueRun, unchecked_return_type = "Promise<Trace | null>")]
    pub fn resume(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OnEvent | null | undefined")] on_event: Option<
            Function,
        >,
    ) -> Promise {
        let inner = self.inner.clone();
        inner.paused.set(false);
        future_to_promise(async move {
            loop {
                let next = step_once(&inner, &on_event, Edit::default()).await?;
                if matches!(next, Next::Done { .. }) || inner.paused.get() {
                    break;
                }
            }
            trace_of(&inner)
        })
    }

    /// Stops a `run` after the transition in progress.
    pub fn pause(&self) {
        self.inner.paused.set(true);
    }

    /// Stops now: the request in flight is aborted, a waiting tool is abandoned, and the
    /// trace so far is kept.
    pub fn abort(&self) {
        self.inner.fetch.borrow().abort();
        let _ = self.inner.aborted.borrow().1.call0(&JsValue::NULL);
        if let Some(run) = self.inner.run.borrow_mut().as_mut() {
            run.abort();
        }
    }

    /// After a model error: ask again with the same request.
    pub fn retry(&self) -> Result<(), JsValue> {
        match self.inner.run.borrow_mut().as_mut() {
            Some(run) => run.retry().map_err(|e| js_error(e, None, None)),
            None => Err(js_error("Nothing has run yet.", None, None)),
        }
    }

    /// The trace so far as a plain object, or null before `start`.
    #[wasm_bindgen(unchecked_return_type = "Trace | null")]
    pub fn trace(&self) -> Result<JsValue, JsValue> {
        trace_of(&self.inner)
    }

    /// The trace as JSON, the format `loadTrace` reads back.
    #[wasm_bindgen(js_name = exportTrace)]
    pub fn export_trace(&self) -> Result<String, JsValue> {
        let run = self.inner.run.borrow();
        let run = run
            .as_ref()
            .ok_or_else(|| js_error("Nothing has run yet.", None, None))?;
        // Through `Value`, like `to_js`, so the trace types' `Serialize` is built only once.
        serde_json::to_value(run.trace())
            .and_then(|trace| serde_json::to_string_pretty(&trace))
            .map_err(|e| js_error(e, None, None))
    }
}

fn trace_of(inner: &Inner) -> Result<JsValue, JsValue> {
    match inner.run.borrow().as_ref() {
        Some(run) => to_js(run.trace()).map_err(|e| js_error(e, None, None)),
        None => Ok(JsValue::NULL),
    }
}

fn with_run<T>(inner: &Inner, f: impl FnOnce(&mut agent::Agent) -> T) -> Result<T, JsValue> {
    inner
        .run
        .borrow_mut()
        .as_mut()
        .map(f)
        .ok_or_else(|| js_error("Call start(question) first.", None, None))
}

/// One transition. No `RefCell` borrow is held across an await, so `abort()` and
/// `trace()` work while a request is in flight.
async fn step_once(
    inner: &Rc<Inner>,
    on_event: &Option<Function>,
    edit: Edit,
) -> Result<Next, JsValue> {
    if inner.busy.replace(true) {
        return Err(js_error("A step is already running.", None, None));
    }
    let _busy = Busy(&inner.busy);
    learn_server(inner).await?;
    let next = with_run(inner, |run| run.next())?;
    let index = with_run(inner, |run| run.trace().steps.len())?;
    let guards_before = with_run(inner, |run| guard_count(run))?;
    match &next {
        Next::Done { .. } => return Ok(next),
        Next::CallModel { request } => {
            emit(
                on_event,
                &Event::Request {
                    step: index,
                    request,
                },
            );
            let partial = RefCell::new(String::new());
            let result = match edit.reply {
                Some(text) => Ok(ModelReply {
                    text,
                    usage: edit.usage.unwrap_or_default(),
                    elapsed_ms: edit.elapsed_ms,
                    edited: edit.edited.unwrap_or(true),
                }),
                None => ask_model(inner, request, on_event, index, &partial).await,
            };
            if let Err(error) = &result {
                if with_run(inner, |run| run.constraint_refused(error))? {
                    // Asked again at once without the constraint; the guard says why.
                    report(inner, on_event, index, guards_before)?;
                    return with_run(inner, |run| run.next());
                }
            }
            with_run(inner, |run| {
                // After abort() the run is over: keep what had streamed in, for the record.
                if matches!(run.next(), Next::Done { .. }) {
                    run.keep_partial_reply(partial.take());
                    return;
                }
                let _ = match result {
                    Ok(reply) => run.feed_model(reply),
                    Err(error) => run.feed_model_error(error),
                };
            })?;
        }
        Next::RunTool { call } => {
            emit(on_event, &Event::ToolStart { step: index, call });
            let started = timer::now_ms();
            let edited = edit.observation.is_some();
            let output = match edit.observation {
                Some(text) => Ok(text),
                None => run_tool(inner, call).await,
            };
            let result = ToolResult {
                output,
                elapsed_ms: Some(timer::now_ms() - started),
                edited,
            };
            let _ = with_run(inner, |run| run.feed_tool(result))?;
        }
    }
    report(inner, on_event, index, guards_before)?;
    with_run(inner, |run| run.next())
}

/// `auto`: before the first request, the server's kind decides the constraint.
async fn learn_server(inner: &Rc<Inner>) -> Result<(), JsValue> {
    if !with_run(inner, |run| run.wants_server())? {
        return Ok(());
    }
    let kind = match &inner.client {
        _ if inner.model.borrow().is_some() => ServerKind::InPage,
        Some(cfg) => {
            // Stop aborts the model-list request too, as it does a model call.
            let abort = controller()?;
            *inner.fetch.borrow_mut() = abort.clone();
            client::server_kind(cfg, &abort).await
        }
        None => ServerKind::Unknown,
    };
    // After Stop the run is over and this does nothing.
    with_run(inner, |run| run.set_server(kind))
}

fn guard_count(run: &agent::Agent) -> usize {
    run.trace().steps.iter().map(|s| s.guards.len()).sum()
}

/// Emits the changed step, its new guards, a model error and the end of the run.
fn report(
    inner: &Inner,
    on_event: &Option<Function>,
    index: usize,
    guards_before: usize,
) -> Result<(), JsValue> {
    let run = inner.run.borrow();
    let run = run
        .as_ref()
        .ok_or_else(|| js_error("Call start(question) first.", None, None))?;
    let trace = run.trace();
    let new_guards = trace
        .steps
        .iter()
        .flat_map(|s| s.guards.iter().map(move |g| (s.index, g)))
        .skip(guards_before);
    for (step, guard) in new_guards {
        emit(
            on_event,
            &Event::Guard {
                step,
                guard,
                explanation: guard.explain(),
            },
        );
    }
    for step in trace.steps.iter().filter(|s| s.index >= index) {
        emit(on_event, &Event::Step { step });
        if let Some(error) = &step.error {
            emit(
                on_event,
                &Event::Error {
                    step: step.index,
                    error,
                    message: error.to_string(),
                    hint: error.hint(&timer::page_origin()),
                },
            );
        }
    }
    if let Some(outcome) = &trace.outcome {
        emit(
            on_event,
            &Event::Done {
                outcome,
                message: outcome.describe(),
            },
        );
    }
    Ok(())
}

/// Calls the model (or the demo script); `partial` collects the streamed text as it comes.
async fn ask_model(
    inner: &Rc<Inner>,
    request: &ModelRequest,
    on_event: &Option<Function>,
    step: usize,
    partial: &RefCell<String>,
) -> Result<ModelReply, LlmError> {
    let started = timer::now_ms();
    let on_delta = |text: &str| {
        partial.borrow_mut().push_str(text);
        emit(on_event, &Event::Delta { step, text });
    };
    // A fresh controller per request: an aborted one stays aborted.
    let abort = controller().map_err(|e| LlmError::Stream {
        message: client::js_message(&e),
    })?;
    *inner.fetch.borrow_mut() = abort.clone();
    let Some(cfg) = &inner.client else {
        let text = crate::demo::reply(request);
        let chars: Vec<char> = text.chars().collect();
        for piece in chars.chunks(4) {
            if abort.signal().aborted() {
                return Err(LlmError::Aborted);
            }
            on_delta(&piece.iter().collect::<String>());
            if inner.demo_delay_ms > 0 {
                timer::sleep(inner.demo_delay_ms).await;
            }
        }
        return Ok(ModelReply {
            text,
            elapsed_ms: Some(timer::now_ms() - started),
            ..ModelReply::default()
        });
    };
    let tools: Vec<ToolSpec> = inner
        .registry
        .borrow()
        .specs()
        .into_iter()
        .cloned()
        .collect();
    let model = inner.model.borrow().clone();
    let completion = match model {
        Some(model) => {
            let body = crate::llm::in_page_body(cfg, request, &tools);
            let stopped = inner.aborted.borrow().0.clone();
            js_model::complete(&model, &body, &abort, &stopped, &on_delta).await?
        }
        // `inPage` without `useModel`: there is no server to call.
        None if cfg.base_url.is_empty() => {
            return Err(LlmError::Server {
                message: "no model is loaded in the page yet: pick a GGUF file first".into(),
            })
        }
        None => client::complete(cfg, request, &tools, &abort, &on_delta).await?,
    };
    if completion.unfinished {
        emit(
            on_event,
            &Event::Notice {
                step,
                message: "The stream ended without [DONE]; the reply may be incomplete.",
            },
        );
    }
    Ok(ModelReply {
        text: completion.text,
        usage: completion.usage,
        elapsed_ms: Some(timer::now_ms() - started),
        edited: false,
    })
}

async fn run_tool(inner: &Rc<Inner>, call: &ToolCall) -> Result<String, crate::tools::ToolError> {
    if call.builtin.is_some() {
        let host = HostContext {
            now_unix_ms: timer::now_ms(),
            utc_offset_minutes: timer::utc_offset_minutes(),
        };
        return inner.registry.borrow().run_builtin(call, &host);
    }
    let tool = inner
        .tools
        .borrow()
        .iter()
        .find(|t| t.spec.name == call.tool)
        .cloned();
    let abort = inner.aborted.borrow().0.clone();
    match tool {
        Some(tool) => js_tools::call(&tool, &call.args, &abort).await,
        None => Err(crate::tools::ToolError::External {
            message: format!("{} has no implementation on this page", call.tool),
        }),
    }
}

/// Validates and loads a saved trace (the `exportTrace` format).
#[wasm_bindgen(js_name = loadTrace, unchecked_return_type = "Trace")]
pub fn load_trace(json: &str) -> Result<JsValue, JsValue> {
    let trace = Trace::from_json(json).map_err(|e| js_error(&e, None, to_js(&e).ok()))?;
    to_js(&trace).map_err(|e| js_error(e, None, None))
}

/// The size limits on model replies and trace files (`crate::limits`), so a page can check a
/// file's size before it reads it.
#[wasm_bindgen(unchecked_return_type = "Limits")]
pub fn limits() -> Result<JsValue, JsValue> {
    use crate::limits::*;
    to_js(&serde_json::json!({
        "replyBytes": MAX_REPLY_BYTES,
        "streamLineBytes": MAX_STREAM_LINE_BYTES,
        "traceBytes": MAX_TRACE_BYTES,
        "traceSteps": MAX_TRACE_STEPS,
    }))
    .map_err(|e| js_error(e, None, None))
}

/// The server's model list for these settings (`GET {baseUrl}/models`).
#[wasm_bindgen(js_name = listModels, unchecked_return_type = "Promise<string[]>")]
pub fn list_models(
    #[wasm_bindgen(unchecked_param_type = "Settings")] settings: JsValue,
) -> Promise {
    future_to_promise(async move {
        let settings: Settings = from_js(settings, "settings")?;
        // Listing needs no model name; the check is for runs.
        let model = match settings.model.trim() {
            "" => "(listing models)".to_string(),
            name => name.to_string(),
        };
        let client = configure(Settings {
            demo: false,
            model,
            ..settings
        })?
        .client
        .ok_or_else(|| js_error("No server configured.", None, None))?;
        let abort = controller()?;
        let models = client::list_models(&client, &abort)
            .await
            .map_err(|e| llm_error(&e))?;
        to_js(&models).map_err(|e| js_error(e, None, None))
    })
}

/// Parses one reply as the agent would (the parser X-ray).
#[wasm_bindgen(js_name = parseReply, unchecked_return_type = "Parse")]
pub fn parse_reply(text: &str) -> Result<JsValue, JsValue> {
    to_js(&crate::parse::parse_reply(text)).map_err(|e| js_error(e, None, None))
}

/// The sentence and the fix for a model error stored in a trace.
#[wasm_bindgen(js_name = describeError, unchecked_return_type = "{ message: string; hint: string | null }")]
pub fn describe_error(
    #[wasm_bindgen(unchecked_param_type = "ModelError")] error: JsValue,
) -> Result<JsValue, JsValue> {
    let error: LlmError = from_js(error, "error")?;
    to_js(&serde_json::json!({
        "message": error.to_string(),
        "hint": error.hint(&timer::page_origin()),
    }))
    .map_err(|e| js_error(e, None, None))
}

/// One sentence explaining a guard stored in a trace.
#[wasm_bindgen(js_name = explainGuard)]
pub fn explain_guard(
    #[wasm_bindgen(unchecked_param_type = "Guard")] guard: JsValue,
) -> Result<String, JsValue> {
    let guard: Guard = from_js(guard, "guard")?;
    Ok(guard.explain())
}

/// One sentence describing how a run ended.
#[wasm_bindgen(js_name = describeOutcome)]
pub fn describe_outcome(
    #[wasm_bindgen(unchecked_param_type = "Outcome")] outcome: JsValue,
) -> Result<String, JsValue> {
    let outcome: Outcome = from_js(outcome, "outcome")?;
    Ok(outcome.describe())
}

/// The sentence for a repair code in a parse (e.g. "single_quotes").
#[wasm_bindgen(js_name = describeRepair)]
pub fn describe_repair(
    #[wasm_bindgen(unchecked_param_type = "string")] code: JsValue,
) -> Result<String, JsValue> {
    let repair: crate::parse::Repair = from_js(code, "repair")?;
    Ok(repair.describe().to_string())
}

/// The sentence for a format error in a parse (e.g. `{type: "no_action"}`).
#[wasm_bindgen(js_name = describeFormatError)]
pub fn describe_format_error(error: JsValue) -> Result<String, JsValue> {
    let error: crate::parse::FormatError = from_js(error, "format error")?;
    Ok(error.to_string())
}

#[wasm_bindgen(js_name = demoQuestions)]
pub fn demo_questions() -> Vec<String> {
    crate::demo::QUESTIONS
        .iter()
        .map(|q| q.to_string())
        .collect()
}

#[wasm_bindgen(js_name = defaultDocuments, unchecked_return_type = "Document[]")]
pub fn default_documents() -> Result<JsValue, JsValue> {
    to_js(&crate::tools::default_documents()).map_err(|e| js_error(e, None, None))
}

/// The built-in template for "en" or "zh", with its `{tools}` and `{tool_names}` slots.
#[wasm_bindgen(js_name = defaultTemplate)]
pub fn default_template(lang: &str) -> String {
    let lang = if lang == "zh" { Lang::Zh } else { Lang::En };
    crate::prompt::default_template(lang).to_string()
}

/// A rough token count (see `prompt::estimate_tokens` for the method).
#[wasm_bindgen(js_name = estimateTokens)]
pub fn estimate_tokens(text: &str) -> usize {
    crate::prompt::estimate_tokens(text)
}
