//! Loose matching of names as a model writes them (misspelt, differently cased, partial), for
//! tool names and argument keys alike; ambiguous matches are refused, never guessed.

use super::registry::MAX_WRITTEN_NAME_LEN;
use crate::lower::push_lower;

/// Lowercase letters and digits only: "Search-Docs", "search docs" and "search_docs" fold alike.
pub(super) fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().filter(|c| c.is_alphanumeric()) {
        push_lower(&mut out, c);
    }
    out
}

/// The one name in `names` within a small edit distance of `written` (compared folded): at most
/// 2 edits and fewer than a third of the name's length, so "calculater" finds "calculator" but
/// "add" never becomes "odd". `None` when no name or several names are equally close.
pub(super) fn close_match<'a>(written: &str, names: &[&'a str]) -> Option<&'a str> {
    // Longer than any name it could be a misspelling of: not even worth folding.
    if written.chars().nth(MAX_WRITTEN_NAME_LEN).is_some() {
        return None;
    }
    let folded = fold(written);
    let len = folded.chars().count();
    let mut best: Option<(usize, &str)> = None;
    let mut tie = false;
    for &name in names {
        let target = fold(name);
        // The distance is at least the difference in length: skip the O(n·m) table when that
        // alone is too far (an argument key a megabyte long, say).
        if len.abs_diff(target.chars().count()) > 2 {
            continue;
        }
        let d = edit_distance(&folded, &target);
        if d > 2 || 3 * d >= target.chars().count() {
            continue;
        }
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tie = true,
            _ => {
                best = Some((d, name));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, name)| name)
}

/// The only name that satisfies `rule`; `None` when none or several do, so that an ambiguous
/// rule never guesses and the caller falls through to its next rule.
pub(super) fn unique<'a>(names: &[&'a str], rule: impl Fn(&str) -> bool) -> Option<&'a str> {
    let mut hits = names.iter().filter(|n| rule(n));
    match (hits.next(), hits.next()) {
        (Some(&name), None) => Some(name),
        _ => None,
    }
}

/// `written` is a prefix of `name` ("calc" → "calculator"), or contains it
/// ("getcurrenttime" → "currenttime"); both folded, and long enough not to be a coincidence.
pub(super) fn partial_match(written: &str, name: &str) -> bool {
    (written.len() >= 3 && name.starts_with(written)) || (name.len() >= 4 && written.contains(name))
}

/// The closest name by edit distance, for "did you mean" (the first registered wins ties);
/// `None` when even the closest differs in more than half its letters, since a far-fetched
/// suggestion would mislead the model more than none.
pub(super) fn nearest<'a>(written: &str, names: &[&'a str]) -> Option<&'a str> {
    let folded = fold(written);
    names
        .iter()
        .map(|&name| {
            let target = fold(name);
            let d = edit_distance(&folded, &target);
            let longest = folded.chars().count().max(target.chars().count());
            (d, 2 * d <= longest, name)
        })
        .min_by_key(|&(d, _, _)| d)
        .filter(|&(_, similar, _)| similar)
        .map(|(_, _, name)| name)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
/// neighbouring characters each cost 1 (models often swap letters: "calcualtor").
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rolling rows: two back (for swaps), previous, current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        for (a, b, d) in [
            ("", "", 0),
            ("abc", "", 3),
            ("calculater", "calculator", 1),
            ("calcualtor", "calculator", 1),
            ("kitten", "sitting", 3),
            ("检索", "检索增强", 2),
        ] {
            assert_eq!(edit_distance(a, b), d, "{a} / {b}");
        }
    }

    #[test]
    fn close_matches() {
        let names = ["calculator", "search_docs", "add", "odd"];
        assert_eq!(close_match("Calculater", &names), Some("calculator"));
        assert_eq!(close_match("serch_doc", &names), Some("search_docs"));
        assert_eq!(
            close_match("adx", &names),
            None,
            "short names need an exact match"
        );
        assert_eq!(close_match("weather", &names), None);
    }
}
