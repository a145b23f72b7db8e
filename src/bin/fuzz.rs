//! A stable-Rust fuzz generator for everything that reads outside input: the reply parser, the
//! lenient JSON repair, the calculator (through the registry, as the agent calls it), the SSE
//! decoder and trace loading. No cargo-fuzz, no new dependency: a seeded splitmix64 builds
//! structured inputs (mutated corpus replies and recordings, protocol labels, JSON and SSE
//! fragments, multi-byte and control characters, long runs) and each one runs under
//! `catch_unwind`. Besides "does not panic", a few cheap invariants are checked: parse spans
//! lie on char boundaries inside the reply, and a trace that loads saves and loads again.
//!
//! ```sh
//! cargo run --release --features cli --bin fuzz -- --iterations 10000000 [--seed S] [--target T]
//! ```
//!
//! Prints one line per target (inputs, panics, slowest input, time) and exits 1 on any panic,
//! with the first failing input of each target saved under `target/fuzz/`.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use reactloop::lang::Lang;
use reactloop::llm::{SseDecoder, StreamEvent};
use reactloop::parse::{
    cut_observation, parse_json_lenient, parse_reply, parse_reply_after_final_answer,
};
use reactloop::tools::{default_documents, HostContext, Registry};
use reactloop::trace::Trace;
use serde_json::{json, Map, Value};

const USAGE: &str = "usage: fuzz [--iterations N] [--seed S] [--target parse|json|calc|sse|trace]
  --iterations N   inputs in all, split evenly across the targets (default 100000)
  --seed S         the PRNG seed (default 1); the same seed gives the same inputs
  --target T       run one target only";

const TARGETS: &[&str] = &["parse", "json", "calc", "sse", "trace"];

const CORPUS: &str = include_str!("../../tests/corpus/react_outputs.jsonl");
const RECORDINGS: &[&str] = &[
    include_str!("../../www/recordings/calculator-en.json"),
    include_str!("../../www/recordings/format-en.json"),
    include_str!("../../www/recordings/search-zh.json"),
];

// ------------------------------------------------------------------------------------ PRNG

/// splitmix64: tiny, deterministic, every seed (0 included) gives a full-period stream.
struct Rng(Cell<u64>);

