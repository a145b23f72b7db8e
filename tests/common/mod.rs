//! Fixtures shared by the test binaries that hold the trace's shape to what reads it
//! (`tests/types.rs`, `tests/trace_shape.rs`, `tests/deser.rs`): scripted runs, and values
//! with every field set. Each exists once, so a new field is given its value in one place and
//! every check that walks these values sees it.

// Each test binary compiles this module and uses a different subset of it; what one binary
// leaves unused is not dead.
#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::VecDeque;
use std::convert::Infallible;

use reactloop::agent::{Agent, Next, ToolResult};
use reactloop::ask::{Avoid, AvoidWhy, ModelRequest, MustAnswer, Steer, SteerWhy};
use reactloop::config::AgentConfig;
use reactloop::drive::ready;
use reactloop::events::{Event, Run};
use reactloop::llm::{Constrained, LlmError, Message, Role, ServerKind, Usage};
use reactloop::parse::{ParseResult, Parsed, Repair, Span, Spans};
use reactloop::step::{self, Driver};
use reactloop::tools::{
    default_documents, Builtin, Evidence, HostContext, Note, Registry, ToolCall, ToolFit, ToolSpec,
};
use reactloop::trace::{
    Guard, ModelReply, Observation, ObservationSource, Outcome, ServerChoice, Step, Trace,
    GENERATOR, TRACE_VERSION,
};
use serde::Serialize;
use serde_json::{json, Value};

pub const ORIGIN: &str = "http://localhost:8000";
pub const HOST: HostContext = HostContext {
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 480,
};

pub const CALC: &str =
    "Thought: compute\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}";
pub const FINAL: &str = "Thought: done\nAction: final_answer\nAction Input: 42";

pub fn to_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

pub fn reply(text: &str) -> ModelReply {
    ModelReply {
        text: text.into(),
        ..ModelReply::default()
    }
}

// ---------------------------------------------------------------------------------------
// Scripted runs.

/// The agent the scripted runs drive: "What is 6*7?" with the built-in tools, under `config`.
pub fn agent(config: AgentConfig) -> Agent {
    Agent::new(
        "What is 6*7?",
        Registry::with_builtins(default_documents()),
        config,
    )
}

