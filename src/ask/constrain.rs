//! Making the server keep the ReAct format: the GBNF grammar or JSON schema that says, per
//! tool, what a reply may be.
//!
//! Small models given only the prompt break the format most of the time; under a grammar that
//! names each tool's arguments they cannot, and cannot run away on a free-text argument.

use serde_json::{json, Value};

use super::FINAL_ANSWER;
use crate::tools::{calculator, Role, ToolSpec};

/// The tools a constrained reply may call, in the order given, without blank names or
/// repeats, then `final_answer`; without the `avoid`ed action unless that would leave none.
/// `None` stands for `final_answer`.
pub fn actions<'a>(tools: &'a [ToolSpec], avoid: Option<&str>) -> Vec<Option<&'a ToolSpec>> {
    let mut out: Vec<Option<&ToolSpec>> = Vec::new();
    for tool in tools {
        let name = tool.name.as_str();
        let seen = out.iter().flatten().any(|t| t.name == name);
        if !name.is_empty() && name != FINAL_ANSWER && !seen {
            out.push(Some(tool));
        }
    }
    out.push(None);
    if out.len() > 1 {
        out.retain(|a| a.map_or(FINAL_ANSWER, |t| t.name.as_str()) != avoid.unwrap_or("\0"));
    }
    out
}

fn action_name(action: Option<&ToolSpec>) -> &str {
    action.map_or(FINAL_ANSWER, |t| t.name.as_str())
}

/// The schema of one ReAct step as JSON, `{thought, action, action_input}`: one branch per
/// action, each with its own input, so that a final answer is text and never a tool's
/// argument object (one shared `anyOf` of inputs let the 0.5B model answer with a calculator
/// object or the expression it should have sent). Servers generate the properties in the
/// order listed, so `thought` comes first (this needs serde_json's `preserve_order`).
///
/// What the grammar asks of free text, this asks in patterns a JSON-schema converter reads
/// (llama.cpp's and Ollama's, llguidance, vLLM's): no `.` wildcard (the older converter lets it
/// write an unescaped quote), no bounded repetition of single characters (`maxLength` becomes
/// thousands of nested rules there), no quote or backslash in free text or in a literal
/// (`regex_literal`).
pub fn react_schema(
    actions: &[Option<&ToolSpec>],
    thought: Thought,
    answer: Option<&str>,
) -> Value {
    let thought = match thought {
        Thought::Exactly(text) => json!({"type": "string", "const": without_escapes(text)}),
        Thought::StartsWith(prefix) => json!({
            "type": "string",
            "pattern": format!("^{}{TEXT_PATTERN}$", regex_literal(prefix)),
        }),
        Thought::Free => json!({"type": "string", "pattern": format!("^{TEXT_PATTERN}$")}),
        Thought::Omitted => Value::Null,
    };
    let answer_start = match answer.filter(|a| !a.is_empty()) {
        Some(prefix) => format!("{} ", regex_literal(prefix)),
        None => String::new(),
    };
    let mut branches: Vec<Value> = actions
        .iter()
        .map(|action| {
            let input = match action {
                Some(tool) => arguments_schema(tool),
                None => json!({
                    "type": "string",
                    "pattern": format!("^{answer_start}{ANSWER_PATTERN}$"),
                }),
            };
            let mut properties = serde_json::Map::new();
            if !thought.is_null() {
                properties.insert("thought".into(), thought.clone());
            }
            properties.insert(
                "action".into(),
                json!({"type": "string", "const": action_name(*action)}),
            );
            properties.insert("action_input".into(), input);
            let required: Vec<&String> = properties.keys().collect();
            json!({
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        })
        .collect();
    if branches.len() == 1 {
        branches.remove(0)
    } else {
        json!({ "anyOf": branches })
    }
}

// The grammar's `text` (a Thought) and `answer`, as patterns: up to five sentences on one
// line; a Thought without colons; an answer that does not open with an object, a list, a
// placeholder, a quote or white space.
const TEXT_PATTERN: &str = r#"[^"\\\r\n.!?。！？:：]*([.!?。！？][^"\\\r\n.!?。！？:：]*){0,4}"#;
const ANSWER_PATTERN: &str =
    r#"[^{\[<"'“‘「\\ \t\r\n][^"\\\r\n.!?。！？]*([.!?。！？][^"\\\r\n.!?。！？]*){0,4}"#;

/// `text` on one line, its quotes as apostrophes and its backslashes as slashes: JSON escapes
/// them, and llama.cpp's older JSON-schema converter (Ollama's, llama-cpp-python's) writes a
/// constant or a pattern holding them into a grammar it then cannot parse.
fn without_escapes(text: &str) -> String {
    one_line(text).replace('"', "'").replace('\\', "/")
}

/// `text` matched literally by a pattern ([`without_escapes`]). A special character goes in a
/// class of its own (`[.]`): the older converter keeps the backslash of `\\.` in the grammar's
/// literal, which llama.cpp then cannot parse; only `\\[` and `\\]` does it unescape.
fn regex_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in without_escapes(text).chars() {
        match c {
            '.' | '$' | '|' | '?' | '*' | '+' | '(' | ')' | '{' | '}' => {
                out.extend(['[', c, ']']);
            }
            '[' | ']' => out.extend(['\\', c]),
            '^' => out.push_str("[\\x5E]"),
            c => out.push(c),
        }
    }
    out
}

/// The tool's [`ToolSpec::written_params`] as a closed object schema; a built-in tool's text
/// argument carries the pattern of what the tool reads ([`ArgText`]).
fn arguments_schema(tool: &ToolSpec) -> Value {
    let params = tool.written_params();
    let properties: serde_json::Map<String, Value> = params
        .iter()
        .map(|name| {
            let mut schema = property_schema(tool, name);
            if let (Some(text), Some(map)) = (ArgText::of(tool, name), schema.as_object_mut()) {
                map.insert("pattern".into(), json!(text.pattern()));
            }
            (name.clone(), schema)
        })
        .collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": params,
        "additionalProperties": false,
    })
}

