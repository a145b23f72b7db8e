//! Answers that give the question back instead of answering it, or answer another question.

use crate::lower::Lower;

use super::{numbers, strings, without_end_mark, without_opening, RunSoFar};
use crate::tools::Role;

/// The answer only gives back the question's words: the question or most of it, or the
/// model's own argument to an earlier call (its search query), and no Observation holds it.
/// Three words or more, or six characters of Chinese, so that a short answer the question
/// offers ("2^11" of "3^7 or 2^11?") still stands.
pub(super) fn repeats_question(answer: &str, run: &RunSoFar) -> bool {
    let words = |text: &str| without_end_mark(text).trim_end_matches(['?', '？']).lower();
    // Under a constraint the answer opens with the grammar's words ("答案是 <the question>").
    let answer = words(without_opening(answer));
    let long = answer.split_whitespace().count() >= 3
        || answer.chars().filter(|c| !c.is_ascii()).count() >= 6;
    if !long || run.observations.iter().any(|o| o.lower().contains(&answer)) {
        return false;
    }
    let question = run.question.lower();
    let most_of_question =
        question.contains(&answer) && answer.chars().count() * 5 >= question.chars().count() * 3;
    let own_argument = run
        .calls
        .iter()
        .flat_map(|c| strings(&c.args))
        .any(|arg| words(arg) == answer);
    // Not asked for the answer, the model's own expression as the answer stands for the call
    // it means (below).
    most_of_question || (run.answer_asked && own_argument)
}

// Recognition data, read in the question, never told.
const OFFERS: &[&str] = &[" or ", "还是", "吗", "是否", "是不是", "有没有"];
const YES_NO: &[&str] = &[
    "is", "are", "am", "was", "were", "do", "does", "did", "can", "could", "will", "would",
    "should", "has", "have", "had", "may",
];
/// Units and currencies an amount may carry, lower-case (an answer of an amount alone).
#[rustfmt::skip]
const UNITS: &[&str] = &[
    "°c", "°f", "c", "f", "k", "%", "km", "m", "cm", "mm", "mi", "kg", "g", "lb", "lbs", "l",
    "ml", "h", "min", "s", "km/h", "mph", "eur", "usd", "cny", "jpy", "gbp", "rmb", "$", "€",
    "¥", "£", "元", "美元", "欧元", "日元", "人民币", "度", "个", "件", "人", "天", "小时", "分钟",
];

/// An amount alone for a question that asks yes or no, after a tool ran: "订单3310送到了吗？"
/// answered "答案是 24.50 EUR" (the order's total, read from the lookup that said it was
/// delivered). Not for a question that offers a choice ("A or B"), and once a run with
/// [`echoes_question`], so an answer the model stands by stands.
pub(super) fn amount_for_yes_no(answer: &str, run: &RunSoFar) -> bool {
    if run.sent_back.question || run.steered || run.last_step || run.calls.is_empty() {
        return false;
    }
    let question = run.question.lower();
    let first = question.split_whitespace().next().unwrap_or_default();
    let chinese = ["吗", "是否", "是不是", "有没有"]
        .iter()
        .any(|o| question.contains(o));
    let choice = [" or ", "还是"].iter().any(|o| question.contains(o));
    if choice || !(chinese || YES_NO.contains(&first)) {
        return false;
    }
    let answer = without_end_mark(without_opening(answer)).lower();
    if numbers(&answer).is_empty() {
        return false;
    }
    // What is left once the numbers are taken out: units and currencies, nothing else.
    let rest: String = (answer.chars())
        .map(|c| {
            if c.is_ascii_digit() || ".,+-".contains(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    rest.split_whitespace().all(|w| UNITS.contains(&w))
}

/// A short answer that only names what the question names, after a tool ran: made to answer,
/// the 0.5B model wrote "The answer is FAISS." for "which company released FAISS?", "答案是
/// MCP 的文档。" for "根据文档，MCP 是哪家公司提出的？" and "The answer is 2077" for the status of
/// order 2077, though it had read the answer. Not for
/// a question that offers its answers (yes or no, "A or B", 吗); once a run ([`echoed_again`]
/// reads the second time).
pub(super) fn echoes_question(answer: &str, run: &RunSoFar) -> bool {
    !run.sent_back.question && !run.last_step && echoes(answer, run)
}

/// An answer that only names what the question names, once more after it was sent back (or at
/// the last step): the last fact a tool found is the run's answer. The 0.5B model's Thought
/// said "the order status is 'processing'" and its answer, twice, "The answer is 2077".
pub(super) fn echoed_again(answer: &str, run: &RunSoFar) -> Option<String> {
    if !(run.sent_back.question || run.last_step) || !echoes(answer, run) {
        return None;
    }
    let past = (run.calls.iter().rev())
        .find(|c| c.succeeded && c.role != Some(Role::Computes) && !c.observation.is_empty())?;
    // The result without the loop's notes after it.
    let mut result = past.observation.clone();
    for note in run.notes {
        result = result.replace(note, "");
    }
    Some(result.trim().to_string()).filter(|r| !r.is_empty())
}

fn echoes(answer: &str, run: &RunSoFar) -> bool {
    if run.steered || run.calls.is_empty() {
        return false;
    }
    let question = run.question.lower();
    let first = question.split_whitespace().next().unwrap_or_default();
    if OFFERS.iter().any(|o| question.contains(o)) || YES_NO.contains(&first) {
        return false;
    }
    let answer = without_end_mark(without_opening(answer)).lower();
    // A number of the question said back ("The answer is 2077" for the status of order 2077)
    // is no answer either, in a run that computed nothing (after a computation, the answer's
    // numbers are `result_missed`'s to read).
    let computed = (run.calls.iter()).any(|c| c.succeeded && c.role == Some(Role::Computes));
    let given = numbers(&question);
    let said = numbers(&answer);
    if !said.is_empty() && (computed || said.iter().any(|n| !given.contains(n))) {
        return false;
    }
    let asked: Vec<&str> = question
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    // A Latin word is the question's when the question has it; Chinese, each character.
    let chinese: Vec<char> = (answer.chars())
        .filter(|c| !c.is_ascii() && c.is_alphanumeric())
        .collect();
    let latin: Vec<&str> = (answer.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    (!chinese.is_empty() || !latin.is_empty())
        && chinese.iter().all(|c| question.contains(*c))
        && latin.iter().all(|w| asked.contains(w))
}
