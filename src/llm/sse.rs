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
mod tests;
