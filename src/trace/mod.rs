//! The record of a run: what was asked, what came back, how it was read, what ran and which
//! guards stepped in. Serialisable, and all a page needs to draw a run; `read` loads a saved
//! one (each type's reader is beside it: the tagged enums' in their `tagged!` list, the
//! structs' in `read.rs`).

mod read;

use serde::{Deserialize, Serialize};

use crate::ask::ModelRequest;
use crate::config::AgentConfig;
use crate::fields::{tagged, units, via_value, Fields};
use crate::llm::{Constrained, LlmError, ServerKind, Usage};
use crate::parse::{FormatError, ParseResult};
use crate::tools::{DispatchError, ToolCall, ToolError, ToolSpec};

/// The version of the trace format; bump it when a saved trace would no longer load.
pub const TRACE_VERSION: u32 = 1;

/// This build's name and version, as a trace and an exported page record it.
pub const GENERATOR: &str = concat!("reactloop ", env!("CARGO_PKG_VERSION"));

tagged! {
    /// How a run ended.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Outcome in "type" {
        Answer {
            answer: String,
        } = "answer",
        StepLimit {
            steps: usize,
            last_observation: Option<String>,
        } = "step_limit",
        FormatErrors {
            count: usize,
        } = "format_errors",
        RepeatedCalls {
            tool: String,
        } = "repeated_calls",
        ModelError {
            error: LlmError,
        } = "model_error",
        Aborted = "aborted",
    }
}

impl Outcome {
    pub fn finished(&self) -> bool {
        matches!(self, Outcome::Answer { .. })
    }
}

tagged! {
    /// A guard that stepped in; the page marks these visibly.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Guard in "type" {
        /// The reply did not follow the format; the feedback went back as the observation.
        FormatFeedback {
            error: FormatError,
            consecutive: usize,
        } = "format_feedback",
        /// The tool name or its arguments were wrong; the model was told how to fix them.
        DispatchFailed {
            error: DispatchError,
        } = "dispatch_failed",
        /// The tool ran and failed; its error went back as the observation.
        ToolFailed {
            error: ToolError,
        } = "tool_failed",
        /// The same call again: the earlier result was reused, with a nudge to answer.
        RepeatedCall {
            tool: String,
            repeat: usize,
        } = "repeated_call",
        /// The model wrote its own "Observation:"; it was cut before anything else happened.
        SelfObservationCut {
            dropped_chars: usize,
        } = "self_observation_cut",
        ObservationTruncated {
            from_chars: usize,
            to_chars: usize,
        } = "observation_truncated",
        /// Old rounds were dropped from the messages to keep the prompt small.
        HistoryTrimmed {
            dropped_rounds: usize,
            kept_rounds: usize,
        } = "history_trimmed",
        StepLimit {
            steps: usize,
        } = "step_limit",
        TooManyFormatErrors {
            count: usize,
        } = "too_many_format_errors",
        TooManyRepeats {
            tool: String,
            repeats: usize,
        } = "too_many_repeats",
        /// The model repeated its reply or its mistake after feedback: the feedback changed.
        SecondMove {
            repeat: usize,
        } = "second_move",
        /// The server refused the constrained request; the run goes on without the constraint.
        ConstraintDropped {
            constrained: Constrained,
            error: LlmError,
        } = "constraint_dropped",
        /// The server counted fewer prompt tokens than were sent: it cut the prompt to fit its
        /// context window (see [`crate::history::cut_by_server`]). Once per run.
        PromptCut {
            /// The request's size by [`crate::lang::estimate_tokens`].
            sent: u32,
            /// The server's `usage.prompt_tokens`.
            counted: u32,
        } = "prompt_cut",
        /// The self-check of the `reflect` strategy answered: it kept the answer, or gave another.
        SelfCheck {
            kept: bool,
        } = "self_check",
    }
}

/// The model's reply, as fed by the driver.
// Read back in `read.rs`: a new field goes there too.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelReply {
    pub text: String,
    pub usage: Usage,
    pub elapsed_ms: Option<f64>,
    /// A person replaced the reply in the step debugger.
    pub edited: bool,
}

units! {
    /// Where an observation came from.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ObservationSource {
        Tool,
        ToolError,
        /// Format feedback or a dispatch error written by the loop.
        Feedback,
        /// An identical earlier call's result.
        Cached,
    }
}

// Read back in `read.rs`: a new field goes there too.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    /// Exactly what the model is sent after "Observation: ".
    pub text: String,
    pub source: ObservationSource,
    /// Characters of the full result before truncation.
    pub full_chars: usize,
    pub elapsed_ms: Option<f64>,
    pub edited: bool,
}

/// One model call and everything that followed from it.
// Read back in `read.rs`: a new field goes there too.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// 1-based.
    pub index: usize,
    /// The exact request: messages and stop sequences.
    pub request: ModelRequest,
    pub reply: Option<ModelReply>,
    pub parse: Option<ParseResult>,
    pub call: Option<ToolCall>,
    pub observation: Option<Observation>,
    pub guards: Vec<Guard>,
    pub error: Option<LlmError>,
    /// The steps of the plan this reply wrote (the `plan` strategy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Vec<String>>,
    /// The summary this reply wrote of the rounds leaving the window (`compress: summary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// The append-only record of a run; serialisable, and all a page needs to render it.
// Read back in `read.rs`: a new field goes there too.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    pub version: u32,
    /// What wrote the trace (`reactloop 0.2.0`); kept as read, so a loaded recording still
    /// says what made it. Missing in traces older than 0.2.0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    /// The model that produced the replies, as the driver named it; for readers only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    pub question: String,
    /// What the server turned out to be, when `constrained` was `auto`, and what that chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<ServerChoice>,
    pub system_prompt: String,
    pub tools: Vec<ToolSpec>,
    pub config: AgentConfig,
    pub steps: Vec<Step>,
    pub outcome: Option<Outcome>,
}

/// The server's kind, as the driver found it, and the constraint the agent chose for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ServerChoice {
    pub kind: ServerKind,
    pub constrained: Constrained,
}

via_value! {
    ServerChoice => server_choice,
}

fn server_choice(value: serde_json::Value) -> Result<ServerChoice, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(ServerChoice {
        kind: f.get("kind")?,
        constrained: f.get("constrained")?,
    })
}

/// A loaded trace that cannot be used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TraceError {
    NotJson { message: String },
    NewerVersion { found: u32, supported: u32 },
    Invalid { message: String },
}

// Its sentence for a person (`Display`, the English) is in `crate::sentences`, with the Chinese.
impl std::error::Error for TraceError {}

/// How far the plan a run carries out has got: the step that wrote it (`Step::index`) and how
/// many of its items are done, one for each tool that answered since.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlanProgress {
    pub step: usize,
    pub done: usize,
}

/// The progress of the newest plan among `steps`; `None` before any. The loop opens the next
/// Thought on the item it is at, and a page ticks as many items: one count for both.
pub fn plan_progress(steps: &[Step]) -> Option<PlanProgress> {
    let mut progress = None;
    for step in steps {
        if step.plan.is_some() {
            progress = Some(PlanProgress {
                step: step.index,
                done: 0,
            });
        } else if let (Some(p), Some(o)) = (progress.as_mut(), &step.observation) {
            if o.source == ObservationSource::Tool {
                p.done += 1;
            }
        }
    }
    progress
}
