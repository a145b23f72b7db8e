//! An input's value: JSON when it is JSON (repaired when it starts like JSON), a quoted string
//! unquoted, JSON inside a pseudo call, a fenced block unfenced, anything else kept as text;
//! and the answer a `final_answer` action carries.

use super::json_action::{member, ANSWER_KEYS};
use super::Cx;
use crate::parse::json;
use crate::parse::scan::{self, fence_marker, Scan};
use crate::parse::{parse_json_lenient, FormatError, Parsed, Repair, Span};
use serde_json::Value;

impl<'a> Cx<'a> {
    /// Reads an input: JSON when it is JSON (repaired if it starts like JSON), a quoted string
    /// unquoted, JSON inside `Wrapper(...)` extracted, anything else kept as text.
    pub(super) fn value_of(&mut self, sp: Span) -> Result<(Value, Span), FormatError> {
        let src = self.str(sp);
        if let Ok(v) = serde_json::from_str::<Value>(src) {
            return Ok((self.decode_string_json(v), sp));
        }
        match src.as_bytes().first() {
            Some(b'{' | b'[') => {
                let (v, end, reps) = json::parse_json_prefix(&self.text[..sp.end], sp.start)?;
                self.repairs(reps);
                if !self.text[end..sp.end]
                    .trim()
                    .trim_matches('`')
                    .trim()
                    .is_empty()
                {
                    self.repair(Repair::TrailingTextIgnored);
                }
                Ok((
                    self.decode_string_json(v),
                    Span {
                        start: sp.start,
                        end,
                    },
                ))
            }
            Some(b'\'' | b'"') => match parse_json_lenient(src) {
                Ok((v, reps)) => {
                    self.repairs(reps);
                    Ok((v, sp))
                }
                // `"what is the weather` with no other double quote: the quote is dropped.
                Err(_) if src.starts_with('"') && !src[1..].contains('"') => {
                    self.repair(Repair::UnbalancedQuote);
                    let inner = self.trim(sp.start + 1, sp.end);
                    Ok((Value::String(self.str(inner).to_string()), inner))
                }
                Err(_) => Ok((Value::String(src.to_string()), sp)),
            },
            _ => Ok(self
                .wrapped_json(sp)
                .unwrap_or_else(|| (Value::String(src.to_string()), sp))),
        }
    }

    /// `SomeWrapper({"a": 1})`: the JSON inside a pseudo call.
    fn wrapped_json(&mut self, sp: Span) -> Option<(Value, Span)> {
        let src = self.str(sp);
        let open = src.find('(')?;
        let name = src[..open].trim_end();
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
        if !src.ends_with(')') || name.is_empty() || !name.chars().all(plain) {
            return None;
        }
        let inner = self.trim(sp.start + open + 1, sp.end - 1);
        if !self.str(inner).starts_with(['{', '[']) {
            return None;
        }
        let (v, reps) = parse_json_lenient(self.str(inner)).ok()?;
        self.repairs(reps);
        self.repair(Repair::JsonExtractedFromProse);
        Some((v, inner))
    }

    /// A string that holds a JSON object or array (e.g. OpenAI-style `"arguments": "{...}"`).
    pub(super) fn decode_string_json(&mut self, v: Value) -> Value {
        if let Value::String(s) = &v {
            if s.trim_start().starts_with(['{', '[']) {
                if let Ok(inner @ (Value::Object(_) | Value::Array(_))) = serde_json::from_str(s) {
                    self.repair(Repair::StringJsonDecoded);
                    return inner;
                }
            }
        }
        v
    }

