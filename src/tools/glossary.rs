//! Words a question in one of the run's two languages shares with a tool declared in the
//! other: 天气 for a `weather` tool, "weather" for a tool described as 查询天气. A teacher
//! registers her tool in English and her class asks in Chinese; the tool fit reads the
//! question's words through this list. Recognition data for the fit, never text the model is
//! told: the common subjects of tools (weather, money, orders, places, units, messages,
//! media, travel, health), not the questions of any benchmark.

use super::declared::{find_form, subject};
use super::fit::Evidence;
use super::ToolSpec;

/// The terms: `term|word,word`, a Chinese term and its English words (`glossary.txt`).
const GLOSSARY: &str = include_str!("glossary.txt");

/// Each Chinese term with its English words (lower case; a word's plural is matched by `fit`).
fn pairs() -> impl Iterator<Item = (&'static str, Words)> {
    super::data_lines(GLOSSARY)
        .filter_map(|l| l.split_once('|'))
        .map(|(zh, en)| (zh, Words(en)))
}

/// A term's English words, as the glossary lists them.
#[derive(Clone, Copy)]
struct Words(&'static str);

impl Words {
    fn iter(self) -> std::str::Split<'static, char> {
        self.0.split(',')
    }

    fn contains(self, word: &str) -> bool {
        self.iter().any(|w| w == word)
    }
}

/// The question's terms with their words in the other language: (the term as the question
/// writes it, one word of the other language), longest terms first, each place in the
/// question read once (股价 and not also 股).
pub(super) fn glosses(lower: &str) -> Vec<(&'static str, &'static str)> {
    let mut terms: Vec<(&'static str, &'static str, usize, usize)> = Vec::new();
    for (zh, en) in pairs() {
        // Chinese terms anywhere: the question writes no spaces between words.
        for (at, _) in lower.match_indices(zh) {
            terms.extend(en.iter().map(|w| (zh, w, at, zh.len())));
        }
        // English words at word boundaries, in a light word form, for a tool declared in
        // Chinese.
        for word in en.iter().filter(|w| w.len() >= 4) {
            let at = super::days::find_word(lower, word)
                .or_else(|| super::days::find_word(lower, &format!("{word}s")));
            if let Some(at) = at {
                terms.push((word, zh, at, word.len()));
            }
        }
    }
    // Longest first, so that a shorter term inside a longer one's place is dropped.
    crate::order::sort_by_key(&mut terms, |t| std::cmp::Reverse(t.3));
    let mut taken: Vec<(usize, usize, &str)> = Vec::new();
    let mut out = Vec::new();
    for (term, word, at, len) in terms {
        let overlaps = |&(a, l, t): &(usize, usize, &str)| t != term && at < a + l && a < at + len;
        if taken.iter().any(overlaps) {
            continue;
        }
        taken.push((at, len, term));
        if !out.contains(&(term, word)) {
            out.push((term, word));
        }
    }
    out
}

/// The words of every term `word` is one of, in English: "rmb" and 人民币 give "cny", "yuan",
/// "rmb".
pub(super) fn synonyms(word: &str) -> impl Iterator<Item = &'static str> + '_ {
    pairs()
        .filter(move |(zh, en)| *zh == word || en.contains(word))
        .flat_map(|(_, en)| en.iter())
}

/// What the question's terms in the other language point to (`glossary`): 股价 ("price") is
/// the subject of `stock_price`, 美元 ("usd") a word of a description that lists USD. One
/// piece of evidence per term, none for a term the question's own words already gave.
pub(super) fn translated(
    spec: &ToolSpec,
    declared: &str,
    glossed: &[(&str, &str)],
    found: &[Evidence],
) -> Vec<Evidence> {
    let subject = subject(spec);
    let mut out: Vec<Evidence> = Vec::new();
    let mut read: Vec<&str> = Vec::new();
    // A term the tool is about before one its text only mentions.
    for about in [true, false] {
        for &(term, word) in glossed {
            let given = found.iter().any(|e| match e {
                Evidence::Described { word } | Evidence::Keyword { word } => word == term,
                _ => false,
            });
            if given || read.contains(&term) {
                continue;
            }
            let word_shown = format!("{term} ({word})");
            if about && subject.iter().any(|s| find_form(word, s).is_some()) {
                out.push(Evidence::Keyword { word: word_shown });
            } else if !about && find_form(declared, word).is_some() {
                out.push(Evidence::Described { word: word_shown });
            } else {
                continue;
            }
            read.push(term);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{glosses, pairs, GLOSSARY};

    /// Every line is a comment or a Chinese term with English words in lower case.
    #[test]
    fn every_line_of_the_glossary_reads() {
        let lines = GLOSSARY.lines().filter(|l| !l.starts_with('#'));
        assert_eq!(lines.count(), pairs().count(), "a line without `|`");
        for (zh, en) in pairs() {
            assert!(zh.chars().all(crate::lang::is_cjk_ideograph), "{zh}");
            for word in en.iter() {
                assert!(!word.is_empty() && word.trim() == word, "{zh}: {:?}", en.0);
                assert!(!word.chars().any(char::is_uppercase), "{zh}: {word}");
            }
        }
        assert!(pairs().count() > 100);
    }

    #[test]
    fn a_question_read_in_the_other_language() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("开罗今天天气怎么样？", &[("天气", "weather")]),
            (
                "globx 的股价现在是多少？",
                &[
                    ("股价", "share price"),
                    ("股价", "stock price"),
                    ("股价", "price"),
                ],
            ),
            (
                "10 英里是多少公里？",
                &[
                    ("英里", "mi"),
                    ("英里", "mile"),
                    ("公里", "km"),
                    ("公里", "kilometer"),
                    ("公里", "kilometre"),
                ],
            ),
            ("what is the weather in paris?", &[("weather", "天气")]),
            (
                "how many orders shipped?",
                &[("order", "订单"), ("shipped", "发货")],
            ),
            // No term: nothing read into the question.
            ("what is 48 * 37?", &[]),
        ];
        for (question, expected) in cases {
            let mut got = glosses(question);
            let mut want = expected.to_vec();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{question}");
        }
    }
}
