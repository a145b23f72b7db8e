//! From scanned labels to one [`ParseResult`]: picks the first directive, reads the tool name
//! and input (text, paper, call or JSON-object form), or falls back to a JSON action object
//! standing on its own line, and otherwise explains what is missing.

use super::json::{self, Member};
use super::scan::{self, fence_marker, Kind, Scan};
use super::{parse_json_lenient, FormatError, ParseResult, Parsed, Repair, Span, Spans};
use serde_json::Value;

/// A reply with more standalone `{` lines than this is not worth rescuing; the cap keeps
/// hostile input linear.
const MAX_JSON_CANDIDATES: usize = 16;
/// Wrapper objects like `{"tool_call": {...}}` are unwrapped at most this deep.
const MAX_WRAPPERS: usize = 3;

const TOOL_KEYS: &[&str] = &[
    "action",
    "tool",
    "tool_name",
    "name",
    "function",
    "action_name",
];
const INPUT_KEYS: &[&str] = &[
    "action_input",
    "actioninput",
    "tool_input",
    "input",
    "arguments",
    "args",
    "parameters",
    "params",
];
const THOUGHT_KEYS: &[&str] = &["thought", "thoughts", "reasoning"];
const ANSWER_KEYS: &[&str] = &["final_answer", "finalanswer", "answer"];

/// Parses a reply that continues the previous one's `Action: final_answer` (see
/// [`Repair::InputCompletesFinalAnswer`]): as if that line stood right before its first
/// `Action Input:`, so a Thought above it stays the thought. Spans stay relative to `text`.
pub fn parse_reply_after_final_answer(text: &str) -> ParseResult {
    const LINE: &str = "Action: final_answer\n";
    let at = scan::scan(text)
        .labels
        .iter()
        .find(|l| l.kind == Kind::ActionInput)
        .map_or(0, |l| l.line_start);
    let mut parsed = parse_reply(&format!("{}{LINE}{}", &text[..at], &text[at..]));
    // Back into `text`: spans after the inserted line move back; one inside it has no place.
    let back = |sp: Option<Span>| match sp {
        Some(sp) if sp.end <= at => Some(sp),
        Some(sp) if sp.start >= at + LINE.len() => Some(Span {
            start: sp.start - LINE.len(),
            end: sp.end - LINE.len(),
        }),
        _ => None,
    };
    let spans = &mut parsed.spans;
    spans.thought = back(spans.thought);
    spans.action = back(spans.action);
    spans.input = back(spans.input);
    spans.answer = back(spans.answer);
    parsed.repairs.push(Repair::InputCompletesFinalAnswer);
    parsed
}

/// Turns one model reply into an action, a final answer or a format error, with the thought,
/// spans into `text` and the repairs applied. Never panics, and runs in linear time.
pub fn parse_reply(text: &str) -> ParseResult {
    let mut cx = Cx {
        text,
        repairs: Vec::new(),
        spans: Spans::default(),
        thought: None,
    };
    let parsed = match cx.parse() {
        Ok(parsed) => parsed,
        Err(error) => Parsed::Error { error },
    };
    ParseResult {
        parsed,
        thought: cx.thought,
        spans: cx.spans,
        repairs: cx.repairs,
    }
}

/// A JSON object that should have been the reply but is broken, and where it starts.
type BrokenJson = (FormatError, usize);

/// An action object found in JSON, before it is committed to the result.
struct Found {
    form: Form,
    thought: Option<(String, Span)>,
    repairs: Vec<Repair>,
}

enum Form {
    Action {
        tool: String,
        tool_span: Span,
        input: Value,
        input_span: Option<Span>,
    },
    Final {
        answer: Value,
        answer_span: Span,
    },
}

struct Cx<'a> {
    text: &'a str,
    repairs: Vec<Repair>,
    spans: Spans,
    thought: Option<String>,
}

impl<'a> Cx<'a> {
    fn repair(&mut self, r: Repair) {
        if !self.repairs.contains(&r) {
            self.repairs.push(r);
        }
    }

