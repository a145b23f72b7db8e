//! The real inputs mutations start from: the parser corpus and the recorded traces, compiled
//! in so that the binary runs from anywhere.

use reactloop::tools::{default_documents, Registry};
use serde_json::Value;

const CORPUS: &str = include_str!("../../../tests/corpus/react_outputs.jsonl");
const RECORDINGS: &[&str] = &[
    include_str!("../../../www/recordings/calculator-en.json"),
    include_str!("../../../www/recordings/format-en.json"),
    include_str!("../../../www/recordings/search-zh.json"),
];

pub(crate) struct Seeds {
    pub(crate) replies: Vec<String>,
    pub(crate) inputs: Vec<String>,
    pub(crate) traces: Vec<Value>,
    pub(crate) registry: Registry,
}

impl Seeds {
    pub(crate) fn load() -> Seeds {
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
