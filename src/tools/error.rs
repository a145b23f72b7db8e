//! What can go wrong between a written action and a tool's result. The words for it (the
//! `Display`, and the Observation that tells the model the problem and how to fix its next
//! step, in English and Chinese) are [`crate::told`]'s.

use super::CalcError;
#[cfg(doc)]
use super::{Registry, ToolCall};
use crate::fields::tagged;
use serde::Serialize;
use serde_json::Value;

tagged! {
    /// Why a parsed action could not become a [`ToolCall`].
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum DispatchError in "type" {
        UnknownTool {
            name: String,
            available: Vec<String>,
            nearest: Option<String>,
        } = "unknown_tool",
        MissingArgument {
            tool: String,
            missing: Vec<String>,
            expected: Value,
        } = "missing_argument",
        BadArguments {
            tool: String,
            message: String,
            expected: Value,
        } = "bad_arguments",
    }
}

impl std::error::Error for DispatchError {}

tagged! {
    /// Why a tool (built-in or external) failed.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum ToolError in "type" {
        Calculator(CalcError) = "calculator",
        NoDocuments = "no_documents",
        EmptyQuery = "empty_query",
        NoMatch {
            query: String,
            /// Titles of (some of) the documents, to suggest other keywords.
            topics: Vec<String>,
        } = "no_match",
        InvalidClock {
            // JSON has no NaN: serde_json writes it as null, read back as NaN.
            now_unix_ms: f64 => crate::fields::nan_if_null,
            utc_offset_minutes: i32,
        } = "invalid_clock",
        /// The call's arguments are not what the tool needs (only possible for a [`ToolCall`] that
        /// did not come from [`Registry::dispatch`]).
        InvalidInput {
            tool: String,
            message: String,
        } = "invalid_input",
        /// `run_builtin` was given a call to an external tool.
        NotBuiltin {
            tool: String,
        } = "not_builtin",
        /// The registry names the tool, but the driver that runs the loop has no code for it.
        NoImplementation {
            tool: String,
        } = "no_implementation",
        /// An external tool failed; the driver reports it with this variant when none of the
        /// page's own below says how.
        External {
            message: String,
        } = "external",
        /// A page's JavaScript tool threw when called.
        ScriptThrew {
            tool: String,
            message: String,
        } = "script_threw",
        /// Its promise was rejected.
        ScriptRejected {
            tool: String,
            message: String,
        } = "script_rejected",
        /// It stopped itself for taking too long (a `TimeoutError`, e.g. the tool worker's).
        ScriptTimedOut {
            tool: String,
            message: String,
        } = "script_timed_out",
        /// It gave no answer within the page's limit for it.
        NoAnswerWithin {
            tool: String,
            ms: u32,
        } = "no_answer_within",
        /// It returned a value that cannot be written as text (e.g. an object that refers to
        /// itself).
        NotText {
            tool: String,
            message: String,
        } = "not_text",
        /// Its arguments could not be handed to it.
        ArgumentsNotPassed {
            tool: String,
            message: String,
        } = "arguments_not_passed",
    }
}

impl std::error::Error for ToolError {}

impl ToolError {
    /// The tool said its input is not the kind it handles: calling it again cannot help.
    pub fn wrong_tool(&self) -> bool {
        matches!(self, ToolError::Calculator(e) if e.is_words())
    }
}
