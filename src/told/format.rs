//! The feedback on a reply that could not be used: what was wrong and the format to write.

use super::{say, Template, Voice};
use crate::parse::FormatError;

/// The format the built-in prompts ask for, so feedback never teaches a second one.
fn reply_format(to: Voice<'_>) -> String {
    say!(to, FORMAT_REPLY_LINES)
}

/// The message fed back to the model as the Observation.
pub fn format_error(error: &FormatError, to: Voice<'_>) -> String {
    match error {
        // Small models often begin with "Observation:", which the stop sequence cuts to
        // nothing: say so.
        FormatError::Empty => {
            let format = reply_format(to);
            say!(to, FORMAT_EMPTY, format)
        }
        FormatError::NoAction => {
            let format = reply_format(to);
            say!(to, FORMAT_NO_ACTION, format)
        }
        FormatError::ThoughtOnly => say!(to, FORMAT_THOUGHT_ONLY),
        FormatError::NoTool => say!(to, FORMAT_NO_TOOL),
        FormatError::MissingToolName => say!(to, FORMAT_MISSING_TOOL_NAME),
        FormatError::InputWithoutAction => say!(to, FORMAT_INPUT_WITHOUT_ACTION),
        FormatError::MixedActionAndAnswer => say!(to, FORMAT_MIXED_ACTION_AND_ANSWER),
        FormatError::EmptyAnswer => say!(to, FORMAT_EMPTY_ANSWER),
        FormatError::XmlToolCall => say!(to, FORMAT_XML_TOOL_CALL),
        // A long argument that ran into the token limit, which the model repeats unless told
        // it was too long.
        FormatError::InvalidJson { line, column, .. } if error.cut_off() => {
            say!(to, FORMAT_CUT_OFF, line, column)
        }
        FormatError::InvalidJson {
            line,
            column,
            message,
        } => say!(to, FORMAT_INVALID_JSON, line, column, message),
        FormatError::ArgumentsAsAnswer { tool } => say!(to, FORMAT_ARGUMENTS_AS_ANSWER, tool),
        FormatError::ExampleCopied => say!(to, FORMAT_EXAMPLE_COPIED),
        FormatError::QuestionRepeated => say!(to, FORMAT_QUESTION_REPEATED),
        FormatError::YesNoAsked => say!(to, FORMAT_YES_NO_ASKED),
        FormatError::NumberUnused { number } => say!(to, FORMAT_NUMBER_UNUSED, number),
        FormatError::NameUnused { name, tool, .. } => say!(to, FORMAT_NAME_UNUSED, name, tool),
        FormatError::ResultMissed { result } => say!(to, FORMAT_RESULT_MISSED, result),
        FormatError::LabelAsAnswer { label } => say!(to, FORMAT_LABEL_AS_ANSWER, label),
        FormatError::ActionNotThought { chosen, action } => {
            say!(to, FORMAT_ACTION_NOT_THOUGHT, chosen, action)
        }
        FormatError::NoteCopied => say!(to, FORMAT_NOTE_COPIED),
    }
}

pub(super) const TEMPLATES: &[&Template] = &[
    &FORMAT_REPLY_LINES,
    &FORMAT_EMPTY,
    &FORMAT_NO_ACTION,
    &FORMAT_THOUGHT_ONLY,
    &FORMAT_NO_TOOL,
    &FORMAT_MISSING_TOOL_NAME,
    &FORMAT_INPUT_WITHOUT_ACTION,
    &FORMAT_MIXED_ACTION_AND_ANSWER,
    &FORMAT_EMPTY_ANSWER,
    &FORMAT_XML_TOOL_CALL,
    &FORMAT_CUT_OFF,
    &FORMAT_INVALID_JSON,
    &FORMAT_ARGUMENTS_AS_ANSWER,
    &FORMAT_EXAMPLE_COPIED,
    &FORMAT_QUESTION_REPEATED,
    &FORMAT_YES_NO_ASKED,
    &FORMAT_NUMBER_UNUSED,
    &FORMAT_NAME_UNUSED,
    &FORMAT_RESULT_MISSED,
    &FORMAT_LABEL_AS_ANSWER,
    &FORMAT_ACTION_NOT_THOUGHT,
    &FORMAT_NOTE_COPIED,
];

