//! Tools: specs, the registry that resolves what a model wrote into a call, and the built-in
//! tools. The module is pure: external tools (registered by the host with only a spec) are
//! resolved and normalised here but run by the driver, and the clock comes in a [`HostContext`].
//!
//! Dispatching is tolerant because small models misspell names and keys; every correction is
//! recorded in [`ToolCall::notes`] so the trace shows it, and every failure becomes an
//! observation that tells the model how to fix its next step.

mod args;
pub mod calculator;
pub mod current_time;
pub mod search_docs;

pub use calculator::{evaluate, evaluate_list, format_number, CalcError};

use crate::fields::tagged;
use crate::fields::{kind, via_value, Fields};
use crate::lang::Lang;
use serde::de::Error as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// A tool as the model sees it. `parameters` is a JSON-schema object
/// (`{"type": "object", "properties": {...}, "required": [...]}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

impl ToolSpec {
    /// An example Action Input built from the schema, e.g. `{"expression": "2 * (3 + 4)"}`: the
    /// schema's first `examples` entry or its `example` when present; otherwise the required
    /// parameters (all of them when none is required), each from its own `examples`, `example`,
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
        let params = self.params();
        let any_required = params.iter().any(|(_, required)| *required);
        let example = params
            .into_iter()
            .filter(|(_, required)| *required || !any_required)
            .map(|(name, _)| {
                let value = args::example_value(&name, self.property(&name));
                (name, value)
            })
            .collect();
        Value::Object(example)
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

    /// The schema of one parameter, if the spec declares it.
    fn property(&self, name: &str) -> Option<&Value> {
        self.parameters.get("properties")?.get(name)
    }
}

/// The tools implemented in Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Builtin {
    Calculator,
    SearchDocs,
    CurrentTime,
}

impl Builtin {
    pub const ALL: [Builtin; 3] = [
        Builtin::Calculator,
        Builtin::SearchDocs,
        Builtin::CurrentTime,
    ];

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

/// A document `search_docs` can find.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Document {
    pub title: String,
    pub text: String,
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

/// A resolved, normalised call, ready to run.
// Read back by hand in `crate::deser`: a new field goes there too.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// The tool's name in the registry (after any correction).
    pub tool: String,
    /// The arguments, always a JSON object matching the tool's parameters.
    pub args: Value,
    /// `Some` for built-ins (run with [`Registry::run_builtin`]); `None` for external tools,
    /// which the driver runs.
    pub builtin: Option<Builtin>,
    /// Corrections applied to what the model wrote.
    pub notes: Vec<Note>,
}

/// A correction [`Registry::dispatch`] made to a call, so a learner sees why a messy one
/// still ran. A trace keeps it as its English sentence (the format predates the type), which
/// [`Note::read`] turns back into the note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A misspelt or differently written tool name, matched to a tool.
    ToolRenamed {
        written: String,
        tool: String,
    },
    /// An argument key matched to a parameter.
    KeyRenamed {
        key: String,
        param: String,
    },
    ExtraKeyIgnored {
        key: String,
    },
    /// The tool takes no arguments; the input was dropped.
    InputIgnored {
        tool: String,
    },
    /// A sentence from a trace that is none of the above.
    Other(String),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::ToolRenamed { written, tool } => {
                write!(f, "tool name '{written}' read as '{tool}'")
            }
            Note::KeyRenamed { key, param } => write!(f, "key '{key}' read as '{param}'"),
            Note::ExtraKeyIgnored { key } => write!(f, "extra key '{key}' ignored"),
            Note::InputIgnored { tool } => write!(f, "input ignored: {tool} takes no arguments"),
            Note::Other(text) => f.write_str(text),
        }
    }
}

impl Note {
    /// The note a sentence of [`Note`]'s `Display` stands for; writing it again gives the same
    /// sentence, whatever the names in it.
    pub fn read(sentence: &str) -> Note {
        let quoted_pair = |prefix: &str| {
            let rest = sentence.strip_prefix(prefix)?.strip_suffix('\'')?;
            let (a, b) = rest.split_once("' read as '")?;
            Some((a.to_string(), b.to_string()))
        };
        if let Some((written, tool)) = quoted_pair("tool name '") {
            return Note::ToolRenamed { written, tool };
        }
        if let Some((key, param)) = quoted_pair("key '") {
            return Note::KeyRenamed { key, param };
        }
        let between = |prefix: &str, suffix: &str| {
            Some(
                sentence
                    .strip_prefix(prefix)?
                    .strip_suffix(suffix)?
                    .to_string(),
            )
        };
        if let Some(key) = between("extra key '", "' ignored") {
            return Note::ExtraKeyIgnored { key };
        }
        if let Some(tool) = between("input ignored: ", " takes no arguments") {
            return Note::InputIgnored { tool };
        }
        Note::Other(sentence.to_string())
    }
}

