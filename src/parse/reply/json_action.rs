//! A reply with no directive whose action is a JSON object standing on its own line
//! (`{"action": …, "action_input": …}` and the many key spellings and wrappers models use);
//! the thought and prose around it are noted, a broken object that is the whole reply is an
//! error that says where it starts.

use super::{is_final_name, says_no_tool, Cx};
use crate::parse::json::{self, Member};
use crate::parse::scan::{self, fence_marker, Kind, Scan};
use crate::parse::{FormatError, Parsed, Repair, Span};
use serde_json::Value;

/// A reply with more standalone `{` lines than this is not worth rescuing; the cap keeps
/// hostile input linear.
const MAX_JSON_CANDIDATES: usize = 16;
/// Wrapper objects like `{"tool_call": {...}}` are unwrapped at most this deep.
const MAX_WRAPPERS: usize = 3;

const TOOL_KEYS: &[&str] = &[
    "action",
    "tool",
    "tool_name",
    "name",
    "function",
    "action_name",
];
const INPUT_KEYS: &[&str] = &[
    "action_input",
    "actioninput",
    "tool_input",
    "input",
    "arguments",
    "args",
    "parameters",
    "params",
];
const THOUGHT_KEYS: &[&str] = &["thought", "thoughts", "reasoning"];
pub(super) const ANSWER_KEYS: &[&str] = &["final_answer", "finalanswer", "answer"];

/// A JSON object that should have been the reply but is broken, and where it starts.
type BrokenJson = (FormatError, usize);

/// An action object found in JSON, before it is committed to the result.
pub(super) struct Found {
    form: Form,
    thought: Option<(String, Span)>,
    repairs: Vec<Repair>,
}

enum Form {
    Action {
        tool: String,
        tool_span: Span,
        input: Value,
        input_span: Option<Span>,
    },
    Final {
        answer: Value,
        answer_span: Span,
    },
}

impl<'a> Cx<'a> {
    pub(super) fn without_directive(&mut self, scan: &Scan) -> Result<Parsed, FormatError> {
        let thought = scan.labels.iter().position(|l| l.kind == Kind::Thought);
        match self.find_json_action(scan) {
            Ok(Some((found, object))) => {
                self.json_surroundings(scan, object, found.thought.is_some());
                return self.take_found(found);
            }
            Ok(None) => {}
            Err((error, pos)) => {
                if let Some(t) = thought {
                    let value_start = scan.labels[t].value_start.min(pos);
                    self.set_thought(self.trim(value_start, pos));
                }
                return Err(error);
            }
        }
        if let Some(t) = thought {
            let (s, e) = Self::region(scan, t);
            self.repairs(scan.labels[t].repairs());
            self.set_thought(self.trim(s, e));
        }
        if thought.is_none() && scan.start > 0 {
            if let Some(sp) = self.reasoning(scan) {
                self.set_thought(sp);
            }
        }
        let text = &self.text[scan.start..scan.end];
        // XML tool calls, and the special tokens of native tool calls leaked as text (Kimi).
        if [
            "<tool_call",
            "<invoke",
            "<function_call",
            "<tool_use",
            "<|tool_call",
        ]
        .iter()
        .any(|m| text.contains(m))
        {
            return Err(FormatError::XmlToolCall);
        }
        match (thought, &self.thought) {
            (Some(_), Some(t)) if says_no_tool(t) => Err(FormatError::NoTool),
            (Some(_), _) => Err(FormatError::ThoughtOnly),
            (None, _) => Err(FormatError::NoAction),
        }
    }

