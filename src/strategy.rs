//! How a run goes about the question: the loop variants a workshop compares side by side.
//!
//! The ReAct paper (Yao et al., 2022) measures ReAct against Act-only (no Thoughts) and
//! chain-of-thought only (no tools); here each is the same loop with a different format and
//! tool list, so their traces line up step by step.

use crate::fields::units;

units! {
    /// A plain string in settings and traces (`"react"`, `"act"`, `"cot"`).
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub enum Strategy {
        /// Thought, Action, Action Input; an Observation; again until `final_answer`.
        #[default]
        React,
        /// Action and Action Input only: the tools without the reasoning between them.
        Act,
        /// Reasoning, then the answer, with no tools: one request when the format holds.
        Cot,
        /// Plan-and-Execute: the first reply is a numbered plan, kept in the prompt; then ReAct.
        /// One new plan is asked for after a tool fails.
        Plan,
        /// ReAct, and before a final answer is taken, one request to check it against the
        /// question and the Observations: kept, revised, or another tool call first. Once a run.
        Reflect,
    }
}

impl Strategy {
    /// Whether a reply opens with a Thought.
    pub fn thinks(self) -> bool {
        self != Strategy::Act
    }

    /// Whether the model is offered the tools.
    pub fn acts(self) -> bool {
        self != Strategy::Cot
    }
}

units! {
    /// What happens to rounds that leave the history window (`historyRounds`).
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub enum Compress {
        /// They are dropped, and the question's message says how many.
        #[default]
        Window,
        /// One request first asks the model to summarise the run so far; the summary stays after
        /// the question in every later request.
        Summary,
    }
}

/// The most steps a plan holds: small models number on without end.
pub const MAX_PLAN_STEPS: usize = 5;