impl Rng {
    fn next(&self) -> u64 {
        self.0.set(self.0.get().wrapping_add(0x9E37_79B9_7F4A_7C15));
        let mut z = self.0.get();
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, T>(&self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ------------------------------------------------------------------------------ fragments

const LABELS: &[&str] = &[
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

const JSON_BITS: &[&str] = &[
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

const CALC_BITS: &[&str] = &[
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

const SPECIAL_CHARS: &[char] = &[
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

fn random_char(rng: &Rng) -> char {
    match rng.below(6) {
        0 => *rng.pick(SPECIAL_CHARS),
        1 => char::from(rng.below(128) as u8),
        2 => char::from_u32(0x80 + rng.below(0x780) as u32).unwrap_or('é'),
        3 => char::from_u32(0x4E00 + rng.below(0x5000) as u32).unwrap_or('中'),
        4 => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}'),
        _ => char::from(b' ' + rng.below(95) as u8),
    }
}

fn random_text(rng: &Rng, max: usize) -> String {
    let n = rng.below(max + 1);
    (0..n).map(|_| random_char(rng)).collect()
}

/// A long run of one short piece: the inputs that once made splitters quadratic.
fn long_run(rng: &Rng) -> String {
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
fn mutate(rng: &Rng, text: &str, pool: &[&str], others: &[String]) -> String {
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
fn boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn fragments(rng: &Rng, pool: &[&str], count: usize) -> String {
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

// ---------------------------------------------------------------------------- the targets

struct Seeds {
    replies: Vec<String>,
    inputs: Vec<String>,
    traces: Vec<Value>,
    registry: Registry,
}

impl Seeds {
    fn load() -> Seeds {
        let mut replies = Vec::new();
        let mut inputs = Vec::new();
        for line in CORPUS.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).expect("tests/corpus is JSON lines");
            if let Some(text) = v.get("text").and_then(Value::as_str) {
                replies.push(text.to_string());
            }
            if let Some(input) = v.pointer("/expect/input").filter(|i| !i.is_null()) {
                inputs.push(input.to_string());
            }
        }
        let traces = RECORDINGS
            .iter()
            .map(|t| serde_json::from_str(t).expect("recordings are JSON"))
            .collect();
        Seeds {
            replies,
            inputs,
            traces,
            registry: Registry::with_builtins(default_documents()),
        }
    }
}

/// One generated input, kept as what is needed to reproduce it.
enum Input {
    Text(String),
    /// An SSE body and the sizes it is cut into; `as_text` feeds through `push` instead.
    Stream {
        body: Vec<u8>,
        cuts: Vec<usize>,
        as_text: bool,
    },
}

impl Input {
    fn save(&self) -> Vec<u8> {
        match self {
            Input::Text(t) => t.as_bytes().to_vec(),
            Input::Stream {
                body,
                cuts,
                as_text,
            } => {
                let mut out =
                    format!("# SSE body; chunk sizes {cuts:?}; as_text {as_text}\n").into_bytes();
                out.extend_from_slice(body);
                out
            }
        }
    }
}

fn gen_reply(rng: &Rng, seeds: &Seeds) -> String {
    match rng.below(10) {
        0..=4 => {
            let seed = rng_pick_str(rng, &seeds.replies);
            mutate(rng, seed, LABELS, &seeds.replies)
        }
        5 | 6 => {
            let count = 1 + rng.below(24);
            let pool: &[&str] = if rng.chance(2) { LABELS } else { JSON_BITS };
            let mut s = fragments(rng, LABELS, count);
            let n = rng.below(12);
            s.push_str(&fragments(rng, pool, n));
            s
        }
        7 => {
            // A well-formed reply with random pieces in each slot.
            let input = if rng.chance(2) {
                let seed = rng_pick_str(rng, &seeds.inputs);
                mutate(rng, seed, JSON_BITS, &seeds.inputs)
            } else {
                {
                    let n = rng.below(10);
                    fragments(rng, JSON_BITS, n)
                }
            };
            format!(
                "{} {}\n{} {}\n{} {}",
                rng.pick(&["Thought:", "思考：", "Thought：", ""]),
                random_text(rng, 30),
                rng.pick(&["Action:", "行动：", "Action：", "action:"]),
                rng.pick(&[
                    "calculator",
                    "search_docs",
                    "final_answer",
                    "Calc",
                    "",
                    "None"
                ]),
                rng.pick(&["Action Input:", "行动输入：", "Input:"]),
                input
            )
        }
        8 => random_text(rng, 200),
        _ => {
            let mut s = rng_pick_str(rng, &seeds.replies).to_string();
            let at = boundary(&s, rng.below(s.len() + 1));
            s.insert_str(at, &long_run(rng));
            s
        }
    }
}

fn rng_pick_str<'a>(rng: &Rng, items: &'a [String]) -> &'a str {
    items[rng.below(items.len())].as_str()
}

fn gen_json(rng: &Rng, seeds: &Seeds) -> String {
    match rng.below(8) {
        0..=3 => {
            let seed = rng_pick_str(rng, &seeds.inputs);
            mutate(rng, seed, JSON_BITS, &seeds.inputs)
        }
        4 | 5 => fragments(rng, JSON_BITS, 1 + rng.below(30)),
        6 => {
            // Deep or wide nesting, sometimes unclosed.
            let depth = rng.below(300);
            let open: String = (0..depth)
                .map(|_| *rng.pick(&["[", "{\"a\":", "{'a':", "{a:"]))
                .collect();
            let close = if rng.chance(2) {
                "]".repeat(depth)
            } else {
                String::new()
            };
            format!("{open}{}{close}", rng.pick(JSON_BITS))
        }
        _ => {
            let v = random_value(rng, 3);
            mutate(rng, &v.to_string(), JSON_BITS, &seeds.inputs)
        }
    }
}

fn random_value(rng: &Rng, depth: usize) -> Value {
    match rng.below(if depth == 0 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(2)),
        2 => json!(rng.next() as i64 >> rng.below(64)),
        3 => json!(f64::from_bits(rng.next()))
            .as_f64()
            .map_or(json!(0.5), |f| json!(f)),
        4 => Value::String(if rng.chance(2) {
            random_text(rng, 20)
        } else {
            fragments(rng, JSON_BITS, 4)
        }),
        5 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                let key = if rng.chance(2) {
                    rng.pick(&[
                        "expression",
                        "expr",
                        "query",
                        "top_k",
                        "input",
                        "args",
                        "x",
                        "",
                    ])
                    .to_string()
                } else {
                    random_text(rng, 6)
                };
                m.insert(key, random_value(rng, depth - 1));
            }
            Value::Object(m)
        }
    }
}

fn gen_calc(rng: &Rng) -> String {
    match rng.below(10) {
        0..=5 => fragments(rng, CALC_BITS, 1 + rng.below(30)),
        6 => {
            let depth = rng.below(120);
            format!(
                "{}{}{}",
                rng.pick(&["(", "-", "sqrt(", "2^", "-(", "+"])
                    .repeat(depth),
                rng.pick(CALC_BITS),
                ")".repeat(rng.below(depth + 2))
            )
        }
        7 => {
            let base = fragments(rng, CALC_BITS, 1 + rng.below(12));
            mutate(rng, &base, CALC_BITS, std::slice::from_ref(&base))
        }
        8 => "9".repeat(rng.below(700)),
        _ => random_text(rng, 40),
    }
}

/// The calculator as the agent reaches it: a written input, dispatched through the registry
/// (argument normalisation included), then run.
fn calc_call(rng: &Rng, expr: &str) -> (String, Value) {
    let tool = rng
        .pick(&["calculator", "Calculator", "calc", "calculater", "math"])
        .to_string();
    let input = match rng.below(5) {
        0 => Value::String(expr.to_string()),
        1 => json!({"expression": expr}),
        2 => json!({"expr": expr, "extra": 1}),
        3 => json!({"input": {"expression": expr}}),
        _ => Value::String(json!({"expression": expr}).to_string()),
    };
    (tool, input)
}

fn gen_sse(rng: &Rng) -> Input {
    let mut body = Vec::new();
    let eol = *rng.pick(&["\n", "\r\n", "\r"]);
    let events = rng.below(12);
    if rng.chance(12) {
        // Not a stream: a JSON body, an HTML page, or garbage.
        let text = match rng.below(3) {
            0 => json!({"choices": [{"message": {"content": random_text(rng, 40)}}]}).to_string(),
            1 => "<html>proxy login</html>".to_string(),
            _ => fragments(rng, JSON_BITS, 20),
        };
        body.extend_from_slice(
            mutate(rng, &text, JSON_BITS, std::slice::from_ref(&text)).as_bytes(),
        );
    }
    for _ in 0..events {
        let line = match rng.below(12) {
            0..=4 => {
                let content = if rng.chance(3) {
                    fragments(rng, LABELS, 3)
                } else {
                    random_text(rng, 12)
                };
                let delta = json!({"choices": [{"delta": {"content": content}, "index": 0}]});
                let mut chunk = delta.to_string();
                if rng.chance(6) {
                    chunk = mutate(rng, &chunk, JSON_BITS, std::slice::from_ref(&chunk));
                }
                format!("data: {chunk}{eol}{eol}")
            }
            5 => {
                let (prompt, completion) = (rng.below(1000), rng.next() as i64);
                let usage = json!({"prompt_tokens": prompt, "completion_tokens": completion});
                format!("data: {}{eol}{eol}", json!({"choices": [], "usage": usage}))
            }
            6 => format!(": keep-alive{eol}"),
            7 => {
                let error = json!({"error": {"message": random_text(rng, 10)}});
                format!("event: error{eol}data: {error}{eol}{eol}")
            }
            8 => format!("error: {}{eol}", fragments(rng, JSON_BITS, 5)),
            9 => format!("data: [DONE]{eol}{eol}"),
            10 => {
                const FIELDS: &[&str] = &[
                    "id: 1",
                    "retry: 10",
                    "event: message",
                    "data:",
                    "data",
                    "data: {",
                    "",
                ];
                format!("{}{eol}", rng.pick(FIELDS))
            }
            _ => {
                const BITS: &[&str] = &[
                    "data: ",
                    "\n",
                    "\r",
                    "\r\n",
                    "{",
                    "}",
                    "[DONE]",
                    ":",
                    "event: error",
                ];
                fragments(rng, BITS, 6)
            }
        };
        body.extend_from_slice(line.as_bytes());
        if rng.chance(30) {
            // Raw bytes: invalid UTF-8, a lone continuation byte, a cut multi-byte char.
            let junk = *rng.pick::<&[u8]>(&[
                &[0xff][..],
                &[0x80],
                &[0xe4, 0xb8],
                &[0xf0, 0x9f, 0x98],
                &[0xc0, 0xaf],
                &[0],
            ]);
            body.extend_from_slice(junk);
        }
    }
    if rng.chance(20) {
        body.extend_from_slice(b"data: ");
        body.extend_from_slice(long_run(rng).as_bytes());
    }
    let mut cuts = Vec::new();
    let mut left = body.len();
    while left > 0 {
        let n = match rng.below(4) {
            0 => 1,
            1 => 1 + rng.below(8),
            2 => 1 + rng.below(100),
            _ => left,
        }
        .min(left);
        cuts.push(n);
        left -= n;
    }
    let as_text = rng.chance(8) && std::str::from_utf8(&body).is_ok();
    Input::Stream {
        body,
        cuts,
        as_text,
    }
}

fn gen_trace(rng: &Rng, seeds: &Seeds) -> String {
    let mut v = rng.pick(&seeds.traces).clone();
    // Most inputs keep a step or two: enough to reach every field, cheap enough for millions.
    if !rng.chance(20) {
        if let Some(steps) = v.get_mut("steps").and_then(Value::as_array_mut) {
            let keep = rng.below(2);
            let from = rng.below(steps.len().saturating_sub(keep) + 1);
            *steps = steps.iter().skip(from).take(keep).cloned().collect();
        }
    }
    match rng.below(10) {
        0 => {
            let text = v.to_string();
            return mutate(rng, &text, JSON_BITS, std::slice::from_ref(&text));
        }
        1 => {
            // Many copies of a step (under and over the step limit some of the time).
            if let Some(steps) = v.get_mut("steps").and_then(Value::as_array_mut) {
                if let Some(step) = steps.first().cloned() {
                    let n = rng.below(if rng.chance(200) { 2_100 } else { 40 });
                    steps.extend(std::iter::repeat(step).take(n));
                }
            }
        }
        _ => {
            for _ in 0..1 + rng.below(4) {
                mutate_value(rng, &mut v);
            }
        }
    }
    v.to_string()
}

/// Replaces, removes or retypes one node of a JSON tree.
fn mutate_value(rng: &Rng, node: &mut Value) {
    let descend = rng.below(4) != 0;
    match node {
        Value::Object(m) if descend && !m.is_empty() => {
            let key = m
                .keys()
                .nth(rng.below(m.len()))
                .cloned()
                .unwrap_or_default();
            if let Some(child) = m.get_mut(&key) {
                return mutate_value(rng, child);
            }
        }
        Value::Array(a) if descend && !a.is_empty() => {
            let i = rng.below(a.len());
            return mutate_value(rng, &mut a[i]);
        }
        _ => {}
    }
    match rng.below(6) {
        0 => *node = random_value(rng, 2),
        1 => {
            if let Value::Object(m) = node {
                if let Some(key) = m.keys().nth(rng.below(m.len().max(1))).cloned() {
                    m.remove(&key);
                }
            }
        }
        2 => {
            *node = json!(rng
                .pick(&[
                    json!(-1),
                    json!("1"),
                    json!(1e300),
                    json!(0),
                    json!(u64::MAX),
                    json!(1.5),
                    json!(""),
                    json!([]),
                    json!({})
                ])
                .clone())
        }
        3 => {
            if let Value::String(s) = node {
                *s = mutate(rng, s, LABELS, std::slice::from_ref(s));
            } else {
                *node = Value::String(random_text(rng, 20));
            }
        }
        4 => {
            if let Value::Array(a) = node {
                if let Some(first) = a.first().cloned() {
                    a.push(first);
                }
            } else {
                *node = json!([node.clone()]);
            }
        }
        _ => *node = Value::Null,
    }
}

/// Runs one input; a panic (or a broken invariant, which panics) is caught by the caller.
fn run(target: &str, input: &Input, call: Option<&(String, Value)>, seeds: &Seeds) {
    match (target, input) {
        ("parse", Input::Text(text)) => {
            for result in [parse_reply(text), parse_reply_after_final_answer(text)] {
                let spans = &result.spans;
                for span in [spans.thought, spans.action, spans.input, spans.answer]
                    .into_iter()
                    .flatten()
                {
                    assert!(
                        span.start <= span.end && text.get(span.start..span.end).is_some(),
                        "span {span:?} is not on char boundaries inside a reply of {} bytes",
                        text.len()
                    );
                }
            }
            let (kept, _) = cut_observation(text);
            assert!(
                text.starts_with(kept),
                "cut_observation returned text not at the start"
            );
        }
        ("json", Input::Text(text)) => {
            let _ = parse_json_lenient(text);
        }
        ("calc", Input::Text(expr)) => {
            let _ = reactloop::tools::evaluate(expr).map(reactloop::tools::format_number);
            if let Some((tool, input)) = call {
                if let Ok(call) = seeds.registry.dispatch(tool, input) {
                    let _ = seeds
                        .registry
                        .run_builtin(&call, &HostContext::default(), Lang::En);
                }
            }
        }
        (
            "sse",
            Input::Stream {
                body,
                cuts,
                as_text,
            },
        ) => {
            let mut decoder = SseDecoder::new();
            let mut events = Vec::new();
            let mut at = 0;
            for &n in cuts {
                let chunk = &body[at..at + n];
                at += n;
                if *as_text {
                    events.extend(decoder.push(std::str::from_utf8(chunk).unwrap_or("")));
                } else {
                    events.extend(decoder.push_bytes(chunk));
                }
            }
            events.extend(decoder.finish());
            let text: usize = events
                .iter()
                .map(|e| match e {
                    StreamEvent::Delta(d) => d.len(),
                    _ => 0,
                })
                .sum();
            assert!(
                text <= reactloop::limits::MAX_REPLY_BYTES,
                "more text than the reply limit"
            );
        }
        ("trace", Input::Text(text)) => {
            if let Ok(trace) = Trace::from_json(text) {
                let saved = serde_json::to_string(&trace).expect("a loaded trace serialises");
                if let Err(e) = Trace::from_json(&saved) {
                    panic!("a loaded trace does not load again once saved: {e}");
                }
            }
        }
        _ => unreachable!("input kind matches its target"),
    }
}

thread_local! {
    /// Set while a target runs, so the panic hook can tell a finding from a generator bug.
    static IN_RUN: Cell<bool> = const { Cell::new(false) };
    /// The message of the last panic on this thread.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

struct Report {
    inputs: u64,
    panics: u64,
    first: Option<(PathBuf, String)>,
    slowest: Duration,
    elapsed: Duration,
}

fn fuzz(target: &str, iterations: u64, seed: u64, seeds: &Seeds) -> Report {
    // Each target has its own stream, so `--target` reproduces what the full run did.
    let target_no = TARGETS.iter().position(|t| *t == target).unwrap_or(0) as u64;
    let rng = Rng(Cell::new(
        seed ^ (target_no + 1).wrapping_mul(0xA076_1D64_78BD_642F),
    ));
    let mut report = Report {
        inputs: 0,
        panics: 0,
        first: None,
        slowest: Duration::ZERO,
        elapsed: Duration::ZERO,
    };
    let start = Instant::now();
    for i in 0..iterations {
        let input = match target {
            "parse" => Input::Text(gen_reply(&rng, seeds)),
            "json" => Input::Text(gen_json(&rng, seeds)),
            "calc" => Input::Text(gen_calc(&rng)),
            "sse" => gen_sse(&rng),
            _ => Input::Text(gen_trace(&rng, seeds)),
        };
        let call = match (&input, target) {
            (Input::Text(expr), "calc") => Some(calc_call(&rng, expr)),
            _ => None,
        };
        let one = Instant::now();
        IN_RUN.with(|r| r.set(true));
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            run(target, &input, call.as_ref(), seeds)
        }));
        IN_RUN.with(|r| r.set(false));
        report.slowest = report.slowest.max(one.elapsed());
        report.inputs += 1;
        if outcome.is_err() {
            report.panics += 1;
            if report.first.is_none() {
                let message = LAST_PANIC
                    .with(|m| m.borrow_mut().take())
                    .unwrap_or_default();
                let path = PathBuf::from(format!("target/fuzz/{target}-seed{seed}-input{i}.txt"));
                let saved = std::fs::create_dir_all("target/fuzz")
                    .and_then(|()| std::fs::write(&path, input.save()));
                if let Err(e) = saved {
                    eprintln!(
                        "could not save the failing input to {}: {e}",
                        path.display()
                    );
                }
                report.first = Some((path, message));
            }
        }
    }
    report.elapsed = start.elapsed();
    report
}

