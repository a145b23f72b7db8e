//! A tool call, from the parsed action to its Observation: repeats, notes, truncation and
//! what the model is told when a tool fails.

use super::*;
use crate::lower::Lower;
use crate::numbers::parse_f64;
use serde_json::Value;

impl Agent {
    pub fn feed_tool(&mut self, result: ToolResult) -> Result<(), AgentError> {
        let State::NeedTool(call) = &self.state else {
            return Err(AgentError::NotWaitingForTool);
        };
        let (tool, args) = (call.tool.clone(), call.args.clone());
        // The 0.5B model, made to act first, computed `1 + 1` for "What is the capital of
        // China?" and answered 2: a calculation for a question without numbers is not about it.
        let role = self.registry.role(&call.tool);
        let unrelated = role == Some(Role::Computes)
            && result.output.is_ok()
            && !reading::mentions_number(&self.trace.question)
            && !self.uses_found_number(&args);
        let reply = self.pending_reply();
        let succeeded = result.output.is_ok();
        self.last.short_result = result
            .output
            .as_ref()
            .ok()
            .map(|text| text.trim())
            .filter(|text| text.chars().count() <= SHORT_RESULT && !text.contains('\n'))
            .map(str::to_string);
        let (text, source) = match result.output {
            Ok(text) if unrelated => {
                self.last.short_result = None;
                self.last.noted = Noted::Unrelated;
                (text, ObservationSource::Tool)
            }
            Ok(text) if text.trim().is_empty() => {
                // Nothing to quote where the next Thought opens.
                self.last.short_result = None;
                let voice = self.trace.config.prompt.voice();
                (told::empty_result(voice), ObservationSource::Tool)
            }
            Ok(text) => (text, ObservationSource::Tool),
            Err(error) => {
                if error.wrong_tool() {
                    self.last.noted = Noted::WrongTool { tool: tool.clone() };
                }
                let voice = self.trace.config.prompt.voice();
                let mut text = format!(
                    "{}\n{}",
                    told::tool_error(&error, voice),
                    self.other_tools(&tool)
                );
                self.guard(Guard::ToolFailed { error });
                if self.course.replans() {
                    // One new plan, now that a step of the old one failed.
                    text = format!(
                        "{text}\n{}",
                        prompt::plan_feedback(self.trace.config.prompt.voice(), true)
                    );
                }
                (text, ObservationSource::ToolError)
            }
        };
        // Recorded before the observation opens the next step, whose request depends on it.
        self.calls.push(PastCall {
            tool,
            role,
            args,
            observation: String::new(),
            succeeded,
            repeats: 0,
        });
        // The note on what comes next goes after the cut, which would drop it.
        let text = self.within_limit(text);
        // What comes next may read this result (a comparison counts the facts found).
        if let Some(past) = self.calls.last_mut() {
            past.observation = text.clone();
        }
        let voice = self.trace.config.prompt.voice();
        let next = self.next_tool();
        let note = if matches!(self.last.noted, Noted::Unrelated) {
            Some(told::unrelated_calculation(
                next,
                self.found_before(),
                voice,
            ))
        } else if bare_number(&self.calls[self.calls.len() - 1]) {
            Some(told::bare_number(voice))
        } else {
            let computes = |next| self.registry.role(next) == Some(Role::Computes);
            next.map(|next| told::next_tool(next, computes(next), voice))
        };
        let text = match note {
            Some(note) => {
                let text = format!("{text}\n{note}");
                self.notes.push(note);
                text
            }
            None => text,
        };
        // Before the next request is built, which may read it (the clock's year).
        if let Some(past) = self.calls.last_mut() {
            past.observation = text.clone();
        }
        self.record_observation(reply, text, source, result.elapsed_ms, result.edited);
        Ok(())
    }

    /// The calculation computes with a number an earlier tool gave (`31 - 14` after the clock
    /// said 14 March, for the days left in the month): it is about the question, numbers in
    /// the question or not. A search result's own numbering ("[1]") is not a number it gave.
    fn uses_found_number(&self, args: &Value) -> bool {
        let found: Vec<String> = (self.calls.iter())
            .filter(|c| c.succeeded)
            .flat_map(|c| reading::numbers(&without_result_numbers(&c.observation)))
            .collect();
        let Some(args) = args.as_object() else {
            return false;
        };
        (args.values().filter_map(Value::as_str))
            .flat_map(reading::numbers)
            .any(|n| found.contains(&n))
    }

