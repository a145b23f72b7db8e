//! Tools: specs, the registry that resolves what a model wrote into a call, and the built-in
//! tools. The module is pure: external tools (registered by the host with only a spec) are
//! resolved and normalised here but run by the driver, and the clock comes in a [`HostContext`].
//!
//! Dispatching is tolerant because small models misspell names and keys; every correction is
//! recorded in [`ToolCall::notes`] so the trace shows it, and every failure becomes an
//! observation that tells the model how to fix its next step.
//!
//! Here: what a tool is (its spec, the built-ins, the documents, the host's clock). Beside it:
//! `registry` (the tools a run may call), `dispatch` (a written call resolved and run),
//! `names` (loose name matching), `args` (input normalisation), `call` (the resolved call and
//! its notes), `error` (what failed; its words are `told`'s).

mod args;
pub mod calculator;
mod call;
mod comparison;
pub mod current_time;
pub mod days;
mod declared;
mod dispatch;
mod error;
mod factors;
pub mod fit;
mod glossary;
mod names;
mod outrank;
mod places;
mod registry;
pub mod search_docs;

pub use calculator::{evaluate, evaluate_list, format_number, CalcError};
pub use call::{Note, ToolCall};
pub use error::{DispatchError, ToolError};
pub use factors::factors;
pub use fit::{Evidence, ToolFit};
pub use places::{names_place, places};
pub use registry::{Registry, RegistryError, MAX_EVIDENCE, MAX_EVIDENCE_CHARS, MAX_NAME_LEN};

use crate::fields::{units, via_value, Fields};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// A tool as the model sees it. `parameters` is a JSON-schema object
/// (`{"type": "object", "properties": {...}, "required": [...]}`). `examples`, `keywords`
/// and `role` are what point to it in a question ([`fit`]); the model is not shown them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
    /// Questions the tool answers, in any language: a question that shares two or more words
    /// with one points to the tool.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
    /// Words or phrases that name what the tool is about ("weather", "订单").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// What the loop's own rules may rely on it for; `None`: it gives a fact (to answer with,
    /// or to compute on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
}

via_value! {
    ToolSpec => tool_spec,
}

fn tool_spec(value: serde_json::Value) -> Result<ToolSpec, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(ToolSpec {
        name: f.get("name")?,
        description: f.get("description")?,
        parameters: f.get("parameters")?,
        examples: f.or("examples", Vec::new())?,
        keywords: f.or("keywords", Vec::new())?,
        role: f.opt("role")?,
    })
}

units! {
    /// What a tool does for the loop's rules, declared by the tool (the built-ins declare
    /// theirs; a page's own calculator may declare `computes`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Role {
        /// It evaluates an expression, its first string parameter: the question's numbers and
        /// operations point to it, and the rules on computations apply to its calls (a
        /// calculation unrelated to the question, one applied again, the numbers it must use).
        Computes,
        /// It tells the date and time, and counts days from today in its `days` parameter.
        Clock,
        /// It searches the run's documents: names and terms they hold point to it.
        Searches,
    }
}

impl Role {
    /// The roles a page's own tool may declare: the others rely on how a built-in works
    /// (the clock's `days`, the documents the core holds).
    pub fn declarable(self) -> bool {
        self == Role::Computes
    }
}

impl ToolSpec {
    /// An example Action Input built from the schema, e.g. `{"expression": "2 * (3 + 4)"}`: the
    /// schema's first `examples` entry or its `example` when present; otherwise the required
    /// parameters ([`ToolSpec::written_params`]), each from its own `examples`, `example`,
    /// `default` or first `enum` value, else a placeholder of its type (`"<name>"`, 1, true, [], {}).
    pub fn example_input(&self) -> Value {
        let p = &self.parameters;
        let given = p
            .get("examples")
            .and_then(|e| e.get(0))
            .or_else(|| p.get("example"));
        if let Some(example) = given.filter(|e| e.is_object()) {
            return example.clone();
        }
        let example = self
            .written_params()
            .into_iter()
            .map(|name| {
                let value = args::example_value(&name, self.property(&name));
                (name, value)
            })
            .collect();
        Value::Object(example)
    }

