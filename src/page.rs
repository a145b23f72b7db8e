//! What a page hands the loop as a JavaScript value, read from its JSON (the glue turns the
//! value into JSON; `wasm/src/types.d.ts` declares each shape): a tool's definition, a
//! person's edit of a step, and the reply of a page's model function. Read by the crate's
//! own readers, as a trace is, so that the wasm carries no second way of reading JSON.

use serde_json::{json, Error, Value};

use crate::fields::Fields;
use crate::llm::Usage;
use crate::tools::Role;

/// A page's tool (`registerTool`, `checkTool`), but its `run` function.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    /// A JSON schema; missing, an object with no properties.
    pub parameters: Value,
    pub examples: Vec<String>,
    pub keywords: Vec<String>,
    pub role: Option<Role>,
    pub timeout_ms: Option<u32>,
}

impl ToolDefinition {
    pub fn read(value: Value) -> Result<Self, Error> {
        let mut f = Fields::object(value)?;
        Ok(ToolDefinition {
            name: f.get("name")?,
            description: f.or("description", String::new())?,
            parameters: f.or("parameters", json!({"type": "object", "properties": {}}))?,
            examples: f.or("examples", Vec::new())?,
            keywords: f.or("keywords", Vec::new())?,
            role: f.opt("role")?,
            timeout_ms: f.opt("timeoutMs")?,
        })
    }
}

/// What the step debugger feeds instead of calling the model or the tool: a reply typed by a
/// person, or one fetched earlier with `ask()` (then `edited` says whether it changed).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Edit {
    pub reply: Option<String>,
    pub observation: Option<String>,
    pub usage: Option<Usage>,
    pub elapsed_ms: Option<f64>,
    pub edited: Option<bool>,
}

impl Edit {
    pub fn read(value: Value) -> Result<Self, Error> {
        let mut f = Fields::object(value)?;
        Ok(Edit {
            reply: f.opt("reply")?,
            observation: f.opt("observation")?,
            usage: f.opt("usage")?,
            elapsed_ms: f.opt("elapsedMs")?,
            edited: f.opt("edited")?,
        })
    }
}

/// What a page's model function resolves with, besides the pieces it streamed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunctionReply {
    pub text: Option<String>,
    pub usage: Usage,
}

impl FunctionReply {
    pub fn read(value: Value) -> Result<Self, Error> {
        let mut f = Fields::object(value)?;
        Ok(FunctionReply {
            text: f.opt("text")?,
            usage: f.or("usage", Usage::default())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_definition_reads_with_its_defaults() {
        let def = ToolDefinition::read(json!({"name": "weather", "timeoutMs": 500})).unwrap();
        assert_eq!(def.parameters, json!({"type": "object", "properties": {}}));
        assert_eq!((def.description.as_str(), def.timeout_ms), ("", Some(500)));
        assert!(def.examples.is_empty() && def.keywords.is_empty() && def.role.is_none());
        let given = json!({"name": "n", "description": "d", "parameters": {"type": "object"},
            "examples": ["e"], "keywords": ["k"], "role": "searches", "run": null});
        let def = ToolDefinition::read(given).unwrap();
        assert_eq!(
            (def.examples, def.keywords),
            (vec!["e".into()], vec!["k".into()])
        );
        assert_eq!(def.role, Some(Role::Searches));
        let refused = |v: Value| ToolDefinition::read(v).unwrap_err().to_string();
        assert_eq!(refused(json!({})), "missing field `name`");
        assert_eq!(
            refused(json!({"name": "n", "timeoutMs": -1})),
            "invalid value: integer `-1`, expected u32"
        );
        assert_eq!(
            refused(json!({"name": "n", "examples": "e"})),
            "invalid type: string \"e\", expected a sequence"
        );
    }

    #[test]
    fn an_edit_and_a_function_reply_read_in_the_page_s_names() {
        let edit = Edit::read(json!({"reply": "r", "elapsedMs": 1.5, "edited": false,
            "usage": {"prompt_tokens": 3}}))
        .unwrap();
        assert_eq!(edit.reply.as_deref(), Some("r"));
        assert_eq!((edit.elapsed_ms, edit.edited), (Some(1.5), Some(false)));
        assert_eq!(edit.usage.and_then(|u| u.prompt_tokens), Some(3));
        assert_eq!(
            Edit::read(json!({"observation": null})).unwrap(),
            Edit::default()
        );
        let reply = FunctionReply::read(json!({"text": "t"})).unwrap();
        assert_eq!(
            (reply.text.as_deref(), reply.usage),
            (Some("t"), Usage::default())
        );
        assert!(FunctionReply::read(json!("t")).is_err());
    }
}
