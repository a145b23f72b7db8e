//! The Observation of an action that could not become a call, or of a tool that failed: the
//! problem, then how to fix the next step.
//!
//! The message is [`super::errors`]'s (in English, also the error's `Display`); the hints
//! are here, each in English and Chinese side by side.

use super::errors::{dispatch_message, tool_message};
use super::{say, Template, Voice};
use crate::lang::Lang;
use crate::tools::{Builtin, CalcError, DispatchError, ToolError, ToolSpec};
use serde_json::Value;

/// An action the registry could not turn into a call: the problem and the fix.
pub fn dispatch_error(error: &DispatchError, to: Voice<'_>) -> String {
    let message = dispatch_message(error, to);
    match error {
        DispatchError::UnknownTool {
            available, nearest, ..
        } => {
            let mut out = say!(to, DISPATCH_FIX_UNKNOWN_TOOL, message);
            if available.is_empty() {
                out.push_str(&say!(to, DISPATCH_FIX_NO_TOOLS));
                return out;
            }
            let available = available.join(", ");
            out.push_str(&say!(to, DISPATCH_FIX_AVAILABLE, available));
            if let Some(nearest) = nearest {
                out.push_str(&say!(to, DISPATCH_FIX_NEAREST, nearest));
            }
            out.push_str(&say!(to, DISPATCH_FIX_END));
            out
        }
        DispatchError::MissingArgument { expected, .. }
        | DispatchError::BadArguments { expected, .. } => {
            let expected = compact_json(expected);
            say!(to, DISPATCH_FIX_ARGUMENTS, message, expected)
        }
    }
}

/// A tool that failed, e.g. "Error: division by zero. Hint: the divisor is 0; …".
pub fn tool_error(error: &ToolError, to: Voice<'_>) -> String {
    let message = tool_message(error, to);
    // External messages may end in a full stop of their own.
    let stops: &[char] = match to.lang {
        Lang::En => &['.'],
        Lang::Zh => &['.', '。'],
    };
    let message = message.trim_end().trim_end_matches(stops);
    let hint = tool_hint(error, to);
    say!(to, TOOL_FIX_ERROR, message, hint)
}

/// What the model should do about a failed tool.
fn tool_hint(error: &ToolError, to: Voice<'_>) -> String {
    match error {
        ToolError::Calculator(calc) => calc_hint(calc, to),
        ToolError::NoDocuments => say!(to, TOOL_FIX_NO_DOCUMENTS),
        ToolError::EmptyQuery => say!(to, TOOL_FIX_EMPTY_QUERY),
        ToolError::NoMatch { topics, .. } if topics.is_empty() => say!(to, TOOL_FIX_NO_MATCH),
        ToolError::NoMatch { topics, .. } => {
            let topics = topics.join("; ");
            say!(to, TOOL_FIX_NO_MATCH_TOPICS, topics)
        }
        ToolError::InvalidClock { .. } => say!(to, TOOL_FIX_INVALID_CLOCK),
        ToolError::InvalidInput { .. }
        | ToolError::External { .. }
        | ToolError::ScriptThrew { .. }
        | ToolError::ScriptRejected { .. }
        | ToolError::ArgumentsNotPassed { .. } => say!(to, TOOL_FIX_ARGUMENTS_NOT_PASSED),
        ToolError::ScriptTimedOut { .. } | ToolError::NoAnswerWithin { .. } => {
            say!(to, TOOL_FIX_NO_ANSWER_WITHIN)
        }
        ToolError::NotText { .. } | ToolError::NoImplementation { .. } => {
            say!(to, TOOL_FIX_NO_IMPLEMENTATION)
        }
        ToolError::NotBuiltin { .. } => say!(to, TOOL_FIX_NOT_BUILTIN),
    }
}

/// What the model should do about a calculator error.
fn calc_hint(error: &CalcError, to: Voice<'_>) -> String {
    match error {
        CalcError::Empty => say!(to, CALC_FIX_EMPTY),
        CalcError::TooLong { .. } | CalcError::TooDeep { .. } => say!(to, CALC_FIX_TOO_DEEP),
        CalcError::UnexpectedChar { .. } => say!(to, CALC_FIX_UNEXPECTED_CHAR),
        CalcError::UnexpectedToken { .. } => say!(to, CALC_FIX_UNEXPECTED_TOKEN),
        CalcError::UnexpectedEnd => say!(to, CALC_FIX_UNEXPECTED_END),
        CalcError::UnclosedParen { .. } | CalcError::UnexpectedCloseParen { .. } => {
            say!(to, CALC_FIX_UNEXPECTED_CLOSE_PAREN)
        }
        CalcError::UnknownName { .. } => say!(to, CALC_FIX_UNKNOWN_NAME),
        CalcError::MissingParens { .. } => say!(to, CALC_FIX_MISSING_PARENS),
        CalcError::ConstantCalled { .. } => {
            say!(to, CALC_FIX_CONSTANT_CALLED)
        }
        CalcError::WrongArgCount { .. } => say!(to, CALC_FIX_WRONG_ARG_COUNT),
        CalcError::DivisionByZero => say!(to, CALC_FIX_DIVISION_BY_ZERO),
        CalcError::Overflow => say!(to, CALC_FIX_OVERFLOW),
        CalcError::InvalidArgument { .. } => say!(to, CALC_FIX_INVALID_ARGUMENT),
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
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        crate::fields::json_text(&Value::String(k.clone())),
                        compact_json(v)
                    )
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(compact_json).collect();
            format!("[{}]", items.join(", "))
        }
        other => crate::fields::json_text(other),
    }
}

