//! A result as people write numbers: a model copies what it is shown, so `0.30000000000000004`
//! would end up in its answer.

/// Formats a result for people: integers without `.0`, otherwise up to 12 significant digits
/// (so 0.1 + 0.2 shows as 0.3), scientific notation for very large or small magnitudes, never `-0`.
pub fn format_number(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "inf"
        } else {
            "-inf"
        }
        .into();
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        // Exact, and -0 is 0.
        return (x as i64).to_string();
    }
    let (negative, digits, exp) = shortest(x);
    let (digits, exp) = rounded(digits, exp, significant(x));
    let digits = digits.trim_end_matches('0');
    if digits.is_empty() {
        return "0".into();
    }
    let sign = if negative { "-" } else { "" };
    let body = if (-7..15).contains(&exp) {
        if exp < 0 {
            format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
        } else {
            let point = exp as usize + 1;
            if digits.len() <= point {
                format!("{}{}", digits, "0".repeat(point - digits.len()))
            } else {
                format!("{}.{}", &digits[..point], &digits[point..])
            }
        }
    } else {
        let (first, rest) = digits.split_at(1);
        if rest.is_empty() {
            format!("{first}e{exp}")
        } else {
            format!("{first}.{rest}e{exp}")
        }
    };
    format!("{sign}{body}")
}

/// 12 significant digits, but never fewer than the integer part has: 1234567890123.25 shows
/// as 1234567890123, not 1234567890120.
fn significant(x: f64) -> usize {
    let magnitude = crate::math::log10(x.abs()).floor();
    if (11.0..15.0).contains(&magnitude) {
        magnitude as usize + 1
    } else {
        12
    }
}

/// The shortest decimal that reads back as `x` (serde_json's writer, which the wasm holds
/// anyway; std's float formatting is 17 KB more): its sign, its significant digits, and the
/// power of ten of the first (`0.0125` is `"125"`, -2).
fn shortest(x: f64) -> (bool, String, i32) {
    let text = serde_json::Number::from_f64(x).map_or_else(String::new, |n| n.to_string());
    let (negative, digits, last) = crate::numbers::decimal(&text).unwrap_or_default();
    let first = last + digits.len() as i64 - 1;
    (negative, digits, first as i32)
}

/// `digits` cut to `significant` of them, the rest rounded half up as people round what
/// they read: ties are the shortest decimal's, not the binary value's.
fn rounded(digits: String, exp: i32, significant: usize) -> (String, i32) {
    if digits.len() <= significant {
        return (digits, exp);
    }
    let mut kept = digits.as_bytes()[..significant].to_vec();
    if digits.as_bytes()[significant] >= b'5' {
        let carried = kept.iter().rposition(|&d| d != b'9');
        let from = carried.map_or(0, |at| at + 1);
        kept[from..].fill(b'0');
        match carried {
            Some(at) => kept[at] += 1,
            // 999… rounds to 1000…: one digit more, shown as 1 at the next power of ten.
            None => return ("1".to_string(), exp + 1),
        }
    }
    (String::from_utf8(kept).unwrap_or_default(), exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `format_number` gave when it rounded with std's `{:.*e}` (the binary value's
    /// exact digits), for comparison.
    fn by_std(x: f64) -> (bool, String, i32) {
        let sci = format!("{:.*e}", significant(x) - 1, x);
        let (mantissa, exp) = sci.split_once('e').unwrap();
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        (
            mantissa.starts_with('-'),
            digits.trim_end_matches('0').to_string(),
            exp.parse().unwrap(),
        )
    }

    #[test]
    fn rounds_as_std_but_on_the_shortest_decimals_ties() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut ties = 0;
        for i in 0..200_000 {
            // Any bits, and results of arithmetic people do (a few digits over a few digits).
            let x = match i % 2 {
                0 => f64::from_bits(next()),
                _ => {
                    (next() % 100_000) as f64 / (1 + next() % 997) as f64
                        * 10f64.powi((next() % 9) as i32 - 4)
                }
            };
            if !x.is_finite() || x.fract() == 0.0 && x.abs() < 1e15 {
                continue;
            }
            let significant = significant(x);
            let (negative, digits, exp) = shortest(x);
            let ours = rounded(digits.clone(), exp, significant);
            let ours = (negative, ours.0.trim_end_matches('0').to_string(), ours.1);
            let std = by_std(x);
            if ours != std {
                // Only where the shortest decimal is a tie, or a hair from one, past the kept digits.
                let tail = &digits[significant.min(digits.len())..];
                let near_tie = tail.starts_with("5") && tail[1..].bytes().all(|d| d == b'0')
                    || tail.starts_with("49999")
                    || tail.starts_with("50000");
                assert!(near_tie, "{x:e}: {ours:?} against {std:?}");
                ties += 1;
            }
        }
        assert!(ties < 50, "{ties} ties");
    }

    #[test]
    fn the_shortest_decimal_and_its_rounding() {
        assert_eq!(shortest(0.0125), (false, "125".into(), -2));
        assert_eq!(shortest(-1234.5), (true, "12345".into(), 3));
        assert_eq!(shortest(1e21), (false, "1".into(), 21));
        assert_eq!(shortest(1.5e-7), (false, "15".into(), -7));
        assert_eq!(rounded("12345".into(), 0, 4), ("1235".into(), 0));
        assert_eq!(rounded("99996".into(), 3, 4), ("1".into(), 4));
        assert_eq!(rounded("12994".into(), 0, 4), ("1299".into(), 0));
        assert_eq!(rounded("12995".into(), 0, 4), ("1300".into(), 0));
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(format_number(2.0 / 3.0), "0.666666666667");
        assert_eq!(format_number(-1e-9 / 3.0), "-3.33333333333e-10");
        assert_eq!(format_number(1234567890123.25), "1234567890123");
        assert_eq!(format_number(0.9999999999999), "1");
    }
}
