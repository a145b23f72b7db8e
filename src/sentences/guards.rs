//! A guard, as a reader is shown it: its sentence on the step card and its title (the page's
//! list of guard kinds), side by side, so a new guard is said in one place.

use super::{format_error, llm_error};
use crate::lang::{Lang, Text};
use crate::told;
use crate::trace::Guard;

/// The sentence a guard's card shows.
pub fn guard(guard: &Guard) -> Text {
    let (en, zh) = match guard {
        Guard::FormatFeedback { error, consecutive } => (
            format!("The reply broke the format ({error}); the model was told how to fix it (format error {consecutive} in a row)."),
            format!("回复不符合格式（{}），已把修正说明作为 Observation 发回给模型（连续第 {consecutive} 次格式错误）。", format_error(error).zh),
        ),
        Guard::DispatchFailed { error } => (
            format!("The action could not be run ({error}); the model was told how to fix it."),
            format!("这个动作无法执行（{}），已告诉模型如何修正。", told::dispatch_message(error, Lang::Zh.into())),
        ),
        Guard::ToolFailed { error } => (
            format!("The tool failed ({error}); the error went back to the model."),
            format!("工具执行出错（{}），错误信息已作为 Observation 发回给模型。", told::tool_message(error, Lang::Zh.into())),
        ),
        Guard::RepeatedCall { tool, repeat } => (
            format!("{tool} was called again with the same arguments (repeat {repeat}); the earlier result was reused and the model was nudged to answer: constrained modes leave {tool} out of its next reply, and without a constraint the observation ends with a Thought that opens the answer."),
            format!("{tool} 又以相同参数被调用（第 {repeat} 次重复）：复用了之前的结果，提示模型给出答案：受约束模式在下一次回复中去掉 {tool}，不受约束时 Observation 以引出答案的 Thought 结尾。"),
        ),
        Guard::SelfObservationCut { dropped_chars } => (
            format!("The model wrote its own Observation; {dropped_chars} characters from there on were cut."),
            format!("模型自己写了 Observation；从那里起的 {dropped_chars} 个字符已被删去。"),
        ),
        Guard::ObservationTruncated { from_chars, to_chars } => (
            format!("The observation had {from_chars} characters; only the first {to_chars} were sent to the model."),
            format!("Observation 有 {from_chars} 个字符，只有前 {to_chars} 个发给了模型。"),
        ),
        Guard::HistoryTrimmed { dropped_rounds, kept_rounds } => (
            format!("{dropped_rounds} old rounds were dropped from the prompt; the newest {kept_rounds} were kept."),
            format!("为缩短提示词，删去了 {dropped_rounds} 轮旧对话，保留最近 {kept_rounds} 轮。"),
        ),
        Guard::StepLimit { steps } => (
            format!("The step limit ({steps}) was reached without a final answer."),
            format!("已达到步数上限（{steps}），仍没有最终答案。"),
        ),
        Guard::TooManyFormatErrors { count } => (
            format!("{count} format errors in a row: the run was stopped."),
            format!("连续 {count} 次格式错误：运行已停止。"),
        ),
        Guard::TooManyRepeats { tool, repeats } => (
            format!("{tool} was repeated {repeats} times with the same arguments: the run was stopped."),
            format!("{tool} 以相同参数重复了 {repeats} 次：运行已停止。"),
        ),
        Guard::SecondMove { repeat: 1 } => (
            "The model repeated its reply or its mistake; the feedback was changed to a short form showing only the three lines to write.".to_string(),
            "模型重复了它的回复或错误；修正说明已换成只列出要写的三行的简短形式。".to_string(),
        ),
        Guard::SecondMove { repeat } => (
            format!("The model repeated its reply or its mistake ({repeat} times in a row); the feedback now says the task fails unless it writes the three lines."),
            format!("模型连续 {repeat} 次重复了它的回复或错误；修正说明现在写明：不写这三行，任务就会失败。"),
        ),
        Guard::ConstraintDropped { constrained, error } => (
            format!("The server refused the {} constraint ({error}); the request was sent again without it, and the rest of the run goes without it.", constrained.label()),
            format!("服务器拒绝了 {} 约束（{}）；请求已去掉约束重新发送，本次运行余下部分也不再使用它。", constrained.label(), llm_error(error).zh),
        ),
        Guard::SelfCheck { kept: true } => (
            "The self-check kept the answer.".to_string(),
            "自我检查保留了答案。".to_string(),
        ),
        Guard::SelfCheck { kept: false } => (
            "The self-check changed the answer: the revised one is final.".to_string(),
            "自我检查改动了答案：改动后的答案就是最终答案。".to_string(),
        ),
        Guard::PromptCut { sent, counted } => (
            format!("The server read {counted} prompt tokens where about {sent} were sent: it cut the prompt to fit its context window, so the model did not see its start (the tools or the question). Give the server a larger context (Ollama: start it with OLLAMA_CONTEXT_LENGTH=8192; llama.cpp: --ctx-size 8192; LM Studio: the model's context length) or lower \"History rounds kept\"."),
            format!("服务器只读了 {counted} 个提示词 token，而发送的约有 {sent} 个：它为适应上下文窗口截掉了提示词的开头，模型没有看到工具说明或问题。请给服务器更大的上下文（Ollama：用 OLLAMA_CONTEXT_LENGTH=8192 启动；llama.cpp：--ctx-size 8192；LM Studio：模型的上下文长度），或调低“保留的历史轮数”。"),
        ),
    };
    Text { en, zh }
}