pub(super) const TEMPLATES: &[&Template] = &[
    &DISPATCH_FIX_UNKNOWN_TOOL,
    &DISPATCH_FIX_NO_TOOLS,
    &DISPATCH_FIX_AVAILABLE,
    &DISPATCH_FIX_NEAREST,
    &DISPATCH_FIX_END,
    &DISPATCH_FIX_ARGUMENTS,
    &TOOL_FIX_ERROR,
    &TOOL_FIX_NO_DOCUMENTS,
    &TOOL_FIX_EMPTY_QUERY,
    &TOOL_FIX_NO_MATCH,
    &TOOL_FIX_NO_MATCH_TOPICS,
    &TOOL_FIX_INVALID_CLOCK,
    &TOOL_FIX_ARGUMENTS_NOT_PASSED,
    &TOOL_FIX_NO_ANSWER_WITHIN,
    &TOOL_FIX_NO_IMPLEMENTATION,
    &TOOL_FIX_NOT_BUILTIN,
    &CALC_FIX_EMPTY,
    &CALC_FIX_TOO_DEEP,
    &CALC_FIX_UNEXPECTED_CHAR,
    &CALC_FIX_UNEXPECTED_TOKEN,
    &CALC_FIX_UNEXPECTED_END,
    &CALC_FIX_UNEXPECTED_CLOSE_PAREN,
    &CALC_FIX_UNKNOWN_NAME,
    &CALC_FIX_MISSING_PARENS,
    &CALC_FIX_CONSTANT_CALLED,
    &CALC_FIX_WRONG_ARG_COUNT,
    &CALC_FIX_DIVISION_BY_ZERO,
    &CALC_FIX_OVERFLOW,
    &CALC_FIX_INVALID_ARGUMENT,
];

