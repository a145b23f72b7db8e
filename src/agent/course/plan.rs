//! Plan-and-Execute: the first reply is a numbered plan, kept in the prompt; the Thoughts
//! follow it step by step; one new plan is asked for after a tool fails.

use crate::prompt;
use crate::told::Voice;

#[derive(Debug, Clone)]
pub(in crate::agent) struct Planning {
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

impl Planning {
    pub(super) fn pending(&self) -> bool {
        self.pending
    }

    pub(super) fn steps(&self) -> Option<&[String]> {
        self.steps.as_deref()
    }

    /// The reply to a request for a plan: its steps when it holds one (then kept). Either way
    /// none is asked for again; without one the run goes on as ReAct.
    pub(super) fn read(&mut self, reply: &str) -> Option<Vec<String>> {
        self.pending = false;
        let steps = prompt::read_plan(reply)?;
        self.steps = Some(steps.clone());
        Some(steps)
    }

    /// A tool failed: one new plan, once a run, when there is a plan.
    pub(super) fn replans(&mut self) -> bool {
        if self.steps.is_none() || self.replanned {
            return false;
        }
        self.replanned = true;
        self.pending = true;
        true
    }

    /// The Thought opens on the step the plan is at, `done` tools having answered: the 0.5B
    /// model, opening "The Observation shows", made up a result and ran its steps on past the
    /// last.
    pub(super) fn opening(&self, done: usize, to: Voice<'_>) -> Option<String> {
        self.steps().map(|plan| prompt::plan_step(plan, done, to))
    }
}
