//! Hand-written `Deserialize` for the types of a trace. serde's derive buffers an internally
//! tagged enum (`{"type": …, …fields}`) into its private `Content` type and builds every field
//! type's deserializer a second time for it, and gives each struct a visitor for maps and one
//! for sequences; in the wasm that was over 250 KB of the module. These readers take the
//! fields out of a `serde_json::Value` instead, with serde's own wording for a wrong, missing
//! or unknown field. Serialising stays derived. A struct literal here stops compiling when a
//! field is added; a new enum variant needs its line added by hand.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Error, Map, Value};

use crate::agent::{AgentConfig, Guard, ModelReply, Observation, Outcome, Step, Trace};
use crate::llm::{Avoid, AvoidWhy, LlmError, ModelRequest};
use crate::parse::{FormatError, ParseResult, Parsed, Span, Spans};
use crate::prompt::PromptConfig;
use crate::tools::calculator::CalcError;
use crate::tools::{DispatchError, Note, ToolCall, ToolError};

/// The fields of one object, taken out one by one.
pub(crate) struct Fields(Map<String, Value>);

impl Fields {
    /// An object without a tag.
    pub(crate) fn object(value: Value) -> Result<Fields, Error> {
        match value {
            Value::Object(map) => Ok(Fields(map)),
            other => Err(Error::custom(format!(
                "invalid type: {}, expected an object",
                kind(&other)
            ))),
        }
    }

    /// The object and its tag (`key` is "type", or "kind" for some enums).
    fn read(value: Value, key: &'static str) -> Result<(String, Fields), Error> {
        let Value::Object(mut map) = value else {
            return Err(Error::custom(format!(
                "invalid type: {}, expected an object",
                kind(&value)
            )));
        };
        match map.remove(key) {
            Some(Value::String(tag)) => Ok((tag, Fields(map))),
            Some(other) => Err(Error::custom(format!(
                "invalid type: {}, expected the string field `{key}`",
                kind(&other)
            ))),
            None => Err(Error::missing_field(key)),
        }
    }

    pub(crate) fn get<T: DeserializeOwned>(&mut self, name: &'static str) -> Result<T, Error> {
        match self.0.remove(name) {
            Some(value) => serde_json::from_value(value),
            None => Err(Error::missing_field(name)),
        }
    }

    /// An `Option` field: missing reads as `None`, as with the derive.
    pub(crate) fn opt<T: DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> Result<Option<T>, Error> {
        self.0.remove(name).map_or(Ok(None), serde_json::from_value)
    }

    /// A field with `#[serde(default)]`: missing reads as `default`; a `null` is read as a
    /// `T` (and refused when a `T` cannot be null), as with the derive.
    pub(crate) fn or<T: DeserializeOwned>(
        &mut self,
        name: &'static str,
        default: T,
    ) -> Result<T, Error> {
        match self.0.remove(name) {
            Some(value) => serde_json::from_value(value),
            None => Ok(default),
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "sequence",
        Value::Object(_) => "map",
    }
}

/// `impl Deserialize` through `Value` and a reader; the reader is built once, whatever the
/// deserializer.
macro_rules! via_value {
    ($($ty:ty => $read:ident,)*) => {$(
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $read(Value::deserialize(d)?).map_err(serde::de::Error::custom)
            }
        }
    )*};
}

via_value! {
    Guard => guard,
    Outcome => outcome,
    LlmError => llm_error,
    FormatError => format_error,
    DispatchError => dispatch_error,
    ToolError => tool_error,
    CalcError => calc_error,
    ParseResult => parse_result,
    Trace => trace,
    Step => step,
    AgentConfig => agent_config,
    PromptConfig => prompt_config,
    ModelRequest => model_request,
    ModelReply => model_reply,
    Observation => observation,
    ToolCall => tool_call,
    Spans => spans,
    Span => span,
    Note => note,
}

/// A note is kept as its sentence.
fn note(value: Value) -> Result<Note, Error> {
    match value {
        Value::String(sentence) => Ok(Note::read(&sentence)),
        other => Err(Error::custom(format!(
            "invalid type: {}, expected a string",
            kind(&other)
        ))),
    }
}

