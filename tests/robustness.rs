//! The parser never panics and stays fast: deterministic fuzzing from protocol fragments and
//! random bytes, plus 100 KB pathological inputs timed against 10 KB ones.

use reactloop::lang::Lang;
use reactloop::parse::{cut_observation, parse_json_lenient, parse_reply, Parsed};
use reactloop::told;
use std::time::{Duration, Instant};

/// xorshift64: tiny, deterministic, good enough to shuffle fragments.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "Thought:",
    "Action:",
    "Action Input:",
    "Final Answer:",
    "Answer:",
    "Observation:",
    "Question:",
    "Obs",
    "Thought 1:",
    "**Action:**",
    "Action：",
    "Finish[",
    "search[",
    "]",
    "(",
    ")",
    "finish(answer=",
    "{",
    "}",
    "[",
    "'",
    "\"",
    "\\",
    "\\u",
    "\\ud83d",
    "```",
    "```json",
    "：",
    ":",
    ",",
    "=",
    "\n",
    "\r\n",
    " ",
    "\t",
    "é",
    "中",
    "😀",
    "**",
    "#",
    "- ",
    "1",
    "-2.5e3",
    "True",
    "None",
    "null",
    "search",
    "final_answer",
    "None (no tool)",
    "tool_call",
    "{\"action\": \"s\", \"action_input\": ",
    "{\"name\": ",
    "\"answer\"",
    "/*",
    "*/",
    "//",
    "<tool_call>",
    "<invoke",
    "Final Answer",
    "Do I need to use a tool? No",
    "思考：",
    "行动：",
    "行动输入：",
    "最终答案：",
    "观察：",
    "。",
    ". Action:",
    " Action Input:",
    "Finish[x]",
    "**Finish[",
    "finish(",
    "<think>",
    "</think>",
    "“",
    "”",
    "，",
    "`search`",
    "<|tool_call_begin|>",
];

/// Parses `text` through every public entry point and checks the invariants.
fn check(text: &str) {
    let r = parse_reply(text);
    for sp in [
        r.spans.thought,
        r.spans.action,
        r.spans.input,
        r.spans.answer,
    ]
    .into_iter()
    .flatten()
    {
        assert!(
            sp.start <= sp.end && sp.end <= text.len(),
            "span {sp:?} out of range in {text:?}"
        );
        assert!(
            text.is_char_boundary(sp.start) && text.is_char_boundary(sp.end),
            "span {sp:?} not on a char boundary in {text:?}"
        );
    }
    match &r.parsed {
        Parsed::Action { tool, .. } => assert!(!tool.is_empty(), "empty tool for {text:?}"),
        Parsed::Final { answer } => assert!(!answer.is_empty(), "empty answer for {text:?}"),
        Parsed::Error { error } => assert!(!told::format_error(error, Lang::En.into()).is_empty()),
    }
    let (kept, _) = cut_observation(text);
    assert!(
        text.starts_with(kept),
        "cut_observation must return a prefix of {text:?}"
    );
    let _ = parse_json_lenient(text);
}

#[test]
fn never_panics_on_fragment_soup() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let n = rng.below(40);
        let text: String = (0..n)
            .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
            .collect();
        check(&text);
    }
}

const PUNCTUATION: &[u8] = b"{}[]()'\":,\n`\\";

#[test]
fn never_panics_on_random_bytes() {
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    for _ in 0..5_000 {
        let n = rng.below(200);
        let bytes: Vec<u8> = (0..n)
            .map(|_| match rng.below(4) {
                // Bias towards ASCII punctuation the parser cares about.
                0 => PUNCTUATION[rng.below(PUNCTUATION.len())],
                _ => rng.next() as u8,
            })
            .collect();
        check(&String::from_utf8_lossy(&bytes));
        // And the same bytes spliced into a protocol skeleton.
        let inner = String::from_utf8_lossy(&bytes);
        check(&format!(
            "Thought: {inner}\nAction: {inner}\nAction Input: {inner}"
        ));
    }
}

/// Inputs built from `prefix` followed by `unit` repeated to about `n` bytes.
const PATHOLOGICAL: &[(&str, &str, &str)] = &[
    ("open braces", "", "{"),
    ("open brackets", "", "[[["),
    ("double quotes", "", "\""),
    ("single quotes", "", "'"),
    ("one long line", "", "a"),
    ("action lines", "", "Action:\n"),
    ("action steps", "", "Action: s\nAction Input: {}\n"),
    ("thought lines", "", "Thought: x\n"),
    ("observation lines", "", "Observation: x\n"),
    ("fence lines", "", "```\n"),
    ("standalone braces", "", "\n{"),
    ("unterminated keys", "", "\n{\"a"),
    ("nested keys", "", "{\"a\":"),
    ("inline final answer", "", "Final Answer "),
    ("input braces", "Action: s\nAction Input: ", "{"),
    ("input brackets", "Action: s\nAction Input: ", "["),
    (
        "input open string",
        "Action: s\nAction Input: {\"a\": \"",
        "x",
    ),
    ("input comments", "Action: s\nAction Input: {", "/*"),
    ("input fences", "Action: s\nAction Input: ", "```json\n"),
    ("paper form", "Action: s", "["),
    ("call form", "Action: s(", "a=1, "),
    ("multibyte", "Thought: ", "中😀é"),
    ("full-width colons", "", "Action："),
    ("labels after sentences", "Thought: ", "x. Action: "),
    ("spaces before labels", "Thought: x.", "         Action"),
    ("inputs on the action line", "Action: s", " Action Input"),
    ("chinese labels", "", "思考：x。行动："),
    ("bare finish lines", "", "Finish[x]\n"),
    ("incomplete finals", "", "Action: final_answer\n"),
    ("unclosed reasoning", "<think>", "Action: x\n"),
    ("curly quotes", "Action: s\nAction Input: {", "“a”：“b”，"),
    ("unclosed arrays", "Action: s\nAction Input: ", "[\"a\", "),
    ("backticked names", "Action: ", "`a` "),
];

fn build(prefix: &str, unit: &str, n: usize) -> String {
    let mut s = String::from(prefix);
    s.push_str(&unit.repeat(n / unit.len() + 1));
    s
}

/// Best of five, to keep scheduler noise out.
fn time_parse(text: &str) -> Duration {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            check(text);
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

#[test]
fn pathological_inputs_are_fast_and_linear() {
    for (name, prefix, unit) in PATHOLOGICAL {
        // Linear would be 10x; 20x plus slack catches quadratic (100x). A busy machine can
        // stall one measurement (40x once, beside a benchmark), never three: quadratic input
        // fails every round.
        let fits = |(small, large): (Duration, Duration)| {
            large < Duration::from_secs(1) && large <= small * 20 + Duration::from_millis(100)
        };
        let mut rounds = Vec::new();
        while rounds.len() < 3 && !rounds.last().is_some_and(|&round| fits(round)) {
            let small = time_parse(&build(prefix, unit, 10_000));
            let large = time_parse(&build(prefix, unit, 100_000));
            rounds.push((small, large));
        }
        assert!(
            rounds.last().is_some_and(|&round| fits(round)),
            "{name}: 10 KB vs 100 KB {rounds:?}: slow or super-linear"
        );
    }
}