    /// The first action-shaped JSON object that starts a line (one quoted inside a sentence is
    /// an example, not a call). A broken object that is the whole reply is a JSON error, given
    /// with where the object starts.
    fn find_json_action(&mut self, scan: &Scan) -> Result<Option<(Found, Span)>, BrokenJson> {
        let limit = scan.end;
        let mut skip_to = 0;
        let mut attempts = 0;
        for (line_start, line) in scan::lines(&self.text[scan.start..limit]) {
            let line_start = scan.start + line_start;
            let pos = line_start + (line.len() - line.trim_start().len());
            if pos < skip_to || !line.trim_start().starts_with('{') {
                continue;
            }
            attempts += 1;
            if attempts > MAX_JSON_CANDIDATES {
                break;
            }
            match self.read_json_action(pos, limit) {
                Ok((Some(found), end)) => return Ok(Some((found, Span { start: pos, end }))),
                Ok((None, end)) => skip_to = end,
                Err(e) if attempts == 1 && self.only_protocol_before(scan, pos) => {
                    return Err((e, pos))
                }
                Err(_) => {}
            }
        }
        Ok(None)
    }

    /// Nothing but blank lines, fence lines and labels before `pos`: the JSON is the reply.
    fn only_protocol_before(&self, scan: &Scan, pos: usize) -> bool {
        let first_label = scan.labels.first().map_or(pos, |l| l.line_start.min(pos));
        scan::lines(&self.text[..first_label])
            .all(|(_, l)| l.trim().is_empty() || fence_marker(l).is_some())
    }

    /// Notes the thought, fences and prose around a standalone JSON action object.
    /// A labelled Thought beats the object's own "thought" key, which beats loose prose.
    fn json_surroundings(&mut self, scan: &Scan, object: Span, key_thought: bool) {
        let Span { start, end } = object;
        let before = self.text[..start].trim_end();
        let last_line = before.rfind('\n').map_or(0, |i| i + 1);
        let lead_end = if before[last_line..].trim_start().starts_with("```") {
            last_line
        } else {
            before.trim_end_matches('`').len()
        };
        if lead_end < before.len() {
            self.repair(Repair::CodeFenceRemoved);
        }
        match scan
            .labels
            .iter()
            .find(|l| l.kind == Kind::Thought && l.line_start < start)
        {
            Some(t) => {
                let (s, e) = (t.value_start.min(lead_end), lead_end);
                self.repairs(t.repairs());
                self.set_thought(self.trim(s, e));
            }
            None => {
                if let Some(sp) = self.prose(scan.start, lead_end) {
                    self.repair(Repair::JsonExtractedFromProse);
                    if !key_thought {
                        self.set_thought(sp);
                    }
                }
            }
        }
        let after = self.text[end..scan.end].trim().trim_matches('`').trim();
        if after.starts_with('{') {
            self.repair(Repair::ExtraActionIgnored);
        } else if !after.is_empty() {
            self.repair(Repair::JsonExtractedFromProse);
        }
    }

    /// Parses the object at `pos`; `Ok((None, end))` when it is valid but not an action.
    pub(super) fn read_json_action(
        &mut self,
        pos: usize,
        limit: usize,
    ) -> Result<(Option<Found>, usize), FormatError> {
        let Some((members, end, reps)) = json::object_members(&self.text[..limit], pos) else {
            return Err(json::strict_error(&self.text[pos..limit]));
        };
        let found = self.shape(&members, limit, 0).map(|mut f| {
            f.repairs.extend(reps);
            f
        });
        Ok((found, end))
    }

