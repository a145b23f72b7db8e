//! Inputs for trace loading: recordings with one node replaced, removed or retyped, and
//! recordings cut or mutated as text.

use crate::fragments::{mutate, random_text, JSON_BITS, LABELS};
use crate::json::random_value;
use crate::rng::Rng;
use crate::seeds::Seeds;
use serde_json::{json, Value};

pub(crate) fn gen_trace(rng: &Rng, seeds: &Seeds) -> String {
    let mut v = rng.pick(&seeds.traces).clone();
    // Most inputs keep a step or two: enough to reach every field, cheap enough for millions.
    if !rng.chance(20) {
        if let Some(steps) = v.get_mut("steps").and_then(Value::as_array_mut) {
            let keep = rng.below(2);
            let from = rng.below(steps.len().saturating_sub(keep) + 1);
            *steps = steps.iter().skip(from).take(keep).cloned().collect();
        }
    }
    match rng.below(10) {
        0 => {
            let text = v.to_string();
            return mutate(rng, &text, JSON_BITS, std::slice::from_ref(&text));
        }
        1 => {
            // Many copies of a step (under and over the step limit some of the time).
            if let Some(steps) = v.get_mut("steps").and_then(Value::as_array_mut) {
                if let Some(step) = steps.first().cloned() {
                    let n = rng.below(if rng.chance(200) { 2_100 } else { 40 });
                    steps.extend(std::iter::repeat_n(step, n));
                }
            }
        }
        _ => {
            for _ in 0..1 + rng.below(4) {
                mutate_value(rng, &mut v);
            }
        }
    }
    v.to_string()
}

/// Replaces, removes or retypes one node of a JSON tree.
pub(crate) fn mutate_value(rng: &Rng, node: &mut Value) {
    let descend = rng.below(4) != 0;
    match node {
        Value::Object(m) if descend && !m.is_empty() => {
            let key = m
                .keys()
                .nth(rng.below(m.len()))
                .cloned()
                .unwrap_or_default();
            if let Some(child) = m.get_mut(&key) {
                return mutate_value(rng, child);
            }
        }
        Value::Array(a) if descend && !a.is_empty() => {
            let i = rng.below(a.len());
            return mutate_value(rng, &mut a[i]);
        }
        _ => {}
    }
    match rng.below(6) {
        0 => *node = random_value(rng, 2),
        1 => {
            if let Value::Object(m) = node {
                if let Some(key) = m.keys().nth(rng.below(m.len().max(1))).cloned() {
                    m.remove(&key);
                }
            }
        }
        2 => {
            *node = json!(rng
                .pick(&[
                    json!(-1),
                    json!("1"),
                    json!(1e300),
                    json!(0),
                    json!(u64::MAX),
                    json!(1.5),
                    json!(""),
                    json!([]),
                    json!({})
                ])
                .clone())
        }
        3 => {
            if let Value::String(s) = node {
                *s = mutate(rng, s, LABELS, std::slice::from_ref(s));
            } else {
                *node = Value::String(random_text(rng, 20));
            }
        }
        4 => {
            if let Value::Array(a) = node {
                if let Some(first) = a.first().cloned() {
                    a.push(first);
                }
            } else {
                *node = json!([node.clone()]);
            }
        }
        _ => *node = Value::Null,
    }
}
