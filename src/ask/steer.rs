//! What a constrained reply may call: one tool it is steered to (with the numbers its
//! computation must use and the arguments the question fixes), or an action left out.

use crate::fields::{tagged, units, via_value, Fields};
use serde::Serialize;
use serde_json::{Map, Value};

/// The tool a reply is steered to ([`super::ModelRequest::steer`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Steer {
    pub tool: String,
    pub why: SteerWhy,
    /// Numbers of the question that no call has used and the built-in calculator's expression
    /// must hold (after a fact was found, the computation that uses it).
    #[serde(default, skip_serializing_if = "<[String]>::is_empty")]
    pub uses: Box<[String]>,
    /// The numbers of the question and the tools' results (not a date's or a time's): with
    /// short ones, the only numbers that expression may hold.
    #[serde(default, skip_serializing_if = "<[String]>::is_empty")]
    pub seen: Box<[String]>,
    /// Arguments the question fixes, which the steered call writes as they are (the clock's
    /// `days` for "30 days from today"). Boxed: most requests have none, and every step's
    /// effect carries its request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Box<Map<String, Value>>>,
}

via_value! {
    Steer => steer,
}

fn steer(value: serde_json::Value) -> Result<Steer, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(Steer {
        tool: f.get("tool")?,
        why: f.get("why")?,
        uses: f.or("uses", Box::default())?,
        seen: f.or("seen", Box::default())?,
        args: f.opt("args")?,
    })
}

units! {
    /// Why a reply is steered to a tool; the sentence a reader sees is `crate::sentences::steer`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum SteerWhy {
        /// The first reply: the tool with the strongest evidence in the question.
        Fits,
        /// After a call: the question still needs this tool (a fact, then the computation).
        Next,
        /// The last Thought chose this tool and its Action called another.
        Thought,
    }
}

tagged! {
    /// Why a first reply is steered to no tool ([`super::ModelRequest::unsteered`]); the
    /// sentence a reader sees is `crate::sentences::unsteered`.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
    #[serde(tag = "why", rename_all = "snake_case")]
    pub enum Unsteered in "why" {
        /// No tool's evidence is strong.
        Weak { best: String } = "weak",
        /// Two tools' evidence is as strong.
        Split { tools: [String; 2] } = "split",
    }
}

/// An action left out of a reply's allowed ones ([`super::ModelRequest::avoid`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Avoid {
    pub tool: String,
    pub why: AvoidWhy,
}

units! {
    /// Why an action is left out; the sentence a reader sees is `crate::sentences::avoid`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum AvoidWhy {
        /// The model called the tool again with the same arguments.
        Repeated,
        /// The tool said the input is not the kind it handles.
        WrongTool,
        /// The model's input for the tool ran on to the token limit.
        Runaway,
        /// No final answer before a tool has run (`act_first`).
        ActFirst,
        /// The model's last final answer was not one (a tool's arguments, an unused number).
        NotAnAnswer,
        /// The tool already ran with the arguments the question fixes (the clock counted the
        /// question's day): another call, without them, could only lose what it gave.
        Counted,
    }
}
