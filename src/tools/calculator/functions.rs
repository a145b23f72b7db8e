//! The functions and constants an expression may name, in one table so that the evaluator,
//! the error messages and the grammar a model is held to never disagree.

use super::{format_number, CalcError};
use crate::math;
use std::f64::consts::{E, PI};

/// `round(x, n)` accepts |n| up to this; beyond it f64 has no digits left to round.
const MAX_ROUND_DIGITS: f64 = 15.0;

pub(super) struct Function {
    pub(super) name: &'static str,
    pub(super) min_args: usize,
    /// `usize::MAX` for variadic functions.
    pub(super) max_args: usize,
    pub(super) eval: fn(&[f64]) -> Result<f64, CalcError>,
}

const fn func(
    name: &'static str,
    min_args: usize,
    max_args: usize,
    eval: fn(&[f64]) -> Result<f64, CalcError>,
) -> Function {
    Function {
        name,
        min_args,
        max_args,
        eval,
    }
}

// One table is the single source of truth for names, arity and behaviour; error messages list
// the known names from it. `eval` may index the arguments the arity guarantees.
pub(super) const FUNCTIONS: &[Function] = &[
    func("sqrt", 1, 1, |a| match a[0] {
        x if x < 0.0 => Err(invalid("sqrt", "needs a number ≥ 0", x)),
        x => Ok(x.sqrt()),
    }),
    func("abs", 1, 1, |a| Ok(a[0].abs())),
    func("round", 1, 2, round),
    func("floor", 1, 1, |a| Ok(a[0].floor())),
    func("ceil", 1, 1, |a| Ok(a[0].ceil())),
    func("min", 1, usize::MAX, |a| {
        Ok(a.iter().copied().fold(f64::INFINITY, f64::min))
    }),
    func("max", 1, usize::MAX, |a| {
        Ok(a.iter().copied().fold(f64::NEG_INFINITY, f64::max))
    }),
    func("ln", 1, 1, |a| positive("ln", a[0]).map(math::ln)),
    func("log10", 1, 1, |a| positive("log10", a[0]).map(math::log10)),
    func("log", 1, 2, |a| {
        let x = positive("log", a[0])?;
        match a.get(1) {
            None => Ok(math::log10(x)),
            Some(&b) if b > 0.0 && b != 1.0 => Ok(math::ln(x) / math::ln(b)),
            Some(&b) => Err(invalid("log", "the base must be > 0 and not 1", b)),
        }
    }),
    func("exp", 1, 1, |a| Ok(math::exp(a[0]))),
    func("sin", 1, 1, |a| Ok(math::sin(a[0]))),
    func("cos", 1, 1, |a| Ok(math::cos(a[0]))),
    func("tan", 1, 1, |a| Ok(math::tan(a[0]))),
];

pub(super) const CONSTANTS: &[(&str, f64)] = &[("pi", PI), ("e", E)];

/// The names an expression may use (functions and constants), longest first: `log10` is
/// found before `log`, `exp` before `e`.
pub(crate) fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = FUNCTIONS
        .iter()
        .map(|f| f.name)
        .chain(CONSTANTS.iter().map(|c| c.0))
        .collect();
    crate::order::sort_by_key(&mut names, |n| std::cmp::Reverse(n.len()));
    names
}

fn invalid(function: &str, what: &str, got: f64) -> CalcError {
    CalcError::InvalidArgument {
        function: function.into(),
        reason: format!("{what}, got {}", format_number(got)),
    }
}

fn positive(function: &str, x: f64) -> Result<f64, CalcError> {
    if x > 0.0 {
        Ok(x)
    } else {
        Err(invalid(function, "needs a number > 0", x))
    }
}

fn round(a: &[f64]) -> Result<f64, CalcError> {
    let Some(&digits) = a.get(1) else {
        return Ok(a[0].round());
    };
    if digits.fract() != 0.0 || digits.abs() > MAX_ROUND_DIGITS {
        return Err(invalid(
            "round",
            "the number of decimals must be a whole number from -15 to 15",
            digits,
        ));
    }
    let scale = 10f64.powi(digits as i32);
    let scaled = a[0] * scale;
    // Scaling a huge number can overflow although the number needs no rounding at all.
    Ok(if scaled.is_finite() {
        scaled.round() / scale
    } else {
        a[0]
    })
}

/// Turns infinities and NaN from an operation into the matching error.
pub(super) fn finite(x: f64, operation: &str) -> Result<f64, CalcError> {
    if x.is_nan() {
        Err(CalcError::InvalidArgument {
            function: operation.into(),
            reason: "the result is not a real number".into(),
        })
    } else if x.is_infinite() {
        Err(CalcError::Overflow)
    } else {
        Ok(x)
    }
}

pub(super) fn arity(g: &Function) -> String {
    match (g.min_args, g.max_args) {
        (min, usize::MAX) => format!("at least {min}"),
        (min, max) if min == max => min.to_string(),
        (min, max) => format!("{min} or {max}"),
    }
}
