//! The one grader: whether an answer holds the expected one. Compare's list (`question =>
//! expected`) and the benchmark (bench/tasks/check.mjs) both call it through the wasm module,
//! so a column's tick and a bench score mean the same thing.
//!
//! An [`Expect`] has `any_of` (texts), `number` (with an optional absolute `tolerance`), or
//! both. An answer passes when EITHER holds:
//!   - any_of: some expected text occurs in the answer after both are normalised
//!     ([`Grader::normalize`]); an expected text that starts or ends with a digit does not match inside
//!     a longer number ("4" is not found in "42").
//!   - number: some number written in the answer is within `tolerance` of `number` (default:
//!     equal up to 1e-9 relative). Signs count: "-5" is not 5.
//!
//! Unicode NFKC comes from the host ([`Nfkc`]): the browser has it built in
//! (`String.prototype.normalize`), and a copy of its tables in the module would add a fifth to
//! what every page loads (64 KB gzipped, measured with unicode-normalization).

use crate::lang::is_cjk_ideograph;
use crate::lower::Lower;

/// Unicode NFKC of a text: the browser's `normalize("NFKC")` in the page, a crate natively.
pub type Nfkc = fn(&str) -> String;

/// What a task expects of its answer (the `expect` of a benchmark task).
// Read back by hand below (a struct literal, so a new field needs its line there).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expect {
    pub any_of: Vec<String>,
    pub number: Option<f64>,
    pub tolerance: Option<f64>,
}

crate::fields::via_value! {
    Expect => Expect::read,
}

impl Expect {
    pub fn read(value: serde_json::Value) -> Result<Expect, serde_json::Error> {
        let mut f = crate::fields::Fields::object(value)?;
        Ok(Expect {
            any_of: f.or("any_of", Vec::new())?,
            number: f.opt("number")?,
            tolerance: f.opt("tolerance")?,
        })
    }
}

/// An expectation that expects nothing: no text and no finite number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoExpectation;

/// The grader, with the host's NFKC.
#[derive(Debug, Clone, Copy)]
pub struct Grader {
    nfkc: Nfkc,
}

impl Grader {
    pub const fn new(nfkc: Nfkc) -> Grader {
        Grader { nfkc }
    }

    /// Whether `answer` holds what `expect` expects; a blank answer never does.
    pub fn check(&self, expect: &Expect, answer: &str) -> Result<bool, NoExpectation> {
        let number = expect.number.filter(|n| n.is_finite());
        if expect.any_of.is_empty() && number.is_none() {
            return Err(NoExpectation);
        }
        if answer.trim().is_empty() {
            return Ok(false);
        }
        let answer = self.normalize(answer);
        if expect
            .any_of
            .iter()
            .any(|s| contains_phrase(&answer, &self.normalize(s)))
        {
            return Ok(true);
        }
        Ok(number.is_some_and(|target| {
            let tolerance = expect.tolerance.unwrap_or(1e-9 * target.abs().max(1.0));
            numbers_in(&answer).any(|n| (n - target).abs() <= tolerance)
        }))
    }

    /// Whether `answer` holds `expected`, a person's text (Compare's `question => expected`):
    /// the text itself, or when it is one number alone, that number written any way
    /// ("1,048,576", "１２", "42.0"; "-5" is not 5). None when nothing is expected.
    pub fn grade_text(&self, answer: &str, expected: &str) -> Option<bool> {
        let text = expected.trim();
        if text.is_empty() {
            return None;
        }
        let normal = self.normalize(text);
        let numbers: Vec<f64> = numbers_in(&normal).collect();
        let alone = numbers.len() == 1 && normal.chars().all(|c| "0123456789.e+-".contains(c));
        let expect = if alone {
            Expect {
                number: Some(numbers[0]),
                ..Expect::default()
            }
        } else {
            Expect {
                any_of: vec![text.to_string()],
                ..Expect::default()
            }
        };
        self.check(&expect, answer).ok()
    }

    /// Every number written in `text`, in order, after normalisation.
    pub fn find_numbers(&self, text: &str) -> Vec<f64> {
        numbers_in(&self.normalize(text)).collect()
    }

    /// Text made comparable (answers and expected texts alike): Unicode NFKC (full-width digits,
    /// letters and punctuation become ASCII, "１２３，４５６" -> "123,456"; "H₂O" -> "H2O"), lower
    /// case, every dash and the minus sign "-", a hyphen between letters a space
    /// ("retrieval-augmented" = "retrieval augmented"), each run of whitespace one space, no
    /// whitespace next to CJK ("3 月 14 日" = "3月14日"), and no thousands separators ("1,048,576",
    /// and "1 048 576" with thin or narrow no-break spaces, are "1048576"). A comma-separated list
    /// of three-digit numbers without spaces ("100,200") reads as one number.
    pub fn normalize(&self, text: &str) -> String {
        const THIN: [char; 2] = ['\u{2009}', '\u{202f}'];
        // Thin spaces that group digits go before NFKC makes them plain spaces. NFKC runs on the
        // pieces between thin spaces: nothing composes across one.
        let mut folded = String::with_capacity(text.len());
        for (i, piece) in text.split(THIN).enumerate() {
            let piece = (self.nfkc)(piece);
            if i > 0 {
                let before = folded
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_digit());
                let mut next = piece.chars();
                let three = next.by_ref().take(3).filter(char::is_ascii_digit).count() == 3
                    && !next.next().is_some_and(|c| c.is_ascii_digit());
                if !(before && three) {
                    folded.push(' ');
                }
            }
            folded.push_str(&piece);
        }
        let lower: Vec<char> = folded
            .lower()
            .chars()
            .map(|c| if is_dash(c) { '-' } else { c })
            .collect();

