//! The loop's decisions for every bench question, without a model: each tool's fit, the first
//! request's steer, avoid, must_answer and Thought opening, and the second request's after the
//! steered call found something. Run at two commits and diff the outputs to see which questions
//! a change of the core can move before spending an hour of model time on them:
//!
//! ```sh
//! cargo run --release --example decisions > before.txt   # and again after the change
//! diff before.txt after.txt
//! ```

use reactloop::agent::{Agent, Next, ToolResult};
use reactloop::ask::ModelRequest;
use reactloop::config::AgentConfig;
use reactloop::lang::Lang;
use reactloop::llm::Constrained;
use reactloop::tools::{default_documents, Registry, ToolSpec};
use reactloop::trace::ModelReply;
use serde_json::Value;

const SETS: [&str; 3] = ["tasks.json", "heldout.json", "pagetools.json"];

fn show(r: &ModelRequest) -> String {
    format!(
        "steer={:?} avoid={:?} must={:?} thought={:?}",
        r.steer.as_ref().map(|s| (&s.tool, &s.uses, &s.args)),
        r.avoid.as_ref().map(|a| (&a.tool, a.why)),
        r.must_answer,
        r.thought_prefix
    )
}

/// The second request, after the steered tool was called with its example input (and the
/// arguments the question fixes) and found something.
fn second(agent: &mut Agent, request: &ModelRequest) -> String {
    let Some(steer) = request.steer.clone() else {
        return String::new();
    };
    let specs = agent.registry().specs();
    let Some(spec) = specs.into_iter().find(|s| s.name == steer.tool) else {
        return String::new();
    };
    let mut input = spec.example_input();
    for (k, v) in steer.args.iter().flat_map(|a| a.iter()) {
        input[k] = v.clone();
    }
    let text = format!("Thought: x\nAction: {}\nAction Input: {input}", steer.tool);
    if agent
        .feed_model(ModelReply {
            text,
            ..ModelReply::default()
        })
        .is_err()
    {
        return "the reply was refused".into();
    }
    if let Next::RunTool { .. } = agent.next() {
        let result = ToolResult {
            output: Ok("Result: 2024 items".into()),
            elapsed_ms: None,
            edited: false,
        };
        if agent.feed_tool(result).is_err() {
            return "the result was refused".into();
        }
    }
    match agent.next() {
        Next::CallModel { request } => show(request),
        _ => "done".into(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/tasks/");
    for set in SETS {
        let data: Value = serde_json::from_str(&std::fs::read_to_string(format!("{root}{set}"))?)?;
        let tools: Vec<ToolSpec> = match data.get("tools") {
            Some(tools) => serde_json::from_value(tools.clone())?,
            None => Vec::new(),
        };
        for task in data["tasks"].as_array().into_iter().flatten() {
            let (Some(id), Some(question)) = (task["id"].as_str(), task["question"].as_str())
            else {
                continue;
            };
            let mut registry = Registry::with_builtins(default_documents());
            for tool in &tools {
                registry.register_external(tool.clone())?;
            }
            let mut config = AgentConfig {
                constrained: Constrained::Grammar,
                ..AgentConfig::default()
            };
            if task["lang"] == "zh" {
                config.prompt.lang = Lang::Zh;
            }
            let mut agent = Agent::new(question, registry, config);
            let request = match agent.next() {
                Next::CallModel { request } => request.clone(),
                _ => {
                    println!("{id}: no request");
                    continue;
                }
            };
            // Each tool with evidence, and its evidence as the trace has it.
            let fits: Vec<String> = (request.fits.iter())
                .filter(|f| !f.evidence.is_empty())
                .map(|f| {
                    let evidence: Vec<String> = (f.evidence.iter())
                        .map(|e| serde_json::to_string(e).unwrap_or_default())
                        .collect();
                    format!("{}:{} {}", f.tool, f.score, evidence.join(""))
                })
                .collect();
            let then = second(&mut agent, &request);
            println!(
                "{id} | {} | {}\n    2nd: {then}",
                fits.join(" "),
                show(&request)
            );
        }
    }
    Ok(())
}
