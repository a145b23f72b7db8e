//! Native inspection tool: `reactloop parse`, `reactloop prompt [--lang en|zh]`,
//! `reactloop demo [--lang en|zh] QUESTION`; and what scripts/build writes from the core
//! (`reactloop titles`, `reactloop unions`), here so the wasm need not carry it.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use reactloop::agent::Agent;
use reactloop::config::AgentConfig;
use reactloop::lang::Lang;
use reactloop::parse::{parse_reply, Parsed};
use reactloop::prompt::{system_prompt, PromptConfig};
use reactloop::told;
use reactloop::tools::{default_documents, HostContext, Registry};
use reactloop::trace::ModelReply;
use serde_json::{json, Value};

const USAGE: &str = "usage:
  reactloop parse                      JSON lines with a \"text\" field on stdin → one parse per line
  reactloop prompt [--lang en|zh]      print the system prompt for the built-in tools
  reactloop demo [--lang en|zh] QUESTION   run the demo model and print the trace as JSON
  reactloop titles                     every kind's title in both languages, as JSON (www/titles.js)
  reactloop unions                     the TypeScript unions of the enums' names (the declarations)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("parse") => parse_lines(),
        Some("prompt") => lang(&args[1..])
            .map(|lang| {
                let registry = Registry::with_builtins(default_documents());
                let config = PromptConfig {
                    lang,
                    ..PromptConfig::default()
                };
                system_prompt(&registry.specs(), &config)
            })
            .and_then(|prompt| print(&prompt)),
        Some("demo") => demo(&args[1..]),
        Some("titles") => serde_json::to_string(&reactloop::sentences::titles())
            .map_err(|e| e.to_string())
            .and_then(|json| print(&json)),
        Some("unions") => print(&reactloop::view::unions()),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

fn lang(args: &[String]) -> Result<Lang, String> {
    match args {
        [] => Ok(Lang::En),
        [flag, value, ..] if flag == "--lang" => match value.as_str() {
            "en" => Ok(Lang::En),
            "zh" => Ok(Lang::Zh),
            other => Err(format!("unknown language {other:?}: use en or zh")),
        },
        _ => Err(USAGE.to_string()),
    }
}

fn parse_lines() -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (n, line) in io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let text = value
            .get("text")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("line {}: no \"text\" string field", n + 1))?;
        let result = parse_reply(text);
        let repairs: Vec<String> = result
            .repairs
            .iter()
            .map(|r| reactloop::sentences::repair(*r).en)
            .collect();
        let row = match &result.parsed {
            Parsed::Action { tool, input } => {
                json!({"kind": "action", "tool": tool, "input": input,
                "answer": null, "thought": result.thought, "repairs": repairs, "error": null})
            }
            Parsed::Final { answer } => json!({"kind": "final", "tool": null, "input": null,
                "answer": answer, "thought": result.thought, "repairs": repairs, "error": null}),
            Parsed::Error { error } => json!({"kind": "error", "tool": null, "input": null,
                "answer": null, "thought": result.thought, "repairs": repairs,
                "error": told::format_error(error, Lang::En.into())}),
        };
        writeln!(out, "{row}").map_err(|e| format!("writing stdout: {e}"))?;
    }
    Ok(())
}

fn demo(args: &[String]) -> Result<(), String> {
    let (lang, question) = match args {
        [flag, _, rest @ ..] if flag == "--lang" => (lang(&args[..2])?, rest.join(" ")),
        _ => (Lang::En, args.join(" ")),
    };
    if question.trim().is_empty() {
        return Err(USAGE.to_string());
    }
    let mut config = AgentConfig::default();
    config.prompt.lang = lang;
    let mut agent = Agent::new(
        &question,
        Registry::with_builtins(default_documents()),
        config,
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64);
    let host = HostContext {
        now_unix_ms: now,
        utc_offset_minutes: 0,
    };
    reactloop::drive::run_to_end(&mut agent, &host, |request| {
        Ok(ModelReply {
            text: reactloop::demo::reply(request),
            ..ModelReply::default()
        })
    });
    let trace = serde_json::to_string_pretty(agent.trace()).map_err(|e| e.to_string())?;
    print(&trace)
}

/// Prints a line; a closed pipe (`| head`) is an error message, not a panic.
fn print(text: &str) -> Result<(), String> {
    writeln!(io::stdout(), "{text}").map_err(|e| format!("writing stdout: {e}"))
}
