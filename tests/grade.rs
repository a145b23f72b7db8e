//! The grader Compare and the benchmark share (src/grade.rs), as a table: what an expected
//! answer accepts and what it does not.

use reactloop::grade::{Expect, Grader, NoExpectation};
use unicode_normalization::UnicodeNormalization;

const GRADER: Grader = Grader::new(|text| text.nfkc().collect());

fn text(any_of: &[&str]) -> Expect {
    Expect {
        any_of: any_of.iter().map(|s| s.to_string()).collect(),
        ..Expect::default()
    }
}

fn num(number: f64, tolerance: Option<f64>) -> Expect {
    Expect {
        number: Some(number),
        tolerance,
        ..Expect::default()
    }
}

#[test]
fn what_an_expectation_accepts() {
    let cases: &[(Expect, &str, bool, &str)] = &[
        (
            text(&["Paris"]),
            "The capital of France is PARIS.",
            true,
            "case aside",
        ),
        (
            text(&["paris"]),
            "The capital of France is Lyon.",
            false,
            "another answer",
        ),
        (
            text(&["model context protocol"]),
            "Model\n  Context\tProtocol",
            true,
            "whitespace runs",
        ),
        (
            text(&["model context protocol"]),
            "ModelContextProtocol",
            false,
            "words run together",
        ),
        (
            text(&["retrieval augmented generation"]),
            "Retrieval-Augmented Generation",
            true,
            "a hyphen between letters",
        ),
        (
            text(&["retrieval augmented generation"]),
            "retrieval generation",
            false,
            "a word missing",
        ),
        (
            text(&["json"]),
            "参数用ＪＳＯＮ格式",
            true,
            "full-width letters",
        ),
        (
            num(7006652.0, None),
            "答案是７，００６，６５２。",
            true,
            "full-width digits and commas",
        ),
        (
            num(7006652.0, None),
            "答案是７，００６，６５３。",
            false,
            "one off",
        ),
        (
            text(&["h2o"]),
            "水的化学式是 H₂O",
            true,
            "a subscript digit",
        ),
        (
            text(&["3月14"]),
            "今天是 3 月 14 日",
            true,
            "spaces beside Chinese",
        ),
        (
            text(&["星期五"]),
            "今天是星期 五",
            true,
            "a space inside Chinese",
        ),
        (text(&["3月14"]), "今天是 3 月 15 日", false, "another day"),
        (
            num(1048576.0, None),
            "2^20 = 1\u{2009}048\u{2009}576",
            true,
            "thin spaces group digits",
        ),
        (
            num(1048576.0, None),
            "2^20 = 1\u{202f}048\u{202f}576",
            true,
            "narrow no-break spaces",
        ),
        (
            text(&["1048576"]),
            "2^20 = 1,048,576",
            true,
            "commas group digits",
        ),
        (num(1048576.0, None), "2^20 = 1,048,577", false, "one off"),
        (
            text(&["4"]),
            "The remainder is 42",
            false,
            "not inside a longer number",
        ),
        (text(&["4"]), "The remainder is 14", false, "nor at its end"),
        (text(&["4"]), "It is 4.5", false, "nor before a fraction"),
        (
            text(&["4"]),
            "The remainder is 4.",
            true,
            "a sentence's full stop",
        ),
        (text(&["2025"]), "20250", false, "a longer number"),
        (text(&["03-14"]), "2025-03-14", true, "part of a date"),
        (
            text(&["reason"]),
            "reasoning and acting",
            true,
            "a word's start",
        ),
        (
            num(1103.0, None),
            "(128 + 256) * 3 - 7^2 = 1103",
            true,
            "the result after the sum",
        ),
        (
            num(4.0, None),
            "12345 除以 7 的余数是4",
            true,
            "a digit beside Chinese",
        ),
        (num(434.0, None), "434.0", true, "a zero fraction"),
        (num(434.0, None), "434.01", false, "a small difference"),
        (
            num(2.6458, Some(0.0001)),
            "sqrt(7) ≈ 2.64575131",
            true,
            "within tolerance",
        ),
        (
            num(2.6458, Some(0.0001)),
            "sqrt(7) ≈ 2.64",
            false,
            "outside tolerance",
        ),
        (
            num(57.75, None),
            "The result is -57.75",
            false,
            "signs count",
        ),
        (num(-5.0, None), "结果是-5", true, "a minus after Chinese"),
        (num(-5.0, None), "x = \u{2212}5", true, "the minus sign"),
        (num(1000.0, None), "1e3", true, "an exponent"),
        (num(0.5, None), "about .5", true, "a bare fraction"),
        (text(&["paris"]), "   ", false, "a blank answer"),
    ];
    for (expect, answer, right, why) in cases {
        assert_eq!(
            GRADER.check(expect, answer),
            Ok(*right),
            "{answer:?} ({why})"
        );
    }
    let spider = Expect {
        any_of: vec!["eight".into()],
        number: Some(8.0),
        tolerance: None,
    };
    assert_eq!(GRADER.check(&spider, "Spiders have 8 legs."), Ok(true));
    assert_eq!(GRADER.check(&spider, "Spiders have eight legs."), Ok(true));
    assert_eq!(GRADER.check(&spider, "Spiders have six legs."), Ok(false));
}

