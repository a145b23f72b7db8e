//! Every transition the browser's driver (`wasm/`) can take, driven natively through the
//! same code, [`reactloop::step::transition`], with a [`Driver`] whose world is a script: what
//! the server says it is, what the model replies or how it fails, the built-in tool, and Stop
//! pressed while a request is out. Each case is the script and the events a page then
//! receives, transition by transition.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use reactloop::agent::{Agent, ToolResult};
use reactloop::config::AgentConfig;
use reactloop::events::{Event, Run};
use reactloop::llm::{Constrained, LlmError, ModelRequest, ServerKind};
use reactloop::step::{self, Driver};
use reactloop::tools::{default_documents, HostContext, Registry, ToolCall, ToolSpec};
use reactloop::trace::{ModelReply, Outcome};
use serde_json::Value;

const HOST: HostContext = HostContext {
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 480,
};
const CALC: &str = "Thought: compute\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}";
const FINAL: &str = "Thought: done\nAction: final_answer\nAction Input: 42";

/// What the world does with one thing the run asked for.
#[derive(Clone)]
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
    /// The person presses Retry after a model error (between transitions).
    Retry,
}

/// The scripted world, the run, and the events as a page gets them.
struct Script<'a> {
    run: RefCell<Run>,
    world: RefCell<VecDeque<World<'a>>>,
    /// What Stop reported while a request was out; the page gets it with what comes next.
    unsent: RefCell<Vec<Event>>,
    shown: RefCell<Vec<Event>>,
}

impl Script<'_> {
    fn answer(&self) -> World<'_> {
        self.world
            .borrow_mut()
            .pop_front()
            .expect("the script answers what the run asks")
    }

    fn stop(&self, partial: &str) {
        let events = self.run.borrow_mut().abort(Some(partial.to_string()));
        self.unsent.borrow_mut().extend(events);
    }
}

impl Driver for Script<'_> {
    type Error = Infallible;

    fn with_run<T>(&self, f: impl FnOnce(&mut Run) -> T) -> Result<T, Infallible> {
        Ok(f(&mut self.run.borrow_mut()))
    }

    async fn detect_server(&self) -> Result<ServerKind, Infallible> {
        Ok(match self.answer() {
            World::Server(kind) => kind,
            World::Stop(partial) => {
                self.stop(partial);
                ServerKind::Unknown
            }
            _ => panic!("the run asks what the server is"),
        })
    }

    async fn call_model(
        &self,
        _step: usize,
        _request: &ModelRequest,
        _tools: &[ToolSpec],
    ) -> Result<ModelReply, LlmError> {
        match self.answer() {
            World::Reply(text) => Ok(reply(text)),
            World::Fails(error) => Err(error),
            World::Stop(partial) => {
                self.stop(partial);
                Err(LlmError::Aborted)
            }
            _ => panic!("the run asks the model"),
        }
    }

    async fn run_tool(&self, _call: &ToolCall) -> ToolResult {
        let result = tool_result(&self.run.borrow());
        match self.answer() {
            World::Tool => {}
            World::Stop(partial) => self.stop(partial),
            _ => panic!("the run runs a tool"),
        }
        result
    }

    fn emit(&self, events: Vec<Event>) {
        let mut shown = self.shown.borrow_mut();
        shown.extend(self.unsent.take());
        shown.extend(events);
    }
}

/// The output of a future that never waits (the script answers at once).
fn ready<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("the script waited"),
    }
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
    let world = Script {
        run: RefCell::new(Run::new(agent, "http://127.0.0.1:8000")),
        world: RefCell::new(script.iter().cloned().collect()),
        unsent: RefCell::default(),
        shown: RefCell::default(),
    };
    let mut shown = Vec::new();
    loop {
        let next = world.world.borrow().front().cloned();
        match next {
            None => break,
            Some(World::Retry) => {
                world.world.borrow_mut().pop_front();
                let events = world
                    .run
                    .borrow_mut()
                    .retry()
                    .expect("a model error to retry");
                world.emit(events);
            }
            Some(_) => {
                let Ok(()) = ready(step::transition(&world));
            }
        }
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
