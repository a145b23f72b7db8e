//! A question that asks how much two things it names differ: "How many more people live in
//! Norway than in Iceland?", 开罗的气温比奥斯陆高多少度？. Its answer is a computation on two
//! facts, neither of which the question gives: the 0.5B model found both populations and
//! answered with one of them. The computation comes after both facts are found.
//!
//! The word lists are recognition data, read in the question, never told to the model.

use super::days::find_word;

/// Words that compare before "than" ("more … than", "fewer than").
const MORE: &[&str] = &["more", "less", "fewer"];
/// Words ending in -er that compare nothing.
#[rustfmt::skip]
const NOT_COMPARATIVE: &[&str] = &[
    "other", "rather", "either", "neither", "whether", "number", "order", "after", "over",
    "under", "never", "ever", "per", "water", "weather", "paper", "user", "server", "member",
];
/// How far before "than" the comparing word may stand ("more people live in Norway than").
const WORDS_BEFORE_THAN: usize = 6;
/// Adjectives after 比 that compare an amount (高 in 比奥斯陆高), within a few characters.
const CHINESE_MORE: &str = "多少高低大小贵快慢长短重轻暖冷热远近早晚老";
const CHARS_AFTER_BI: usize = 8;
/// Ways to ask for the amount of the difference.
#[rustfmt::skip]
const AMOUNT: &[&str] = &[
    "how many", "how much", "by what", "多少", "几",
];
/// Phrases that name the difference itself.
#[rustfmt::skip]
const DIFFERENCE: &[&str] = &["difference between", "相差", "差多少", "差距", "差几"];

/// The phrase by which `lower` (a lower-case question) asks how much two things differ, or
/// `None`: a comparison that asks for an amount ("how many more … than", "比…高多少"), or a
/// phrase for the difference ("difference between", 相差).
pub(super) fn comparison(lower: &str) -> Option<String> {
    if let Some(phrase) = DIFFERENCE.iter().find(|p| find_word(lower, p).is_some()) {
        return Some(phrase.to_string());
    }
    if !AMOUNT.iter().any(|p| find_word(lower, p).is_some()) {
        return None;
    }
    english(lower).or_else(|| chinese(lower))
}

/// "more … than", "warmer than": a comparing word at most a few words before "than".
fn english(lower: &str) -> Option<String> {
    let at = find_word(lower, "than")?;
    let before: Vec<&str> = lower[..at]
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let near = &before[before.len().saturating_sub(WORDS_BEFORE_THAN)..];
    let word = near.iter().rev().find(|w| {
        MORE.contains(w) || (w.len() >= 4 && w.ends_with("er") && !NOT_COMPARATIVE.contains(w))
    })?;
    Some(format!("{word} than"))
}

/// Words that begin with 比 and compare nothing (比例 is a ratio, 比赛 a match).
const NOT_BI: &str = "例率赛分较如方";

/// 比 with an adjective of amount a few characters after it: 比奥斯陆高, 比冰岛多.
fn chinese(lower: &str) -> Option<String> {
    let at = lower.find('比')?;
    let after: String = lower[at..].chars().take(CHARS_AFTER_BI + 1).collect();
    if after.chars().nth(1).is_some_and(|c| NOT_BI.contains(c)) {
        return None;
    }
    let adjective = after.chars().skip(1).find(|c| CHINESE_MORE.contains(*c))?;
    let end = after.find(adjective)? + adjective.len_utf8();
    Some(after[..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::comparison;
    use crate::lower::Lower;

    #[test]
    fn comparisons_read_from_questions() {
        let cases: &[(&str, Option<&str>)] = &[
            (
                "How many more people live in Norway than in Iceland?",
                Some("more than"),
            ),
            (
                "How much warmer is Cairo than Oslo today?",
                Some("warmer than"),
            ),
            (
                "By how much is ACME's price higher than GLOBX's?",
                Some("higher than"),
            ),
            (
                "How many fewer days does February have than March?",
                Some("fewer than"),
            ),
            (
                "What is the difference between the two prices?",
                Some("difference between"),
            ),
            ("开罗的气温比奥斯陆高多少度？", Some("比奥斯陆高")),
            ("挪威比冰岛多多少人？", Some("比冰岛多")),
            ("两地气温相差几度？", Some("相差")),
            // No amount asked: a yes-or-no comparison, or a choice.
            ("Is Norway larger than Iceland?", None),
            ("开罗比奥斯陆热吗？", None),
            // "than" with no comparing word near it, or none at all.
            (
                "How many people live in no other country than Iceland?",
                None,
            ),
            ("How many people live in Iceland?", None),
            ("What is 48 * 37?", None),
            ("比例是多少？", None),
        ];
        for (question, expected) in cases {
            assert_eq!(
                comparison(&question.lower()).as_deref(),
                *expected,
                "{question}"
            );
        }
    }
}
