//! What the model is told, in the run's language: the feedback on a reply it cannot use, the
//! Observation of a call that could not run or failed, the notes the agent and the history
//! add to an Observation or the question, and the built-in tools' descriptions.
//!
//! Each function is one match on what happened, and each arm gives the English and the
//! Chinese side by side with `say!`, which formats only the run's language. The prompt's own
//! templates are in [`crate::prompt`]; the sentences a person reads are in `sentences`. The
//! tool errors' `Display` is here too: the English of the message the model is told.
//! Everything here goes to the model as it is: the golden tests hold it byte for byte.

mod errors;
mod format;
mod tool;

pub use errors::{calc_message, dispatch_message, tool_message};
pub use format::format_error;
pub use tool::{dispatch_error, tool_description, tool_error};

use crate::lang::Lang;

/// The text in the run's language: `say!(lang, "English {x}", "中文 {x}")` formats only the
/// chosen one (both are `format!` strings, so a literal brace is written `{{`).
macro_rules! say {
    ($lang:expr, $en:literal, $zh:literal $(,)?) => {
        match $lang {
            $crate::lang::Lang::En => format!($en),
            $crate::lang::Lang::Zh => format!($zh),
        }
    };
}
pub(crate) use say;

/// A call made again with the same arguments: the earlier Observation and a note. A failed call
/// is not something to answer with (that invitation got error messages sent as answers), and
/// when the next request asks for the answer anyway (`will_ask`), the note only says what
/// happened.
pub fn repeated_call(
    earlier: &str,
    tool: &str,
    succeeded: bool,
    will_ask: bool,
    lang: Lang,
) -> String {
    match (succeeded, will_ask) {
        (false, true) => say!(
            lang,
            "{earlier}\n(The same call again, and it failed the same way.)",
            "{earlier}\n（同样的调用，同样失败了。）"
        ),
        (false, false) => say!(
            lang,
            "{earlier}\n(You already called {tool} with these arguments, and it failed the \
             same way. Change the arguments, or use another tool.)",
            "{earlier}\n（你已经用相同的参数调用过 {tool}，它同样失败了。请修改参数，或者换用别的工具。）"
        ),
        (true, false) => say!(
            lang,
            "{earlier}\n(You already called {tool} with these arguments; this is the same \
             result. Use it to give the final answer with Action: final_answer, or try \
             something different.)",
            "{earlier}\n（你已经用相同的参数调用过 {tool}，这是同样的结果。请用它通过 \
             Action: final_answer 给出最终答案，或者换一种做法。）"
        ),
        (true, true) => say!(
            lang,
            "{earlier}\n(The same call again, the same result.)",
            "{earlier}\n（同样的调用，同样的结果。）"
        ),
    }
}

/// After a tool failed, the other tools, each already written as "name (description)".
pub fn other_tools(others: &[String], lang: Lang) -> String {
    match others {
        [] => say!(
            lang,
            "No other tools; fix the call or answer with final_answer.",
            "没有其他工具；请修正调用，或用 final_answer 作答。"
        ),
        others => {
            let list = others.join("; ");
            // The Chinese list ends with the same full stop as the English one.
            say!(lang, "Other tools: {list}.", "其他工具：{list}.")
        }
    }
}

/// The feedback once the model repeats its reply or its mistake (`stuck` times in a row, at
/// least once): only the three lines to write, and from the second time on, that the task
/// fails without them. `names` lists the tools, comma-separated.
pub fn stuck(feedback: &str, names: &str, stuck: usize, lang: Lang) -> String {
    let lines = say!(
        lang,
        "Thought: <one sentence>\nAction: <one of: {names}, final_answer>\nAction \
         Input: <JSON arguments; for final_answer, the answer>",
        "Thought: <一句话>\nAction: <以下之一：{names}, final_answer>\nAction Input: \
         <JSON 参数；若为 final_answer，则写答案>"
    );
    match stuck {
        1 => say!(
            lang,
            "{feedback}\nReply with only these three lines:\n{lines}",
            "{feedback}\n只回复这三行：\n{lines}"
        ),
        _ => say!(
            lang,
            "You sent the same reply again. Reply with exactly these three lines, or the task \
             fails:\n{lines}",
            "你又发送了同样的回复。请严格只回复这三行，否则任务失败：\n{lines}"
        ),
    }
}

