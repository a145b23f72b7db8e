//! What the loop asks the model for besides a step: the answer now, a check of an answer (the
//! `reflect` strategy), a plan and its steps (`plan`), a summary (`compress: summary`). The
//! functions that fill them are in [`crate::prompt`].

use super::Template;

pub(super) const TEMPLATES: &[&Template] = &[
    &ANSWER_NOW,
    &ANSWER_NOW_AGAIN,
    &FROM_OBSERVATIONS,
    &FROM_OBSERVATIONS_AGAIN,
    &FROM_KNOWLEDGE,
    &CHECK_ANSWER,
    &PLAN_START,
    &PLAN_AGAIN,
    &PLAN_STEP,
    &PLAN_DONE,
    &SUMMARY_ASK,
    &SUMMARY_SHOWN,
];

pub const ANSWER_NOW: Template = Template {
    name: "ask.answer_now",
    en: "Now answer the question \"{question}\" {source}. Reply with:\n\
         Thought: I now know the answer.\nAction: final_answer\nAction Input: {placeholder}",
    zh: "现在请{source}回答问题“{question}”。回复：\nThought: 我现在知道答案了。\n\
         Action: final_answer\nAction Input: {placeholder}",
};
pub const ANSWER_NOW_AGAIN: Template = Template {
    name: "ask.answer_now_again",
    en: "Write the answer itself now: reply with Action: final_answer, and as its Action \
         Input the answer to \"{question}\" in your own words, {source}.",
    zh: "现在请写出答案本身：回复 Action: final_answer，并在 Action Input 里用你自己的话写出问题“{question}”的答案，{source}。",
};
pub const FROM_OBSERVATIONS: Template = Template {
    name: "ask.from_observations",
    en: "from the Observations above",
    zh: "根据上面的 Observation ",
};
pub const FROM_OBSERVATIONS_AGAIN: Template = Template {
    name: "ask.from_observations_again",
    en: "from the Observations above",
    zh: "内容来自上面的 Observation",
};
pub const FROM_KNOWLEDGE: Template = Template {
    name: "ask.from_knowledge",
    en: "from what you know: the tools do not answer it",
    zh: "根据你自己的知识（工具回答不了它）",
};
pub const CHECK_ANSWER: Template = Template {
    name: "reflect.check_answer",
    en: "Before this answer is final, check it. The question: \"{question}\". Your answer: \
         \"{answer}\". Does it answer the question, and do the Observations above support it? \
         If it is right, reply with Action: final_answer and Action Input: OK. If not, say \
         why in your Thought, then call a tool or give the corrected answer.",
    zh: "在答案最终确定之前，请检查它。问题：“{question}”。你的答案：“{answer}”。它回答了问题吗？\
         上面的 Observation 支持它吗？如果正确，请回复 Action: final_answer，Action Input 写 OK。\
         如果不正确，请在 Thought 里说明原因，然后调用工具或给出改正后的答案。",
};
pub const PLAN_START: Template = Template {
    name: "plan.carry_out",
    en: "Now carry out the plan, one step per reply, starting with step 1.",
    zh: "现在执行这个计划，每次回复一步，从第 1 步开始。",
};
pub const PLAN_AGAIN: Template = Template {
    name: "plan.new_plan",
    en: "Write a new plan first, in the same form: Plan: and numbered steps.",
    zh: "请先用同样的形式写一个新计划：Plan: 和编号的步骤。",
};
pub const PLAN_STEP: Template = Template {
    name: "plan.step",
    en: "Step {n} of the plan is to {step}",
    zh: "计划的第 {n} 步是{step}",
};
pub const PLAN_DONE: Template = Template {
    name: "plan.done",
    en: "Every step of the plan is done, so I give the answer",
    zh: "计划的每一步都完成了，所以我给出答案",
};
pub const SUMMARY_ASK: Template = Template {
    name: "summary.ask",
    en: "Before going on, summarise the steps so far in at most three sentences: what was \
         tried and what came back. Reply with Summary: and the sentences.",
    zh: "继续之前，请用最多三句话总结到目前为止的步骤：做了什么，得到了什么。回复 Summary: 和这几句话。",
};
pub const SUMMARY_SHOWN: Template = Template {
    name: "summary.shown",
    en: "Summary of the omitted steps: {summary}",
    zh: "被省略步骤的总结：{summary}",
};

/// Where a Thought or an answer opens under a constraint ([`crate::prompt::Opening`]): the
/// grammar writes these words first, so a small model reads before it writes.
pub(super) const OPENINGS: &[&Template] = &[
    &OPENING_CHOOSE_TOOL,
    &OPENING_READ_OBSERVATION,
    &OPENING_ANSWER,
    &OPENING_FROM_KNOWLEDGE,
    &OPENING_CHECK,
    &OPENING_FOUND_BY,
    &OPENING_USE_NUMBER,
    &OPENING_USE_NAME,
];

pub const OPENING_CHOOSE_TOOL: Template = Template {
    name: "opening.choose_tool",
    en: "To answer this, I need",
    zh: "要回答这个问题，我需要",
};
pub const OPENING_READ_OBSERVATION: Template = Template {
    name: "opening.read_observation",
    en: "The Observation shows",
    zh: "Observation 显示",
};
pub const OPENING_ANSWER: Template = Template {
    name: "opening.answer",
    en: "The answer is",
    zh: "答案是",
};
pub const OPENING_FROM_KNOWLEDGE: Template = Template {
    name: "opening.from_knowledge",
    en: "No tool answers this, so I answer from what I know",
    zh: "没有工具能回答这个问题，所以我根据自己的知识回答",
};
pub const OPENING_CHECK: Template = Template {
    name: "opening.check",
    en: "I compare the answer with the question and the Observations",
    zh: "我把答案与问题和 Observation 对照",
};
pub const OPENING_FOUND_BY: Template = Template {
    name: "opening.found_by",
    en: "The {tool} Observation shows",
    zh: "{tool} 的 Observation 显示",
};
pub const OPENING_USE_NUMBER: Template = Template {
    name: "opening.use_number",
    en: "To use the {number} of the question, I need the calculator to compute",
    zh: "要用上问题里的 {number}，我需要用计算器计算",
};
pub const OPENING_USE_NAME: Template = Template {
    name: "opening.use_name",
    en: "The question also names {name}, so I need {tool} for it",
    zh: "问题里还提到了 {name}，所以我需要为它调用 {tool}",
};