    fn repairs(&mut self, rs: impl IntoIterator<Item = Repair>) {
        rs.into_iter().for_each(|r| self.repair(r));
    }

    fn str(&self, sp: Span) -> &'a str {
        &self.text[sp.start..sp.end]
    }

    /// `text[start..end]` without surrounding whitespace.
    fn trim(&self, start: usize, end: usize) -> Span {
        let s = &self.text[start..end];
        let start = start + (s.len() - s.trim_start().len());
        Span {
            start,
            end: start + s.trim().len(),
        }
    }

    fn set_thought(&mut self, sp: Span) {
        if sp.start < sp.end {
            self.thought = Some(self.str(sp).to_string());
            self.spans.thought = Some(sp);
        }
    }

    /// The value of label `i`: up to the next label or the end of the usable reply (a bare
    /// action line's value ends with its closing bracket).
    fn region(scan: &Scan, i: usize) -> (usize, usize) {
        let next = scan.labels.get(i + 1).map_or(scan.end, |l| l.line_start);
        let end = scan.labels[i].value_end.map_or(next, |e| e.min(next));
        (scan.labels[i].value_start.min(end), end)
    }

    fn parse(&mut self) -> Result<Parsed, FormatError> {
        if self.text.trim().is_empty() {
            return Err(FormatError::Empty);
        }
        let scan = scan::scan(self.text);
        if let Some(r) = scan.cut {
            self.repair(r);
        }
        if scan.start > 0 {
            self.repair(Repair::ReasoningSkipped);
        }
        let Some(mut d) = scan.labels.iter().position(|l| l.kind.is_directive()) else {
            return self.without_directive(&scan);
        };
        // The first complete action wins: an `Action: final_answer` with no answer, or an
        // `Action Input:` with no Action, is skipped when another directive follows.
        while let Some(next) = self.skip_incomplete(&scan, d) {
            self.repair(Repair::IncompleteActionSkipped);
            d = next;
        }
        self.thought_before(&scan, d);
        self.repairs(scan.labels[d].repairs());
        if scan.labels[d].mixed {
            return Err(FormatError::MixedActionAndAnswer);
        }
        match scan.labels[d].kind {
            Kind::Action => self.action(&scan, d),
            Kind::ActionInput => Err(FormatError::InputWithoutAction),
            _ => self.final_answer(&scan, d),
        }
    }

    /// The next directive after `d` when label `d` is not a complete action: an `Action:
    /// final_answer` (or `Finish`) with nothing after the name and no `Action Input:` of its
    /// own, an Action found after a sentence with no `Action Input:` of its own, or an
    /// `Action Input:` with no Action before it.
    fn skip_incomplete(&self, scan: &Scan, d: usize) -> Option<usize> {
        let label = &scan.labels[d];
        let next = || (d + 1..scan.labels.len()).find(|&i| scan.labels[i].kind.is_directive());
        if label.kind == Kind::ActionInput {
            return next();
        }
        if label.kind != Kind::Action || label.bare {
            return None;
        }
        if scan
            .labels
            .get(d + 1)
            .is_some_and(|l| l.kind == Kind::ActionInput)
        {
            return None;
        }
        let (s, e) = Self::region(scan, d);
        let value = self.text[s..e]
            .trim()
            .trim_matches(|c: char| matches!(c, '`' | '*' | '"' | '\'' | '.' | ','));
        // An Action found inside prose with no input of its own (not even `tool[arg]`), before
        // another directive, quotes the format ("…, e.g. Action: search"): not a step.
        let quoted = label.mid_line && !value.contains(['[', '(', '{']);
        if !quoted && !is_final_name(value) {
            return None;
        }
        next()
    }

    /// The first `Thought:` before the directive, else the unlabeled text before any label.
    fn thought_before(&mut self, scan: &Scan, d: usize) {
        match scan.labels[..d]
            .iter()
            .position(|l| l.kind == Kind::Thought)
        {
            Some(t) => {
                let (s, e) = Self::region(scan, t);
                self.repairs(scan.labels[t].repairs());
                self.set_thought(self.trim(s, e));
            }
            None => {
                let prose = self.prose(scan.start, scan.labels[0].line_start);
                if let Some(sp) = prose.or_else(|| self.reasoning(scan)) {
                    self.set_thought(sp);
                }
            }
        }
    }

    /// The inside of a leading `<think>…</think>` block.
    fn reasoning(&self, scan: &Scan) -> Option<Span> {
        let head = &self.text[..scan.start];
        let open = head.find("<think>")? + "<think>".len();
        let close = head.rfind("</think>").filter(|&c| c >= open)?;
        let sp = self.trim(open, close);
        (sp.start < sp.end).then_some(sp)
    }

    /// Unlabeled text in `start..end`, without a fence line that opens it; `None` if blank.
    fn prose(&self, start: usize, end: usize) -> Option<Span> {
        let mut sp = self.trim(start, end.max(start));
        if self.str(sp).starts_with("```") {
            let next = self.str(sp).find('\n').map_or(sp.end, |i| sp.start + i);
            sp = self.trim(next, sp.end);
        }
        let kept = self.str(sp).trim_end_matches('`').trim_end().len();
        (kept > 0).then_some(Span {
            start: sp.start,
            end: sp.start + kept,
        })
    }

    fn final_answer(&mut self, scan: &Scan, d: usize) -> Result<Parsed, FormatError> {
        let (s, e) = Self::region(scan, d);
        let sp = self.drop_outer_fence(scan, self.trim(s, e));
        if sp.start == sp.end {
            return Err(FormatError::EmptyAnswer);
        }
        if scan.labels[d + 1..]
            .iter()
            .any(|l| matches!(l.kind, Kind::Action | Kind::ActionInput))
        {
            self.repair(Repair::ActionAfterFinalIgnored);
        }
        self.spans.answer = Some(sp);
        Ok(Parsed::Final {
            answer: self.str(sp).to_string(),
        })
    }

    fn action(&mut self, scan: &Scan, d: usize) -> Result<Parsed, FormatError> {
        let has_input = scan
            .labels
            .get(d + 1)
            .is_some_and(|l| l.kind == Kind::ActionInput);
        let (s, e) = Self::region(scan, d);
        let sp = self.drop_outer_fence(scan, self.trim(s, e));
        let sp = self.unfence(sp);
        if sp.start == sp.end {
            return Err(FormatError::MissingToolName);
        }
        if self.str(sp).starts_with('{') {
            self.note_ignored(scan, d + 1);
            return match self.read_json_action(sp.start, sp.end)?.0 {
                Some(found) => self.take_found(found),
                None => Err(FormatError::MissingToolName),
            };
        }
        let line_end = self.str(sp).find('\n').map_or(sp.end, |i| sp.start + i);
        let line_sp = self.trim(sp.start, line_end);
        let tool_sp = self.unquote_tool(line_sp);
        if means_no_tool(self.str(tool_sp)) {
            // "Action: None" then a Final Answer: the model just answered.
            let answer = (d + 1..scan.labels.len())
                .find(|&i| matches!(scan.labels[i].kind, Kind::FinalAnswer | Kind::Answer));
            if let Some(a) = answer {
                self.repair(Repair::NoToolActionIgnored);
                self.repairs(scan.labels[a].repairs());
                return self.final_answer(scan, a);
            }
            self.spans.action = Some(tool_sp);
            return Err(FormatError::NoTool);
        }
        self.note_ignored(scan, d + 1 + usize::from(has_input));
        if !has_input {
            // `Action: `Search[x]``: the form inside the quotes.
            let form_sp = if tool_sp != line_sp { tool_sp } else { sp };
            if let Some(parsed) = self.bracket_form(form_sp)? {
                return Ok(parsed);
            }
        }
        let tool_sp = self.clean_tool_name(tool_sp);
        if tool_sp.start == tool_sp.end {
            return Err(FormatError::MissingToolName);
        }
        self.spans.action = Some(tool_sp);
        let tool = self.str(tool_sp);
        let (input, input_sp) = if has_input {
            self.repairs(scan.labels[d + 1].repairs());
            let (s, e) = Self::region(scan, d + 1);
            // An answer that only starts like JSON ("[1] RAG is …") is text, not a JSON prefix.
            let answer = self.trim(s, e);
            let text = self.str(answer);
            if is_final_name(tool) && text.starts_with(['[', '{']) && !self.answer_is_json(answer) {
                return self.final_from_value(Value::String(text.to_string()), Some(answer));
            }
            self.input_value(scan, s, e)?
        } else {
            self.unlabeled_input(line_end, sp.end)?
        };
        if is_final_name(tool) {
            return self.final_from_value(input, input_sp);
        }
        self.spans.input = input_sp;
        Ok(Parsed::Action {
            tool: tool.to_string(),
            input,
        })
    }

    /// Notes the directives from label `from` on, which lose to the action.
    fn note_ignored(&mut self, scan: &Scan, from: usize) {
        for label in &scan.labels[from.min(scan.labels.len())..] {
            match label.kind {
                Kind::Action | Kind::ActionInput => self.repair(Repair::ExtraActionIgnored),
                Kind::FinalAnswer | Kind::Answer => self.repair(Repair::FinalAnswerIgnored),
                _ => {}
            }
        }
    }

    /// Whether a final_answer input that starts like JSON is JSON: valid (after repairs) as a
    /// whole, or an object followed by other text (a leading array followed by text is a
    /// citation such as "[1] …", so text).
    fn answer_is_json(&self, sp: Span) -> bool {
        let text = self.str(sp).trim_end_matches(['`', ' ', '\t', '\n', '\r']);
        parse_json_lenient(text).is_ok()
            || (text.starts_with('{')
                && json::parse_json_prefix(&self.text[..sp.end], sp.start).is_ok())
    }

    /// The tool name without what surrounds it: a sentence-final period or comma; a remark
    /// after a one-word name (`add (add two numbers)`, `calculator - to multiply`); the phrase
    /// around a name in backticks (``Use the `search` tool``). Other extra words stay: the
    /// registry matches names written with them.
    fn clean_tool_name(&mut self, sp: Span) -> Span {
        let text = self.str(sp);
        if let Some(open) = text.find('`') {
            if let Some(len) = text[open + 1..].find('`') {
                let inner = self.trim(sp.start + open + 1, sp.start + open + 1 + len);
                let name = self.str(inner);
                if !name.is_empty() && !name.contains(char::is_whitespace) {
                    self.repair(Repair::ToolNameTrimmed);
                    return inner;
                }
            }
        }
        let kept = text
            .trim_end_matches(['.', ',', ';', ':', '。', '，', '；', '：'])
            .trim_end();
        let word = kept.find(char::is_whitespace).filter(|&ws| {
            let rest = kept[ws..].trim_start();
            rest.starts_with(['(', '（']) || ["- ", "– ", "— "].iter().any(|d| rest.starts_with(d))
        });
        let kept = word.map_or(kept, |ws| &kept[..ws]);
        if kept.len() == text.len() || kept.is_empty() {
            return sp;
        }
        self.repair(Repair::ToolNameTrimmed);
        Span {
            start: sp.start,
            end: sp.start + kept.len(),
        }
    }

    /// Removes quotes, backticks or emphasis wrapped around a tool name.
    fn unquote_tool(&mut self, mut sp: Span) -> Span {
        loop {
            let b = self.str(sp).as_bytes();
            let wrapped = b.len() >= 2
                && matches!(b[0], b'"' | b'\'' | b'`' | b'*')
                && b[b.len() - 1] == b[0];
            if !wrapped {
                return sp;
            }
            self.repair(Repair::ToolNameUnquoted);
            sp = self.trim(sp.start + 1, sp.end - 1);
        }
    }

    /// The paper form `tool[arg]` / `Finish[answer]`, or a call `tool(args)`, written on the
    /// Action line instead of an Action Input.
    fn bracket_form(&mut self, sp: Span) -> Result<Option<Parsed>, FormatError> {
        let body = self.str(sp);
        for (open_c, close_c, form) in [('[', ']', Repair::PaperForm), ('(', ')', Repair::CallForm)]
        {
            let Some(open) = body.find(open_c) else {
                continue;
            };
            let name = body[..open].trim_end();
            if name.is_empty() || name.contains(['\n', '[', '(', '{', '"', '\'', '`']) {
                continue;
            }
            // "Wikipedia Search (beta)" is a name; a call needs a one-word name.
            if form == Repair::CallForm && name.contains(char::is_whitespace) {
                continue;
            }
            // The argument may span lines (`Finish[...]` with a long answer); else it ends
            // with the first line.
            // A period or markdown after the closing bracket is not part of the form.
            let tail = |t: &str| t.trim_end().trim_end_matches(['*', '_', '`', '.']).len();
            let first_line = &body[..tail(&body[..body.find('\n').unwrap_or(body.len())])];
            let whole = &body[..tail(body)];
            let close = if whole.ends_with(close_c) {
                whole.len() - 1
            } else if first_line.ends_with(close_c) {
                first_line.len() - 1
            } else {
                continue;
            };
            if close <= open {
                continue;
            }
            self.repair(form);
            let name_sp = Span {
                start: sp.start,
                end: sp.start + name.len(),
            };
            let arg_sp = self.trim(sp.start + open + 1, sp.start + close);
            self.spans.action = Some(name_sp);
            // `Finish[answer="…"]` takes keyword arguments like a call.
            let value = self.call_args(arg_sp)?;
            if is_final_name(name) {
                return self.final_from_value(value, Some(arg_sp)).map(Some);
            }
            if !value.is_null() {
                self.spans.input = Some(arg_sp);
            }
            return Ok(Some(Parsed::Action {
                tool: name.to_string(),
                input: value,
            }));
        }
        Ok(None)
    }

    /// Arguments of `tool(...)`: JSON, Python keyword arguments (`answer="..."`), or text.
    fn call_args(&mut self, sp: Span) -> Result<Value, FormatError> {
        if sp.start == sp.end {
            return Ok(Value::Null);
        }
        if let Some((members, reps)) = json::keyword_args(self.text, sp.start, sp.end) {
            self.repairs(reps);
            return Ok(Value::Object(
                members.into_iter().map(|(k, v, _)| (k, v)).collect(),
            ));
        }
        Ok(self.value_of(sp)?.0)
    }

    /// JSON (or a fenced block) on the lines after the tool name, with no `Action Input:`.
    fn unlabeled_input(
        &mut self,
        start: usize,
        end: usize,
    ) -> Result<(Value, Option<Span>), FormatError> {
        let rest = self.trim(start, end);
        let body = self.str(rest);
        if !(body.starts_with(['{', '[']) || body.starts_with("```")) {
            return Ok((Value::Null, None));
        }
        self.repair(Repair::InputWithoutLabel);
        let rest = self.unfence(rest);
        if rest.start == rest.end {
            return Ok((Value::Null, None));
        }
        let (value, sp) = self.value_of(rest)?;
        Ok((value, Some(sp)))
    }

    fn input_value(
        &mut self,
        scan: &Scan,
        start: usize,
        end: usize,
    ) -> Result<(Value, Option<Span>), FormatError> {
        let sp = self.drop_outer_fence(scan, self.trim(start, end));
        let sp = self.unfence(sp);
        if sp.start == sp.end {
            return Ok((Value::Null, None));
        }
        let (value, sp) = self.value_of(sp)?;
        Ok((value, Some(sp)))
    }

    /// Reads an input: JSON when it is JSON (repaired if it starts like JSON), a quoted string
    /// unquoted, JSON inside `Wrapper(...)` extracted, anything else kept as text.
    fn value_of(&mut self, sp: Span) -> Result<(Value, Span), FormatError> {
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
    fn decode_string_json(&mut self, v: Value) -> Value {
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
    fn final_from_value(&mut self, v: Value, mut sp: Option<Span>) -> Result<Parsed, FormatError> {
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
                        .map_or_else(|| inner.to_string(), str::to_string)
                }
                // `{"expression": "42"}`: small models reuse a tool's key for the answer.
                None => match map.values().next() {
                    Some(Value::String(only)) if map.len() == 1 => {
                        self.repair(Repair::AnswerUnwrapped);
                        only.clone()
                    }
                    // Some other object: the answer is the text as the model wrote it.
                    _ => sp.map_or_else(|| v.to_string(), |sp| self.str(sp).to_string()),
                },
            },
            _ => sp.map_or_else(|| v.to_string(), |sp| self.str(sp).to_string()),
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
    fn unfence(&mut self, sp: Span) -> Span {
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
    fn drop_outer_fence(&mut self, scan: &Scan, sp: Span) -> Span {
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

    fn without_directive(&mut self, scan: &Scan) -> Result<Parsed, FormatError> {
        let thought = scan.labels.iter().position(|l| l.kind == Kind::Thought);
        match self.find_json_action(scan) {
            Ok(Some((found, object))) => {
                self.json_surroundings(scan, object, found.thought.is_some());
                return self.take_found(found);
            }
            Ok(None) => {}
            Err((error, pos)) => {
                if let Some(t) = thought {
                    let value_start = scan.labels[t].value_start.min(pos);
                    self.set_thought(self.trim(value_start, pos));
                }
                return Err(error);
            }
        }
        if let Some(t) = thought {
            let (s, e) = Self::region(scan, t);
            self.repairs(scan.labels[t].repairs());
            self.set_thought(self.trim(s, e));
        }
        if thought.is_none() && scan.start > 0 {
            if let Some(sp) = self.reasoning(scan) {
                self.set_thought(sp);
            }
        }
        let text = &self.text[scan.start..scan.end];
        // XML tool calls, and the special tokens of native tool calls leaked as text (Kimi).
        if [
            "<tool_call",
            "<invoke",
            "<function_call",
            "<tool_use",
            "<|tool_call",
        ]
        .iter()
        .any(|m| text.contains(m))
        {
            return Err(FormatError::XmlToolCall);
        }
        match (thought, &self.thought) {
            (Some(_), Some(t)) if says_no_tool(t) => Err(FormatError::NoTool),
            (Some(_), _) => Err(FormatError::ThoughtOnly),
            (None, _) => Err(FormatError::NoAction),
        }
    }

    /// The first action-shaped JSON object that starts a line (one quoted inside a sentence is
    /// an example, not a call). A broken object that is the whole reply is a JSON error, given
    /// with where the object starts.
    fn find_json_action(&mut self, scan: &Scan) -> Result<Option<(Found, Span)>, BrokenJson> {
        let limit = scan.end;
        let mut skip_to = 0;
        let mut attempts = 0;
        for (line_start, line) in scan::lines(&self.text[scan.start..limit]) {
            let line_start = scan.start + line_start;
            let pos = line_start + (line.len() - line.trim_start().len());
            if pos < skip_to || !line.trim_start().starts_with('{') {
                continue;
            }
            attempts += 1;
            if attempts > MAX_JSON_CANDIDATES {
                break;
            }
            match self.read_json_action(pos, limit) {
                Ok((Some(found), end)) => return Ok(Some((found, Span { start: pos, end }))),
                Ok((None, end)) => skip_to = end,
                Err(e) if attempts == 1 && self.only_protocol_before(scan, pos) => {
                    return Err((e, pos))
                }
                Err(_) => {}
            }
        }
        Ok(None)
    }

    /// Nothing but blank lines, fence lines and labels before `pos`: the JSON is the reply.
    fn only_protocol_before(&self, scan: &Scan, pos: usize) -> bool {
        let first_label = scan.labels.first().map_or(pos, |l| l.line_start.min(pos));
        scan::lines(&self.text[..first_label])
            .all(|(_, l)| l.trim().is_empty() || fence_marker(l).is_some())
    }

    /// Notes the thought, fences and prose around a standalone JSON action object.
    /// A labelled Thought beats the object's own "thought" key, which beats loose prose.
    fn json_surroundings(&mut self, scan: &Scan, object: Span, key_thought: bool) {
        let Span { start, end } = object;
        let before = self.text[..start].trim_end();
        let last_line = before.rfind('\n').map_or(0, |i| i + 1);
        let lead_end = if before[last_line..].trim_start().starts_with("```") {
            last_line
        } else {
            before.trim_end_matches('`').len()
        };
        if lead_end < before.len() {
            self.repair(Repair::CodeFenceRemoved);
        }
        match scan
            .labels
            .iter()
            .find(|l| l.kind == Kind::Thought && l.line_start < start)
        {
            Some(t) => {
                let (s, e) = (t.value_start.min(lead_end), lead_end);
                self.repairs(t.repairs());
                self.set_thought(self.trim(s, e));
            }
            None => {
                if let Some(sp) = self.prose(scan.start, lead_end) {
                    self.repair(Repair::JsonExtractedFromProse);
                    if !key_thought {
                        self.set_thought(sp);
                    }
                }
            }
        }
        let after = self.text[end..scan.end].trim().trim_matches('`').trim();
        if after.starts_with('{') {
            self.repair(Repair::ExtraActionIgnored);
        } else if !after.is_empty() {
            self.repair(Repair::JsonExtractedFromProse);
        }
    }

    /// Parses the object at `pos`; `Ok((None, end))` when it is valid but not an action.
    fn read_json_action(
        &mut self,
        pos: usize,
        limit: usize,
    ) -> Result<(Option<Found>, usize), FormatError> {
        let Some((members, end, reps)) = json::object_members(&self.text[..limit], pos) else {
            return Err(json::strict_error(&self.text[pos..limit]));
        };
        let found = self.shape(&members, limit, 0).map(|mut f| {
            f.repairs.extend(reps);
            f
        });
        Ok((found, end))
    }

    /// Reads an action (or a final answer) out of an object's members, by key aliases.
    fn shape(&self, members: &[Member], limit: usize, depth: usize) -> Option<Found> {
        let thought = member(members, THOUGHT_KEYS)
            .and_then(|(_, v, sp)| Some((v.as_str()?.trim().to_string(), self.unquoted(*sp))));
        let form = if let Some((key, tool, sp)) = member(members, TOOL_KEYS) {
            match tool {
                Value::String(name) if !name.trim().is_empty() => {
                    let input = member(members, INPUT_KEYS);
                    // {"name": "张三", "city": "北京"} is a record, not a call: the generic
                    // "name" names a tool only next to arguments, a thought, or nothing else.
                    let known = |k: &str| {
                        [TOOL_KEYS, INPUT_KEYS, THOUGHT_KEYS, &["type", "id"]]
                            .iter()
                            .any(|keys| keys.iter().any(|known| known.eq_ignore_ascii_case(k)))
                    };
                    if key.eq_ignore_ascii_case("name")
                        && input.is_none()
                        && members.iter().any(|(k, ..)| !known(k))
                    {
                        return None;
                    }
                    Form::Action {
                        tool: name.trim().to_string(),
                        tool_span: self.unquoted(*sp),
                        input: input.map_or(Value::Null, |(_, v, _)| v.clone()),
                        input_span: input.map(|(_, _, sp)| self.unquoted(*sp)),
                    }
                }
                // {"function": {"name": ..., "arguments": ...}}
                Value::Object(_) => return self.unwrap(sp.start, limit, depth, thought),
                _ => return None,
            }
        } else if let Some((_, answer, sp)) = member(members, ANSWER_KEYS) {
            Form::Final {
                answer: answer.clone(),
                answer_span: self.unquoted(*sp),
            }
        } else if let [(_, Value::Object(_), sp)] = members {
            return self.unwrap(sp.start, limit, depth, thought);
        } else if let [(_, Value::Array(items), sp)] = members {
            // {"tool_calls": [{...}]}: a one-element list of the action object.
            let [Value::Object(_)] = items.as_slice() else {
                return None;
            };
            let inner = self.str(*sp).find('{')?;
            return self.unwrap(sp.start + inner, limit, depth, thought);
        } else {
            return None;
        };
        Some(Found {
            form,
            thought,
            repairs: Vec::new(),
        })
    }

    /// The action inside a wrapper object such as `{"tool_call": {...}}`.
    fn unwrap(
        &self,
        pos: usize,
        limit: usize,
        depth: usize,
        thought: Option<(String, Span)>,
    ) -> Option<Found> {
        if depth >= MAX_WRAPPERS {
            return None;
        }
        let (members, _, _) = json::object_members(&self.text[..limit], pos)?;
        let mut found = self.shape(&members, limit, depth + 1)?;
        found.repairs.push(Repair::WrapperUnwrapped);
        found.thought = found.thought.or(thought);
        Some(found)
    }

    /// A string token's span without its quotes.
    fn unquoted(&self, sp: Span) -> Span {
        let b = self.str(sp).as_bytes();
        match b.first() {
            Some(q @ (b'"' | b'\'')) if b.len() >= 2 && b[b.len() - 1] == *q => Span {
                start: sp.start + 1,
                end: sp.end - 1,
            },
            _ => sp,
        }
    }

    fn take_found(&mut self, found: Found) -> Result<Parsed, FormatError> {
        self.repair(Repair::JsonObjectForm);
        self.repairs(found.repairs);
        if let Some((thought, sp)) = found.thought.filter(|(t, _)| !t.is_empty()) {
            if self.thought.is_none() {
                self.thought = Some(thought);
                self.spans.thought = Some(sp);
            }
        }
        match found.form {
            Form::Action {
                tool,
                tool_span,
                input,
                input_span,
            } => {
                self.spans.action = Some(tool_span);
                let input = self.decode_string_json(input);
                if is_final_name(&tool) {
                    return self.final_from_value(input, input_span);
                }
                self.spans.input = input_span;
                Ok(Parsed::Action { tool, input })
            }
            Form::Final {
                answer,
                answer_span,
            } => self.final_from_value(answer, Some(answer_span)),
        }
    }
}

/// The member for the first of `keys` present (keys compared without case).
fn member<'m>(members: &'m [Member], keys: &[&str]) -> Option<&'m Member> {
    keys.iter().find_map(|k| {
        members
            .iter()
            .find(|(name, ..)| name.eq_ignore_ascii_case(k))
    })
}

