//! A tool call, from the parsed action to its Observation: repeats, notes, truncation and
//! what the model is told when a tool fails.

use super::*;

impl Agent {
    pub(super) fn prepare_call(&mut self, kept: String, call: ToolCall) {
        self.current_mut().call = Some(call.clone());
        let past = self
            .calls
            .iter_mut()
            .find(|p| p.tool == call.tool && p.args == call.args);
        let Some(past) = past else {
            self.state = State::NeedTool(call);
            return;
        };
        past.repeats += 1;
        let (earlier, repeat, past_succeeded) =
            (past.observation.clone(), past.repeats, past.succeeded);
        self.last.repeated = Some((call.tool.clone(), past.succeeded));
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
        let lang = self.trace.config.prompt.lang;
        let text = told::repeated_call(&earlier, tool, past_succeeded, will_ask, lang);
        self.record_observation(kept, text, ObservationSource::Cached, None, false);
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
        let lang = self.trace.config.prompt.lang;
        let others: Vec<String> = self
            .registry
            .specs()
            .into_iter()
            .filter(|t| t.name != failed)
            .map(|t| format!("{} ({})", t.name, told::tool_description(t, lang)))
            .collect();
        told::other_tools(&others, lang)
    }
}
