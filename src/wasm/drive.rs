//! The driver's transitions: it matches the agent's `Next` as `crate::drive` does and only
//! does the I/O (fetch, the page's model function, JS tools, timers).

use super::*;

/// What a transition does: ask the model, or run a tool; or nothing, the run being over.
pub(super) enum Job {
    /// `tools` are the run's own, which its agent dispatches to (none for chain of thought).
    Model {
        step: usize,
        request: ModelRequest,
        tools: Vec<ToolSpec>,
    },
    Tool {
        call: ToolCall,
    },
    Done,
}

/// Gets the run ready for its transition: finds out what the server is when the agent asks
/// (`Next::DetectServer`), announces what comes next, and hands out a copy of it: no
/// `RefCell` borrow is held across an await, so `abort()` and `trace()` work meanwhile.
pub(super) async fn prepare(
    inner: &Rc<Inner>,
    on_event: &Option<Function>,
) -> Result<Job, JsValue> {
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
            tools: run
                .agent()
                .registry()
                .specs()
                .into_iter()
                .cloned()
                .collect(),
        },
        Next::RunTool { call } => Job::Tool { call: call.clone() },
        Next::DetectServer | Next::Done { .. } => Job::Done,
    })
}

/// One transition: does what the run waits for and forwards the events the core reports.
pub(super) async fn step_once(
    inner: &Rc<Inner>,
    on_event: &Option<Function>,
    edit: Edit,
) -> Result<(), JsValue> {
    if inner.busy.replace(true) {
        return Err(misused(Misuse::Busy));
    }
    let _busy = Busy(&inner.busy);
    let events = match prepare(inner, on_event).await? {
        Job::Done => Vec::new(),
        Job::Model {
            step,
            request,
            tools,
        } => {
            let result = match edit.reply {
                Some(text) => Ok(ModelReply {
                    text,
                    usage: edit.usage.unwrap_or_default(),
                    elapsed_ms: edit.elapsed_ms,
                    edited: edit.edited.unwrap_or(true),
                }),
                None => ask_model(inner, &request, &tools, on_event, step).await,
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
pub(super) async fn detect_server(inner: &Rc<Inner>) -> Result<ServerKind, JsValue> {
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
pub(super) async fn ask_model(
    inner: &Rc<Inner>,
    request: &ModelRequest,
    tools: &[ToolSpec],
    on_event: &Option<Function>,
    step: usize,
) -> Result<ModelReply, LlmError> {
    inner.partial.borrow_mut().clear();
    let reply = call_model(inner, request, tools, on_event, step).await;
    inner.partial.borrow_mut().clear();
    reply
}

pub(super) async fn call_model(
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
            return Err(LlmError::PageModel {
                code: crate::llm::PageModelCode::NotLoaded,
                detail: String::new(),
            })
        }
        (Model::Server(cfg) | Model::InPage(cfg), _) => cfg,
    };
    let completion = match js_model {
        Some(model) => {
            let body = crate::llm::in_page_body(cfg, request, tools);
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
) -> Result<String, crate::tools::ToolError> {
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
        None => Err(crate::tools::ToolError::NoImplementation {
            tool: call.tool.clone(),
        }),
    }
}
