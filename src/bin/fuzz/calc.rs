//! Inputs for the calculator: expressions built from its own tokens and noise, and the call
//! that reaches it through the registry as the agent's would.

use crate::fragments::{fragments, mutate, random_text, CALC_BITS};
use crate::rng::Rng;
use serde_json::{json, Value};

pub(crate) fn gen_calc(rng: &Rng) -> String {
    match rng.below(10) {
        0..=5 => fragments(rng, CALC_BITS, 1 + rng.below(30)),
        6 => {
            let depth = rng.below(120);
            format!(
                "{}{}{}",
                rng.pick(&["(", "-", "sqrt(", "2^", "-(", "+"])
                    .repeat(depth),
                rng.pick(CALC_BITS),
                ")".repeat(rng.below(depth + 2))
            )
        }
        7 => {
            let base = fragments(rng, CALC_BITS, 1 + rng.below(12));
            mutate(rng, &base, CALC_BITS, std::slice::from_ref(&base))
        }
        8 => "9".repeat(rng.below(700)),
        _ => random_text(rng, 40),
    }
}

/// The calculator as the agent reaches it: a written input, dispatched through the registry
/// (argument normalisation included), then run.
pub(crate) fn calc_call(rng: &Rng, expr: &str) -> (String, Value) {
    let tool = rng
        .pick(&["calculator", "Calculator", "calc", "calculater", "math"])
        .to_string();
    let input = match rng.below(5) {
        0 => Value::String(expr.to_string()),
        1 => json!({"expression": expr}),
        2 => json!({"expr": expr, "extra": 1}),
        3 => json!({"input": {"expression": expr}}),
        _ => Value::String(json!({"expression": expr}).to_string()),
    };
    (tool, input)
}
