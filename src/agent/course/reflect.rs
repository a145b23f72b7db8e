//! Reflect: before a final answer is taken, one request asks the model to check it against
//! the question and the Observations; it keeps it ("OK"), revises it, or calls a tool first.
//! Once a run.

use crate::prompt;
use crate::told::Voice;

#[derive(Debug, Clone, Default)]
pub(in crate::agent) struct Reflecting {
    /// The answer the pending request asks the model to check.
    checking: Option<String>,
    /// The run's one check was asked for.
    checked: bool,
}

/// What a final answer does.
pub(in crate::agent) enum Answered {
    /// Taken as the run's answer.
    Take(String),
    /// Asked to be checked, with this text as the Observation.
    Check(String),
    /// The check's own reply: the answer it was shown kept, or its revision.
    Checked { kept: bool, answer: String },
}

impl Reflecting {
    pub(super) fn checking(&self) -> Option<&str> {
        self.checking.as_deref()
    }

    /// A tool call instead of the check's answer: whether a check was pending.
    pub(super) fn leave(&mut self) -> bool {
        self.checking.take().is_some()
    }

    /// A final answer; `room` says whether the step limit leaves a step for a check.
    pub(super) fn answer(
        &mut self,
        answer: String,
        room: bool,
        question: &str,
        to: Voice<'_>,
    ) -> Answered {
        if let Some(shown) = self.checking.take() {
            let kept = prompt::keeps_answer(&answer);
            let answer = if kept { shown } else { answer };
            return Answered::Checked { kept, answer };
        }
        if self.checked || !room {
            return Answered::Take(answer);
        }
        self.checked = true;
        let text = prompt::check_answer(question, &answer, to);
        self.checking = Some(answer);
        Answered::Check(text)
    }
}