impl Serialize for Note {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

tagged! {
    /// Why a parsed action could not become a [`ToolCall`].
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum DispatchError in "type" {
        UnknownTool {
            name: String,
            available: Vec<String>,
            nearest: Option<String>,
        } = "unknown_tool",
        MissingArgument {
            tool: String,
            missing: Vec<String>,
            expected: Value,
        } = "missing_argument",
        BadArguments {
            tool: String,
            message: String,
            expected: Value,
        } = "bad_arguments",
    }
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DispatchError::UnknownTool { name, .. } => write!(f, "there is no tool named '{name}'"),
            DispatchError::MissingArgument { tool, missing, .. } => {
                write!(f, "{tool} needs the argument {}", quoted_list(missing))
            }
            DispatchError::BadArguments { tool, message, .. } => write!(f, "{tool}: {message}"),
        }
    }
}

impl std::error::Error for DispatchError {}

impl DispatchError {
    /// What the model is told: the problem and the fix, in the run's language.
    pub fn observation(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.observation_en(),
            Lang::Zh => self.observation_zh(),
        }
    }

    fn observation_zh(&self) -> String {
        match self {
            DispatchError::UnknownTool {
                name,
                available,
                nearest,
            } => {
                let mut out = format!("错误：没有名为 '{name}' 的工具。");
                if available.is_empty() {
                    out.push_str("没有可用的工具；请直接作答。");
                    return out;
                }
                out.push_str(&format!("可用的工具：{}。", available.join(", ")));
                if let Some(nearest) = nearest {
                    out.push_str(&format!("你是指 '{nearest}' 吗？"));
                }
                out.push_str("请按列出的样子准确写工具名。");
                out
            }
            DispatchError::MissingArgument {
                tool,
                missing,
                expected,
            } => format!(
                "错误：{tool} 需要参数 {}。Action Input 必须是这样的 JSON 对象：{}",
                quoted_list(missing),
                compact_json(expected)
            ),
            DispatchError::BadArguments {
                tool,
                message,
                expected,
            } => format!(
                "错误：{tool}：{message}。Action Input 必须是这样的 JSON 对象：{}",
                compact_json(expected)
            ),
        }
    }

    fn observation_en(&self) -> String {
        match self {
            DispatchError::UnknownTool {
                available, nearest, ..
            } => {
                let mut out = format!("Error: {self}. ");
                if available.is_empty() {
                    out.push_str("No tools are available; answer directly.");
                    return out;
                }
                out.push_str(&format!("Available tools: {}.", available.join(", ")));
                if let Some(nearest) = nearest {
                    out.push_str(&format!(" Did you mean '{nearest}'?"));
                }
                out.push_str(" Write the tool name exactly as listed.");
                out
            }
            DispatchError::MissingArgument { expected, .. }
            | DispatchError::BadArguments { expected, .. } => format!(
                "Error: {self}. Action Input must be a JSON object like: {}",
                compact_json(expected)
            ),
        }
    }
}

