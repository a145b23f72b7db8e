//! What went wrong with a call, in a sentence: why an action could not become a call
//! ([`dispatch_message`]), why a tool failed ([`tool_message`]) and why the calculator could
//! not evaluate an expression ([`calc_message`]). Each is one match, the English and the Chinese
//! side by side; the English is also the error's `Display`, so the trace, a log and the model
//! read the same sentence. [`super::tool`] puts a message in the Observation with its hint.

use std::fmt;

use super::{say, Template, Voice};
use crate::lang::Lang;
use crate::tools::{CalcError, DispatchError, ToolError};

/// The English is the error's `Display`.
impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&dispatch_message(self, Lang::En.into()))
    }
}

/// The English is the error's `Display`.
impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&tool_message(self, Lang::En.into()))
    }
}

/// The English is the error's `Display`.
impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&calc_message(self, Lang::En.into()))
    }
}

/// Why a parsed action could not become a call.
pub fn dispatch_message(error: &DispatchError, to: Voice<'_>) -> String {
    match error {
        DispatchError::UnknownTool { name, .. } => say!(to, DISPATCH_UNKNOWN_TOOL, name),
        DispatchError::MissingArgument { tool, missing, .. } => {
            let missing = quoted_list(missing);
            say!(to, DISPATCH_MISSING_ARGUMENT, tool, missing)
        }
        DispatchError::BadArguments { tool, message, .. } => {
            say!(to, DISPATCH_BAD_ARGUMENTS, tool, message)
        }
    }
}

/// Why a tool failed.
pub fn tool_message(error: &ToolError, to: Voice<'_>) -> String {
    match error {
        ToolError::Calculator(calc) => calc_message(calc, to),
        ToolError::NoDocuments => {
            say!(to, TOOL_NO_DOCUMENTS)
        }
        ToolError::EmptyQuery => say!(to, TOOL_EMPTY_QUERY),
        ToolError::NoMatch { query, .. } => say!(to, TOOL_NO_MATCH, query),
        // The host's or the tool's own words, or a fault of the host's or the driver's rather
        // than the model's: a Chinese run is told the English sentence too.
        ToolError::InvalidClock {
            now_unix_ms,
            utc_offset_minutes,
        } => format!(
            "the host gave an invalid clock (now_unix_ms = {}, \
             utc_offset_minutes = {utc_offset_minutes})",
            crate::numbers::shown(*now_unix_ms)
        ),
        ToolError::InvalidInput { tool, message } => format!("{tool}: {message}"),
        ToolError::NotBuiltin { tool } => say!(to, TOOL_NOT_BUILTIN, tool),
        ToolError::NoImplementation { tool } => say!(to, TOOL_NO_IMPLEMENTATION, tool),
        ToolError::External { message } => message.clone(),
        ToolError::ScriptThrew { tool, message } => say!(to, TOOL_SCRIPT_THREW, tool, message),
        ToolError::ScriptRejected { tool, message } => {
            say!(to, TOOL_SCRIPT_REJECTED, tool, message)
        }
        ToolError::ScriptTimedOut { tool, message } => {
            say!(to, TOOL_SCRIPT_TIMED_OUT, tool, message)
        }
        ToolError::NoAnswerWithin { tool, ms } => say!(to, TOOL_NO_ANSWER_WITHIN, tool, ms),
        ToolError::NotText { tool, message } => say!(to, TOOL_NOT_TEXT, tool, message),
        ToolError::ArgumentsNotPassed { tool, message } => {
            say!(to, TOOL_ARGUMENTS_NOT_PASSED, tool, message)
        }
    }
}

/// Why the calculator could not evaluate an expression.
pub fn calc_message(error: &CalcError, to: Voice<'_>) -> String {
    match error {
        CalcError::Empty => say!(to, CALC_EMPTY),
        CalcError::TooLong { len, max } => say!(to, CALC_TOO_LONG, len, max),
        CalcError::TooDeep { max } => say!(to, CALC_TOO_DEEP, max),
        CalcError::UnexpectedChar { ch, pos } => say!(to, CALC_UNEXPECTED_CHAR, ch, pos),
        CalcError::UnexpectedToken { token, pos } => say!(to, CALC_UNEXPECTED_TOKEN, token, pos),
        CalcError::UnexpectedEnd => say!(to, CALC_UNEXPECTED_END),
        CalcError::UnclosedParen { pos } => say!(to, CALC_UNCLOSED_PAREN, pos),
        CalcError::UnexpectedCloseParen { pos } => say!(to, CALC_UNEXPECTED_CLOSE_PAREN, pos),
        // No list of every function: the 0.5B model searched the documents for each name of it
        // in turn after writing `year()`.
        CalcError::UnknownName { name, pos } => match error.near_name() {
            Some(near) => say!(to, CALC_UNKNOWN_NAME_NEAR, name, pos, near),
            None => say!(to, CALC_UNKNOWN_NAME, name, pos),
        },
        CalcError::MissingParens { name } => say!(to, CALC_MISSING_PARENS, name),
        CalcError::ConstantCalled { name, pos } => say!(to, CALC_CONSTANT_CALLED, name, pos),
        CalcError::WrongArgCount {
            function,
            expected,
            got,
        } => say!(to, CALC_WRONG_ARG_COUNT, function, expected, got),
        CalcError::DivisionByZero => say!(to, CALC_DIVISION_BY_ZERO),
        CalcError::Overflow => say!(to, CALC_OVERFLOW),
        CalcError::InvalidArgument { function, reason } => {
            say!(to, CALC_INVALID_ARGUMENT, function, reason)
        }
    }
}

