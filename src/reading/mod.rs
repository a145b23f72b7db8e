//! What a parsed reply means in its run. The same words can be an answer, a call or a mistake
//! depending on what came before: `Action Input: 42` alone completes a final answer that was
//! just sent back empty; `{"expression": "2+2"}` as a final answer is the call the model meant,
//! or the result of that call when it already ran. Pure: the agent passes what it knows.

mod numbers;

use crate::lang::Lang;
use crate::lower::Lower;
use serde_json::Value;

use crate::parse::{self, FormatError, ParseResult, Parsed, Repair};
use crate::prompt::{self, FewShot};
mod echo;
mod names;
mod sent_back;
pub use crate::tools::fit::mentions_number;
use crate::tools::{calculator, HostContext, Registry, Role};
use echo::{amount_for_yes_no, echoed_again, echoes_question, repeats_question};
use names::unused_name;
pub use numbers::{facts, numbers, operands};
use numbers::{result_missed, unused_number};
pub use sent_back::SentBack;

/// A call made earlier in the run and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct PastCall {
    pub tool: String,
    /// The tool's declared role ([`Role::Computes`]: the rules on computations apply).
    pub role: Option<Role>,
    pub args: Value,
    pub observation: String,
    pub succeeded: bool,
    /// Times it was asked for again with the same arguments.
    pub repeats: usize,
}

/// The calls and final answers of the examples in the system prompt, read with the parser.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Examples {
    pub calls: Vec<(String, Value)>,
    pub answers: Vec<String>,
}

impl Examples {
    pub fn of(shots: &[FewShot]) -> Examples {
        let mut out = Examples::default();
        // Each reply of a transcript ends where an Observation begins.
        let replies = shots
            .iter()
            .flat_map(|s| s.transcript.split("\nObservation:"));
        for reply in replies {
            match parse::parse_reply(reply).parsed {
                Parsed::Action { tool, input } => out.calls.push((tool, input)),
                Parsed::Final { answer } => out.answers.push(answer.trim().to_string()),
                _ => {}
            }
        }
        out
    }

    /// The call or answer is an example's, and neither the question nor an Observation
    /// holds it: the model copied it instead of working on the question.
    fn copied(&self, parsed: &Parsed, run: &RunSoFar) -> bool {
        let held = |text: &str| {
            run.question.contains(text) || run.observations.iter().any(|o| o.contains(text))
        };
        match parsed {
            Parsed::Action { tool, input } => self
                .calls
                .iter()
                .any(|(t, i)| t == tool && i == input && !strings(input).iter().all(|s| held(s))),
            Parsed::Final { answer } => {
                let answer = without_end_mark(answer);
                self.answers.iter().any(|a| without_end_mark(a) == answer) && !held(answer)
            }
            _ => false,
        }
    }
}

/// The tool a call's Thought names as its choice when the Action calls another: the Thought
/// names one tool that has not run, and not the one called. A tool the run already called is
/// no choice (a Thought that reads an error names its tool), nor is a call the request allowed
/// alone, nor one a person wrote.
fn chosen_elsewhere(parsed: &ParseResult, run: &RunSoFar) -> Option<String> {
    let Parsed::Action { tool, .. } = &parsed.parsed else {
        return None;
    };
    if run.steered || run.allowed_only.is_some() {
        return None;
    }
    let thought = parsed.thought.as_deref()?;
    let names = run.registry.specs();
    let named: Vec<&str> = (names.iter().map(|s| s.name.as_str()))
        .filter(|name| names_tool(thought, name))
        .collect();
    match named[..] {
        [chosen] if chosen != tool && !run.calls.iter().any(|c| c.tool == chosen) => names
            .iter()
            .any(|s| &s.name == tool)
            .then(|| chosen.to_string()),
        _ => None,
    }
}

/// Whether `text` writes the tool's name as a word of its own (`weather`, not `weathers` or
/// `get_weather`).
fn names_tool(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(part)
            && !text[at + name.len()..].chars().next().is_some_and(part)
    })
}

/// Completes the listed values the model cut short ([`Registry::completed_value`]); whether
/// any was.
fn complete_values(tool: &str, input: &mut Value, run: &RunSoFar) -> bool {
    let Value::Object(args) = input else {
        return false;
    };
    let mut completed = false;
    for (param, value) in args.iter_mut() {
        let Some(given) = value.as_str() else {
            continue;
        };
        if let Some(full) = (run.registry).completed_value(tool, param, given, run.question) {
            *value = Value::String(full);
            completed = true;
        }
    }
    completed
}

