//! The browser driver: wasm-bindgen glue around the core. It converts values, does the I/O
//! the agent asks for (fetch, JS tools, timers) and reports what happens as events. Errors
//! cross to JS in one helper, [`js_error`]. A crate of its own, so the core cannot use it.
#![cfg(target_arch = "wasm32")]

mod api;
mod client;
mod convert;
mod drive;
mod grade;
mod js_model;
mod js_tools;
mod timer;

// Talc in place of std's dlmalloc: the same job in less code (the page is single-threaded).
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use reactloop::lang::Lang;
use std::cell::{Cell, RefCell};
use std::fmt::Display;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, JSON};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortController;

pub use api::{
    builtin_tools, check_tool, default_documents, default_template, demo_questions,
    estimate_tokens, hosted_page, limits, list_models, load_trace, parse_reply, setting_defaults,
    version,
};
use api::{js_tool, trace_view};
use convert::{configure, from_js, js_error, llm_error, misused, refused, to_js};
use drive::{step_once, Page};
pub use grade::{check_answer, find_numbers, grade_text, normalize_text};
use js_tools::JsTool;
use reactloop::agent::{self, ToolResult};
use reactloop::ask::ModelRequest;
use reactloop::config::AgentConfig;
use reactloop::events::{Event, Part, Run};
use reactloop::llm::{LlmError, ServerKind};
use reactloop::page::{Edit, ToolDefinition};
use reactloop::sentences::{BadNumber, Given, Misuse};
use reactloop::settings::{self, Configured, Model, Purpose, SettingsError};
use reactloop::step::{self, Driver, Effect};
use reactloop::tools::{HostContext, Registry, ToolCall, ToolSpec};
use reactloop::trace::{ModelReply, Trace};
use reactloop::view;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

#[wasm_bindgen(start)]
fn install_panic_hook() {
    // A bug that still panics is reported in the console instead of a bare "unreachable".
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("reactloop bug: {info}").into());
    }));
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

impl Inner {
    /// An agent's state with nothing in flight: its settings, model, tools and run.
    fn new(
        config: AgentConfig,
        model: Model,
        registry: Registry,
        tools: Vec<Rc<JsTool>>,
        js_model: Option<Function>,
        run: Option<Run>,
    ) -> Result<Rc<Inner>, JsValue> {
        Ok(Rc::new(Inner {
            config,
            model,
            registry: RefCell::new(registry),
            tools: RefCell::new(tools),
            js_model: RefCell::new(js_model),
            run: RefCell::new(run),
            partial: RefCell::new(String::new()),
            unsent: RefCell::new(Vec::new()),
            fetch: RefCell::new(controller()?),
            aborted: RefCell::new(abort_promise()),
            busy: Cell::new(false),
            paused: Cell::new(false),
        }))
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
            inner: Inner::new(c.agent, c.model, c.registry, Vec::new(), None, None)?,
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
                return Err(misused(Misuse::ForkPart {
                    part: other.to_string(),
                }))
            }
        };
        let forked = with_run(&self.inner, |run| run.fork(step, part))?
            .ok_or_else(|| misused(Misuse::ForkStep { step }))?;
        let inner = &self.inner;
        Ok(JsAgent {
            inner: Inner::new(
                inner.config.clone(),
                inner.model.clone(),
                inner.registry.borrow().clone(),
                inner.tools.borrow().clone(),
                inner.js_model.borrow().clone(),
                Some(forked),
            )?,
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
            .map_err(|e| refused(reactloop::sentences::registry_error(&e), None))?;
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
        reactloop::agent::system_prompt(config, &self.inner.registry.borrow(), config.constrained)
    }

    /// What every run of these settings starts with, up to where its question goes: the
    /// system message and the start of the first user message. The in-page engine reads them
    /// into its prompt cache while nobody waits, so a run's first step evaluates little more
    /// than its question.
    #[wasm_bindgen(unchecked_return_type = "Message[]")]
    pub fn opening(&self) -> Result<JsValue, JsValue> {
        let inner = &self.inner;
        let registry = inner.registry.borrow().clone();
        let opening = agent::opening(registry, inner.config.clone(), drive::known_server(inner));
        to_js(&opening).map_err(|e| js_error(e, None, None))
    }

    /// Starts a new run (dropping any previous one) and returns what it needs first, as the
    /// `next` event says it.
    #[wasm_bindgen(unchecked_return_type = "Pending")]
    pub fn start(&self, question: &str) -> Result<JsValue, JsValue> {
        if self.inner.busy.get() {
            return Err(misused(Misuse::StillRunning));
        }
        if question.trim().is_empty() {
            return Err(misused(Misuse::NoQuestion));
        }
        let registry = self.inner.registry.borrow().clone();
        let mut run = agent::Agent::new(question, registry, self.inner.config.clone());
        run.label_model(self.inner.model.label());
        let run = Run::new(run, timer::page_origin());
        let next = to_js(&run.pending()).map_err(|e| js_error(e, None, None));
        *self.inner.run.borrow_mut() = Some(run);
        *self.inner.aborted.borrow_mut() = abort_promise();
        self.inner.paused.set(false);
        next
    }

    /// What the run needs next, or null before `start`.
    #[wasm_bindgen(unchecked_return_type = "Pending | null")]
    pub fn pending(&self) -> Result<JsValue, JsValue> {
        match self.inner.run.borrow().as_ref() {
            Some(run) => to_js(&run.pending()).map_err(|e| js_error(e, None, None)),
            None => Ok(JsValue::NULL),
        }
    }

    /// Performs one transition. `edit` may replace the model's reply (`{reply}`) or the
    /// tool's observation (`{observation}`). Resolves to what the run needs next.
    #[wasm_bindgen(unchecked_return_type = "Promise<Pending>")]
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
                from_js(edit, Given::Edit, Edit::read)?
            };
            step_once(&inner, &on_event, edit).await?;
            with_run(&inner, |run| to_js(&run.pending()))?.map_err(|e| js_error(e, None, None))
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
                return Err(misused(Misuse::Busy));
            }
            let _busy = Busy(&inner.busy);
            let page = Page {
                inner: &inner,
                on_event: &on_event,
                edit: RefCell::default(),
            };
            let Effect::CallModel {
                step,
                request,
                tools,
            } = step::prepare(&page).await?
            else {
                return Err(misused(Misuse::NotAskingModel));
            };
            let reply = page.call_model(step, &request, &tools).await;
            // After abort() the run is over, with the text streamed so far as its reply.
            page.emit(Vec::new());
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
            Some(run) => run
                .retry()
                .map_err(|e| refused(reactloop::sentences::agent_error(&e), None))?,
            None => return Err(misused(Misuse::NothingRan)),
        };
        emit_all(&on_event, events);
        Ok(())
    }

    /// The trace so far as a plain object, or null before `start`.
    #[wasm_bindgen(unchecked_return_type = "Trace | null")]
    pub fn trace(&self) -> Result<JsValue, JsValue> {
        trace_of(&self.inner)
    }

    /// The trace as JSON, the format `loadTrace` reads back, with its views (`reactloop::view`):
    /// a page replays a recording without the wasm.
    #[wasm_bindgen(js_name = exportTrace)]
    pub fn export_trace(&self) -> Result<String, JsValue> {
        let run = self.inner.run.borrow();
        let run = run.as_ref().ok_or_else(|| misused(Misuse::NothingRan))?;
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
        .ok_or_else(|| misused(Misuse::NotStarted))
}
