//! The numbers written in digits in a text, read by one scanner with the rules its caller names:
//! the amounts of a run ([`AMOUNTS`]: what the loop checks an answer against), the numbers a
//! question writes on their own ([`QUESTION`]: evidence that a tool computes), and the numbers
//! the grader compares ([`GRADED`]: signed, with exponents, in normalised text).

/// How a caller reads numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Full-width digits (`１２３`) read as ASCII ones.
    pub full_width: bool,
    /// What may follow the leading digits within one number.
    pub marks: Marks,
    /// Whether a number that touches a letter is part of a name, and left out.
    pub names: Names,
    /// A leading `-` is the number's sign, unless it follows a digit, a letter a-z, `.` or `)`
    /// (a binary minus, a date's separator: "2025-03-14").
    pub signed: bool,
    /// A fraction alone (`.5`), and an exponent after the number (`1e6`, `2.5e-3`).
    pub scientific: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marks {
    /// One decimal point, and commas before groups of exactly three digits ("1,000.50"),
    /// which are dropped.
    PointAndGroups,
    /// One decimal point.
    Point,
    /// Any `.` or `,` before a digit, kept as written ("3.14", "1,5", "1.2.3").
    Any,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// Every number counts.
    Kept,
    /// A number with a Latin letter right before or after it is part of a name ("Qwen2", "3D",
    /// "2nd").
    Touching,
    /// [`Names::Touching`], and a number after a letter and a hyphen ("GPT-4").
    Hyphenated,
}

/// The amounts of a run: the question's, the tools' results, the answer's.
pub const AMOUNTS: Rules = Rules {
    full_width: true,
    marks: Marks::PointAndGroups,
    names: Names::Touching,
    signed: false,
    scientific: false,
};

/// The numbers a question writes on their own, as written.
pub const QUESTION: Rules = Rules {
    full_width: false,
    marks: Marks::Any,
    names: Names::Hyphenated,
    signed: false,
    scientific: false,
};

/// The numbers of text the grader normalised (NFKC, no thousands separators): every one.
pub const GRADED: Rules = Rules {
    full_width: false,
    marks: Marks::Point,
    names: Names::Kept,
    signed: true,
    scientific: true,
};

/// A number found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number {
    /// The characters of the text it spans, as written.
    pub written: String,
    /// Its sign, digits, point and exponent: no group commas, full-width digits as ASCII.
    pub digits: String,
}

impl Number {
    /// Its digits with no trailing zeros after a point and no leading zeros ("1000.50" is
    /// "1000.5", "007" is "7", ".5" is "0.5"): one number written one way.
    pub fn plain(&self) -> String {
        let mut digits = self.digits.as_str();
        if digits.contains('.') {
            digits = digits.trim_end_matches('0').trim_end_matches('.');
        }
        let digits = digits.trim_start_matches('0');
        match digits.is_empty() || digits.starts_with('.') {
            true => format!("0{digits}"),
            false => digits.to_string(),
        }
    }

    /// Its value, when finite.
    pub fn value(&self) -> Option<f64> {
        self.digits.parse().ok().filter(|n: &f64| n.is_finite())
    }
}

/// The numbers of `text` read by `rules`, in order.
pub fn read(text: &str, rules: Rules) -> Vec<Number> {
    let original: Vec<char> = text.chars().collect();
    let chars: Vec<char> = (original.iter())
        .map(|&c| match c {
            '０'..='９' if rules.full_width => {
                char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c)
            }
            c => c,
        })
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let Some((start, end, digits)) = number_at(&chars, at, rules) else {
            at += 1;
            continue;
        };
        at = end;
        let letter = |i: Option<usize>| {
            i.and_then(|i| chars.get(i))
                .is_some_and(char::is_ascii_alphabetic)
        };
        let touching = letter(start.checked_sub(1)) || letter(Some(end));
        let hyphenated = start >= 2 && chars[start - 1] == '-' && letter(Some(start - 2));
        let named = match rules.names {
            Names::Kept => false,
            Names::Touching => touching,
            Names::Hyphenated => touching || hyphenated,
        };
        if !named {
            out.push(Number {
                written: original[start..end].iter().collect(),
                digits,
            });
        }
    }
    out
}

/// The number that starts at `at`, if one does: where it starts and ends, and its digits.
fn number_at(chars: &[char], at: usize, rules: Rules) -> Option<(usize, usize, String)> {
    let digit = |i: usize| chars.get(i).is_some_and(char::is_ascii_digit);
    let c = chars[at];
    let sign = rules.signed
        && c == '-'
        && !(at > 0 && matches!(chars[at - 1], '0'..='9' | 'a'..='z' | '.' | ')'));
    let body = at + usize::from(sign);
    let bare = rules.scientific && chars.get(body) == Some(&'.') && digit(body + 1);
    if !digit(body) && !bare {
        return None;
    }
    let mut digits = String::from(if sign { "-" } else { "" });
    let mut i = body;
    while i < chars.len() {
        let c = chars[i];
        let next_digit = digit(i + 1);
        let group = || {
            let run = chars[i + 1..].iter().take_while(|d| d.is_ascii_digit());
            run.count() == 3
        };
        let point = c == '.' && next_digit && !digits.contains('.');
        match rules.marks {
            _ if c.is_ascii_digit() => digits.push(c),
            Marks::Any if matches!(c, '.' | ',') && next_digit => digits.push(c),
            Marks::Point | Marks::PointAndGroups if point => digits.push(c),
            Marks::PointAndGroups if c == ',' && next_digit && group() => {}
            _ => break,
        }
        i += 1;
    }
    if rules.scientific && chars.get(i) == Some(&'e') {
        let sign = usize::from(matches!(chars.get(i + 1), Some('+' | '-')));
        let exponent = chars[(i + 1 + sign).min(chars.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if exponent > 0 {
            let end = i + 1 + sign + exponent;
            digits.extend(&chars[i..end]);
            i = end;
        }
    }
    Some((at, i, digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str, rules: Rules) -> Vec<String> {
        read(text, rules).iter().map(Number::plain).collect()
    }

    fn written(text: &str, rules: Rules) -> Vec<String> {
        read(text, rules).into_iter().map(|n| n.written).collect()
    }

    #[test]
    fn each_caller_reads_by_its_rules() {
        // Amounts: groups dropped, one point, names left out, full-width digits.
        let text = "Qwen2 costs 1,000.50 or ０.５0, 3D x 007 and 2.5.1 on 2025-03-14";
        assert_eq!(
            plain(text, AMOUNTS),
            ["1000.5", "0.5", "7", "2.5", "1", "2025", "3", "14"]
        );
        // The question's: written as they are, "GPT-4" a name, any mark before a digit kept.
        let text = "Is GPT-4 at 1,5 or 3.14.15 in x2 and (7)?";
        assert_eq!(written(text, QUESTION), ["1,5", "3.14.15", "7"]);
        // Graded: signs, exponents and bare fractions; a date's dashes are no signs.
        let text = "-3 and 2.5e-3, .5, x-1, 2025-03-14 (-7)";
        let values: Vec<f64> = (read(text, GRADED).iter())
            .filter_map(Number::value)
            .collect();
        assert_eq!(values, [-3.0, 0.0025, 0.5, 1.0, 2025.0, 3.0, 14.0, -7.0]);
    }
}
