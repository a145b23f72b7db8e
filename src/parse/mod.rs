//! The tolerant reply parser: one model reply in, exactly one of action / final answer / format
//! error out, with the thought, byte spans for highlighting, and the repairs that were needed.
//!
//! Accepted forms (see `tests/corpus/README.md`): `Thought:`/`Action:`/`Action Input:`,
//! `Final Answer:` (or `Answer:`), `Action: final_answer`, the ReAct paper's `tool[arg]` and
//! `Finish[answer]` (also as a bare line), `tool(args)` calls, a whole JSON object with common
//! key aliases, Chinese labels (思考/行动/行动输入/最终答案), full-width colons, any case,
//! markdown or numbered labels, labels right after a sentence, code fences, a leading
//! `<think>` block, and repairable JSON. The first complete action counts, and a self-written
//! `Observation:` ends the reply.

mod json;
mod reply;
mod scan;

use crate::fields::tagged;
use crate::fields::{via_value, Fields};
use crate::lang::Lang;
use serde::{Deserialize, Serialize};
use serde_json::{Error, Value};
use std::fmt;

pub use json::parse_json_lenient;
pub use reply::{parse_reply, parse_reply_after_final_answer};

/// Byte offsets into the raw reply; always on char boundaries.
// Read back by hand in `crate::deser`: a new field goes there too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

tagged! {
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum Parsed in "kind" {
        /// `input` is `Value::Null` when absent and `Value::String` when it is not JSON.
        Action {
            tool: String,
            input: serde_json::Value,
        } = "action",
        Final {
            answer: String,
        } = "final",
        Error {
            error: FormatError,
        } = "error",
    }
}

tagged! {
    /// Why a reply could not be used; [`FormatError::feedback`] is what the model is told.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum FormatError in "type" {
        /// Nothing but whitespace.
        Empty = "empty",
        /// No `Action:`, `Final Answer:` or JSON action anywhere (bare prose).
        NoAction = "no_action",
        /// A `Thought:` and nothing after it.
        ThoughtOnly = "thought_only",
        /// `Action: None` or "Do I need a tool? No": the model wants to answer without a tool.
        NoTool = "no_tool",
        /// An `Action:` line (or JSON action object) without a tool name.
        MissingToolName = "missing_tool_name",
        /// `Action Input:` without an `Action:` before it.
        InputWithoutAction = "input_without_action",
        /// One line names a tool and gives a final answer (`Action: search Final Answer:`).
        MixedActionAndAnswer = "mixed_action_and_answer",
        /// `Final Answer:` (or `final_answer` / `Finish[]`) with no text.
        EmptyAnswer = "empty_answer",
        /// The model used its native XML tool-call syntax instead of the text protocol.
        XmlToolCall = "xml_tool_call",
        /// Input meant as JSON (starts with `{` or `[`) that no repair could read. Position is
        /// 1-based, relative to the JSON text, as serde_json reports it.
        InvalidJson {
            line: usize,
            column: usize,
            message: String,
        } = "invalid_json",
        /// `final_answer` with a tool's arguments that the tool cannot run either (e.g.
        /// `{"query": "year"}` where no search was made): neither an answer nor a call. Only the
        /// agent, which knows the tools and the observations, reports this one.
        ArgumentsAsAnswer { tool: String } = "arguments_as_answer",
        /// A call or a final answer of an example in the system prompt, word for word, that
        /// neither the question nor an Observation of this run holds: copied, not worked out.
        /// Reported by the agent.
        ExampleCopied = "example_copied",
        /// Asked for the answer, the model wrote words of the question back (its own search query
        /// as often as not). Reported by the agent.
        QuestionRepeated = "question_repeated",
        /// A final answer after a tool ran, while a number the question gives was used by no call,
        /// no Observation and not the answer: a step of the question was left out ("10 days from
        /// today" answered with today's date). Reported by the agent, once a run.
        NumberUnused { number: String } = "number_unused",
    }
}

// The format the built-in prompts ask for, so feedback never teaches a second one.
const FORMAT: &str = "Thought: <your reasoning>\nAction: <tool name, or final_answer>\n\
                      Action Input: <JSON arguments; for final_answer, the answer>";

const FORMAT_ZH: &str = "Thought: <你的思考>\nAction: <工具名，或 final_answer>\n\
                         Action Input: <JSON 参数；若为 final_answer，则写最终答案>";