/// Gives two parameters that list the same values, and were given the same one, the two
/// values the question names ([`Registry::ordered_pair`]); whether it did.
fn order_pair(tool: &str, input: &mut Value, run: &RunSoFar) -> bool {
    let Value::Object(args) = input else {
        return false;
    };
    let Some(pair) = run.registry.ordered_pair(tool, args, run.question) else {
        return false;
    };
    for (param, value) in pair {
        args.insert(param, Value::String(value));
    }
    true
}

/// Gives each parameter that takes a place the question's place
/// ([`Registry::question_place`]); whether any was given one.
fn name_places(tool: &str, input: &mut Value, reply: &str, run: &RunSoFar) -> bool {
    let Value::Object(args) = input else {
        return false;
    };
    let mut named = false;
    for (param, value) in args.iter_mut() {
        let Some(given) = value.as_str() else {
            continue;
        };
        let looked_up: Vec<&str> = (run.calls.iter())
            .filter(|c| c.succeeded && c.tool == tool)
            .filter_map(|c| c.args.get(param)?.as_str())
            .collect();
        // Written beside the call too: in the Thought, or in what a tool gave.
        let lower = given.lower();
        let reasoned = reply.lower().matches(&lower).count() > 1
            || (run.observations.iter()).any(|o| o.lower().contains(&lower));
        let place =
            (run.registry).question_place(tool, param, given, run.question, &looked_up, reasoned);
        if let Some(place) = place {
            *value = Value::String(place);
            named = true;
        }
    }
    named
}

/// The string values in a call's arguments.
fn strings(input: &Value) -> Vec<&str> {
    match input {
        Value::Object(map) => map.values().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// What the run has seen before this reply.
pub struct RunSoFar<'a> {
    pub question: &'a str,
    pub registry: &'a Registry,
    pub calls: &'a [PastCall],
    /// Every Observation text the model has been sent.
    pub observations: &'a [&'a str],
    /// What the loop itself wrote into those Observations (notes after results, feedback).
    pub notes: &'a [&'a str],
    /// The previous reply was a final_answer with no input, sent back as such.
    pub after_empty_answer: bool,
    /// The request asked only for the answer, in words ([`crate::prompt::ask_for_answer`]).
    pub answer_asked: bool,
    /// No step is left after this one: a call could not be answered.
    pub last_step: bool,
    /// What a final answer was already sent back for (once a run each).
    pub sent_back: SentBack,
    /// A person edited this reply or an earlier step: the run's course is theirs, so the
    /// checks of a model's own course (a number of the question left unused) stay silent.
    pub steered: bool,
    /// The one tool the request allowed (a constraint's steer): its Action was not the
    /// model's choice.
    pub allowed_only: Option<&'a str>,
    pub examples: &'a Examples,
}

/// `parsed` (the parse of `reply` on its own) read in the context of the run.
pub fn in_context(parsed: ParseResult, reply: &str, run: &RunSoFar) -> ParseResult {
    let mut parsed = read(parsed, reply, run);
    if let Parsed::Action { tool, input } = &mut parsed.parsed {
        if !run.steered && complete_values(tool, input, run) {
            parsed.repairs.push(Repair::ListedValueCompleted);
        }
        if !run.steered && order_pair(tool, input, run) {
            parsed.repairs.push(Repair::ListedPairOrdered);
        }
        if !run.steered && name_places(tool, input, reply, run) {
            parsed.repairs.push(Repair::PlaceNamed);
        }
    }
    if let Parsed::Final { answer } = &mut parsed.parsed {
        if let Some(kept) = without_copied_label(answer) {
            *answer = kept;
            parsed.repairs.push(Repair::CopiedLabelRemoved);
        }
    }
    if let Parsed::Final { answer } = &parsed.parsed {
        if let Some(number) = unused_number(answer, run) {
            parsed.parsed = Parsed::Error {
                error: FormatError::NumberUnused { number },
            };
        } else if let Some((name, tool, param)) = unused_name(answer, run) {
            parsed.parsed = Parsed::Error {
                error: FormatError::NameUnused { name, tool, param },
            };
        } else if let Some(result) = result_missed(answer, run) {
            parsed.parsed = Parsed::Error {
                error: FormatError::ResultMissed { result },
            };
        }
    }
    parsed
}

