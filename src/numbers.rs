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
        parse_f64(&self.digits).filter(|n| n.is_finite())
    }
}

/// A decimal as written ("-12.5", ".5", "5.", "+1E-3"): its sign, its significant digits (no
/// leading or trailing zeros; none for zero) and the power of ten of the last of them
/// ("-0.0125" is `(true, "125", -4)`); `None` for what is no decimal. Exponents saturate far
/// beyond any f64's (1e-400 is 0, 1e400 infinite), so a long one cannot overflow.
/// A count of tenths as a decimal: 15 → "1.5", 40 → "4".
pub(crate) fn tenths(n: u64) -> String {
    match n % 10 {
        0 => (n / 10).to_string(),
        d => format!("{}.{d}", n / 10),
    }
}

/// A number as a message writes it: its shortest decimal, "2.5", "3" for 3.0, through
/// serde_json's writer (std's float formatting would be a second one in the wasm).
pub fn shown(x: f64) -> String {
    match serde_json::Number::from_f64(x) {
        Some(n) => {
            let mut text = n.to_string();
            if text.ends_with(".0") {
                text.truncate(text.len() - 2);
            }
            text
        }
        None if x.is_nan() => "NaN".to_string(),
        None if x > 0.0 => "inf".to_string(),
        None => "-inf".to_string(),
    }
}

pub fn decimal(text: &str) -> Option<(bool, String, i64)> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !all_digits(int) || !all_digits(frac) {
        return None;
    }
    let exp: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (sign, e) = match e.as_bytes().first() {
                Some(b'-') => (-1, &e[1..]),
                Some(b'+') => (1, &e[1..]),
                _ => (1, e),
            };
            if e.is_empty() || !all_digits(e) {
                return None;
            }
            let e = (e.bytes()).fold(0i64, |n, b| (n * 10 + i64::from(b - b'0')).min(1 << 20));
            sign * e
        }
    };
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    let exp = exp + (digits.len() - significant.len()) as i64 - frac.len() as i64;
    Some((negative, significant.to_string(), exp))
}

/// A decimal number as `str::parse::<f64>` reads it ([`decimal`]; too large is infinite), but
/// for "inf" and "nan", which are no numbers here. Std's reader carries a 10 KB table of powers
/// of five into the wasm; this one hands the digits to serde_json's, which is there anyway:
/// exact where the significant digits fit in 2^53 and the exponent in ±22 (the numbers people
/// write), within an ULP or two beyond.
pub fn parse_f64(text: &str) -> Option<f64> {
    let (negative, mut significant, mut exp) = decimal(text)?;
    // 10^22 is the largest power of ten an f64 holds exactly: 5e23 is read exactly as 500e21.
    while exp > 22 && (1..15).contains(&significant.len()) {
        significant.push('0');
        exp -= 1;
    }
    let value = match significant.is_empty() {
        true => 0.0,
        // serde_json's only refusal of these digits is a number too large for an f64.
        false => serde_json::from_str(&format!("{significant}e{exp}")).unwrap_or(f64::INFINITY),
    };
    Some(if negative { -value } else { value })
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

    #[test]
    fn numbers_are_shown_as_std_writes_them_but_in_exponents() {
        for x in [0.0, 3.0, -1.0, 2.5, 0.1, 1e-3, 123456.789, -0.5, 1.0 / 3.0] {
            assert_eq!(shown(x), x.to_string(), "{x}");
        }
        assert_eq!(shown(1e21), "1e+21");
        assert_eq!(shown(f64::NAN), "NaN");
        assert_eq!(shown(f64::INFINITY), "inf");
        assert_eq!(shown(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn tenths_are_a_decimal() {
        let cases = [(0, "0"), (5, "0.5"), (15, "1.5"), (40, "4"), (123, "12.3")];
        for (n, want) in cases {
            assert_eq!(tenths(n), want);
        }
    }

    /// Decimal texts of every shape: signs, points at either end, exponents, zeros, long runs
    /// of digits, the edges of f64's range.
    fn decimals() -> Vec<String> {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "+0",
            "0.0",
            ".5",
            "5.",
            "-.5",
            "+5.",
            "007",
            "1e0",
            "1E5",
            "1e+5",
            "1e-5",
            "2.5e-3",
            "0.1",
            "0.2",
            "0.3",
            "123456789012345678901234567890",
            "9007199254740993",
            "1.7976931348623157e308",
            "1.8e308",
            "1e400",
            "-1e400",
            "2.2250738585072014e-308",
            "5e-324",
            "1e-400",
            "0.000000000000000000000000000001",
            "1e99999999999999999999999",
            "1e-99999999999999999999999",
            "3.141592653589793238462643383279",
            "1000000.000",
        ]
        .map(String::from)
        .to_vec();
        // A fixed pseudo-random walk: digits, a point, an exponent.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..20_000 {
            let int: String = (0..next(12))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            let frac: String = (0..next(12))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            let mut text = match next(3) {
                0 => format!("{int}.{frac}"),
                1 if !int.is_empty() => int,
                _ => format!("{int}.{frac}1"),
            };
            if next(3) == 0 {
                text = format!("{text}e{}", next(60) as i64 - 30);
            }
            texts.push(text);
        }
        texts
    }

    #[test]
    #[allow(clippy::disallowed_methods)]
    fn decimals_read_as_the_standard_library_reads_them() {
        for text in decimals() {
            let ours = parse_f64(&text);
            let std = text.parse::<f64>().ok();
            let (Some(ours), Some(std)) = (ours, std) else {
                assert_eq!(ours, std, "{text}");
                continue;
            };
            let (int, frac) = text
                .split('e')
                .next()
                .unwrap()
                .split_once('.')
                .unwrap_or((&text, ""));
            // Exact where Clinger's fast path holds: at most 15 significant digits, scaled by
            // at most 10^22 (more digits make room for a larger exponent).
            let digits = format!("{int}{frac}");
            let significant = digits.trim_matches('0').len();
            let zeros = (digits.len() - digits.trim_end_matches('0').len()) as i64;
            let exp: i64 = (text.split_once('e')).map_or(0, |(_, e)| {
                e.parse()
                    .unwrap_or(if e.starts_with('-') { -999 } else { 999 })
            });
            let exp = exp + zeros - frac.len() as i64;
            if significant <= 15 && (-22..=22 + 15 - significant as i64).contains(&exp) {
                assert_eq!(ours.to_bits(), std.to_bits(), "{text}");
            } else {
                let ulp = (std.abs() * f64::EPSILON).max(f64::MIN_POSITIVE);
                assert!(
                    ours == std || (ours - std).abs() <= 2.0 * ulp,
                    "{text}: {ours} against {std}"
                );
            }
        }
    }

    #[test]
    fn a_decimal_is_its_sign_digits_and_exponent() {
        assert_eq!(decimal("-0.0125"), Some((true, "125".into(), -4)));
        assert_eq!(decimal("+1200.50e3"), Some((false, "12005".into(), 2)));
        assert_eq!(decimal("5."), Some((false, "5".into(), 0)));
        assert_eq!(decimal("0.000"), Some((false, String::new(), -3)));
        assert_eq!(
            decimal("1e-99999999999999999999"),
            Some((false, "1".into(), -(1 << 20)))
        );
    }

    #[test]
    fn no_number_is_no_number() {
        for text in [
            "", ".", "-", "+", "e5", ".e5", "1e", "1e+", "1.2.3", "1,5", "inf", "NaN", "--1", "1 ",
            " 1", "0x10", "１２",
        ] {
            assert_eq!(parse_f64(text), None, "{text:?}");
        }
    }

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