    /// Reads an action (or a final answer) out of an object's members, by key aliases.
    fn shape(&self, members: &[Member], limit: usize, depth: usize) -> Option<Found> {
        let thought = member(members, THOUGHT_KEYS)
            .and_then(|(_, v, sp)| Some((v.as_str()?.trim().to_string(), self.unquoted(*sp))));
        let form = if let Some((key, tool, sp)) = member(members, TOOL_KEYS) {
            match tool {
                Value::String(name) if !name.trim().is_empty() => {
                    let input = member(members, INPUT_KEYS);
                    // {"name": "张三", "city": "北京"} is a record, not a call: the generic
                    // "name" names a tool only next to arguments, a thought, or nothing else.
                    let known = |k: &str| {
                        [TOOL_KEYS, INPUT_KEYS, THOUGHT_KEYS, &["type", "id"]]
                            .iter()
                            .any(|keys| keys.iter().any(|known| known.eq_ignore_ascii_case(k)))
                    };
                    if key.eq_ignore_ascii_case("name")
                        && input.is_none()
                        && members.iter().any(|(k, ..)| !known(k))
                    {
                        return None;
                    }
                    Form::Action {
                        tool: name.trim().to_string(),
                        tool_span: self.unquoted(*sp),
                        input: input.map_or(Value::Null, |(_, v, _)| v.clone()),
                        input_span: input.map(|(_, _, sp)| self.unquoted(*sp)),
                    }
                }
                // {"function": {"name": ..., "arguments": ...}}
                Value::Object(_) => return self.unwrap(sp.start, limit, depth, thought),
                _ => return None,
            }
        } else if let Some((_, answer, sp)) = member(members, ANSWER_KEYS) {
            Form::Final {
                answer: answer.clone(),
                answer_span: self.unquoted(*sp),
            }
        } else if let [(_, Value::Object(_), sp)] = members {
            return self.unwrap(sp.start, limit, depth, thought);
        } else if let [(_, Value::Array(items), sp)] = members {
            // {"tool_calls": [{...}]}: a one-element list of the action object.
            let [Value::Object(_)] = items.as_slice() else {
                return None;
            };
            let inner = self.str(*sp).find('{')?;
            return self.unwrap(sp.start + inner, limit, depth, thought);
        } else {
            return None;
        };
        Some(Found {
            form,
            thought,
            repairs: Vec::new(),
        })
    }

    /// The action inside a wrapper object such as `{"tool_call": {...}}`.
    fn unwrap(
        &self,
        pos: usize,
        limit: usize,
        depth: usize,
        thought: Option<(String, Span)>,
    ) -> Option<Found> {
        if depth >= MAX_WRAPPERS {
            return None;
        }
        let (members, _, _) = json::object_members(&self.text[..limit], pos)?;
        let mut found = self.shape(&members, limit, depth + 1)?;
        found.repairs.push(Repair::WrapperUnwrapped);
        found.thought = found.thought.or(thought);
        Some(found)
    }

    /// A string token's span without its quotes.
    pub(super) fn unquoted(&self, sp: Span) -> Span {
        let b = self.str(sp).as_bytes();
        match b.first() {
            Some(q @ (b'"' | b'\'')) if b.len() >= 2 && b[b.len() - 1] == *q => Span {
                start: sp.start + 1,
                end: sp.end - 1,
            },
            _ => sp,
        }
    }

    pub(super) fn take_found(&mut self, found: Found) -> Result<Parsed, FormatError> {
        self.repair(Repair::JsonObjectForm);
        self.repairs(found.repairs);
        if let Some((thought, sp)) = found.thought.filter(|(t, _)| !t.is_empty()) {
            if self.thought.is_none() {
                self.thought = Some(thought);
                self.spans.thought = Some(sp);
            }
        }
        match found.form {
            Form::Action {
                tool,
                tool_span,
                input,
                input_span,
            } => {
                self.spans.action = Some(tool_span);
                let input = self.decode_string_json(input);
                if is_final_name(&tool) {
                    return self.final_from_value(input, input_span);
                }
                self.spans.input = input_span;
                Ok(Parsed::Action { tool, input })
            }
            Form::Final {
                answer,
                answer_span,
            } => self.final_from_value(answer, Some(answer_span)),
        }
    }
}

/// The member for the first of `keys` present (keys compared without case).
pub(super) fn member<'m>(members: &'m [Member], keys: &[&str]) -> Option<&'m Member> {
    keys.iter().find_map(|k| {
        members
            .iter()
            .find(|(name, ..)| name.eq_ignore_ascii_case(k))
    })
}