/// A guard's title by its tag; `None` for a tag without one (tests/titles.rs fails then).
pub(super) fn title(tag: &str) -> Option<(&'static str, &'static str)> {
    Some(match tag {
        "format_feedback" => ("Format feedback", "格式反馈"),
        "dispatch_failed" => ("Action rejected", "动作被拒绝"),
        "tool_failed" => ("Tool failed", "工具出错"),
        "repeated_call" => ("Repeated call", "重复调用"),
        "self_observation_cut" => ("Self-written observation cut", "删去模型自编的 Observation"),
        "observation_truncated" => ("Observation truncated", "Observation 被截断"),
        "history_trimmed" => ("History trimmed", "历史被裁剪"),
        "step_limit" => ("Step limit", "步数上限"),
        "too_many_format_errors" => ("Too many format errors", "格式错误过多"),
        "too_many_repeats" => ("Too many repeats", "重复过多"),
        "second_move" => ("Feedback changed", "换了修正说明"),
        "constraint_dropped" => ("Constraint dropped", "去掉约束"),
        "prompt_cut" => ("Prompt cut by the server", "提示词被服务器截断"),
        "self_check" => ("Self-check", "自我检查"),
        _ => return None,
    })
}

/// Every guard, raised by a run of the agent: its sentence says what that run did, and the
/// trace reads back as it was written. A new guard fails here until it has its run.
#[cfg(test)]
mod tests {
    use super::guard;
    use crate::agent::Agent;
    use crate::ask::ModelRequest;
    use crate::config::AgentConfig;
    use crate::drive::run_to_end;
    use crate::llm::{Constrained, LlmError};
    use crate::strategy::Strategy;
    use crate::tools::{default_documents, HostContext, Registry};
    use crate::trace::{Guard, ModelReply, Trace};

