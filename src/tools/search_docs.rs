//! The `search_docs` tool: BM25 keyword search over the documents the host supplies.
//!
//! Tokens: maximal runs of letters and digits, lowercased (so "RAG" and "rag" match), except
//! for CJK text, which has no spaces between words: there every character is a token and so is
//! every pair of neighbouring characters, which lets "检索增强生成" match "检索增强生成（RAG）"
//! without a dictionary. A few very common words (English "what", "is"…, Chinese 的, 是, 什么…)
//! are dropped so that questions rank by their content words.

use crate::lower::push_lower;
use serde_json::json;

use super::{Document, ToolError, ToolSpec};

pub const DEFAULT_TOP_K: usize = 3;
pub const MAX_TOP_K: usize = 10;
/// The whole result in characters (not bytes, so CJK text is never cut inside a character):
/// the loop's default observation limit, so that the loop does not cut the answer off.
const OUTPUT_CHARS: usize = 500;
/// The most a result after the first shows of its text: what it is about. The best match gets
/// the rest, where the answer usually is: its whole paragraph when it fits. (At 300 characters
/// "…discovers and calls them over JSON-RPC 2.0" and "The name comes from Lewis et al." were
/// cut off the paragraph a question asked about.)
const SNIPPET_CHARS: usize = 100;
/// The least the best match shows, however many results follow it.
const MIN_FIRST_CHARS: usize = 300;
/// A title states what a document is about, so a query term in it counts this many times.
const TITLE_WEIGHT: usize = 3;
/// A result scoring below this share of the best one matched only incidental words (a question's
/// "used" or "model"); listing it invites a small model to blend an unrelated document into the
/// answer.
const MIN_RELATIVE_SCORE: f64 = 0.3;
/// How many document titles a "no match" error lists, to suggest what can be found.
const MAX_TOPICS: usize = 12;
// The usual BM25 constants.
const K1: f64 = 1.2;
const B: f64 = 0.75;

// Function words, and the words that frame a question ("what is X used for", "what does X
// stand for"): in a small document set such a word can be as rare as the topic itself.
const STOP_WORDS: &[&str] = &[
    "a", "about", "an", "and", "are", "as", "at", "be", "by", "can", "describe", "did", "do",
    "does", "explain", "for", "from", "has", "have", "how", "i", "in", "is", "it", "its", "mean",
    "means", "me", "of", "on", "or", "purpose", "stand", "stands", "tell", "that", "the", "this",
    "to", "use", "used", "uses", "was", "were", "what", "when", "where", "which", "who", "why",
    "with",
];
// Pairs that frame a Chinese question ("主要用来做什么", "用于什么"), dropped as pairs: their
// characters still count one by one. These and the characters below are recognition data for
// the search, not text the model is told.
const STOP_PAIRS: &[&str] = &["主要", "用来", "用于", "一下"];
const STOP_CHARS: &[char] = &[
    '的', '是', '了', '吗', '呢', '吧', '啊', '在', '和', '与', '及', '或', '什', '么', '怎', '哪',
    '个', '请', '我', '你',
];

pub(crate) fn spec() -> ToolSpec {
    ToolSpec {
        name: super::Builtin::SearchDocs.name().into(),
        description: "Searches the reference documents by keywords.".into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "query": { "type": "string", "description": "keywords to look for" },
                "top_k": {
                    "type": "integer",
                    "description": "how many results to return (1 to 10, default 3)",
                    "default": DEFAULT_TOP_K
                }
            },
            "required": ["query"],
            "examples": [{ "query": "<keywords from the question>" }]
        }),
        // A question that says where to look; the terms the documents hold are the role's.
        keywords: [
            "document",
            "documents",
            "docs",
            "documentation",
            "reference",
            "knowledge base",
            "look up",
            "according to",
            "文档",
            "资料",
            "查一下",
            "查资料",
        ]
        .map(String::from)
        .to_vec(),
        role: Some(super::Role::Searches),
        ..ToolSpec::default()
    }
}

