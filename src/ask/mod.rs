//! What the loop asks the model for, beyond the messages: the request an agent step hands its
//! driver ([`ModelRequest`]): what the reply must be (only the answer, and why; a plan; a
//! summary), the tool it is steered to and the numbers that computation must use, the actions
//! left out, and so the constraint a server is given ([`constraint`]). The client below
//! ([`crate::llm`]) only puts it on the wire.

mod body;
mod constrain;
mod must_answer;
mod steer;
mod uses;

use crate::fields::{via_value, Fields};
use crate::llm::{Constrained, Message};
use crate::tools::ToolFit;
use serde::Serialize;
use serde_json::Value;

pub use body::{chat_body, constraint, in_page_body};
pub use constrain::{actions, react_grammar, react_schema, Thought};
pub use must_answer::{Left, MustAnswer};
pub use steer::{Avoid, AvoidWhy, Steer, SteerWhy, Unsteered};
pub use uses::MAX_USES;

/// The action that ends the loop; always allowed by the constrained modes.
pub const FINAL_ANSWER: &str = "final_answer";

/// What the agent core asks the model for.
// Read back by hand below (a struct literal, so a new field needs its line there).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelRequest {
    pub messages: Vec<Message>,
    pub stop: Vec<String>,
    /// An action (a tool or `final_answer`) the reply may not take, and why: e.g. a call the
    /// model repeated with the same arguments. Small models copy their previous reply, so
    /// only a constrained mode, which leaves the action out of the allowed ones, can break
    /// the loop; plain mode ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoid: Option<Avoid>,
    /// The constraint this request goes out with, as the agent decided it for the server.
    #[serde(default)]
    pub constrained: Constrained,
    /// Constrained modes allow only final_answer in this reply, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_answer: Option<MustAnswer>,
    /// Words the reply's Thought must begin with, under a constraint (plain mode ignores it):
    /// after an Observation, small models copy their previous reply word for word unless
    /// their Thought starts by reading what came back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thought_prefix: Option<String>,
    /// The Thought is exactly `thought_prefix`, and the Action comes next: the model's own
    /// Thought, given back after it ran on to the token limit without an Action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub thought_closed: bool,
    /// Words a final answer must begin with, under a constraint: left free, small models
    /// copy the prompt's placeholder or an argument object there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_prefix: Option<String>,
    /// The reply has no Thought, under a constraint: Act-only
    /// ([`crate::strategy::Strategy::Act`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_thought: bool,
    /// The answer this request asks the model to check before it is taken (the `reflect`
    /// strategy): the step is the self-check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks_answer: Option<String>,
    /// The reply is to be a plan (the `plan` strategy): `Plan:` and numbered steps.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub asks_plan: bool,
    /// The reply is to summarise the run so far (`compress: summary`): `Summary:` and a few
    /// sentences.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub summarizes: bool,
    /// The one tool a constrained reply may call (plain mode ignores it): the tool the
    /// question's evidence points to first, or next after what ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steer: Option<Steer>,
    /// How well each tool fits the question, best first; on the first request only, which
    /// chose from it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fits: Vec<ToolFit>,
    /// Why the first reply is steered to no tool though tools fit: the model chooses. Boxed:
    /// only a first request may have one, and every step's effect carries its request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsteered: Option<Box<Unsteered>>,
    /// Tools a constrained reply may not call: after something was found, a page's tool
    /// that nothing in the question points to (a call of it could only invent its input).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
}

via_value! {
    ModelRequest => model_request,
}

fn model_request(value: Value) -> Result<ModelRequest, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(ModelRequest {
        messages: f.get("messages")?,
        stop: f.get("stop")?,
        avoid: avoid(&mut f)?,
        constrained: f.or("constrained", Default::default())?,
        must_answer: f.opt("must_answer")?,
        thought_prefix: f.opt("thought_prefix")?,
        thought_closed: f.or("thought_closed", false)?,
        answer_prefix: f.opt("answer_prefix")?,
        no_thought: f.or("no_thought", false)?,
        checks_answer: f.opt("checks_answer")?,
        asks_plan: f.or("asks_plan", false)?,
        summarizes: f.or("summarizes", false)?,
        steer: f.opt("steer")?,
        fits: f.or("fits", Vec::new())?,
        unsteered: f.opt("unsteered")?,
        left_out: f.or("left_out", Vec::new())?,
    })
}

/// `avoid`, or the `avoid_action` name alone that traces before it wrote: a left-out
/// `final_answer` then followed a non-answer, any other action a repeated call.
fn avoid(f: &mut Fields) -> Result<Option<Avoid>, serde_json::Error> {
    if let Some(value) = f.opt::<Value>("avoid")? {
        let mut a = Fields::object(value)?;
        return Ok(Some(Avoid {
            tool: a.get("tool")?,
            why: a.get("why")?,
        }));
    }
    Ok(f.opt::<String>("avoid_action")?.map(|tool| {
        let why = if tool == FINAL_ANSWER {
            AvoidWhy::NotAnAnswer
        } else {
            AvoidWhy::Repeated
        };
        Avoid { tool, why }
    }))
}

#[cfg(test)]
mod tests;