    /// The parameters an example input, and a constrained call, write: the required ones, or
    /// all of them when none is required, but for an optional one that declares its
    /// `default` (the clock's `days`: a model made to write one writes a number whether or not
    /// the question names a day). Optional extras are left to the tool's defaults, so a model
    /// cannot run away on `"top_k": 1000000…`.
    pub fn written_params(&self) -> Vec<String> {
        let params = self.params();
        let any_required = params.iter().any(|(_, required)| *required);
        params
            .into_iter()
            .filter(|(name, required)| {
                let defaulted = self
                    .property(name)
                    .is_some_and(|p| p.get("default").is_some());
                *required || (!any_required && !defaulted)
            })
            .map(|(name, _)| name)
            .collect()
    }

    /// Parameter names and whether each is required: the schema's `required` list in its order,
    /// then the other properties in schema order (serde_json's `preserve_order` is on).
    pub fn params(&self) -> Vec<(String, bool)> {
        let mut out: Vec<(String, bool)> = Vec::new();
        let required = self.parameters.get("required").and_then(Value::as_array);
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.to_string(), true));
            }
        }
        let properties = self.parameters.get("properties").and_then(Value::as_object);
        for name in properties.into_iter().flat_map(|p| p.keys()) {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.clone(), false));
            }
        }
        out
    }

    /// This spec with `args` required and fixed to their values (an `enum` of one), so that a
    /// constrained call writes them as given.
    pub fn with_fixed(&self, args: &Map<String, Value>) -> ToolSpec {
        let mut spec = self.clone();
        for (name, value) in args {
            if let Some(Value::Object(properties)) = spec.parameters.get_mut("properties") {
                let property = properties.entry(name.clone()).or_insert_with(|| json!({}));
                if let Value::Object(property) = property {
                    property.remove("default");
                    property.insert("enum".into(), json!([value]));
                }
            }
            if let Value::Object(parameters) = &mut spec.parameters {
                let required = parameters.entry("required").or_insert_with(|| json!([]));
                if let Value::Array(required) = required {
                    required.push(json!(name));
                }
            }
        }
        spec
    }

    /// The schema of one parameter, if the spec declares it.
    fn property(&self, name: &str) -> Option<&Value> {
        self.parameters.get("properties")?.get(name)
    }
}

units! {
    /// The tools implemented in Rust.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Builtin {
        Calculator,
        SearchDocs,
        CurrentTime,
    }
}

impl Builtin {
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Calculator => "calculator",
            Builtin::SearchDocs => "search_docs",
            Builtin::CurrentTime => "current_time",
        }
    }

    pub fn spec(self) -> ToolSpec {
        match self {
            Builtin::Calculator => calculator::spec(),
            Builtin::SearchDocs => search_docs::spec(),
            Builtin::CurrentTime => current_time::spec(),
        }
    }

    /// The built-in tool this spec describes, unchanged.
    pub fn of(spec: &ToolSpec) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.spec() == *spec)
    }
}

/// The lines of a recognition table (`places.txt`, `glossary.txt`), without its comments.
fn data_lines(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The built-in tools' specs, in registration order.
pub fn builtin_specs() -> Vec<ToolSpec> {
    Builtin::ALL.into_iter().map(Builtin::spec).collect()
}

/// A document `search_docs` can find.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Document {
    pub title: String,
    pub text: String,
}

via_value! {
    Document => document,
}

fn document(value: serde_json::Value) -> Result<Document, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(Document {
        title: f.get("title")?,
        text: f.get("text")?,
    })
}

/// The built-in documents: short bilingual (English, then Chinese) notes on the workshop's
/// topics, so `search_docs` works before the host supplies its own.
pub fn default_documents() -> Vec<Document> {
    // Parsed from a file compiled into the binary; a test checks that it parses.
    serde_json::from_str(include_str!("default_docs.json")).unwrap_or_default()
}

/// What the host tells the core about the world outside.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct HostContext {
    /// Milliseconds since 1970-01-01 UTC (JavaScript's `Date.now()`).
    pub now_unix_ms: f64,
    /// Minutes east of UTC: 480 for UTC+08:00. (JavaScript's `getTimezoneOffset()` has the
    /// opposite sign: pass `-new Date().getTimezoneOffset()`.)
    pub utc_offset_minutes: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_docs_parse() {
        let docs = default_documents();
        assert!((8..=12).contains(&docs.len()), "{} docs", docs.len());
        assert!(docs
            .iter()
            .all(|d| !d.title.is_empty() && !d.text.is_empty()));
    }
}
