//! Scores the parser against the corpus of real model replies, exactly as
//! `tests/corpus/README.md` says: kind; for an action the tool exactly and the input by JSON
//! equality; for a final answer the answer after trimming.

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
        cases.len() >= 70,
        "corpus unexpectedly small: {}",
        cases.len()
    );

    let mut agree = 0;
    for case in &cases {
        let text = case["text"].as_str().expect("text");
        let want = expected(case);
        let result = parse_reply(text);
        let have = got(result.parsed.clone());
        if have == want {
            agree += 1;
        } else {
            println!(
                "MISS {}\n  expected: {want:?}\n  got:      {have:?}\n  full: {result:?}",
                case["id"]
            );
        }
    }
    let rate = 100.0 * agree as f64 / cases.len() as f64;
    println!("corpus: {agree}/{} agree ({rate:.1}%)", cases.len());
    assert!(rate >= 95.0, "corpus agreement {rate:.1}% is below 95%");
}
