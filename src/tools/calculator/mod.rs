//! The `calculator` tool: a small arithmetic language with its own tokenizer and a
//! recursive-descent evaluator. It never evaluates code; only the grammar below is understood.
//!
//! ```text
//! expr    := term (('+' | '-') term)*
//! term    := unary (('*' | '/' | '%') unary)*
//! unary   := ('-' | '+') unary | power
//! power   := primary (('^' | '**') unary)?        right-associative: 2^3^2 = 2^9
//! primary := number | constant | function '(' expr (',' expr)* ')' | '(' expr ')'
//! ```
//!
//! Conventions (chosen to match the usual mathematical reading and Python):
//! - `-2^2` is `-(2^2)` = -4: unary minus binds looser than power; `2^-1` = 0.5 is allowed.
//! - `%` is the remainder, its sign follows the dividend (as in JavaScript): `-7 % 3` = -1;
//!   a `%` with no operand after it is a percent sign: `17.5% * 2480` = 434, `200 * 15%` = 30.
//! - `log(x)` is base 10 (as on pocket calculators), `log(x, b)` is base b, `ln(x)` natural.
//! - Trigonometric functions use radians. `round(x, n)` rounds half away from zero to n decimals.
//! - Thousands separators such as `1,234,567.5` are accepted where no function argument list
//!   could be meant: strictly groups of three digits, no spaces, outside a function's parentheses
//!   (`max(1,234)` is max of 1 and 234).
//! - No implicit multiplication: write `2 * pi`, not `2pi`.
//! - Also accepted: `×`, `÷`, `−` (Unicode minus), `π`, a `math.` prefix (`math.sqrt(2)`, as
//!   models often write Python), case-insensitive names, and one trailing `=`.
//! - Positions in error messages count characters from 1.
//!
//! Here: the tool's spec and entry points, and how an input becomes a list of values.
//! Beside it: `lexer` (characters to tokens), `parser` (tokens evaluated by recursive descent),
//! `functions` (the one table of functions and constants), `format` (a value for people),
//! `error` (what went wrong, with a hint for the model).

mod error;
mod format;
mod functions;
mod lexer;
mod parser;

pub use error::CalcError;
pub use format::format_number;
pub(crate) use functions::names;

use crate::lower::Lower;
use functions::{CONSTANTS, FUNCTIONS};
use lexer::{name_end, tokenize, Kind};
use parser::Parser;
use serde_json::json;

use super::ToolSpec;

/// Longest accepted input, in characters.
pub const MAX_LEN: usize = 500;
/// Deepest accepted nesting (parentheses, unary signs and exponents all count), so that no input
/// can exhaust the stack, which is small in wasm.
pub const MAX_DEPTH: usize = 64;

/// The tool's spec, as the model sees it.
pub(crate) fn spec() -> ToolSpec {
    ToolSpec {
        name: super::Builtin::Calculator.name().into(),
        description: "Arithmetic: + - * / % ^, parentheses, sqrt, abs, round, min, max, log, \
            pi, e."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "expression": {
                    "type": "string",
                    "description": "the expression to evaluate, e.g. 2 * (3 + 4)"
                }
            },
            "required": ["expression"],
            "examples": [{ "expression": "<arithmetic from the question>" }]
        }),
        role: Some(super::Role::Computes),
        ..ToolSpec::default()
    }
}

/// Evaluates `expr`; the result is always finite.
pub fn evaluate(expr: &str) -> Result<f64, CalcError> {
    calculate(expr, false).map(|values| values[0])
}

/// Evaluates `expr`, or each of several expressions separated by commas ("17 * 3, 8 * 6, 100
/// / 2"): small models ask for the values they compare in one call. A comma between two
/// digits (`1,000`) is not a separator.
pub fn evaluate_list(expr: &str) -> Result<Vec<f64>, CalcError> {
    calculate(expr, true)
}

fn calculate(expr: &str, list: bool) -> Result<Vec<f64>, CalcError> {
    // "2 + 2 =" is how people (and models) often write a question. Only the end is trimmed,
    // so that positions in error messages count from the start of the input as given.
    let trimmed = expr.trim_end();
    let trimmed = trimmed.strip_suffix('=').unwrap_or(trimmed);
    let len = trimmed.chars().count();
    if len > MAX_LEN {
        return Err(CalcError::TooLong { len, max: MAX_LEN });
    }
    let chars: Vec<char> = trimmed.chars().collect();
    parse_and_evaluate(&chars, list).map_err(|error| match error {
        // A syntax error after a word (`current_time['year']`, `sky_color = …`) is about the
        // word: the calculator was the wrong tool, which the name's message says.
        CalcError::UnexpectedChar { .. } | CalcError::UnexpectedToken { .. } => {
            unknown_word(&chars).unwrap_or(error)
        }
        error => error,
    })
}

/// The first name of two letters or more that is not a function or constant, nor a
/// misspelling of one (a single letter is often a variable or a written `x` for times).
fn unknown_word(chars: &[char]) -> Option<CalcError> {
    let mut i = 0;
    while i < chars.len() {
        let starts_name = (chars[i].is_ascii_alphabetic() || chars[i] == '_')
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '.'));
        if !starts_name {
            i += 1;
            continue;
        }
        let end = name_end(chars, i);
        let name: String = chars[i..end].iter().collect();
        let lower = name.lower();
        let bare = lower.strip_prefix("math.").unwrap_or(&lower);
        let known =
            FUNCTIONS.iter().any(|g| g.name == bare) || CONSTANTS.iter().any(|c| c.0 == bare);
        let error = CalcError::UnknownName { name, pos: i + 1 };
        if end - i >= 2 && !known && error.near_name().is_none() {
            return Some(error);
        }
        i = end;
    }
    None
}

fn parse_and_evaluate(chars: &[char], list: bool) -> Result<Vec<f64>, CalcError> {
    let tokens = tokenize(chars)?;
    if tokens.is_empty() {
        return Err(CalcError::Empty);
    }
    let mut parser = Parser {
        chars,
        tokens: &tokens,
        next: 0,
        depth: 0,
    };
    let mut values = vec![parser.expr()?];
    loop {
        match parser.peek() {
            None => return Ok(values),
            Some(t) if t.kind == Kind::RParen => {
                return Err(CalcError::UnexpectedCloseParen { pos: t.pos() })
            }
            Some(t) if list && t.kind == Kind::Comma && !between_digits(chars, t.start) => {
                parser.next += 1;
                values.push(parser.expr()?);
            }
            Some(t) => return Err(parser.unexpected(t)),
        }
    }
}

fn between_digits(chars: &[char], at: usize) -> bool {
    let digit = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(char::is_ascii_digit)
    };
    digit(at.checked_sub(1)) && digit(Some(at + 1))
}
