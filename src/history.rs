//! The conversation sent to the model, built from the rounds so far.
//!
//! Servers reuse their prompt cache only when each request extends the previous one, so the
//! messages are append-only between trims, and a trim drops a large block of old rounds at
//! once instead of sliding the window by one round every step.

use crate::fields::units;
use crate::lang::estimate_tokens;
use serde::{Deserialize, Serialize};

use crate::llm::{Message, Role};
use crate::told::{self, Voice};

units! {
    /// How the rounds are laid out as chat messages.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub enum MessageStyle {
        /// Chat under a constraint, transcript without ([`MessageStyle::resolve`]).
        #[default]
        Auto,
        /// Each reply is an assistant message, each observation a user message.
        Chat,
        /// One user message holds the question and the growing Thought/Action/Observation
        /// scratchpad, as in the original ReAct prompts.
        Scratchpad,
        /// The question is a user message; the replies and their Observations grow one assistant
        /// message, so the model reads each Observation as the next line of its own text.
        Transcript,
    }
}

impl MessageStyle {
    /// The style a request is laid out in. Measured on the bench with the 0.5B model: without
    /// a constraint the model echoed each Observation user message or sent its call again,
    /// and read on from an Observation in its own message; under the grammar, chat did as
    /// well or better.
    pub fn resolve(self, constrained: bool) -> MessageStyle {
        match self {
            MessageStyle::Auto if constrained => MessageStyle::Chat,
            MessageStyle::Auto => MessageStyle::Transcript,
            style => style,
        }
    }
}

/// One model reply and the observation that answered it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// The reply as kept in the history (a self-written Observation already cut off).
    pub reply: String,
    /// The observation text as the model sees it (already truncated).
    pub observation: String,
}

/// Settings that shape the messages.
#[derive(Debug, Clone)]
pub struct Layout<'a> {
    pub style: MessageStyle,
    /// End every observation with a reminder of the question. Each reminder stays in place
    /// once written, so requests remain append-only; the cost is tokens.
    pub restate_question: bool,
    pub voice: Voice<'a>,
    /// Written after the question once its round has left the window: the plan of a `plan`
    /// run, which stays in the prompt.
    pub pinned: Option<String>,
}

/// Where the kept window starts after `total` rounds, given the current start and the
/// window size. Returns the new start when a trim is due: when more than `window` rounds
/// would be kept, only the newest `window / 2` (at least one) stay, so trims are rare.
pub fn trim_start(start: usize, total: usize, window: usize) -> Option<usize> {
    let window = window.max(1);
    (total - start.min(total) > window).then(|| total - (window / 2).max(1))
}

/// What the question follows in the first user message of every layout.
const QUESTION: &str = "Question:";

/// The messages for the next request.
pub fn messages(
    system: &str,
    question: &str,
    rounds: &[Round],
    omitted: usize,
    layout: &Layout,
) -> Vec<Message> {
    let mut opening = format!("{QUESTION} {}", question.trim());
    if omitted > 0 {
        opening.push_str(&told::steps_omitted(omitted, layout.voice));
        if let Some(pinned) = &layout.pinned {
            opening.push('\n');
            opening.push_str(pinned);
        }
    }
    let observation = |r: &Round| {
        let mut text = format!("Observation: {}", r.observation);
        if layout.restate_question {
            text.push_str(&told::question_reminder(question, layout.voice));
        }
        text
    };
    let mut out = vec![msg(Role::System, system)];
    match layout.style {
        // The agent resolves `Auto` before laying out a request.
        MessageStyle::Chat | MessageStyle::Auto => {
            out.push(msg(Role::User, &opening));
            for r in rounds {
                out.push(msg(Role::Assistant, &r.reply));
                out.push(msg(Role::User, &observation(r)));
            }
        }
        MessageStyle::Scratchpad => {
            let mut pad = opening;
            if !rounds.is_empty() {
                pad.push('\n');
                pad.push_str(&transcript(rounds, observation));
            }
            out.push(msg(Role::User, &pad));
        }
        MessageStyle::Transcript => {
            out.push(msg(Role::User, &opening));
            if !rounds.is_empty() {
                out.push(msg(Role::Assistant, &transcript(rounds, observation)));
            }
        }
    }
    out
}

/// What every run with this system prompt starts with, up to where the question goes, in
/// every layout: a model engine can read it into its prompt cache before the question is
/// asked, and the first request then evaluates little more than the question.
pub fn opening(system: &str) -> Vec<Message> {
    vec![msg(Role::System, system), msg(Role::User, QUESTION)]
}

/// Ends a request with `text` from the user: added to the last message when that is the
/// user's (chat and scratchpad), so that no template meets two user messages in a row, and
/// as a message of its own after the transcript's assistant message.
pub fn close_with(messages: &mut Vec<Message>, text: &str) {
    match messages.last_mut() {
        Some(last) if last.role == Role::User => {
            last.content.push_str("\n\n");
            last.content.push_str(text);
        }
        _ => messages.push(msg(Role::User, text)),
    }
}

/// Each reply followed by its Observation, one per line.
fn transcript(rounds: &[Round], observation: impl Fn(&Round) -> String) -> String {
    let lines: Vec<String> = rounds
        .iter()
        .map(|r| format!("{}\n{}", r.reply.trim_end(), observation(r)))
        .collect();
    lines.join("\n")
}