/// What a built-in tool's text argument can hold, so that a constrained reply writes only
/// what the tool reads. Free to write any string, SmolLM2-135M filled the calculator's
/// `expression` with `} + 7 + 12 = 12 * 7 = 84. 84 is 12 * 7. …` up to the token limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgText {
    /// The calculator's characters, function names and constants.
    Expression,
    /// Search keywords: up to [`MAX_QUERY_WORDS`] words, no quotes, brackets or line breaks.
    Words,
}

/// Characters of an expression, as a character class body: the same in GBNF and in a
/// regular expression (the `-` last, where it is literal in both).
pub(super) const EXPRESSION_CHARS: &str = "0-9 .,+*/%^()-";
/// A keyword's characters, as a character class: the same in GBNF and in a regular
/// expression.
const WORD_CLASS: &str = r#"[^ "\\\r\n\t{}\[\]<>]"#;
const MAX_QUERY_WORDS: usize = 8;

impl ArgText {
    /// The text a tool's first parameter holds, by the tool's role: an expression to
    /// compute, or keywords to search for.
    fn of(tool: &ToolSpec, param: &str) -> Option<ArgText> {
        let (first, _) = tool.params().into_iter().next()?;
        let is_string = tool
            .parameters
            .pointer(&format!("/properties/{first}/type"))
            == Some(&serde_json::json!("string"));
        if first != param || !is_string {
            return None;
        }
        match tool.role? {
            Role::Computes => Some(ArgText::Expression),
            Role::Searches => Some(ArgText::Words),
            Role::Clock => None,
        }
    }

    /// The pattern of the argument's JSON string value.
    fn pattern(self) -> String {
        match self {
            ArgText::Expression => {
                format!(
                    "^([{EXPRESSION_CHARS}]|{})+$",
                    calculator::names().join("|")
                )
            }
            ArgText::Words => format!(
                "^{WORD_CLASS}+( {WORD_CLASS}+){{0,{}}}$",
                MAX_QUERY_WORDS - 1
            ),
        }
    }

    /// The GBNF rule that writes the argument as a JSON string, quotes included.
    fn gbnf_rule(self) -> String {
        match self {
            ArgText::Expression => {
                let names: Vec<String> =
                    calculator::names().into_iter().map(gbnf_literal).collect();
                format!(
                    "exprstr ::= \"\\\"\" ( [{EXPRESSION_CHARS}] | {} )+ \"\\\"\"",
                    names.join(" | ")
                )
            }
            ArgText::Words => {
                let mut words = "word".to_string();
                for _ in 1..MAX_QUERY_WORDS {
                    words = format!("word (\" \" {words})?");
                }
                format!("wordstr ::= \"\\\"\" {words} \"\\\"\"\nword ::= {WORD_CLASS}+")
            }
        }
    }