tagged! {
    /// Why a tool (built-in or external) failed.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum ToolError in "type" {
        Calculator(CalcError) = "calculator",
        NoDocuments = "no_documents",
        EmptyQuery = "empty_query",
        NoMatch {
            query: String,
            /// Titles of (some of) the documents, to suggest other keywords.
            topics: Vec<String>,
        } = "no_match",
        InvalidClock {
            // JSON has no NaN: serde_json writes it as null, read back as NaN.
            now_unix_ms: f64 => crate::fields::nan_if_null,
            utc_offset_minutes: i32,
        } = "invalid_clock",
        /// The call's arguments are not what the tool needs (only possible for a [`ToolCall`] that
        /// did not come from [`Registry::dispatch`]).
        InvalidInput {
            tool: String,
            message: String,
        } = "invalid_input",
        /// `run_builtin` was given a call to an external tool.
        NotBuiltin {
            tool: String,
        } = "not_builtin",
        /// An external tool failed; the driver reports it with this variant.
        External {
            message: String,
        } = "external",
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::Calculator(e) => e.fmt(f),
            ToolError::NoDocuments => write!(f, "there are no documents to search"),
            ToolError::EmptyQuery => write!(f, "the search query has no keywords"),
            ToolError::NoMatch { query, .. } => write!(f, "no document matches '{query}'"),
            ToolError::InvalidClock {
                now_unix_ms,
                utc_offset_minutes,
            } => write!(
                f,
                "the host gave an invalid clock (now_unix_ms = {now_unix_ms}, \
                 utc_offset_minutes = {utc_offset_minutes})"
            ),
            ToolError::InvalidInput { tool, message } => write!(f, "{tool}: {message}"),
            ToolError::NotBuiltin { tool } => {
                write!(f, "'{tool}' is not a built-in tool; the host must run it")
            }
            ToolError::External { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for ToolError {}

impl ToolError {
    /// The tool said its input is not the kind it handles: calling it again cannot help.
    pub fn wrong_tool(&self) -> bool {
        matches!(self, ToolError::Calculator(e) if e.is_words())
    }

    /// What the model is told, in the run's language, e.g. "Error: division by zero. Hint:
    /// the divisor is 0; …".
    pub fn observation(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.observation_en(),
            Lang::Zh => self.observation_zh(),
        }
    }

    fn observation_zh(&self) -> String {
        let (message, hint) = match self {
            ToolError::Calculator(e) => {
                let (message, hint) = e.zh();
                (message, hint.to_string())
            }
            ToolError::NoDocuments => (
                "没有可搜索的文档".into(),
                "没有加载文档；请凭已知的知识作答并说明这一点".into(),
            ),
            ToolError::EmptyQuery => (
                "搜索词里没有关键词".into(),
                "给出几个实义词，例如 {\"query\": \"上下文窗口\"}".into(),
            ),
            ToolError::NoMatch { query, topics } => (
                format!("没有文档与 '{query}' 匹配"),
                if topics.is_empty() {
                    "换用其他或更少的关键词".into()
                } else {
                    format!(
                        "换用其他或更少的关键词，或换另一种语言（中文/English）；文档包括：{}；\
                         如果都与问题无关，就根据你自己的知识回答",
                        topics.join("; ")
                    )
                },
            ),
            ToolError::InvalidClock { .. } => (
                self.to_string(),
                "无法得知时间；请告诉用户你无法知道".into(),
            ),
            ToolError::InvalidInput { .. } | ToolError::External { .. } => (
                self.to_string(),
                "对照工具的参数检查 Action Input，然后重试".into(),
            ),
            ToolError::NotBuiltin { .. } => (
                self.to_string(),
                "这是驱动程序的错误，不是你这一步的问题".into(),
            ),
        };
        let message = message.trim_end().trim_end_matches(['.', '。']);
        format!("错误：{message}。提示：{hint}")
    }

    fn observation_en(&self) -> String {
        let hint = match self {
            ToolError::Calculator(e) => e.hint().to_string(),
            ToolError::NoDocuments => {
                "no documents are loaded; answer from what you know and say so".into()
            }
            ToolError::EmptyQuery => {
                "give a few content words, e.g. {\"query\": \"context window\"}".into()
            }
            ToolError::NoMatch { topics, .. } if !topics.is_empty() => format!(
                "try other or fewer keywords, or the other language (English/中文); \
                 the documents include: {}; if none is about the question, answer it from \
                 what you know",
                topics.join("; ")
            ),
            ToolError::NoMatch { .. } => "try other or fewer keywords".into(),
            ToolError::InvalidClock { .. } => {
                "the time is not available; tell the user you cannot know it".into()
            }
            ToolError::InvalidInput { .. } | ToolError::External { .. } => {
                "check the Action Input against the tool's parameters and try again".into()
            }
            ToolError::NotBuiltin { .. } => "this is a bug in the driver, not in your step".into(),
        };
        // External messages may end in a full stop of their own.
        let message = self.to_string();
        let message = message.trim_end().trim_end_matches('.');
        format!("Error: {message}. Hint: {hint}")
    }
}

/// Why a host's tool could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RegistryError {
    InvalidName { name: String },
    ReservedName { name: String },
    BuiltinName { name: String },
    NameClash { name: String, existing: String },
    InvalidSchema { name: String, message: String },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::InvalidName { name } => write!(
                f,
                "invalid tool name '{name}': use 1 to {MAX_NAME_LEN} letters, digits or \
                 underscores, not starting with a digit"
            ),
            RegistryError::ReservedName { name } => write!(
                f,
                "'{name}' is reserved: the model uses it to give its final answer"
            ),
            RegistryError::BuiltinName { name } => {
                write!(f, "'{name}' is the name of a built-in tool; choose another")
            }
            RegistryError::NameClash { name, existing } => write!(
                f,
                "'{name}' is too similar to the tool '{existing}' (names are matched ignoring \
                 case and underscores); choose another"
            ),
            RegistryError::InvalidSchema { name, message } => {
                write!(
                    f,
                    "the parameters of '{name}' are not a usable schema: {message}"
                )
            }
        }
    }
}

