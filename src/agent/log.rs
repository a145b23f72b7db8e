//! The log of what each transition did, written where the agent decides it (a guard, a
//! changed or opened step, the end); `crate::events` makes the page's events of it.

use super::*;

impl Agent {
    /// What the transitions since the last call did, in the order the agent decided it.
    pub fn take_changes(&mut self) -> Vec<Change> {
        std::mem::take(&mut self.changes)
    }

    /// A guard steps in on the current step.
    pub(super) fn guard(&mut self, guard: Guard) {
        let step = self.current_mut();
        step.guards.push(guard);
        let at = step.guards.len() - 1;
        let step = step.index;
        self.changes.push(Change::Guard { step, at });
    }

    /// Logs that the current step's record (or what a page shows of it) changed.
    pub(super) fn touch(&mut self) {
        let step = Change::Step {
            step: self.trace.steps.len(),
        };
        if self.changes.last() != Some(&step) {
            self.changes.push(step);
        }
    }
}
