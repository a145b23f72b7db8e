//! Decoding a streamed chat completion (server-sent events) chunk by chunk.
//!
//! The driver feeds whatever the network delivers, split anywhere, and gets back the events
//! completed so far; the sequence of events does not depend on how the body was split.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::{excerpt, server_error, stream_error, Oversized, EXCERPT_CHARS};
use super::{parse_chat_response, usage_in, LlmError, Usage};
use crate::limits::{MAX_REPLY_BYTES, MAX_STREAM_LINE_BYTES};

/// Adjacently tagged (`{"type": "delta", "data": "Hi"}`), since `Delta` holds a bare string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum StreamEvent {
    /// Text to append to the reply.
    Delta(String),
    /// Token counts, usually in the last chunk; if several come, the last one wins.
    Usage(Usage),
    /// `data: [DONE]`: the reply is complete. Later input is ignored.
    Done,
    /// The server reported an error, or an event was unreadable. The decoder carries on; the
    /// driver decides whether to stop. After [`LlmError::TooLarge`] it ignores the rest.
    Error(LlmError),
}

/// Feed with [`push`](Self::push) (text) or [`push_bytes`](Self::push_bytes) (raw bytes), then
/// call [`finish`](Self::finish) once at the end of the body. A stream that ended without
/// `[DONE]` is reported by [`saw_done`](Self::saw_done) being false after `finish`.
///
/// Handles `\n`, `\r\n` and `\r` line ends, comments (`: keep-alive`), `event:`/`id:`/`retry:`
/// fields, multi-line `data:`, `event: error`, llama.cpp's `error: {...}` line, and error
/// objects in `data:`. `delta.reasoning_content` (thinking models) is ignored: the agent
/// parses only the answer text. A body that is not an event stream at all is recognised by
/// its first line: JSON (a server that ignored `stream: true`, or an error body sent with 200)
/// is parsed as a whole reply at `finish`; anything else (an HTML page) becomes
/// [`LlmError::NotJson`].
///
/// Nothing grows without bound: a line or an event over [`MAX_STREAM_LINE_BYTES`], a JSON
/// body or a reply text over [`MAX_REPLY_BYTES`] gives [`LlmError::TooLarge`], and then the
/// decoder stops: what is buffered is dropped and later input is ignored.
#[derive(Debug)]
pub struct SseDecoder {
    mode: Mode,
    /// The limits: [`MAX_STREAM_LINE_BYTES`] for a line or an event, [`MAX_REPLY_BYTES`] for a
    /// JSON body and for the reply's text (smaller in tests).
    max_line: usize,
    max_text: usize,
    /// Bytes of reply text sent out in `Delta`s so far.
    text_bytes: usize,
    /// Bytes of a UTF-8 sequence split across `push_bytes` chunks.
    utf8_tail: Vec<u8>,
    /// `Detect`: the first line so far. `Json`: the whole body. `Other`: the body's start.
    head: String,
    /// The current, unfinished line of the stream.
    line: String,
    /// The current event's data lines, each followed by `\n`.
    data: String,
    is_error_event: bool,
    /// The last character was `\r`, so a `\n` right after it ends no second line.
    after_cr: bool,
    done: bool,
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
enum Mode {
    /// Nothing but whitespace seen yet, or the first line is incomplete.
    #[default]
    Detect,
    Sse,
    Json,
    Other,
    /// A limit was passed: everything else is ignored.
    Stopped,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::with_limits(MAX_STREAM_LINE_BYTES, MAX_REPLY_BYTES)
    }
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    fn with_limits(max_line: usize, max_text: usize) -> Self {
        Self {
            mode: Mode::Detect,
            max_line,
            max_text,
            text_bytes: 0,
            utf8_tail: Vec::new(),
            head: String::new(),
            line: String::new(),
            data: String::new(),
            is_error_event: false,
            after_cr: false,
            done: false,
        }
    }

    /// Whether `data: [DONE]` arrived (or a whole non-streamed reply was parsed).
    pub fn saw_done(&self) -> bool {
        self.done
    }