/// Returns the best `top_k` documents as `[1] Title: snippet…` lines.
pub fn search(docs: &[Document], query: &str, top_k: usize) -> Result<String, ToolError> {
    if docs.is_empty() {
        return Err(ToolError::NoDocuments);
    }
    // Each once, in order: scores are summed in the terms' order, so the same query scores the
    // same (a hash set's order changed from one set to the next).
    let mut terms = tokenize(query);
    crate::order::sort_by(&mut terms, |a, b| a.cmp(b));
    terms.dedup();
    if terms.is_empty() {
        return Err(ToolError::EmptyQuery);
    }
    let ranked = rank(docs, &terms);
    if ranked.is_empty() {
        return Err(ToolError::NoMatch {
            query: query.trim().into(),
            topics: docs
                .iter()
                .take(MAX_TOPICS)
                .map(|d| d.title.clone())
                .collect(),
        });
    }
    let cutoff = ranked[0].0 * MIN_RELATIVE_SCORE;
    let chars = |text: &str| text.chars().count();
    // Titles are listed while the best match keeps its room; its text comes next, the others'
    // from what is left.
    let mut listed = 0;
    let (found, heads): (Vec<&Document>, Vec<String>) = ranked
        .iter()
        .take(top_k.clamp(1, MAX_TOP_K))
        .take_while(|(score, _)| *score >= cutoff)
        .enumerate()
        .map(|(i, &(_, doc))| (doc, format!("[{}] {}", i + 1, doc.title)))
        .take_while(|(_, head)| {
            listed += chars(head) + 1;
            listed == chars(head) + 1 || listed + MIN_FIRST_CHARS <= OUTPUT_CHARS
        })
        .unzip();
    let cjk = query.chars().any(is_cjk);
    let titles: usize = heads.iter().map(|h| chars(h) + 1).sum();
    let mut left = OUTPUT_CHARS.saturating_sub(titles);
    let mut lines = Vec::with_capacity(found.len());
    for (i, (doc, head)) in found.iter().zip(heads).enumerate() {
        let others = found.len() - 1 - i;
        let room = if i == 0 {
            left.saturating_sub(others * SNIPPET_CHARS)
                .max(MIN_FIRST_CHARS)
        } else {
            (left / (others + 1)).min(SNIPPET_CHARS)
        };
        // ": " and an ellipsis need room too; a few words say nothing.
        if room < 24 {
            lines.push(head);
            continue;
        }
        let text = snippet(&doc.text, &terms, cjk, room - 3);
        left = left.saturating_sub(chars(&text) + 2);
        lines.push(format!("{head}: {text}"));
    }
    Ok(lines.join("\n"))
}

/// Documents with a positive BM25 score and that score, best first (ties keep document order).
///
/// The statistics are recomputed for every query: document sets here are small (tens of short
/// documents), and a cached index would have to be kept in step with `set_documents` and serde.
fn rank<'a>(docs: &'a [Document], terms: &[String]) -> Vec<(f64, &'a Document)> {
    let tokenized: Vec<Vec<String>> = docs
        .iter()
        .map(|d| {
            let title = tokenize(&d.title);
            let mut tokens: Vec<String> = (0..TITLE_WEIGHT).flat_map(|_| title.clone()).collect();
            tokens.extend(tokenize(&d.text));
            tokens
        })
        .collect();
    let n = docs.len() as f64;
    let avg_len = (tokenized.iter().map(Vec::len).sum::<usize>() as f64 / n).max(1.0);
    // For each term, how often each document holds it, and its inverse document frequency.
    let counts: Vec<Vec<f64>> = (terms.iter())
        .map(|term| {
            (tokenized.iter())
                .map(|tokens| tokens.iter().filter(|t| *t == term).count() as f64)
                .collect()
        })
        .collect();
    let idf: Vec<f64> = (counts.iter())
        .map(|in_docs| {
            let df = in_docs.iter().filter(|&&f| f > 0.0).count() as f64;
            crate::math::ln(1.0 + (n - df + 0.5) / (df + 0.5))
        })
        .collect();
    let mut scored: Vec<(f64, &Document)> = (tokenized.iter().zip(docs).enumerate())
        .map(|(at, (tokens, doc))| {
            let len_norm = 1.0 - B + B * tokens.len() as f64 / avg_len;
            let score: f64 = (terms.iter().zip(&counts).zip(&idf))
                .filter(|((_, in_docs), _)| in_docs[at] > 0.0)
                .map(|((term, in_docs), idf)| {
                    let f = in_docs[at];
                    term_weight(term) * idf * f * (K1 + 1.0) / (f + K1 * len_norm)
                })
                .sum();
            (score, doc)
        })
        .filter(|(score, _)| *score > 0.0)
        .collect();
    // Stable sort: equal scores keep the host's document order.
    crate::order::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0));
    scored
}

