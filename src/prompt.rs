//! The system prompt, generated from the tool registry.
//!
//! Small local models spend most of a step reading the prompt, so the templates are short:
//! one line per tool with an example input, the format, and three rules.

use crate::fields::{via_value, Fields};
use crate::lower::push_lower;
use serde::Serialize;
use serde_json::{Error, Value};

use crate::ask::MustAnswer;
use crate::lang::Lang;
use crate::strategy::{Strategy, MAX_PLAN_STEPS};
use crate::told::{asks, say, tool_description, Template, Templates, Voice};
use crate::tools::ToolSpec;

/// A worked example appended to the system prompt (few-shot prompting).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FewShot {
    pub question: String,
    /// The model turns and observations, written out in the protocol, e.g.
    /// "Thought: …\nAction: calculator\nAction Input: {…}\nObservation: 42\nThought: …".
    pub transcript: String,
}

via_value! {
    FewShot => few_shot,
}

fn few_shot(value: serde_json::Value) -> Result<FewShot, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(FewShot {
        question: f.get("question")?,
        transcript: f.get("transcript")?,
    })
}

// Read back by hand below (a struct literal, so a new field needs its line there).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PromptConfig {
    pub lang: Lang,
    /// Replaces the built-in template. `{tools}` and `{tool_names}` are filled in.
    pub template: Option<String>,
    pub few_shot: Vec<FewShot>,
    /// The run's own texts for the templates of what the loop tells the model
    /// ([`crate::told::ALL`]).
    #[serde(default, skip_serializing_if = "is_empty")]
    pub texts: Templates,
}

fn is_empty(texts: &Templates) -> bool {
    texts.is_empty()
}

impl PromptConfig {
    /// How the loop speaks to the model in this run: its language and its own texts.
    pub fn voice(&self) -> Voice<'_> {
        Voice {
            lang: self.lang,
            custom: Some(&self.texts),
        }
    }
}

// The tool strategies' templates, from shared pieces so the variants differ only where the
// strategy does. "Start every reply with Thought:" matters: without it small models (Qwen2.5
// 0.5B) open with "Observation:", which the stop sequence cuts to an empty reply.
struct Pieces {
    intro: &'static str,
    format: &'static str,
    act_format: &'static str,
    plan_format: &'static str,
    thought: &'static str,
    action: &'static str,
    start: &'static str,
    act_start: &'static str,
    rules: &'static str,
}

const EN: Pieces = Pieces {
    intro: "Answer the question with the help of tools; do not compute or guess yourself.\n\n\
            Tools:\n{tools}\n\n",
    format: "Reply in exactly this format:\n",
    act_format: "Reply in exactly this format, with no reasoning:\n",
    plan_format: "First reply with a plan, and nothing else:\nPlan:\n1. <first step>\n2. <next \
                  step>\n(at most five steps). Then carry it out, one step per reply, in exactly \
                  this format:\n",
    thought: "Thought: <your reasoning>\n",
    action: "Action: <one of: {tool_names}, final_answer>\nAction Input: <JSON arguments; for \
             final_answer, the answer>\n\n",
    start: "Start every reply with \"Thought:\". ",
    act_start: "Start every reply with \"Action:\". ",
    rules: "Write one Action and its Action Input, then stop: the result comes back to you as \
            \"Observation: …\". When an Observation answers the question, use Action: \
            final_answer. If it shows an error, fix the call.",
};

const ZH: Pieces = Pieces {
    intro: "借助工具回答问题；不要自己计算或猜测。\n\n可用工具：\n{tools}\n\n",
    format: "每次回复严格使用以下格式（标签保持英文）：\n",
    act_format: "每次回复严格使用以下格式（标签保持英文），不写思考：\n",
    plan_format:
        "先只回复一个计划：\nPlan:\n1. <第一步>\n2. <下一步>\n（最多五步）。然后逐步执行，\
                  每次回复一步，严格使用以下格式（标签保持英文）：\n",
    thought: "Thought: <你的思考>\n",
    action: "Action: <以下之一：{tool_names}, final_answer>\nAction Input: <JSON 参数；若为 \
             final_answer，则写最终答案>\n\n",
    start: "每次回复都以 \"Thought:\" 开头。",
    act_start: "每次回复都以 \"Action:\" 开头。",
    rules: "只写一个 Action 及其 Action Input，然后停下：结果会以 \"Observation: …\" 返回给你。\
            当 Observation 已能回答问题时，使用 Action: final_answer。如果它显示错误，请修正调用。",
};

const COT_EN: &str = "Answer the question by reasoning step by step. There are no tools.

Reply in exactly this format:
Thought: <your reasoning, step by step>
Action: final_answer
Action Input: <the answer>

Start the reply with \"Thought:\".";

