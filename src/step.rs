//! One transition, the same for every driver: find out what the server is when the run asks,
//! announce what comes next, do it, feed the result unless the run ended meanwhile (Stop), and
//! hand out the events in order. The browser's driver (`wasm/`), the native one
//! ([`crate::drive`]) and the protocol tests run this code; each supplies only a [`Driver`]:
//! the cell that holds the run, the server, the model, the tools and where events go.

use crate::agent::{Next, ToolResult};
use crate::ask::ModelRequest;
use crate::events::{Event, Run};
use crate::llm::{LlmError, ServerKind};
use crate::tools::{ToolCall, ToolSpec};
use crate::trace::ModelReply;

/// What a transition does once the server is known and the step announced.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Ask the model; `tools` are the run's own (none for chain of thought).
    CallModel {
        step: usize,
        request: ModelRequest,
        tools: Vec<ToolSpec>,
    },
    RunTool {
        call: ToolCall,
    },
    /// The run is over.
    Done,
}

/// A driver's I/O. The run is lent for a moment at a time ([`Driver::with_run`]) and never
/// across an await, so a page can stop the run or read its trace while a request is out.
#[allow(async_fn_in_trait)] // drivers are single-threaded (the browser's) or synchronous
pub trait Driver {
    /// Why the driver cannot go on (the browser's: no run was started).
    type Error;
    fn with_run<T>(&self, f: impl FnOnce(&mut Run) -> T) -> Result<T, Self::Error>;
    /// What the server is (its `GET /models`), or what the driver knows it to be.
    async fn detect_server(&self) -> Result<ServerKind, Self::Error>;
    async fn call_model(
        &self,
        step: usize,
        request: &ModelRequest,
        tools: &[ToolSpec],
    ) -> Result<ModelReply, LlmError>;
    /// Runs the tool; a built-in one through the run's agent ([`crate::agent::Agent::run_builtin`]).
    async fn run_tool(&self, call: &ToolCall) -> ToolResult;
    fn emit(&self, events: Vec<Event>);
}

/// What the run does now, as a driver does it.
fn effect(run: &Run) -> Effect {
    let step = run.step_index();
    match run.agent().next() {
        Next::CallModel { request } => Effect::CallModel {
            step,
            request: request.clone(),
            tools: run
                .agent()
                .registry()
                .specs()
                .into_iter()
                .cloned()
                .collect(),
        },
        Next::RunTool { call } => Effect::RunTool { call: call.clone() },
        // The server is found out before; a run stopped meanwhile no longer asks.
        Next::DetectServer | Next::Done { .. } => Effect::Done,
    }
}

/// Finds out the server if the run asks, announces what comes next (a request, a tool
/// starting) and says what to do: the first half of [`transition`], for a driver that shows
/// the model's reply before feeding it.
pub async fn prepare<D: Driver>(driver: &D) -> Result<Effect, D::Error> {
    if driver.with_run(|run| run.agent().next() == Next::DetectServer)? {
        let kind = driver.detect_server().await?;
        // After Stop the run is over and refuses it.
        driver.with_run(|run| run.feed_server(kind).ok())?;
    }
    let (effect, announced) = driver.with_run(|run| (effect(run), run.announce()))?;
    driver.emit(announced.into_iter().collect());
    Ok(effect)
}

/// One transition: what the run waits for, done, fed, and its events emitted.
pub async fn transition<D: Driver>(driver: &D) -> Result<(), D::Error> {
    let fed = match prepare(driver).await? {
        Effect::Done => Ok(Vec::new()),
        Effect::CallModel {
            step,
            request,
            tools,
        } => {
            let result = driver.call_model(step, &request, &tools).await;
            // After Stop the run is over; stopping it reported how.
            driver.with_run(|run| match result {
                _ if run.is_done() => Ok(Vec::new()),
                Ok(reply) => run.feed_model(reply),
                Err(error) => run.feed_model_error(error),
            })?
        }
        Effect::RunTool { call } => {
            let result = driver.run_tool(&call).await;
            driver.with_run(|run| match run.is_done() {
                true => Ok(Vec::new()),
                false => run.feed_tool(result),
            })?
        }
    };
    // Each feed answers what the run asked for, so none is refused.
    debug_assert!(fed.is_ok(), "{fed:?}");
    driver.emit(fed.unwrap_or_default());
    Ok(())
}
