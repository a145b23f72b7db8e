//! Why an expression could not be evaluated, in English words for a person reading the trace
//! and for the model; [`crate::told`] adds the Chinese and the hint at the fix.

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
    /// The known function or constant an unknown name is a likely misspelling of. Stricter
    /// than tool names ("foo" is not a misspelt "floor"): at most a third of the letters
    /// differ.
    pub(crate) fn near_name(&self) -> Option<&'static str> {
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
}