fn trace(value: Value) -> Result<Trace, Error> {
    let mut f = Fields::object(value)?;
    Ok(Trace {
        version: f.get("version")?,
        model: f.opt("model")?,
        question: f.get("question")?,
        server: f.opt("server")?,
        system_prompt: f.get("system_prompt")?,
        tools: f.get("tools")?,
        config: f.get("config")?,
        steps: f.get("steps")?,
        outcome: f.opt("outcome")?,
    })
}

fn step(value: Value) -> Result<Step, Error> {
    let mut f = Fields::object(value)?;
    Ok(Step {
        index: f.get("index")?,
        request: f.get("request")?,
        reply: f.opt("reply")?,
        parse: f.opt("parse")?,
        call: f.opt("call")?,
        observation: f.opt("observation")?,
        guards: f.get("guards")?,
        error: f.opt("error")?,
        plan: f.opt("plan")?,
        summary: f.opt("summary")?,
    })
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

fn prompt_config(value: Value) -> Result<PromptConfig, Error> {
    let mut f = Fields::object(value)?;
    let d = PromptConfig::default();
    Ok(PromptConfig {
        lang: f.or("lang", d.lang)?,
        template: f.or("template", d.template)?,
        few_shot: f.or("few_shot", d.few_shot)?,
    })
}

fn model_request(value: Value) -> Result<ModelRequest, Error> {
    let mut f = Fields::object(value)?;
    Ok(ModelRequest {
        messages: f.get("messages")?,
        stop: f.get("stop")?,
        avoid: avoid(&mut f)?,
        constrained: f.or("constrained", Default::default())?,
        must_answer: f.opt("must_answer")?,
        thought_prefix: f.opt("thought_prefix")?,
        thought_closed: f.or("thought_closed", false)?,
        answer_prefix: f.opt("answer_prefix")?,
        no_thought: f.or("no_thought", false)?,
        checks_answer: f.opt("checks_answer")?,
        asks_plan: f.or("asks_plan", false)?,
        summarizes: f.or("summarizes", false)?,
    })
}

/// `avoid`, or the `avoid_action` name alone that traces before it wrote: a left-out
/// `final_answer` then followed a non-answer, any other action a repeated call.
fn avoid(f: &mut Fields) -> Result<Option<Avoid>, Error> {
    if let Some(value) = f.opt::<Value>("avoid")? {
        let mut a = Fields::object(value)?;
        return Ok(Some(Avoid {
            tool: a.get("tool")?,
            why: a.get("why")?,
        }));
    }
    Ok(f.opt::<String>("avoid_action")?.map(|tool| {
        let why = if tool == crate::llm::FINAL_ANSWER {
            AvoidWhy::NotAnAnswer
        } else {
            AvoidWhy::Repeated
        };
        Avoid { tool, why }
    }))
}

fn model_reply(value: Value) -> Result<ModelReply, Error> {
    let mut f = Fields::object(value)?;
    Ok(ModelReply {
        text: f.or("text", String::new())?,
        usage: f.or("usage", Default::default())?,
        elapsed_ms: f.opt("elapsed_ms")?,
        edited: f.or("edited", false)?,
    })
}

fn observation(value: Value) -> Result<Observation, Error> {
    let mut f = Fields::object(value)?;
    Ok(Observation {
        text: f.get("text")?,
        source: f.get("source")?,
        full_chars: f.get("full_chars")?,
        elapsed_ms: f.opt("elapsed_ms")?,
        edited: f.get("edited")?,
    })
}

fn tool_call(value: Value) -> Result<ToolCall, Error> {
    let mut f = Fields::object(value)?;
    Ok(ToolCall {
        tool: f.get("tool")?,
        args: f.get("args")?,
        builtin: f.opt("builtin")?,
        notes: f.get("notes")?,
    })
}

fn spans(value: Value) -> Result<Spans, Error> {
    let mut f = Fields::object(value)?;
    Ok(Spans {
        thought: f.opt("thought")?,
        action: f.opt("action")?,
        input: f.opt("input")?,
        answer: f.opt("answer")?,
    })
}

fn span(value: Value) -> Result<Span, Error> {
    let mut f = Fields::object(value)?;
    Ok(Span {
        start: f.get("start")?,
        end: f.get("end")?,
    })
}

fn guard(value: Value) -> Result<Guard, Error> {
    const NAMES: &[&str] = &[
        "format_feedback",
        "dispatch_failed",
        "tool_failed",
        "repeated_call",
        "self_observation_cut",
        "observation_truncated",
        "history_trimmed",
        "step_limit",
        "too_many_format_errors",
        "too_many_repeats",
        "second_move",
        "constraint_dropped",
        "prompt_cut",
        "self_check",
    ];
    let (tag, mut f) = Fields::read(value, "type")?;
    Ok(match tag.as_str() {
        "format_feedback" => Guard::FormatFeedback {
            error: f.get("error")?,
            consecutive: f.get("consecutive")?,
        },
        "dispatch_failed" => Guard::DispatchFailed {
            error: f.get("error")?,
        },
        "tool_failed" => Guard::ToolFailed {
            error: f.get("error")?,
        },
        "repeated_call" => Guard::RepeatedCall {
            tool: f.get("tool")?,
            repeat: f.get("repeat")?,
        },
        "self_observation_cut" => Guard::SelfObservationCut {
            dropped_chars: f.get("dropped_chars")?,
        },
        "observation_truncated" => Guard::ObservationTruncated {
            from_chars: f.get("from_chars")?,
            to_chars: f.get("to_chars")?,
        },
        "history_trimmed" => Guard::HistoryTrimmed {
            dropped_rounds: f.get("dropped_rounds")?,
            kept_rounds: f.get("kept_rounds")?,
        },
        "step_limit" => Guard::StepLimit {
            steps: f.get("steps")?,
        },
        "too_many_format_errors" => Guard::TooManyFormatErrors {
            count: f.get("count")?,
        },
        "too_many_repeats" => Guard::TooManyRepeats {
            tool: f.get("tool")?,
            repeats: f.get("repeats")?,
        },
        "second_move" => Guard::SecondMove {
            repeat: f.get("repeat")?,
        },
        "constraint_dropped" => Guard::ConstraintDropped {
            constrained: f.get("constrained")?,
            error: f.get("error")?,
        },
        "prompt_cut" => Guard::PromptCut {
            sent: f.get("sent")?,
            counted: f.get("counted")?,
        },
        "self_check" => Guard::SelfCheck {
            kept: f.get("kept")?,
        },
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    })
}

fn outcome(value: Value) -> Result<Outcome, Error> {
    const NAMES: &[&str] = &[
        "answer",
        "step_limit",
        "format_errors",
        "repeated_calls",
        "model_error",
        "aborted",
    ];
    let (tag, mut f) = Fields::read(value, "type")?;
    Ok(match tag.as_str() {
        "answer" => Outcome::Answer {
            answer: f.get("answer")?,
        },
        "step_limit" => Outcome::StepLimit {
            steps: f.get("steps")?,
            last_observation: f.opt("last_observation")?,
        },
        "format_errors" => Outcome::FormatErrors {
            count: f.get("count")?,
        },
        "repeated_calls" => Outcome::RepeatedCalls {
            tool: f.get("tool")?,
        },
        "model_error" => Outcome::ModelError {
            error: f.get("error")?,
        },
        "aborted" => Outcome::Aborted,
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    })
}

fn llm_error(value: Value) -> Result<LlmError, Error> {
    const NAMES: &[&str] = &[
        "network",
        "mixed_content",
        "http",
        "server",
        "not_json",
        "unexpected_reply",
        "timeout",
        "aborted",
        "stream",
        "empty_reply",
        "too_large",
    ];
    let (tag, mut f) = Fields::read(value, "type")?;
    Ok(match tag.as_str() {
        "network" => LlmError::Network {
            url: f.get("url")?,
            detail: f.get("detail")?,
        },
        "mixed_content" => LlmError::MixedContent {
            page_origin: f.get("page_origin")?,
            url: f.get("url")?,
        },
        "http" => LlmError::Http {
            status: f.get("status")?,
            url: f.get("url")?,
            body_excerpt: f.get("body_excerpt")?,
            server_message: f.opt("server_message")?,
            models: f.opt("models")?,
        },
        "server" => LlmError::Server {
            message: f.get("message")?,
        },
        "not_json" => LlmError::NotJson {
            excerpt: f.get("excerpt")?,
        },
        "unexpected_reply" => LlmError::UnexpectedReply {
            expected: f.get("expected")?,
            excerpt: f.get("excerpt")?,
        },
        "timeout" => LlmError::Timeout { ms: f.get("ms")? },
        "aborted" => LlmError::Aborted,
        "stream" => LlmError::Stream {
            message: f.get("message")?,
        },
        "empty_reply" => LlmError::EmptyReply,
        "too_large" => LlmError::TooLarge {
            part: f.get("part")?,
            limit_bytes: f.get("limit_bytes")?,
        },
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    })
}

fn format_error(value: Value) -> Result<FormatError, Error> {
    const NAMES: &[&str] = &[
        "empty",
        "no_action",
        "thought_only",
        "no_tool",
        "missing_tool_name",
        "input_without_action",
        "mixed_action_and_answer",
        "empty_answer",
        "xml_tool_call",
        "invalid_json",
        "arguments_as_answer",
        "example_copied",
        "question_repeated",
        "number_unused",
    ];
    let (tag, mut f) = Fields::read(value, "type")?;
    Ok(match tag.as_str() {
        "empty" => FormatError::Empty,
        "no_action" => FormatError::NoAction,
        "thought_only" => FormatError::ThoughtOnly,
        "no_tool" => FormatError::NoTool,
        "missing_tool_name" => FormatError::MissingToolName,
        "input_without_action" => FormatError::InputWithoutAction,
        "mixed_action_and_answer" => FormatError::MixedActionAndAnswer,
        "empty_answer" => FormatError::EmptyAnswer,
        "xml_tool_call" => FormatError::XmlToolCall,
        "invalid_json" => FormatError::InvalidJson {
            line: f.get("line")?,
            column: f.get("column")?,
            message: f.get("message")?,
        },
        "arguments_as_answer" => FormatError::ArgumentsAsAnswer {
            tool: f.get("tool")?,
        },
        "example_copied" => FormatError::ExampleCopied,
        "question_repeated" => FormatError::QuestionRepeated,
        "number_unused" => FormatError::NumberUnused {
            number: f.get("number")?,
        },
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    })
}

fn dispatch_error(value: Value) -> Result<DispatchError, Error> {
    const NAMES: &[&str] = &["unknown_tool", "missing_argument", "bad_arguments"];
    let (tag, mut f) = Fields::read(value, "type")?;
    Ok(match tag.as_str() {
        "unknown_tool" => DispatchError::UnknownTool {
            name: f.get("name")?,
            available: f.get("available")?,
            nearest: f.opt("nearest")?,
        },
        "missing_argument" => DispatchError::MissingArgument {
            tool: f.get("tool")?,
            missing: f.get("missing")?,
            expected: f.get("expected")?,
        },
        "bad_arguments" => DispatchError::BadArguments {
            tool: f.get("tool")?,
            message: f.get("message")?,
            expected: f.get("expected")?,
        },
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    })
}

fn tool_error(value: Value) -> Result<ToolError, Error> {
    const NAMES: &[&str] = &[
        "calculator",
        "no_documents",
        "empty_query",
        "no_match",
        "invalid_clock",
        "invalid_input",
        "not_builtin",
        "external",
    ];
    let (tag, mut f) = Fields::read(value, "type")?;
    Ok(match tag.as_str() {
        // The calculator's error is written inline, next to the tag.
        "calculator" => ToolError::Calculator(calc_error(Value::Object(f.0))?),
        "no_documents" => ToolError::NoDocuments,
        "empty_query" => ToolError::EmptyQuery,
        "no_match" => ToolError::NoMatch {
            query: f.get("query")?,
            topics: f.get("topics")?,
        },
        "invalid_clock" => ToolError::InvalidClock {
            // JSON has no NaN or infinity: serde_json writes them as null, read back as NaN.
            now_unix_ms: f.get::<Option<f64>>("now_unix_ms")?.unwrap_or(f64::NAN),
            utc_offset_minutes: f.get("utc_offset_minutes")?,
        },
        "invalid_input" => ToolError::InvalidInput {
            tool: f.get("tool")?,
            message: f.get("message")?,
        },
        "not_builtin" => ToolError::NotBuiltin {
            tool: f.get("tool")?,
        },
        "external" => ToolError::External {
            message: f.get("message")?,
        },
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    })
}

fn calc_error(value: Value) -> Result<CalcError, Error> {
    const NAMES: &[&str] = &[
        "empty",
        "too_long",
        "too_deep",
        "unexpected_char",
        "unexpected_token",
        "unexpected_end",
        "unclosed_paren",
        "unexpected_close_paren",
        "unknown_name",
        "missing_parens",
        "constant_called",
        "wrong_arg_count",
        "division_by_zero",
        "overflow",
        "invalid_argument",
    ];
    let (tag, mut f) = Fields::read(value, "kind")?;
    Ok(match tag.as_str() {
        "empty" => CalcError::Empty,
        "too_long" => CalcError::TooLong {
            len: f.get("len")?,
            max: f.get("max")?,
        },
        "too_deep" => CalcError::TooDeep { max: f.get("max")? },
        "unexpected_char" => CalcError::UnexpectedChar {
            ch: f.get("ch")?,
            pos: f.get("pos")?,
        },
        "unexpected_token" => CalcError::UnexpectedToken {
            token: f.get("token")?,
            pos: f.get("pos")?,
        },
        "unexpected_end" => CalcError::UnexpectedEnd,
        "unclosed_paren" => CalcError::UnclosedParen { pos: f.get("pos")? },
        "unexpected_close_paren" => CalcError::UnexpectedCloseParen { pos: f.get("pos")? },
        "unknown_name" => CalcError::UnknownName {
            name: f.get("name")?,
            pos: f.get("pos")?,
        },
        "missing_parens" => CalcError::MissingParens {
            name: f.get("name")?,
        },
        "constant_called" => CalcError::ConstantCalled {
            name: f.get("name")?,
            pos: f.get("pos")?,
        },
        "wrong_arg_count" => CalcError::WrongArgCount {
            function: f.get("function")?,
            expected: f.get("expected")?,
            got: f.get("got")?,
        },
        "division_by_zero" => CalcError::DivisionByZero,
        "overflow" => CalcError::Overflow,
        "invalid_argument" => CalcError::InvalidArgument {
            function: f.get("function")?,
            reason: f.get("reason")?,
        },
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    })
}

/// A parse: the flattened `kind` with its fields, then the thought, spans and repairs.
fn parse_result(value: Value) -> Result<ParseResult, Error> {
    const NAMES: &[&str] = &["action", "final", "error"];
    let (tag, mut f) = Fields::read(value, "kind")?;
    let parsed = match tag.as_str() {
        "action" => Parsed::Action {
            tool: f.get("tool")?,
            input: f.get("input")?,
        },
        "final" => Parsed::Final {
            answer: f.get("answer")?,
        },
        "error" => Parsed::Error {
            error: f.get("error")?,
        },
        _ => return Err(Error::unknown_variant(&tag, NAMES)),
    };
    Ok(ParseResult {
        parsed,
        thought: f.opt("thought")?,
        spans: f.get("spans")?,
        repairs: f.get("repairs")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each case: the JSON, and the message serde's derive gave for it.
    #[test]
    fn bad_fields_are_named_as_the_derive_named_them() {
        let cases = [
            (json!({"consecutive": 1}), "missing field `type`"),
            (
                json!({"type": "nope"}),
                "unknown variant `nope`, expected one of `format_feedback`",
            ),
            (
                json!({"type": "format_feedback", "consecutive": 1}),
                "missing field `error`",
            ),
            (
                json!({"type": "step_limit", "steps": "8"}),
                "invalid type: string \"8\", expected usize",
            ),
            (json!([1]), "invalid type: sequence, expected an object"),
        ];
        for (value, want) in cases {
            let got = serde_json::from_value::<Guard>(value.clone()).unwrap_err();
            assert!(got.to_string().starts_with(want), "{value}: {got}");
        }
    }

    #[test]
    fn optional_fields_may_be_left_out() {
        let outcome: Outcome =
            serde_json::from_value(json!({"type": "step_limit", "steps": 3})).expect("reads");
        assert_eq!(
            outcome,
            Outcome::StepLimit {
                steps: 3,
                last_observation: None
            }
        );
    }
}