    /// The tool that last found something, other than the calculator: its result is what a
    /// calculation unrelated to the question should have been the answer from.
    pub(super) fn found_before(&self) -> Option<&str> {
        (self.calls.iter().rev())
            .find(|c| c.succeeded && c.role != Some(Role::Computes))
            .map(|c| c.tool.as_str())
    }

    pub(super) fn prepare_call(&mut self, kept: String, call: ToolCall) {
        self.current_mut().call = Some(call.clone());
        let past = self
            .calls
            .iter_mut()
            .find(|p| p.tool == call.tool && p.args == call.args);
        let Some(past) = past else {
            if let Some((result, tail)) = self.applied_again(&call) {
                self.last.noted = Noted::AppliedAgain;
                self.last.short_result = Some(result.clone());
                let text = told::applied_again(&result, &tail, self.trace.config.prompt.voice());
                self.record_observation(kept, text, ObservationSource::Feedback, None, false);
                return;
            }
            self.state = State::NeedTool(call);
            return;
        };
        past.repeats += 1;
        let (earlier, repeat, past_succeeded) =
            (past.observation.clone(), past.repeats, past.succeeded);
        self.last.noted = Noted::Repeated {
            tool: call.tool.clone(),
            succeeded: past.succeeded,
        };
        let max = self.trace.config.max_repeats;
        if repeat >= max {
            self.guard(Guard::TooManyRepeats {
                tool: call.tool.clone(),
                repeats: repeat,
            });
            self.finish(Outcome::RepeatedCalls { tool: call.tool });
            return;
        }
        self.guard(Guard::RepeatedCall {
            tool: call.tool.clone(),
            repeat,
        });
        let tool = &call.tool;
        // Without a constraint the next request asks for the answer
        // ([`prompt::ask_for_answer`]), so the note only says what happened.
        let will_ask = !self.constrained.is_on();
        let voice = self.trace.config.prompt.voice();
        // The result alone: its note on what came next then may be past ("compute the
        // answer", said again after the computation, led the 0.5B model back to the price).
        let earlier = (self.notes.iter()).fold(earlier, |e, n| e.replace(&format!("\n{n}"), ""));
        let text = told::repeated_call(&earlier, tool, past_succeeded, will_ask, voice);
        self.record_observation(kept, text, ObservationSource::Cached, None, false);
    }

    /// The last calculation's result and final operation, when `call` applies that operation
    /// again to that result ("91125^3" after "sqrt(2025)^3" gave 91125): small models go on
    /// multiplying or cubing until the step limit. Not when a person steers the run or the
    /// question asks for a step again.
    fn applied_again(&self, call: &ToolCall) -> Option<(String, String)> {
        let expression = |args: &serde_json::Value| -> Option<String> {
            let text = args.get("expression")?.as_str()?;
            Some(text.chars().filter(|c| !c.is_whitespace()).collect())
        };
        let again = ["again", "twice", "repeat", "再次", "两次", "又"];
        let question = self.trace.question.lower();
        if self.registry.role(&call.tool) != Some(Role::Computes)
            || self.steered()
            || again.iter().any(|w| question.contains(w))
        {
            return None;
        }
        let last = self.calls.iter().rev().find(|c| c.succeeded)?;
        if last.tool != call.tool {
            return None;
        }
        let result = last.observation.lines().next()?.trim().to_string();
        let (before, now) = (expression(&last.args)?, expression(&call.args)?);
        let tail = now.strip_prefix(result.as_str())?;
        let operator = tail.chars().next()?;
        let applied = "+-*/^%×÷".contains(operator)
            && before.ends_with(tail)
            && before != tail
            && binds_whole(&before[..before.len() - tail.len()], operator);
        applied.then(|| (result, tail.to_string()))
    }

    /// Truncates, records and answers with an observation; returns the text the model sees.
    pub(super) fn observe(
        &mut self,
        reply: String,
        text: String,
        source: ObservationSource,
        elapsed_ms: Option<f64>,
        edited: bool,
    ) -> String {
        let text = self.within_limit(text);
        self.record_observation(reply, text.clone(), source, elapsed_ms, edited);
        text
    }

