//! A day counted from today in a question, or the current year: "tomorrow", "30 days from today", "3 weeks ago",
//! 昨天, "45 天以后". Small models cannot count days on a calendar (the 0.5B model answered
//! "yesterday" with today's date, and "in 30 days" with `2025-03-14 + 30`); the clock counts
//! them when it is told how many (`current_time`'s `days`), and this reading tells it.
//!
//! The word lists are recognition data, not text the model is told.

use crate::lower::Lower;

/// Words that are a day offset by themselves; the longer of two overlapping ones first.
#[rustfmt::skip]
const WORDS: &[(&str, i64)] = &[
    ("the day after tomorrow", 2), ("the day before yesterday", -2),
    ("tomorrow", 1), ("yesterday", -1),
    ("大后天", 3), ("大前天", -3), ("后天", 2), ("前天", -2), ("明天", 1), ("昨天", -1),
    ("明日", 1), ("昨日", -1),
];

/// What may follow "N days" (or weeks) to count forward or back from today.
#[rustfmt::skip]
const AFTER_EN: &[(&str, i64)] = &[
    ("from today", 1), ("from now", 1), ("after today", 1), ("later", 1), ("hence", 1),
    ("ahead", 1), ("ago", -1), ("before today", -1), ("earlier", -1),
];
const AFTER_ZH: &[(&str, i64)] = &[
    ("之后", 1),
    ("以后", 1),
    ("后", 1),
    ("之前", -1),
    ("以前", -1),
    ("前", -1),
];

/// Words for the current year: a computation with "this year" uses the year the clock gave.
const THIS_YEAR: &[&str] = &["this year", "current year", "今年", "本年"];

/// Whether the question counts with the current year ("years since 1969 as of this year").
pub fn this_year(question: &str) -> bool {
    let lower = question.lower();
    THIS_YEAR.iter().any(|w| find_word(&lower, w).is_some())
}

/// The largest count read: a calendar far beyond it is no question about today.
const MAX_DAYS: i64 = 100_000;

/// The day offset a question names, with the words that name it: `("30 days from today",
/// 30)`. None when it names none, or two that disagree.
pub fn day_offset(question: &str) -> Option<(String, i64)> {
    let lower = question.lower();
    let mut found: Vec<(String, i64)> = Vec::new();
    let mut taken = lower.clone();
    for &(word, days) in WORDS {
        if let Some(at) = find_word(&taken, word) {
            found.push((word.to_string(), days));
            // Blank it, so "tomorrow" is not found again inside "the day after tomorrow".
            taken.replace_range(at..at + word.len(), &" ".repeat(word.len()));
        }
    }
    found.extend(counted(&lower));
    let (first, rest) = found.split_first()?;
    rest.iter()
        .all(|(_, d)| *d == first.1)
        .then(|| first.clone())
}

/// "N days/weeks <from today|ago|…>", "in N days", "N 天(之)后", "N 周前".
fn counted(lower: &str) -> Vec<(String, i64)> {
    let chars: Vec<(usize, char)> = lower.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].1.is_ascii_digit() || (i > 0 && chars[i - 1].1.is_ascii_alphanumeric()) {
            i += 1;
            continue;
        }
        let start = chars[i].0;
        let mut j = i;
        while j < chars.len() && chars[j].1.is_ascii_digit() {
            j += 1;
        }
        let end = chars.get(j).map_or(lower.len(), |c| c.0);
        i = j;
        let Ok(n) = lower[start..end].parse::<i64>() else {
            continue;
        };
        let rest = lower[end..].trim_start();
        let Some((unit, per)) = unit(rest) else {
            continue;
        };
        let after = rest[unit.len()..].trim_start();
        let at = |tail: &str| lower.len() - tail.len();
        let list = if unit.is_ascii() { AFTER_EN } else { AFTER_ZH };
        let suffix = list.iter().find(|(w, _)| match unit.is_ascii() {
            true => starts_with_word(after, w),
            false => after.starts_with(w),
        });
        // "in 10 days": the count comes after "in".
        let before = lower[..start].trim_end();
        let prefixed = unit.is_ascii() && (before.ends_with(" in") || before == "in");
        let (sign, phrase_end) = match suffix {
            Some(&(w, sign)) => (sign, at(after) + w.len()),
            None if prefixed => (1, at(rest) + unit.len()),
            None => continue,
        };
        let days = n.saturating_mul(per);
        if days <= MAX_DAYS {
            out.push((lower[start..phrase_end].to_string(), sign * days));
        }
    }
    out
}

/// The unit after a count, and its days: day(s), week(s), 天, 日, 周, 星期, 个星期.
fn unit(rest: &str) -> Option<(&'static str, i64)> {
    #[rustfmt::skip]
    const UNITS: &[(&str, i64)] = &[
        ("days", 1), ("day", 1), ("weeks", 7), ("week", 7),
        ("天", 1), ("日", 1), ("个星期", 7), ("星期", 7), ("周", 7),
    ];
    UNITS
        .iter()
        .find(|(u, _)| {
            if u.is_ascii() {
                starts_with_word(rest, u)
            } else {
                rest.starts_with(u)
            }
        })
        .copied()
}

/// Where `word` occurs in `lower`: a Latin word at word boundaries ("now" is not in "know"),
/// a Chinese one anywhere. The tool fit's word lists are matched the same way.
pub(super) fn find_word(lower: &str, word: &str) -> Option<usize> {
    if !word.is_ascii() {
        return lower.find(word);
    }
    lower.match_indices(word).map(|(at, _)| at).find(|&at| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word)
        && !text[word.len()..]
            .chars()
            .next()
            .is_some_and(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::day_offset;

    #[test]
    fn offsets_read_from_questions() {
        let cases: &[(&str, Option<(&str, i64)>)] = &[
            ("What was the date yesterday?", Some(("yesterday", -1))),
            ("Which day of the week is tomorrow?", Some(("tomorrow", 1))),
            (
                "What is the day after tomorrow?",
                Some(("the day after tomorrow", 2)),
            ),
            (
                "What will the date be 30 days from today?",
                Some(("30 days from today", 30)),
            ),
            (
                "What day of the week will it be in 10 days?",
                Some(("10 days", 10)),
            ),
            ("What was the date 3 weeks ago?", Some(("3 weeks ago", -21))),
            ("100 天之后是星期几？", Some(("100 天之后", 100))),
            ("从今天算起 45 天以后是几月几日？", Some(("45 天以后", 45))),
            ("昨天是星期几？", Some(("昨天", -1))),
            ("明天是几月几日？", Some(("明天", 1))),
            ("2 周前是几号？", Some(("2 周前", -14))),
            ("What is today's date?", None),
            ("How many days are left in the current month?", None),
            ("Add 30 days of interest to 100.", None),
            ("Was yesterday colder than tomorrow will be?", None),
            ("What is 12 days times 3?", None),
        ];
        assert!(super::this_year("How old do they turn this year?"));
        assert!(super::this_year("用今年的年份减去 1949"));
        assert!(!super::this_year("What year is it?"));
        for (question, want) in cases {
            let got = day_offset(question);
            let want = want.map(|(p, d)| (p.to_string(), d));
            assert_eq!(got, want, "{question}");
        }
    }
}