const FORMAT_REPLY_LINES: Template = Template {
    name: "format.reply_lines",
    en: "Thought: <your reasoning>\nAction: <tool name, or final_answer>\n\
         Action Input: <JSON arguments; for final_answer, the answer>",
    zh: "Thought: <你的思考>\nAction: <工具名，或 final_answer>\n\
         Action Input: <JSON 参数；若为 final_answer，则写最终答案>",
};
const FORMAT_EMPTY: Template = Template {
    name: "format.empty",
    en: "Your reply was empty. Start with 'Thought:'; never write 'Observation:' \
                 yourself, the system sends it. Reply in this format:\n{format}",
    zh: "你的回复是空的。请以 'Thought:' 开头；不要自己写 'Observation:'，它由系统发送。\
                 请按此格式回复：\n{format}",
};
const FORMAT_NO_ACTION: Template = Template {
    name: "format.no_action",
    en: "No 'Action:' found. If you are done, reply 'Action: final_answer' with the \
                 answer as Action Input (a question for the user goes there too); otherwise \
                 call a tool. Use exactly this format:\n{format}",
    zh: "没有找到 'Action:'。如果已经完成，请写 'Action: final_answer'，把答案写在 \
                 Action Input 里（要问用户的问题也写在那里）；否则调用一个工具。严格使用此格式：\n\
                 {format}",
};
const FORMAT_THOUGHT_ONLY: Template = Template {
    name: "format.thought_only",
    en: "You gave only a Thought. Continue with 'Action: <tool name>' and 'Action Input: \
             <JSON object>', or with 'Action: final_answer' and 'Action Input: <the answer>'.",
    zh: "你只写了 Thought。请接着写 'Action: <工具名>' 和 'Action Input: <JSON 对象>'，\
             或者 'Action: final_answer' 和 'Action Input: <答案>'。",
};
const FORMAT_NO_TOOL: Template = Template {
    name: "format.no_tool",
    en: "If no tool is needed, reply with 'Action: final_answer' and 'Action Input: <your \
             answer>' (not 'Action: None').",
    zh: "如果不需要工具，请回复 'Action: final_answer' 和 'Action Input: <你的答案>'\
             （不要写 'Action: None'）。",
};
const FORMAT_MISSING_TOOL_NAME: Template = Template {
    name: "format.missing_tool_name",
    en: "Your 'Action:' names no tool. Write 'Action: <tool name>' on one line and \
             'Action Input: <JSON object>' on the next.",
    zh: "你的 'Action:' 没有写工具名。请在一行写 'Action: <工具名>'，下一行写 \
             'Action Input: <JSON 对象>'。",
};
const FORMAT_INPUT_WITHOUT_ACTION: Template = Template {
    name: "format.input_without_action",
    en: "You wrote 'Action Input:' without an 'Action:' line. Put 'Action: <tool name>' on \
             the line before 'Action Input:'.",
    zh: "你写了 'Action Input:'，前面却没有 'Action:' 行。请在 'Action Input:' 的上一行写 \
             'Action: <工具名>'。",
};
const FORMAT_MIXED_ACTION_AND_ANSWER: Template = Template {
    name: "format.mixed_action_and_answer",
    en: "Your 'Action:' line also holds a final answer. Write either 'Action: <tool name>' \
             with 'Action Input: <JSON object>', or 'Action: final_answer' with 'Action Input: \
             <the answer>', not both.",
    zh: "你的 'Action:' 行里还写了最终答案。请二选一：'Action: <工具名>' 加 \
             'Action Input: <JSON 对象>'，或 'Action: final_answer' 加 'Action Input: <答案>'。",
};
const FORMAT_EMPTY_ANSWER: Template = Template {
    name: "format.empty_answer",
    en: "Your final answer is empty. Write the answer itself on the line 'Action Input: \
             <the answer>' right after 'Action: final_answer'.",
    zh: "你的最终答案是空的。请在 'Action: final_answer' 之后的 'Action Input: <答案>' \
             这一行写出答案本身。",
};
const FORMAT_XML_TOOL_CALL: Template = Template {
    name: "format.xml_tool_call",
    en: "Do not use XML tool calls. Write 'Action: <tool name>' and 'Action Input: <JSON \
             object>' instead.",
    zh: "不要使用 XML 工具调用。请改写为 'Action: <工具名>' 和 'Action Input: <JSON 对象>'。",
};
const FORMAT_CUT_OFF: Template = Template {
    name: "format.cut_off",
    en: "Your Action Input stops before its JSON is closed (line {line}, column {column}): \
             it was too long and got cut off. Write a short Action Input, one JSON object on \
             one line, e.g. {{\"query\": \"...\"}}.",
    zh: "你的 Action Input 在 JSON 结束之前就断了（第 {line} 行第 {column} 列）：它太长，\
             被截断了。请写一个简短的 Action Input，在一行内写一个 JSON 对象，\
             例如 {{\"query\": \"...\"}}。",
};
const FORMAT_INVALID_JSON: Template = Template {
    name: "format.invalid_json",
    en: "The JSON in your reply is not valid (line {line}, column {column}: {message}). \
             Write the Action Input as one JSON object with double-quoted keys and strings, \
             e.g. {{\"query\": \"...\"}}.",
    zh: "你回复中的 JSON 无效（第 {line} 行第 {column} 列：{message}）。请把 Action Input \
             写成一个 JSON 对象，键和字符串都用双引号，例如 {{\"query\": \"...\"}}。",
};
const FORMAT_ARGUMENTS_AS_ANSWER: Template = Template {
    name: "format.arguments_as_answer",
    en: "Your final_answer holds {tool}'s arguments, not an answer. To use {tool}, write \
             'Action: {tool}' with a JSON object as Action Input. Once an Observation has the \
             result, write 'Action: final_answer' with the answer as plain text.",
    zh: "你的 final_answer 里写的是 {tool} 的参数，不是答案。要使用 {tool}，请写 \
             'Action: {tool}'，Action Input 写 JSON 对象。等 Observation 给出结果后，再写 \
             'Action: final_answer'，答案用普通文字。",
};
const FORMAT_EXAMPLE_COPIED: Template = Template {
    name: "format.example_copied",
    en: "That is copied from the example in the instructions, not about this question. \
             Work on this question: call a tool with its own arguments, or answer from this \
             run's Observations.",
    zh: "这是照抄说明里的示例，与这个问题无关。请处理这个问题：用它自己的参数调用工具，\
             或者根据本次运行的 Observation 回答。",
};
const FORMAT_QUESTION_REPEATED: Template = Template {
    name: "format.question_repeated",
    en: "That only repeats the question; it is not an answer. Write the answer itself, from \
             the Observations above, as the Action Input of 'Action: final_answer'.",
    zh: "这只是重复了问题，不是答案。请根据上面的 Observation，在 'Action: final_answer' \
             之后的 Action Input 里写出答案本身。",
};
const FORMAT_YES_NO_ASKED: Template = Template {
    name: "format.yes_no_asked",
    en: "The question asks yes or no, and this answer only gives an amount. Answer yes or \
             no, with what the Observations say, as the Action Input of 'Action: final_answer'.",
    zh: "问题问的是“是不是”，而这个答案只给了一个数量。请根据 Observation，在 \
             'Action: final_answer' 之后的 Action Input 里回答是或否，并说明情况。",
};
const FORMAT_NUMBER_UNUSED: Template = Template {
    name: "format.number_unused",
    en: "The question gives {number}, and nothing so far has used it: this answer skips a \
             step. First do the step with {number} with a tool, then answer.",
    zh: "问题里的 {number} 还没有用到：这个答案少了一步。请先用工具完成用到 {number} 的那一步，\
             再回答。",
};
const FORMAT_NAME_UNUSED: Template = Template {
    name: "format.name_unused",
    en: "The question also names {name}, and nothing so far has used it: this answer skips \
             a step. Call {tool} for {name} too, then answer.",
    zh: "问题里还提到了 {name}，还没有用到：这个答案少了一步。请也为 {name} 调用 {tool}，再回答。",
};
const FORMAT_RESULT_MISSED: Template = Template {
    name: "format.result_missed",
    en: "The calculator gave {result}, and this answer does not say it: the answer to a \
             calculation is its result. Answer with {result}, or first take the step the \
             question still needs.",
    zh: "计算器给出的是 {result}，而这个答案里没有它：计算的答案就是它的结果。请用 {result} \
             回答；如果问题还需要一步，先完成那一步。",
};
const FORMAT_LABEL_AS_ANSWER: Template = Template {
    name: "format.label_as_answer",
    en: "'{label}' is a word of the format, not an answer. Write what the Observation says \
             that answers the question, as the Action Input of 'Action: final_answer'.",
    zh: "'{label}' 只是格式里的一个词，不是答案。请把 Observation 里回答问题的内容写在 \
             'Action: final_answer' 之后的 Action Input 里。",
};
const FORMAT_ACTION_NOT_THOUGHT: Template = Template {
    name: "format.action_not_thought",
    en: "Your Thought chose {chosen}, but your Action is {action}. Write the Action your \
             Thought chose: 'Action: {chosen}' and its Action Input.",
    zh: "你的 Thought 选择了 {chosen}，但 Action 写的是 {action}。请写出 Thought 所选的 \
             Action：'Action: {chosen}' 和它的 Action Input。",
};
const FORMAT_NOTE_COPIED: Template = Template {
    name: "format.note_copied",
    en: "That repeats a note of the loop to you; it is not an answer. Write the answer \
             itself, from what the tools found, as the Action Input of 'Action: final_answer'.",
    zh: "这只是重复了循环给你的提示，不是答案。请根据工具查到的内容，在 'Action: final_answer' \
             之后的 Action Input 里写出答案本身。",
};
