//! The Observation of an action that could not become a call, or of a tool that failed: the
//! problem, then how to fix the next step.
//!
//! The message is [`super::errors`]'s (in English, also the error's `Display`); the hints
//! are here, each in English and Chinese side by side.

use super::errors::{dispatch_message, tool_message};
use super::say;
use crate::lang::Lang;
use crate::tools::{Builtin, CalcError, DispatchError, ToolError, ToolSpec};
use serde_json::Value;

/// An action the registry could not turn into a call: the problem and the fix.
pub fn dispatch_error(error: &DispatchError, lang: Lang) -> String {
    let message = dispatch_message(error, lang);
    match error {
        DispatchError::UnknownTool {
            available, nearest, ..
        } => {
            let mut out = say!(lang, "Error: {message}. ", "错误：{message}。");
            if available.is_empty() {
                out.push_str(&say!(
                    lang,
                    "No tools are available; answer directly.",
                    "没有可用的工具；请直接作答。"
                ));
                return out;
            }
            let available = available.join(", ");
            out.push_str(&say!(
                lang,
                "Available tools: {available}.",
                "可用的工具：{available}。"
            ));
            if let Some(nearest) = nearest {
                out.push_str(&say!(
                    lang,
                    " Did you mean '{nearest}'?",
                    "你是指 '{nearest}' 吗？"
                ));
            }
            out.push_str(&say!(
                lang,
                " Write the tool name exactly as listed.",
                "请按列出的样子准确写工具名。"
            ));
            out
        }
        DispatchError::MissingArgument { expected, .. }
        | DispatchError::BadArguments { expected, .. } => {
            let expected = compact_json(expected);
            say!(
                lang,
                "Error: {message}. Action Input must be a JSON object like: {expected}",
                "错误：{message}。Action Input 必须是这样的 JSON 对象：{expected}"
            )
        }
    }
}

/// A tool that failed, e.g. "Error: division by zero. Hint: the divisor is 0; …".
pub fn tool_error(error: &ToolError, lang: Lang) -> String {
    let message = tool_message(error, lang);
    // External messages may end in a full stop of their own.
    let stops: &[char] = match lang {
        Lang::En => &['.'],
        Lang::Zh => &['.', '。'],
    };
    let message = message.trim_end().trim_end_matches(stops);
    let hint = tool_hint(error, lang);
    say!(
        lang,
        "Error: {message}. Hint: {hint}",
        "错误：{message}。提示：{hint}"
    )
}

/// What the model should do about a failed tool.
fn tool_hint(error: &ToolError, lang: Lang) -> String {
    match error {
        ToolError::Calculator(calc) => calc_hint(calc, lang),
        ToolError::NoDocuments => say!(
            lang,
            "no documents are loaded; answer from what you know and say so",
            "没有加载文档；请凭已知的知识作答并说明这一点"
        ),
        ToolError::EmptyQuery => say!(
            lang,
            "give a few content words, e.g. {{\"query\": \"context window\"}}",
            "给出几个实义词，例如 {{\"query\": \"上下文窗口\"}}"
        ),
        ToolError::NoMatch { topics, .. } if topics.is_empty() => say!(
            lang,
            "try other or fewer keywords",
            "换用其他或更少的关键词"
        ),
        ToolError::NoMatch { topics, .. } => {
            let topics = topics.join("; ");
            say!(
                lang,
                "try other or fewer keywords, or the other language (English/中文); the \
                 documents include: {topics}; if none is about the question, answer it \
                 from what you know",
                "换用其他或更少的关键词，或换另一种语言（中文/English）；文档包括：{topics}；\
                 如果都与问题无关，就根据你自己的知识回答"
            )
        }
        ToolError::InvalidClock { .. } => say!(
            lang,
            "the time is not available; tell the user you cannot know it",
            "无法得知时间；请告诉用户你无法知道"
        ),
        ToolError::InvalidInput { .. }
        | ToolError::External { .. }
        | ToolError::ScriptThrew { .. }
        | ToolError::ScriptRejected { .. }
        | ToolError::ArgumentsNotPassed { .. } => say!(
            lang,
            "check the Action Input against the tool's parameters and try again",
            "对照工具的参数检查 Action Input，然后重试"
        ),
        ToolError::ScriptTimedOut { .. } | ToolError::NoAnswerWithin { .. } => say!(
            lang,
            "the tool took too long; call it with a smaller request, or answer from what you have",
            "工具用时太长；请用更小的请求调用它，或者根据已有的信息回答"
        ),
        ToolError::NotText { .. } | ToolError::NoImplementation { .. } => say!(
            lang,
            "this is a fault of the tool, not of your step; answer from what you have",
            "这是工具的问题，不是你这一步的问题；请根据已有的信息回答"
        ),
        ToolError::NotBuiltin { .. } => say!(
            lang,
            "this is a bug in the driver, not in your step",
            "这是驱动程序的错误，不是你这一步的问题"
        ),
    }
}