impl FormatError {
    /// The message fed back to the model as the Observation, in the run's language.
    pub fn feedback(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.feedback_en(),
            Lang::Zh => self.feedback_zh(),
        }
    }

    fn feedback_zh(&self) -> String {
        match self {
            FormatError::Empty => format!(
                "你的回复是空的。请以 'Thought:' 开头；不要自己写 'Observation:'，它由系统发送。\
                 请按此格式回复：\n{FORMAT_ZH}"
            ),
            FormatError::NoAction => format!(
                "没有找到 'Action:'。如果已经完成，请写 'Action: final_answer'，把答案写在 \
                 Action Input 里（要问用户的问题也写在那里）；否则调用一个工具。严格使用此格式：\n\
                 {FORMAT_ZH}"
            ),
            FormatError::ThoughtOnly => "你只写了 Thought。请接着写 'Action: <工具名>' 和 \
                 'Action Input: <JSON 对象>'，或者 'Action: final_answer' 和 'Action Input: <答案>'。"
                .to_string(),
            FormatError::NoTool => "如果不需要工具，请回复 'Action: final_answer' 和 \
                 'Action Input: <你的答案>'（不要写 'Action: None'）。"
                .to_string(),
            FormatError::MissingToolName => "你的 'Action:' 没有写工具名。请在一行写 \
                 'Action: <工具名>'，下一行写 'Action Input: <JSON 对象>'。"
                .to_string(),
            FormatError::InputWithoutAction => "你写了 'Action Input:'，前面却没有 'Action:' \
                 行。请在 'Action Input:' 的上一行写 'Action: <工具名>'。"
                .to_string(),
            FormatError::MixedActionAndAnswer => "你的 'Action:' 行里还写了最终答案。请二选一：\
                 'Action: <工具名>' 加 'Action Input: <JSON 对象>'，或 'Action: final_answer' 加 \
                 'Action Input: <答案>'。"
                .to_string(),
            FormatError::EmptyAnswer => "你的最终答案是空的。请在 'Action: final_answer' 之后的 \
                 'Action Input: <答案>' 这一行写出答案本身。"
                .to_string(),
            FormatError::XmlToolCall => "不要使用 XML 工具调用。请改写为 'Action: <工具名>' 和 \
                 'Action Input: <JSON 对象>'。"
                .to_string(),
            FormatError::InvalidJson { line, column, .. } if self.cut_off() => format!(
                "你的 Action Input 在 JSON 结束之前就断了（第 {line} 行第 {column} 列）：它太长，被截断了。\
                 请写一个简短的 Action Input，在一行内写一个 JSON 对象，例如 {{\"query\": \"...\"}}。"
            ),
            FormatError::InvalidJson {
                line,
                column,
                message,
            } => format!(
                "你回复中的 JSON 无效（第 {line} 行第 {column} 列：{message}）。请把 Action Input \
                 写成一个 JSON 对象，键和字符串都用双引号，例如 {{\"query\": \"...\"}}。"
            ),
            FormatError::ArgumentsAsAnswer { tool } => format!(
                "你的 final_answer 里写的是 {tool} 的参数，不是答案。要使用 {tool}，请写 \
                 'Action: {tool}'，Action Input 写 JSON 对象。等 Observation 给出结果后，再写 \
                 'Action: final_answer'，答案用普通文字。"
            ),
            FormatError::ExampleCopied => "这是照抄说明里的示例，与这个问题无关。请处理这个问题：\
                 用它自己的参数调用工具，或者根据本次运行的 Observation 回答。"
                .to_string(),
            FormatError::QuestionRepeated => "这只是重复了问题，不是答案。请根据上面的 \
                 Observation，在 'Action: final_answer' 之后的 Action Input 里写出答案本身。"
                .to_string(),
            FormatError::NumberUnused { number } => format!(
                "问题里的 {number} 还没有用到：这个答案少了一步。请先用工具完成用到 {number} 的那一步，\
                 再回答。"
            ),
        }
    }

    /// serde_json's words for a text that ends inside a value, after many columns: a long
    /// argument that ran into the token limit, which the model repeats unless told it was
    /// too long.
    pub fn cut_off(&self) -> bool {
        matches!(self, FormatError::InvalidJson { column, message, .. }
            if message.starts_with("EOF while parsing") && *column > 80)
    }

    fn feedback_en(&self) -> String {
        match self {
            // Small models often begin with "Observation:", which the stop sequence cuts to
            // nothing: say so.
            FormatError::Empty => format!(
                "Your reply was empty. Start with 'Thought:'; never write 'Observation:' yourself, \
                 the system sends it. Reply in this format:\n{FORMAT}"
            ),
            FormatError::NoAction => format!(
                "No 'Action:' found. If you are done, reply 'Action: final_answer' with the \
                 answer as Action Input (a question for the user goes there too); otherwise call \
                 a tool. Use exactly this format:\n{FORMAT}"
            ),
            FormatError::ThoughtOnly => "You gave only a Thought. Continue with 'Action: <tool \
                 name>' and 'Action Input: <JSON object>', or with 'Action: final_answer' and \
                 'Action Input: <the answer>'."
                .to_string(),
            FormatError::NoTool => "If no tool is needed, reply with 'Action: final_answer' and \
                 'Action Input: <your answer>' (not 'Action: None')."
                .to_string(),
            FormatError::MissingToolName => "Your 'Action:' names no tool. Write 'Action: <tool \
                 name>' on one line and 'Action Input: <JSON object>' on the next."
                .to_string(),
            FormatError::InputWithoutAction => "You wrote 'Action Input:' without an 'Action:' \
                 line. Put 'Action: <tool name>' on the line before 'Action Input:'."
                .to_string(),
            FormatError::MixedActionAndAnswer => "Your 'Action:' line also holds a final answer. \
                 Write either 'Action: <tool name>' with 'Action Input: <JSON object>', or \
                 'Action: final_answer' with 'Action Input: <the answer>', not both."
                .to_string(),
            FormatError::EmptyAnswer => "Your final answer is empty. Write the answer itself on \
                 the line 'Action Input: <the answer>' right after 'Action: final_answer'."
                .to_string(),
            FormatError::XmlToolCall => "Do not use XML tool calls. Write 'Action: <tool name>' \
                 and 'Action Input: <JSON object>' instead."
                .to_string(),
            FormatError::InvalidJson { line, column, .. } if self.cut_off() => format!(
                "Your Action Input stops before its JSON is closed (line {line}, column \
                 {column}): it was too long and got cut off. Write a short Action Input, one \
                 JSON object on one line, e.g. {{\"query\": \"...\"}}."
            ),
            FormatError::InvalidJson {
                line,
                column,
                message,
            } => format!(
                "The JSON in your reply is not valid (line {line}, column {column}: {message}). \
                 Write the Action Input as one JSON object with double-quoted keys and strings, \
                 e.g. {{\"query\": \"...\"}}."
            ),
            FormatError::ArgumentsAsAnswer { tool } => format!(
                "Your final_answer holds {tool}'s arguments, not an answer. To use {tool}, write \
                 'Action: {tool}' with a JSON object as Action Input. Once an Observation has \
                 the result, write 'Action: final_answer' with the answer as plain text."
            ),
            FormatError::ExampleCopied => "That is copied from the example in the \
                 instructions, not about this question. Work on this question: call a tool with \
                 its own arguments, or answer from this run's Observations."
                .to_string(),
            FormatError::QuestionRepeated => "That only repeats the question; it is not an \
                 answer. Write the answer itself, from the Observations above, as the Action \
                 Input of 'Action: final_answer'."
                .to_string(),
            FormatError::NumberUnused { number } => format!(
                "The question gives {number}, and nothing so far has used it: this answer skips \
                 a step. First do the step with {number} with a tool, then answer."
            ),
        }
    }
}

