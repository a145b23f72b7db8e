//! Inputs for the lenient JSON repair: corpus action inputs mutated, JSON fragments, and
//! random JSON values (deep, wide, with odd strings).

use crate::fragments::{fragments, mutate, random_text, JSON_BITS};
use crate::rng::{rng_pick_str, Rng};
use crate::seeds::Seeds;
use serde_json::{json, Map, Value};

pub(crate) fn gen_json(rng: &Rng, seeds: &Seeds) -> String {
    match rng.below(8) {
        0..=3 => {
            let seed = rng_pick_str(rng, &seeds.inputs);
            mutate(rng, seed, JSON_BITS, &seeds.inputs)
        }
        4 | 5 => fragments(rng, JSON_BITS, 1 + rng.below(30)),
        6 => {
            // Deep or wide nesting, sometimes unclosed.
            let depth = rng.below(300);
            let open: String = (0..depth)
                .map(|_| *rng.pick(&["[", "{\"a\":", "{'a':", "{a:"]))
                .collect();
            let close = if rng.chance(2) {
                "]".repeat(depth)
            } else {
                String::new()
            };
            format!("{open}{}{close}", rng.pick(JSON_BITS))
        }
        _ => {
            let v = random_value(rng, 3);
            mutate(rng, &v.to_string(), JSON_BITS, &seeds.inputs)
        }
    }
}

pub(crate) fn random_value(rng: &Rng, depth: usize) -> Value {
    match rng.below(if depth == 0 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(2)),
        2 => json!(rng.next() as i64 >> rng.below(64)),
        3 => json!(f64::from_bits(rng.next()))
            .as_f64()
            .map_or(json!(0.5), |f| json!(f)),
        4 => Value::String(if rng.chance(2) {
            random_text(rng, 20)
        } else {
            fragments(rng, JSON_BITS, 4)
        }),
        5 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                let key = if rng.chance(2) {
                    rng.pick(&[
                        "expression",
                        "expr",
                        "query",
                        "top_k",
                        "input",
                        "args",
                        "x",
                        "",
                    ])
                    .to_string()
                } else {
                    random_text(rng, 6)
                };
                m.insert(key, random_value(rng, depth - 1));
            }
            Value::Object(m)
        }
    }
}
