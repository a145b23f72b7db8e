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
use crate::fields::{units, via_value, Fields};
use serde::Serialize;
use serde_json::{Error, Value};

pub use json::parse_json_lenient;
pub use reply::{parse_reply, parse_reply_after_final_answer};

/// Byte offsets into the raw reply; always on char boundaries.
// Read back by hand below (a struct literal, so a new field needs its line there).
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
    /// Why a reply could not be used; [`crate::told::format_error`] is what the model is told.
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
        /// A final answer that is an amount alone ("24.50 EUR") for a question that asks yes or
        /// no ("订单3310送到了吗？"), after a tool ran. Reported by the agent, once a run.
        YesNoAsked = "yes_no_asked",
        /// A final answer after a tool ran, while a number the question gives was used by no call,
        /// no Observation and not the answer: a step of the question was left out ("10 days from
        /// today" answered with today's date). Reported by the agent, once a run.
        NumberUnused { number: String } = "number_unused",
        /// A final answer right after a calculation, whose numbers are none of the results the
        /// tools gave, not even rounded: the 0.5B model read 25 and answered 5, read 10 and
        /// answered 2 (the base it had sent). Reported by the agent, once a run.
        ResultMissed { result: String } = "result_missed",
        /// A final answer that is words the loop wrote to the model (a note after a result,
        /// feedback), not found by a tool or worked out: the 1.5B model answered "The answer is
        /// to come from the search_docs result above.", a note's own words. Reported by the agent.
        NoteCopied = "note_copied",
        /// A final answer that is only a word of the format ("The answer is Observation."): the
        /// 0.5B model, told the Observation held its answer, named the Observation.
        LabelAsAnswer { label: String } = "label_as_answer",
        /// A call of a tool other than the one its own Thought chose, while that tool has not
        /// run yet: "To answer this, I need stock_price information for ACME." then `Action:
        /// search_docs`. The 0.5B model searched the documents for the tool's name.
        /// Reported by the agent.
        ActionNotThought { chosen: String, action: String } = "action_not_thought",
        /// A final answer after a tool was called for one name the question gives, while
        /// another name it gives was in no call, no Observation and not the answer: "How many
        /// more people live in Norway than in Iceland?" answered with Norway's figure. The
        /// same tool is steered to, with `param` set to `name`. Reported by the agent, once a
        /// run.
        NameUnused { name: String, tool: String, param: String } = "name_unused",
    }
}

impl FormatError {
    /// serde_json's words for a text that ends inside a value, after many columns: a long
    /// argument that ran into the token limit, which the model repeats unless told it was
    /// too long.
    pub fn cut_off(&self) -> bool {
        matches!(self, FormatError::InvalidJson { column, message, .. }
            if message.starts_with("EOF while parsing") && *column > 80)
    }
}

// Its sentence for a person (`Display`) is in `crate::sentences`, in both languages.

units! {
    /// One repair or tolerated deviation, so a learner can see why a messy reply still worked.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
        /// Set by the agent: a value a parameter lists, cut short (`m` for "miles", where `mi` is
        /// listed), was completed to the value the question names; or written in other words
        /// (`RMB`, where `CNY` is listed) was given as the listed one.
        ListedValueCompleted,
        /// Set by the agent: two parameters that list the same values (`from`, `to`) were given
        /// one and the same, and get the two the question names, in its order (`C` and `C` for
        /// "100 华氏度换算成摄氏度": `F`, then `C`).
        ListedPairOrdered,
        /// Set by the agent: a parameter that takes a place was given one the question does not
        /// name (中国 for "冰岛的人口"), or one already looked up while the question names another,
        /// or the question's place in Chinese for a tool declared in English: it gets the
        /// question's place not looked up yet, as the tool writes places.
        PlaceNamed,
        /// Set by the agent: the answer only named what the question names, again after it was
        /// sent back for that (or at the last step): the last result a tool found is the answer.
        ResultAsAnswer,
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
}

// Read back by hand below (a struct literal, so a new field needs its line there).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Spans {
    pub thought: Option<Span>,
    pub action: Option<Span>,
    pub input: Option<Span>,
    pub answer: Option<Span>,
}

// Read back by hand below (a struct literal, so a new field needs its line there).
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
