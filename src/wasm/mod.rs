//! The browser driver: wasm-bindgen glue around the core. It converts values, does the I/O
//! the agent asks for (fetch, JS tools, timers) and reports what happens as events. Errors
//! cross to JS in one helper, [`js_error`].

mod client;
mod js_model;
mod js_tools;
mod timer;

use crate::lang::Lang;
use std::cell::{Cell, RefCell};
use std::fmt::Display;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, JSON};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortController;

use crate::agent::{self, Next, ToolResult};
use crate::config::AgentConfig;
use crate::events::{Event, Part, Run};
use crate::llm::{LlmError, ModelRequest, ServerKind, Usage};
use crate::settings::{self, Configured, Model, Purpose, SettingsError};
use crate::tools::{HostContext, Registry, ToolCall, ToolSpec};
use crate::trace::{ModelReply, Trace};
use crate::view;
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
    let origin = timer::page_origin();
    let js = js_error(error, error.hint(&origin), to_js(error).ok());
    if error.private_network(&origin) {
        let _ = Reflect::set(&js, &"privateNetwork".into(), &true.into());
    }
    js
}

/// JS → Rust through `JSON.stringify` and serde_json's `Value`, so each type's `Deserialize`
/// is built once (for `Value`, which `Trace::from_json` uses too). Numbers JSON cannot hold
/// (NaN, ±Infinity) are refused by name instead of silently becoming null; a BigInt that is
/// a safe integer passes as a number.
fn from_js<T: for<'de> Deserialize<'de>>(value: JsValue, what: &str) -> Result<T, JsValue> {
    serde_json::from_value(json_of(value, what)?)
        .map_err(|e| js_error(format!("Invalid {what}: {e}"), None, None))
}