/// What the model should do about a calculator error.
fn calc_hint(error: &CalcError, lang: Lang) -> String {
    match error {
        CalcError::Empty => say!(
            lang,
            "give an arithmetic expression such as 2 * (3 + 4)",
            "给出一个算术表达式，例如 2 * (3 + 4)"
        ),
        CalcError::TooLong { .. } | CalcError::TooDeep { .. } => say!(
            lang,
            "split the calculation into smaller steps",
            "把计算拆成更小的几步"
        ),
        CalcError::UnexpectedChar { .. } => say!(
            lang,
            "use only numbers, + - * / % ^, parentheses, and the known functions; the \
             calculator does not understand words or units",
            "只用数字、+ - * / % ^、括号和已知函数；计算器不懂文字或单位"
        ),
        CalcError::UnexpectedToken { .. } => say!(
            lang,
            "check for a missing operator (write 2 * pi, not 2pi) or a missing number",
            "检查是否缺了运算符（写 2 * pi，不要写 2pi）或缺了数字"
        ),
        CalcError::UnexpectedEnd => say!(
            lang,
            "the expression is incomplete; finish it",
            "表达式不完整，请写完"
        ),
        CalcError::UnclosedParen { .. } | CalcError::UnexpectedCloseParen { .. } => say!(
            lang,
            "make every '(' have a matching ')'",
            "让每个 '(' 都有对应的 ')'"
        ),
        CalcError::UnknownName { .. } => say!(
            lang,
            "write numbers; a value such as today's year comes from another tool first",
            "请写数字；像今年的年份这样的值要先用别的工具得到"
        ),
        CalcError::MissingParens { .. } => say!(
            lang,
            "put the function's argument in parentheses",
            "把函数的参数写在括号里"
        ),
        CalcError::ConstantCalled { .. } => {
            say!(lang, "write the multiplication sign", "写出乘号")
        }
        CalcError::WrongArgCount { .. } => say!(
            lang,
            "give the function the right number of arguments",
            "给函数正确个数的参数"
        ),
        CalcError::DivisionByZero => say!(
            lang,
            "the divisor is 0; check the numbers",
            "除数是 0，请检查数字"
        ),
        CalcError::Overflow => say!(
            lang,
            "the numbers are too large; check the expression",
            "数字太大，请检查表达式"
        ),
        CalcError::InvalidArgument { .. } => say!(
            lang,
            "the function is not defined for that input",
            "函数对这个输入没有定义"
        ),
    }
}

/// A tool as the prompt and the other-tools note describe it: a built-in one in the run's
/// language (its English description is its spec's), another one as registered.
pub fn tool_description(tool: &ToolSpec, lang: Lang) -> &str {
    let spec = tool.description.trim();
    let pick = |english, chinese| match lang {
        Lang::En => english,
        Lang::Zh => chinese,
    };
    match Builtin::of(tool) {
        Some(Builtin::Calculator) => pick(
            spec,
            "计算算术表达式：+ - * / % ^、括号、sqrt、abs、round、min、max、log、pi、e。",
        ),
        Some(Builtin::SearchDocs) => pick(spec, "按关键词（中文或英文）搜索参考文档。"),
        Some(Builtin::CurrentTime) => pick(
            spec,
            "返回今天的日期、时间、星期、月份和年份；给出 days 时，返回从今天起那么多天的日期。",
        ),
        None => spec,
    }
}

/// JSON with a space after `:` and `,`, the way people write it in prompts.
fn compact_json(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), compact_json(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(compact_json).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_json_spacing() {
        let v = serde_json::json!({"a": [1, "x"], "b": {"c": null}});
        assert_eq!(compact_json(&v), r#"{"a": [1, "x"], "b": {"c": null}}"#);
    }
}
