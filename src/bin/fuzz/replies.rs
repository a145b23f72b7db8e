//! Inputs for the reply parser: corpus replies mutated, and replies built from labels, JSON
//! and free text.

use crate::fragments::{boundary, fragments, long_run, mutate, random_text, JSON_BITS, LABELS};
use crate::rng::{rng_pick_str, Rng};
use crate::seeds::Seeds;

pub(crate) fn gen_reply(rng: &Rng, seeds: &Seeds) -> String {
    match rng.below(10) {
        0..=4 => {
            let seed = rng_pick_str(rng, &seeds.replies);
            mutate(rng, seed, LABELS, &seeds.replies)
        }
        5 | 6 => {
            let count = 1 + rng.below(24);
            let pool: &[&str] = if rng.chance(2) { LABELS } else { JSON_BITS };
            let mut s = fragments(rng, LABELS, count);
            let n = rng.below(12);
            s.push_str(&fragments(rng, pool, n));
            s
        }
        7 => {
            // A well-formed reply with random pieces in each slot.
            let input = if rng.chance(2) {
                let seed = rng_pick_str(rng, &seeds.inputs);
                mutate(rng, seed, JSON_BITS, &seeds.inputs)
            } else {
                {
                    let n = rng.below(10);
                    fragments(rng, JSON_BITS, n)
                }
            };
            format!(
                "{} {}\n{} {}\n{} {}",
                rng.pick(&["Thought:", "思考：", "Thought：", ""]),
                random_text(rng, 30),
                rng.pick(&["Action:", "行动：", "Action：", "action:"]),
                rng.pick(&[
                    "calculator",
                    "search_docs",
                    "final_answer",
                    "Calc",
                    "",
                    "None"
                ]),
                rng.pick(&["Action Input:", "行动输入：", "Input:"]),
                input
            )
        }
        8 => random_text(rng, 200),
        _ => {
            let mut s = rng_pick_str(rng, &seeds.replies).to_string();
            let at = boundary(&s, rng.below(s.len() + 1));
            s.insert_str(at, &long_run(rng));
            s
        }
    }
}