    pub fn push(&mut self, chunk: &str) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        self.feed(chunk, &mut out);
        out
    }

    /// Like [`push`](Self::push) for raw bytes: a multi-byte character split between two
    /// chunks is held back until it is complete; invalid bytes become U+FFFD. Feed one stream
    /// through either `push` or `push_bytes`, not both.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        if self.mode == Mode::Stopped {
            return Vec::new();
        }
        self.utf8_tail.extend_from_slice(bytes);
        let mut text = String::new();
        let mut rest: &[u8] = &self.utf8_tail;
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    text.push_str(valid);
                    rest = &[];
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    text.push_str(&String::from_utf8_lossy(valid));
                    match e.error_len() {
                        Some(bad) => {
                            text.push('\u{FFFD}');
                            rest = after.get(bad..).unwrap_or_default();
                        }
                        // An incomplete sequence at the end: wait for the next chunk.
                        None => {
                            rest = after;
                            break;
                        }
                    }
                }
            }
        }
        self.utf8_tail = rest.to_vec();
        self.push(&text)
    }

    /// Ends the body: flushes an incomplete character, line and event, and reports a body
    /// that was not an event stream.
    pub fn finish(&mut self) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        if !self.utf8_tail.is_empty() {
            let tail = String::from_utf8_lossy(&std::mem::take(&mut self.utf8_tail)).into_owned();
            self.feed(&tail, &mut out);
        }
        if self.mode == Mode::Detect && !self.head.is_empty() {
            self.classify(&mut out);
        }
        match self.mode {
            // Only whitespace arrived: the driver sees no text and reports an empty reply.
            Mode::Detect => {}
            Mode::Sse => {
                if !self.line.is_empty() {
                    self.end_line(&mut out);
                }
                self.dispatch(&mut out);
            }
            Mode::Json => match parse_chat_response(&std::mem::take(&mut self.head)) {
                Ok((text, usage)) => {
                    out.push(StreamEvent::Delta(text));
                    if usage != Usage::default() {
                        out.push(StreamEvent::Usage(usage));
                    }
                    out.push(StreamEvent::Done);
                    self.done = true;
                }
                Err(e) => out.push(StreamEvent::Error(e)),
            },
            Mode::Other => out.push(StreamEvent::Error(LlmError::NotJson {
                excerpt: excerpt(&std::mem::take(&mut self.head)),
            })),
            Mode::Stopped => {}
        }
        out
    }

    fn feed(&mut self, text: &str, out: &mut Vec<StreamEvent>) {
        match self.mode {
            Mode::Detect => self.detect(text, out),
            Mode::Sse => self.feed_sse(text, out),
            Mode::Json => {
                self.head.push_str(text);
                if self.head.len() > self.max_text {
                    self.stop(Oversized::Body, out);
                }
            }
            Mode::Other => self.keep_start(text),
            Mode::Stopped => {}
        }
    }

    /// A limit was passed: says which, drops what is buffered and ignores the rest.
    fn stop(&mut self, part: Oversized, out: &mut Vec<StreamEvent>) {
        let limit_bytes = match part {
            Oversized::Body | Oversized::StreamedText => self.max_text,
            Oversized::StreamLine | Oversized::StreamEvent => self.max_line,
        };
        self.mode = Mode::Stopped;
        self.head = String::new();
        self.line = String::new();
        self.data = String::new();
        out.push(StreamEvent::Error(LlmError::TooLarge { part, limit_bytes }));
    }

    fn detect(&mut self, text: &str, out: &mut Vec<StreamEvent>) {
        let mut text = text;
        if self.head.is_empty() {
            // Leading blank lines mean nothing in an event stream; a BOM is allowed before it.
            text = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
            if text.starts_with(['{', '[']) {
                self.mode = Mode::Json;
                return self.feed(text, out);
            }
        }
        match text.find(['\r', '\n']) {
            None => {
                self.head.push_str(text);
                // A first line that never ends is classified by what there is: a stream's
                // line is then too long, anything else keeps only its start.
                if self.head.len() > self.max_line {
                    self.classify(out);
                }
            }
            Some(end) => {
                self.head.push_str(&text[..end]);
                self.classify(out);
                self.feed(&text[end..], out);
            }
        }
    }

    /// Decides from the first line whether the body is an event stream, then replays it.
    fn classify(&mut self, out: &mut Vec<StreamEvent>) {
        let first = std::mem::take(&mut self.head);
        let field = first.split(':').next().unwrap_or_default();
        let is_sse =
            first.starts_with(':') || matches!(field, "data" | "event" | "id" | "retry" | "error");
        if is_sse {
            self.mode = Mode::Sse;
            self.feed_sse(&first, out);
        } else {
            self.mode = Mode::Other;
            self.keep_start(&first);
        }
    }

    /// Keeps only what an error excerpt shows, however long the page.
    fn keep_start(&mut self, text: &str) {
        // One more than the excerpt shows, so that it is marked as cut.
        let room = (EXCERPT_CHARS + 1).saturating_sub(self.head.chars().count());
        self.head.extend(text.chars().take(room));
    }

    fn feed_sse(&mut self, text: &str, out: &mut Vec<StreamEvent>) {
        for c in text.chars() {
            if std::mem::take(&mut self.after_cr) && c == '\n' {
                continue;
            }
            match c {
                '\r' => {
                    self.after_cr = true;
                    self.end_line(out);
                }
                '\n' => self.end_line(out),
                c => {
                    self.line.push(c);
                    if self.line.len() > self.max_line {
                        self.stop(Oversized::StreamLine, out);
                    }
                }
            }
            if self.mode == Mode::Stopped {
                return;
            }
        }
    }

    fn end_line(&mut self, out: &mut Vec<StreamEvent>) {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line.starts_with(':') {
            return; // a comment, such as a keep-alive
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_str(), ""),
        };
        match field {
            "data" => self.push_data(value, out),
            "event" => self.is_error_event = value == "error",
            // llama.cpp reports a failure mid-stream as an `error: {...}` line.
            "error" => {
                self.push_data(value, out);
                self.is_error_event = true;
            }
            // `id`, `retry` and unknown fields carry nothing a completion needs.
            _ => {}
        }
    }

    /// One more data line of the current event; many short lines without the blank line that
    /// ends an event must not pile up either.
    fn push_data(&mut self, value: &str, out: &mut Vec<StreamEvent>) {
        self.data.push_str(value);
        self.data.push('\n');
        if self.data.len() > self.max_line {
            self.stop(Oversized::StreamEvent, out);
        }
    }

    fn dispatch(&mut self, out: &mut Vec<StreamEvent>) {
        let is_error = std::mem::take(&mut self.is_error_event);
        let data = std::mem::take(&mut self.data);
        let payload = data.trim();
        if payload.is_empty() || self.done {
            return;
        }
        if is_error {
            out.push(StreamEvent::Error(stream_error(payload)));
            return;
        }
        if payload == "[DONE]" {
            self.done = true;
            out.push(StreamEvent::Done);
            return;
        }
        let value: Value = match serde_json::from_str(payload) {
            Ok(value) => value,
            Err(_) => {
                out.push(StreamEvent::Error(LlmError::Stream {
                    message: format!("an event is not valid JSON: «{}»", excerpt(payload)),
                }));
                return;
            }
        };
        if let Some(err) = server_error(&value) {
            out.push(StreamEvent::Error(err));
            return;
        }
        // `content` is null or absent in role-only, finish and usage chunks.
        let text = value
            .pointer("/choices/0/delta/content")
            .and_then(Value::as_str)
            .or_else(|| value.pointer("/choices/0/text").and_then(Value::as_str));
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            self.text_bytes += text.len();
            if self.text_bytes > self.max_text {
                return self.stop(Oversized::StreamedText, out);
            }
            out.push(StreamEvent::Delta(text.to_string()));
        }
        if let Some(usage) = usage_in(&value) {
            out.push(StreamEvent::Usage(usage));
        }
    }
}

#[cfg(test)]
mod tests {
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
        "\"total_tokens\":17}}\n\n",
        "data: [DONE]\n\n",
    );

    fn expected() -> Vec<StreamEvent> {
        vec![
            Delta("Thought: 中文".into()),
            Delta(" ok 😀\nAction: x".into()),
            StreamEvent::Usage(Usage {
                prompt_tokens: Some(12),
                completion_tokens: Some(5),
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

    fn assert_split_invariant_with(
        make: &dyn Fn() -> SseDecoder,
        stream: &str,
        want: &[StreamEvent],
    ) {
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
}