const COT_ZH: &str = "一步一步推理来回答问题。没有可用的工具。

回复严格使用以下格式（标签保持英文）：
Thought: <你的推理，一步一步>
Action: final_answer
Action Input: <答案>

回复以 \"Thought:\" 开头。";

/// Words the grammar puts at the start of a reply's parts, so a small model reads before it
/// writes: the first Thought picks a tool, a Thought after an Observation reads it (instead of
/// copying the previous reply), and the answer is a sentence (not the prompt's placeholder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    ChooseTool,
    ReadObservation,
    Answer,
    /// After a calculation that was not about the question ([`MustAnswer::NoToolFits`]).
    FromKnowledge,
    /// The self-check of an answer ([`crate::strategy::Strategy::Reflect`]).
    Check,
}

/// Where the Thought opens when the answer is in what `tool` found, earlier than the last
/// Observation ([`MustAnswer::FoundBefore`]).
pub fn found_by(tool: &str, to: Voice<'_>) -> String {
    say!(to, asks::OPENING_FOUND_BY, tool)
}

/// The words an opening is written with in this run.
pub fn opening(opening: Opening, to: Voice<'_>) -> String {
    say!(to, opening_template(opening))
}

fn opening_template(opening: Opening) -> Template {
    match opening {
        Opening::ChooseTool => asks::OPENING_CHOOSE_TOOL,
        Opening::ReadObservation => asks::OPENING_READ_OBSERVATION,
        Opening::Answer => asks::OPENING_ANSWER,
        Opening::FromKnowledge => asks::OPENING_FROM_KNOWLEDGE,
        Opening::Check => asks::OPENING_CHECK,
    }
}

/// The answer's built-in opening, which reading an answer strips (in either language).
pub fn answer_opening(lang: Lang) -> &'static str {
    asks::OPENING_ANSWER.text(lang)
}

/// Where the Thought opens after an answer that left a number of the question unused: told
/// so in words, the 0.5B model copied the feedback into its Thought and then sent the number
/// alone to the calculator or searched for it.
pub fn use_number(number: &str, to: Voice<'_>) -> String {
    say!(to, asks::OPENING_USE_NUMBER, number)
}

/// The Thought's opening after an answer that left out a name the question gives.
pub fn use_name(name: &str, tool: &str, to: Voice<'_>) -> String {
    say!(to, asks::OPENING_USE_NAME, name, tool)
}

/// What a request without a constraint ends with when only the answer is left: after the model
/// repeated a call whose result it has, on the last step the limit allows, or after it repeated
/// a call that failed (`why`). Nothing else can make such a model answer: on the bench the 0.5B
/// model repeated its call after the cue inside its own transcript in 34 of 61 runs, and none
/// of them reached an answer.
///
/// Measured against a sentence that names the format without showing it, and a request for
/// plain sentences: the model wrote its call again or an empty reply more often. Asked `again`
/// (the first ask got a format error), the lines are not shown: the 0.5B model copied them,
/// placeholder and all, after every feedback. After a failed call the Observations hold only
/// errors, so the answer is to come from what the model knows.
pub fn ask_for_answer(question: &str, to: Voice<'_>, why: MustAnswer, again: bool) -> String {
    let question = question.trim();
    let placeholder = answer_placeholder(to.lang);
    let failed = matches!(why, MustAnswer::RepeatedFailure | MustAnswer::NoToolFits);
    let source = match (failed, again) {
        (false, false) => say!(to, asks::FROM_OBSERVATIONS),
        (false, true) => say!(to, asks::FROM_OBSERVATIONS_AGAIN),
        (true, _) => say!(to, asks::FROM_KNOWLEDGE),
    };
    match again {
        true => say!(to, asks::ANSWER_NOW_AGAIN, question, source),
        false => say!(to, asks::ANSWER_NOW, question, source, placeholder),
    }
}

/// The answer line's placeholder in [`ask_for_answer`]. An answer that is only this was copied
/// from the instructions: the 0.5B model sent "<答案>" as the answer to Chinese questions.
pub fn answer_placeholder(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "<the answer>",
        Lang::Zh => "<答案>",
    }
}

