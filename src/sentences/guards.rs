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
