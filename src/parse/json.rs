//! Lenient JSON: what models write when they mean JSON.
//!
//! Strict `serde_json` always goes first, so valid JSON is never "repaired". The fallback is a
//! small recursive-descent parser that reads the original text in place (so callers get byte
//! spans into it) and accepts single quotes, trailing commas, comments, Python literals,
//! unquoted keys, raw control characters and unknown escapes inside strings, full-width
//! punctuation as structure (“ ” quotes, ： colons, ， commas: Chinese input methods), and an
//! object or array whose closing brackets are missing at the very end of the text after a
//! complete string or bracket, and a last string whose closing quote is missing before the
//! closing brackets. Nesting is capped at [`MAX_DEPTH`] so hostile input cannot
//! overflow the stack.

use super::{FormatError, Repair, Span};
use serde_json::Value;

/// Same limit as serde_json's own recursion limit.
const MAX_DEPTH: usize = 128;

/// Lenient JSON: strict serde_json first, then the repairs (single quotes, trailing commas,
/// comments, Python literals, raw newlines in strings). Returns the value and repairs applied,
/// or the strict parser's error position. Tools' argument handling will reuse this.
pub fn parse_json_lenient(text: &str) -> Result<(Value, Vec<Repair>), FormatError> {
    let strict_err = match serde_json::from_str::<Value>(text) {
        Ok(v) => return Ok((v, Vec::new())),
        Err(e) => e,
    };
    let mut p = Lenient::new(text, 0);
    if let Some(v) = p.value() {
        p.ws();
        if p.at_end() {
            return Ok((v, p.repairs));
        }
    }
    Err(invalid_json(&strict_err))
}

/// Parses the one JSON value that starts at `text[start..]` and returns it with the byte offset
/// where it ends; whatever follows is left to the caller. Errors carry the strict parser's
/// position, relative to `start`.
pub(crate) fn parse_json_prefix(
    text: &str,
    start: usize,
) -> Result<(Value, usize, Vec<Repair>), FormatError> {
    let Some(rest) = text.get(start..) else {
        return Err(empty_json());
    };
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    let strict_err = match stream.next() {
        Some(Ok(v)) => return Ok((v, start + stream.byte_offset(), Vec::new())),
        Some(Err(e)) => Some(e),
        None => None,
    };
    let mut p = Lenient::new(text, start);
    match p.value() {
        Some(v) => Ok((v, p.pos, p.repairs)),
        None => Err(strict_err.as_ref().map_or_else(empty_json, invalid_json)),
    }
}

/// The strict error for a JSON text that also failed the lenient parser.
pub(crate) fn strict_error(text: &str) -> FormatError {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Err(e)) => invalid_json(&e),
        // The lenient parser accepts all strict JSON, so this is not expected; still no panic.
        Some(Ok(_)) | None => empty_json(),
    }
}

fn invalid_json(e: &serde_json::Error) -> FormatError {
    // serde_json's Display appends " at line L column C"; we report those as fields.
    let full = e.to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    FormatError::InvalidJson {
        line: e.line(),
        column: e.column(),
        message,
    }
}

fn empty_json() -> FormatError {
    FormatError::InvalidJson {
        line: 1,
        column: 1,
        message: "no JSON value found".to_string(),
    }
}

/// One object member: key, value, and the value's byte span in the text.
pub(crate) type Member = (String, Value, Span);

/// Reads `{ ... }` at `start` and returns its members in order, with spans; `None` if it is not
/// an object even after repairs. The second value is where the object ends.
pub(crate) fn object_members(
    text: &str,
    start: usize,
) -> Option<(Vec<Member>, usize, Vec<Repair>)> {
    let mut p = Lenient::new(text, start);
    let members = p.members()?;
    Some((members, p.pos, p.repairs))
}

/// Reads Python-style keyword arguments `a=1, b='x'` spanning exactly `text[start..end]`.
pub(crate) fn keyword_args(
    text: &str,
    start: usize,
    end: usize,
) -> Option<(Vec<Member>, Vec<Repair>)> {
    let mut p = Lenient::new(text.get(..end)?, start);
    let mut out = Vec::new();
    loop {
        p.ws();
        let key = p.ident()?;
        p.ws();
        if p.peek()? != b'=' {
            return None;
        }
        p.pos += 1;
        p.ws();
        let value_start = p.pos;
        let value = p.value()?;
        out.push((
            key,
            value,
            Span {
                start: value_start,
                end: p.pos,
            },
        ));
        p.ws();
        match p.peek() {
            None => return Some((out, p.repairs)),
            Some(b',') => p.pos += 1,
            Some(_) => return None,
        }
    }
}

const FULL_COLON: &str = "：";
const FULL_COMMA: &str = "，";
const CURLY_OPEN: &str = "“";
const CURLY_CLOSE: &str = "”";

struct Lenient<'a> {
    s: &'a str,
    pos: usize,
    depth: usize,
    repairs: Vec<Repair>,
}

