//! The limits and layout of a run ([`AgentConfig`]), with its reader: a saved trace holds it,
//! and the fields a trace from before a field existed lacks read as the run then had them.

use serde::Serialize;
use serde_json::{Error, Value};

use crate::defaults;
use crate::fields::{via_value, Fields};
use crate::history::MessageStyle;
use crate::llm::Constrained;
use crate::prompt::PromptConfig;
use crate::strategy::{Compress, Strategy};

/// Limits and layout of a run. Every field has the default a user would expect.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentConfig {
    /// Model calls before the run gives up.
    pub max_steps: usize,
    /// Consecutive unparseable replies before the run gives up.
    pub max_format_errors: usize,
    /// Repeats of an identical tool call (same tool, same normalised arguments) before the
    /// run gives up; earlier repeats get the cached result and a nudge.
    pub max_repeats: usize,
    /// Observations longer than this many characters are cut with a visible marker.
    pub observation_limit: usize,
    /// Rounds kept in the history besides the system prompt and the question.
    pub history_rounds: usize,
    pub restate_question: bool,
    pub style: MessageStyle,
    /// Sent with every request; the loop also cuts a self-written observation itself.
    pub stop: Vec<String>,
    pub prompt: PromptConfig,
    /// Replaces the generated system prompt entirely.
    pub system_prompt: Option<String>,
    /// How the server is made to keep the format; `auto` picks it from the server's kind.
    pub constrained: Constrained,
    /// Under a constraint, the first reply must call a tool: the prompt says to use tools, and
    /// small models otherwise answer from their own knowledge at once. Unless no tool has any
    /// evidence in the question; and where one has strong evidence, the reply calls that one,
    /// and then the next the evidence names ([`crate::tools::fit`]).
    pub act_first: bool,
    /// Without a constraint and with the built-in prompt (no template, system prompt or
    /// few-shot examples of the user's), the system prompt ends with one worked example for
    /// each enabled built-in tool that has one ([`crate::prompt::worked_examples`]).
    pub worked_examples: bool,
    /// The loop variant: ReAct, Act-only or chain of thought ([`Strategy`]).
    pub strategy: Strategy,
    /// Rounds leaving the history window are dropped, or first summarised ([`Compress`]).
    pub compress: Compress,
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig {
            max_steps: defaults::MAX_STEPS.default as usize,
            max_format_errors: defaults::MAX_FORMAT_ERRORS.default as usize,
            max_repeats: defaults::MAX_REPEATS.default as usize,
            observation_limit: defaults::OBSERVATION_LIMIT.default as usize,
            history_rounds: defaults::HISTORY_ROUNDS.default as usize,
            restate_question: false,
            style: MessageStyle::Auto,
            stop: vec!["Observation:".to_string()],
            prompt: PromptConfig::default(),
            system_prompt: None,
            constrained: Constrained::Auto,
            act_first: true,
            worked_examples: true,
            strategy: Strategy::React,
            compress: Compress::Window,
        }
    }
}

via_value! {
    AgentConfig => agent_config,
}

fn agent_config(value: Value) -> Result<AgentConfig, Error> {
    let mut f = Fields::object(value)?;
    let d = AgentConfig::default();
    Ok(AgentConfig {
        max_steps: f.or("max_steps", d.max_steps)?,
        max_format_errors: f.or("max_format_errors", d.max_format_errors)?,
        max_repeats: f.or("max_repeats", d.max_repeats)?,
        observation_limit: f.or("observation_limit", d.observation_limit)?,
        history_rounds: f.or("history_rounds", d.history_rounds)?,
        restate_question: f.or("restate_question", d.restate_question)?,
        style: f.or("style", d.style)?,
        stop: f.or("stop", d.stop)?,
        prompt: f.or("prompt", d.prompt)?,
        system_prompt: f.or("system_prompt", d.system_prompt)?,
        constrained: f.or("constrained", d.constrained)?,
        act_first: f.or("act_first", d.act_first)?,
        strategy: f.or("strategy", d.strategy)?,
        compress: f.or("compress", d.compress)?,
        // Traces from before worked examples ran without them.
        worked_examples: f.or("worked_examples", false)?,
    })
}