const DISPATCH_FIX_UNKNOWN_TOOL: Template = Template {
    name: "dispatch_fix.unknown_tool",
    en: "Error: {message}. ",
    zh: "错误：{message}。",
};
const DISPATCH_FIX_NO_TOOLS: Template = Template {
    name: "dispatch_fix.no_tools",
    en: "No tools are available; answer directly.",
    zh: "没有可用的工具；请直接作答。",
};
const DISPATCH_FIX_AVAILABLE: Template = Template {
    name: "dispatch_fix.available",
    en: "Available tools: {available}.",
    zh: "可用的工具：{available}。",
};
const DISPATCH_FIX_NEAREST: Template = Template {
    name: "dispatch_fix.nearest",
    en: " Did you mean '{nearest}'?",
    zh: "你是指 '{nearest}' 吗？",
};
const DISPATCH_FIX_END: Template = Template {
    name: "dispatch_fix.end",
    en: " Write the tool name exactly as listed.",
    zh: "请按列出的样子准确写工具名。",
};
const DISPATCH_FIX_ARGUMENTS: Template = Template {
    name: "dispatch_fix.arguments",
    en: "Error: {message}. Action Input must be a JSON object like: {expected}",
    zh: "错误：{message}。Action Input 必须是这样的 JSON 对象：{expected}",
};
const TOOL_FIX_ERROR: Template = Template {
    name: "tool_fix.error",
    en: "Error: {message}. Hint: {hint}",
    zh: "错误：{message}。提示：{hint}",
};
const TOOL_FIX_NO_DOCUMENTS: Template = Template {
    name: "tool_fix.no_documents",
    en: "no documents are loaded; answer from what you know and say so",
    zh: "没有加载文档；请凭已知的知识作答并说明这一点",
};
const TOOL_FIX_EMPTY_QUERY: Template = Template {
    name: "tool_fix.empty_query",
    en: "give a few content words, e.g. {{\"query\": \"context window\"}}",
    zh: "给出几个实义词，例如 {{\"query\": \"上下文窗口\"}}",
};
const TOOL_FIX_NO_MATCH: Template = Template {
    name: "tool_fix.no_match",
    en: "try other or fewer keywords",
    zh: "换用其他或更少的关键词",
};
const TOOL_FIX_NO_MATCH_TOPICS: Template = Template {
    name: "tool_fix.no_match_topics",
    en: "try other or fewer keywords, or the other language (English/中文); the \
                 documents include: {topics}; if none is about the question, answer it \
                 from what you know",
    zh: "换用其他或更少的关键词，或换另一种语言（中文/English）；文档包括：{topics}；\
                 如果都与问题无关，就根据你自己的知识回答",
};
const TOOL_FIX_INVALID_CLOCK: Template = Template {
    name: "tool_fix.invalid_clock",
    en: "the time is not available; tell the user you cannot know it",
    zh: "无法得知时间；请告诉用户你无法知道",
};
const TOOL_FIX_ARGUMENTS_NOT_PASSED: Template = Template {
    name: "tool_fix.arguments_not_passed",
    en: "check the Action Input against the tool's parameters and try again",
    zh: "对照工具的参数检查 Action Input，然后重试",
};
const TOOL_FIX_NO_ANSWER_WITHIN: Template = Template {
    name: "tool_fix.no_answer_within",
    en: "the tool took too long; call it with a smaller request, or answer from what you have",
    zh: "工具用时太长；请用更小的请求调用它，或者根据已有的信息回答",
};
const TOOL_FIX_NO_IMPLEMENTATION: Template = Template {
    name: "tool_fix.no_implementation",
    en: "this is a fault of the tool, not of your step; answer from what you have",
    zh: "这是工具的问题，不是你这一步的问题；请根据已有的信息回答",
};
const TOOL_FIX_NOT_BUILTIN: Template = Template {
    name: "tool_fix.not_builtin",
    en: "this is a bug in the driver, not in your step",
    zh: "这是驱动程序的错误，不是你这一步的问题",
};
const CALC_FIX_EMPTY: Template = Template {
    name: "calc_fix.empty",
    en: "give an arithmetic expression such as 2 * (3 + 4)",
    zh: "给出一个算术表达式，例如 2 * (3 + 4)",
};
const CALC_FIX_TOO_DEEP: Template = Template {
    name: "calc_fix.too_deep",
    en: "split the calculation into smaller steps",
    zh: "把计算拆成更小的几步",
};
const CALC_FIX_UNEXPECTED_CHAR: Template = Template {
    name: "calc_fix.unexpected_char",
    en: "use only numbers, + - * / % ^, parentheses, and the known functions; the \
             calculator does not understand words or units",
    zh: "只用数字、+ - * / % ^、括号和已知函数；计算器不懂文字或单位",
};
const CALC_FIX_UNEXPECTED_TOKEN: Template = Template {
    name: "calc_fix.unexpected_token",
    en: "check for a missing operator (write 2 * pi, not 2pi) or a missing number",
    zh: "检查是否缺了运算符（写 2 * pi，不要写 2pi）或缺了数字",
};
const CALC_FIX_UNEXPECTED_END: Template = Template {
    name: "calc_fix.unexpected_end",
    en: "the expression is incomplete; finish it",
    zh: "表达式不完整，请写完",
};
const CALC_FIX_UNEXPECTED_CLOSE_PAREN: Template = Template {
    name: "calc_fix.unexpected_close_paren",
    en: "make every '(' have a matching ')'",
    zh: "让每个 '(' 都有对应的 ')'",
};
const CALC_FIX_UNKNOWN_NAME: Template = Template {
    name: "calc_fix.unknown_name",
    en: "write numbers; a value such as today's year comes from another tool first",
    zh: "请写数字；像今年的年份这样的值要先用别的工具得到",
};
const CALC_FIX_MISSING_PARENS: Template = Template {
    name: "calc_fix.missing_parens",
    en: "put the function's argument in parentheses",
    zh: "把函数的参数写在括号里",
};
const CALC_FIX_CONSTANT_CALLED: Template = Template {
    name: "calc_fix.constant_called",
    en: "write the multiplication sign",
    zh: "写出乘号",
};
const CALC_FIX_WRONG_ARG_COUNT: Template = Template {
    name: "calc_fix.wrong_arg_count",
    en: "give the function the right number of arguments",
    zh: "给函数正确个数的参数",
};
const CALC_FIX_DIVISION_BY_ZERO: Template = Template {
    name: "calc_fix.division_by_zero",
    en: "the divisor is 0; check the numbers",
    zh: "除数是 0，请检查数字",
};
const CALC_FIX_OVERFLOW: Template = Template {
    name: "calc_fix.overflow",
    en: "the numbers are too large; check the expression",
    zh: "数字太大，请检查表达式",
};
const CALC_FIX_INVALID_ARGUMENT: Template = Template {
    name: "calc_fix.invalid_argument",
    en: "the function is not defined for that input",
    zh: "函数对这个输入没有定义",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_json_spacing() {
        let v = serde_json::json!({"a": [1, "x"], "b": {"c": null}});
        assert_eq!(compact_json(&v), r#"{"a": [1, "x"], "b": {"c": null}}"#);
    }
}
