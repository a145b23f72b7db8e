//! What the model is told, in the run's language: the feedback on a reply it cannot use, the
//! Observation of a call that could not run or failed, the notes the agent and the history
//! add to an Observation or the question, and the built-in tools' descriptions.
//!
//! Each function is one match on what happened, and each arm gives the English and the
//! Chinese side by side with `say!`, which formats only the run's language. The prompt's own
//! templates are in [`crate::prompt`]; the sentences a person reads are in `sentences`. The
//! tool errors' `Display` is here too: the English of the message the model is told.
//! Everything here goes to the model as it is: the golden tests hold it byte for byte.

pub mod asks;
mod errors;
mod format;
mod tool;

pub use errors::{calc_message, dispatch_message, tool_message};
pub use format::format_error;
pub use tool::{dispatch_error, tool_description, tool_error};

mod template;

pub(crate) use template::say;
pub use template::{fill, found_in, placeholders, Template, Templates, Voice, MIN_PIECE};

/// Every template as a page lists it: its name, English, Chinese and placeholders.
pub fn for_page() -> serde_json::Value {
    all()
        .map(|t| {
            serde_json::json!({
                "name": t.name, "en": t.en, "zh": t.zh, "placeholders": t.placeholders(),
            })
        })
        .collect()
}

/// Every template, one after another.
pub fn all() -> impl Iterator<Item = &'static Template> {
    ALL.iter().flat_map(|group| group.iter().copied())
}

/// Every template, by what it is for: the format feedback, why a call could not run or a tool
/// failed and what to do about it, the notes after an Observation, the history's notes.
pub const ALL: &[&[&Template]] = &[
    format::TEMPLATES,
    errors::TEMPLATES,
    tool::TEMPLATES,
    TEMPLATES,
    asks::TEMPLATES,
    asks::OPENINGS,
];

/// A call made again with the same arguments: the earlier Observation and a note. A failed call
/// is not something to answer with (that invitation got error messages sent as answers), and
/// when the next request asks for the answer anyway (`will_ask`), the note only says what
/// happened.
pub fn repeated_call(
    earlier: &str,
    tool: &str,
    succeeded: bool,
    will_ask: bool,
    to: Voice<'_>,
) -> String {
    match (succeeded, will_ask) {
        (false, true) => say!(to, REPEATED_FAILED_ASKED, earlier),
        (false, false) => say!(to, REPEATED_FAILED, earlier, tool),
        (true, false) => say!(to, REPEATED_SAME_RESULT, earlier, tool),
        (true, true) => say!(to, REPEATED_SAME_RESULT_ASKED, earlier),
    }
}

/// After a tool failed, the other tools, each already written as "name (description)".
pub fn other_tools(others: &[String], to: Voice<'_>) -> String {
    match others {
        [] => say!(to, OTHER_TOOLS_NONE),
        others => {
            let list = others.join("; ");
            // The Chinese list ends with the same full stop as the English one.
            say!(to, OTHER_TOOLS_LIST, list)
        }
    }
}

/// The feedback once the model repeats its reply or its mistake (`stuck` times in a row, at
/// least once): only the three lines to write, and from the second time on, that the task
/// fails without them. `names` lists the tools, comma-separated.
pub fn stuck(feedback: &str, names: &str, stuck: usize, to: Voice<'_>) -> String {
    let lines = say!(to, STUCK_LINES, names);
    match stuck {
        1 => say!(to, STUCK_ONCE, feedback, lines),
        _ => say!(to, STUCK_AGAIN, lines),
    }
}

/// The note after a calculator result when the question has no numbers: the 0.5B model, made
/// to act first, computed `1 + 1` for "What is the capital of China?" and answered 2. With
/// the tool the question's words point to instead, when there is one.
/// When another tool found something (`found`) and none is left to call, the answer is to
/// come from what it found.
pub fn unrelated_calculation(next: Option<&str>, found: Option<&str>, to: Voice<'_>) -> String {
    match (next, found) {
        (Some(tool), _) => say!(to, NOTE_UNRELATED_NEXT, tool),
        (None, Some(tool)) => say!(to, NOTE_UNRELATED_FOUND, tool),
        (None, None) => say!(to, NOTE_UNRELATED),
    }
}