/// What a scripted run does when its replies run out before its end.
#[derive(Debug, Clone, Copy)]
pub enum AtEnd {
    /// The page stops it, with this much of a reply written.
    Abort(&'static str),
    /// It is left where it is, waiting for a reply (as `exportTrace` may be called mid-run).
    Leave,
}

/// What the world does with one thing a run asked for.
#[derive(Clone)]
pub enum World {
    /// `GET /models` says what the server is.
    Server(ServerKind),
    Reply(&'static str),
    Fails(LlmError),
    /// The built-in tool runs (as it does when the script names nothing for it).
    Tool,
    /// The person presses Stop while it is in flight, after the model streamed this much; the
    /// request then comes back aborted (a tool's result comes back all the same).
    Stop(&'static str),
    /// The person presses Retry after a model error (between transitions).
    Retry,
}

/// A [`Driver`] whose world is a script: the run goes through [`step::transition`], the code
/// every driver runs, and the events are kept as a page gets them.
pub struct Script {
    pub run: RefCell<Run>,
    pub world: RefCell<VecDeque<World>>,
    /// The model asked once the script is over: Stop, after this much of a reply.
    pub stop_at_end: Option<&'static str>,
    /// What Stop reported while a request was out; the page gets it with what comes next.
    unsent: RefCell<Vec<Event>>,
    pub shown: RefCell<Vec<Event>>,
}

impl Script {
    pub fn new(agent: Agent, world: impl IntoIterator<Item = World>) -> Script {
        Script {
            run: RefCell::new(Run::new(agent, ORIGIN)),
            world: RefCell::new(world.into_iter().collect()),
            stop_at_end: None,
            unsent: RefCell::default(),
            shown: RefCell::default(),
        }
    }

    fn answer(&self) -> World {
        let next = self.world.borrow_mut().pop_front();
        match (next, self.stop_at_end) {
            (Some(world), _) => world,
            (None, Some(partial)) => World::Stop(partial),
            (None, None) => panic!("the script answers what the run asks"),
        }
    }

    fn stop(&self, partial: &str) {
        let events = self.run.borrow_mut().abort(Some(partial.to_string()));
        self.unsent.borrow_mut().extend(events);
    }

    /// One transition, or Retry when the script says so.
    pub fn play_one(&self) {
        let retry = matches!(self.world.borrow().front(), Some(World::Retry));
        if retry {
            self.world.borrow_mut().pop_front();
            let events = (self.run.borrow_mut().retry()).expect("a model error to retry");
            self.emit(events);
        } else {
            let Ok(()) = ready(step::transition(self));
        }
    }
}

impl Driver for Script {
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
        let output = self.run.borrow().agent().run_builtin(&HOST);
        let result = ToolResult {
            output: output.expect("a built-in call"),
            elapsed_ms: Some(1.5),
            edited: false,
        };
        // A tool the script names nothing for just runs.
        let front = self.world.borrow().front().cloned();
        match front {
            Some(World::Tool) => drop(self.answer()),
            Some(World::Stop(partial)) => {
                self.answer();
                self.stop(partial);
            }
            _ => {}
        }
        result
    }

    fn emit(&self, events: Vec<Event>) {
        let mut shown = self.shown.borrow_mut();
        shown.extend(self.unsent.take());
        shown.extend(events);
    }
}

/// What a page receives from a run: its events, what it waited for before each transition
/// and at the end (`start`, `step` and `pending` give it to a page as JSON), and the trace.
pub struct Driven {
    pub events: Vec<Event>,
    pub nexts: Vec<Value>,
    pub trace: Trace,
}

/// Drives `agent` as a page does with these replies, a `None` being the model error `error`;
/// a server asked what it is says llama.cpp; built-in tools run with [`HOST`].
pub fn drive(
    agent: Agent,
    replies: &[Option<&'static str>],
    error: LlmError,
    at_end: AtEnd,
) -> Driven {
    let asks_server = agent.next() == Next::DetectServer;
    let server = asks_server.then_some(World::Server(ServerKind::LlamaCpp));
    let answers = replies.iter().map(|reply| match reply {
        Some(text) => World::Reply(text),
        None => World::Fails(error.clone()),
    });
    let mut script = Script::new(agent, server.into_iter().chain(answers));
    if let AtEnd::Abort(partial) = at_end {
        script.stop_at_end = Some(partial);
    }
    let mut nexts = Vec::new();
    loop {
        nexts.push(to_value(script.run.borrow().pending()));
        let (done, asks_model) = {
            let run = script.run.borrow();
            (
                run.is_done(),
                !matches!(run.agent().next(), Next::RunTool { .. }),
            )
        };
        if done {
            break;
        }
        let answers = script
            .world
            .borrow()
            .iter()
            .any(|w| !matches!(w, World::Server(_)));
        if asks_model && !answers && script.stop_at_end.is_none() {
            // Left waiting for a reply: the server found out and the request announced, as a
            // page that stops stepping there has it.
            let Ok(_) = ready(step::prepare(&script));
            break;
        }
        script.play_one();
    }
    let trace = script.run.borrow().agent().trace().clone();
    Driven {
        events: script.shown.take(),
        nexts,
        trace,
    }
}

// ---------------------------------------------------------------------------------------
// Values with every field set. Struct literals: a new field does not compile without its
// value here, so every walk over these values sees it.

/// A call of a built-in, with a note.
pub fn full_call() -> ToolCall {
    ToolCall {
        tool: "calculator".into(),
        args: json!({"expression": "6*7"}),
        builtin: Some(Builtin::Calculator),
        notes: vec![Note::ToolRenamed {
            written: "Calculator".into(),
            tool: "calculator".into(),
        }],
    }
}

/// A request with every field set, and a tool fit with every kind of evidence.
pub fn full_request() -> ModelRequest {
    ModelRequest {
        messages: vec![Message {
            role: Role::User,
            content: "Question: What is 6*7?".into(),
        }],
        stop: vec!["Observation:".into()],
        avoid: Some(Avoid {
            tool: "final_answer".into(),
            why: AvoidWhy::NotAnAnswer,
        }),
        constrained: Constrained::Grammar,
        must_answer: Some(MustAnswer::LastStep),
        thought_prefix: Some("The result".into()),
        thought_closed: true,
        answer_prefix: Some("The answer is".into()),
        no_thought: true,
        checks_answer: Some("The answer is 42".into()),
        asks_plan: true,
        summarizes: true,
        steer: Some(Steer {
            tool: "calculator".into(),
            why: SteerWhy::Next,
            uses: ["3".into()].into(),
            seen: ["3".into(), "2024".into()].into(),
            args: Some(Box::new(serde_json::Map::from_iter([(
                "days".to_string(),
                json!(30),
            )]))),
        }),
        fits: vec![ToolFit {
            tool: "search_docs".into(),
            role: Some(reactloop::tools::Role::Searches),
            score: 18,
            evidence: vec![
                Evidence::Described {
                    word: "date".into(),
                },
                Evidence::Source {
                    word: "文档".into(),
                },
                Evidence::Name {
                    term: "kestrel".into(),
                },
                Evidence::InDocuments {
                    term: "gateway".into(),
                },
                Evidence::Number {
                    number: "4.5".into(),
                },
                Evidence::Operation { word: "×".into() },
                Evidence::Quantity {
                    word: "how many".into(),
                },
                Evidence::Time {
                    word: "today".into(),
                    now: true,
                },
                Evidence::Time {
                    word: "week".into(),
                    now: false,
                },
                Evidence::Day {
                    phrase: "30 days from today".into(),
                    days: 30,
                },
                Evidence::Keyword {
                    word: "weather".into(),
                },
                Evidence::Example {
                    example: "Will it rain in Paris?".into(),
                },
                Evidence::Value {
                    param: "unit".into(),
                    value: "kg".into(),
                },
                Evidence::Outranked {
                    word: "now".into(),
                    by: "weather".into(),
                },
                Evidence::Qualifier {
                    word: "现在".into(),
                },
                Evidence::Awaits {
                    word: "40".into(),
                    by: "stock_price".into(),
                },
                Evidence::Compares {
                    phrase: "more than".into(),
                },
                Evidence::Unfilled {
                    word: "气温 (temperature)".into(),
                    param: "value".into(),
                },
            ],
        }],
        unsteered: Some(Box::new(reactloop::ask::Unsteered::Split {
            tools: ["weather".into(), "current_time".into()],
        })),
        left_out: vec!["order_status".into()],
    }
}

/// A step with every field set (no real step has a reply and an error both; the types allow
/// it).
pub fn full_step() -> Step {
    let span = |start, end| Some(Span { start, end });
    Step {
        index: 1,
        request: full_request(),
        reply: Some(ModelReply {
            text: CALC.into(),
            usage: Usage {
                prompt_tokens: Some(120),
                completion_tokens: Some(30),
                cached_tokens: Some(96),
            },
            elapsed_ms: Some(812.0),
            edited: true,
        }),
        parse: Some(ParseResult {
            parsed: Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "6*7"}),
            },
            thought: Some("compute".into()),
            spans: Spans {
                thought: span(9, 16),
                action: span(25, 35),
                input: span(50, 73),
                answer: span(0, 1),
            },
            repairs: vec![Repair::FullWidthColon],
        }),
        call: Some(full_call()),
        observation: Some(Observation {
            text: "42".into(),
            source: ObservationSource::Tool,
            full_chars: 2,
            elapsed_ms: Some(0.2),
            edited: true,
        }),
        guards: vec![Guard::RepeatedCall {
            tool: "calculator".into(),
            repeat: 2,
        }],
        error: Some(LlmError::Timeout { ms: 60_000 }),
        plan: Some(vec!["Compute 6 * 7.".into()]),
        summary: Some("6 * 7 was computed: 42.".into()),
    }
}