#[test]
fn an_expectation_of_nothing_is_an_error() {
    assert_eq!(GRADER.check(&Expect::default(), "x"), Err(NoExpectation));
    assert_eq!(GRADER.check(&num(f64::NAN, None), "x"), Err(NoExpectation));
}

#[test]
fn numbers_as_read() {
    let cases: &[(&str, &[f64])] = &[
        ("1,2,3 and 12,34", &[1.0, 2.0, 3.0, 12.0, 34.0]),
        ("1,234.5", &[1234.5]),
        ("2025-03-14", &[2025.0, 3.0, 14.0]),
        ("2025-1969=56", &[2025.0, 1969.0, 56.0]),
        ("e^3 is 20.0855", &[3.0, 20.0855]),
        ("-3 and a-3 and (2)-1", &[-3.0, 3.0, 2.0, 1.0]),
        ("1.2.3", &[1.2, 0.3]),
        ("1,234,5678", &[1234.0, 5678.0]),
        ("1e999 and 2", &[2.0]),
        ("no numbers", &[]),
    ];
    for (text, numbers) in cases {
        assert_eq!(GRADER.find_numbers(text), *numbers, "{text:?}");
    }
}

#[test]
fn normal_forms() {
    let cases = [
        ("（Ａ）：１", "(a):1"),
        ("march  14", "march 14"),
        ("a\u{2013}b \u{2014} c", "a b - c"),
        ("  3 月 14 日 ", "3月14日"),
        ("1\u{2009}048 and 12\u{2009}3456", "1048 and 12 3456"),
    ];
    for (text, normal) in cases {
        assert_eq!(GRADER.normalize(text), normal, "{text:?}");
    }
}

#[test]
fn compare_grades_a_persons_text() {
    let cases: &[(&str, &str, Option<bool>)] = &[
        ("The answer is 42.", "4", Some(false)),
        ("The answer is 42.", "42", Some(true)),
        ("The answer is 1,048,576.", "1048576", Some(true)),
        ("答案是 １２", "12", Some(true)),
        ("The answer is 42.0", "42", Some(true)),
        ("The answer is -5", "5", Some(false)),
        (
            "It is retrieval-augmented generation.",
            "Retrieval augmented",
            Some(true),
        ),
        ("Paris", "London", Some(false)),
        ("", "42", Some(false)),
        ("The answer is 42", "  ", None),
    ];
    for (answer, expected, right) in cases {
        assert_eq!(
            GRADER.grade_text(answer, expected),
            *right,
            "{answer:?} vs {expected:?}"
        );
    }
}
