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
        // Exact; `+ 0.0` turns -0 into 0.
        return format!("{}", x + 0.0);
    }
    // 12 significant digits, but never fewer than the integer part has: 1234567890123.25 shows
    // as 1234567890123, not 1234567890120.
    let magnitude = x.abs().log10().floor();
    let precision = if (11.0..15.0).contains(&magnitude) {
        magnitude as usize
    } else {
        11
    };
    let sci = format!("{:.*e}", precision, x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
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
