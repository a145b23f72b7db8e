//! What can go wrong between a written action and a tool's result, and the Observation that
//! tells the model: the problem and how to fix its next step, in the run's language.

use super::CalcError;
#[cfg(doc)]
use super::{Registry, ToolCall};
use crate::fields::tagged;
use crate::lang::Lang;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

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

pub(super) fn quoted_list(items: &[String]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_json_spacing() {
        let v = serde_json::json!({"a": [1, "x"], "b": {"c": null}});
        assert_eq!(compact_json(&v), r#"{"a": [1, "x"], "b": {"c": null}}"#);
    }
}
