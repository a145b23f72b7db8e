//! Why an expression could not be evaluated. The words for it (the `Display`, in English, and
//! the Chinese and the hint at the fix the model is told) are [`crate::told`]'s.

use super::functions::{CONSTANTS, FUNCTIONS};
use crate::fields::tagged;
use crate::lower::Lower;
use crate::tools::names::{edit_distance, nearest};
use serde::Serialize;

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
            3 * edit_distance(&name.lower(), near) <= longest
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
