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

/// A label; its value runs from `value_start` to the next label (or to `value_end`).
///
/// Most labels start a line. A label may also follow a sentence on a prose line (`… the
/// filter. Action: calculator`), the tool name on an Action line (`Action: foo Action Input:
/// bar`), or be a bare `tool[arg]` / `finish(…)` line; `line_start` is then where the label
/// itself starts, so the previous label's value ends there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Label {
    pub kind: Kind,
    pub line_start: usize,
    pub value_start: usize,
    /// Set for a bare action line: its value ends at the closing bracket.
    pub value_end: Option<usize>,
    /// An Action whose own line also holds a final-answer label (`Action: search Final
    /// Answer:`): neither is meant.
    pub mixed: bool,
    full_width: bool,
    markdown: bool,
    numbered: bool,
    translated: bool,
    pub mid_line: bool,
    pub bare: bool,
}

impl Label {
    /// The repairs needed to read this label.
    pub(crate) fn repairs(&self) -> impl Iterator<Item = Repair> {
        let inline_final = self.mid_line && self.kind == Kind::FinalAnswer;
        [
            (self.full_width, Repair::FullWidthColon),
            (self.markdown, Repair::MarkdownLabel),
            (self.numbered, Repair::NumberedLabel),
            (self.kind == Kind::Answer, Repair::AnswerLabel),
            (self.translated, Repair::TranslatedLabel),
            (inline_final, Repair::InlineFinalAnswer),
            (self.mid_line && !inline_final, Repair::InlineLabel),
            (self.bare, Repair::BareActionLine),
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
    /// Where the protocol starts: after a leading `<think>…</think>` block, else 0. The
    /// whole reply when that block never closes.
    pub start: usize,
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

/// Pairs fences like CommonMark does: inside a block only a bare fence closes it. Offsets
/// are `base` plus the position in `text`.
fn fences(text: &str, base: usize) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut open = None;
    for (start, line) in lines(text) {
        let start = base + start;
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
///
/// A leading `<think>…</think>` block (reasoning models) is thought, not protocol: scanning
/// starts after it, and the rest of its last line counts as a line start.
pub(crate) fn scan(text: &str) -> Scan {
    let start = reasoning_end(text);
    let body = &text[start..];
    let fences = fences(body, start);
    let mut labels: Vec<Label> = Vec::new();
    let mut next_fence = 0;
    let mut hidden_until = None;
    let mut seen_directive = false;
    let mut labelled_directive = false;
    // Once a line opens a JSON value, text after it may sit inside a JSON string: no label is
    // looked for in the middle of such lines.
    let mut json_seen = false;
    let mut cut = None;
    'lines: for (offset, line) in lines(body) {
        let line_start = start + offset;
        if let Some(close) = hidden_until {
            if line_start == close {
                hidden_until = None;
            }
            continue;
        }
        if let Some(fence) = fences.get(next_fence).filter(|f| f.open == line_start) {
            next_fence += 1;
            if seen_directive {
                hidden_until = fence.close;
            }
            continue;
        }
        let prose =
            !seen_directive && !json_seen && !line.trim_start().starts_with(['{', '[', '"']);
        json_seen |= line.trim_start().starts_with(['{', '[']);
        let mut found = Vec::new();
        line_labels(text, line_start, line_start + line.len(), prose, &mut found);
        if found.is_empty() && !seen_directive {
            found.extend(bare_action(line_start, line));
        }
        for label in found {
            if label.kind == Kind::Observation && seen_directive {
                cut = Some((label.line_start, Repair::HallucinatedObservationDropped));
                break 'lines;
            }
            seen_directive |= label.kind.is_directive();
            labelled_directive |= label.kind.is_directive() && !label.bare;
            labels.push(label);
        }
    }
    // A bare `tool[arg]` line stands in for a missing Action label only: with a labelled
    // directive in the reply, it is text.
    if labelled_directive {
        labels.retain(|l| !l.bare);
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
        start,
        end: cut.map_or(text.len(), |(end, _)| end),
        cut: cut.map(|(_, repair)| repair),
    }
}

/// Where the protocol starts: after a `<think>…</think>` block that opens the reply, the end
/// of the reply when that block never closes, else 0.
fn reasoning_end(text: &str) -> usize {
    const OPEN: &str = "<think>";
    const CLOSE: &str = "</think>";
    let lead = text.len() - text.trim_start().len();
    if !text[lead..].starts_with(OPEN) {
        return 0;
    }
    let inner = lead + OPEN.len();
    text[inner..]
        .find(CLOSE)
        .map_or(text.len(), |i| inner + i + CLOSE.len())
}

/// The labels of one line (`text[line_start..line_end]`): the one that starts it and those
/// further on. On a Thought line, and on a prose line before any directive, a label counts
/// right after a sentence; on an Action line, an `Action Input:` after the tool name counts,
/// and a final-answer label there marks the action as mixed.
fn line_labels(text: &str, line_start: usize, line_end: usize, prose: bool, out: &mut Vec<Label>) {
    let line = &text[line_start..line_end];
    let from = match match_label(line_start, line) {
        Some(label) => {
            out.push(label);
            match label.kind {
                Kind::Thought => label.value_start,
                Kind::Action => {
                    action_line(text, out.len() - 1, line_end, out);
                    return;
                }
                _ => return,
            }
        }
        None if prose => line_start,
        None => return,
    };
    after_sentences(text, from, line_end, out);
}

/// Labels right after a sentence in `text[from..end]`; an Action found there continues as an
/// Action line.
fn after_sentences(text: &str, from: usize, end: usize, out: &mut Vec<Label>) {
    let mut i = from;
    while i < end {
        // The label first (constant work), then the sentence end before it: checking every
        // position for a sentence end would rescan runs of spaces.
        let label = match_at(text, i, end, true).filter(|_| after_sentence_end(text, from, i));
        if let Some(label) = label {
            out.push(label);
            match label.kind {
                Kind::Thought => {
                    i = label.value_start;
                    continue;
                }
                Kind::Action => action_line(text, out.len() - 1, end, out),
                _ => {}
            }
            return;
        }
        i += 1;
        // Skip the rest of a multi-byte character.
        while i < end && !text.is_char_boundary(i) {
            i += 1;
        }
    }
}

/// Looks on the rest of an Action label's line for `Action Input:` (a label) or a final
/// answer label (which makes the action mixed).
fn action_line(text: &str, action: usize, end: usize, out: &mut Vec<Label>) {
    let mut i = out[action].value_start;
    while i < end {
        if text.is_char_boundary(i) && !after_word_char(text, i) {
            if let Some(label) = match_at(text, i, end, true) {
                match label.kind {
                    Kind::ActionInput => {
                        out.push(label);
                        return;
                    }
                    Kind::FinalAnswer | Kind::Answer => {
                        out[action].mixed = true;
                        return;
                    }
                    _ => {}
                }
            }
        }
        i += 1;
        while i < end && !text.is_char_boundary(i) {
            i += 1;
        }
    }
}

/// Whether the text before `i` (back to `from`, skipping spaces) ends a sentence: `.`, `!`,
/// `?` or their full-width forms.
fn after_sentence_end(text: &str, from: usize, i: usize) -> bool {
    let before = text[from..i].trim_end_matches([' ', '\t']);
    if before.len() == text[from..i].len() && !before.ends_with(['。', '！', '？']) {
        // An ASCII sentence end needs a space before the label.
        return false;
    }
    before.ends_with(['.', '!', '?', '。', '！', '？'])
}

/// Whether the character before `i` is a letter or digit (so a keyword at `i` is inside a
/// word).
fn after_word_char(text: &str, i: usize) -> bool {
    text[..i]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// A line that is only the paper form `tool[arg]` or a `finish(…)` call, bare or wrapped in
/// markdown (`**Finish[x]**`, `` `Finish[x]` ``, `> Finish[x]`): read as an Action line whose
/// value is exactly that form.
fn bare_action(line_start: usize, line: &str) -> Option<Label> {
    let b = line.as_bytes();
    let mut i = skip_blank(b, 0);
    let mut markdown = false;
    if b.get(i) == Some(&b'>') {
        i = skip_blank(b, i + 1);
    }
    if matches!(b.get(i), Some(b'-' | b'+' | b'*')) && matches!(b.get(i + 1), Some(b' ' | b'\t')) {
        i = skip_blank(b, i + 1);
    }
    i += emphasis(b, i, &mut markdown);
    i += b[i..].iter().take_while(|&&c| c == b'`').count();
    let name_len = b[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    if name_len == 0 || b[i].is_ascii_digit() {
        return None;
    }
    let name = &line[i..i + name_len];
    let close = match b.get(i + name_len) {
        Some(b'[') => b']',
        Some(b'(') if name.eq_ignore_ascii_case("finish") => b')',
        _ => return None,
    };
    let tail = line.trim_end().trim_end_matches(['*', '_', '`']);
    if !tail.ends_with(close as char) || tail.len() <= i + name_len + 1 {
        return None;
    }
    Some(Label {
        kind: Kind::Action,
        line_start: line_start + i,
        value_start: line_start + i,
        value_end: Some(line_start + tail.len()),
        mixed: false,
        full_width: false,
        markdown: false,
        numbered: false,
        translated: false,
        mid_line: false,
        bare: true,
    })
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

/// The labels as Chinese prompts write them (思考/行动/行动输入/观察/最终答案, and the 动作
/// translation of Action); longest first. Recognition data: what the parser reads in a reply,
/// not text the model is told (that is [`crate::told`]'s).
const TRANSLATED: &[(&str, Kind)] = &[
    ("行动输入", Kind::ActionInput),
    ("动作输入", Kind::ActionInput),
    ("最终答案", Kind::FinalAnswer),
    ("最终回答", Kind::FinalAnswer),
    ("思考", Kind::Thought),
    ("行动", Kind::Action),
    ("动作", Kind::Action),
    ("观察", Kind::Observation),
];

/// Reads `  ## **Action 1:** value`-style labels at the start of a line: optional markdown
/// prefix, then [`match_at`].
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
    let mut label = match_at(line, i, line.len(), false)?;
    label.markdown |= markdown;
    label.line_start = line_start;
    label.value_start += line_start;
    Some(label)
}

/// A label at `text[i..]` (not past `end`): optional emphasis, a keyword (any case; or, with
/// `mid_line`, starting with a capital letter), an optional step number, then `:` or a
/// full-width `：`, and emphasis that closes the label. Offsets are into `text`.
fn match_at(text: &str, i: usize, end: usize, mid_line: bool) -> Option<Label> {
    let b = &text.as_bytes()[..end];
    let start = i;
    let mut markdown = false;
    let mut i = i + emphasis(b, i, &mut markdown);
    let (kind, len, translated) = match KEYWORDS
        .iter()
        .find_map(|(words, kind)| Some((*kind, keyword(&b[i..], words)?)))
    {
        Some((_, _)) if mid_line && !b[i].is_ascii_uppercase() => return None,
        Some((kind, len)) => (kind, len, false),
        None => TRANSLATED
            .iter()
            .find(|(word, _)| b[i..].starts_with(word.as_bytes()))
            .map(|(word, kind)| (*kind, word.len(), true))?,
    };
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
    // `Action Input: ** {…}`: bold markup closing the label after a space (a single `*` may
    // be a list bullet, so it stays).
    let after_blank = skip_blank(b, i);
    let mut closing = false;
    let n = emphasis(b, after_blank, &mut closing);
    if n >= 2 && matches!(b.get(after_blank + n), Some(b' ' | b'\t')) {
        markdown = true;
        i = after_blank + n;
    }
    Some(Label {
        kind,
        line_start: start,
        value_start: i,
        value_end: None,
        mixed: false,
        full_width,
        markdown,
        numbered,
        translated,
        mid_line,
        bare: false,
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