impl std::error::Error for RegistryError {}

const MAX_NAME_LEN: usize = 64;
/// Tool names as written longer than this many characters are not matched at all. Twice the
/// longest name a host may register leaves room for the separators and prefixes a model adds
/// ("Get Current Time"); a longer one is not a misspelt name but runaway output.
pub(super) const MAX_WRITTEN_NAME_LEN: usize = 2 * MAX_NAME_LEN;
/// Names the ReAct protocol uses for the final answer.
const RESERVED_NAMES: &[&str] = &["final_answer", "finish"];

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    spec: ToolSpec,
    builtin: Option<Builtin>,
    enabled: bool,
}

/// The tools the agent may call, in registration order, and the documents `search_docs` reads.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Registry {
    entries: Vec<Entry>,
    documents: Vec<Document>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// The three built-ins, enabled, searching `documents`.
    pub fn with_builtins(documents: Vec<Document>) -> Self {
        let entries = Builtin::ALL
            .iter()
            .map(|&b| Entry {
                spec: b.spec(),
                builtin: Some(b),
                enabled: true,
            })
            .collect();
        Registry { entries, documents }
    }

    /// Adds a tool the host runs, or replaces the external tool of the same name.
    pub fn register_external(&mut self, spec: ToolSpec) -> Result<(), RegistryError> {
        let name = spec.name.clone();
        let mut chars = name.chars();
        let valid = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name.len() <= MAX_NAME_LEN;
        if !valid {
            return Err(RegistryError::InvalidName { name });
        }
        if RESERVED_NAMES.iter().any(|r| fold(r) == fold(&name)) {
            return Err(RegistryError::ReservedName { name });
        }
        args::check_schema(&spec.parameters).map_err(|message| RegistryError::InvalidSchema {
            name: name.clone(),
            message,
        })?;
        if let Some(i) = self.entries.iter().position(|e| e.spec.name == name) {
            if self.entries[i].builtin.is_some() {
                return Err(RegistryError::BuiltinName { name });
            }
            self.entries[i].spec = spec;
            return Ok(());
        }
        // Dispatch matches names loosely; two names that fold alike could not be told apart.
        if let Some(e) = self
            .entries
            .iter()
            .find(|e| fold(&e.spec.name) == fold(&name))
        {
            return Err(match e.builtin {
                Some(_) => RegistryError::BuiltinName { name },
                None => RegistryError::NameClash {
                    name,
                    existing: e.spec.name.clone(),
                },
            });
        }
        self.entries.push(Entry {
            spec,
            builtin: None,
            enabled: true,
        });
        Ok(())
    }

    /// Removes the tool named exactly `name`; false if there is none.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.spec.name != name);
        self.entries.len() != before
    }

    /// Enables or disables the tool named exactly `name`; false if there is none. Disabled
    /// tools are left out of [`Registry::specs`] and cannot be dispatched to.
    pub fn set_enabled(&mut self, name: &str, enabled: bool) -> bool {
        match self.entries.iter_mut().find(|e| e.spec.name == name) {
            Some(e) => {
                e.enabled = enabled;
                true
            }
            None => false,
        }
    }

    pub fn set_documents(&mut self, docs: Vec<Document>) {
        self.documents = docs;
    }

    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// The enabled tools, in registration order.
    pub fn specs(&self) -> Vec<&ToolSpec> {
        self.enabled().map(|e| &e.spec).collect()
    }

    /// The one tool whose name and description share the most words with the question
    /// ("year" with current_time's "… the month and the year", 文档 with search_docs'
    /// 参考文档), or `None` when no tool shares a word or two tie. The 0.5B model otherwise
    /// took the calculator, the first listed, for dates and documents.
    pub fn suggest(&self, question: &str, lang: Lang) -> Option<&str> {
        let asked = words(question);
        let mut scores: Vec<(usize, &str)> = self
            .specs()
            .into_iter()
            .map(|t| {
                let about = words(&format!("{} {}", t.name, description(t, lang)));
                (
                    asked.iter().filter(|w| about.contains(w)).count(),
                    t.name.as_str(),
                )
            })
            .collect();
        scores.sort_by_key(|s| std::cmp::Reverse(s.0));
        match scores[..] {
            [(best, name), (next, _), ..] if best > next => Some(name),
            [(best, name)] if best > 0 => Some(name),
            _ => None,
        }
    }

    fn enabled(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.enabled)
    }

    /// Resolves the tool name as the model wrote it and normalises its input.
    ///
    /// Names are tried exactly, then ignoring case and separators (`Search Docs`), then by a
    /// small edit distance (at most 2, and under a third of the name: `Calculater`), then as a
    /// unique partial name (`calc`, `get_current_time`). Every correction is noted in the call.
    /// A name of more than [`MAX_WRITTEN_NAME_LEN`] characters is not matched at all, and the
    /// error echoes only its beginning.
    ///
    /// The input becomes a JSON object for the tool's schema: a string holding a JSON object
    /// is parsed; one-key wrappers (`{"input": {...}}`, `{"args": ...}`) are removed; a bare
    /// value fills the only (or only required) parameter; keys are matched ignoring case, by
    /// alias (`expr` → `expression`, `q` → `query`), by unique prefix or by close spelling;
    /// other keys are dropped with a note unless the schema allows `additionalProperties`;
    /// values are converted to the declared type where the intent is clear (`"3"` → 3).
    pub fn dispatch(
        &self,
        tool_as_written: &str,
        input: &Value,
    ) -> Result<ToolCall, DispatchError> {
        let written = tool_as_written
            .trim()
            .trim_matches(|c: char| matches!(c, '"' | '\'' | '`'))
            .trim();
        // A name far longer than any tool's is unknown as it stands: fuzzy matching it would
        // cost seconds (edit distances over a megabyte), and echoing it would flood the prompt.
        let overlong = written.chars().nth(MAX_WRITTEN_NAME_LEN).is_some();
        let resolved = if overlong {
            None
        } else {
            self.resolve(written)
        };
        let entry = resolved.ok_or_else(|| {
            let names: Vec<&str> = self.enabled().map(|e| e.spec.name.as_str()).collect();
            let nearest = if overlong {
                None
            } else {
                nearest(written, &names)
            };
            DispatchError::UnknownTool {
                name: cut_name(written),
                available: names.iter().map(|n| n.to_string()).collect(),
                nearest: nearest.map(str::to_string),
            }
        })?;
        let mut notes = Vec::new();
        if entry.spec.name != written {
            notes.push(Note::ToolRenamed {
                written: written.to_string(),
                tool: entry.spec.name.clone(),
            });
        }
        let args = args::normalize(&entry.spec, input, &mut notes)?;
        Ok(ToolCall {
            tool: entry.spec.name.clone(),
            args,
            builtin: entry.builtin,
            notes,
        })
    }

    fn resolve(&self, written: &str) -> Option<&Entry> {
        let folded = fold(written);
        let names: Vec<&str> = self.enabled().map(|e| e.spec.name.as_str()).collect();
        let name = unique(&names, |n| n == written)
            .or_else(|| unique(&names, |n| fold(n) == folded))
            .or_else(|| close_match(written, &names))
            .or_else(|| unique(&names, |n| partial_match(&folded, &fold(n))))?;
        self.enabled().find(|e| e.spec.name == name)
    }

    /// Runs a built-in call from [`Registry::dispatch`]; returns the observation text, in
    /// the run's language where a tool writes words (the clock).
    pub fn run_builtin(
        &self,
        call: &ToolCall,
        host: &HostContext,
        lang: Lang,
    ) -> Result<String, ToolError> {
        let invalid = |message: &str| ToolError::InvalidInput {
            tool: call.tool.clone(),
            message: message.into(),
        };
        match call.builtin {
            None => Err(ToolError::NotBuiltin {
                tool: call.tool.clone(),
            }),
            Some(Builtin::Calculator) => {
                let expr = call.args.get("expression").and_then(Value::as_str);
                let expr = expr.ok_or_else(|| invalid("'expression' must be a string"))?;
                let values = evaluate_list(expr).map_err(ToolError::Calculator)?;
                let shown: Vec<String> = values.into_iter().map(format_number).collect();
                Ok(shown.join(", "))
            }
            Some(Builtin::SearchDocs) => {
                let query = call.args.get("query").and_then(Value::as_str);
                let query = query.ok_or_else(|| invalid("'query' must be a string"))?;
                let top_k = match call.args.get("top_k") {
                    None | Some(Value::Null) => search_docs::DEFAULT_TOP_K,
                    // The cast saturates; `search` clamps to its range.
                    Some(k) => k
                        .as_f64()
                        .ok_or_else(|| invalid("'top_k' must be a number"))?
                        as usize,
                };
                search_docs::search(&self.documents, query, top_k)
            }
            Some(Builtin::CurrentTime) => current_time::format_time(host, lang),
        }
    }
}

