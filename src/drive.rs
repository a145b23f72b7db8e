//! A synchronous driver for native callers (tests, the CLI, benchmarks): it answers the
//! agent's requests with a model function and runs built-in tools until the run is over,
//! through the same [`step::transition`] as the browser's driver.

use std::cell::RefCell;
use std::convert::Infallible;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::agent::{Agent, ToolResult};
use crate::ask::ModelRequest;
use crate::events::{Event, Run};
use crate::llm::{LlmError, ServerKind};
use crate::step::{self, Driver};
use crate::tools::{HostContext, ToolCall, ToolError, ToolSpec};
use crate::trace::{ModelReply, Outcome};

/// Runs the agent to the end against a server of an unknown kind (so `auto` sends no
/// constraint). A tool the core cannot run (a host tool) fails with a message in the trace
/// instead of stopping the run.
pub fn run_to_end(
    agent: &mut Agent,
    host: &HostContext,
    model: impl FnMut(&ModelRequest) -> Result<ModelReply, LlmError>,
) -> Outcome {
    drive(agent, host, ServerKind::Unknown, model)
}

/// Runs the agent to the end; `server` is what the server turned out to be.
pub fn drive(
    agent: &mut Agent,
    host: &HostContext,
    server: ServerKind,
    model: impl FnMut(&ModelRequest) -> Result<ModelReply, LlmError>,
) -> Outcome {
    let native = Native {
        run: RefCell::new(Run::new(agent.clone(), "")),
        host,
        server,
        model: RefCell::new(model),
    };
    while !native.run.borrow().is_done() {
        let Ok(()) = ready(step::transition(&native));
    }
    *agent = native.run.into_inner().into_agent();
    agent.trace().outcome.clone().unwrap_or(Outcome::Aborted)
}

struct Native<'a, M> {
    run: RefCell<Run>,
    host: &'a HostContext,
    server: ServerKind,
    model: RefCell<M>,
}

impl<M: FnMut(&ModelRequest) -> Result<ModelReply, LlmError>> Driver for Native<'_, M> {
    type Error = Infallible;

    fn with_run<T>(&self, f: impl FnOnce(&mut Run) -> T) -> Result<T, Infallible> {
        Ok(f(&mut self.run.borrow_mut()))
    }

    async fn detect_server(&self) -> Result<ServerKind, Infallible> {
        Ok(self.server)
    }

    async fn call_model(
        &self,
        _step: usize,
        request: &ModelRequest,
        _tools: &[ToolSpec],
    ) -> Result<ModelReply, LlmError> {
        (self.model.borrow_mut())(request)
    }

    async fn run_tool(&self, call: &ToolCall) -> ToolResult {
        let output = self.run.borrow().agent().run_builtin(self.host);
        ToolResult {
            output: output.unwrap_or_else(|| {
                Err(ToolError::NoImplementation {
                    tool: call.tool.clone(),
                })
            }),
            elapsed_ms: None,
            edited: false,
        }
    }

    /// Native callers read the trace, not the events.
    fn emit(&self, _events: Vec<Event>) {}
}

/// The output of a synchronous driver's future, which is ready at once: nothing it awaits
/// waits (the native driver's, and the tests' scripted ones).
pub fn ready<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("a synchronous driver waited"),
    }
}