/// The worked examples the built-in system prompt of a run without a constraint ends with, one
/// for each of these built-in tools that is enabled: a whole run, the Observation read and
/// then answered.
/// Told the format only, the 0.5B model called the same tool again after every Observation.
/// Neither example is about the built-in documents or a benchmark question.
pub fn worked_examples(lang: Lang, enabled: &[&str]) -> Vec<FewShot> {
    const EXAMPLES: [(&str, Lang, &str, &str); 4] = [
        (
            "calculator",
            Lang::En,
            "What is (7 + 5) * 3?",
            "Thought: I need to compute (7 + 5) * 3.\nAction: calculator\nAction Input: {\"expression\": \"(7 + 5) * 3\"}\nObservation: 36\nThought: I now know the answer.\nAction: final_answer\nAction Input: (7 + 5) * 3 is 36.",
        ),
        (
            "search_docs",
            Lang::En,
            "According to the documents, when was the library founded?",
            "Thought: I need to search the documents.\nAction: search_docs\nAction Input: {\"query\": \"library founded\"}\nObservation: [1] History: The library was founded in 1901 by the town council.\nThought: I now know the answer.\nAction: final_answer\nAction Input: The library was founded in 1901.",
        ),
        (
            "calculator",
            Lang::Zh,
            "(7 + 5) * 3 等于多少？",
            "Thought: 我需要计算 (7 + 5) * 3。\nAction: calculator\nAction Input: {\"expression\": \"(7 + 5) * 3\"}\nObservation: 36\nThought: 我现在知道答案了。\nAction: final_answer\nAction Input: (7 + 5) * 3 等于 36。",
        ),
        (
            "search_docs",
            Lang::Zh,
            "根据文档，这座图书馆是哪一年建立的？",
            "Thought: 我需要查阅文档。\nAction: search_docs\nAction Input: {\"query\": \"图书馆 建立\"}\nObservation: [1] 历史: 这座图书馆由镇议会于 1901 年建立。\nThought: 我现在知道答案了。\nAction: final_answer\nAction Input: 这座图书馆建立于 1901 年。",
        ),
    ];
    EXAMPLES
        .iter()
        .filter(|(tool, l, _, _)| *l == lang && enabled.contains(tool))
        .map(|(_, _, question, transcript)| FewShot {
            question: question.to_string(),
            transcript: transcript.to_string(),
        })
        .collect()
}

/// The built-in template text for a language, with its placeholders.
pub fn default_template(lang: Lang) -> String {
    template(Strategy::React, lang)
}

/// The built-in template of a strategy, with `{tools}` and `{tool_names}` to fill in.
pub fn template(strategy: Strategy, lang: Lang) -> String {
    let p = match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    };
    let [format, thought, start] = match strategy {
        Strategy::Cot => {
            return match lang {
                Lang::En => COT_EN,
                Lang::Zh => COT_ZH,
            }
            .to_string()
        }
        Strategy::React | Strategy::Reflect => [p.format, p.thought, p.start],
        Strategy::Act => [p.act_format, "", p.act_start],
        Strategy::Plan => [p.plan_format, p.thought, ""],
    };
    [p.intro, format, thought, p.action, start, p.rules].concat()
}

