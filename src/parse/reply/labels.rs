//! The labelled directive: an `Action:` with its `Action Input:` (or the paper `tool[arg]` and
//! call `tool(args)` forms written on the Action line), or a `Final Answer:`. The tool name is
//! cleaned of what models write around it; the registry matches what is left.

use super::{is_final_name, means_no_tool, Cx};
use crate::parse::json;
use crate::parse::scan::{Kind, Scan};
use crate::parse::{parse_json_lenient, FormatError, Parsed, Repair, Span};
use serde_json::Value;

impl Cx<'_> {
    pub(super) fn final_answer(&mut self, scan: &Scan, d: usize) -> Result<Parsed, FormatError> {
        let (s, e) = Self::region(scan, d);
        let sp = self.drop_outer_fence(scan, self.trim(s, e));
        if sp.start == sp.end {
            return Err(FormatError::EmptyAnswer);
        }
        if scan.labels[d + 1..]
            .iter()
            .any(|l| matches!(l.kind, Kind::Action | Kind::ActionInput))
        {
            self.repair(Repair::ActionAfterFinalIgnored);
        }
        self.spans.answer = Some(sp);
        Ok(Parsed::Final {
            answer: self.str(sp).to_string(),
        })
    }

    pub(super) fn action(&mut self, scan: &Scan, d: usize) -> Result<Parsed, FormatError> {
        let has_input = scan
            .labels
            .get(d + 1)
            .is_some_and(|l| l.kind == Kind::ActionInput);
        let (s, e) = Self::region(scan, d);
        let sp = self.drop_outer_fence(scan, self.trim(s, e));
        let sp = self.unfence(sp);
        if sp.start == sp.end {
            return Err(FormatError::MissingToolName);
        }
        if self.str(sp).starts_with('{') {
            self.note_ignored(scan, d + 1);
            return match self.read_json_action(sp.start, sp.end)?.0 {
                Some(found) => self.take_found(found),
                None => Err(FormatError::MissingToolName),
            };
        }
        let line_end = self.str(sp).find('\n').map_or(sp.end, |i| sp.start + i);
        let line_sp = self.trim(sp.start, line_end);
        let tool_sp = self.unquote_tool(line_sp);
        if means_no_tool(self.str(tool_sp)) {
            // "Action: None" then a Final Answer: the model just answered.
            let answer = (d + 1..scan.labels.len())
                .find(|&i| matches!(scan.labels[i].kind, Kind::FinalAnswer | Kind::Answer));
            if let Some(a) = answer {
                self.repair(Repair::NoToolActionIgnored);
                self.repairs(scan.labels[a].repairs());
                return self.final_answer(scan, a);
            }
            self.spans.action = Some(tool_sp);
            return Err(FormatError::NoTool);
        }
        self.note_ignored(scan, d + 1 + usize::from(has_input));
        if !has_input {
            // `Action: `Search[x]``: the form inside the quotes.
            let form_sp = if tool_sp != line_sp { tool_sp } else { sp };
            if let Some(parsed) = self.bracket_form(form_sp)? {
                return Ok(parsed);
            }
        }
        let tool_sp = self.clean_tool_name(tool_sp);
        if tool_sp.start == tool_sp.end {
            return Err(FormatError::MissingToolName);
        }
        self.spans.action = Some(tool_sp);
        let tool = self.str(tool_sp);
        let (input, input_sp) = if has_input {
            self.repairs(scan.labels[d + 1].repairs());
            let (s, e) = Self::region(scan, d + 1);
            // An answer that only starts like JSON ("[1] RAG is …") is text, not a JSON prefix.
            let answer = self.trim(s, e);
            let text = self.str(answer);
            if is_final_name(tool) && text.starts_with(['[', '{']) && !self.answer_is_json(answer) {
                return self.final_from_value(Value::String(text.to_string()), Some(answer));
            }
            self.input_value(scan, s, e)?
        } else {
            self.unlabeled_input(line_end, sp.end)?
        };
        if is_final_name(tool) {
            return self.final_from_value(input, input_sp);
        }
        self.spans.input = input_sp;
        Ok(Parsed::Action {
            tool: tool.to_string(),
            input,
        })
    }

    /// Notes the directives from label `from` on, which lose to the action.
    fn note_ignored(&mut self, scan: &Scan, from: usize) {
        for label in &scan.labels[from.min(scan.labels.len())..] {
            match label.kind {
                Kind::Action | Kind::ActionInput => self.repair(Repair::ExtraActionIgnored),
                Kind::FinalAnswer | Kind::Answer => self.repair(Repair::FinalAnswerIgnored),
                _ => {}
            }
        }
    }

    /// Whether a final_answer input that starts like JSON is JSON: valid (after repairs) as a
    /// whole, or an object followed by other text (a leading array followed by text is a
    /// citation such as "[1] …", so text).
    fn answer_is_json(&self, sp: Span) -> bool {
        let text = self.str(sp).trim_end_matches(['`', ' ', '\t', '\n', '\r']);
        parse_json_lenient(text).is_ok()
            || (text.starts_with('{')
                && json::parse_json_prefix(&self.text[..sp.end], sp.start).is_ok())
    }

    /// The tool name without what surrounds it: a sentence-final period or comma; a remark
    /// after a one-word name (`add (add two numbers)`, `calculator - to multiply`); the phrase
    /// around a name in backticks (``Use the `search` tool``). Other extra words stay: the
    /// registry matches names written with them.
    fn clean_tool_name(&mut self, sp: Span) -> Span {
        let text = self.str(sp);
        if let Some(open) = text.find('`') {
            if let Some(len) = text[open + 1..].find('`') {
                let inner = self.trim(sp.start + open + 1, sp.start + open + 1 + len);
                let name = self.str(inner);
                if !name.is_empty() && !name.contains(char::is_whitespace) {
                    self.repair(Repair::ToolNameTrimmed);
                    return inner;
                }
            }
        }
        let kept = text
            .trim_end_matches(['.', ',', ';', ':', '。', '，', '；', '：'])
            .trim_end();
        let word = kept.find(char::is_whitespace).filter(|&ws| {
            let rest = kept[ws..].trim_start();
            rest.starts_with(['(', '（']) || ["- ", "– ", "— "].iter().any(|d| rest.starts_with(d))
        });
        let kept = word.map_or(kept, |ws| &kept[..ws]);
        if kept.len() == text.len() || kept.is_empty() {
            return sp;
        }
        self.repair(Repair::ToolNameTrimmed);
        Span {
            start: sp.start,
            end: sp.start + kept.len(),
        }
    }

    /// Removes quotes, backticks or emphasis wrapped around a tool name.
    fn unquote_tool(&mut self, mut sp: Span) -> Span {
        loop {
            let b = self.str(sp).as_bytes();
            let wrapped = b.len() >= 2
                && matches!(b[0], b'"' | b'\'' | b'`' | b'*')
                && b[b.len() - 1] == b[0];
            if !wrapped {
                return sp;
            }
            self.repair(Repair::ToolNameUnquoted);
            sp = self.trim(sp.start + 1, sp.end - 1);
        }
    }

    /// The paper form `tool[arg]` / `Finish[answer]`, or a call `tool(args)`, written on the
    /// Action line instead of an Action Input.
    fn bracket_form(&mut self, sp: Span) -> Result<Option<Parsed>, FormatError> {
        let body = self.str(sp);
        for (open_c, close_c, form) in [('[', ']', Repair::PaperForm), ('(', ')', Repair::CallForm)]
        {
            let Some(open) = body.find(open_c) else {
                continue;
            };
            let name = body[..open].trim_end();
            if name.is_empty() || name.contains(['\n', '[', '(', '{', '"', '\'', '`']) {
                continue;
            }
            // "Wikipedia Search (beta)" is a name; a call needs a one-word name.
            if form == Repair::CallForm && name.contains(char::is_whitespace) {
                continue;
            }
            // The argument may span lines (`Finish[...]` with a long answer); else it ends
            // with the first line.
            // A period or markdown after the closing bracket is not part of the form.
            let tail = |t: &str| t.trim_end().trim_end_matches(['*', '_', '`', '.']).len();
            let first_line = &body[..tail(&body[..body.find('\n').unwrap_or(body.len())])];
            let whole = &body[..tail(body)];
            let close = if whole.ends_with(close_c) {
                whole.len() - 1
            } else if first_line.ends_with(close_c) {
                first_line.len() - 1
            } else {
                continue;
            };
            if close <= open {
                continue;
            }
            self.repair(form);
            let name_sp = Span {
                start: sp.start,
                end: sp.start + name.len(),
            };
            let arg_sp = self.trim(sp.start + open + 1, sp.start + close);
            self.spans.action = Some(name_sp);
            // `Finish[answer="…"]` takes keyword arguments like a call.
            let value = self.call_args(arg_sp)?;
            if is_final_name(name) {
                return self.final_from_value(value, Some(arg_sp)).map(Some);
            }
            if !value.is_null() {
                self.spans.input = Some(arg_sp);
            }
            return Ok(Some(Parsed::Action {
                tool: name.to_string(),
                input: value,
            }));
        }
        Ok(None)
    }

    /// Arguments of `tool(...)`: JSON, Python keyword arguments (`answer="..."`), or text.
    fn call_args(&mut self, sp: Span) -> Result<Value, FormatError> {
        if sp.start == sp.end {
            return Ok(Value::Null);
        }
        if let Some((members, reps)) = json::keyword_args(self.text, sp.start, sp.end) {
            self.repairs(reps);
            return Ok(Value::Object(
                members.into_iter().map(|(k, v, _)| (k, v)).collect(),
            ));
        }
        Ok(self.value_of(sp)?.0)
    }

    /// JSON (or a fenced block) on the lines after the tool name, with no `Action Input:`.
    fn unlabeled_input(
        &mut self,
        start: usize,
        end: usize,
    ) -> Result<(Value, Option<Span>), FormatError> {
        let rest = self.trim(start, end);
        let body = self.str(rest);
        if !(body.starts_with(['{', '[']) || body.starts_with("```")) {
            return Ok((Value::Null, None));
        }
        self.repair(Repair::InputWithoutLabel);
        let rest = self.unfence(rest);
        if rest.start == rest.end {
            return Ok((Value::Null, None));
        }
        let (value, sp) = self.value_of(rest)?;
        Ok((value, Some(sp)))
    }

    fn input_value(
        &mut self,
        scan: &Scan,
        start: usize,
        end: usize,
    ) -> Result<(Value, Option<Span>), FormatError> {
        let sp = self.drop_outer_fence(scan, self.trim(start, end));
        let sp = self.unfence(sp);
        if sp.start == sp.end {
            return Ok((Value::Null, None));
        }
        let (value, sp) = self.value_of(sp)?;
        Ok((value, Some(sp)))
    }
}
