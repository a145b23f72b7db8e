//! The demo model: a deterministic script, not a language model.
//!
//! It lets the page work offline from the first second and shows the loop doing real work:
//! it really calls the calculator, search_docs and current_time and answers from their
//! observations. Its arithmetic replies are deliberately messy (a capitalised tool name,
//! single quotes, an `expr` key, a trailing comma) so learners see the parser repair them,
//! and a Chinese arithmetic question starts with a reply that has no Action at all, so
//! learners see format feedback correct the model.

use crate::ask::ModelRequest;
use crate::lang::Lang;
use crate::llm::Role;
use crate::lower::Lower;
use crate::parse::{parse_reply, Parsed};

/// Questions the demo model is scripted for, each in its language; the page offers those of
/// its language as examples.
pub const QUESTIONS: [(Lang, &str); 6] = [
    (Lang::En, "What is 23 * 17 + 4?"),
    (Lang::En, "What is RAG?"),
    (Lang::En, "What time is it now?"),
    (Lang::Zh, "计算 (2^10 - 24) / 8 的结果"),
    (Lang::Zh, "什么是模型上下文协议？"),
    (Lang::Zh, "现在几点？"),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    Calculate,
    Time,
    Search,
}

/// The pieces the demo model "streams" a reply in: four characters each, so the typing can be
/// seen offline.
pub fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let end = rest.char_indices().nth(4).map_or(rest.len(), |(i, _)| i);
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        (!piece.is_empty()).then_some(piece)
    })
}

/// The demo model's reply to a request, in the format its system prompt asks for: ReAct,
/// Act-only (no Thought line) or chain of thought (no tools: it reasons and answers at once);
/// asked to check its answer, it keeps it.
pub fn reply(request: &ModelRequest) -> String {
    let system = request
        .messages
        .iter()
        .find(|m| m.role == Role::System)
        .map_or("", |m| m.content.as_str());
    if system.contains("There are no tools") || system.contains("没有可用的工具") {
        return without_tools(request);
    }
    if request.asks_plan {
        return plan(request);
    }
    if request.checks_answer.is_some() {
        // The self-check: its answer came from the last Observation, so it stands.
        let thought = if is_zh(&question_of(request)) {
            "答案与 Observation 一致。"
        } else {
            "The answer matches the Observation."
        };
        return format!("Thought: {thought}\nAction: final_answer\nAction Input: OK");
    }
    let text = react_reply(request);
    if system.contains("Thought:") {
        text
    } else {
        // Act-only: the same moves, without the reasoning between them.
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("Thought:"))
            .collect();
        lines.join("\n")
    }
}

/// Chain of thought: the question worked out in the Thought, then answered, with no tool.
fn without_tools(request: &ModelRequest) -> String {
    let question = question_of(request);
    let zh = is_zh(&question);
    let (thought, answer) = match find_expression(&question) {
        Some(expr) => {
            let value = crate::tools::calculator::evaluate(&expr)
                .map(crate::tools::calculator::format_number)
                .unwrap_or_else(|_| "?".into());
            if zh {
                (
                    format!("我一步一步地算 {expr}，得到 {value}。"),
                    format!("结果是 {value}。"),
                )
            } else {
                (
                    format!("I work out {expr} step by step and get {value}."),
                    format!("The result is {value}."),
                )
            }
        }
        None if zh => (
            "没有工具，我只能凭记忆回答。".to_string(),
            "没有工具，我无法查到这个。".to_string(),
        ),
        None => (
            "Without tools I can only answer from memory.".to_string(),
            "Without a tool I cannot look this up.".to_string(),
        ),
    };
    format!("Thought: {thought}\nAction: final_answer\nAction Input: {answer}")
}