impl fmt::Display for FormatError {
    /// A short sentence for a person, e.g. in the trace.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Empty => f.write_str("empty reply"),
            FormatError::NoAction => f.write_str("no Action or Final Answer found"),
            FormatError::ThoughtOnly => f.write_str("only a Thought, no Action or Final Answer"),
            FormatError::NoTool => {
                f.write_str("the model says no tool is needed but gave no answer")
            }
            FormatError::MissingToolName => f.write_str("Action without a tool name"),
            FormatError::InputWithoutAction => f.write_str("Action Input without an Action"),
            FormatError::MixedActionAndAnswer => {
                f.write_str("one line holds both an Action and a Final Answer")
            }
            FormatError::EmptyAnswer => f.write_str("empty Final Answer"),
            FormatError::XmlToolCall => f.write_str("XML tool call instead of Action/Action Input"),
            FormatError::InvalidJson {
                line,
                column,
                message,
            } => {
                write!(f, "invalid JSON at line {line}, column {column}: {message}")
            }
            FormatError::ArgumentsAsAnswer { tool } => {
                write!(
                    f,
                    "final_answer given {tool}'s arguments instead of an answer"
                )
            }
            FormatError::ExampleCopied => f.write_str("copied from the example in the prompt"),
            FormatError::QuestionRepeated => f.write_str("the answer only repeats the question"),
            FormatError::NumberUnused { number } => {
                write!(f, "the answer leaves out the question's {number}")
            }
        }
    }
}