impl<'a> Lenient<'a> {
    fn new(s: &'a str, pos: usize) -> Self {
        Lenient {
            s,
            pos,
            depth: 0,
            repairs: Vec::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.pos).copied()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    fn repair(&mut self, r: Repair) {
        if !self.repairs.contains(&r) {
            self.repairs.push(r);
        }
    }

    fn at(&self, s: &str) -> bool {
        self.s.as_bytes()[self.pos.min(self.s.len())..].starts_with(s.as_bytes())
    }

    /// Consumes `:` or a full-width `：`.
    fn colon(&mut self) -> Option<()> {
        self.punctuation(b':', FULL_COLON).then_some(())
    }

    /// Consumes `,` or a full-width `，`; false if neither is next.
    fn comma(&mut self) -> bool {
        self.punctuation(b',', FULL_COMMA)
    }

    /// Consumes `ascii` or its full-width form (Chinese input methods write those in JSON).
    fn punctuation(&mut self, ascii: u8, full: &str) -> bool {
        if self.peek() == Some(ascii) {
            self.pos += 1;
        } else if self.at(full) {
            self.repair(Repair::FullWidthPunctuation);
            self.pos += full.len();
        } else {
            return false;
        }
        true
    }

    /// Whether a curly quote (either direction) starts at `pos`.
    fn at_curly(&self) -> bool {
        self.at(CURLY_OPEN) || self.at(CURLY_CLOSE)
    }

    /// At the end of the text inside an object or array, right after a complete string or
    /// closing bracket: the missing closing brackets are taken as written.
    fn closes_at_end(&mut self) -> bool {
        let done = self.s[..self.pos]
            .trim_end()
            .ends_with(['"', '\'', '}', ']', '”', '“']);
        if self.at_end() && done {
            self.repair(Repair::UnclosedJson);
            return true;
        }
        false
    }

    /// Skips whitespace and `//` / `/* */` comments.
    fn ws(&mut self) {
        let b = self.s.as_bytes();
        while let Some(&c) = b.get(self.pos) {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if b.get(self.pos + 1) == Some(&b'/') => {
                    self.repair(Repair::CommentRemoved);
                    self.pos = self.s[self.pos..]
                        .find('\n')
                        .map_or(self.s.len(), |i| self.pos + i);
                }
                b'/' if b.get(self.pos + 1) == Some(&b'*') => {
                    self.repair(Repair::CommentRemoved);
                    let body = self.pos + 2;
                    self.pos = self.s[body..]
                        .find("*/")
                        .map_or(self.s.len(), |i| body + i + 2);
                }
                _ => break,
            }
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.ws();
        match self.peek()? {
            b'{' => {
                let members = self.members()?;
                Some(Value::Object(
                    members.into_iter().map(|(k, v, _)| (k, v)).collect(),
                ))
            }
            b'[' => self.array(),
            q @ (b'"' | b'\'') => self.string(q).map(Value::String),
            _ if self.at_curly() => self.curly_string().map(Value::String),
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.word(),
        }
    }

    fn enter(&mut self) -> Option<()> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        Some(())
    }

