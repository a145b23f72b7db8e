//! The pieces inputs are built from: protocol labels, JSON and calculator fragments, special
//! characters and long runs, and the byte-level mutations applied to real replies.

use crate::rng::Rng;

pub(crate) const LABELS: &[&str] = &[
    "Thought:",
    "Action:",
    "Action Input:",
    "Observation:",
    "Final Answer:",
    "Answer:",
    "Question:",
    "Thought：",
    "Action：",
    "Action Input：",
    "Final Answer：",
    "思考：",
    "行动：",
    "行动输入：",
    "最终答案：",
    "观察：",
    "**Action:**",
    "Action 1:",
    "Thought 2:",
    "ACTION:",
    "action input:",
    "Finish[",
    "search[",
    "calculator(",
    "final_answer",
    "Action: final_answer",
    "Action: None",
    "Do I need to use a tool? No",
    "<think>",
    "</think>",
    "<tool_call>",
    "</tool_call>",
    "```",
    "```json",
    "\nObservation: 999\n",
    "1. ",
    "- ",
    "# ",
];

pub(crate) const JSON_BITS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    "：",
    ",",
    "，",
    "\"",
    "'",
    "“",
    "”",
    "\\",
    "\\u",
    "\\ud83d",
    "\\uDE00",
    "\\n",
    "\\x41",
    "//",
    "/*",
    "*/",
    "#",
    "true",
    "false",
    "null",
    "True",
    "False",
    "None",
    "NaN",
    "Infinity",
    "-",
    "0",
    "1e999",
    "-0.0",
    "123456789012345678901234567890",
    "1.5e-300",
    "expression",
    "expr",
    "query",
    "q",
    "input",
    "args",
    "action",
    "action_input",
    "\"expression\": \"2+2\"",
    "{\"expression\": \"23 * 17 + 4\"}",
    "{'expr': '2+2',}",
    "{\"query\": \"RAG\", \"top_k\": 3}",
    "{\"name\": \"calculator\", \"arguments\": ",
    "{\"action\": \"search_docs\", \"action_input\": ",
    " ",
    "\n",
    "\t",
    "\r",
];

pub(crate) const CALC_BITS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "9",
    "17",
    "23",
    "0.5",
    ".5",
    "5.",
    "1e3",
    "1e308",
    "1e-320",
    "1,234",
    "1,234,567.5",
    "12,34",
    "+",
    "-",
    "−",
    "*",
    "×",
    "/",
    "÷",
    "%",
    "^",
    "**",
    "(",
    ")",
    ",",
    "=",
    " ",
    "pi",
    "π",
    "e",
    "tau",
    "inf",
    "nan",
    "sqrt",
    "abs",
    "round",
    "floor",
    "ceil",
    "min",
    "max",
    "ln",
    "log10",
    "log",
    "exp",
    "sin",
    "cos",
    "tan",
    "math.",
    "SQRT",
    "x",
    "$",
    "'",
    "\"",
    "中",
    "😀",
    "\u{0}",
    "\u{200b}",
    "\t",
    "\n",
];

pub(crate) const SPECIAL_CHARS: &[char] = &[
    '\0',
    '\u{1}',
    '\u{7}',
    '\u{8}',
    '\t',
    '\n',
    '\r',
    '\u{b}',
    '\u{c}',
    '\u{1b}',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    '\u{ad}',
    '\u{200b}',
    '\u{200d}',
    '\u{2028}',
    '\u{2029}',
    '\u{202e}',
    '\u{3000}',
    '\u{feff}',
    '\u{fffd}',
    '\u{ffff}',
    'é',
    'ß',
    'ı',
    'İ',
    'ﬁ',
    '中',
    '文',
    '：',
    '，',
    '“',
    '”',
    '😀',
    '👍',
    '\u{10ffff}',
    '\u{1f600}',
    '\u{e000}',
];

pub(crate) fn random_char(rng: &Rng) -> char {
    match rng.below(6) {
        0 => *rng.pick(SPECIAL_CHARS),
        1 => char::from(rng.below(128) as u8),
        2 => char::from_u32(0x80 + rng.below(0x780) as u32).unwrap_or('é'),
        3 => char::from_u32(0x4E00 + rng.below(0x5000) as u32).unwrap_or('中'),
        4 => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}'),
        _ => char::from(b' ' + rng.below(95) as u8),
    }
}

pub(crate) fn random_text(rng: &Rng, max: usize) -> String {
    let n = rng.below(max + 1);
    (0..n).map(|_| random_char(rng)).collect()
}

/// A long run of one short piece: the inputs that once made splitters quadratic.
pub(crate) fn long_run(rng: &Rng) -> String {
    let piece = *rng.pick(&[
        "\n",
        " ",
        "\r\n",
        "{",
        "[",
        "(",
        "\"",
        "\\",
        "a",
        "中",
        "😀",
        ":",
        "Action:",
        "-",
        "9",
        "\n\n",
        "```",
        "Thought: ",
        "\t",
    ]);
    let len = match rng.below(10) {
        0 => 1_000 + rng.below(7_000),
        _ => 10 + rng.below(400),
    };
    piece.repeat(len)
}

/// Mutates `text` a few times: inserts, deletes, duplicates, splices, case flips.
pub(crate) fn mutate(rng: &Rng, text: &str, pool: &[&str], others: &[String]) -> String {
    let mut s = text.to_string();
    for _ in 0..1 + rng.below(6) {
        let at = boundary(&s, rng.below(s.len() + 1));
        match rng.below(11) {
            0 | 1 => {
                let piece = *rng.pick(pool);
                s.insert_str(at, piece);
            }
            2 => s.insert(at, random_char(rng)),
            3 => {
                let end = boundary(&s, at + rng.below(32));
                s.replace_range(at..end, "");
            }
            4 => {
                let end = boundary(&s, at + rng.below(64));
                let piece = s[at..end].to_string();
                for _ in 0..1 + rng.below(4) {
                    s.insert_str(at, &piece);
                }
            }
            5 if !others.is_empty() => {
                let other = rng.pick(others);
                let from = boundary(other, rng.below(other.len() + 1));
                let to = boundary(other, from + rng.below(120));
                s.insert_str(at, &other[from..to]);
            }
            6 => s.truncate(at),
            7 => s = s[at..].to_string(),
            8 => {
                if rng.chance(8) {
                    s.insert_str(at, &long_run(rng));
                } else {
                    s.insert_str(at, &random_text(rng, 8));
                }
            }
            9 => {
                let end = boundary(&s, at + rng.below(40));
                let flipped: String = s[at..end]
                    .chars()
                    .map(|c| match c {
                        ':' => '：',
                        '：' => ':',
                        c if c.is_ascii_lowercase() => c.to_ascii_uppercase(),
                        c => c.to_ascii_lowercase(),
                    })
                    .collect();
                s.replace_range(at..end, &flipped);
            }
            _ => s.insert(at, '\n'),
        }
        if s.len() > 64_000 {
            let cut = boundary(&s, 64_000);
            s.truncate(cut);
        }
    }
    s
}

/// The nearest char boundary at or before `at` (clamped to the length).
pub(crate) fn boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

pub(crate) fn fragments(rng: &Rng, pool: &[&str], count: usize) -> String {
    let mut s = String::new();
    for _ in 0..count {
        match rng.below(8) {
            0 => s.push(random_char(rng)),
            1 => s.push_str(&random_text(rng, 12)),
            _ => {
                let piece = *rng.pick(pool);
                s.push_str(piece);
            }
        }
    }
    s
}
