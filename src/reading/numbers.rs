//! The numbers of a run: the question's, the tools' results and the answer's. An answer that
//! leaves out a number of the question, or misreads the calculator's result, is not one yet.

use super::RunSoFar;
use crate::lower::Lower;
use crate::numbers::parse_f64;
use crate::tools::Role;

/// A number the question gives that no call, no Observation and not the answer holds, when a
/// tool has run and a step is left: the model answered after the first step of several (the
/// date for "10 days from today", the year for "years since 1969"). Once a run, so an answer
/// that really needs no such number still stands the second time.
pub(super) fn unused_number(answer: &str, run: &RunSoFar) -> Option<String> {
    if run.last_step || run.answer_asked || run.sent_back.number || run.steered {
        return None;
    }
    if !run.calls.iter().any(|c| c.succeeded) {
        return None;
    }
    let mut used: Vec<String> = numbers(answer);
    for call in run.calls {
        used.extend(numbers(&crate::fields::json_text(&call.args)));
    }
    for observation in run.observations {
        used.extend(numbers(observation));
    }
    operands(run.question)
        .into_iter()
        .find(|n| !used.contains(n))
}

/// The numbers of `text` a computation would use: all but those that say how precise the
/// answer is.
pub fn operands(text: &str) -> Vec<String> {
    let precision = precision_numbers(text);
    let mut out: Vec<String> = (numbers(text).into_iter())
        .filter(|n| !precision.contains(n))
        .collect();
    // "Twice", 两倍: a factor written in words is one to compute with.
    for factor in crate::tools::factors(text) {
        if !out.contains(&factor) {
            out.push(factor);
        }
    }
    out
}

/// The numbers of a tool's result a computation may use: all but the parts of a date or a
/// time ("2025-03-14 12:00"), which the 0.5B model strung into `123.45 * 2025 - 1200 * …`.
pub fn facts(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut kept = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        // A run of digits joined by '-', '/' or ':': a date with two joins, a time with one ':'.
        let mut end = i;
        let (mut dashes, mut colons) = (0, 0);
        while end < chars.len() && chars[end].is_ascii_digit() {
            while chars.get(end).is_some_and(char::is_ascii_digit) {
                end += 1;
            }
            let join = chars.get(end).copied();
            let digit_after = chars.get(end + 1).is_some_and(char::is_ascii_digit);
            match join {
                Some('-' | '/') if digit_after => dashes += 1,
                Some(':') if digit_after => colons += 1,
                _ => break,
            }
            end += 1;
        }
        if end > i && (dashes >= 2 || colons >= 1) {
            kept.push(' ');
            i = end;
        } else {
            kept.push(chars[i]);
            i += 1;
        }
    }
    numbers(&kept)
}

/// The numbers of `text` that say how precise the answer is ("to 3 decimal places", "4
/// significant figures", "保留 2 位小数"): not operands, so no step needs them.
fn precision_numbers(text: &str) -> Vec<String> {
    const UNITS: &[&str] = &["decimal", "significant", "dp", "d.p.", "位小数", "位有效"];
    let lower = text.lower();
    let mut out = Vec::new();
    for unit in UNITS {
        for (at, _) in lower.match_indices(unit) {
            let before = lower[..at].trim_end();
            let digits: String = before
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect();
            // A whole word, or its plural ("3 decimals"), not the start of another ("2 dpi").
            let rest = lower[at + unit.len()..].trim_start_matches('s');
            let whole = !unit.is_ascii() || !rest.starts_with(|c: char| c.is_ascii_alphabetic());
            if !digits.is_empty() && whole {
                out.extend(numbers(&digits.chars().rev().collect::<String>()));
            }
        }
    }
    out
}

/// The last calculation's result, when the answer right after it gives numbers and none is a
/// result a tool gave, rounded to the answer's places, scaled (a percentage, "1.8 million") or
/// not: the answer misread the Observation; or when the answer gives only numbers the
/// calculation took. Once a run, so an answer the model stands by stands.
pub(super) fn result_missed(answer: &str, run: &RunSoFar) -> Option<String> {
    if run.last_step || run.answer_asked || run.sent_back.result || run.steered {
        return None;
    }
    let computation =
        (run.calls.iter().rev()).find(|c| c.succeeded && c.role == Some(Role::Computes))?;
    let result = computation.observation.lines().next()?.trim();
    let results = numbers(result);
    if results.is_empty() {
        return None;
    }
    let given = numbers(answer);
    // An operand of the computation for its result, even after a later call: the 0.5B model
    // computed `25 * 48.20`, looked the price up again and answered "48.20 USD (2025-03-14
    // 12:00 UTC)" (a date and a time are no amounts).
    let operands = numbers(&crate::fields::json_text(&computation.args));
    let amounts = facts(answer);
    if !amounts.is_empty() && (amounts.iter()).all(|g| operands.contains(g) && !results.contains(g))
    {
        return Some(result.to_string());
    }
    let last = run.calls.last().filter(|c| c.succeeded)?;
    if last.role != Some(Role::Computes) {
        return None;
    }
    let held: Vec<f64> = run
        .observations
        .iter()
        .flat_map(|o| numbers(o))
        .filter_map(|n| parse_f64(&n))
        .collect();
    let near = |given: &str| {
        let Some(value) = parse_f64(given) else {
            return true;
        };
        let places = given.split_once('.').map_or(0, |(_, d)| d.len());
        let unit = 10f64.powi(-(places as i32));
        let scales = [1.0, 100.0, 0.01, 1e3, 1e4, 1e6, 1e8, 1e9];
        held.iter().any(|h| {
            scales
                .iter()
                .any(|s| (value * s - h).abs() < unit * s * (1.0 + 1e-9))
        })
    };
    (!given.is_empty() && !given.iter().any(|g| near(g))).then(|| result.to_string())
}

/// The amounts written in digits in `text` (ASCII or full-width), one way each: no group
/// commas, no trailing zeros after a point ("1,000.50" is "1000.5"); a number touching a
/// Latin letter is part of a name ("Qwen2", "3D", "2nd") and left out ([`crate::numbers::AMOUNTS`]).
pub fn numbers(text: &str) -> Vec<String> {
    let found = crate::numbers::read(text, crate::numbers::AMOUNTS);
    found.iter().map(crate::numbers::Number::plain).collect()
}