/// A JS value as JSON (see [`from_js`]).
fn json_of(value: JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    let invalid =
        |message: &dyn Display| js_error(format!("Invalid {what}: {message}"), None, None);
    let replacer = Closure::<dyn FnMut(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
        |key: JsValue, value: JsValue| json_number(&key, value),
    );
    let text = JSON::stringify_with_replacer(&value, replacer.as_ref())
        .map_err(|e| invalid(&client::js_message(&e)))?;
    // `undefined`, a function or a symbol has no JSON text; it reads as null.
    let text = text.as_string().unwrap_or_else(|| "null".to_string());
    serde_json::from_str(&text).map_err(|e| invalid(&e))
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

/// The settings object through the core's [`settings::configure`].
fn configure(settings: JsValue, purpose: Purpose) -> Result<Configured, JsValue> {
    let settings = if settings.is_undefined() {
        serde_json::Value::Null
    } else {
        json_of(settings, "settings")?
    };
    settings::configure(settings, purpose).map_err(|e| {
        let detail = match &e {
            SettingsError::Client(e) => to_js(e).ok(),
            _ => None,
        };
        js_error(e, None, detail)
    })
}

/// Forwards one of the core's events to the page's listener.
fn emit(on_event: &Option<Function>, event: &Event) {
    if let (Some(f), Ok(value)) = (on_event, to_js(event)) {
        // A throwing listener must not break the run.
        let _ = f.call1(&JsValue::NULL, &value);
    }
}

fn emit_all(on_event: &Option<Function>, events: Vec<Event>) {
    for event in &events {
        emit(on_event, event);
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
    model: Model,
    registry: RefCell<Registry>,
    tools: RefCell<Vec<Rc<JsTool>>>,
    /// The page's model function (`useModel`); when set, it answers instead of a server.
    js_model: RefCell<Option<Function>>,
    run: RefCell<Option<Run>>,
    /// The text the model call in flight has streamed so far: `abort()` keeps it.
    partial: RefCell<String>,
    /// What `abort()` reported while a step was in flight; that step forwards it.
    unsent: RefCell<Vec<Event>>,
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
        let c = configure(settings, Purpose::Run)?;
        Ok(JsAgent {
            inner: Rc::new(Inner {
                config: c.agent,
                model: c.model,
                registry: RefCell::new(c.registry),
                tools: RefCell::new(Vec::new()),
                js_model: RefCell::new(None),
                run: RefCell::new(None),
                partial: RefCell::new(String::new()),
                unsent: RefCell::new(Vec::new()),
                fetch: RefCell::new(controller()?),
                aborted: RefCell::new(abort_promise()),
                busy: Cell::new(false),
                paused: Cell::new(false),
            }),
        })
    }

    /// A new Agent from where step `step` waited for its reply (`part` "reply") or its tool's
    /// result ("observation"): the same settings, tools and model, the history up to there
    /// and nothing after. Give it the edited text with `step(onEvent, {reply})` or
    /// `{observation}`, or let it ask (`continueRun`); this agent's run is left as it is.
    pub fn fork(&self, step: usize, part: &str) -> Result<JsAgent, JsValue> {
        let part = match part {
            "reply" => Part::Reply,
            "observation" => Part::Observation,
            other => {
                let message =
                    format!("A fork replaces a \"reply\" or an \"observation\", not \"{other}\".");
                return Err(js_error(&message, None, None));
            }
        };
        let forked = with_run(&self.inner, |run| run.fork(step, part))?.ok_or_else(|| {
            js_error(
                format!("Step {step} of this run cannot be forked there."),
                None,
                None,
            )
        })?;
        let inner = &self.inner;
        Ok(JsAgent {
            inner: Rc::new(Inner {
                config: inner.config.clone(),
                model: inner.model.clone(),
                registry: RefCell::new(inner.registry.borrow().clone()),
                tools: RefCell::new(inner.tools.borrow().clone()),
                js_model: RefCell::new(inner.js_model.borrow().clone()),
                run: RefCell::new(Some(forked)),
                partial: RefCell::new(String::new()),
                unsent: RefCell::new(Vec::new()),
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
        let tool = js_tool(definition)?;
        self.inner
            .registry
            .borrow_mut()
            .register_external(tool.spec.clone())
            .map_err(|e| js_error(&e, None, None))?;
        let mut tools = self.inner.tools.borrow_mut();
        tools.retain(|t| t.spec.name != tool.spec.name);
        tools.push(Rc::new(tool));
        Ok(())
    }

    /// Answers with a JavaScript function instead of a server: `fn(body, {signal, onDelta})`
    /// resolves to `{text, usage}` (see `js_model`). `null` goes back to the settings' server.
    #[wasm_bindgen(js_name = useModel)]
    pub fn use_model(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ModelFunction | null")] model: Option<Function>,
    ) {
        *self.inner.js_model.borrow_mut() = model;
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

    /// The system prompt a run would start with now (with `auto`, before the server is known).
    #[wasm_bindgen(js_name = systemPrompt)]
    pub fn system_prompt(&self) -> String {
        let config = &self.inner.config;
        crate::agent::system_prompt(config, &self.inner.registry.borrow(), config.constrained)
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
        run.label_model(self.inner.model.label());
        let next = to_js(&run.next()).map_err(|e| js_error(e, None, None));
        *self.inner.run.borrow_mut() = Some(Run::new(run, timer::page_origin()));
        *self.inner.aborted.borrow_mut() = abort_promise();
        self.inner.paused.set(false);
        next
    }

    /// What the run needs next, or null before `start`.
    #[wasm_bindgen(unchecked_return_type = "Next | null")]
    pub fn pending(&self) -> Result<JsValue, JsValue> {
        match self.inner.run.borrow().as_ref() {
            Some(run) => to_js(&run.agent().next()).map_err(|e| js_error(e, None, None)),
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
            step_once(&inner, &on_event, edit).await?;
            with_run(&inner, |run| to_js(&run.agent().next()))?.map_err(|e| js_error(e, None, None))
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
            let Job::Model { step, request } = prepare(&inner, &on_event).await? else {
                return Err(js_error(
                    "The run is not waiting for the model now.",
                    None,
                    None,
                ));
            };
            let reply = ask_model(&inner, &request, &on_event, step).await;
            // After abort() the run is over, with the text streamed so far as its reply.
            emit_all(&on_event, inner.unsent.take());
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
                step_once(&inner, &on_event, Edit::default()).await?;
                if with_run(&inner, |run| run.is_done())? || inner.paused.get() {
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
        let partial = self.inner.partial.take();
        if let Some(run) = self.inner.run.borrow_mut().as_mut() {
            // The step in flight reports how the run ended when its request comes back.
            let events = run.abort(Some(partial));
            self.inner.unsent.borrow_mut().extend(events);
        }
    }

    /// After a model error: ask again with the same request. `onEvent` gets the failed step
    /// (no longer retryable) and the new one.
    pub fn retry(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OnEvent | null | undefined")] on_event: Option<
            Function,
        >,
    ) -> Result<(), JsValue> {
        let events = match self.inner.run.borrow_mut().as_mut() {
            Some(run) => run.retry().map_err(|e| js_error(e, None, None))?,
            None => return Err(js_error("Nothing has run yet.", None, None)),
        };
        emit_all(&on_event, events);
        Ok(())
    }

    /// The trace so far as a plain object, or null before `start`.
    #[wasm_bindgen(unchecked_return_type = "Trace | null")]
    pub fn trace(&self) -> Result<JsValue, JsValue> {
        trace_of(&self.inner)
    }

    /// The trace as JSON, the format `loadTrace` reads back, with its views (`crate::view`):
    /// a page replays a recording without the wasm.
    #[wasm_bindgen(js_name = exportTrace)]
    pub fn export_trace(&self) -> Result<String, JsValue> {
        let run = self.inner.run.borrow();
        let run = run
            .as_ref()
            .ok_or_else(|| js_error("Nothing has run yet.", None, None))?;
        view::trace(run.agent().trace(), &timer::page_origin())
            .and_then(|trace| serde_json::to_string_pretty(&trace))
            .map_err(|e| js_error(e, None, None))
    }
}

fn trace_of(inner: &Inner) -> Result<JsValue, JsValue> {
    match inner.run.borrow().as_ref() {
        Some(run) => trace_view(run.agent().trace()),
        None => Ok(JsValue::NULL),
    }
}

fn with_run<T>(inner: &Inner, f: impl FnOnce(&mut Run) -> T) -> Result<T, JsValue> {
    inner
        .run
        .borrow_mut()
        .as_mut()
        .map(f)
        .ok_or_else(|| js_error("Call start(question) first.", None, None))
}

/// What a transition does: ask the model, or run a tool; or nothing, the run being over.
enum Job {
    Model { step: usize, request: ModelRequest },
    Tool { call: ToolCall },
    Done,
}

/// Gets the run ready for its transition: finds out what the server is when the agent asks
/// (`Next::DetectServer`), announces what comes next, and hands out a copy of it: no
/// `RefCell` borrow is held across an await, so `abort()` and `trace()` work meanwhile.
async fn prepare(inner: &Rc<Inner>, on_event: &Option<Function>) -> Result<Job, JsValue> {
    if with_run(inner, |run| run.agent().next() == Next::DetectServer)? {
        let kind = detect_server(inner).await?;
        // After Stop the run is over and no longer asks.
        with_run(inner, |run| run.feed_server(kind).ok())?;
    }
    if let Some(event) = with_run(inner, |run| run.announce())? {
        emit(on_event, &event);
    }
    with_run(inner, |run| match run.agent().next() {
        Next::CallModel { request } => Job::Model {
            step: run.step_index(),
            request: request.clone(),
        },
        Next::RunTool { call } => Job::Tool { call: call.clone() },
        Next::DetectServer | Next::Done { .. } => Job::Done,
    })
}

/// One transition: does what the run waits for and forwards the events the core reports.
async fn step_once(
    inner: &Rc<Inner>,
    on_event: &Option<Function>,
    edit: Edit,
) -> Result<(), JsValue> {
    if inner.busy.replace(true) {
        return Err(js_error("A step is already running.", None, None));
    }
    let _busy = Busy(&inner.busy);
    let events = match prepare(inner, on_event).await? {
        Job::Done => Vec::new(),
        Job::Model { step, request } => {
            let result = match edit.reply {
                Some(text) => Ok(ModelReply {
                    text,
                    usage: edit.usage.unwrap_or_default(),
                    elapsed_ms: edit.elapsed_ms,
                    edited: edit.edited.unwrap_or(true),
                }),
                None => ask_model(inner, &request, on_event, step).await,
            };
            // After abort() the run is over; abort() reported it.
            with_run(inner, |run| match result {
                _ if run.is_done() => Ok(Vec::new()),
                Ok(reply) => run.feed_model(reply),
                Err(error) => run.feed_model_error(error),
            })?
            .unwrap_or_default()
        }
        Job::Tool { call } => {
            let started = timer::now_ms();
            let edited = edit.observation.is_some();
            let output = match edit.observation {
                Some(text) => Ok(text),
                None => run_tool(inner, &call).await,
            };
            let result = ToolResult {
                output,
                elapsed_ms: Some(timer::now_ms() - started),
                edited,
            };
            with_run(inner, |run| match run.is_done() {
                true => Ok(Vec::new()),
                false => run.feed_tool(result),
            })?
            .unwrap_or_default()
        }
    };
    emit_all(on_event, inner.unsent.take());
    emit_all(on_event, events);
    Ok(())
}

/// `Next::DetectServer`: the in-page engine and the demo are known; a server is asked.
async fn detect_server(inner: &Rc<Inner>) -> Result<ServerKind, JsValue> {
    if let Some(kind) = inner.model.known_server() {
        return Ok(kind);
    }
    // A page's own model function answers instead of the server.
    if inner.js_model.borrow().is_some() {
        return Ok(ServerKind::InPage);
    }
    let Model::Server(cfg) = &inner.model else {
        return Ok(ServerKind::Unknown);
    };
    // Stop aborts the model-list request too, as it does a model call.
    let abort = controller()?;
    *inner.fetch.borrow_mut() = abort.clone();
    Ok(client::server_kind(cfg, &abort).await)
}

/// Calls the model (or the demo script); the text streamed so far is kept in
/// `inner.partial` for `abort()`, until the call returns.
async fn ask_model(
    inner: &Rc<Inner>,
    request: &ModelRequest,
    on_event: &Option<Function>,
    step: usize,
) -> Result<ModelReply, LlmError> {
    inner.partial.borrow_mut().clear();
    let reply = call_model(inner, request, on_event, step).await;
    inner.partial.borrow_mut().clear();
    reply
}

async fn call_model(
    inner: &Rc<Inner>,
    request: &ModelRequest,
    on_event: &Option<Function>,
    step: usize,
) -> Result<ModelReply, LlmError> {
    let started = timer::now_ms();
    let on_delta = |text: &str| {
        inner.partial.borrow_mut().push_str(text);
        emit(
            on_event,
            &Event::Delta {
                step,
                text: text.to_string(),
            },
        );
    };
    // A fresh controller per request: an aborted one stays aborted.
    let abort = controller().map_err(|e| LlmError::Stream {
        message: client::js_message(&e),
    })?;
    *inner.fetch.borrow_mut() = abort.clone();
    let js_model = inner.js_model.borrow().clone();
    let cfg = match (&inner.model, js_model.is_some()) {
        (Model::Demo { delay_ms }, _) => {
            let text = crate::demo::reply(request);
            for piece in crate::demo::pieces(&text) {
                if abort.signal().aborted() {
                    return Err(LlmError::Aborted);
                }
                on_delta(piece);
                if *delay_ms > 0 {
                    timer::sleep(*delay_ms).await;
                }
            }
            return Ok(ModelReply {
                text,
                elapsed_ms: Some(timer::now_ms() - started),
                ..ModelReply::default()
            });
        }
        (Model::InPage(_), false) => {
            return Err(LlmError::Server {
                message: "no model is loaded in the page yet: pick a GGUF file first".into(),
            })
        }
        (Model::Server(cfg) | Model::InPage(cfg), _) => cfg,
    };
    // The run's own tools, which its agent dispatches to (none for chain of thought).
    let tools: Vec<ToolSpec> = with_run(inner, |run| {
        let specs = run.agent().registry().specs();
        specs.into_iter().cloned().collect()
    })
    .map_err(|_| LlmError::Server {
        message: "no run is in progress".into(),
    })?;
    let completion = match js_model {
        Some(model) => {
            let body = crate::llm::in_page_body(cfg, request, &tools);
            let stopped = inner.aborted.borrow().0.clone();
            js_model::complete(&model, &body, &abort, &stopped, &on_delta).await?
        }
        None => client::complete(cfg, request, &tools, &abort, &on_delta).await?,
    };
    if completion.unfinished {
        emit(on_event, &Event::unfinished_stream(step));
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
        // The run's own registry and language, as the native driver uses.
        let ran = with_run(inner, |run| run.agent().run_builtin(&host));
        return ran.ok().flatten().unwrap_or_else(|| {
            Err(crate::tools::ToolError::NotBuiltin {
                tool: call.tool.clone(),
            })
        });
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
/// A `{name, description, parameters, run, timeoutMs}` object as a tool, or the reason not.
fn js_tool(definition: JsValue) -> Result<JsTool, JsValue> {
    let run = Reflect::get(&definition, &"run".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| js_error("A tool needs a run(args) function.", None, None))?;
    let def: js_tools::Definition = from_js(definition, "tool definition")?;
    Ok(JsTool {
        spec: ToolSpec {
            name: def.name.trim().to_string(),
            description: def.description,
            parameters: def.parameters,
        },
        run,
        timeout_ms: def.timeout_ms.unwrap_or(js_tools::DEFAULT_TIMEOUT_MS),
    })
}

/// Checks a tool definition as `registerTool` would beside the built-in tools, without an
/// agent: throws the same message.
#[wasm_bindgen(js_name = checkTool)]
pub fn check_tool(
    #[wasm_bindgen(unchecked_param_type = "ToolDefinition")] definition: JsValue,
) -> Result<(), JsValue> {
    let tool = js_tool(definition)?;
    Registry::with_builtins(Vec::new())
        .register_external(tool.spec)
        .map_err(|e| js_error(&e, None, None))
}

/// The built-in tools' specs, as the model sees them.
#[wasm_bindgen(js_name = builtinTools, unchecked_return_type = "ToolSpec[]")]
pub fn builtin_tools() -> Result<JsValue, JsValue> {
    to_js(&Registry::with_builtins(Vec::new()).specs()).map_err(|e| js_error(e, None, None))
}

#[wasm_bindgen(js_name = loadTrace, unchecked_return_type = "Trace")]
pub fn load_trace(json: &str) -> Result<JsValue, JsValue> {
    let trace = Trace::from_json(json).map_err(|e| js_error(&e, None, to_js(&e).ok()))?;
    trace_view(&trace)
}

/// A trace as the page draws it, with its sentences (`crate::view`).
fn trace_view(trace: &Trace) -> Result<JsValue, JsValue> {
    view::trace(trace, &timer::page_origin())
        .and_then(|v| to_js(&v))
        .map_err(|e| js_error(e, None, None))
}

/// The size limits on model replies and trace files (`crate::limits`), so a page can check a
/// file's size before it reads it.
#[wasm_bindgen(unchecked_return_type = "Limits")]
pub fn limits() -> Result<JsValue, JsValue> {
    to_js(&crate::limits::for_page()).map_err(|e| js_error(e, None, None))
}

/// The server's model list for these settings (`GET {baseUrl}/models`).
#[wasm_bindgen(js_name = listModels, unchecked_return_type = "Promise<string[]>")]
pub fn list_models(
    #[wasm_bindgen(unchecked_param_type = "Settings")] settings: JsValue,
) -> Promise {
    future_to_promise(async move {
        let Model::Server(client) = configure(settings, Purpose::ListModels)?.model else {
            return Err(js_error("No server configured.", None, None));
        };
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

/// The built-in template for "en" or "zh" and a strategy (`react` when left out or unknown),
/// with its `{tools}` and `{tool_names}` slots.
#[wasm_bindgen(js_name = defaultTemplate)]
pub fn default_template(lang: &str, strategy: Option<String>) -> String {
    let lang = if lang == "zh" { Lang::Zh } else { Lang::En };
    let strategy = strategy
        .and_then(|s| serde_json::from_value(serde_json::Value::String(s)).ok())
        .unwrap_or_default();
    crate::prompt::template(strategy, lang)
}

/// A rough token count (see `prompt::estimate_tokens` for the method).
#[wasm_bindgen(js_name = estimateTokens)]
pub fn estimate_tokens(text: &str) -> usize {
    crate::lang::estimate_tokens(text)
}
