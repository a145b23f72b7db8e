//! The system prompt, generated from the tool registry.
//!
//! Small local models spend most of a step reading the prompt, so the templates are short:
//! one line per tool with an example input, the format, and three rules.

use serde::{Deserialize, Serialize};

use crate::tools::ToolSpec;

/// Which built-in template to use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

/// A worked example appended to the system prompt (few-shot prompting).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FewShot {
    pub question: String,
    /// The model turns and observations, written out in the protocol, e.g.
    /// "Thought: …\nAction: calculator\nAction Input: {…}\nObservation: 42\nThought: …".
    pub transcript: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PromptConfig {
    pub lang: Lang,
    /// Replaces the built-in template. `{tools}` and `{tool_names}` are filled in.
    pub template: Option<String>,
    pub few_shot: Vec<FewShot>,
}

const EN: &str = "You answer questions by reasoning step by step and using tools.

Tools:
{tools}

Reply in exactly this format:
Thought: <your reasoning>
Action: <one of: {tool_names}, final_answer>
Action Input: <JSON arguments; for final_answer, the answer text>

Rules:
- One Action per reply, then stop. The tool's result comes back as \"Observation: …\".
- When you know the answer, use Action: final_answer.
- If an Observation reports an error, fix the Action or its input and try again.";

const ZH: &str = "你通过逐步推理并调用工具来回答问题。

可用工具：
{tools}

每次回复都严格使用以下格式（标签保持英文）：
Thought: <你的思考>
Action: <以下之一：{tool_names}, final_answer>
Action Input: <工具参数的 JSON；若 Action 为 final_answer，则写最终答案>

规则：
- 每次只写一个 Action，然后停下。工具结果会以 \"Observation: …\" 返回给你。
- 知道答案后，使用 Action: final_answer。
- 如果 Observation 报告错误，请修正 Action 或参数后再试。";

/// The built-in template text for a language, with its placeholders.
pub fn default_template(lang: Lang) -> &'static str {
    match lang {
        Lang::En => EN,
        Lang::Zh => ZH,
    }
}

/// One line per tool: name, parameters, purpose and an example input built from its schema.
pub fn render_tools(tools: &[&ToolSpec], lang: Lang) -> String {
    let example_label = match lang {
        Lang::En => "Example input",
        Lang::Zh => "输入示例",
    };
    let none = match lang {
        Lang::En => "no input",
        Lang::Zh => "无需参数",
    };
    tools
        .iter()
        .map(|t| {
            let params: Vec<String> = t
                .params()
                .into_iter()
                .map(|(name, required)| if required { name } else { format!("{name}?") })
                .collect();
            let example = t.example_input();
            let example = match example.as_object() {
                Some(o) if o.is_empty() => none.to_string(),
                _ => format!("{example_label}: {example}"),
            };
            format!(
                "- {}({}): {} {}",
                t.name,
                params.join(", "),
                t.description.trim(),
                example
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The full system prompt for these tools.
pub fn system_prompt(tools: &[&ToolSpec], config: &PromptConfig) -> String {
    let template = config
        .template
        .as_deref()
        .unwrap_or_else(|| default_template(config.lang));
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    let mut prompt = template
        .replace("{tools}", &render_tools(tools, config.lang))
        .replace("{tool_names}", &names.join(", "));
    if !config.few_shot.is_empty() {
        let heading = match config.lang {
            Lang::En => "Example",
            Lang::Zh => "示例",
        };
        for (i, shot) in config.few_shot.iter().enumerate() {
            prompt.push_str(&format!(
                "\n\n{heading} {}:\nQuestion: {}\n{}",
                i + 1,
                shot.question.trim(),
                shot.transcript.trim()
            ));
        }
    }
    prompt
}

/// A rough token count, the same method for every prompt we compare: each CJK character
/// counts as one token, and other text as one token per 4 characters (rounded up per run
/// of non-CJK text). Real tokenizers differ by model; this is for comparing sizes.
pub fn estimate_tokens(text: &str) -> usize {
    let mut tokens = 0;
    let mut run: usize = 0;
    for c in text.chars() {
        if is_cjk(c) {
            tokens += 1 + run.div_ceil(4);
            run = 0;
        } else {
            run += 1;
        }
    }
    tokens + run.div_ceil(4)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_counts_cjk_per_char_and_latin_per_four() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("中文"), 2);
        assert_eq!(estimate_tokens("ab中"), 2);
    }
}