    const CALC: &str = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}";
    const FINAL: &str = "Thought: t\nAction: final_answer\nAction Input: 42";
    const SEARCH: &str = "Thought: t\nAction: search_docs\nAction Input: {\"query\": \"FAISS\"}";

    /// The replies in order, the last one repeated; `model` may change each reply or fail.
    fn run_with(
        config: AgentConfig,
        replies: &[&str],
        mut model: impl FnMut(&ModelRequest, ModelReply) -> Result<ModelReply, LlmError>,
    ) -> Trace {
        let host = HostContext {
            now_unix_ms: 1_796_021_887_000.0,
            utc_offset_minutes: 0,
        };
        let registry = Registry::with_builtins(default_documents());
        let mut agent = Agent::new("What is 6 * 7?", registry, config);
        let mut i = 0;
        run_to_end(&mut agent, &host, |request| {
            let text = replies[i.min(replies.len() - 1)].to_string();
            i += 1;
            let reply = ModelReply {
                text,
                ..ModelReply::default()
            };
            model(request, reply)
        });
        agent.trace().clone()
    }

    fn run(config: AgentConfig, replies: &[&str]) -> Trace {
        run_with(config, replies, |_, reply| Ok(reply))
    }

    /// The Agent's defaults without a constraint (plain text replies), changed by `f`.
    fn with(f: impl FnOnce(&mut AgentConfig)) -> AgentConfig {
        let mut config = AgentConfig {
            constrained: Constrained::Off,
            ..AgentConfig::default()
        };
        f(&mut config);
        config
    }

    /// Each case: a guard's tag, a run that raises it, and words its sentence says.
    fn cases() -> Vec<(&'static str, Trace, &'static str)> {
        let plain = with(|_| {});
        let grammar = with(|c| c.constrained = Constrained::Grammar);
        let refused = LlmError::Http {
            status: 500,
            url: "http://localhost:8080/v1/chat/completions".into(),
            body_excerpt: String::new(),
            server_message: None,
            models: None,
        };
        let stuck = "Thought: t\nAction: calculator";
        vec![
            (
                "format_feedback",
                run(plain.clone(), &["It is 42.", FINAL]),
                "(format error 1 in a row)",
            ),
            (
                "dispatch_failed",
                run(plain.clone(), &["Action: weather\nAction Input: {}", FINAL]),
                "The action could not be run",
            ),
            (
                "tool_failed",
                run(
                    plain.clone(),
                    &[
                        "Action: calculator\nAction Input: {\"expression\": \"1/0\"}",
                        FINAL,
                    ],
                ),
                "The tool failed",
            ),
            (
                "repeated_call",
                run(plain.clone(), &[CALC, CALC, FINAL]),
                "calculator was called again with the same arguments (repeat 1)",
            ),
            (
                "self_observation_cut",
                run(plain.clone(), &[&format!("{CALC}\nObservation: 9"), FINAL]),
                "The model wrote its own Observation; 15 characters",
            ),
            (
                "observation_truncated",
                run(with(|c| c.observation_limit = 20), &[SEARCH, FINAL]),
                "only the first 20 were sent",
            ),
            (
                "history_trimmed",
                run(
                    with(|c| c.history_rounds = 2),
                    &[
                        CALC,
                        SEARCH,
                        "Action: current_time\nAction Input: {}",
                        FINAL,
                    ],
                ),
                "old rounds were dropped from the prompt",
            ),
            (
                "step_limit",
                run(with(|c| c.max_steps = 2), &[CALC, SEARCH]),
                "The step limit (2) was reached",
            ),
            (
                "too_many_format_errors",
                run(plain.clone(), &["It is 42."]),
                "3 format errors in a row",
            ),
            (
                "too_many_repeats",
                run(plain.clone(), &[CALC]),
                "calculator was repeated 3 times",
            ),
            (
                "second_move",
                run(plain.clone(), &[stuck, stuck, stuck, CALC, FINAL]),
                "the feedback was changed to a short form",
            ),
            (
                "constraint_dropped",
                run_with(
                    grammar.clone(),
                    &[CALC, FINAL],
                    |request, reply| match request.constrained {
                        Constrained::Off => Ok(reply),
                        _ => Err(refused.clone()),
                    },
                ),
                "The server refused the grammar constraint",
            ),
            (
                "prompt_cut",
                // A server whose window holds the first request and not the history after it.
                {
                    let mut window = None;
                    run_with(
                        plain.clone(),
                        &[SEARCH, CALC, FINAL],
                        move |request, mut reply| {
                            let sent = crate::history::estimate(&request.messages);
                            let window = *window.get_or_insert(sent);
                            reply.usage.prompt_tokens = Some(sent.min(window));
                            Ok(reply)
                        },
                    )
                },
                "it cut the prompt to fit its context window",
            ),
            (
                "self_check",
                run(
                    with(|c| c.strategy = Strategy::Reflect),
                    &[
                        CALC,
                        FINAL,
                        "Thought: t\nAction: final_answer\nAction Input: OK",
                    ],
                ),
                "The self-check kept the answer.",
            ),
        ]
    }

    /// The numbers a sentence says: the Chinese one keeps every number of the English one.
    fn numbers(text: &str) -> Vec<&str> {
        text.split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .collect()
    }

    #[test]
    fn every_guard_is_raised_by_a_run_said_and_read_back() {
        let cases = cases();
        let tags: Vec<&str> = cases.iter().map(|(tag, ..)| *tag).collect();
        assert_eq!(
            tags,
            Guard::TAGS,
            "one run per guard, in the order declared"
        );
        for (tag, trace, says) in cases {
            let raised: Vec<&Guard> = trace.steps.iter().flat_map(|s| &s.guards).collect();
            let of_tag = |g: &&&Guard| serde_json::to_value(g).unwrap()["type"] == tag;
            let Some(found) = raised.iter().find(of_tag) else {
                panic!("the run for {tag} raised only {raised:?}");
            };
            assert!(guard(found).en.contains(says), "{tag}: {:?}", guard(found));
            for said in raised.iter().map(|g| guard(g)) {
                let chinese = said
                    .zh
                    .chars()
                    .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
                assert!(chinese, "{tag}: {}", said.zh);
                let kept = numbers(&said.en)
                    .iter()
                    .all(|n| numbers(&said.zh).contains(n));
                assert!(kept, "{tag}: {said:?}");
            }
            let written = serde_json::to_string(&trace).unwrap();
            assert_eq!(Trace::from_json(&written).as_ref(), Ok(&trace), "{tag}");
            let viewed = crate::view::trace(&trace, "http://127.0.0.1:8000").unwrap();
            let back = Trace::from_json(&viewed.to_string());
            assert_eq!(back.as_ref(), Ok(&trace), "{tag}, from its view form");
        }
    }
}
