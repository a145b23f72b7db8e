//! The server a run talks to: what it is decides the constraint (`auto`), and one that
//! refuses the constraint gets the request again without it.

use super::*;

impl Agent {
    /// `constrained` is `auto` and the server's kind is still unknown: [`Next::DetectServer`].
    pub(super) fn wants_server(&self) -> bool {
        self.trace.config.constrained == Constrained::Auto
            && self.trace.server.is_none()
            && self.state == State::NeedModel
    }

    /// The server's kind decides the constraint (recorded in the trace); the pending request
    /// is rebuilt with it.
    pub fn feed_server(&mut self, kind: ServerKind) -> Result<(), AgentError> {
        if !self.wants_server() {
            return Err(AgentError::NotWaitingForServer);
        }
        self.constrained = kind.constrained();
        self.trace.server = Some(ServerChoice {
            kind,
            constrained: self.constrained,
        });
        (self.trace.system_prompt, self.examples) =
            prompt_and_examples(&self.trace.config, &self.registry, self.constrained);
        self.current_mut().request = self.request(self.trace.steps.len());
        Ok(())
    }

    /// A server that refuses the constraint (an HTTP 400, 422 or 500 to a constrained
    /// request) gets the request again without it, for the rest of the run; once per run.
    pub(super) fn drop_refused_constraint(&mut self, error: &LlmError) -> bool {
        let refused = matches!(
            error,
            LlmError::Http {
                status: 400 | 422 | 500,
                ..
            }
        );
        if !refused || !self.constrained.is_on() {
            return false;
        }
        let constrained = std::mem::replace(&mut self.constrained, Constrained::Off);
        self.current_mut().request = self.request(self.trace.steps.len());
        self.guard(Guard::ConstraintDropped {
            constrained,
            error: error.clone(),
        });
        true
    }
}