/// One repair or tolerated deviation, so a learner can see why a messy reply still worked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Repair {
    FullWidthColon,
    MarkdownLabel,
    NumberedLabel,
    AnswerLabel,
    InlineFinalAnswer,
    CodeFenceRemoved,
    JsonExtractedFromProse,
    JsonObjectForm,
    WrapperUnwrapped,
    PaperForm,
    CallForm,
    InputWithoutLabel,
    ToolNameUnquoted,
    SingleQuotes,
    TrailingComma,
    CommentRemoved,
    PythonLiterals,
    RawControlInString,
    InvalidEscape,
    UnquotedKey,
    StringJsonDecoded,
    AnswerUnwrapped,
    TrailingTextIgnored,
    HallucinatedObservationDropped,
    PartialObservationDropped,
    FinalAnswerIgnored,
    ExtraActionIgnored,
    ActionAfterFinalIgnored,
    NoToolActionIgnored,
    /// Set by the agent: final_answer held the arguments of a call made earlier.
    AnswerFromEarlierCall,
    /// Set by the agent: final_answer held a tool's arguments that no Observation had shown,
    /// so that call was run.
    ArgumentsRunAsCall,
    /// Set by the agent: final_answer was an arithmetic expression, not its value, and the
    /// calculator was run on it.
    ExpressionRunAsCall,
    /// Set by the agent: final_answer was an arithmetic expression at the last step the limit
    /// allows, and its value is the answer.
    ExpressionEvaluated,
    /// Set by the agent: the request asked only for the answer, and the reply was plain
    /// sentences without the format.
    ProseAsAnswer,
    /// Set by the agent: the answer opened with a label it copied (`The answer is
    /// "Observation: …`), which was taken out with its quotes.
    CopiedLabelRemoved,
    /// An `Action Input:` alone, read as the input of the previous reply's empty
    /// `Action: final_answer`.
    InputCompletesFinalAnswer,
    /// A label in the prompt's other language (思考, 行动, 行动输入, 最终答案, 观察).
    TranslatedLabel,
    /// A label right after a sentence, or `Action Input:` after the tool on the Action line.
    InlineLabel,
    /// A line that is only `tool[arg]` or `finish(…)`, without `Action:`.
    BareActionLine,
    /// An `Action: final_answer` with no answer, or an `Action Input:` with no Action, followed
    /// by a complete action.
    IncompleteActionSkipped,
    /// Words around the tool name dropped: a trailing period, a remark after a one-word name,
    /// the phrase around a name in backticks.
    ToolNameTrimmed,
    /// Full-width quotes, colons or commas used as JSON punctuation.
    FullWidthPunctuation,
    /// Closing brackets missing at the end of the reply, after a complete value.
    UnclosedJson,
    /// A double quote that opens the input and is never closed.
    UnbalancedQuote,
    /// The last string's closing quote missing before the closing brackets
    /// (`{"expression": "sqrt(2)}`).
    UnclosedString,
    /// A `<think>…</think>` block before the reply.
    ReasoningSkipped,
}

