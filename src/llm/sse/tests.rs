use super::*;
use StreamEvent::{Delta, Done, Error};

/// A realistic stream: a role-only chunk (content null), a comment, `event`/`id`/`retry`
/// fields, a thinking chunk, multi-byte text, a usage-only chunk and `[DONE]`.
const STREAM: &str = concat!(
    ": keep-alive\n\n",
    "retry: 3000\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\n",
    "event: message\nid: 1\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Thought: 中文\"}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" ok 😀\\nAction: x\"},",
    "\"finish_reason\":null}],\"usage\":null}\n\n",
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5,",
    "\"total_tokens\":17},\"timings\":{\"cache_n\":8,\"prompt_n\":4}}\n\n",
    "data: [DONE]\n\n",
);

fn expected() -> Vec<StreamEvent> {
    vec![
        Delta("Thought: 中文".into()),
        Delta(" ok 😀\nAction: x".into()),
        StreamEvent::Usage(Usage {
            prompt_tokens: Some(12),
            completion_tokens: Some(5),
            cached_tokens: Some(8),
        }),
        Done,
    ]
}

fn decode_str(chunks: &[&str]) -> Vec<StreamEvent> {
    decode_str_with(&SseDecoder::new, chunks)
}

fn decode_str_with(make: &dyn Fn() -> SseDecoder, chunks: &[&str]) -> Vec<StreamEvent> {
    let mut decoder = make();
    let mut events: Vec<StreamEvent> = chunks.iter().flat_map(|c| decoder.push(c)).collect();
    events.extend(decoder.finish());
    events
}

fn decode_bytes<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> Vec<StreamEvent> {
    decode_bytes_with(&SseDecoder::new, chunks)
}

fn decode_bytes_with<'a>(
    make: &dyn Fn() -> SseDecoder,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> Vec<StreamEvent> {
    let mut decoder = make();
    let mut events: Vec<StreamEvent> = chunks
        .into_iter()
        .flat_map(|c| decoder.push_bytes(c))
        .collect();
    events.extend(decoder.finish());
    events
}

/// The stream split into two at every byte, into single bytes and into single characters
/// must decode the same.
fn assert_split_invariant(stream: &str, want: &[StreamEvent]) {
    assert_split_invariant_with(&SseDecoder::new, stream, want);
}

fn assert_split_invariant_with(make: &dyn Fn() -> SseDecoder, stream: &str, want: &[StreamEvent]) {
    assert_eq!(decode_str_with(make, &[stream]), want, "whole");
    let bytes = stream.as_bytes();
    for cut in 0..=bytes.len() {
        let got = decode_bytes_with(make, [&bytes[..cut], &bytes[cut..]]);
        assert_eq!(got, want, "bytes split at {cut}");
        if let (Some(a), Some(b)) = (stream.get(..cut), stream.get(cut..)) {
            assert_eq!(decode_str_with(make, &[a, b]), want, "text split at {cut}");
        }
    }
    assert_eq!(
        decode_bytes_with(make, bytes.chunks(1)),
        want,
        "1-byte chunks"
    );
    let chars: Vec<String> = stream.chars().map(String::from).collect();
    let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(decode_str_with(make, &chars), want, "1-char chunks");
}

#[test]
fn any_split_gives_the_same_events() {
    assert_split_invariant(STREAM, &expected());
}

#[test]
fn crlf_and_cr_line_ends_give_the_same_events() {
    assert_split_invariant(&STREAM.replace('\n', "\r\n"), &expected());
    assert_split_invariant(&STREAM.replace('\n', "\r"), &expected());
}

#[test]
fn saw_done_only_after_done() {
    let mut decoder = SseDecoder::new();
    decoder.push(STREAM.trim_end_matches("data: [DONE]\n\n"));
    decoder.finish();
    assert!(!decoder.saw_done());
    let mut decoder = SseDecoder::new();
    decoder.push(STREAM);
    assert!(decoder.saw_done());
}

#[test]
fn a_stream_without_done_or_final_blank_line_is_flushed_by_finish() {
    let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n\
                  data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}";
    let mut decoder = SseDecoder::new();
    assert_eq!(decoder.push(stream), vec![Delta("a".into())]);
    assert_eq!(decoder.finish(), vec![Delta("b".into())]);
    assert!(!decoder.saw_done());
}

#[test]
fn multi_line_data_is_joined() {
    let stream = "data: {\"choices\":\ndata: [{\"delta\":{\"content\":\"x\"}}]}\n\n";
    assert_eq!(decode_str(&[stream]), vec![Delta("x".into())]);
}

#[test]
fn data_without_space_after_colon_and_legacy_text_chunks() {
    let stream = "data:{\"choices\":[{\"text\":\"legacy\"}]}\n\n";
    assert_eq!(decode_str(&[stream]), vec![Delta("legacy".into())]);
}

