//! What each target does with an input, and the invariants checked beyond "does not panic":
//! spans on char boundaries, a streamed reply within the limit, a loaded trace that loads again.

use crate::seeds::Seeds;
use crate::Input;
use reactloop::lang::Lang;
use reactloop::llm::{SseDecoder, StreamEvent};
use reactloop::parse::{
    cut_observation, parse_json_lenient, parse_reply, parse_reply_after_final_answer,
};
use reactloop::tools::HostContext;
use reactloop::trace::Trace;
use serde_json::Value;

/// Runs one input; a panic (or a broken invariant, which panics) is caught by the caller.
pub(crate) fn run(target: &str, input: &Input, call: Option<&(String, Value)>, seeds: &Seeds) {
    match (target, input) {
        ("parse", Input::Text(text)) => {
            for result in [parse_reply(text), parse_reply_after_final_answer(text)] {
                let spans = &result.spans;
                for span in [spans.thought, spans.action, spans.input, spans.answer]
                    .into_iter()
                    .flatten()
                {
                    assert!(
                        span.start <= span.end && text.get(span.start..span.end).is_some(),
                        "span {span:?} is not on char boundaries inside a reply of {} bytes",
                        text.len()
                    );
                }
            }
            let (kept, _) = cut_observation(text);
            assert!(
                text.starts_with(kept),
                "cut_observation returned text not at the start"
            );
        }
        ("json", Input::Text(text)) => {
            let _ = parse_json_lenient(text);
        }
        ("calc", Input::Text(expr)) => {
            let _ = reactloop::tools::evaluate(expr).map(reactloop::tools::format_number);
            if let Some((tool, input)) = call {
                if let Ok(call) = seeds.registry.dispatch(tool, input) {
                    let _ = seeds
                        .registry
                        .run_builtin(&call, &HostContext::default(), Lang::En);
                }
            }
        }
        (
            "sse",
            Input::Stream {
                body,
                cuts,
                as_text,
            },
        ) => {
            let mut decoder = SseDecoder::new();
            let mut events = Vec::new();
            let mut at = 0;
            for &n in cuts {
                let chunk = &body[at..at + n];
                at += n;
                if *as_text {
                    events.extend(decoder.push(std::str::from_utf8(chunk).unwrap_or("")));
                } else {
                    events.extend(decoder.push_bytes(chunk));
                }
            }
            events.extend(decoder.finish());
            let text: usize = events
                .iter()
                .map(|e| match e {
                    StreamEvent::Delta(d) => d.len(),
                    _ => 0,
                })
                .sum();
            assert!(
                text <= reactloop::limits::MAX_REPLY_BYTES,
                "more text than the reply limit"
            );
        }
        ("trace", Input::Text(text)) => {
            if let Ok(trace) = Trace::from_json(text) {
                let saved = serde_json::to_string(&trace).expect("a loaded trace serialises");
                if let Err(e) = Trace::from_json(&saved) {
                    panic!("a loaded trace does not load again once saved: {e}");
                }
            }
        }
        _ => unreachable!("input kind matches its target"),
    }
}