    fn gbnf_name(self) -> &'static str {
        match self {
            ArgText::Expression => "exprstr",
            ArgText::Words => "wordstr",
        }
    }
}

/// A GBNF grammar for llama.cpp forcing
/// `Thought: <line without colons>\nAction: <tool>\nAction Input: <that tool's arguments as
/// JSON>` (the Action may also follow the Thought on its line), or
/// `Action: final_answer` with the answer as plain text on one line.
///
/// Free text has no length bound: bounded repetitions (`{1,150}`) make llama.cpp very slow.
/// After the input the only way on is the end of the reply, so the model stops by itself.
/// Rule names avoid `_`, which older llama.cpp rejects; an invalid grammar crashes the server,
/// hence the careful quoting of tool and parameter names.
///
/// `answer` holds words a final answer must begin with (see
/// [`super::ModelRequest::answer_prefix`]).
pub fn react_grammar(
    actions: &[Option<&ToolSpec>],
    thought: Thought,
    answer: Option<&str>,
) -> String {
    let mut rules = Vec::new();
    let mut choices = Vec::new();
    let mut texts: Vec<ArgText> = Vec::new();
    for (i, action) in actions.iter().enumerate() {
        if let Some(tool) = action {
            for name in tool.written_params() {
                if let Some(text) = ArgText::of(tool, &name).filter(|t| !texts.contains(t)) {
                    texts.push(text);
                }
            }
        }
        let head = gbnf_literal(&format!("{}\nAction Input: ", action_name(*action)));
        let body = match (action, answer.filter(|a| !a.is_empty())) {
            (None, Some(prefix)) => format!("{} answer", gbnf_literal(&format!("{prefix} "))),
            (None, None) => "answer".to_string(),
            (Some(tool), _) => arguments_gbnf(tool),
        };
        rules.push(format!("act{i} ::= {head} {body}"));
        choices.push(format!("act{i}"));
    }
    let opening = match thought {
        Thought::StartsWith(prefix) if !prefix.is_empty() => {
            format!(
                "{} text (\"\\n\" | \" \")? ",
                gbnf_literal(&format!("Thought: {prefix}"))
            )
        }
        Thought::Exactly(thought) => format!(
            "{} (\"\\n\" | \" \")? ",
            gbnf_literal(&format!("Thought: {}", one_line(thought)))
        ),
        Thought::Omitted => String::new(),
        _ => "\"Thought: \" text (\"\\n\" | \" \")? ".to_string(),
    };
    let mut grammar = format!(
        "root ::= {opening}\"Action: \" ( {} )\n",
        choices.join(" | ")
    );
    for rule in rules
        .into_iter()
        .chain(texts.into_iter().map(ArgText::gbnf_rule))
    {
        grammar.push_str(&rule);
        grammar.push('\n');
    }
    // Text ends after a few sentences: small models otherwise repeat a sentence until the
    // token limit and leave a reply with no action. A Thought has no colon, so the 0.5B
    // model's `… Action: search_docs, query: …` inside it is the Action itself (it had then
    // been made to write a second Action line, and took another tool). An answer is text,
    // not an argument object, a list, a placeholder or a quotation: `{`, `[`, `<`, a quote and
    // white space cannot open it: the 0.5B model answered `"Thought: The Observation shows …`
    // and `"FAISS vector search (…): FAISS …`, quoting its own reply or the Observation. (A
    // colon allowed only before a digit made it write `(…):0` instead.)
    grammar.push_str(concat!(
        "text ::= seg (end seg (end seg (end seg (end seg)?)?)?)?\n",
        "seg ::= [^\\r\\n.!?。！？:：]*\n",
        "end ::= [.!?。！？]\n",
        "answer ::= [^{\\[<\"'“‘「\\r\\n \\t] line\n",
        "line ::= part (end part (end part (end part (end part)?)?)?)?\n",
        "part ::= [^\\r\\n.!?。！？]*\n",
        "str ::= \"\\\"\" chr chr* \"\\\"\"\n",
        "chr ::= [^\"\\\\\\r\\n] | \"\\\\\" [\"\\\\/nt]\n",
        "num ::= \"-\"? dig (\".\" dig)?\n",
        "dig ::= [0-9] ([0-9] ([0-9] ([0-9] ([0-9] [0-9]?)?)?)?)?\n",
        "bool ::= \"true\" | \"false\"\n",
        "value ::= str | num | bool | \"null\" | \"[\" (value (\", \" value)*)? \"]\" | \"{\" (str \": \" value (\", \" str \": \" value)*)? \"}\"\n",
    ));
    grammar
}