#[test]
fn errors_mid_stream_are_reported_and_decoding_goes_on() {
    let server = |m: &str| {
        Error(LlmError::Server {
            message: m.to_string(),
        })
    };
    let cases: &[(&str, Vec<StreamEvent>)] = &[
        (
            "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n\
             data: {\"error\":{\"message\":\"model crashed\",\"type\":\"server_error\"}}\n\n",
            vec![Delta("a".into()), server("model crashed")],
        ),
        (
            "data: {\"error\":\"out of memory\"}\n\n",
            vec![server("out of memory")],
        ),
        // llama.cpp's own form.
        (
            "error: {\"code\":400,\"message\":\"the request exceeds the available context \
             size\",\"type\":\"exceed_context_size_error\"}\n\n",
            vec![server("the request exceeds the available context size")],
        ),
        (
            "event: error\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n\
             data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n",
            vec![server("overloaded"), Delta("b".into())],
        ),
        (
            "event: error\ndata: plain words\n\n",
            vec![server("plain words")],
        ),
        (
            "data: {\"choices\":[{\"delta\"\n\ndata: [DONE]\n\n",
            vec![
                Error(LlmError::Stream {
                    message: "an event is not valid JSON: «{\"choices\":[{\"delta\"»".into(),
                }),
                Done,
            ],
        ),
    ];
    for (stream, want) in cases {
        assert_split_invariant(stream, want);
    }
}

#[test]
fn input_after_done_is_ignored() {
    let stream = "data: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"late\"}}]}\n\n";
    assert_eq!(decode_str(&[stream]), vec![Done]);
}

#[test]
fn a_json_body_instead_of_a_stream() {
    let completion = "{\"choices\":[{\"message\":{\"content\":\"whole\"}}],\
                      \"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}";
    assert_split_invariant(
        completion,
        &[
            Delta("whole".into()),
            StreamEvent::Usage(Usage {
                prompt_tokens: Some(3),
                completion_tokens: Some(1),
                cached_tokens: None,
            }),
            Done,
        ],
    );
    let error_body = "\n{\n  \"error\": {\"message\": \"model not loaded\"}\n}\n";
    assert_split_invariant(
        error_body,
        &[Error(LlmError::Server {
            message: "model not loaded".into(),
        })],
    );
}

#[test]
fn a_body_that_is_not_a_stream() {
    let page = format!("<!DOCTYPE html>\n<html>{}</html>", "x".repeat(500));
    let events = decode_str(&[&page]);
    let [Error(LlmError::NotJson { excerpt })] = events.as_slice() else {
        panic!("unexpected {events:?}");
    };
    assert!(excerpt.starts_with("<!DOCTYPE html>\n<html>xxx"));
    assert!(excerpt.ends_with('…'));
    assert_eq!(excerpt.chars().count(), 201);
    assert_split_invariant(
        "Internal Server Error",
        &[Error(LlmError::NotJson {
            excerpt: "Internal Server Error".into(),
        })],
    );
}

#[test]
fn nothing_but_whitespace_gives_no_events() {
    assert_split_invariant(" \r\n\n", &[]);
    assert_split_invariant("", &[]);
}

#[test]
fn a_bom_and_leading_blank_lines_are_skipped() {
    let stream = "\u{feff}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n";
    assert_split_invariant(stream, &[Delta("x".into())]);
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let mut stream = b"data: {\"choices\":[{\"delta\":{\"content\":\"a".to_vec();
    stream.push(0xFF);
    stream.extend_from_slice("b\"}}]}\n\n".as_bytes());
    assert_eq!(
        decode_bytes([stream.as_slice()]),
        vec![Delta("a\u{FFFD}b".into())]
    );
    // A body cut inside a character: the partial character is flushed as U+FFFD.
    let cut = "data: {\"choices\":[{\"delta\":{\"content\":\"中".as_bytes();
    let mut decoder = SseDecoder::new();
    assert!(decoder.push_bytes(&cut[..cut.len() - 1]).is_empty());
    let events = decoder.finish();
    assert!(
        matches!(events.as_slice(), [Error(LlmError::Stream { .. })]),
        "{events:?}"
    );
}

#[test]
fn events_round_trip_through_json() {
    let events = vec![
        Delta("hi".into()),
        StreamEvent::Usage(Usage::default()),
        Done,
        Error(LlmError::EmptyReply),
    ];
    let text = serde_json::to_string(&events).unwrap();
    assert!(
        text.starts_with(r#"[{"type":"delta","data":"hi"}"#),
        "{text}"
    );
    let back: Vec<StreamEvent> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, events);
}

/// A decoder with small limits, so every split of a stream over them can be tried.
fn small() -> SseDecoder {
    SseDecoder::with_limits(64, 100)
}

fn too_large(part: Oversized, limit_bytes: usize) -> StreamEvent {
    Error(LlmError::TooLarge { part, limit_bytes })
}