impl Repair {
    pub fn describe(&self) -> &'static str {
        match self {
            Repair::FullWidthColon => "full-width colon ： read as :",
            Repair::MarkdownLabel => "markdown around a label ignored (e.g. **Action:**)",
            Repair::NumberedLabel => "numbered label (e.g. Thought 1:) read without its number",
            Repair::AnswerLabel => "'Answer:' read as 'Final Answer:'",
            Repair::InlineFinalAnswer => "'Final Answer:' found in the middle of a line",
            Repair::CodeFenceRemoved => "code fence removed",
            Repair::JsonExtractedFromProse => "JSON extracted from prose",
            Repair::JsonObjectForm => "action read from a JSON object",
            Repair::WrapperUnwrapped => "outer wrapper object (e.g. tool_call) unwrapped",
            Repair::PaperForm => "paper form tool[arg]",
            Repair::CallForm => "call form tool(args)",
            Repair::InputWithoutLabel => {
                "input read from the lines after the Action (no 'Action Input:')"
            }
            Repair::ToolNameUnquoted => "quotes or backticks around the tool name removed",
            Repair::SingleQuotes => "single quotes → double",
            Repair::TrailingComma => "trailing comma removed",
            Repair::CommentRemoved => "comment removed from JSON",
            Repair::PythonLiterals => "Python True/False/None → true/false/null",
            Repair::RawControlInString => "raw newline or tab inside a JSON string accepted",
            Repair::InvalidEscape => "invalid escape in a JSON string kept as text",
            Repair::UnquotedKey => "unquoted JSON key accepted",
            Repair::StringJsonDecoded => "JSON written inside a string decoded",
            Repair::AnswerUnwrapped => "{\"answer\": …} unwrapped to its text",
            Repair::TrailingTextIgnored => "text after the JSON input ignored",
            Repair::HallucinatedObservationDropped => "hallucinated Observation dropped",
            Repair::PartialObservationDropped => "cut-off stop word (e.g. 'Obs') dropped",
            Repair::FinalAnswerIgnored => "final answer after the action ignored",
            Repair::ExtraActionIgnored => "later actions ignored (only the first counts)",
            Repair::ActionAfterFinalIgnored => "action after the final answer ignored",
            Repair::InputCompletesFinalAnswer => {
                "'Action Input:' alone read as the answer to the last reply's 'Action: final_answer'"
            }
            Repair::ArgumentsRunAsCall => {
                "final_answer held a tool's arguments that no Observation had shown: that call was run"
            }
            Repair::ExpressionRunAsCall => {
                "final_answer was an expression, not its value: the calculator was run on it"
            }
            Repair::ExpressionEvaluated => {
                "final_answer was an expression at the last step: its value is the answer"
            }
            Repair::CopiedLabelRemoved => {
                "the answer opened with a copied label ('Observation:'): the label was taken out"
            }
            Repair::AnswerFromEarlierCall => {
                "final_answer repeated an earlier call's arguments: that call's result is the answer"
            }
            Repair::ProseAsAnswer => {
                "only the answer was asked for, and the reply gave it without the format: its text is the answer"
            }
            Repair::NoToolActionIgnored => {
                "'Action: None' ignored; the Final Answer after it is used"
            }
            Repair::TranslatedLabel => "Chinese label read as its English keyword (思考 → Thought)",
            Repair::InlineLabel => "label found after a sentence, in the middle of a line",
            Repair::BareActionLine => "a line with only tool[arg] or finish(…) read as the Action",
            Repair::IncompleteActionSkipped => {
                "an incomplete step ('Action: final_answer' without an answer, or 'Action Input:' \
                 without an Action) skipped; the complete action after it is used"
            }
            Repair::ToolNameTrimmed => "words around the tool name dropped",
            Repair::FullWidthPunctuation => "full-width quotes, colons or commas in JSON read as ASCII",
            Repair::UnclosedJson => "missing closing brackets at the end of the JSON added",
            Repair::UnbalancedQuote => "opening quote that is never closed dropped",
            Repair::UnclosedString => "missing closing quote before the closing bracket added",
            Repair::ReasoningSkipped => "<think>…</think> reasoning read as thought, not as protocol",
        }
    }
}

// Read back by hand in `crate::deser`: a new field goes there too.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Spans {
    pub thought: Option<Span>,
    pub action: Option<Span>,
    pub input: Option<Span>,
    pub answer: Option<Span>,
}

// Read back by hand in `crate::deser`: a new field or variant goes there too.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParseResult {
    #[serde(flatten)]
    pub parsed: Parsed,
    pub thought: Option<String>,
    pub spans: Spans,
    pub repairs: Vec<Repair>,
}

/// Cuts a self-written "Observation:" (any case, full-width colon) and everything after it.
/// Returns the kept prefix and whether something was cut. The agent uses this too.
///
/// Only an Observation after an `Action:`/`Final Answer:` counts as self-written (one before
/// is an echo of the previous step); a last line that is a cut-off "Obs…" is dropped as well.
pub fn cut_observation(text: &str) -> (&str, bool) {
    let s = scan::scan(text);
    match s.cut {
        Some(_) => (text[..s.end].trim_end(), true),
        None => (text, false),
    }
}

via_value! {
    ParseResult => parse_result,
    Spans => spans,
    Span => span,
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

/// A parse: the flattened `kind` with its fields (read first, as the derive did), then the
/// thought, spans and repairs.
fn parse_result(value: Value) -> Result<ParseResult, Error> {
    let mut f = Fields::object(value)?;
    let mut own = Fields(Default::default());
    for key in ["thought", "spans", "repairs"] {
        if let Some(value) = f.0.remove(key) {
            own.0.insert(key.to_string(), value);
        }
    }
    Ok(ParseResult {
        parsed: Parsed::read(Value::Object(f.0))?,
        thought: own.opt("thought")?,
        spans: own.get("spans")?,
        repairs: own.get("repairs")?,
    })
}
