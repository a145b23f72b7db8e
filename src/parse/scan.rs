//! Line scanner: finds protocol labels (`Thought:`, `Action:`, ...), code fences, and where a
//! self-written Observation begins. Everything here is one pass over the lines.

use super::Repair;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Thought,
    Action,
    ActionInput,
    FinalAnswer,
    Answer,
    Observation,
    Question,
}

impl Kind {
    /// Labels that decide what the reply is (the others only end the previous label's value).
    pub(crate) fn is_directive(self) -> bool {
        matches!(
            self,
            Kind::Action | Kind::ActionInput | Kind::FinalAnswer | Kind::Answer
        )
    }
}

/// A label at the start of a line; its value runs from `value_start` to the next label.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Label {
    pub kind: Kind,
    pub line_start: usize,
    pub value_start: usize,
    full_width: bool,
    markdown: bool,
    numbered: bool,
}

impl Label {
    /// The repairs needed to read this label.
    pub(crate) fn repairs(&self) -> impl Iterator<Item = Repair> {
        [
            (self.full_width, Repair::FullWidthColon),
            (self.markdown, Repair::MarkdownLabel),
            (self.numbered, Repair::NumberedLabel),
            (self.kind == Kind::Answer, Repair::AnswerLabel),
        ]
        .into_iter()
        .filter_map(|(on, r)| on.then_some(r))
    }
}

/// A fenced code block: line starts of the opening and (if any) closing fence lines.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fence {
    pub open: usize,
    pub close: Option<usize>,
}

pub(crate) struct Scan {
    pub labels: Vec<Label>,
    pub fences: Vec<Fence>,
    /// Where the usable reply ends (a self-written Observation starts there).
    pub end: usize,
    pub cut: Option<Repair>,
}

/// Lines with the byte offset where each starts (without the `\n`).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n').scan(0, |offset, line| {
        let start = *offset;
        *offset += line.len() + 1;
        Some((start, line))
    })
}

/// `Some(true)` for a bare fence line (only backticks), `Some(false)` for one with an info
/// string such as ```` ```json ````.
pub(crate) fn fence_marker(line: &str) -> Option<bool> {
    let t = line.trim();
    t.starts_with("```").then(|| t.bytes().all(|c| c == b'`'))
}

/// Pairs fences like CommonMark does: inside a block only a bare fence closes it.
fn fences(text: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut open = None;
    for (start, line) in lines(text) {
        let Some(bare) = fence_marker(line) else {
            continue;
        };
        match open {
            None => open = Some(start),
            Some(o) if bare => {
                out.push(Fence {
                    open: o,
                    close: Some(start),
                });
                open = None;
            }
            Some(_) => {}
        }
    }
    if let Some(o) = open {
        out.push(Fence {
            open: o,
            close: None,
        });
    }
    out
}

/// Finds the labels and the end of the usable reply.
///
/// A closed code block that opens after the first directive belongs to a value (an input or an
/// answer), so labels inside it are text, not steps. A block before any directive may be the
/// model fencing its whole reply, so labels there count.
///
/// An `Observation:` after a directive was written by the model itself: it and everything after
/// it is dropped. One before any directive is an echo of the previous step and is kept. A last
/// line that is only the start of "Observation" (a stop sequence cut it) is dropped too.
pub(crate) fn scan(text: &str) -> Scan {
    let fences = fences(text);
    let mut labels: Vec<Label> = Vec::new();
    let mut next_fence = 0;
    let mut hidden_until = None;
    let mut seen_directive = false;
    let mut cut = None;
    for (start, line) in lines(text) {
        if let Some(close) = hidden_until {
            if start == close {
                hidden_until = None;
            }
            continue;
        }
        if let Some(fence) = fences.get(next_fence).filter(|f| f.open == start) {
            next_fence += 1;
            if seen_directive {
                hidden_until = fence.close;
            }
            continue;
        }
        let Some(label) = match_label(start, line) else {
            continue;
        };
        if label.kind == Kind::Observation && seen_directive {
            cut = Some((start, Repair::HallucinatedObservationDropped));
            break;
        }
        seen_directive |= label.kind.is_directive();
        labels.push(label);
    }
    if cut.is_none() {
        let body = text.trim_end();
        let last_start = body.rfind('\n').map_or(0, |i| i + 1);
        let last_directive = labels.iter().rev().find(|l| l.kind.is_directive());
        if last_directive.is_some_and(|d| d.line_start < last_start)
            && is_partial_observation(body[last_start..].trim())
        {
            cut = Some((last_start, Repair::PartialObservationDropped));
        }
    }
    Scan {
        labels,
        fences,
        end: cut.map_or(text.len(), |(end, _)| end),
        cut: cut.map(|(_, repair)| repair),
    }
}

