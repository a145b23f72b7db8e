//! A run that reports what each transition caused, ready to draw: [`Run`] wraps the
//! [`Agent`] and every `feed_*` returns its [`Event`]s. Drivers forward them and draw nothing
//! from the trace themselves; the page needs no polling to know what comes next.

use serde::Serialize;
use serde_json::{json, Value};

use crate::agent::{Agent, AgentError, Change, Next, ToolResult};
use crate::ask::ModelRequest;
use crate::lang::Text;
use crate::llm::{LlmError, ServerKind};
use crate::sentences;
use crate::tools::ToolCall;
use crate::trace::{self, Guard, ModelReply, Outcome};
use crate::view;

/// What happened, as a page receives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A request is about to be sent; the step card can open.
    Request {
        step: usize,
        request: ModelRequest,
    },
    /// Streamed text of the reply in progress.
    Delta {
        step: usize,
        text: String,
    },
    ToolStart {
        step: usize,
        call: ToolCall,
    },
    /// The step changed (reply parsed, observation in); draw it from `step`, which has its
    /// sentences in `step.view` (see [`crate::view`]). Only a step new in this transition
    /// carries its `request`: the page has the others' from before, and every later change of
    /// a request is sent again in a `request` event. A run's events would otherwise carry the
    /// history three more times a step.
    Step {
        step: Value,
    },
    Guard {
        step: usize,
        guard: Guard,
        explanation: Text,
    },
    Notice {
        step: usize,
        message: Text,
    },
    Error {
        step: usize,
        error: LlmError,
        message: Text,
        hint: Option<Text>,
    },
    /// What the run waits for now.
    Next {
        next: Pending,
    },
    Done {
        outcome: Outcome,
        message: Text,
    },
}

/// What the run needs next, in short (the whole request is in the `request` event).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Pending {
    CallModel { step: usize },
    RunTool { step: usize, call: ToolCall },
    Done,
}

impl Event {
    /// The stream ended without `[DONE]`.
    pub fn unfinished_stream(step: usize) -> Event {
        Event::Notice {
            step,
            message: sentences::unfinished_stream(),
        }
    }
}

/// One run and the page's origin (a model error's fix names it).
#[derive(Debug, Clone)]
pub struct Run {
    agent: Agent,
    page_origin: String,
    /// The agent as the run began, and everything fed to it since, in order: a fork replays
    /// them up to its step ([`Run::fork`]; the core is a pure state machine). Cloning the
    /// agent before each feed instead made a step's cost grow with the trace (209 ms a step
    /// and 929 MB at step 400).
    start: Agent,
    fed: Vec<Fed>,
}

/// One thing fed to the run's agent.
#[derive(Debug, Clone)]
enum Fed {
    Server(ServerKind),
    Model(ModelReply),
    ModelError(LlmError),
    Tool(ToolResult),
    Retry,
    Abort(Option<String>),
}

/// What a fork replaces at its step: the model's reply, or the tool's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Reply,
    Observation,
}

impl Run {
    pub fn new(mut agent: Agent, page_origin: impl Into<String>) -> Run {
        // The opening of the first step is announced by its request.
        agent.take_changes();
        Run {
            start: agent.clone(),
            agent,
            page_origin: page_origin.into(),
            fed: Vec::new(),
        }
    }

    /// A new run from where step `step` waited for its reply or its tool's result: the same
    /// history up to there and nothing after, so an edited reply or Observation (or another
    /// model) can take it on. `None` when the run never waited there.
    pub fn fork(&self, step: usize, part: Part) -> Option<Run> {
        let mut run = Run::new(self.start.clone(), self.page_origin.clone());
        for fed in &self.fed {
            let waits = match fed {
                Fed::Model(_) => Some(Part::Reply),
                Fed::Tool(_) => Some(Part::Observation),
                _ => None,
            };
            if waits == Some(part) && run.step_index() == step {
                return Some(run);
            }
            run.replay(fed);
        }
        None
    }

    /// Feeds `fed` again, as the run it was recorded in did (with the same outcome: the agent
    /// is deterministic).
    fn replay(&mut self, fed: &Fed) {
        // Its events went out when it was first fed; a refused feed was never recorded.
        let _ = match fed.clone() {
            Fed::Server(kind) => self.feed_server(kind).map(|_| Vec::new()),
            Fed::Model(reply) => self.feed_model(reply),
            Fed::ModelError(error) => self.feed_model_error(error),
            Fed::Tool(result) => self.feed_tool(result),
            Fed::Retry => self.retry(),
            Fed::Abort(partial) => Ok(self.abort(partial)),
        };
    }

    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    pub fn into_agent(self) -> Agent {
        self.agent
    }

    /// The step the run is on (1-based; 0 before the first).
    pub fn step_index(&self) -> usize {
        self.agent.trace().steps.len()
    }