fn main() -> ExitCode {
    let mut iterations: u64 = 100_000;
    let mut seed: u64 = 1;
    let mut only: Option<String> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next();
        let ok = match (flag.as_str(), value) {
            ("--iterations", Some(v)) => v.replace('_', "").parse().map(|n| iterations = n).is_ok(),
            ("--seed", Some(v)) => v.parse().map(|n| seed = n).is_ok(),
            ("--target", Some(v)) if TARGETS.contains(&v.as_str()) => {
                only = Some(v.clone());
                true
            }
            _ => false,
        };
        if !ok {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    let targets: Vec<&str> = TARGETS
        .iter()
        .copied()
        .filter(|t| only.as_deref().map_or(true, |o| o == *t))
        .collect();
    let per_target = iterations / targets.len() as u64;
    let seeds = Seeds::load();

    // Keep the default hook quiet: a panic is counted and its message kept, not printed.
    panic::set_hook(Box::new(|info| {
        if !IN_RUN.with(Cell::get) {
            eprintln!("fuzz: the generator itself panicked: {info}");
        }
        LAST_PANIC.with(|m| *m.borrow_mut() = Some(info.to_string()));
    }));

    println!("fuzz: seed {seed}, {per_target} inputs per target");
    let start = Instant::now();
    let mut total = 0;
    let mut panics = 0;
    // One thread per target: each has its own PRNG stream, so the inputs do not depend on
    // the scheduling, and the run takes what the machine's cores allow.
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let seeds = &seeds;
        let handles: Vec<_> = targets
            .iter()
            .map(|&target| scope.spawn(move || fuzz(target, per_target, seed, seeds)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a fuzz thread panicked outside an input"))
            .collect()
    });
    for (target, r) in targets.iter().zip(reports) {
        total += r.inputs;
        panics += r.panics;
        println!(
            "{target:>6}: {} inputs, {} panics, slowest input {:.1} ms, {:.1} s",
            r.inputs,
            r.panics,
            r.slowest.as_secs_f64() * 1000.0,
            r.elapsed.as_secs_f64()
        );
        if let Some((path, message)) = r.first {
            println!(
                "        first panic: {message}\n        input saved to {}",
                path.display()
            );
        }
    }
    println!(
        "total: {total} inputs, {panics} panics, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if panics == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