/// One event in the short legacy form: `data: {"choices":[{"text":"…"}]}`.
fn text_event(text: &str) -> String {
    format!("data: {{\"choices\":[{{\"text\":\"{text}\"}}]}}\n\n")
}

#[test]
fn a_line_that_never_ends_stops_the_decoder() {
    let want = [too_large(Oversized::StreamLine, 64)];
    // As the first line, and after a good event; the rest is ignored, [DONE] included.
    let endless = format!("data: {}", "x".repeat(100));
    assert_split_invariant_with(&small, &endless, &want);
    let after = format!("{}{endless}\n\ndata: [DONE]\n\n", text_event("a"));
    assert_split_invariant_with(&small, &after, &[Delta("a".into()), want[0].clone()]);
    // A line of exactly the limit is fine, one byte more is not.
    let exact = text_event(&"b".repeat(64 - text_event("").trim_end().len()));
    assert_eq!(exact.trim_end().len(), 64);
    let text = "b".repeat(64 - text_event("").trim_end().len());
    assert_split_invariant_with(&small, &exact, &[Delta(text.clone())]);
    assert_split_invariant_with(&small, &text_event(&format!("{text}b")), &want);
}

#[test]
fn an_event_that_never_ends_stops_the_decoder() {
    let want = [too_large(Oversized::StreamEvent, 64)];
    assert_split_invariant_with(&small, &"data: 12345\n".repeat(12), &want);
    assert_split_invariant_with(&small, &"error: 12345\n".repeat(12), &want);
}

#[test]
fn a_reply_text_over_the_limit_stops_the_decoder() {
    let stream = text_event(&"a".repeat(10)).repeat(12) + "data: [DONE]\n\n";
    let mut want = vec![Delta("a".repeat(10)); 10];
    want.push(too_large(Oversized::StreamedText, 100));
    assert_split_invariant_with(&small, &stream, &want);
    let mut decoder = small();
    decoder.push(&stream);
    assert!(!decoder.saw_done());
}

#[test]
fn a_json_body_over_the_limit_is_refused() {
    let body = |n: usize| {
        format!(
            "{{\"choices\":[{{\"message\":{{\"content\":\"{}\"}}}}]}}",
            "a".repeat(n)
        )
    };
    assert_split_invariant_with(&small, &body(80), &[too_large(Oversized::Body, 100)]);
    assert_eq!(body(60).len(), 100);
    assert_eq!(decode_str_with(&small, &[&body(60)]).len(), 2);
}

#[test]
fn a_long_first_line_that_is_not_a_stream_keeps_only_its_start() {
    let page = format!("<html>{}", "x".repeat(500));
    let events = decode_str_with(&small, &[&page]);
    assert_eq!(events, decode_str(&[&page]));
    assert!(
        matches!(events.as_slice(), [Error(LlmError::NotJson { excerpt })] if excerpt.ends_with('…')),
        "{events:?}"
    );
    assert_split_invariant_with(&small, &page, &events);
}

/// The real limit: a line of a megabyte and more, in network-sized pieces, stops at the
/// limit with nothing left buffered, and what comes after is ignored.
#[test]
fn the_real_line_limit_is_one_megabyte() {
    let mut decoder = SseDecoder::new();
    let mut events = decoder.push_bytes(b"data: ");
    let piece = vec![b'x'; 64 * 1024];
    for _ in 0..16 {
        events.extend(decoder.push_bytes(&piece));
    }
    assert_eq!(
        events,
        vec![too_large(Oversized::StreamLine, MAX_STREAM_LINE_BYTES)]
    );
    assert_eq!(MAX_STREAM_LINE_BYTES, 1_000_000);
    assert_eq!(
        (
            decoder.line.capacity(),
            decoder.head.capacity(),
            decoder.data.capacity()
        ),
        (0, 0, 0)
    );
    assert!(decoder.push_bytes(&piece).is_empty());
    assert!(decoder.push(&text_event("late")).is_empty());
    assert!(decoder.finish().is_empty());
    assert!(!decoder.saw_done());
    let message = LlmError::TooLarge {
        part: Oversized::StreamLine,
        limit_bytes: MAX_STREAM_LINE_BYTES,
    }
    .to_string();
    assert!(
        message.contains("ran past 1 MB without ending"),
        "{message}"
    );
}

#[test]
fn a_json_body_of_more_than_four_megabytes_is_refused() {
    let mut decoder = SseDecoder::new();
    let mut events = decoder.push("{\"choices\":[{\"message\":{\"content\":\"");
    let piece = "a".repeat(1 << 20);
    for _ in 0..4 {
        events.extend(decoder.push(&piece));
    }
    events.extend(decoder.finish());
    assert_eq!(events, vec![too_large(Oversized::Body, MAX_REPLY_BYTES)]);
    assert_eq!(decoder.head.capacity(), 0);
}