    /// What the run waits for, as a page shows it: finding out what the server is belongs to
    /// the step's model call.
    pub fn pending(&self) -> Pending {
        let step = self.step_index();
        match self.agent.next() {
            Next::DetectServer | Next::CallModel { .. } => Pending::CallModel { step },
            Next::RunTool { call } => Pending::RunTool {
                step,
                call: call.clone(),
            },
            Next::Done { .. } => Pending::Done,
        }
    }

    /// The event that announces what the run is about to do, if it does anything the page
    /// shows: a request, or a tool starting.
    pub fn announce(&self) -> Option<Event> {
        let step = self.step_index();
        match self.agent.next() {
            Next::CallModel { request } => Some(Event::Request {
                step,
                request: request.clone(),
            }),
            Next::RunTool { call } => Some(Event::ToolStart {
                step,
                call: call.clone(),
            }),
            Next::DetectServer | Next::Done { .. } => None,
        }
    }

    /// See [`Agent::feed_server`]; the trace's `server` records it, and the request it
    /// changes is announced before it goes out.
    pub fn feed_server(&mut self, kind: ServerKind) -> Result<(), AgentError> {
        self.agent.feed_server(kind)?;
        self.agent.take_changes();
        self.fed.push(Fed::Server(kind));
        Ok(())
    }

    pub fn feed_model(&mut self, reply: ModelReply) -> Result<Vec<Event>, AgentError> {
        self.agent.feed_model(reply.clone())?;
        self.fed.push(Fed::Model(reply));
        Ok(self.events())
    }

    /// See [`Agent::feed_model_error`]: a refused constraint is a guard, and the run asks
    /// again.
    pub fn feed_model_error(&mut self, error: LlmError) -> Result<Vec<Event>, AgentError> {
        self.agent.feed_model_error(error.clone())?;
        self.fed.push(Fed::ModelError(error));
        Ok(self.events())
    }

    pub fn feed_tool(&mut self, result: ToolResult) -> Result<Vec<Event>, AgentError> {
        self.agent.feed_tool(result.clone())?;
        self.fed.push(Fed::Tool(result));
        Ok(self.events())
    }

    pub fn retry(&mut self) -> Result<Vec<Event>, AgentError> {
        self.agent.retry()?;
        self.fed.push(Fed::Retry);
        Ok(self.events())
    }

    /// See [`Agent::abort`]; nothing is reported for a run that was already over.
    pub fn abort(&mut self, partial: Option<String>) -> Vec<Event> {
        if self.is_done() {
            return Vec::new();
        }
        self.agent.abort(partial.clone());
        self.fed.push(Fed::Abort(partial));
        self.events()
    }

    /// Whether the run is over (answered, stopped or failed).
    pub fn is_done(&self) -> bool {
        self.agent.trace().outcome.is_some()
    }

    /// The events of what the agent logged since the last transition: its guards as they
    /// stepped in, then each step it changed (with its error), what comes next, and the end.
    fn events(&mut self) -> Vec<Event> {
        let changes = self.agent.take_changes();
        let trace = self.agent.trace();
        let mut events = Vec::new();
        // Each changed step, and whether it is new (only a new step carries its request).
        let mut steps: Vec<(usize, bool)> = Vec::new();
        let mut changed = |step: usize, opened: bool| match steps.iter_mut().find(|s| s.0 == step) {
            Some(seen) => seen.1 |= opened,
            None => steps.push((step, opened)),
        };
        let mut done = false;
        for change in changes {
            match change {
                Change::Guard { step, at } => {
                    if let Some(guard) = trace.steps.get(step - 1).and_then(|s| s.guards.get(at)) {
                        events.push(Event::Guard {
                            step,
                            guard: guard.clone(),
                            explanation: sentences::guard(guard),
                        });
                    }
                    changed(step, false);
                }
                Change::Step { step } => changed(step, false),
                Change::Opened { step } => changed(step, true),
                Change::Done => done = true,
            }
        }
        crate::order::sort_by_key(&mut steps, |&(step, _)| step);
        let last = trace.steps.len();
        for (index, opened) in steps {
            let Some(step) = trace.steps.get(index - 1) else {
                continue;
            };
            // serde_json writes these types without fail.
            if let Ok(mut value) = view::step(step, &self.page_origin) {
                value["view"]["can_retry"] = (index == last && self.agent.can_retry()).into();
                value["view"]["plan"] = json!(trace::plan_progress(&trace.steps[..index]));
                if !opened {
                    if let Some(fields) = value.as_object_mut() {
                        fields.remove("request");
                    }
                }
                events.push(Event::Step { step: value });
            }
            if let Some(error) = &step.error {
                events.push(Event::Error {
                    step: index,
                    error: error.clone(),
                    message: sentences::llm_error(error),
                    hint: sentences::hint(error, &self.page_origin),
                });
            }
        }
        events.push(Event::Next {
            next: self.pending(),
        });
        if let (true, Some(outcome)) = (done, &trace.outcome) {
            events.push(Event::Done {
                outcome: outcome.clone(),
                message: sentences::outcome(outcome),
            });
        }
        events
    }
}
