//! A resolved call and the notes on how it was corrected: what the driver runs and the trace
//! keeps, so a learner sees why a messy call still ran.

use super::Builtin;
#[cfg(doc)]
use super::Registry;
use crate::fields::{kind, via_value, Fields};
use serde::de::Error as _;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// A resolved, normalised call, ready to run.
// Read back by hand below (a struct literal, so a new field needs its line there).
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
    /// The tool needs no arguments, and the input was none it reads; it was dropped.
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
            Note::InputIgnored { tool } => write!(f, "input ignored: {tool} needs no arguments"),
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
        // "takes no arguments": as traces wrote it before the clock took `days`.
        let ignored = between("input ignored: ", " needs no arguments")
            .or_else(|| between("input ignored: ", " takes no arguments"));
        if let Some(tool) = ignored {
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