/// The note after a calculator result when the question has no numbers: the 0.5B model, made
/// to act first, computed `1 + 1` for "What is the capital of China?" and answered 2. With
/// the tool the question's words point to instead, when there is one.
/// When another tool found something (`found`) and none is left to call, the answer is to
/// come from what it found.
pub fn unrelated_calculation(next: Option<&str>, found: Option<&str>, lang: Lang) -> String {
    match (next, found) {
        (Some(tool), _) => say!(
            lang,
            "(The question has no numbers, so this calculation is not about it. Its words \
             point to {tool}: call it next.)",
            "（问题里没有数字，所以这个计算与它无关。问题里的词指向 {tool}：下一步调用它。）"
        ),
        (None, Some(tool)) => say!(
            lang,
            "(The question has no numbers, so this calculation is not about it. Answer with \
             what the {tool} result above says.)",
            "（问题里没有数字，所以这个计算与它无关。请用上面 {tool} 的结果作答。）"
        ),
        (None, None) => say!(
            lang,
            "(The question has no numbers, so this calculation is not about it. If no tool \
             answers the question, answer it from what you know.)",
            "（问题里没有数字，所以这个计算与它无关。如果没有工具能回答这个问题，\
             就根据你自己的知识回答。）"
        ),
    }
}

/// The note after a tool's result when the question's evidence names another tool to call:
/// the 1.5B model found a quota and answered with it instead of converting it, and the 0.5B
/// model answered a "how old" question with the year it was given.
pub fn next_tool(tool: &str, computes: bool, lang: Lang) -> String {
    if computes {
        say!(
            lang,
            "(Next, compute the answer with {tool} from what was found.)",
            "（接下来用 {tool} 根据查到的结果算出答案。）"
        )
    } else {
        say!(
            lang,
            "(The question also needs {tool}: call it next.)",
            "（这个问题还需要 {tool}：下一步调用它。）"
        )
    }
}

/// A calculation not run: it applies `tail` again to `result`, which already had it applied.
pub fn applied_again(result: &str, tail: &str, lang: Lang) -> String {
    say!(
        lang,
        "(Not run: this applies \"{tail}\" again to {result}, which already had it applied. \
         The question asks for it once, so {result} is the result.)",
        "（没有运行：这又对 {result} 做了一次“{tail}”，而 {result} 已经做过这一步。\
         问题只要求做一次，所以结果是 {result}。）"
    )
}

/// After a calculator call that was a number alone: the 0.5B model, steered to compute after
/// a search, sent the year it found ("2024") and forgot the multiplication.
pub fn bare_number(lang: Lang) -> String {
    say!(
        lang,
        "(A number alone computes nothing: write the whole calculation the question asks for, \
         with the numbers from the question and the Observations.)",
        "（只写一个数字什么也没算：请写出问题要求的完整算式，用上问题和 Observation 里的数字。）"
    )
}

/// The Observation of a tool that returned nothing (a page's function that returned
/// `undefined`, or an empty string): said, so the model does not read an empty line.
pub fn empty_result(lang: Lang) -> String {
    say!(
        lang,
        "(The tool returned nothing.)",
        "（工具没有返回任何内容。）"
    )
}

/// After the question, once a trim has dropped the first `omitted` steps.
pub fn steps_omitted(omitted: usize, lang: Lang) -> String {
    say!(
        lang,
        "\n(The first {omitted} steps were omitted to save space.)",
        "\n（为节省篇幅，前 {omitted} 步已省略。）"
    )
}

/// At the end of an Observation, when the layout restates the question.
pub fn question_reminder(question: &str, lang: Lang) -> String {
    let question = question.trim();
    say!(
        lang,
        "\n(Reminder, the question is: {question})",
        "\n（提醒：问题是：{question}）"
    )
}