/// `written` as an error echoes it: whole, or its first [`MAX_WRITTEN_NAME_LEN`] characters
/// and an ellipsis.
fn cut_name(written: &str) -> String {
    match written.char_indices().nth(MAX_WRITTEN_NAME_LEN) {
        Some((end, _)) => format!("{}…", &written[..end]),
        None => written.to_string(),
    }
}

/// Lowercase letters and digits only: "Search-Docs", "search docs" and "search_docs" fold alike.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The one name in `names` within a small edit distance of `written` (compared folded): at most
/// 2 edits and fewer than a third of the name's length, so "calculater" finds "calculator" but
/// "add" never becomes "odd". `None` when no name or several names are equally close.
fn close_match<'a>(written: &str, names: &[&'a str]) -> Option<&'a str> {
    // Longer than any name it could be a misspelling of: not even worth folding.
    if written.chars().nth(MAX_WRITTEN_NAME_LEN).is_some() {
        return None;
    }
    let folded = fold(written);
    let len = folded.chars().count();
    let mut best: Option<(usize, &str)> = None;
    let mut tie = false;
    for &name in names {
        let target = fold(name);
        // The distance is at least the difference in length: skip the O(n·m) table when that
        // alone is too far (an argument key a megabyte long, say).
        if len.abs_diff(target.chars().count()) > 2 {
            continue;
        }
        let d = edit_distance(&folded, &target);
        if d > 2 || 3 * d >= target.chars().count() {
            continue;
        }
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tie = true,
            _ => {
                best = Some((d, name));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, name)| name)
}