    /// `{` at `pos` through the matching `}`.
    fn members(&mut self) -> Option<Vec<Member>> {
        if self.peek()? != b'{' {
            return None;
        }
        self.enter()?;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            self.ws();
            if self.peek()? == b'}' {
                if !out.is_empty() {
                    self.repair(Repair::TrailingComma);
                }
                break;
            }
            let key = match self.peek()? {
                q @ (b'"' | b'\'') => self.string(q)?,
                _ if self.at_curly() => self.curly_string()?,
                _ => {
                    let k = self.ident()?;
                    self.repair(Repair::UnquotedKey);
                    k
                }
            };
            self.ws();
            self.colon()?;
            self.ws();
            let start = self.pos;
            let v = self.value()?;
            out.push((
                key,
                v,
                Span {
                    start,
                    end: self.pos,
                },
            ));
            self.ws();
            if self.comma() {
                continue;
            }
            if self.closes_at_end() {
                self.depth -= 1;
                return Some(out);
            }
            if self.peek()? != b'}' {
                return None;
            }
            break;
        }
        self.pos += 1;
        self.depth -= 1;
        Some(out)
    }

    fn array(&mut self) -> Option<Value> {
        self.enter()?;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            self.ws();
            if self.peek()? == b']' {
                if !out.is_empty() {
                    self.repair(Repair::TrailingComma);
                }
                break;
            }
            out.push(self.value()?);
            self.ws();
            if self.comma() {
                continue;
            }
            if self.closes_at_end() {
                self.depth -= 1;
                return Some(Value::Array(out));
            }
            if self.peek()? != b']' {
                return None;
            }
            break;
        }
        self.pos += 1;
        self.depth -= 1;
        Some(Value::Array(out))
    }

    /// A quoted string. Only ASCII bytes end a plain run, so every slice is on a char boundary.
    fn string(&mut self, quote: u8) -> Option<String> {
        if quote == b'\'' {
            self.repair(Repair::SingleQuotes);
        }
        self.pos += 1;
        let start = self.pos;
        self.string_body(|p| (p.s.as_bytes().get(p.pos) == Some(&quote)).then_some(1))
            .or_else(|| self.unclosed_string(start))
    }

    /// `{"expression": "sqrt(2)}`: a string that runs to the end of the text, which ends in
    /// closing brackets, lacks its closing quote before them. A string cut off with no
    /// bracket after it (a reply that hit the token limit) stays an error.
    fn unclosed_string(&mut self, start: usize) -> Option<String> {
        let text = &self.s[start..];
        let body = text.trim_end_matches(|c: char| c == '}' || c == ']' || c.is_whitespace());
        if body.len() == text.len() || body.is_empty() {
            return None;
        }
        let end = start + body.len();
        self.pos = start;
        let out = self.string_body(|p| (p.pos == end).then_some(0))?;
        self.repair(Repair::UnclosedString);
        Some(out)
    }

    /// A string between curly quotes (“…” as Chinese input methods write JSON): either curly
    /// quote closes it, since models mix them up.
    fn curly_string(&mut self) -> Option<String> {
        self.repair(Repair::FullWidthPunctuation);
        self.pos += CURLY_OPEN.len();
        let start = self.pos;
        self.string_body(|p| p.at_curly().then_some(CURLY_OPEN.len()))
            .or_else(|| self.unclosed_string(start))
    }

    /// The text of a string up to its closing quote (`close` gives the quote's length when the
    /// position is at one), with escapes read and raw control characters accepted.
    fn string_body(&mut self, close: impl Fn(&Self) -> Option<usize>) -> Option<String> {
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            if let Some(len) = close(self) {
                out.push_str(&self.s[run..self.pos]);
                self.pos += len;
                return Some(out);
            }
            match *self.s.as_bytes().get(self.pos)? {
                b'\\' => {
                    out.push_str(&self.s[run..self.pos]);
                    self.escape(&mut out)?;
                    run = self.pos;
                }
                0..=0x1f => {
                    self.repair(Repair::RawControlInString);
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
    }

    /// The escape at `pos` (a backslash). Unknown escapes are kept literally.
    fn escape(&mut self, out: &mut String) -> Option<()> {
        let b = self.s.as_bytes();
        let c = *b.get(self.pos + 1)?;
        let simple = match c {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'\'' => Some('\''),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(ch) = simple {
            out.push(ch);
            self.pos += 2;
            return Some(());
        }
        if c == b'u' {
            if let Some(unit) = self.hex4(self.pos + 2) {
                self.pos += 6;
                out.push(self.unicode(unit));
                return Some(());
            }
        }
        self.repair(Repair::InvalidEscape);
        out.push('\\');
        self.pos += 1;
        Some(())
    }

    /// The character for a `\uXXXX` unit already consumed; pairs surrogates, and turns a lone
    /// surrogate into U+FFFD.
    fn unicode(&mut self, unit: u32) -> char {
        if (0xD800..0xDC00).contains(&unit)
            && self.s.as_bytes().get(self.pos..self.pos + 2) == Some(b"\\u")
        {
            if let Some(low) = self
                .hex4(self.pos + 2)
                .filter(|l| (0xDC00..0xE000).contains(l))
            {
                self.pos += 6;
                let cp = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                return char::from_u32(cp).unwrap_or('\u{FFFD}');
            }
        }
        char::from_u32(unit).unwrap_or_else(|| {
            self.repair(Repair::InvalidEscape);
            '\u{FFFD}'
        })
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.s.as_bytes().get(at..at + 4)?;
        digits
            .iter()
            .try_fold(0u32, |acc, &d| Some(acc * 16 + (d as char).to_digit(16)?))
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.pos;
        let b = self.s.as_bytes();
        while matches!(
            b.get(self.pos),
            Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        ) {
            self.pos += 1;
        }
        match serde_json::from_str::<Value>(&self.s[start..self.pos]) {
            Ok(v @ Value::Number(_)) => Some(v),
            _ => None,
        }
    }

    /// `true`/`false`/`null`, or their Python spellings.
    fn word(&mut self) -> Option<Value> {
        let (v, python) = match self.ident()?.as_str() {
            "true" => (Value::Bool(true), false),
            "false" => (Value::Bool(false), false),
            "null" => (Value::Null, false),
            "True" => (Value::Bool(true), true),
            "False" => (Value::Bool(false), true),
            "None" => (Value::Null, true),
            _ => return None,
        };
        if python {
            self.repair(Repair::PythonLiterals);
        }
        Some(v)
    }

    /// An ASCII identifier (unquoted key, keyword argument name, literal word).
    fn ident(&mut self) -> Option<String> {
        let b = self.s.as_bytes();
        let start = self.pos;
        if !matches!(b.get(start), Some(c) if c.is_ascii_alphabetic() || *c == b'_' || *c == b'$') {
            return None;
        }
        while matches!(b.get(self.pos), Some(c) if c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$')
        {
            self.pos += 1;
        }
        Some(self.s[start..self.pos].to_string())
    }
}
