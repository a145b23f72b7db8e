//! A synchronous driver for native callers (tests, the CLI, benchmarks): it answers the
//! agent's requests with a model function and runs built-in tools until the run is over.
//! The browser's driver (`wasm`) matches the same [`Next`] variants, asynchronously.

use crate::agent::{Agent, Next, ToolResult};
use crate::llm::{LlmError, ModelRequest, ServerKind};
use crate::tools::{HostContext, ToolError};
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
    mut model: impl FnMut(&ModelRequest) -> Result<ModelReply, LlmError>,
) -> Outcome {
    loop {
        // Each arm feeds exactly what `next` asked for, so feeding cannot fail.
        let fed = match agent.next() {
            Next::Done { outcome } => return outcome.clone(),
            Next::DetectServer => agent.feed_server(server),
            Next::CallModel { request } => match model(request) {
                Ok(reply) => agent.feed_model(reply),
                Err(error) => agent.feed_model_error(error),
            },
            Next::RunTool { call } => {
                let output = agent.run_builtin(host).unwrap_or_else(|| {
                    Err(ToolError::NoImplementation {
                        tool: call.tool.clone(),
                    })
                });
                agent.feed_tool(ToolResult {
                    output,
                    elapsed_ms: None,
                    edited: false,
                })
            }
        };
        debug_assert!(fed.is_ok(), "{fed:?}");
    }
}
