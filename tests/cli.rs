//! The native inspection command.
#![cfg(feature = "cli")]

use std::io::Write;
use std::process::{Command, Stdio};

fn reactloop(args: &[&str], stdin: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reactloop"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start reactloop");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("run reactloop");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn parse_writes_one_json_line_per_input() {
    let input = [
        r#"{"text": "Thought: add\nAction：Calculator\nAction Input: {'expr': '1+1',}"}"#,
        r#"{"text": "Final Answer: 42"}"#,
        r#"{"text": "just prose"}"#,
    ]
    .join("\n");
    let (ok, out) = reactloop(&["parse"], &input);
    assert!(ok);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["kind"], "action");
    assert_eq!(rows[0]["tool"], "Calculator");
    assert_eq!(rows[0]["input"], serde_json::json!({"expr": "1+1"}));
    assert_eq!(rows[0]["thought"], "add");
    assert!(rows[0]["repairs"].as_array().is_some_and(|r| r.len() >= 3));
    assert_eq!(rows[1]["kind"], "final");
    assert_eq!(rows[1]["answer"], "42");
    assert_eq!(rows[2]["kind"], "error");
    assert!(rows[2]["error"]
        .as_str()
        .is_some_and(|e| e.contains("Action")));
    for row in &rows {
        for key in [
            "kind", "tool", "input", "answer", "thought", "repairs", "error",
        ] {
            assert!(row.get(key).is_some(), "{key} missing in {row}");
        }
    }
}

#[test]
fn parse_rejects_a_line_without_text() {
    let (ok, _) = reactloop(&["parse"], "{\"nope\": 1}\n");
    assert!(!ok);
}

#[test]
fn prompt_prints_the_golden_prompts() {
    let (ok, en) = reactloop(&["prompt"], "");
    assert!(ok);
    assert_eq!(
        en.trim_end(),
        include_str!("golden/prompt_en.txt").trim_end()
    );
    let (ok, zh) = reactloop(&["prompt", "--lang", "zh"], "");
    assert!(ok);
    assert_eq!(
        zh.trim_end(),
        include_str!("golden/prompt_zh.txt").trim_end()
    );
    let (ok, _) = reactloop(&["prompt", "--lang", "fr"], "");
    assert!(!ok);
}

#[test]
fn demo_prints_a_finished_trace() {
    let (ok, out) = reactloop(&["demo", "What is 23 * 17 + 4?"], "");
    assert!(ok);
    let trace: serde_json::Value = serde_json::from_str(&out).expect("trace json");
    assert_eq!(trace["outcome"]["type"], "answer");
    assert_eq!(trace["outcome"]["answer"], "The result is 395.");
}

#[test]
fn titles_and_unions_are_the_cores() {
    // What scripts/build writes into www/titles.js and the declarations.
    let (ok, out) = reactloop(&["titles"], "");
    assert!(ok);
    let titles: serde_json::Value = serde_json::from_str(&out).expect("one JSON value");
    assert_eq!(
        titles,
        serde_json::to_value(reactloop::sentences::titles()).unwrap()
    );
    let (ok, out) = reactloop(&["unions"], "");
    assert!(ok);
    assert_eq!(out.trim_end(), reactloop::view::unions().trim_end());
    assert!(
        out.contains("export type MustAnswer = 'repeated_call'"),
        "{out}"
    );
}
