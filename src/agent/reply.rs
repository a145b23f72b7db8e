//! What a reply that is not a tool call does to the run: a plan, a summary, a final answer;
//! the feedback that changes when the model repeats its mistake; and reading a reply the
//! grammar or the schema shaped.

use super::*;

impl Agent {
    /// A summary reply: kept on its step and after the question from now on; the rounds it
    /// covers leave the window, and the run goes on.
    pub(super) fn take_summary(&mut self, reply: ModelReply, start: usize) {
        let summary = prompt::read_summary(&reply.text);
        let dropped = start - self.window_start;
        self.window_start = start;
        self.compression.keep(summary.clone());
        let kept_rounds = self.rounds.len() - start;
        let step = self.current_mut();
        step.reply = Some(reply);
        step.summary = Some(summary);
        self.guard(Guard::HistoryTrimmed {
            dropped_rounds: dropped,
            kept_rounds,
        });
        self.open_step();
    }

    /// A plan reply: its steps on the step, in the prompt from now on, and the model told to
    /// carry it out.
    pub(super) fn take_plan(&mut self, reply: ModelReply, steps: Vec<String>) {
        let kept = reply.text.trim().to_string();
        let step = self.current_mut();
        step.reply = Some(reply);
        step.plan = Some(steps);
        let text = prompt::plan_feedback(self.trace.config.prompt.voice(), false);
        self.observe(kept, text, ObservationSource::Feedback, None, false);
    }

    /// A final answer: taken, or first checked once (`reflect`), or the check's own reply,
    /// which keeps the answer it was shown ("OK") or replaces it.
    pub(super) fn final_answer(&mut self, reply: String, answer: String) {
        let config = &self.trace.config;
        let room = self.trace.steps.len() < config.max_steps;
        let voice = config.prompt.voice();
        match (self.course).answer(answer, room, &self.trace.question, voice) {
            Answered::Take(answer) => self.finish(Outcome::Answer { answer }),
            Answered::Checked { kept, answer } => {
                self.guard(Guard::SelfCheck { kept });
                self.finish(Outcome::Answer { answer });
            }
            Answered::Check(text) => {
                self.observe(reply, text, ObservationSource::Feedback, None, false);
            }
        }
    }

    /// A [`Guard::PromptCut`] when the server's count of this request's prompt shows it cut
    /// the prompt, the first time in the run.
    pub(super) fn prompt_cut(&self, reply: &ModelReply) -> Option<Guard> {
        let counted = reply.usage.prompt_tokens?;
        let steps = &self.trace.steps;
        let noted = steps.iter().any(|s| {
            s.guards
                .iter()
                .any(|g| matches!(g, Guard::PromptCut { .. }))
        });
        let sent = history::estimate(&self.current().request.messages);
        let before = steps.iter().rev().nth(1).and_then(|s| {
            let counted = s.reply.as_ref()?.usage.prompt_tokens?;
            Some((history::estimate(&s.request.messages), counted))
        });
        (!noted && history::cut_by_server(sent, counted, before))
            .then_some(Guard::PromptCut { sent, counted })
    }

    /// Identical reply, identical feedback, identical reply: a stuck model needs something
    /// else. When the reply or the mistake repeats the last one, the feedback changes: first a
    /// short form that shows only the three lines to write, then the hard wording.
    pub(super) fn second_move(&mut self, reply: &str, feedback: String) -> String {
        let same = self
            .last_feedback
            .as_ref()
            .is_some_and(|(r, f)| r == reply || *f == feedback);
        self.stuck = if same { self.stuck + 1 } else { 0 };
        self.last_feedback = Some((reply.to_string(), feedback.clone()));
        if self.stuck == 0 {
            return feedback;
        }
        let names: Vec<String> = self
            .registry
            .specs()
            .iter()
            .map(|t| t.name.clone())
            .collect();
        let names = names.join(", ");
        told::stuck(
            &feedback,
            &names,
            self.stuck,
            self.trace.config.prompt.voice(),
        )
    }