fn read(mut parsed: ParseResult, reply: &str, run: &RunSoFar) -> ParseResult {
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
    // Asked only for the answer, a model may give it in plain sentences.
    if run.answer_asked
        && parsed.parsed
            == (Parsed::Error {
                error: FormatError::NoAction,
            })
    {
        parsed.parsed = Parsed::Final {
            answer: prose_answer(reply),
        };
        parsed.repairs.push(Repair::ProseAsAnswer);
    }
    if let Parsed::Final { answer } = &parsed.parsed {
        if repeats_question(answer, run) || echoes_question(answer, run) {
            parsed.parsed = Parsed::Error {
                error: FormatError::QuestionRepeated,
            };
            return parsed;
        }
        if let Some(result) = echoed_again(answer, run) {
            parsed.parsed = Parsed::Final { answer: result };
            parsed.repairs.push(Repair::ResultAsAnswer);
            return parsed;
        }
        if amount_for_yes_no(answer, run) {
            parsed.parsed = Parsed::Error {
                error: FormatError::YesNoAsked,
            };
            return parsed;
        }
        if let Some(label) = format_label(answer) {
            parsed.parsed = Parsed::Error {
                error: FormatError::LabelAsAnswer { label },
            };
            return parsed;
        }
        if copies_note(answer, run) {
            parsed.parsed = Parsed::Error {
                error: FormatError::NoteCopied,
            };
            return parsed;
        }
    }
    if let Some(chosen) = chosen_elsewhere(&parsed, run) {
        let Parsed::Action { tool, .. } = &parsed.parsed else {
            return parsed;
        };
        parsed.parsed = Parsed::Error {
            error: FormatError::ActionNotThought {
                chosen,
                action: tool.clone(),
            },
        };
        return parsed;
    }
    // The 0.5B model answered questions about the documents with the example's "(7 + 5) * 3
    // is 36." and, told so, computed the example's expression.
    if run.examples.copied(&parsed.parsed, run) {
        parsed.parsed = Parsed::Error {
            error: FormatError::ExampleCopied,
        };
        return parsed;
    }
    let Parsed::Final { answer } = &parsed.parsed else {
        return parsed;
    };
    let (args, calculator) = match arguments_in(reply, &parsed) {
        Some(args) => (args, None),
        None => match expression_in(answer, run) {
            Some((tool, args)) => (args, Some(tool)),
            None => return parsed,
        },
    };
    let expression = calculator.is_some();
    if let Some(tool) = calculator.filter(|_| run.last_step) {
        // No step is left for the call and its answer: the expression's value is the answer.
        let value = run.registry.dispatch(&tool, &args).ok().and_then(|call| {
            run.registry
                .run_builtin(&call, &HostContext::default(), Lang::En)
                .ok()
        });
        if let Some(value) = value {
            parsed.parsed = Parsed::Final { answer: value };
            parsed.repairs.push(Repair::ExpressionEvaluated);
        }
        return parsed;
    }
    match arguments_as_answer(args, answer, run) {
        Some(ArgsAnswer::Call { tool, input }) => {
            parsed.parsed = Parsed::Action { tool, input };
            parsed.repairs.retain(|r| *r != Repair::AnswerUnwrapped);
            parsed.repairs.push(if expression {
                Repair::ExpressionRunAsCall
            } else {
                Repair::ArgumentsRunAsCall
            });
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

/// The JSON object a final answer was written as, e.g. `{"expression": "sqrt(2)"}`.
fn arguments_in(reply: &str, parsed: &ParseResult) -> Option<Value> {
    let span = parsed.spans.input.or(parsed.spans.answer)?;
    let json = reply.get(span.start..span.end)?;
    match serde_json::from_str(json) {
        Ok(args @ Value::Object(_)) => Some(args),
        _ => None,
    }
}

/// A final answer that is an arithmetic expression and not its value (`The answer is 2^13 -
/// 3^7`), as the calculator's name and arguments: under the JSON schema the 0.5B model wrote there
/// what it should have sent to the calculator. Only with the built-in calculator, and only
/// for an expression with an operator that a date or a range does not use (`*`, `/`, `+`,
/// `^`) or a function call: `2025-03-14` and `1990-2000` stand as answers.
fn expression_in(answer: &str, run: &RunSoFar) -> Option<(String, Value)> {
    let calculator = run
        .registry
        .specs()
        .into_iter()
        .find(|spec| spec.role == Some(Role::Computes))?;
    let mut text = answer.trim();
    for lang in [Lang::En, Lang::Zh] {
        let opening = prompt::answer_opening(lang);
        if let Some(rest) = text.strip_prefix(opening) {
            text = rest.trim_start();
        }
    }
    let text = without_end_mark(text.trim_start_matches(['=', ':', '：']).trim());
    let mut rest = text.lower();
    let mut called = false;
    for name in calculator::names() {
        called |= rest.contains(&format!("{name}("));
        rest = rest.replace(name, " ");
    }
    let arithmetic = rest.chars().all(|c| "0123456789 .,+-*/%^()×÷".contains(c));
    let operator = called || rest.contains(['*', '/', '+', '^', '×', '÷']);
    let digits = rest.chars().any(|c| c.is_ascii_digit());
    let (param, _) = calculator.params().into_iter().next()?;
    (arithmetic && operator && digits)
        .then(|| (calculator.name.clone(), serde_json::json!({ param: text })))
}

/// What to make of a final answer that is really a tool's arguments, e.g.
/// `{"expression": "sqrt(2)"}`: small models pick final_answer but write the call they
/// meant, or point back at a call they made. `None` when the answer stands as it is, e.g.
/// `{"expression": "7006652"}` after an Observation showed 7006652.
fn arguments_as_answer(args: Value, answer: &str, run: &RunSoFar) -> Option<ArgsAnswer> {
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
    // model meant. Built-in tools are pure (the clock aside, which reads no text).
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

/// The answer in a reply of plain sentences (not empty: that is another error): its first
/// paragraph, as small models go on with notes or a second answer after a blank line.
fn prose_answer(reply: &str) -> String {
    let text = reply.trim();
    text.split("\n\n").next().unwrap_or(text).trim().to_string()
}

/// A sentence without its surrounding space and final full stop ("等于 36。" and "等于 36").
fn without_end_mark(text: &str) -> &str {
    text.trim()
        .trim_end_matches(['.', '。', '!', '！'])
        .trim_end()
}

/// The answer is words of a note the loop wrote, which neither the question nor a tool's
/// result holds. Four words or more, or eight characters of Chinese, so that a short answer
/// that a note happens to hold ("calculator") still stands.
fn copies_note(answer: &str, run: &RunSoFar) -> bool {
    let answer =
        without_end_mark(without_opening(answer).trim_matches(['(', ')', '（', '）'])).lower();
    let long = answer.split_whitespace().count() >= 4
        || answer.chars().filter(|c| !c.is_ascii()).count() >= 8;
    let notes: Vec<String> = run.notes.iter().map(|n| n.lower()).collect();
    // What the tools gave: each Observation without the notes the loop added to it.
    let in_result = run.observations.iter().any(|o| {
        let result = notes.iter().fold(o.lower(), |o, n| o.replace(n, ""));
        result.contains(&answer)
    });
    long && notes.iter().any(|n| n.contains(&answer))
        && !run.question.lower().contains(&answer)
        && !in_result
}

/// The word of the format a final answer is, and nothing else ("Observation.", "the
/// Observation", 观察结果), as written.
fn format_label(answer: &str) -> Option<String> {
    const LABELS: &[&str] = &[
        "observation",
        "observations",
        "the observation",
        "the observation above",
        "thought",
        "action",
        "action input",
        "final answer",
        "final_answer",
        "the result",
        "result",
        "观察",
        "观察结果",
        "结果",
        "答案",
    ];
    let text = without_end_mark(without_opening(answer).trim_matches(['"', '\'', '“', '”']));
    LABELS
        .contains(&text.trim().lower().as_str())
        .then(|| text.trim().to_string())
}

/// The answer after the opening a constrained reply starts it with ("The answer is", "答案是").
fn without_opening(answer: &str) -> &str {
    let mut answer = answer.trim_start();
    for lang in [Lang::En, Lang::Zh] {
        answer = answer
            .strip_prefix(prompt::answer_opening(lang))
            .unwrap_or(answer)
            .trim_start();
    }
    answer
}

/// The answer without a protocol label it opens with, after the answer's opening: the 0.5B
/// model wrote `The answer is "Observation: Friday, 14 March 2025 …"`, copying the
/// Observation, label, quotes and all. `None` when there is no such label.
fn without_copied_label(answer: &str) -> Option<String> {
    const LABELS: [&str; 5] = [
        "Observation",
        "Thought",
        "Action Input",
        "Action",
        "Final Answer",
    ];
    let mut opening = "";
    let mut rest = answer.trim_start();
    for lang in [Lang::En, Lang::Zh] {
        let words = prompt::answer_opening(lang);
        if let Some(after) = rest.strip_prefix(words) {
            opening = words;
            rest = after.trim_start();
        }
    }
    let unquoted = rest.trim_start_matches(['"', '\'', '“', '‘', '「']);
    let quoted = unquoted.len() < rest.len();
    let label = LABELS.iter().find(|l| {
        unquoted
            .get(..l.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(l))
            && unquoted[l.len()..].starts_with([':', '：'])
    })?;
    let mut kept = unquoted[label.len()..]
        .trim_start_matches([':', '：'])
        .trim();
    if quoted {
        kept = kept
            .trim_end_matches(['"', '\'', '”', '’', '」'])
            .trim_end();
    }
    if kept.is_empty() {
        return None;
    }
    Some(match opening {
        "" => kept.to_string(),
        // Chinese runs on without a space ("答案是5") as often as not; one reads either way.
        opening => format!("{opening} {kept}"),
    })
}