/// A trace with every field set.
pub fn full_trace() -> Trace {
    Trace {
        version: TRACE_VERSION,
        generator: Some(GENERATOR.into()),
        model: Some("qwen2.5:0.5b".into()),
        question: "What is 6*7?".into(),
        server: Some(ServerChoice {
            kind: ServerKind::LlamaCpp,
            constrained: Constrained::Grammar,
        }),
        system_prompt: "You are …".into(),
        // The built-ins and a page's tool that declares examples.
        tools: Registry::with_builtins(default_documents())
            .specs()
            .into_iter()
            .cloned()
            .chain([ToolSpec {
                name: "weather".into(),
                description: "Current weather for a city.".into(),
                parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}}),
                examples: vec!["Will it rain in Paris?".into()],
                keywords: vec!["weather".into(), "天气".into()],
                role: None,
            }])
            .collect(),
        config: AgentConfig::default(),
        steps: vec![full_step()],
        outcome: Some(Outcome::Answer {
            answer: "42".into(),
        }),
    }
}

/// The variants serde knows of `T`, from its refusal of an unknown one ("unknown variant `x`,
/// expected one of `a`, `b`"): what a trace can hold, however the core's own lists are kept.
pub fn variants<T: serde::de::DeserializeOwned + std::fmt::Debug>(unknown: Value) -> Vec<String> {
    let error = serde_json::from_value::<T>(unknown)
        .unwrap_err()
        .to_string();
    let expected = error.split("expected").nth(1).expect(&error);
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}