/// `'a', 'b'`.
fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) const TEMPLATES: &[&Template] = &[
    &DISPATCH_UNKNOWN_TOOL,
    &DISPATCH_MISSING_ARGUMENT,
    &DISPATCH_BAD_ARGUMENTS,
    &TOOL_NO_DOCUMENTS,
    &TOOL_EMPTY_QUERY,
    &TOOL_NO_MATCH,
    &TOOL_NOT_BUILTIN,
    &TOOL_NO_IMPLEMENTATION,
    &TOOL_SCRIPT_THREW,
    &TOOL_SCRIPT_REJECTED,
    &TOOL_SCRIPT_TIMED_OUT,
    &TOOL_NO_ANSWER_WITHIN,
    &TOOL_NOT_TEXT,
    &TOOL_ARGUMENTS_NOT_PASSED,
    &CALC_EMPTY,
    &CALC_TOO_LONG,
    &CALC_TOO_DEEP,
    &CALC_UNEXPECTED_CHAR,
    &CALC_UNEXPECTED_TOKEN,
    &CALC_UNEXPECTED_END,
    &CALC_UNCLOSED_PAREN,
    &CALC_UNEXPECTED_CLOSE_PAREN,
    &CALC_UNKNOWN_NAME_NEAR,
    &CALC_UNKNOWN_NAME,
    &CALC_MISSING_PARENS,
    &CALC_CONSTANT_CALLED,
    &CALC_WRONG_ARG_COUNT,
    &CALC_DIVISION_BY_ZERO,
    &CALC_OVERFLOW,
    &CALC_INVALID_ARGUMENT,
];

