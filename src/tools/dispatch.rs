//! Dispatch: a tool name and input as the model wrote them, resolved to a [`ToolCall`] (or a
//! [`DispatchError`] that says how to fix it), and a built-in call run to its observation.

use super::names::{close_match, fold, nearest, partial_match, unique};
use super::registry::{Entry, MAX_WRITTEN_NAME_LEN};
use super::{
    args, current_time, evaluate_list, format_number, search_docs, Builtin, DispatchError,
    HostContext, Note, Registry, ToolCall, ToolError,
};
use crate::lang::Lang;
use serde_json::Value;

impl Registry {
    /// Resolves the tool name as the model wrote it and normalises its input.
    ///
    /// Names are tried exactly, then ignoring case and separators (`Search Docs`), then by a
    /// small edit distance (at most 2, and under a third of the name: `Calculater`), then as a
    /// unique partial name (`calc`, `get_current_time`). Every correction is noted in the call.
    /// A name of more than `MAX_WRITTEN_NAME_LEN` characters is not matched at all, and the
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
            Some(Builtin::CurrentTime) => {
                let days = match call.args.get("days") {
                    None | Some(Value::Null) => 0,
                    Some(days) => days
                        .as_i64()
                        .ok_or_else(|| invalid("'days' must be a whole number"))?,
                };
                current_time::format_time(host, lang, days)
            }
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