/// The note after a tool's result when the question's evidence names another tool to call:
/// the 1.5B model found a quota and answered with it instead of converting it, and the 0.5B
/// model answered a "how old" question with the year it was given.
pub fn next_tool(tool: &str, computes: bool, to: Voice<'_>) -> String {
    if computes {
        say!(to, NOTE_COMPUTE_NEXT, tool)
    } else {
        say!(to, NOTE_TOOL_NEXT, tool)
    }
}

/// A calculation not run: it applies `tail` again to `result`, which already had it applied.
pub fn applied_again(result: &str, tail: &str, to: Voice<'_>) -> String {
    say!(to, NOTE_APPLIED_AGAIN, tail, result)
}

/// After a calculator call that was a number alone: the 0.5B model, steered to compute after
/// a search, sent the year it found ("2024") and forgot the multiplication.
pub fn bare_number(to: Voice<'_>) -> String {
    say!(to, NOTE_BARE_NUMBER)
}

/// The Observation of a tool that returned nothing (a page's function that returned
/// `undefined`, or an empty string): said, so the model does not read an empty line.
pub fn empty_result(to: Voice<'_>) -> String {
    say!(to, NOTE_EMPTY_RESULT)
}

/// After the question, once a trim has dropped the first `omitted` steps.
pub fn steps_omitted(omitted: usize, to: Voice<'_>) -> String {
    say!(to, HISTORY_STEPS_OMITTED, omitted)
}

/// At the end of an Observation, when the layout restates the question.
pub fn question_reminder(question: &str, to: Voice<'_>) -> String {
    let question = question.trim();
    say!(to, HISTORY_QUESTION_REMINDER, question)
}

pub(super) const TEMPLATES: &[&Template] = &[
    &REPEATED_FAILED_ASKED,
    &REPEATED_FAILED,
    &REPEATED_SAME_RESULT,
    &REPEATED_SAME_RESULT_ASKED,
    &OTHER_TOOLS_NONE,
    &OTHER_TOOLS_LIST,
    &STUCK_LINES,
    &STUCK_ONCE,
    &STUCK_AGAIN,
    &NOTE_UNRELATED_NEXT,
    &NOTE_UNRELATED_FOUND,
    &NOTE_UNRELATED,
    &NOTE_COMPUTE_NEXT,
    &NOTE_TOOL_NEXT,
    &NOTE_APPLIED_AGAIN,
    &NOTE_BARE_NUMBER,
    &NOTE_EMPTY_RESULT,
    &HISTORY_STEPS_OMITTED,
    &HISTORY_QUESTION_REMINDER,
];