const DISPATCH_UNKNOWN_TOOL: Template = Template {
    name: "dispatch.unknown_tool",
    en: "there is no tool named '{name}'",
    zh: "没有名为 '{name}' 的工具",
};
const DISPATCH_MISSING_ARGUMENT: Template = Template {
    name: "dispatch.missing_argument",
    en: "{tool} needs the argument {missing}",
    zh: "{tool} 需要参数 {missing}",
};
const DISPATCH_BAD_ARGUMENTS: Template = Template {
    name: "dispatch.bad_arguments",
    en: "{tool}: {message}",
    zh: "{tool}：{message}",
};
const TOOL_NO_DOCUMENTS: Template = Template {
    name: "tool.no_documents",
    en: "there are no documents to search",
    zh: "没有可搜索的文档",
};
const TOOL_EMPTY_QUERY: Template = Template {
    name: "tool.empty_query",
    en: "the search query has no keywords",
    zh: "搜索词里没有关键词",
};
const TOOL_NO_MATCH: Template = Template {
    name: "tool.no_match",
    en: "no document matches '{query}'",
    zh: "没有文档与 '{query}' 匹配",
};
const TOOL_NOT_BUILTIN: Template = Template {
    name: "tool.not_builtin",
    en: "'{tool}' is not a built-in tool; the host must run it",
    zh: "'{tool}' 不是内置工具；应由宿主运行它",
};
const TOOL_NO_IMPLEMENTATION: Template = Template {
    name: "tool.no_implementation",
    en: "{tool} has no implementation here: the page or program running this loop did not provide one",
    zh: "{tool} 在这里没有实现：运行这个循环的页面或程序没有提供它",
};
const TOOL_SCRIPT_THREW: Template = Template {
    name: "tool.script_threw",
    en: "{tool} threw an error: {message}",
    zh: "{tool} 抛出了错误：{message}",
};
const TOOL_SCRIPT_REJECTED: Template = Template {
    name: "tool.script_rejected",
    en: "{tool} failed (its promise was rejected): {message}",
    zh: "{tool} 失败了（它返回的 promise 被拒绝）：{message}",
};
const TOOL_SCRIPT_TIMED_OUT: Template = Template {
    name: "tool.script_timed_out",
    en: "{tool} timed out: {message}",
    zh: "{tool} 超时了：{message}",
};
const TOOL_NO_ANSWER_WITHIN: Template = Template {
    name: "tool.no_answer_within",
    en: "{tool} did not answer within {ms} ms",
    zh: "{tool} 在 {ms} 毫秒内没有回答",
};
const TOOL_NOT_TEXT: Template = Template {
    name: "tool.not_text",
    en: "{tool} returned a value that cannot be written as text ({message}); return a string",
    zh: "{tool} 返回的值无法写成文本（{message}）；请返回字符串",
};
const TOOL_ARGUMENTS_NOT_PASSED: Template = Template {
    name: "tool.arguments_not_passed",
    en: "{tool}: its arguments could not be passed: {message}",
    zh: "{tool}：无法把参数传给它：{message}",
};
const CALC_EMPTY: Template = Template {
    name: "calc.empty",
    en: "the expression is empty",
    zh: "表达式为空",
};
const CALC_TOO_LONG: Template = Template {
    name: "calc.too_long",
    en: "the expression is too long ({len} characters; the limit is {max})",
    zh: "表达式太长（{len} 个字符，上限 {max}）",
};
const CALC_TOO_DEEP: Template = Template {
    name: "calc.too_deep",
    en: "the expression is nested too deeply (more than {max} levels)",
    zh: "表达式嵌套太深（超过 {max} 层）",
};
const CALC_UNEXPECTED_CHAR: Template = Template {
    name: "calc.unexpected_char",
    en: "unexpected character '{ch}' at position {pos}",
    zh: "第 {pos} 个位置有意外的字符 '{ch}'",
};
const CALC_UNEXPECTED_TOKEN: Template = Template {
    name: "calc.unexpected_token",
    en: "unexpected '{token}' at position {pos}",
    zh: "第 {pos} 个位置有意外的 '{token}'",
};
const CALC_UNEXPECTED_END: Template = Template {
    name: "calc.unexpected_end",
    en: "the expression ends too early",
    zh: "表达式提前结束",
};
const CALC_UNCLOSED_PAREN: Template = Template {
    name: "calc.unclosed_paren",
    en: "unbalanced parenthesis: the '(' at position {pos} is never closed",
    zh: "括号不配对：第 {pos} 个位置的 '(' 没有闭合",
};
const CALC_UNEXPECTED_CLOSE_PAREN: Template = Template {
    name: "calc.unexpected_close_paren",
    en: "unbalanced parenthesis: the ')' at position {pos} has no matching '('",
    zh: "括号不配对：第 {pos} 个位置的 ')' 没有对应的 '('",
};
const CALC_UNKNOWN_NAME_NEAR: Template = Template {
    name: "calc.unknown_name_near",
    en: "unknown name '{name}' at position {pos}; did you mean {near}?",
    zh: "第 {pos} 个位置有未知的名称 '{name}'；你是指 {near} 吗？",
};
const CALC_UNKNOWN_NAME: Template = Template {
    name: "calc.unknown_name",
    en: "unknown name '{name}' at position {pos}; the calculator knows numbers, \
                 arithmetic and math functions such as sqrt and round, nothing else",
    zh: "第 {pos} 个位置有未知的名称 '{name}'；计算器只认识数字、算术运算和 sqrt、round \
                 等数学函数",
};
const CALC_MISSING_PARENS: Template = Template {
    name: "calc.missing_parens",
    en: "'{name}' is a function and needs parentheses, e.g. {name}(2)",
    zh: "'{name}' 是函数，需要括号，例如 {name}(2)",
};
const CALC_CONSTANT_CALLED: Template = Template {
    name: "calc.constant_called",
    en: "'{name}' at position {pos} is a number, not a function; multiply: {name} * (…)",
    zh: "第 {pos} 个位置的 '{name}' 是数，不是函数；请写乘号：{name} * (…)",
};
const CALC_WRONG_ARG_COUNT: Template = Template {
    name: "calc.wrong_arg_count",
    en: "{function}() takes {expected} argument(s), got {got}",
    zh: "{function}() 需要 {expected} 个参数，实际有 {got} 个",
};
const CALC_DIVISION_BY_ZERO: Template = Template {
    name: "calc.division_by_zero",
    en: "division by zero",
    zh: "除数为零",
};
const CALC_OVERFLOW: Template = Template {
    name: "calc.overflow",
    en: "the result is too large to represent",
    zh: "结果太大，无法表示",
};
const CALC_INVALID_ARGUMENT: Template = Template {
    name: "calc.invalid_argument",
    en: "{function}: {reason}",
    zh: "{function}：{reason}",
};