/// The run's messages after the system prompt, as one text.
fn conversation(request: &ModelRequest) -> String {
    request
        .messages
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A two-step plan: the tool the question needs, then the answer from its result.
fn plan(request: &ModelRequest) -> String {
    let question = question_of(request);
    let zh = is_zh(&question);
    let tool = if find_expression(&question).is_some() {
        "calculator"
    } else if asks_time(&question) {
        "current_time"
    } else {
        "search_docs"
    };
    if zh {
        format!("Plan:\n1. 用 {tool} 得到需要的信息。\n2. 根据结果回答问题。")
    } else {
        format!("Plan:\n1. Use {tool} to get what the question needs.\n2. Answer from its result.")
    }
}

fn question_of(request: &ModelRequest) -> String {
    conversation(request)
        .split_once("Question:")
        .map_or("", |(_, rest)| rest.lines().next().unwrap_or(""))
        .trim()
        .to_string()
}

fn is_zh(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// The run's Observations, each with whether it is a tool's result: the reply before it
/// called a tool. Any other Observation is the loop's feedback (on a format mistake, an answer
/// sent back, a plan), which a model reads but never answers with.
fn observations(conversation: &str) -> Vec<(bool, &str)> {
    let pieces: Vec<&str> = conversation.split("Observation: ").collect();
    pieces
        .windows(2)
        .map(|pair| {
            let called = matches!(parse_reply(pair[0]).parsed, Parsed::Action { .. });
            (called, observation_text(pair[1]))
        })
        .collect()
}

/// An Observation without the reply after it (in a transcript, the run is one text) and
/// without the loop's note in parentheses.
fn observation_text(piece: &str) -> &str {
    let end = ["\nThought:", "\nAction:", "\n("]
        .iter()
        .filter_map(|mark| piece.find(mark))
        .min()
        .unwrap_or(piece.len());
    piece[..end].trim()
}

fn react_reply(request: &ModelRequest) -> String {
    let conversation = conversation(request);
    let question = question_of(request);
    let observations = observations(&conversation);
    let results: Vec<&str> = observations
        .iter()
        .filter_map(|&(called, text)| called.then_some(text))
        .collect();
    let zh = is_zh(&question);
    let expression = find_expression(&question);
    let plan = match &expression {
        Some(_) => Plan::Calculate,
        None if asks_time(&question) => Plan::Time,
        None => Plan::Search,
    };
    // After a tool's result (a person may have edited the call), the answer comes from it.
    if let Some(last) = results.last() {
        return final_answer(plan, zh, last);
    }
    // The Chinese arithmetic script spends its first step on a format mistake.
    let mistake = plan == Plan::Calculate && zh;
    match plan {
        Plan::Calculate => {
            let expr = expression.unwrap_or_default();
            if mistake && observations.is_empty() {
                format!("我需要先算出 {expr} 的值，然后再回答。")
            } else if mistake {
                format!(
                    "Thought: 我应该按格式调用计算器。\nAction: calculator\nAction Input: {}",
                    crate::fields::json_text(&serde_json::json!({ "expression": expr }))
                )
            } else {
                format!(
                    "Thought: I should use the calculator for {expr}.\nAction: Calculator\nAction Input: {{'expr': '{expr}',}}"
                )
            }
        }
        Plan::Time => {
            let thought = if zh {
                "我需要查询当前时间。"
            } else {
                "I need the current time."
            };
            format!("Thought: {thought}\nAction: current_time\nAction Input: {{}}")
        }
        Plan::Search => {
            let thought = if zh {
                "我应该在文档中搜索。"
            } else {
                "I should search the documents."
            };
            format!(
                "Thought: {thought}\nAction: search_docs\nAction Input: {}",
                crate::fields::json_text(&serde_json::json!({ "query": question }))
            )
        }
    }
}

fn final_answer(plan: Plan, zh: bool, observation: &str) -> String {
    let answer = match (plan, zh) {
        (Plan::Calculate, false) => format!("The result is {observation}."),
        (Plan::Calculate, true) => format!("结果是 {observation}。"),
        (Plan::Time, false) => format!("It is now {observation}."),
        (Plan::Time, true) => format!("现在是 {observation}。"),
        (Plan::Search, _) => first_result(observation),
    };
    let thought = if zh {
        "我现在知道最终答案了。"
    } else {
        "I now know the final answer."
    };
    format!("Thought: {thought}\nAction: final_answer\nAction Input: {answer}")
}

/// The text of the first search hit, without its "[1] Title:" label.
fn first_result(observation: &str) -> String {
    let first = observation.lines().next().unwrap_or(observation);
    let text = match first.split_once("] ") {
        Some((_, rest)) => rest.split_once(": ").map_or(rest, |(_, body)| body),
        None => first,
    };
    text.trim().to_string()
}

fn asks_time(question: &str) -> bool {
    let q = question.lower();
    ["time", "date", "today", "时间", "几点", "日期", "今天"]
        .iter()
        .any(|w| q.contains(w))
}

/// The longest arithmetic-looking part of the question that has an operator in it.
fn find_expression(question: &str) -> Option<String> {
    arithmetic_spans(question)
        .into_iter()
        .map(|m| m.trim().to_string())
        .filter(|s| s.chars().any(|c| "+-*/^%(".contains(c)))
        .max_by_key(|s| s.len())
}

/// The non-overlapping matches, left to right, of the regular expression
/// `(?:sqrt|abs|round|min|max)?\(?[0-9][0-9 +\-*/^%().]*[0-9)]`, written out by hand: a
/// regex engine for this one pattern was about 45 KB of the wasm module. Every byte the pattern
/// can match is ASCII, so scanning bytes never splits a character.
fn arithmetic_spans(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        match arithmetic_at(bytes, start) {
            Some(end) => {
                spans.push(&text[start..end]);
                start = end;
            }
            None => start += 1,
        }
    }
    spans
}

/// The end of the match that starts at `start`, if one does. The optional parts are tried
/// taken first, as a backtracking regex would, but each alternative needs a different next
/// byte, so the first that fits is the only one.
fn arithmetic_at(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start;
    if let Some(name) = ["sqrt", "abs", "round", "min", "max"]
        .iter()
        .find(|name| bytes[at..].starts_with(name.as_bytes()))
    {
        at += name.len();
    }
    if bytes.get(at) == Some(&b'(') {
        at += 1;
    }
    if !bytes.get(at)?.is_ascii_digit() {
        return None;
    }
    // The greedy `[...]*` runs as far as it can, then gives back to the last `[0-9)]`.
    let mut end = None;
    for (i, &b) in bytes.iter().enumerate().skip(at + 1) {
        if !(b.is_ascii_digit() || b" +-*/^%().".contains(&b)) {
            break;
        }
        if b.is_ascii_digit() || b == b')' {
            end = Some(i + 1);
        }
    }
    end
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_reply_streams_in_pieces_of_four_characters() {
        let pieces: Vec<&str> = super::pieces("Thought: 想一想😀").collect();
        assert_eq!(pieces, ["Thou", "ght:", " 想一想", "😀"]);
        assert_eq!(super::pieces("").count(), 0);
    }

    use super::*;

    #[test]
    fn finds_the_arithmetic_in_a_question() {
        let cases = [
            ("What is 23 * 17 + 4?", Some("23 * 17 + 4")),
            ("计算 (2^10 - 24) / 8 的结果", Some("(2^10 - 24) / 8")),
            ("What is sqrt(16) + 1?", Some("sqrt(16) + 1")),
            ("What is RAG?", None),
            ("In 2024 what happened?", None),
        ];
        for (q, want) in cases {
            assert_eq!(find_expression(q).as_deref(), want, "{q}");
        }
    }

    /// The hand-written matcher agrees with the regular expression it replaces.
    #[test]
    fn arithmetic_spans_match_the_regex() {
        let regex =
            regex_lite::Regex::new(r"(?:sqrt|abs|round|min|max)?\(?[0-9][0-9 +\-*/^%().]*[0-9)]")
                .unwrap();
        let pieces = [
            "1", "23", "(", ")", " ", "+", "-", "*", "/", "^", "%", ".", "x", "sqrt", "abs",
            "round", "min", "max", "ma", "sq", "计", "😀", "?", ",", "e", "\n",
        ];
        // Every string of up to three pieces, plus longer ones from a fixed-seed generator.
        let mut inputs: Vec<String> = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = inputs
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            inputs.extend(longer.into_iter().filter(|s| s.len() <= 12));
            crate::order::sort_by(&mut inputs, |a, b| a.cmp(b));
            inputs.dedup();
        }
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize
        };
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..next() % 24 {
                s.push_str(pieces[next() % pieces.len()]);
            }
            inputs.push(s);
        }
        let mut matched = 0;
        for q in QUESTIONS.iter().map(|(_, q)| q.to_string()).chain(inputs) {
            let want: Vec<&str> = regex.find_iter(&q).map(|m| m.as_str()).collect();
            assert_eq!(arithmetic_spans(&q), want, "{q:?}");
            matched += usize::from(!want.is_empty());
        }
        assert!(matched > 5_000, "too few inputs with a match: {matched}");
    }

    /// The loop's feedback is read, never answered with: the answer comes from the last
    /// tool result, and with none the demo calls the tool (issue 31: "The result is You gave
    /// only a Thought…").
    #[test]
    fn feedback_is_never_copied_into_an_answer() {
        use crate::llm::Message;
        let message = |role, content: &str| Message {
            role,
            content: content.to_string(),
        };
        let call = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"100 + 1\"}";
        let answer = "Thought: t\nAction: final_answer\nAction Input: The result is 101.";
        let feedback = "Observation: The question gives 23, and nothing so far has used it.";
        let request = |turns: &[(Role, &str)]| ModelRequest {
            messages: [
                (Role::System, "Thought: Action:"),
                (Role::User, "Question: What is 23 * 17 + 4?"),
            ]
            .iter()
            .chain(turns)
            .map(|(role, content)| message(role.clone(), content))
            .collect(),
            ..ModelRequest::default()
        };
        let after_result = request(&[
            (Role::Assistant, call),
            (Role::User, "Observation: 101"),
            (Role::Assistant, answer),
            (Role::User, feedback),
        ]);
        let got = reply(&after_result);
        assert!(got.ends_with("Action Input: The result is 101."), "{got}");
        let only_feedback = request(&[
            (Role::Assistant, "Thought: t"),
            (Role::User, "Observation: You gave only a Thought."),
        ]);
        assert!(reply(&only_feedback).contains("Action: Calculator"));
    }

    #[test]
    fn first_result_drops_the_label() {
        assert_eq!(
            first_result("[1] RAG: Retrieval-augmented generation.\n[2] Other: x"),
            "Retrieval-augmented generation."
        );
        assert_eq!(first_result("No match."), "No match.");
    }
}