    /// The text cut to the observation limit, with a marker and a guard when it was longer.
    pub(super) fn within_limit(&mut self, text: String) -> String {
        let limit = self.trace.config.observation_limit;
        let full_chars = text.chars().count();
        if full_chars > limit {
            self.guard(Guard::ObservationTruncated {
                from_chars: full_chars,
                to_chars: limit,
            });
            truncate_chars(&text, limit, full_chars)
        } else {
            text
        }
    }

    pub(super) fn record_observation(
        &mut self,
        reply: String,
        text: String,
        source: ObservationSource,
        elapsed_ms: Option<f64>,
        edited: bool,
    ) {
        let step = self.current_mut();
        let full_chars = step
            .guards
            .iter()
            .find_map(|g| match g {
                Guard::ObservationTruncated { from_chars, .. } => Some(*from_chars),
                _ => None,
            })
            .unwrap_or_else(|| text.chars().count());
        step.observation = Some(Observation {
            text: text.clone(),
            source,
            full_chars,
            elapsed_ms,
            edited,
        });
        if source == ObservationSource::Feedback {
            self.notes.push(text.clone());
        }
        self.rounds.push(Round {
            reply,
            observation: text.clone(),
        });
        let config = &self.trace.config;
        // The counter resets on every parseable reply, so reaching the limit means this
        // step was a format error too.
        if self.format_errors >= config.max_format_errors {
            let count = self.format_errors;
            self.guard(Guard::TooManyFormatErrors { count });
            self.finish(Outcome::FormatErrors { count });
        } else if self.trace.steps.len() >= config.max_steps {
            let steps = config.max_steps;
            self.guard(Guard::StepLimit { steps });
            self.finish(Outcome::StepLimit {
                steps,
                last_observation: Some(text),
            });
        } else {
            self.state = State::NeedModel;
            self.open_step();
        }
    }

    /// After a tool failed, the others and what each is for: small models keep trying the
    /// first tool they thought of (the calculator for "what month is it?").
    pub(super) fn other_tools(&self, failed: &str) -> String {
        let voice = self.trace.config.prompt.voice();
        let others: Vec<String> = self
            .registry
            .specs()
            .into_iter()
            .filter(|t| t.name != failed)
            .map(|t| format!("{} ({})", t.name, told::tool_description(t, voice.lang)))
            .collect();
        told::other_tools(&others, voice)
    }
}

/// A calculator call that was a number alone ("2024"): it computes nothing, so it is not the
/// computation the question asks for.
pub(super) fn bare_number(call: &PastCall) -> bool {
    let expression = call.args.get("expression").and_then(|e| e.as_str());
    call.role == Some(Role::Computes) && expression.is_some_and(|e| parse_f64(e.trim()).is_some())
}

/// Whether `operator` written after `head` applies to the whole of it: no operator outside
/// parentheses in `head` binds more loosely (`2025 - 1949 * 2` doubles 1949, not the
/// difference, so `-1873 * 2` next is the step the question asked for, not a repeat of it).
fn binds_whole(head: &str, operator: char) -> bool {
    let precedence = |c: char| match c {
        '+' | '-' => 1,
        '*' | '/' | '%' | '×' | '÷' => 2,
        _ => 3,
    };
    let wanted = precedence(operator);
    let mut depth = 0i32;
    let mut after_operand = false;
    for c in head.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '+' | '-' | '*' | '/' | '%' | '×' | '÷' | '^' if depth == 0 && after_operand => {
                // `^` groups to the right: one before it keeps its right side apart.
                let looser = precedence(c) < wanted || (wanted == 3 && precedence(c) == 3);
                if looser {
                    return false;
                }
            }
            _ => {}
        }
        // A sign opens an operand; anything else but an operator or "(" ends one.
        after_operand = !matches!(c, '+' | '-' | '*' | '/' | '%' | '×' | '÷' | '^' | '(');
    }
    true
}

/// `text` without the `[1]`, `[2]` … that number a search's results.
fn without_result_numbers(text: &str) -> String {
    text.lines()
        .map(
            |line| match line.strip_prefix('[').and_then(|l| l.split_once("] ")) {
                Some((n, rest)) if n.chars().all(|c| c.is_ascii_digit()) => rest,
                _ => line,
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}
