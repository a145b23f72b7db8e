//! A [`ModelRequest`] as the body a server is sent: the tools its reply may call (one it is
//! steered to, or all but those left out or avoided; none when it must answer), and what
//! that reply must be under the request's constraint, as a JSON schema or a GBNF grammar.

use serde_json::Value;

use super::{constrain, react_grammar, react_schema, uses, ModelRequest, Thought, FINAL_ANSWER};
use crate::llm::{self, ClientConfig, Constrained, Constraint};
use crate::tools::{Role, ToolSpec};

/// The constraint `req` goes out with, for the registered `tools`; `None` without one (`off`,
/// or an `auto` the loop has not resolved).
pub fn constraint(req: &ModelRequest, tools: &[ToolSpec]) -> Option<Constraint> {
    if !req.constrained.is_on() {
        return None;
    }
    let tools = if req.must_answer.is_some() {
        &[]
    } else {
        tools
    };
    let steered: Vec<ToolSpec>;
    let (tools, avoid) = match &req.steer {
        Some(steer) if tools.iter().any(|t| t.name == steer.tool) => {
            steered = tools
                .iter()
                .filter(|t| t.name == steer.tool)
                .map(|t| match &steer.args {
                    Some(args) => t.with_fixed(args),
                    None => t.clone(),
                })
                .collect();
            (&steered[..], Some(FINAL_ANSWER))
        }
        _ if !req.left_out.is_empty() => {
            steered = (tools.iter())
                .filter(|t| !req.left_out.contains(&t.name))
                .cloned()
                .collect();
            (&steered[..], req.avoid.as_ref().map(|a| a.tool.as_str()))
        }
        _ => (tools, req.avoid.as_ref().map(|a| a.tool.as_str())),
    };
    let actions = super::actions(tools, avoid);
    let thought = match (&req.thought_prefix, req.thought_closed) {
        _ if req.no_thought => Thought::Omitted,
        (Some(text), true) => Thought::Exactly(text),
        (Some(text), false) => Thought::StartsWith(text),
        (None, _) => Thought::Free,
    };
    let answer = req.answer_prefix.as_deref();
    // The numbers the steered calculation must use, when the steer is to the calculator.
    let uses = req.steer.as_ref().filter(|steer| {
        let spec = tools.iter().find(|t| t.name == steer.tool);
        let constrains = !steer.uses.is_empty() || !steer.seen.is_empty();
        constrains && spec.and_then(|s| s.role) == Some(Role::Computes)
    });
    // What the reply is to be (a plan, a summary or a step): its schema, named on the wire...
    let schema = || {
        if req.asks_plan {
            ("react_plan", constrain::plan_schema())
        } else if req.summarizes {
            ("react_summary", constrain::summary_schema())
        } else {
            let mut schema = react_schema(&actions, thought, answer);
            if let Some(steer) = uses {
                uses::into_schema(&mut schema, &steer.tool, &steer.uses, &steer.seen);
            }
            ("react_step", schema)
        }
    };
    // ... or its grammar.
    let grammar = || {
        if req.asks_plan {
            constrain::plan_grammar()
        } else if req.summarizes {
            constrain::summary_grammar()
        } else {
            let grammar = react_grammar(&actions, thought, answer);
            match uses {
                Some(steer) => uses::into_grammar(&grammar, &steer.uses, &steer.seen),
                None => grammar,
            }
        }
    };
    Some(match req.constrained {
        Constrained::JsonObject => Constraint::JsonObject(schema().1),
        Constrained::JsonSchema => {
            let (name, schema) = schema();
            Constraint::JsonSchema { name, schema }
        }
        Constrained::Grammar => Constraint::Grammar(grammar()),
        Constrained::Auto | Constrained::Off => return None,
    })
}

/// The JSON body of `req` for a server ([`llm::chat_body`]). `tools` are the registered
/// tools, for the constrained modes.
pub fn chat_body(cfg: &ClientConfig, req: &ModelRequest, tools: &[ToolSpec]) -> Value {
    llm::chat_body(cfg, &req.messages, &req.stop, constraint(req, tools))
}

/// The JSON body of `req` for the in-page engine ([`llm::in_page_body`]).
pub fn in_page_body(cfg: &ClientConfig, req: &ModelRequest, tools: &[ToolSpec]) -> Value {
    llm::in_page_body(cfg, &req.messages, &req.stop, constraint(req, tools))
}