/// "Obs", "Observ", "Observation" alone on a line: what a stop sequence leaves behind.
fn is_partial_observation(line: &str) -> bool {
    const WORD: &str = "observation";
    (2..=WORD.len()).contains(&line.len()) && WORD.starts_with(&line.to_ascii_lowercase())
}

/// Longest keywords first, so "Action Input" is not read as "Action".
const KEYWORDS: &[(&[&str], Kind)] = &[
    (&["final", "answer"], Kind::FinalAnswer),
    (&["action", "input"], Kind::ActionInput),
    (&["thoughts"], Kind::Thought),
    (&["thought"], Kind::Thought),
    (&["action"], Kind::Action),
    (&["answer"], Kind::Answer),
    (&["observation"], Kind::Observation),
    (&["question"], Kind::Question),
];

/// Reads `  ## **Action 1:** value`-style labels: optional markdown prefix and emphasis, a
/// keyword in any case, an optional step number, then `:` or a full-width `：`.
fn match_label(line_start: usize, line: &str) -> Option<Label> {
    let b = line.as_bytes();
    let mut markdown = false;
    let mut i = skip_blank(b, 0);
    let hashes = b[i..].iter().take_while(|&&c| c == b'#').count();
    if hashes > 0 {
        markdown = true;
        i = skip_blank(b, i + hashes);
    }
    if b.get(i) == Some(&b'>') {
        markdown = true;
        i = skip_blank(b, i + 1);
    }
    if matches!(b.get(i), Some(b'-' | b'+' | b'*')) && matches!(b.get(i + 1), Some(b' ' | b'\t')) {
        markdown = true;
        i = skip_blank(b, i + 1);
    }
    i += emphasis(b, i, &mut markdown);
    let (kind, len) = KEYWORDS
        .iter()
        .find_map(|(words, kind)| Some((*kind, keyword(&b[i..], words)?)))?;
    i += len;
    let after_blank = skip_blank(b, i);
    let digits = b[after_blank..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let numbered = digits > 0;
    if numbered {
        i = after_blank + digits;
    }
    i += emphasis(b, i, &mut markdown);
    i = skip_blank(b, i);
    let full_width = if b[i..].starts_with(b":") {
        i += 1;
        false
    } else if b[i..].starts_with("：".as_bytes()) {
        i += "：".len();
        true
    } else {
        return None;
    };
    i += emphasis(b, i, &mut markdown);
    Some(Label {
        kind,
        line_start,
        value_start: line_start + i,
        full_width,
        markdown,
        numbered,
    })
}

fn skip_blank(b: &[u8], i: usize) -> usize {
    i + b[i..]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count()
}

/// Length of a markdown emphasis marker (`*`, `**`, `__`, ...) at `i`.
fn emphasis(b: &[u8], i: usize, markdown: &mut bool) -> usize {
    let n = b[i..]
        .iter()
        .take(3)
        .take_while(|&&c| c == b'*' || c == b'_')
        .count();
    *markdown |= n > 0;
    n
}

/// Matches the words case-insensitively, allowing ` `, `_` or `-` (or nothing) between them.
fn keyword(b: &[u8], words: &[&str]) -> Option<usize> {
    let mut i = 0;
    for (n, word) in words.iter().enumerate() {
        if n > 0 {
            i += b[i..]
                .iter()
                .take_while(|&&c| matches!(c, b' ' | b'_' | b'-'))
                .count();
        }
        let end = i + word.len();
        if !b.get(i..end)?.eq_ignore_ascii_case(word.as_bytes()) {
            return None;
        }
        i = end;
    }
    Some(i)
}
