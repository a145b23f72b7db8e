//! From scanned labels to one [`ParseResult`]: picks the first directive, reads the tool name
//! and input (text, paper, call or JSON-object form), or falls back to a JSON action object
//! standing on its own line, and otherwise explains what is missing.
//!
//! Here: the entry points and the first stage, which finds the directive and the thought
//! before it. Then `labels` (an `Action:` or `Final Answer:` directive and its input),
//! `value` (an input's value: JSON, quoted, fenced or text), `json_action` (a reply that is a
//! JSON action object, with no directive).

mod json_action;
mod labels;
mod value;

use super::scan::{self, Kind, Scan};
use super::{FormatError, ParseResult, Parsed, Repair, Span, Spans};

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

/// The reply being read and what reading it has found so far; each stage adds its `impl`.
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