/// A plan under the grammar: `Plan:` and one to five numbered steps, each a line of a few
/// sentences (the Thought's `text`, without colons).
pub fn plan_grammar() -> String {
    let mut steps = String::new();
    for n in (2..=crate::strategy::MAX_PLAN_STEPS).rev() {
        steps = format!("(\"\\n{n}. \" text {steps})?");
    }
    format!(
        "root ::= \"Plan:\\n1. \" text {steps}\n\
         text ::= seg (end seg (end seg)?)?\n\
         seg ::= [^\\r\\n.!?。！？:：]*\n\
         end ::= [.!?。！？]\n"
    )
}

/// A summary under the grammar: `Summary: ` and a few sentences on one line.
pub fn summary_grammar() -> String {
    "root ::= \"Summary: \" text\n\
     text ::= seg (end seg (end seg)?)?\n\
     seg ::= [^\\r\\n.!?。！？:：]*\n\
     end ::= [.!?。！？]\n"
        .to_string()
}

/// A summary under a JSON schema: `{"summary": "…"}`.
pub fn summary_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"summary": {"type": "string", "pattern": format!("^{TEXT_PATTERN}$")}},
        "required": ["summary"],
        "additionalProperties": false,
    })
}

/// A plan under a JSON schema: `{"plan": [one to five steps]}`.
pub fn plan_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "plan": {
                "type": "array",
                "items": {"type": "string", "pattern": format!("^{TEXT_PATTERN}$")},
                "minItems": 1,
                "maxItems": crate::strategy::MAX_PLAN_STEPS,
            },
        },
        "required": ["plan"],
        "additionalProperties": false,
    })
}

/// What the grammar lets the Thought be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thought<'a> {
    Free,
    StartsWith(&'a str),
    Exactly(&'a str),
    /// No Thought at all: the reply opens with its Action (Act-only).
    Omitted,
}

/// Line breaks would end the Thought early: they become spaces.
fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn property_schema(tool: &ToolSpec, name: &str) -> Value {
    tool.parameters
        .pointer(&format!(
            "/properties/{}",
            name.replace('~', "~0").replace('/', "~1")
        ))
        .cloned()
        .unwrap_or_else(|| json!({}))
}

/// `{"a": <a's type>, "b": …}` on one line, for the tool's [`ToolSpec::written_params`].
fn arguments_gbnf(tool: &ToolSpec) -> String {
    let params = tool.written_params();
    if params.is_empty() {
        return gbnf_literal("{}");
    }
    let mut parts = Vec::new();
    for (i, name) in params.iter().enumerate() {
        let key = serde_json::to_string(name).unwrap_or_default();
        let lead = if i == 0 { "{" } else { ", " };
        parts.push(gbnf_literal(&format!("{lead}{key}: ")));
        parts.push(match ArgText::of(tool, name) {
            Some(text) => text.gbnf_name().to_string(),
            None => value_gbnf(&property_schema(tool, name)),
        });
    }
    parts.push(gbnf_literal("}"));
    parts.join(" ")
}

/// The grammar of one JSON value of this schema: its `enum`, else its `type`.
fn value_gbnf(schema: &Value) -> String {
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        let literals: Vec<String> = options
            .iter()
            .map(|v| gbnf_literal(&crate::fields::json_text(v)))
            .collect();
        if !literals.is_empty() {
            return format!("( {} )", literals.join(" | "));
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => "str",
        Some("number" | "integer") => "num",
        Some("boolean") => "bool",
        _ => "value",
    }
    .to_string()
}

/// A GBNF string literal: quote and backslash escaped, control characters as `\xHH`/`\uHHHH`
/// (a raw newline inside a literal is a syntax error).
fn gbnf_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() && u32::from(c) <= 0xFF => {
                out.push_str(&format!("\\x{:02X}", u32::from(c)));
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
