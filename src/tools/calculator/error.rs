//! Why an expression could not be evaluated, in words for the model (with a hint at the fix,
//! in English or Chinese) and for a person reading the trace.

use super::functions::{CONSTANTS, FUNCTIONS};
use crate::fields::tagged;
use crate::tools::names::{edit_distance, nearest};
use serde::Serialize;
use std::fmt;

tagged! {
    /// Why an expression could not be evaluated. Messages are written for the model and for a
    /// workshop attendee reading the trace.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum CalcError in "kind" {
        Empty = "empty",
        TooLong {
            len: usize,
            max: usize,
        } = "too_long",
        TooDeep {
            max: usize,
        } = "too_deep",
        UnexpectedChar {
            ch: char,
            pos: usize,
        } = "unexpected_char",
        UnexpectedToken {
            token: String,
            pos: usize,
        } = "unexpected_token",
        UnexpectedEnd = "unexpected_end",
        UnclosedParen {
            pos: usize,
        } = "unclosed_paren",
        UnexpectedCloseParen {
            pos: usize,
        } = "unexpected_close_paren",
        UnknownName {
            name: String,
            pos: usize,
        } = "unknown_name",
        MissingParens {
            name: String,
        } = "missing_parens",
        /// `pi(3)`: a constant written like a function, meaning a product.
        ConstantCalled {
            name: String,
            pos: usize,
        } = "constant_called",
        WrongArgCount {
            function: String,
            expected: String,
            got: usize,
        } = "wrong_arg_count",
        DivisionByZero = "division_by_zero",
        Overflow = "overflow",
        InvalidArgument {
            function: String,
            reason: String,
        } = "invalid_argument",
    }
}

impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CalcError::Empty => write!(f, "the expression is empty"),
            CalcError::TooLong { len, max } => write!(
                f,
                "the expression is too long ({len} characters; the limit is {max})"
            ),
            CalcError::TooDeep { max } => write!(
                f,
                "the expression is nested too deeply (more than {max} levels)"
            ),
            CalcError::UnexpectedChar { ch, pos } => {
                write!(f, "unexpected character '{ch}' at position {pos}")
            }
            CalcError::UnexpectedToken { token, pos } => {
                write!(f, "unexpected '{token}' at position {pos}")
            }
            CalcError::UnexpectedEnd => write!(f, "the expression ends too early"),
            CalcError::UnclosedParen { pos } => write!(
                f,
                "unbalanced parenthesis: the '(' at position {pos} is never closed"
            ),
            CalcError::UnexpectedCloseParen { pos } => write!(
                f,
                "unbalanced parenthesis: the ')' at position {pos} has no matching '('"
            ),
            // No list of every function: the 0.5B model searched the documents for each name
            // of it in turn after writing `year()`.
            CalcError::UnknownName { name, pos } => match self.near_name() {
                Some(near) => write!(
                    f,
                    "unknown name '{name}' at position {pos}; did you mean {near}?"
                ),
                None => write!(
                    f,
                    "unknown name '{name}' at position {pos}; the calculator knows numbers, \
                     arithmetic and math functions such as sqrt and round, nothing else"
                ),
            },
            CalcError::MissingParens { name } => write!(
                f,
                "'{name}' is a function and needs parentheses, e.g. {name}(2)"
            ),
            CalcError::ConstantCalled { name, pos } => write!(
                f,
                "'{name}' at position {pos} is a number, not a function; multiply: {name} * (…)"
            ),
            CalcError::WrongArgCount {
                function,
                expected,
                got,
            } => write!(f, "{function}() takes {expected} argument(s), got {got}"),
            CalcError::DivisionByZero => write!(f, "division by zero"),
            CalcError::Overflow => write!(f, "the result is too large to represent"),
            CalcError::InvalidArgument { function, reason } => write!(f, "{function}: {reason}"),
        }
    }
}

impl std::error::Error for CalcError {}

