//! The names a question gives, and an answer that leaves one out. "How many more people live in
//! Norway than in Iceland?": the 0.5B model looked up Norway and answered with its figure.

use super::RunSoFar;
use crate::lower::Lower;
use crate::tools::fit::names;
use crate::tools::{names_place, places};

/// A name the question gives that no call, no Observation and not the answer holds, when a
/// call was given another of its names as a whole argument and succeeded: the same tool, for
/// this one, is the step left out. The name as the question writes it, the tool and its
/// parameter. Once a run, with [`super::numbers::unused_number`].
pub(super) fn unused_name(answer: &str, run: &RunSoFar) -> Option<(String, String, String)> {
    if run.last_step || run.answer_asked || run.sent_back.number || run.steered {
        return None;
    }
    // Names written as names, and places in any language (冰岛, "oslo").
    let mut given = names(run.question);
    for place in places(run.question).into_iter().map(|place| place.lower()) {
        if !given.contains(&place) {
            given.push(place);
        }
    }
    let same = |text: &str, name: &str| text.contains(name) || names_place(text, name);
    let (tool, param) = run.calls.iter().filter(|c| c.succeeded).find_map(|c| {
        let map = c.args.as_object()?;
        map.iter().find_map(|(param, value)| {
            let value = value.as_str()?.trim().lower();
            (given.iter())
                .any(|name| *name == value || names_place(&value, name))
                .then(|| (c.tool.clone(), param.clone()))
        })
    })?;
    let lower = |text: &str| text.lower();
    let held: Vec<String> = (run
        .calls
        .iter()
        .map(|c| lower(&crate::fields::json_text(&c.args))))
    .chain(run.observations.iter().map(|o| lower(o)))
    .chain([lower(answer)])
    .collect();
    let left = given
        .iter()
        .find(|name| !held.iter().any(|text| same(text, name)))?;
    // As the question writes it.
    let at = lower(run.question).find(left.as_str())?;
    let name = run.question.get(at..at + left.len())?.to_string();
    Some((name, tool, param))
}