/// The paragraph of the sentence with the most distinct query terms (the earliest on a tie,
/// which is often the one that defines the subject), whole when it fits in `max` characters;
/// else from that sentence on, in whole sentences, with an ellipsis where it was cut. Terms
/// count by `term_weight`. In a bilingual text a matching sentence in the query's script
/// (Chinese or not) comes first.
fn snippet(text: &str, terms: &[String], query_cjk: bool, max: usize) -> String {
    // (a match in the query's script, weight of the distinct terms hit in thirds, start byte)
    let mut best = (false, 0, 0);
    for start in sentence_starts(text) {
        let sentence = text[start..]
            .split(is_sentence_end)
            .next()
            .unwrap_or_default();
        let tokens = tokenize(sentence);
        // Whole thirds: a tie is a tie, and the earliest sentence wins it.
        let weight: u32 = (terms.iter())
            .filter(|term| tokens.contains(term))
            .map(|term| thirds(term))
            .sum();
        let script = weight > 0 && sentence.chars().any(is_cjk) == query_cjk;
        if (script, weight) > (best.0, best.1) {
            best = (script, weight, start);
        }
    }
    let line_start = text[..best.2].rfind('\n').map_or(0, |i| i + 1);
    let paragraph = text[line_start..].lines().next().unwrap_or_default().trim();
    if paragraph.chars().count() <= max {
        return paragraph.to_string();
    }
    let from_best = text[best.2..].lines().next().unwrap_or_default().trim();
    if from_best.chars().count() <= max {
        return from_best.to_string();
    }
    let cut = from_best
        .char_indices()
        .nth(max)
        .map_or(from_best.len(), |(i, _)| i);
    let head = &from_best[..cut];
    // The last sentence end that fits; a sentence longer than `max` is cut where it reaches it.
    let end = head
        .char_indices()
        .filter(|&(i, c)| {
            let next = from_best[i + c.len_utf8()..].chars().next();
            is_sentence_end(c) && (!c.is_ascii() || next.is_some_and(char::is_whitespace))
        })
        .map(|(i, c)| i + c.len_utf8())
        .next_back();
    match end {
        Some(end) if !head[..end].ends_with(|c: char| c.is_ascii()) => format!("{}…", &head[..end]),
        Some(end) => format!("{} …", &head[..end]),
        None => format!("{head}…"),
    }
}

/// A single Chinese character is a third of a word: alone it is rarely the subject (用 and 做 in
/// "FAISS 主要用来做什么" must not outweigh the name), while the pairs carry the words.
fn term_weight(term: &str) -> f64 {
    f64::from(thirds(term)) / 3.0
}

/// [`term_weight`] in thirds.
fn thirds(term: &str) -> u32 {
    let mut chars = term.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if is_cjk(c) => 1,
        _ => 3,
    }
}

fn is_sentence_end(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '\n')
}

/// Byte offsets where sentences begin (always char boundaries): 0, and the first
/// non-whitespace character after each sentence end. One pass, so that a long run of blank
/// lines costs linear time (trimming the rest of the text after every end was quadratic).
fn sentence_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let mut after_end = false;
    for (i, c) in text.char_indices() {
        if after_end && !c.is_whitespace() {
            starts.push(i);
            after_end = false;
        }
        if is_sentence_end(c) {
            after_end = true;
        }
    }
    starts
}

fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK Extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK Unified Ideographs
        | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        | '\u{F900}'..='\u{FAFF}' // CJK Compatibility Ideographs
    )
}

/// Search tokens of `text` (see the module comment).
pub(crate) fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut prev_cjk: Option<char> = None;
    for c in text.chars() {
        if is_cjk(c) {
            flush_word(&mut word, &mut tokens);
            if !STOP_CHARS.contains(&c) {
                tokens.push(c.to_string());
                if let Some(p) = prev_cjk.filter(|p| !STOP_CHARS.contains(p)) {
                    let pair: String = [p, c].iter().collect();
                    if !STOP_PAIRS.contains(&pair.as_str()) {
                        tokens.push(pair);
                    }
                }
            }
            prev_cjk = Some(c);
        } else {
            prev_cjk = None;
            if c.is_alphanumeric() {
                push_lower(&mut word, c);
            } else {
                flush_word(&mut word, &mut tokens);
            }
        }
    }
    flush_word(&mut word, &mut tokens);
    tokens
}

fn flush_word(word: &mut String, tokens: &mut Vec<String>) {
    if !word.is_empty() && !STOP_WORDS.contains(&word.as_str()) {
        tokens.push(std::mem::take(word));
    }
    word.clear();
}

#[cfg(test)]
mod tests {
    use super::{sentence_starts, tokenize};

    #[test]
    fn sentence_start_offsets() {
        for (text, want) in [
            ("", &[0][..]),
            ("One. Two", &[0, 5]),
            ("One.\n\n\n  Two", &[0, 9]),
            // A run of ends: each one that is not whitespace starts a (tiny) sentence.
            ("One?! Two", &[0, 4, 6]),
            ("One.  \n", &[0]),
            ("甲。乙\u{3000}丙！", &[0, 6]),
            ("\n\nOne", &[0, 2]),
        ] {
            assert_eq!(sentence_starts(text), want, "{text:?}");
        }
    }

    #[test]
    fn tokens() {
        assert_eq!(tokenize("What is RAG-2?"), ["rag", "2"]);
        assert_eq!(
            tokenize("什么是检索"),
            ["检", "索", "检索"],
            "stop characters and pairs containing them are dropped"
        );
        assert_eq!(tokenize("MCP协议"), ["mcp", "协", "议", "协议"]);
        assert_eq!(
            tokenize("用来"),
            ["用", "来"],
            "a question's framing pair keeps only its characters"
        );
        assert!(tokenize("").is_empty());
    }
}