impl CalcError {
    /// The message and the hint in Chinese, for a run whose prompt is Chinese.
    pub fn zh(&self) -> (String, &'static str) {
        let message = match self {
            CalcError::Empty => "表达式为空".to_string(),
            CalcError::TooLong { len, max } => format!("表达式太长（{len} 个字符，上限 {max}）"),
            CalcError::TooDeep { max } => format!("表达式嵌套太深（超过 {max} 层）"),
            CalcError::UnexpectedChar { ch, pos } => format!("第 {pos} 个位置有意外的字符 '{ch}'"),
            CalcError::UnexpectedToken { token, pos } => {
                format!("第 {pos} 个位置有意外的 '{token}'")
            }
            CalcError::UnexpectedEnd => "表达式提前结束".to_string(),
            CalcError::UnclosedParen { pos } => {
                format!("括号不配对：第 {pos} 个位置的 '(' 没有闭合")
            }
            CalcError::UnexpectedCloseParen { pos } => {
                format!("括号不配对：第 {pos} 个位置的 ')' 没有对应的 '('")
            }
            CalcError::UnknownName { name, pos } => match self.near_name() {
                Some(near) => format!("第 {pos} 个位置有未知的名称 '{name}'；你是指 {near} 吗？"),
                None => format!(
                    "第 {pos} 个位置有未知的名称 '{name}'；计算器只认识数字、算术运算和 sqrt、round \
                     等数学函数"
                ),
            },
            CalcError::MissingParens { name } => format!("'{name}' 是函数，需要括号，例如 {name}(2)"),
            CalcError::ConstantCalled { name, pos } => {
                format!("第 {pos} 个位置的 '{name}' 是数，不是函数；请写乘号：{name} * (…)")
            }
            CalcError::WrongArgCount {
                function,
                expected,
                got,
            } => format!("{function}() 需要 {expected} 个参数，实际有 {got} 个"),
            CalcError::DivisionByZero => "除数为零".to_string(),
            CalcError::Overflow => "结果太大，无法表示".to_string(),
            CalcError::InvalidArgument { function, reason } => format!("{function}：{reason}"),
        };
        let hint = match self {
            CalcError::Empty => "给出一个算术表达式，例如 2 * (3 + 4)",
            CalcError::TooLong { .. } | CalcError::TooDeep { .. } => "把计算拆成更小的几步",
            CalcError::UnexpectedChar { .. } => {
                "只用数字、+ - * / % ^、括号和已知函数；计算器不懂文字或单位"
            }
            CalcError::UnexpectedToken { .. } => {
                "检查是否缺了运算符（写 2 * pi，不要写 2pi）或缺了数字"
            }
            CalcError::UnexpectedEnd => "表达式不完整，请写完",
            CalcError::UnclosedParen { .. } | CalcError::UnexpectedCloseParen { .. } => {
                "让每个 '(' 都有对应的 ')'"
            }
            CalcError::UnknownName { .. } => "请写数字；像今年的年份这样的值要先用别的工具得到",
            CalcError::MissingParens { .. } => "把函数的参数写在括号里",
            CalcError::ConstantCalled { .. } => "写出乘号",
            CalcError::WrongArgCount { .. } => "给函数正确个数的参数",
            CalcError::DivisionByZero => "除数是 0，请检查数字",
            CalcError::Overflow => "数字太大，请检查表达式",
            CalcError::InvalidArgument { .. } => "函数对这个输入没有定义",
        };
        (message, hint)
    }

    /// The known function or constant an unknown name is a likely misspelling of. Stricter
    /// than tool names ("foo" is not a misspelt "floor"): at most a third of the letters
    /// differ.
    pub(super) fn near_name(&self) -> Option<&'static str> {
        let CalcError::UnknownName { name, .. } = self else {
            return None;
        };
        let known: Vec<&'static str> = FUNCTIONS
            .iter()
            .map(|g| g.name)
            .chain(CONSTANTS.iter().map(|c| c.0))
            .collect();
        nearest(name, &known).filter(|near| {
            let longest = name.chars().count().max(near.len());
            3 * edit_distance(&name.to_lowercase(), near) <= longest
        })
    }

    /// The input was words, not arithmetic (`year()`, `H2O`, a Chinese sentence): no fix of
    /// the expression helps, another tool or the answer does. A misspelt function is not.
    pub fn is_words(&self) -> bool {
        match self {
            CalcError::UnknownName { .. } => self.near_name().is_none(),
            CalcError::UnexpectedChar { ch, .. } => ch.is_alphabetic(),
            _ => false,
        }
    }

    /// What the model should do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            CalcError::Empty => "give an arithmetic expression such as 2 * (3 + 4)",
            CalcError::TooLong { .. } | CalcError::TooDeep { .. } => {
                "split the calculation into smaller steps"
            }
            CalcError::UnexpectedChar { .. } => {
                "use only numbers, + - * / % ^, parentheses, and the known functions; \
                 the calculator does not understand words or units"
            }
            CalcError::UnexpectedToken { .. } => {
                "check for a missing operator (write 2 * pi, not 2pi) or a missing number"
            }
            CalcError::UnexpectedEnd => "the expression is incomplete; finish it",
            CalcError::UnclosedParen { .. } | CalcError::UnexpectedCloseParen { .. } => {
                "make every '(' have a matching ')'"
            }
            CalcError::UnknownName { .. } => {
                "write numbers; a value such as today's year comes from another tool first"
            }
            CalcError::MissingParens { .. } => "put the function's argument in parentheses",
            CalcError::ConstantCalled { .. } => "write the multiplication sign",
            CalcError::WrongArgCount { .. } => "give the function the right number of arguments",
            CalcError::DivisionByZero => "the divisor is 0; check the numbers",
            CalcError::Overflow => "the numbers are too large; check the expression",
            CalcError::InvalidArgument { .. } => "the function is not defined for that input",
        }
    }
}
