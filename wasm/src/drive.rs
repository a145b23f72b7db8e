//! The browser's I/O: a [`Driver`] for [`reactloop::step`], which owns the transition (find out
//! the server, announce, ask the model or run a tool, feed, report); this file only fetches,
//! calls the page's model function and JS tools, and keeps time.

use super::*;
use reactloop::step::{self, Driver};

/// One page's run, its listener, and what a person typed in place of the model's reply or
/// the tool's result (`step(onEvent, {reply} | {observation})`).
pub(super) struct Page<'a> {
    pub inner: &'a Rc<Inner>,
    pub on_event: &'a Option<Function>,
    pub edit: RefCell<Edit>,
}

impl Driver for Page<'_> {
    type Error = JsValue;

    fn with_run<T>(&self, f: impl FnOnce(&mut Run) -> T) -> Result<T, JsValue> {
        with_run(self.inner, f)
    }

    async fn detect_server(&self) -> Result<ServerKind, JsValue> {
        detect_server(self.inner).await
    }

    async fn call_model(
        &self,
        step: usize,
        request: &ModelRequest,
        tools: &[ToolSpec],
    ) -> Result<ModelReply, LlmError> {
        let edit = std::mem::take(&mut *self.edit.borrow_mut());
        match edit.reply {
            Some(text) => Ok(ModelReply {
                text,
                usage: edit.usage.unwrap_or_default(),
                elapsed_ms: edit.elapsed_ms,
                edited: edit.edited.unwrap_or(true),
            }),
            None => {
                // The text streamed so far is kept in `inner.partial` for `abort()` until
                // the call returns.
                self.inner.partial.borrow_mut().clear();
                let reply = call_model(self.inner, request, tools, self.on_event, step).await;
                self.inner.partial.borrow_mut().clear();
                reply
            }
        }
    }

    async fn run_tool(&self, call: &ToolCall) -> ToolResult {
        let started = timer::now_ms();
        let typed = self.edit.borrow_mut().observation.take();
        let edited = typed.is_some();
        let output = match typed {
            Some(text) => Ok(text),
            None => run_tool(self.inner, call).await,
        };
        ToolResult {
            output,
            elapsed_ms: Some(timer::now_ms() - started),
            edited,
        }
    }

    /// What Stop reported while a request was out goes first.
    fn emit(&self, events: Vec<Event>) {
        emit_all(self.on_event, self.inner.unsent.take());
        emit_all(self.on_event, events);
    }
}

/// One transition, refused while another is in flight.
pub(super) async fn step_once(
    inner: &Rc<Inner>,
    on_event: &Option<Function>,
    edit: Edit,
) -> Result<(), JsValue> {
    if inner.busy.replace(true) {
        return Err(misused(Misuse::Busy));
    }
    let _busy = Busy(&inner.busy);
    let page = Page {
        inner,
        on_event,
        edit: RefCell::new(edit),
    };
    step::transition(&page).await
}

/// What a run finds without asking: the demo, the in-page engine, or a page's own model
/// function, which answers instead of the server; `None` for a server, known once it answered.
pub(super) fn known_server(inner: &Inner) -> Option<ServerKind> {
    (inner.model.known_server())
        .or_else(|| (inner.js_model.borrow().is_some()).then_some(ServerKind::InPage))
}

/// `Next::DetectServer`: the in-page engine and the demo are known; a server is asked.
pub(super) async fn detect_server(inner: &Rc<Inner>) -> Result<ServerKind, JsValue> {
    if let Some(kind) = known_server(inner) {
        return Ok(kind);
    }
    let Model::Server(cfg) = &inner.model else {
        return Ok(ServerKind::Unknown);
    };
    // Stop aborts the model-list request too, as it does a model call.
    let abort = controller()?;
    *inner.fetch.borrow_mut() = abort.clone();
    Ok(client::server_kind(cfg, &abort).await)
}

/// Calls the model (or the demo script), streaming into `inner.partial` and the page.
async fn call_model(
    inner: &Rc<Inner>,
    request: &ModelRequest,
    tools: &[ToolSpec],
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
            let text = reactloop::demo::reply(request);
            for piece in reactloop::demo::pieces(&text) {
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
            return Err(LlmError::PageModel {
                code: reactloop::llm::PageModelCode::NotLoaded,
                detail: String::new(),
            })
        }
        (Model::Server(cfg) | Model::InPage(cfg), _) => cfg,
    };
    let completion = match js_model {
        Some(model) => {
            let body = reactloop::ask::in_page_body(cfg, request, tools);
            let stopped = inner.aborted.borrow().0.clone();
            js_model::complete(&model, &body, &abort, &stopped, &on_delta).await?
        }
        None => client::complete(cfg, request, tools, &abort, &on_delta).await?,
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

pub(super) async fn run_tool(
    inner: &Rc<Inner>,
    call: &ToolCall,
) -> Result<String, reactloop::tools::ToolError> {
    if call.builtin.is_some() {
        let host = HostContext {
            now_unix_ms: timer::now_ms(),
            utc_offset_minutes: timer::utc_offset_minutes(),
        };
        // The run's own registry and language, as the native driver uses.
        let ran = with_run(inner, |run| run.agent().run_builtin(&host));
        return ran.ok().flatten().unwrap_or_else(|| {
            Err(reactloop::tools::ToolError::NotBuiltin {
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
        None => Err(reactloop::tools::ToolError::NoImplementation {
            tool: call.tool.clone(),
        }),
    }
}
