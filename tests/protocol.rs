//! Every transition the browser's driver (`src/wasm`) can take, driven natively through the
//! same calls in the same order: find out the server when the agent asks, announce what comes
//! next, do it, feed the result unless Stop ended the run meanwhile, forward the events. Each
//! case is a script of what the world answers and the events a page then receives.

use reactloop::agent::{Agent, Next, ToolResult};
use reactloop::config::AgentConfig;
use reactloop::events::{Event, Run};
use reactloop::llm::{Constrained, LlmError, ServerKind};
use reactloop::tools::{default_documents, HostContext, Registry};
use reactloop::trace::{ModelReply, Outcome};
use serde_json::Value;

const HOST: HostContext = HostContext {
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 480,
};
const CALC: &str = "Thought: compute\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}";
const FINAL: &str = "Thought: done\nAction: final_answer\nAction Input: 42";

/// What the world does with one thing the run asked for.
enum World<'a> {
    /// `GET /models` says what the server is.
    Server(ServerKind),
    Reply(&'a str),
    Fails(LlmError),
    /// The built-in tool runs.
    Tool,
    /// The person presses Stop while it is in flight, after the model streamed this much;
    /// the request then comes back aborted (a tool's result comes back all the same).
    Stop(&'a str),
    /// The person presses Retry after a model error.
    Retry,
}

/// One transition as `step_once` in `src/wasm` takes it; the events in the order it
/// forwards them.
fn transition(run: &mut Run, world: &World) -> Vec<Event> {
    let mut events = Vec::new();
    if let World::Retry = world {
        return run.retry().expect("a model error to retry");
    }
    if run.agent().next() == Next::DetectServer {
        let kind = match world {
            World::Server(kind) => *kind,
            World::Stop(_) => {
                events.extend(run.abort(None));
                ServerKind::Unknown
            }
            _ => panic!("the run asks what the server is"),
        };
        // After Stop the run is over and no longer asks: refused, and ignored.
        let _ = run.feed_server(kind);
        return events;
    }
    events.extend(run.announce());
    let fed = match (run.agent().next(), world) {
        (Next::CallModel { .. }, World::Reply(text)) => run.feed_model(reply(text)),
        (Next::CallModel { .. }, World::Fails(error)) => run.feed_model_error(error.clone()),
        (Next::CallModel { .. }, World::Stop(partial)) => {
            events.extend(run.abort(Some(partial.to_string())));
            assert!(run.is_done());
            // The aborted request comes back; the run is over, so it is not fed.
            Ok(Vec::new())
        }
        (Next::RunTool { .. }, World::Tool) => run.feed_tool(tool_result(run)),
        (Next::RunTool { .. }, World::Stop(_)) => {
            let late = tool_result(run);
            events.extend(run.abort(Some("ignored".into())));
            assert!(
                run.feed_tool(late).is_err(),
                "a stopped run takes no result"
            );
            Ok(Vec::new())
        }
        (next, _) => panic!("the script does not answer {next:?}"),
    };
    events.extend(fed.expect("the run takes what it asked for"));
    events
}

fn reply(text: &str) -> ModelReply {
    ModelReply {
        text: text.into(),
        ..ModelReply::default()
    }
}

fn tool_result(run: &Run) -> ToolResult {
    ToolResult {
        output: run.agent().run_builtin(&HOST).expect("a built-in call"),
        elapsed_ms: Some(1.0),
        edited: false,
    }
}

/// Runs the script; returns each transition's events as `type:step` and the run.
fn play(constrained: Constrained, script: &[World]) -> (Vec<Vec<String>>, Run) {
    let config = AgentConfig {
        constrained,
        ..AgentConfig::default()
    };
    let agent = Agent::new(
        "What is 6*7?",
        Registry::with_builtins(default_documents()),
        config,
    );
    let mut run = Run::new(agent, "http://127.0.0.1:8000");
    let shown = script
        .iter()
        .map(|world| transition(&mut run, world).iter().map(kind).collect())
        .collect();
    (shown, run)
}

fn kind(event: &Event) -> String {
    let v = serde_json::to_value(event).unwrap();
    let step = match &v["step"] {
        Value::Object(s) => s["index"].to_string(),
        Value::Null => match &v["next"]["type"] {
            Value::String(next) => next.clone(),
            _ => String::new(),
        },
        other => other.to_string(),
    };
    format!("{}:{step}", v["type"].as_str().unwrap())
}

fn outcome(run: &Run) -> Option<Outcome> {
    run.agent().trace().outcome.clone()
}

#[test]
fn auto_asks_the_server_then_a_refused_constraint_is_asked_again_without_it() {
    let refused = LlmError::Http {
        status: 400,
        url: "http://localhost:8080/v1/chat/completions".into(),
        body_excerpt: "grammar not supported".into(),
        server_message: None,
        models: None,
    };
    let (shown, run) = play(
        Constrained::Auto,
        &[
            World::Server(ServerKind::LlamaCpp),
            World::Fails(refused),
            World::Reply(CALC),
            World::Tool,
            World::Reply(FINAL),
        ],
    );
    assert_eq!(
        shown,
        [
            vec![],
            vec!["request:1", "guard:1", "step:1", "next:call_model"],
            vec!["request:1", "step:1", "next:run_tool"],
            vec!["tool_start:1", "step:1", "step:2", "next:call_model"],
            vec!["request:2", "step:2", "next:done", "done:"],
        ]
    );
    let trace = run.agent().trace();
    assert_eq!(
        trace.server.map(|s| s.constrained),
        Some(Constrained::Grammar)
    );
    assert_eq!(trace.steps[0].request.constrained, Constrained::Off);
    assert!(outcome(&run).is_some_and(|o| o.finished()));
}

#[test]
fn stop_while_the_server_is_asked_ends_the_run_there() {
    let (shown, run) = play(Constrained::Auto, &[World::Stop("")]);
    assert_eq!(shown, [vec!["step:1", "next:done", "done:"]]);
    assert_eq!(outcome(&run), Some(Outcome::Aborted));
    assert_eq!(run.agent().trace().server, None);
}

#[test]
fn stop_during_a_model_call_keeps_what_streamed_and_during_a_tool_its_reply() {
    let (shown, run) = play(Constrained::Off, &[World::Stop("Thought: half")]);
    assert_eq!(shown, [vec!["request:1", "step:1", "next:done", "done:"]]);
    let step = &run.agent().trace().steps[0];
    assert_eq!(
        step.reply.as_ref().map(|r| r.text.as_str()),
        Some("Thought: half")
    );

    let (shown, run) = play(Constrained::Off, &[World::Reply(CALC), World::Stop("")]);
    assert_eq!(shown[1], ["tool_start:1", "step:1", "next:done", "done:"]);
    let step = &run.agent().trace().steps[0];
    assert_eq!(step.reply.as_ref().map(|r| r.text.as_str()), Some(CALC));
    assert_eq!(step.observation, None);
}

#[test]
fn a_model_error_ends_the_run_until_retry_asks_again() {
    let (shown, run) = play(
        Constrained::Off,
        &[
            World::Fails(LlmError::Timeout { ms: 1000 }),
            World::Retry,
            World::Reply(FINAL),
        ],
    );
    assert_eq!(
        shown,
        [
            vec!["request:1", "step:1", "error:1", "next:done", "done:"],
            // The failed card loses its Retry button (its error is sent again with it).
            vec!["step:1", "error:1", "step:2", "next:call_model"],
            vec!["request:2", "step:2", "next:done", "done:"],
        ]
    );
    assert!(outcome(&run).is_some_and(|o| o.finished()));
}
