//! A run as a page draws it: a recorded step (or a whole trace) as JSON, with a `view` object
//! added that holds what a page would otherwise work out itself: every sentence in every
//! interface language ([`crate::sentences`]), a model error's message and fix, and the parse's
//! spans in UTF-16 code units (JavaScript string indices) instead of UTF-8 bytes. A saved
//! trace (`exportTrace`) carries its views, so a page can replay it without the wasm;
//! `loadTrace` ignores them and writes them anew.

use serde_json::{json, Value};

use crate::parse::{Parsed, Span};
use crate::sentences;
use crate::told;
use crate::trace::{plan_progress, Step, Trace};

/// One step, for its card. `page_origin` phrases a model error's fix for this page.
pub fn step(step: &Step, page_origin: &str) -> Result<Value, serde_json::Error> {
    let mut value = value_of(step)?;
    let parse = step.parse.as_ref();
    let format_error = parse.and_then(|p| match &p.parsed {
        Parsed::Error { error } => Some(sentences::format_error(error)),
        _ => None,
    });
    let text = step.reply.as_ref().map_or("", |r| r.text.as_str());
    let spans = parse.map(|p| {
        let s = &p.spans;
        json!({
            "thought": utf16(text, s.thought),
            "action": utf16(text, s.action),
            "input": utf16(text, s.input),
            "answer": utf16(text, s.answer),
        })
    });
    value["view"] = json!({
        "guards": step.guards.iter().map(sentences::guard).collect::<Vec<_>>(),
        "format_error": format_error,
        "repairs": parse.map_or(Vec::new(), |p| p.repairs.iter().map(|r| sentences::repair(*r)).collect()),
        "notes": step.call.as_ref().map_or(Vec::new(), |c| c.notes.iter().map(sentences::note).collect()),
        "error": step.error.as_ref().map(|e| json!({"message": sentences::llm_error(e), "hint": sentences::hint(e, page_origin)})),
        "spans": spans,
        "avoid": step.request.avoid.as_ref().map(sentences::avoid),
        "must_answer": step.request.must_answer.map(sentences::must_answer),
        "steer": step.request.steer.as_ref().map(sentences::steer),
        "unsteered": step.request.unsteered.as_deref().map(sentences::unsteered),
        "left_out": (!step.request.left_out.is_empty())
            .then(|| sentences::left_out(&step.request.left_out)),
        "fits": step.request.fits.iter().map(sentences::fit).collect::<Vec<_>>(),
    });
    Ok(value)
}

/// A whole trace: every step as [`step`] draws it, and the outcome's sentence and the model's
/// name in `view`.
pub fn trace(trace: &Trace, page_origin: &str) -> Result<Value, serde_json::Error> {
    let mut value = value_of(trace)?;
    let mut steps: Vec<Value> = (trace.steps.iter())
        .map(|s| step(s, page_origin))
        .collect::<Result<_, _>>()?;
    for (i, (view, texts)) in steps.iter_mut().zip(sent_texts(trace)).enumerate() {
        view["view"]["texts"] = json!(texts);
        view["view"]["plan"] = json!(plan_progress(&trace.steps[..=i]));
    }
    value["steps"] = Value::Array(steps);
    value["view"] = json!({
        "outcome": trace.outcome.as_ref().map(sentences::outcome),
        "model": trace.model.as_deref().map(sentences::model),
    });
    Ok(value)
}

/// `item` as a JSON value, read back from the text serde_json writes for it: each type's
/// `Serialize` is then built once in the wasm, for the text writer the page's values cross in
/// (the `Value` serializer built it a second time, about 18 KB of code).
pub fn value_of<T: serde::Serialize + ?Sized>(item: &T) -> Result<Value, serde_json::Error> {
    serde_json::from_str(&serde_json::to_string(item)?)
}

/// For each step, the templates of what the loop tells the model ([`crate::told::ALL`]) that its
/// request was the first to send: those in the text it adds to the previous request (each
/// request extends the last one, but after a trim), and the openings a constraint writes
/// first. The model's own reply, which the next request repeats, is not the loop's.
fn sent_texts(trace: &Trace) -> Vec<Vec<&'static str>> {
    let voice = trace.config.prompt.voice();
    let mut before = String::new();
    let mut reply = "";
    (trace.steps.iter())
        .map(|step| {
            let request = &step.request;
            let text: String = (request.messages.iter())
                .map(|m| m.content.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let mut same = (text.bytes().zip(before.bytes()))
                .take_while(|(a, b)| a == b)
                .count();
            while !text.is_char_boundary(same) {
                same -= 1;
            }
            let mut new = text[same..].replacen(reply, "", 1);
            for opening in [&request.thought_prefix, &request.answer_prefix] {
                new.extend(opening.as_deref().map(|o| format!("\n{o}")));
            }
            reply = step.reply.as_ref().map_or("", |r| r.text.trim());
            before = text;
            told::found_in(&new, voice)
        })
        .collect()
}

/// A byte span of `text` in UTF-16 code units; `None` when it does not fit the text (a
/// damaged file).
fn utf16(text: &str, span: Option<Span>) -> Option<Span> {
    let span = span?;
    let units = |end: usize| text.get(..end).map(|t| t.encode_utf16().count());
    Some(Span {
        start: units(span.start)?,
        end: units(span.end)?,
    })
}

/// The TypeScript union of each fieldless enum a page is given (`export type MustAnswer =
/// 'repeated_call' | …;`), from its variants: scripts/build appends them to the wasm's
/// declarations (`unions()`), so a new variant needs no line in `wasm/src/types.d.ts`.
pub fn unions() -> String {
    use crate::{ask, history, llm, parse, tools, trace};
    let union = |name: &str, variants: &[&str]| {
        let names: Vec<String> = (variants.iter())
            .map(|v| format!("'{}'", crate::fields::snake_case(v)))
            .collect();
        format!("export type {name} = {};\n", names.join(" | "))
    };
    [
        union("MustAnswer", &ask::MustAnswer::VARIANTS),
        union("AvoidWhy", &ask::AvoidWhy::VARIANTS),
        union("SteerWhy", &ask::SteerWhy::VARIANTS),
        union("Constrained", &llm::Constrained::VARIANTS),
        union("ServerKind", &llm::ServerKind::VARIANTS),
        union("MessageRole", &llm::Role::VARIANTS),
        union("ToolRole", &tools::Role::VARIANTS),
        union("Builtin", &tools::Builtin::VARIANTS),
        union("ObservationSource", &trace::ObservationSource::VARIANTS),
        union("MessageStyle", &history::MessageStyle::VARIANTS),
        union("Repair", &parse::Repair::VARIANTS),
    ]
    .concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_count_utf16_units_and_bad_ones_are_left_out() {
        let text = "Thought: 想 😀 ok";
        let ok = text.find("ok").unwrap();
        assert_eq!(
            utf16(
                text,
                Some(Span {
                    start: ok,
                    end: ok + 2
                })
            ),
            // "Thought: " 9, 想 1, space 1, 😀 2, space 1.
            Some(Span { start: 14, end: 16 })
        );
        // Inside the 4-byte emoji, or past the end.
        let emoji = text.find('😀').unwrap();
        assert_eq!(
            utf16(
                text,
                Some(Span {
                    start: emoji + 1,
                    end: ok
                })
            ),
            None
        );
        assert_eq!(utf16(text, Some(Span { start: 0, end: 99 })), None);
    }
}
