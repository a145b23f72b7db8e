//! Factors a question writes in words, read as numbers to compute with.

use crate::lower::Lower;

/// The factors `text` writes in words, in digits: "twice", "double", "three times", 两倍, 三倍
/// ("2", "3"). "冰岛人口的两倍是多少？" asks to compute on the population; the 0.5B model, never
/// steered to the calculator, answered the population.
pub fn factors(text: &str) -> Vec<String> {
    const WORDS: &[(&str, u32)] = &[
        ("twice", 2),
        ("double", 2),
        ("doubled", 2),
        ("thrice", 3),
        ("triple", 3),
        ("tripled", 3),
        ("quadruple", 4),
    ];
    const COUNTS: &[&str] = &[
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    const CHINESE: &str = "一二三四五六七八九十";
    let lower = text.lower();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: Vec<u32> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        if let Some((_, n)) = WORDS.iter().find(|(w, _)| w == word) {
            out.push(*n);
        } else if let Some(n) = COUNTS.iter().position(|c| c == word) {
            out.extend((words.get(i + 1) == Some(&"times")).then_some(n as u32 + 2));
        }
    }
    let chars: Vec<char> = text.chars().collect();
    for pair in chars.windows(2) {
        out.extend(match pair {
            ['两' | '翻', '倍'] => Some(2),
            [c, '倍'] => CHINESE.chars().position(|d| d == *c).map(|n| n as u32 + 1),
            _ => None,
        });
    }
    let mut written: Vec<String> = Vec::new();
    for n in out.into_iter().map(|n| n.to_string()) {
        if !written.contains(&n) {
            written.push(n);
        }
    }
    written
}

#[cfg(test)]
mod tests {
    use super::factors;

    #[test]
    fn factors_written_in_words() {
        let cases: &[(&str, &[&str])] = &[
            ("冰岛人口的两倍是多少？", &["2"]),
            ("What is twice the price of ACME?", &["2"]),
            ("three times the population of Norway", &["3"]),
            ("价格翻倍后是多少？", &["2"]),
            ("是日本人口的十倍吗", &["10"]),
            // Asked, not given: "how many times", 几倍.
            ("How many times larger is Norway?", &[]),
            ("挪威的人口是冰岛的几倍？", &[]),
            ("What is 12 * 3?", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(factors(text), *want, "{text}");
        }
    }
}