/// The only name that satisfies `rule`; `None` when none or several do, so that an ambiguous
/// rule never guesses and the caller falls through to its next rule.
fn unique<'a>(names: &[&'a str], rule: impl Fn(&str) -> bool) -> Option<&'a str> {
    let mut hits = names.iter().filter(|n| rule(n));
    match (hits.next(), hits.next()) {
        (Some(&name), None) => Some(name),
        _ => None,
    }
}

/// `written` is a prefix of `name` ("calc" → "calculator"), or contains it
/// ("getcurrenttime" → "currenttime"); both folded, and long enough not to be a coincidence.
fn partial_match(written: &str, name: &str) -> bool {
    (written.len() >= 3 && name.starts_with(written)) || (name.len() >= 4 && written.contains(name))
}

/// The closest name by edit distance, for "did you mean" (the first registered wins ties);
/// `None` when even the closest differs in more than half its letters, since a far-fetched
/// suggestion would mislead the model more than none.
/// The words of a text that can tell tools apart: Latin words of four letters or more (no
/// plural `s`, no `'s`) that are not function words, and each pair of adjacent CJK characters.
fn words(text: &str) -> Vec<String> {
    const COMMON: [&str; 24] = [
        "what", "which", "when", "with", "from", "that", "this", "have", "does", "many", "much",
        "using", "give", "tell", "about", "into", "your", "then", "than", "will", "there", "they",
        "some", "other",
    ];
    let mut out: Vec<String> = Vec::new();
    let lower = text.to_lowercase();
    for word in lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '\'')) {
        let word = word.trim_end_matches("'s").trim_matches('\'');
        let word = match word.strip_suffix('s') {
            Some(stem) if stem.len() >= 4 && !stem.ends_with('s') => stem,
            _ => word,
        };
        if word.len() >= 4 && !COMMON.contains(&word) && !out.iter().any(|w| w == word) {
            out.push(word.to_string());
        }
    }
    let chars: Vec<char> = text.chars().collect();
    for pair in chars.windows(2) {
        if pair.iter().all(|&c| crate::lang::is_cjk_ideograph(c)) {
            let bigram: String = pair.iter().collect();
            if !out.contains(&bigram) {
                out.push(bigram);
            }
        }
    }
    out
}

