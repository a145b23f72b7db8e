//! What a strategy remembers during a run, and its transitions where strategies differ.
//! `crate::strategy` names them; ReAct, Act-only and chain of thought differ only in format and
//! tools (the prompt and each request read those from the config), so they keep nothing. Plan
//! ([`plan`]) and Reflect ([`reflect`]) each keep theirs in a module of their own; a new
//! strategy is a new variant here and a module, not more flags on the agent.

mod plan;
mod reflect;

use crate::strategy::Strategy;
use crate::told::Voice;
use plan::Planning;
pub(super) use reflect::Answered;
use reflect::Reflecting;

/// A run's own course: a plan to carry out, or an answer to check once.
#[derive(Debug, Clone)]
pub(super) enum Course {
    Plain,
    Plan(Planning),
    Reflect(Reflecting),
}

impl Course {
    pub(super) fn new(strategy: Strategy) -> Course {
        match strategy {
            Strategy::Plan => Course::Plan(Planning::default()),
            Strategy::Reflect => Course::Reflect(Reflecting::default()),
            Strategy::React | Strategy::Act | Strategy::Cot => Course::Plain,
        }
    }

    /// The next request asks for a plan.
    pub(super) fn asks_plan(&self) -> bool {
        matches!(self, Course::Plan(p) if p.pending())
    }

    /// The plan, kept in the prompt once there is one.
    pub(super) fn plan(&self) -> Option<&[String]> {
        match self {
            Course::Plan(p) => p.steps(),
            _ => None,
        }
    }

    /// The answer the pending request asks the model to check.
    pub(super) fn checking(&self) -> Option<&str> {
        match self {
            Course::Reflect(r) => r.checking(),
            _ => None,
        }
    }

    /// The run follows a course of its own (a plan, an answer to check), not the question's
    /// evidence of which tool comes next.
    pub(super) fn own_course(&self) -> bool {
        self.asks_plan() || self.plan().is_some() || self.checking().is_some()
    }

    /// The reply to a request that asked for a plan: its steps when it holds one.
    pub(super) fn read_plan(&mut self, reply: &str) -> Option<Vec<String>> {
        match self {
            Course::Plan(p) => p.read(reply),
            _ => None,
        }
    }

    /// A tool failed: whether a new plan is asked for.
    pub(super) fn replans(&mut self) -> bool {
        match self {
            Course::Plan(p) => p.replans(),
            _ => false,
        }
    }

    /// A tool call instead of the check's answer: whether a check was left (the call is its
    /// revision).
    pub(super) fn leaves_check(&mut self) -> bool {
        match self {
            Course::Reflect(r) => r.leave(),
            _ => false,
        }
    }

    /// A final answer; `room` says whether the step limit leaves a step for a check.
    pub(super) fn answer(
        &mut self,
        answer: String,
        room: bool,
        question: &str,
        to: Voice<'_>,
    ) -> Answered {
        match self {
            Course::Reflect(r) => r.answer(answer, room, question, to),
            _ => Answered::Take(answer),
        }
    }

    /// Where a Thought opens while a plan is carried out, `done` tools having answered.
    pub(super) fn plan_opening(&self, done: usize, to: Voice<'_>) -> Option<String> {
        match self {
            Course::Plan(p) => p.opening(done, to),
            _ => None,
        }
    }
}