    /// The answer carried by a `final_answer` action: a string, `{"answer": ...}`, or the raw
    /// text when it is some other JSON.
    pub(super) fn final_from_value(
        &mut self,
        v: Value,
        mut sp: Option<Span>,
    ) -> Result<Parsed, FormatError> {
        let answer = match &v {
            // `{}` (constrained JSON modes allow it) says nothing, like an empty string.
            Value::Null => String::new(),
            Value::Object(map) if map.is_empty() => String::new(),
            Value::Array(items) if items.is_empty() => String::new(),
            Value::String(s) => s.clone(),
            Value::Object(map) => match ANSWER_KEYS.iter().find_map(|k| map.get(*k)) {
                Some(inner) => {
                    self.repair(Repair::AnswerUnwrapped);
                    sp = sp.map(|sp| self.answer_member_span(sp).unwrap_or(sp));
                    inner
                        .as_str()
                        .map_or_else(|| crate::fields::json_text(inner), str::to_string)
                }
                // `{"expression": "42"}`: small models reuse a tool's key for the answer.
                None => match map.values().next() {
                    Some(Value::String(only)) if map.len() == 1 => {
                        self.repair(Repair::AnswerUnwrapped);
                        only.clone()
                    }
                    // Some other object: the answer is the text as the model wrote it.
                    _ => sp.map_or_else(
                        || crate::fields::json_text(&v),
                        |sp| self.str(sp).to_string(),
                    ),
                },
            },
            _ => sp.map_or_else(
                || crate::fields::json_text(&v),
                |sp| self.str(sp).to_string(),
            ),
        };
        let answer = answer.trim();
        if answer.is_empty() {
            return Err(FormatError::EmptyAnswer);
        }
        self.spans.answer = sp;
        Ok(Parsed::Final {
            answer: answer.to_string(),
        })
    }

    /// Where the `answer` value sits inside the object (or `answer=...` arguments) written at
    /// `sp`, for highlighting.
    fn answer_member_span(&self, sp: Span) -> Option<Span> {
        let members = match self.str(sp).starts_with('{') {
            true => json::object_members(&self.text[..sp.end], sp.start)?.0,
            false => json::keyword_args(self.text, sp.start, sp.end)?.0,
        };
        member(&members, ANSWER_KEYS).map(|(_, _, inner)| self.unquoted(*inner))
    }

    /// If `sp` starts with a code fence, the fenced content (to the closing fence, or to the
    /// end when it is never closed).
    pub(super) fn unfence(&mut self, sp: Span) -> Span {
        let body = self.str(sp);
        if !body.starts_with("```") {
            return sp;
        }
        self.repair(Repair::CodeFenceRemoved);
        let ticks = body.bytes().take_while(|&c| c == b'`').count();
        let Some(nl) = body.find('\n') else {
            // One line: ```json {"a": 1}```
            let inner = body[ticks..].trim_end_matches('`');
            let tag = inner.bytes().take_while(u8::is_ascii_alphanumeric).count();
            let skip = if inner[tag..].trim_start().starts_with(['{', '[']) {
                tag
            } else {
                0
            };
            return self.trim(sp.start + ticks + skip, sp.start + ticks + inner.len());
        };
        let content = nl + 1;
        let close = scan::lines(&body[content..])
            .find(|(_, line)| fence_marker(line) == Some(true))
            .map_or(body.len(), |(off, _)| content + off);
        self.trim(sp.start + content, sp.start + close)
    }

    /// Drops a last line that closes a fence opened before the value (the whole reply was
    /// fenced) or that opens a fence never closed.
    pub(super) fn drop_outer_fence(&mut self, scan: &Scan, sp: Span) -> Span {
        let body = self.str(sp);
        let Some(nl) = body.rfind('\n') else {
            return sp;
        };
        let line_start = sp.start + nl + 1;
        let outer = fence_marker(&body[nl + 1..]) == Some(true)
            && scan.fences.iter().any(|f| {
                (f.close == Some(line_start) && f.open < sp.start)
                    || (f.open == line_start && f.close.is_none())
            });
        if !outer {
            return sp;
        }
        self.repair(Repair::CodeFenceRemoved);
        self.trim(sp.start, line_start)
    }
}
