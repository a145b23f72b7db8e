//! Every transition the browser's driver (`wasm/`) can take, driven natively through the
//! same code, [`reactloop::step::transition`], with a [`Driver`] whose world is a script: what
//! the server says it is, what the model replies or how it fails, the built-in tool, and Stop
//! pressed while a request is out. Each case is the script and the events a page then
//! receives, transition by transition.

mod common;

use common::{Script, World, CALC, FINAL};
use reactloop::config::AgentConfig;
use reactloop::events::{Event, Run};
use reactloop::llm::{Constrained, LlmError, ServerKind};
use reactloop::trace::Outcome;
use serde_json::Value;

/// Runs the script; returns each transition's events as `type:step` and the run.
fn play(constrained: Constrained, script: &[World]) -> (Vec<Vec<String>>, Run) {
    let config = AgentConfig {
        constrained,
        ..AgentConfig::default()
    };
    let world = Script::new(common::agent(config), script.iter().cloned());
    let mut shown = Vec::new();
    while !world.world.borrow().is_empty() {
        world.play_one();
        shown.push(world.shown.take().iter().map(kind).collect());
    }
    (shown, world.run.into_inner())
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
            // Finding out the server belongs to the first request's transition.
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
