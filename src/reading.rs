//! What a parsed reply means in its run. The same words can be an answer, a call or a mistake
//! depending on what came before: `Action Input: 42` alone completes a final answer that was
//! just sent back empty; `{"expression": "2+2"}` as a final answer is the call the model meant,
//! or the result of that call when it already ran. Pure: the agent passes what it knows.

use serde_json::Value;

use crate::parse::{self, FormatError, ParseResult, Parsed, Repair};
use crate::prompt::Lang;
use crate::tools::{HostContext, Registry};

/// A call made earlier in the run and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct PastCall {
    pub tool: String,
    pub args: Value,
    pub observation: String,
    pub succeeded: bool,
    /// Times it was asked for again with the same arguments.
    pub repeats: usize,
}

/// What the run has seen before this reply.
pub struct RunSoFar<'a> {
    pub registry: &'a Registry,
    pub calls: &'a [PastCall],
    /// Every Observation text the model has been sent.
    pub observations: &'a [&'a str],
    /// The previous reply was a final_answer with no input, sent back as such.
    pub after_empty_answer: bool,
    /// The final answers of the worked examples in the system prompt.
    pub example_answers: &'a [String],
}

/// `parsed` (the parse of `reply` on its own) read in the context of the run.
pub fn in_context(mut parsed: ParseResult, reply: &str, run: &RunSoFar) -> ParseResult {
    // Small models write final_answer, stop as if waiting for an Observation, and give the
    // answer alone once told it was empty.
    if run.after_empty_answer
        && parsed.parsed
            == (Parsed::Error {
                error: FormatError::InputWithoutAction,
            })
    {
        parsed = parse::parse_reply_after_final_answer(reply);
    }
    let Parsed::Final { answer } = &parsed.parsed else {
        return parsed;
    };
    // Small models copy an example's answer ("(7 + 5) * 3 is 36." to a question about the
    // documents); an answer an Observation showed stands.
    let copied = run.example_answers.iter().any(|e| e == answer.trim());
    if copied && !run.observations.iter().any(|o| o.contains(answer.trim())) {
        parsed.parsed = Parsed::Error {
            error: FormatError::ExampleAnswer,
        };
        return parsed;
    }
    match arguments_as_answer(reply, &parsed, answer, run) {
        Some(ArgsAnswer::Call { tool, input }) => {
            parsed.parsed = Parsed::Action { tool, input };
            parsed.repairs.retain(|r| *r != Repair::AnswerUnwrapped);
            parsed.repairs.push(Repair::ArgumentsRunAsCall);
        }
        Some(ArgsAnswer::NotRunnable(tool)) => {
            parsed.parsed = Parsed::Error {
                error: FormatError::ArgumentsAsAnswer { tool },
            };
        }
        Some(ArgsAnswer::EarlierResult(answer)) => {
            parsed.parsed = Parsed::Final { answer };
            parsed.repairs.retain(|r| *r != Repair::AnswerUnwrapped);
            parsed.repairs.push(Repair::AnswerFromEarlierCall);
        }
        None => {}
    }
    parsed
}

/// A final answer that holds a tool's arguments.
enum ArgsAnswer {
    /// The arguments of a call that succeeded earlier: its result is the answer.
    EarlierResult(String),
    /// Arguments the tool can run and no call has answered: the call the model meant.
    Call { tool: String, input: Value },
    /// Arguments the tool cannot run: neither an answer nor a call.
    NotRunnable(String),
}

/// What to make of a final answer that is really a tool's arguments, e.g.
/// `{"expression": "sqrt(2)"}`: small models pick final_answer but write the call they
/// meant, or point back at a call they made. `None` when the answer stands as it is, e.g.
/// `{"expression": "7006652"}` after an Observation showed 7006652.
fn arguments_as_answer(
    reply: &str,
    parsed: &ParseResult,
    answer: &str,
    run: &RunSoFar,
) -> Option<ArgsAnswer> {
    let span = parsed.spans.input.or(parsed.spans.answer)?;
    let json = reply.get(span.start..span.end)?;
    let Ok(args @ Value::Object(_)) = serde_json::from_str(json) else {
        return None;
    };
    let specs = run.registry.specs();
    let tool = specs.iter().find(|spec| {
        let params = &spec.parameters["properties"];
        args.as_object()
            .is_some_and(|a| a.keys().any(|k| params.get(k).is_some()))
    })?;
    if run.observations.iter().any(|o| o.contains(answer)) {
        return None;
    }
    let not_runnable = || Some(ArgsAnswer::NotRunnable(tool.name.clone()));
    let Ok(call) = run.registry.dispatch(&tool.name, &args) else {
        return not_runnable();
    };
    let earlier = run
        .calls
        .iter()
        .find(|p| p.succeeded && p.tool == call.tool && p.args == call.args);
    if let Some(past) = earlier {
        return Some(ArgsAnswer::EarlierResult(past.observation.clone()));
    }
    // The bench showed that taking arguments the tool cannot run (`{"query": "year"}`) as
    // the answer accepts mostly wrong answers; arguments it can run are the call the
    // model meant. Built-in tools are pure (the clock aside, which takes no arguments).
    let runs = call.builtin.is_none()
        || run
            .registry
            .run_builtin(&call, &HostContext::default(), Lang::En)
            .is_ok();
    if !runs {
        return not_runnable();
    }
    Some(ArgsAnswer::Call {
        tool: call.tool,
        input: call.args,
    })
}