const REPEATED_FAILED_ASKED: Template = Template {
    name: "repeated.failed_asked",
    en: "{earlier}\n(The same call again, and it failed the same way.)",
    zh: "{earlier}\n（同样的调用，同样失败了。）",
};
const REPEATED_FAILED: Template = Template {
    name: "repeated.failed",
    en: "{earlier}\n(You already called {tool} with these arguments, and it failed the \
             same way. Change the arguments, or use another tool.)",
    zh: "{earlier}\n（你已经用相同的参数调用过 {tool}，它同样失败了。请修改参数，或者换用别的工具。）",
};
const REPEATED_SAME_RESULT: Template = Template {
    name: "repeated.same_result",
    en: "{earlier}\n(You already called {tool} with these arguments; this is the same \
             result. Use it to give the final answer with Action: final_answer, or try \
             something different.)",
    zh: "{earlier}\n（你已经用相同的参数调用过 {tool}，这是同样的结果。请用它通过 \
             Action: final_answer 给出最终答案，或者换一种做法。）",
};
const REPEATED_SAME_RESULT_ASKED: Template = Template {
    name: "repeated.same_result_asked",
    en: "{earlier}\n(The same call again, the same result.)",
    zh: "{earlier}\n（同样的调用，同样的结果。）",
};
const OTHER_TOOLS_NONE: Template = Template {
    name: "other_tools.none",
    en: "No other tools; fix the call or answer with final_answer.",
    zh: "没有其他工具；请修正调用，或用 final_answer 作答。",
};
const OTHER_TOOLS_LIST: Template = Template {
    name: "other_tools.list",
    en: "Other tools: {list}.",
    zh: "其他工具：{list}.",
};
const STUCK_LINES: Template = Template {
    name: "stuck.lines",
    en: "Thought: <one sentence>\nAction: <one of: {names}, final_answer>\nAction \
         Input: <JSON arguments; for final_answer, the answer>",
    zh: "Thought: <一句话>\nAction: <以下之一：{names}, final_answer>\nAction Input: \
         <JSON 参数；若为 final_answer，则写答案>",
};
const STUCK_ONCE: Template = Template {
    name: "stuck.once",
    en: "{feedback}\nReply with only these three lines:\n{lines}",
    zh: "{feedback}\n只回复这三行：\n{lines}",
};
const STUCK_AGAIN: Template = Template {
    name: "stuck.again",
    en: "You sent the same reply again. Reply with exactly these three lines, or the task \
             fails:\n{lines}",
    zh: "你又发送了同样的回复。请严格只回复这三行，否则任务失败：\n{lines}",
};
const NOTE_UNRELATED_NEXT: Template = Template {
    name: "note.unrelated_next",
    en: "(The question has no numbers, so this calculation is not about it. Its words \
             point to {tool}: call it next.)",
    zh: "（问题里没有数字，所以这个计算与它无关。问题里的词指向 {tool}：下一步调用它。）",
};
const NOTE_UNRELATED_FOUND: Template = Template {
    name: "note.unrelated_found",
    en: "(The question has no numbers, so this calculation is not about it. Answer with \
             what the {tool} result above says.)",
    zh: "（问题里没有数字，所以这个计算与它无关。请用上面 {tool} 的结果作答。）",
};
const NOTE_UNRELATED: Template = Template {
    name: "note.unrelated",
    en: "(The question has no numbers, so this calculation is not about it. If no tool \
             answers the question, answer it from what you know.)",
    zh: "（问题里没有数字，所以这个计算与它无关。如果没有工具能回答这个问题，\
             就根据你自己的知识回答。）",
};
const NOTE_COMPUTE_NEXT: Template = Template {
    name: "note.compute_next",
    en: "(Next, compute the answer with {tool} from what was found.)",
    zh: "（接下来用 {tool} 根据查到的结果算出答案。）",
};
const NOTE_TOOL_NEXT: Template = Template {
    name: "note.tool_next",
    en: "(The question also needs {tool}: call it next.)",
    zh: "（这个问题还需要 {tool}：下一步调用它。）",
};
const NOTE_APPLIED_AGAIN: Template = Template {
    name: "note.applied_again",
    en: "(Not run: this applies \"{tail}\" again to {result}, which already had it applied. \
         The question asks for it once, so {result} is the result.)",
    zh: "（没有运行：这又对 {result} 做了一次“{tail}”，而 {result} 已经做过这一步。\
         问题只要求做一次，所以结果是 {result}。）",
};
const NOTE_BARE_NUMBER: Template = Template {
    name: "note.bare_number",
    en: "(A number alone computes nothing: write the whole calculation the question asks for, \
         with the numbers from the question and the Observations.)",
    zh: "（只写一个数字什么也没算：请写出问题要求的完整算式，用上问题和 Observation 里的数字。）",
};
const NOTE_EMPTY_RESULT: Template = Template {
    name: "note.empty_result",
    en: "(The tool returned nothing.)",
    zh: "（工具没有返回任何内容。）",
};
const HISTORY_STEPS_OMITTED: Template = Template {
    name: "history.steps_omitted",
    en: "\n(The first {omitted} steps were omitted to save space.)",
    zh: "\n（为节省篇幅，前 {omitted} 步已省略。）",
};
const HISTORY_QUESTION_REMINDER: Template = Template {
    name: "history.question_reminder",
    en: "\n(Reminder, the question is: {question})",
    zh: "\n（提醒：问题是：{question}）",
};