/// One line per tool: name, purpose, an example Action Input built from its schema, and
/// its optional parameters. (A `name(params)` heading made small models write calls.)
pub fn render_tools(tools: &[&ToolSpec], lang: Lang) -> String {
    let optional_label = match lang {
        Lang::En => "optional",
        Lang::Zh => "可选",
    };
    tools
        .iter()
        .map(|t| {
            let description = tool_description(t, lang);
            let example = t.example_input();
            // Named once: not again after the example that writes it or the description that
            // says what it does (the clock's "with days, …").
            let named = |name: &str| {
                example.get(name).is_some()
                    || description
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .any(|w| w == name)
            };
            let optional: Vec<String> = t
                .params()
                .into_iter()
                .filter_map(|(name, required)| (!required && !named(&name)).then_some(name))
                .collect();
            let example = crate::fields::json_text(&example);
            let mut line = format!("- {}: {description} Action Input: {example}", t.name);
            if !optional.is_empty() {
                line.push_str(&format!(" ({optional_label}: {})", optional.join(", ")));
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The full system prompt for these tools.
pub fn system_prompt(tools: &[&ToolSpec], config: &PromptConfig) -> String {
    let template = (config.template.clone()).unwrap_or_else(|| default_template(config.lang));
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

/// What the model is sent, as the Observation of its final answer, when the answer is checked
/// before it is taken. "OK" keeps it; anything else is the revision.
pub fn check_answer(question: &str, answer: &str, to: Voice<'_>) -> String {
    let (question, answer) = (question.trim(), answer.trim());
    say!(to, asks::CHECK_ANSWER, question, answer)
}

/// The check's reply keeps the answer: "OK", alone or after the answer's opening.
pub fn keeps_answer(reply: &str) -> bool {
    let mut text = reply.trim();
    for lang in [Lang::En, Lang::Zh] {
        text = text
            .strip_prefix(answer_opening(lang))
            .unwrap_or(text)
            .trim();
    }
    let text = text.trim_end_matches(['.', '。', '!', '！']).trim();
    text.eq_ignore_ascii_case("ok") || text == "好" || text == "正确"
}

/// The steps of a plan reply: `Plan:` and numbered lines (`1.`, `2)`, `3、`), or a JSON
/// object `{"plan": ["…", …]}`; at most five. `None` when the reply holds no numbered step.
pub fn read_plan(reply: &str) -> Option<Vec<String>> {
    let text = reply.trim();
    if let Some(plan) = json_field(text, "plan") {
        let steps: Vec<String> = plan
            .as_array()?
            .iter()
            .filter_map(|s| s.as_str())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .take(MAX_PLAN_STEPS)
            .collect();
        return (!steps.is_empty()).then_some(steps);
    }
    let steps: Vec<String> = text
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let digits = line.chars().take_while(char::is_ascii_digit).count();
            let rest = line[digits..].strip_prefix(['.', ')', '、', '．', '）'])?;
            (digits > 0 && !rest.trim().is_empty()).then(|| rest.trim().to_string())
        })
        .take(MAX_PLAN_STEPS)
        .collect();
    (!steps.is_empty()).then_some(steps)
}

/// A plan as the prompt shows it, after the question or as the plan's Observation.
pub fn plan_text(steps: &[String], lang: Lang) -> String {
    let label = match lang {
        Lang::En => "The plan:",
        Lang::Zh => "计划：",
    };
    let mut out = label.to_string();
    for (i, step) in steps.iter().enumerate() {
        out.push_str(&format!("\n{}. {step}", i + 1));
    }
    out
}

/// Where a Thought opens while a plan is carried out: the step it is at, or, with every step
/// done, the answer.
pub fn plan_step(plan: &[String], done: usize, to: Voice<'_>) -> String {
    let n = done + 1;
    match plan.get(done) {
        Some(step) => {
            let step = match to.lang {
                Lang::En => lowercase_first(step),
                Lang::Zh => step.to_string(),
            };
            say!(to, asks::PLAN_STEP, n, step)
        }
        None => say!(to, asks::PLAN_DONE),
    }
}

fn lowercase_first(text: &str) -> String {
    let text = text.trim().trim_end_matches(['.', '。']);
    let mut chars = text.chars();
    let mut out = String::with_capacity(text.len());
    if let Some(first) = chars.next() {
        push_lower(&mut out, first);
    }
    out.extend(chars);
    out
}

/// The Observation of a plan: carry it out. After a failed tool, a new plan is asked for.
pub fn plan_feedback(to: Voice<'_>, replan: bool) -> String {
    match replan {
        false => say!(to, asks::PLAN_START),
        true => say!(to, asks::PLAN_AGAIN),
    }
}

/// The request that asks for a summary of the run so far (`compress: summary`).
pub fn ask_for_summary(to: Voice<'_>) -> String {
    say!(to, asks::SUMMARY_ASK)
}

/// The summary in a reply: after `Summary:`, or the `summary` of a JSON object, or the text.
pub fn read_summary(reply: &str) -> String {
    let text = reply.trim();
    if let Some(summary) = json_field(text, "summary")
        .as_ref()
        .and_then(|s| s.as_str())
    {
        return summary.trim().to_string();
    }
    strip_summary_label(text).trim().to_string()
}

/// A summary's opening label as models write it: any case, a full-width colon, Markdown
/// around it, or the Chinese word; the text is kept whole when it has none.
fn strip_summary_label(text: &str) -> &str {
    let bare = text.trim_start_matches(['*', '#', ' ']);
    for label in ["summary", "总结", "摘要"] {
        let Some(head) = bare.get(..label.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(label) {
            continue;
        }
        let rest = bare[label.len()..].trim_start_matches(['*', ' ']);
        if let Some(rest) = rest.strip_prefix([':', '：']) {
            return rest.trim_start_matches(['*', ' ']);
        }
    }
    text
}

/// `key` of a reply that is one JSON object (a plan or a summary under a schema).
fn json_field(text: &str, key: &str) -> Option<serde_json::Value> {
    match serde_json::from_str(text) {
        Ok(serde_json::Value::Object(mut map)) => map.remove(key),
        _ => None,
    }
}

/// A summary as the question's message shows it once older rounds have left the window.
pub fn summary_text(summary: &str, to: Voice<'_>) -> String {
    say!(to, asks::SUMMARY_SHOWN, summary)
}

via_value! {
    PromptConfig => prompt_config,
}

fn prompt_config(value: Value) -> Result<PromptConfig, Error> {
    let mut f = Fields::object(value)?;
    let d = PromptConfig::default();
    Ok(PromptConfig {
        lang: f.or("lang", d.lang)?,
        template: f.or("template", d.template)?,
        few_shot: f.or("few_shot", d.few_shot)?,
        texts: f.or("texts", d.texts)?,
    })
}
