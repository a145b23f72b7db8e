//! What went wrong with a call, in a sentence: why an action could not become a call
//! ([`dispatch_message`]), why a tool failed ([`tool_message`]) and why the calculator could
//! not evaluate an expression ([`calc_message`]). Each is one match, the English and the Chinese
//! side by side; the English is also the error's `Display`, so the trace, a log and the model
//! read the same sentence. [`super::tool`] puts a message in the Observation with its hint.

use std::fmt;

use super::say;
use crate::lang::Lang;
use crate::tools::{CalcError, DispatchError, ToolError};

/// The English is the error's `Display`.
impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&dispatch_message(self, Lang::En))
    }
}

/// The English is the error's `Display`.
impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&tool_message(self, Lang::En))
    }
}

/// The English is the error's `Display`.
impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&calc_message(self, Lang::En))
    }
}

/// Why a parsed action could not become a call.
pub fn dispatch_message(error: &DispatchError, lang: Lang) -> String {
    match error {
        DispatchError::UnknownTool { name, .. } => say!(
            lang,
            "there is no tool named '{name}'",
            "没有名为 '{name}' 的工具"
        ),
        DispatchError::MissingArgument { tool, missing, .. } => {
            let missing = quoted_list(missing);
            say!(
                lang,
                "{tool} needs the argument {missing}",
                "{tool} 需要参数 {missing}"
            )
        }
        DispatchError::BadArguments { tool, message, .. } => {
            say!(lang, "{tool}: {message}", "{tool}：{message}")
        }
    }
}

/// Why a tool failed.
pub fn tool_message(error: &ToolError, lang: Lang) -> String {
    match error {
        ToolError::Calculator(calc) => calc_message(calc, lang),
        ToolError::NoDocuments => {
            say!(lang, "there are no documents to search", "没有可搜索的文档")
        }
        ToolError::EmptyQuery => say!(
            lang,
            "the search query has no keywords",
            "搜索词里没有关键词"
        ),
        ToolError::NoMatch { query, .. } => say!(
            lang,
            "no document matches '{query}'",
            "没有文档与 '{query}' 匹配"
        ),
        // The host's or the tool's own words, or a fault of the host's or the driver's rather
        // than the model's: a Chinese run is told the English sentence too.
        ToolError::InvalidClock {
            now_unix_ms,
            utc_offset_minutes,
        } => format!(
            "the host gave an invalid clock (now_unix_ms = {now_unix_ms}, \
             utc_offset_minutes = {utc_offset_minutes})"
        ),
        ToolError::InvalidInput { tool, message } => format!("{tool}: {message}"),
        ToolError::NotBuiltin { tool } => say!(
            lang,
            "'{tool}' is not a built-in tool; the host must run it",
            "'{tool}' 不是内置工具；应由宿主运行它"
        ),
        ToolError::NoImplementation { tool } => say!(
            lang,
            "{tool} has no implementation here: the page or program running this loop did not provide one",
            "{tool} 在这里没有实现：运行这个循环的页面或程序没有提供它"
        ),
        ToolError::External { message } => message.clone(),
        ToolError::ScriptThrew { tool, message } => say!(
            lang,
            "{tool} threw an error: {message}",
            "{tool} 抛出了错误：{message}"
        ),
        ToolError::ScriptRejected { tool, message } => say!(
            lang,
            "{tool} failed (its promise was rejected): {message}",
            "{tool} 失败了（它返回的 promise 被拒绝）：{message}"
        ),
        ToolError::ScriptTimedOut { tool, message } => say!(
            lang,
            "{tool} timed out: {message}",
            "{tool} 超时了：{message}"
        ),
        ToolError::NoAnswerWithin { tool, ms } => say!(
            lang,
            "{tool} did not answer within {ms} ms",
            "{tool} 在 {ms} 毫秒内没有回答"
        ),
        ToolError::NotText { tool, message } => say!(
            lang,
            "{tool} returned a value that cannot be written as text ({message}); return a string",
            "{tool} 返回的值无法写成文本（{message}）；请返回字符串"
        ),
        ToolError::ArgumentsNotPassed { tool, message } => say!(
            lang,
            "{tool}: its arguments could not be passed: {message}",
            "{tool}：无法把参数传给它：{message}"
        ),
    }
}

/// Why the calculator could not evaluate an expression.
pub fn calc_message(error: &CalcError, lang: Lang) -> String {
    match error {
        CalcError::Empty => say!(lang, "the expression is empty", "表达式为空"),
        CalcError::TooLong { len, max } => say!(
            lang,
            "the expression is too long ({len} characters; the limit is {max})",
            "表达式太长（{len} 个字符，上限 {max}）"
        ),
        CalcError::TooDeep { max } => say!(
            lang,
            "the expression is nested too deeply (more than {max} levels)",
            "表达式嵌套太深（超过 {max} 层）"
        ),
        CalcError::UnexpectedChar { ch, pos } => say!(
            lang,
            "unexpected character '{ch}' at position {pos}",
            "第 {pos} 个位置有意外的字符 '{ch}'"
        ),
        CalcError::UnexpectedToken { token, pos } => say!(
            lang,
            "unexpected '{token}' at position {pos}",
            "第 {pos} 个位置有意外的 '{token}'"
        ),
        CalcError::UnexpectedEnd => say!(lang, "the expression ends too early", "表达式提前结束"),
        CalcError::UnclosedParen { pos } => say!(
            lang,
            "unbalanced parenthesis: the '(' at position {pos} is never closed",
            "括号不配对：第 {pos} 个位置的 '(' 没有闭合"
        ),
        CalcError::UnexpectedCloseParen { pos } => say!(
            lang,
            "unbalanced parenthesis: the ')' at position {pos} has no matching '('",
            "括号不配对：第 {pos} 个位置的 ')' 没有对应的 '('"
        ),
        // No list of every function: the 0.5B model searched the documents for each name of it
        // in turn after writing `year()`.
        CalcError::UnknownName { name, pos } => match error.near_name() {
            Some(near) => say!(
                lang,
                "unknown name '{name}' at position {pos}; did you mean {near}?",
                "第 {pos} 个位置有未知的名称 '{name}'；你是指 {near} 吗？"
            ),
            None => say!(
                lang,
                "unknown name '{name}' at position {pos}; the calculator knows numbers, \
                 arithmetic and math functions such as sqrt and round, nothing else",
                "第 {pos} 个位置有未知的名称 '{name}'；计算器只认识数字、算术运算和 sqrt、round \
                 等数学函数"
            ),
        },
        CalcError::MissingParens { name } => say!(
            lang,
            "'{name}' is a function and needs parentheses, e.g. {name}(2)",
            "'{name}' 是函数，需要括号，例如 {name}(2)"
        ),
        CalcError::ConstantCalled { name, pos } => say!(
            lang,
            "'{name}' at position {pos} is a number, not a function; multiply: {name} * (…)",
            "第 {pos} 个位置的 '{name}' 是数，不是函数；请写乘号：{name} * (…)"
        ),
        CalcError::WrongArgCount {
            function,
            expected,
            got,
        } => say!(
            lang,
            "{function}() takes {expected} argument(s), got {got}",
            "{function}() 需要 {expected} 个参数，实际有 {got} 个"
        ),
        CalcError::DivisionByZero => say!(lang, "division by zero", "除数为零"),
        CalcError::Overflow => say!(
            lang,
            "the result is too large to represent",
            "结果太大，无法表示"
        ),
        CalcError::InvalidArgument { function, reason } => {
            say!(lang, "{function}: {reason}", "{function}：{reason}")
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
