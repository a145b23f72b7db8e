//! The limits on trace files (src/limits.rs): the largest file and the most steps load, one
//! byte or one step more is refused with a sentence naming the limit, and the refusal comes
//! before the expensive part. The reply limits are tested in src/llm (the SSE decoder) and in
//! wasm/tests/browser.rs (the fetch driver against the mock server).

use std::time::{Duration, Instant};

use reactloop::agent::Agent;
use reactloop::config::AgentConfig;
use reactloop::drive::run_to_end;
use reactloop::limits::{MAX_TRACE_BYTES, MAX_TRACE_STEPS};
use reactloop::tools::{default_documents, HostContext, Registry};
use reactloop::trace::{ModelReply, Trace, TraceError};
use serde_json::{json, Value};

const HOST: HostContext = HostContext {
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 0,
};

/// A real trace of the demo model (a calculator call, then the answer), as JSON.
fn demo_trace() -> Value {
    let mut agent = Agent::new(
        "What is 23 * 17 + 4?",
        Registry::with_builtins(default_documents()),
        AgentConfig::default(),
    );
    run_to_end(&mut agent, &HOST, |request| {
        Ok(ModelReply {
            text: reactloop::demo::reply(request),
            ..ModelReply::default()
        })
    });
    serde_json::to_value(agent.trace()).unwrap()
}

fn with_steps(trace: &Value, count: usize) -> String {
    let step = &trace["steps"][0];
    let steps: Vec<Value> = (1..=count)
        .map(|index| {
            let mut step = step.clone();
            step["index"] = json!(index);
            step
        })
        .collect();
    let mut trace = trace.clone();
    trace["steps"] = Value::Array(steps);
    trace.to_string()
}

fn refusal(text: &str) -> String {
    match Trace::from_json(text) {
        Err(error @ TraceError::Invalid { .. }) => error.to_string(),
        other => panic!("not refused as invalid: {:?}", other.map(|t| t.steps.len())),
    }
}

#[test]
fn the_most_steps_load_and_one_more_is_refused() {
    let trace = demo_trace();
    assert_eq!(MAX_TRACE_STEPS, 2_000);
    let most = with_steps(&trace, MAX_TRACE_STEPS);
    let started = Instant::now();
    assert_eq!(
        Trace::from_json(&most).unwrap().steps.len(),
        MAX_TRACE_STEPS
    );
    println!(
        "{MAX_TRACE_STEPS} demo steps, {} bytes: loaded in {:?}",
        most.len(),
        started.elapsed()
    );
    let message = refusal(&with_steps(&trace, MAX_TRACE_STEPS + 1));
    assert_eq!(
        message,
        "This JSON is not a reactloop trace: it has 2001 steps, and a trace may have at most \
         2000 (a run stops at its step limit, 8 by default)"
    );
}

/// 100,000 steps took 28 s and 2.7 GB in the browser before the limit; now the count is
/// read before any step is.
#[test]
fn many_steps_are_refused_before_they_are_read() {
    let steps = vec![json!({}); 100_000];
    let text = json!({"version": 1, "steps": steps}).to_string();
    let started = Instant::now();
    let message = refusal(&text);
    assert!(message.contains("it has 100000 steps"), "{message}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_largest_file_loads_and_one_byte_more_is_refused() {
    let mut trace = demo_trace();
    trace["question"] = json!("");
    let room = MAX_TRACE_BYTES - trace.to_string().len();
    trace["question"] = json!("a".repeat(room));
    let largest = trace.to_string();
    assert_eq!(largest.len(), MAX_TRACE_BYTES);
    assert_eq!(Trace::from_json(&largest).unwrap().question.len(), room);

    trace["question"] = json!("a".repeat(room + 1));
    assert_eq!(
        refusal(&trace.to_string()),
        "This JSON is not a reactloop trace: the file is 20000001 bytes, more than the 20 MB a \
         trace may be (a real run is a few dozen KB)"
    );
    // Checked before parsing: a huge file that is not even JSON says it is too large.
    let junk = "x".repeat(25_340_000);
    assert!(refusal(&junk).contains("the file is 25.3 MB"));
}
