//! What a strategy remembers during a run, and its transitions where strategies differ.
//! `crate::strategy` names them; ReAct, Act-only and chain of thought differ only in format and
//! tools (the prompt and each request read those from the config), so they keep nothing. Plan
//! and Reflect keep theirs ([`Planning`], [`Reflecting`]); a new strategy is a new variant
//! here with a module of its own, not more flags on the agent.

use crate::lang::Lang;
use crate::prompt;
use crate::strategy::Strategy;

/// A run's own course: a plan to carry out, or an answer to check once.
#[derive(Debug, Clone)]
pub(super) enum Course {
    Plain,
    Plan(Planning),
    Reflect(Reflecting),
}

/// What a final answer does.
pub(super) enum Answered {
    /// Taken as the run's answer.
    Take(String),
    /// Asked to be checked once against the question and the Observations, with this text.
    Check(String),
    /// The check's own reply: the answer it was shown kept ("OK"), or its revision.
    Checked { kept: bool, answer: String },
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
        matches!(self, Course::Plan(p) if p.pending)
    }

    /// The plan, kept in the prompt once there is one.
    pub(super) fn plan(&self) -> Option<&[String]> {
        match self {
            Course::Plan(p) => p.steps.as_deref(),
            _ => None,
        }
    }

    /// The answer the pending request asks the model to check.
    pub(super) fn checking(&self) -> Option<&str> {
        match self {
            Course::Reflect(r) => r.checking.as_deref(),
            _ => None,
        }
    }

    /// The run follows a course of its own (a plan, an answer to check), not the question's
    /// evidence of which tool comes next.
    pub(super) fn own_course(&self) -> bool {
        self.asks_plan() || self.plan().is_some() || self.checking().is_some()
    }

    /// The reply to a request that asked for a plan: its steps when it holds one (then kept).
    /// Either way none is asked for again; without one the run goes on as ReAct.
    pub(super) fn read_plan(&mut self, reply: &str) -> Option<Vec<String>> {
        let Course::Plan(p) = self else { return None };
        p.pending = false;
        let steps = prompt::read_plan(reply)?;
        p.steps = Some(steps.clone());
        Some(steps)
    }

    /// A tool failed: whether one new plan is asked for (once a run, when there is a plan).
    pub(super) fn replans(&mut self) -> bool {
        match self {
            Course::Plan(p) if p.steps.is_some() && !p.replanned => {
                p.replanned = true;
                p.pending = true;
                true
            }
            _ => false,
        }
    }

    /// A tool call instead of the check's answer: whether a check was left (the call is its
    /// revision).
    pub(super) fn leaves_check(&mut self) -> bool {
        match self {
            Course::Reflect(r) => r.checking.take().is_some(),
            _ => false,
        }
    }

    /// A final answer; `room` says whether the step limit leaves a step for a check.
    pub(super) fn answer(
        &mut self,
        answer: String,
        room: bool,
        question: &str,
        lang: Lang,
    ) -> Answered {
        let Course::Reflect(r) = self else {
            return Answered::Take(answer);
        };
        if let Some(shown) = r.checking.take() {
            let kept = prompt::keeps_answer(&answer);
            let answer = if kept { shown } else { answer };
            return Answered::Checked { kept, answer };
        }
        if r.checked || !room {
            return Answered::Take(answer);
        }
        r.checked = true;
        let text = prompt::check_answer(question, &answer, lang);
        r.checking = Some(answer);
        Answered::Check(text)
    }

    /// Where a Thought opens while a plan is carried out: on the step it is at, `done` tools
    /// having answered (the 0.5B model, opening "The Observation shows", made up a result and
    /// ran its steps on past the last).
    pub(super) fn plan_opening(&self, done: usize, lang: Lang) -> Option<String> {
        self.plan().map(|plan| prompt::plan_step(plan, done, lang))
    }
}

/// A `plan` run: the first reply is a numbered plan, kept in the prompt; one new plan is
/// asked for after a tool fails.
#[derive(Debug, Clone)]
pub(super) struct Planning {
    steps: Option<Vec<String>>,
    /// The next request asks for a plan: the first, or the new one after a failed tool.
    pending: bool,
    /// The one new plan was asked for.
    replanned: bool,
}

impl Default for Planning {
    fn default() -> Planning {
        Planning {
            steps: None,
            pending: true,
            replanned: false,
        }
    }
}

/// A `reflect` run: before a final answer is taken, one request checks it.
#[derive(Debug, Clone, Default)]
pub(super) struct Reflecting {
    /// The answer the pending request asks the model to check.
    checking: Option<String>,
    /// The run's one check was asked for.
    checked: bool,
}