    /// The guard that shows a changed feedback, after the guard that gave it.
    pub(super) fn mark_second_move(&mut self) {
        let repeat = self.stuck;
        if repeat > 0 {
            self.guard(Guard::SecondMove { repeat });
        }
    }
}

/// A reply the grammar shaped: the Thought (the given opening, then words without a colon),
/// then `Action: ` on the next line or after a space, then the Action Input. A reply cut
/// before its Action Input is only a Thought; `None` for a reply the grammar could not have
/// made.
pub(super) fn parse_grammar_reply(text: &str, prefix: &str) -> Option<ParseResult> {
    let thought_line = text.strip_prefix("Thought: ")?;
    // The model's own words have no colon under the grammar, so the first "Action: " after
    // the opening it was given (which may quote a time) is the Action, on its own line or
    // right after the Thought. A reply with other colons was not made by the grammar (an
    // edited reply): the general parser reads it.
    let skip = if thought_line.starts_with(prefix) {
        prefix.len()
    } else {
        0
    };
    let action_at = thought_line[skip..].find("Action: ").map(|at| at + skip);
    let own_words = &thought_line[skip..action_at.unwrap_or(thought_line.len())];
    if own_words.contains([':', '：']) {
        return None;
    }
    let thought = thought_line[..action_at.unwrap_or(thought_line.len())].trim_end();
    let rest_at = "Thought: ".len() + action_at.unwrap_or(thought_line.len());
    let rest = text.get(rest_at..)?;
    // Cut by the token limit before the Action Input: only a Thought, given back next time
    // with the Action to follow.
    if !rest.contains("\nAction Input: ") {
        return Some(ParseResult {
            parsed: Parsed::Error {
                error: FormatError::ThoughtOnly,
            },
            thought: Some(thought.trim().to_string()),
            spans: Spans {
                thought: Some(Span {
                    start: "Thought: ".len(),
                    end: "Thought: ".len() + thought.len(),
                }),
                ..Spans::default()
            },
            repairs: Vec::new(),
        });
    }
    let mut parsed = parse::parse_reply(rest);
    let shift = |span: Option<Span>| {
        span.map(|s| Span {
            start: s.start + rest_at,
            end: s.end + rest_at,
        })
    };
    parsed.spans = Spans {
        thought: Some(Span {
            start: "Thought: ".len(),
            end: "Thought: ".len() + thought.len(),
        }),
        action: shift(parsed.spans.action),
        input: shift(parsed.spans.input),
        answer: shift(parsed.spans.answer),
    };
    parsed.thought = Some(thought.trim().to_string());
    Some(parsed)
}

/// A JSON reply cut by the token limit inside its `thought`, the first property the schema
/// asks for: only a Thought, given back next time (as a `const`) with the action to follow, as
/// under the grammar. The 0.5B model explained a formula over five sentences and was told its
/// Action Input was not closed, which it was not to blame for, three times in a row.
pub(super) fn json_thought_cut(text: &str) -> Option<ParseResult> {
    let open = text.trim_start().strip_prefix('{')?.trim_start();
    let value = open.strip_prefix("\"thought\"")?.trim_start();
    let string = value.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let mut escaped = false;
    for c in string.chars() {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            // The string closes: not cut there, the general parser reads the reply.
            (false, '"') => return None,
            _ => {}
        }
    }
    // The text as written, its escapes read where they are whole.
    let raw = string.trim_end_matches('\\');
    let thought =
        serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.to_string());
    let start = text.len() - string.len();
    Some(ParseResult {
        parsed: Parsed::Error {
            error: FormatError::ThoughtOnly,
        },
        thought: Some(thought.trim().to_string()),
        spans: Spans {
            thought: Some(Span {
                start,
                end: text.len(),
            }),
            ..Spans::default()
        },
        repairs: Vec::new(),
    })
}

/// The text of a span of the reply, trimmed (e.g. the tool an Action names).
pub(super) fn reply_text_at(reply: &Option<ModelReply>, span: Span) -> Option<String> {
    let text = reply.as_ref()?.text.get(span.start..span.end)?;
    Some(text.trim().to_string())
}