        // Hyphens between letters, then whitespace: runs to one space, none beside CJK.
        let mut spaced: Vec<char> = Vec::with_capacity(lower.len());
        for (i, &c) in lower.iter().enumerate() {
            let between_letters = c == '-'
                && i > 0
                && lower[i - 1].is_alphabetic()
                && lower.get(i + 1).is_some_and(|n| n.is_alphabetic());
            let c = if c.is_whitespace() || between_letters {
                ' '
            } else {
                c
            };
            if c == ' ' && spaced.last() == Some(&' ') {
                continue;
            }
            spaced.push(c);
        }
        let mut joined: Vec<char> = Vec::with_capacity(spaced.len());
        for (i, &c) in spaced.iter().enumerate() {
            let beside_cjk = c == ' '
                && (i > 0 && is_cjk(spaced[i - 1])
                    || spaced.get(i + 1).is_some_and(|&n| is_cjk(n)));
            if !beside_cjk {
                joined.push(c);
            }
        }
        drop_thousands_commas(&joined).trim().to_string()
    }
}

/// The numbers of normalised text, signed, with exponents ([`crate::numbers::GRADED`]).
fn numbers_in(normal: &str) -> impl Iterator<Item = f64> {
    let found = crate::numbers::read(normal, crate::numbers::GRADED);
    found.into_iter().filter_map(|n| n.value())
}

/// `text` without the commas of thousands groups: 1 to 3 digits (not after a digit or ".")
/// followed by ",ddd" groups, the last not followed by a digit.
fn drop_thousands_commas(chars: &[char]) -> String {
    let mut out = String::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            && !(i > 0 && (chars[i - 1].is_ascii_digit() || chars[i - 1] == '.'));
        if starts {
            let lead = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let mut end = i + lead;
            let mut groups = 0;
            while chars.get(end) == Some(&',')
                && chars.len() >= end + 4
                && chars[end + 1..end + 4].iter().all(char::is_ascii_digit)
                && !chars.get(end + 4).is_some_and(char::is_ascii_digit)
            {
                groups += 1;
                end += 4;
            }
            // A regex would retry with fewer groups; a group followed by a digit ends the
            // match before it, which this loop's last check already does.
            if lead <= 3 && groups > 0 {
                out.extend(chars[i..end].iter().filter(|&&c| c != ','));
            } else {
                out.extend(&chars[i..i + lead]);
                end = i + lead;
            }
            i = end;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Whether `needle` occurs in `haystack`, a needle's leading or trailing digit not running on
/// into more digits ("3" is not in "13" or "3.5"; "3." at a sentence's end is fine).
fn contains_phrase(haystack: &str, needle: &str) -> bool {
    let Some(first) = needle.chars().next() else {
        return false;
    };
    let guard_start = first.is_ascii_digit();
    let guard_end = needle.ends_with(|c: char| c.is_ascii_digit());
    let bytes = haystack.as_bytes();
    let digit = |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(u8::is_ascii_digit);
    let dot = |i: Option<usize>| i.and_then(|i| bytes.get(i)) == Some(&b'.');
    let mut from = 0;
    while let Some(found) = haystack[from..].find(needle) {
        let at = from + found;
        let end = at + needle.len();
        let (before, before2) = (at.checked_sub(1), at.checked_sub(2));
        let runs_in = guard_start && (digit(before) || (dot(before) && digit(before2)));
        let runs_on = guard_end && (digit(Some(end)) || (dot(Some(end)) && digit(Some(end + 1))));
        if !runs_in && !runs_on {
            return true;
        }
        from = at + first.len_utf8();
    }
    false
}

fn is_dash(c: char) -> bool {
    matches!(
        c,
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{fe58}' | '\u{fe63}' | '\u{ff0d}'
    )
}

/// Han, Hiragana, Katakana and CJK punctuation: scripts written without spaces.
fn is_cjk(c: char) -> bool {
    is_cjk_ideograph(c)
        || matches!(
            c,
            '\u{2e80}'..='\u{2fdf}'
                | '\u{3000}'..='\u{303f}'
                | '\u{3040}'..='\u{30ff}'
                | '\u{31f0}'..='\u{31ff}'
                | '\u{ff66}'..='\u{ff9d}'
                | '\u{20000}'..='\u{3134f}'
        )
}