/// `final_answer`, `Final Answer`, `finish`, `Finish` ... as a tool name.
fn is_final_name(tool: &str) -> bool {
    let squashed: String = tool
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(squashed.as_str(), "finalanswer" | "finish")
}

/// `Action: None`, `Action: N/A`, `Action: no tool needed` ...
fn means_no_tool(tool: &str) -> bool {
    let lower = tool.to_ascii_lowercase();
    let word = lower
        .bytes()
        .take_while(|c| c.is_ascii_alphabetic() || *c == b'/')
        .count();
    let whole_word =
        !matches!(lower.as_bytes().get(word), Some(c) if c.is_ascii_alphanumeric() || *c == b'_');
    (whole_word && matches!(&lower[..word], "none" | "null" | "nil" | "n/a" | "nothing"))
        || ["no tool", "no_tool", "no-tool"]
            .iter()
            .any(|p| lower.starts_with(p))
}

/// A thought that decided against using a tool ("Do I need to use a tool? No").
fn says_no_tool(thought: &str) -> bool {
    let lower = thought.to_ascii_lowercase();
    [
        "tool? no",
        "no tool is needed",
        "no tool needed",
        "don't need a tool",
        "do not need a tool",
    ]
    .iter()
    .any(|p| lower.contains(p))
}
