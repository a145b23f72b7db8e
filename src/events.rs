//! A run that reports what each transition caused, ready to draw: [`Run`] wraps the
//! [`Agent`] and every `feed_*` returns its [`Event`]s. Drivers forward them and draw nothing
//! from the trace themselves; the page needs no polling to know what comes next.

use serde::Serialize;
use serde_json::Value;

use crate::agent::{Agent, AgentError, Next, ToolResult};
use crate::llm::{LlmError, ModelRequest, ServerKind};
use crate::sentences::{self, Text};
use crate::tools::ToolCall;
use crate::trace::{Guard, ModelReply, Outcome};
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
        message: String,
        hint: Option<String>,
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
            message: Text {
                en: "The stream ended without [DONE]; the reply may be incomplete.".into(),
                zh: "流式回复没有以 [DONE] 结束；回复可能不完整。".into(),
            },
        }
    }
}

/// Where the trace stood before a transition: the steps from `from` on may change; the
/// first `known` ones had been reported.
struct Mark {
    from: usize,
    known: usize,
    guards: usize,
}

/// One run and the page's origin (a model error's fix names it).
#[derive(Debug, Clone)]
pub struct Run {
    agent: Agent,
    page_origin: String,
    /// The agent as it was before each reply and each tool result was fed: where a fork
    /// starts ([`Run::fork`]). A clone is a few kilobytes per step; a run is a few steps.
    before: Vec<Agent>,
}

/// What a fork replaces at its step: the model's reply, or the tool's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Reply,
    Observation,
}

impl Run {
    pub fn new(agent: Agent, page_origin: impl Into<String>) -> Run {
        Run {
            agent,
            page_origin: page_origin.into(),
            before: Vec::new(),
        }
    }

    /// A new run from where step `step` waited for its reply or its tool's result: the same
    /// history up to there and nothing after, so an edited reply or Observation (or another
    /// model) can take it on. `None` when the run never waited there.
    pub fn fork(&self, step: usize, part: Part) -> Option<Run> {
        let at = self.before.iter().position(|agent| {
            let waits = match agent.next() {
                Next::CallModel { .. } => Part::Reply,
                Next::RunTool { .. } => Part::Observation,
                Next::Done { .. } => return false,
            };
            agent.trace().steps.len() == step && waits == part
        })?;
        Some(Run {
            agent: self.before[at].clone(),
            page_origin: self.page_origin.clone(),
            before: self.before[..at].to_vec(),
        })
    }

    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The step the run is on (1-based; 0 before the first).
    pub fn step_index(&self) -> usize {
        self.agent.trace().steps.len()
    }

    pub fn pending(&self) -> Pending {
        let step = self.step_index();
        match self.agent.next() {
            Next::CallModel { .. } => Pending::CallModel { step },
            Next::RunTool { call } => Pending::RunTool { step, call },
            Next::Done { .. } => Pending::Done,
        }
    }

    /// The event that announces what `next` is about to do, if it does anything.
    pub fn announce(&self, next: &Next) -> Option<Event> {
        let step = self.step_index();
        match next {
            Next::CallModel { request } => Some(Event::Request {
                step,
                request: request.clone(),
            }),
            Next::RunTool { call } => Some(Event::ToolStart {
                step,
                call: call.clone(),
            }),
            Next::Done { .. } => None,
        }
    }

    /// See [`Agent::set_server`]; the trace's `server` records it, no step changes.
    pub fn set_server(&mut self, kind: ServerKind) {
        self.agent.set_server(kind);
    }

    pub fn feed_model(&mut self, reply: ModelReply) -> Result<Vec<Event>, AgentError> {
        self.before.push(self.agent.clone());
        self.change(|agent| agent.feed_model(reply))
    }

    pub fn feed_model_error(&mut self, error: LlmError) -> Result<Vec<Event>, AgentError> {
        self.change(|agent| agent.feed_model_error(error))
    }

    pub fn feed_tool(&mut self, result: ToolResult) -> Result<Vec<Event>, AgentError> {
        self.before.push(self.agent.clone());
        self.change(|agent| agent.feed_tool(result))
    }

    pub fn retry(&mut self) -> Result<Vec<Event>, AgentError> {
        self.change(Agent::retry)
    }

    /// See [`Agent::constraint_refused`]: `None` when the error is not such a refusal; else
    /// the guard's events, and the request goes out again.
    pub fn constraint_refused(&mut self, error: &LlmError) -> Option<Vec<Event>> {
        let mut refused = false;
        let events = self.change(|agent| {
            refused = agent.constraint_refused(error);
            Ok(())
        });
        refused.then(|| events.unwrap_or_default())
    }

    /// Stops now; the trace so far is kept.
    pub fn abort(&mut self) -> Vec<Event> {
        self.change(|agent| {
            agent.abort();
            Ok(())
        })
        .unwrap_or_default()
    }

    /// Whether the run is over (answered, stopped or failed).
    pub fn is_done(&self) -> bool {
        self.agent.trace().outcome.is_some()
    }

    /// After [`Self::abort`], the text streamed so far becomes the step's reply. Nothing
    /// happens (and nothing is reported) while the run goes on.
    pub fn keep_partial_reply(&mut self, text: String) -> Vec<Event> {
        if !self.is_done() {
            return Vec::new();
        }
        self.change(|agent| {
            agent.keep_partial_reply(text);
            Ok(())
        })
        .unwrap_or_default()
    }

    /// Applies `change` and reports what it did to the steps from the current one on.
    fn change(
        &mut self,
        change: impl FnOnce(&mut Agent) -> Result<(), AgentError>,
    ) -> Result<Vec<Event>, AgentError> {
        let steps = &self.agent.trace().steps;
        let mark = Mark {
            from: steps.len().max(1),
            known: steps.len(),
            guards: steps.last().map_or(0, |s| s.guards.len()),
        };
        change(&mut self.agent)?;
        Ok(self.events_since(&mark))
    }

    fn events_since(&self, mark: &Mark) -> Vec<Event> {
        let trace = self.agent.trace();
        let mut events = Vec::new();
        let changed = trace.steps.iter().filter(|s| s.index >= mark.from);
        for step in changed.clone() {
            let seen = if step.index == mark.from {
                mark.guards
            } else {
                0
            };
            for guard in step.guards.iter().skip(seen) {
                events.push(Event::Guard {
                    step: step.index,
                    guard: guard.clone(),
                    explanation: sentences::guard(guard),
                });
            }
        }
        let last = trace.steps.len();
        for step in changed {
            // serde_json writes these types without fail.
            if let Ok(mut value) = view::step(step, &self.page_origin) {
                value["view"]["can_retry"] = (step.index == last && self.agent.can_retry()).into();
                if step.index <= mark.known {
                    if let Some(fields) = value.as_object_mut() {
                        fields.remove("request");
                    }
                }
                events.push(Event::Step { step: value });
            }
            if let Some(error) = &step.error {
                events.push(Event::Error {
                    step: step.index,
                    error: error.clone(),
                    message: error.to_string(),
                    hint: error.hint(&self.page_origin),
                });
            }
        }
        events.push(Event::Next {
            next: self.pending(),
        });
        if let Some(outcome) = &trace.outcome {
            events.push(Event::Done {
                outcome: outcome.clone(),
                message: sentences::outcome(outcome),
            });
        }
        events
    }
}