fn nearest<'a>(written: &str, names: &[&'a str]) -> Option<&'a str> {
    let folded = fold(written);
    names
        .iter()
        .map(|&name| {
            let target = fold(name);
            let d = edit_distance(&folded, &target);
            let longest = folded.chars().count().max(target.chars().count());
            (d, 2 * d <= longest, name)
        })
        .min_by_key(|&(d, _, _)| d)
        .filter(|&(_, similar, _)| similar)
        .map(|(_, _, name)| name)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
/// neighbouring characters each cost 1 (models often swap letters: "calcualtor").
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rolling rows: two back (for swaps), previous, current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// JSON with a space after `:` and `,`, the way people write it in prompts.
fn compact_json(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), compact_json(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(compact_json).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// The built-in tools are described in the prompt's language; other tools as registered.
pub(crate) fn description(tool: &ToolSpec, lang: Lang) -> &str {
    match (lang, Builtin::of(tool)) {
        (Lang::Zh, Some(Builtin::Calculator)) => {
            "计算算术表达式：+ - * / % ^、括号、sqrt、abs、round、min、max、log、pi、e。"
        }
        (Lang::Zh, Some(Builtin::SearchDocs)) => "按关键词（中文或英文）搜索参考文档。",
        (Lang::Zh, Some(Builtin::CurrentTime)) => "返回今天的日期、时间、星期、月份和年份。",
        _ => tool.description.trim(),
    }
}

via_value! {
    ToolCall => tool_call,
    Note => note,
}

/// A note is kept as its sentence.
fn note(value: Value) -> Result<Note, serde_json::Error> {
    match value {
        Value::String(sentence) => Ok(Note::read(&sentence)),
        other => Err(serde_json::Error::custom(format!(
            "invalid type: {}, expected a string",
            kind(&other)
        ))),
    }
}

fn tool_call(value: Value) -> Result<ToolCall, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(ToolCall {
        tool: f.get("tool")?,
        args: f.get("args")?,
        builtin: f.opt("builtin")?,
        notes: f.get("notes")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        for (a, b, d) in [
            ("", "", 0),
            ("abc", "", 3),
            ("calculater", "calculator", 1),
            ("calcualtor", "calculator", 1),
            ("kitten", "sitting", 3),
            ("检索", "检索增强", 2),
        ] {
            assert_eq!(edit_distance(a, b), d, "{a} / {b}");
        }
    }

    #[test]
    fn close_matches() {
        let names = ["calculator", "search_docs", "add", "odd"];
        assert_eq!(close_match("Calculater", &names), Some("calculator"));
        assert_eq!(close_match("serch_doc", &names), Some("search_docs"));
        assert_eq!(
            close_match("adx", &names),
            None,
            "short names need an exact match"
        );
        assert_eq!(close_match("weather", &names), None);
    }

    #[test]
    fn default_docs_parse() {
        let docs = default_documents();
        assert!((8..=12).contains(&docs.len()), "{} docs", docs.len());
        assert!(docs
            .iter()
            .all(|d| !d.title.is_empty() && !d.text.is_empty()));
    }

    #[test]
    fn compact_json_spacing() {
        let v = serde_json::json!({"a": [1, "x"], "b": {"c": null}});
        assert_eq!(compact_json(&v), r#"{"a": [1, "x"], "b": {"c": null}}"#);
    }
}
