//! Scores the parser against the corpus of real model replies, exactly as
//! `tests/corpus/README.md` says: kind; for an action the tool exactly and the input by JSON
//! equality; for a final answer the answer after trimming.
//!
//! `cargo test --test corpus -- --nocapture` prints the agreement and every miss. A miss is
//! kept only with its reason in the case's `known_miss` field; the test fails on a miss without
//! one, and when agreement drops below 97%.

use reactloop::parse::{parse_reply, Parsed};
use serde_json::Value;
use std::path::Path;

/// The corpus result the README asks for, in a comparable shape.
#[derive(Debug, PartialEq)]
enum Outcome {
    Action { tool: String, input: Value },
    Final { answer: String },
    Error,
}

fn expected(case: &Value) -> Outcome {
    let expect = &case["expect"];
    match expect["kind"].as_str() {
        Some("action") => Outcome::Action {
            tool: expect["tool"].as_str().unwrap_or_default().to_string(),
            input: expect["input"].clone(),
        },
        Some("final") => Outcome::Final {
            answer: expect["answer"]
                .as_str()
                .unwrap_or_default()
                .trim()
                .to_string(),
        },
        Some("error") => Outcome::Error,
        other => panic!("case {}: unknown kind {other:?}", case["id"]),
    }
}

fn got(parsed: Parsed) -> Outcome {
    match parsed {
        Parsed::Action { tool, input } => Outcome::Action { tool, input },
        Parsed::Final { answer } => Outcome::Final {
            answer: answer.trim().to_string(),
        },
        Parsed::Error { .. } => Outcome::Error,
    }
}

/// Agreement below this fails the test.
const MIN_AGREEMENT: f64 = 97.0;
/// The corpus must not shrink below the size the README promises.
const MIN_CASES: usize = 210;

#[test]
fn corpus_agreement() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/react_outputs.jsonl");
    let data = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let cases: Vec<Value> = data
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("corpus line is JSON"))
        .collect();
    assert!(
        cases.len() >= MIN_CASES,
        "corpus unexpectedly small: {}",
        cases.len()
    );
    let mut ids = std::collections::HashSet::new();
    for case in &cases {
        let id = case["id"].as_str().expect("id");
        assert!(ids.insert(id), "duplicate id {id}");
        assert!(
            case["source"].as_str().is_some_and(|s| !s.is_empty()),
            "case {id} has no source"
        );
    }

    let mut agree = 0;
    let mut unexplained = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or_default();
        let text = case["text"].as_str().expect("text");
        let want = expected(case);
        let result = parse_reply(text);
        let have = got(result.parsed.clone());
        let reason = case["known_miss"].as_str();
        if have == want {
            agree += 1;
            if reason.is_some() {
                println!("AGREES NOW {id}: drop its known_miss note");
            }
            continue;
        }
        match reason {
            Some(reason) => println!("MISS {id} (kept: {reason})"),
            None => {
                println!("MISS {id} (no reason recorded)");
                unexplained.push(id.to_string());
            }
        }
        println!("  expected: {want:?}\n  got:      {have:?}");
    }
    let rate = 100.0 * agree as f64 / cases.len() as f64;
    println!("corpus agreement: {agree}/{} ({rate:.1}%)", cases.len());
    assert!(
        rate >= MIN_AGREEMENT,
        "corpus agreement {rate:.1}% is below {MIN_AGREEMENT}%"
    );
    assert!(
        unexplained.is_empty(),
        "misses without a recorded reason (fix the parser, or add known_miss to the case): {unexplained:?}"
    );
}