fn msg(role: Role, content: &str) -> Message {
    Message {
        role,
        content: content.to_string(),
    }
}

/// The size of a request's messages in [`estimate_tokens`]'s units.
pub fn estimate(messages: &[Message]) -> u32 {
    let tokens: usize = messages.iter().map(|m| estimate_tokens(&m.content)).sum();
    u32::try_from(tokens).unwrap_or(u32::MAX)
}

/// Whether the server read less of the prompt than was sent: it cut the prompt to fit its
/// context window and the model never saw its start (Ollama does this without an error; only
/// `usage.prompt_tokens` shows it). `sent` is the request's [`estimate`], `counted` the
/// server's `prompt_tokens`, `before` the same two of the previous request. Either the server
/// counted under half of what was sent (the estimate is rough, never that rough), or the
/// history grew by 100 tokens or more and the count did not grow: a cut at a fixed size.
pub fn cut_by_server(sent: u32, counted: u32, before: Option<(u32, u32)>) -> bool {
    const MIN_SENT: u32 = 1024;
    const GROWTH: u32 = 100;
    let under_half = sent >= MIN_SENT && counted.saturating_mul(2) < sent;
    let stalled =
        before.is_some_and(|(sent0, counted0)| sent >= sent0 + GROWTH && counted <= counted0);
    under_half || stalled
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(i: usize) -> Round {
        Round {
            reply: format!(
                "Thought: t{i}\nAction: calculator\nAction Input: {{\"expression\": \"{i}\"}}"
            ),
            observation: format!("{i}"),
        }
    }

    fn layout(style: MessageStyle) -> Layout<'static> {
        Layout {
            pinned: None,
            style,
            restate_question: false,
            voice: crate::lang::Lang::En.into(),
        }
    }

    #[test]
    fn trims_in_blocks_not_one_round_at_a_time() {
        // window 6: nothing until a 7th round, then keep the newest 3
        let cases = [
            (0, 6, 6, None),
            (0, 7, 6, Some(4)),
            (4, 9, 6, None),
            (4, 10, 6, None),
            (4, 11, 6, Some(8)),
            (0, 2, 1, Some(1)),
            (0, 0, 0, None),
        ];
        for (start, total, window, want) in cases {
            assert_eq!(
                trim_start(start, total, window),
                want,
                "{start} {total} {window}"
            );
        }
    }

    #[test]
    fn every_layout_starts_with_the_opening() {
        let rounds: Vec<Round> = (0..2).map(round).collect();
        for style in MessageStyle::ALL {
            let opening = opening("S");
            for n in 0..=rounds.len() {
                let sent = messages("S", "Q", &rounds[..n], 0, &layout(style));
                assert_eq!(sent[0], opening[0], "{style:?}");
                assert_eq!(sent[1].role, opening[1].role, "{style:?}");
                assert!(
                    sent[1].content.starts_with(&opening[1].content),
                    "{style:?}"
                );
            }
        }
    }

    #[test]
    fn chat_requests_are_append_only_between_trims() {
        let l = layout(MessageStyle::Chat);
        let rounds: Vec<Round> = (0..4).map(round).collect();
        for n in 1..rounds.len() {
            let before = messages("S", "Q", &rounds[..n], 0, &l);
            let after = messages("S", "Q", &rounds[..n + 1], 0, &l);
            assert_eq!(&after[..before.len()], &before[..]);
        }
    }

    #[test]
    fn scratchpad_grows_one_user_message_by_appending() {
        let l = layout(MessageStyle::Scratchpad);
        let rounds: Vec<Round> = (0..3).map(round).collect();
        let a = messages("S", "Q", &rounds[..1], 0, &l);
        let b = messages("S", "Q", &rounds[..2], 0, &l);
        assert_eq!(a.len(), 2);
        assert_eq!(b.len(), 2);
        assert!(b[1].content.starts_with(&a[1].content));
        assert!(b[1].content.contains("Observation: 1"));
    }

    #[test]
    fn transcript_grows_one_assistant_message_by_appending() {
        let l = layout(MessageStyle::Transcript);
        let rounds: Vec<Round> = (0..3).map(round).collect();
        assert_eq!(messages("S", "Q", &[], 0, &l).len(), 2);
        let a = messages("S", "Q", &rounds[..1], 0, &l);
        let b = messages("S", "Q", &rounds[..2], 0, &l);
        assert_eq!(a.len(), 3);
        assert_eq!(b.len(), 3);
        assert_eq!(b[1].content, "Question: Q");
        assert_eq!(b[2].role, Role::Assistant);
        assert!(b[2].content.starts_with(&a[2].content));
        assert_eq!(
            b[2].content,
            "Thought: t0\nAction: calculator\nAction Input: {\"expression\": \"0\"}\nObservation: 0\n\
             Thought: t1\nAction: calculator\nAction Input: {\"expression\": \"1\"}\nObservation: 1"
        );
    }

    #[test]
    fn restated_question_and_omission_note_appear() {
        let l = Layout {
            pinned: None,
            restate_question: true,
            ..layout(MessageStyle::Chat)
        };
        let m = messages("S", "What is 2+2?", &[round(5)], 3, &l);
        assert!(m[1].content.contains("first 3 steps were omitted"));
        assert!(m[3]
            .content
            .ends_with("(Reminder, the question is: What is 2+2?)"));
    }
}
