//! The feedback on a reply that could not be used: what was wrong and the format to write.

use super::say;
use crate::lang::Lang;
use crate::parse::FormatError;

/// The format the built-in prompts ask for, so feedback never teaches a second one.
fn reply_format(lang: Lang) -> String {
    say!(
        lang,
        "Thought: <your reasoning>\nAction: <tool name, or final_answer>\n\
         Action Input: <JSON arguments; for final_answer, the answer>",
        "Thought: <你的思考>\nAction: <工具名，或 final_answer>\n\
         Action Input: <JSON 参数；若为 final_answer，则写最终答案>"
    )
}

/// The message fed back to the model as the Observation.
pub fn format_error(error: &FormatError, lang: Lang) -> String {
    match error {
        // Small models often begin with "Observation:", which the stop sequence cuts to
        // nothing: say so.
        FormatError::Empty => {
            let format = reply_format(lang);
            say!(
                lang,
                "Your reply was empty. Start with 'Thought:'; never write 'Observation:' \
                 yourself, the system sends it. Reply in this format:\n{format}",
                "你的回复是空的。请以 'Thought:' 开头；不要自己写 'Observation:'，它由系统发送。\
                 请按此格式回复：\n{format}"
            )
        }
        FormatError::NoAction => {
            let format = reply_format(lang);
            say!(
                lang,
                "No 'Action:' found. If you are done, reply 'Action: final_answer' with the \
                 answer as Action Input (a question for the user goes there too); otherwise \
                 call a tool. Use exactly this format:\n{format}",
                "没有找到 'Action:'。如果已经完成，请写 'Action: final_answer'，把答案写在 \
                 Action Input 里（要问用户的问题也写在那里）；否则调用一个工具。严格使用此格式：\n\
                 {format}"
            )
        }
        FormatError::ThoughtOnly => say!(
            lang,
            "You gave only a Thought. Continue with 'Action: <tool name>' and 'Action Input: \
             <JSON object>', or with 'Action: final_answer' and 'Action Input: <the answer>'.",
            "你只写了 Thought。请接着写 'Action: <工具名>' 和 'Action Input: <JSON 对象>'，\
             或者 'Action: final_answer' 和 'Action Input: <答案>'。"
        ),
        FormatError::NoTool => say!(
            lang,
            "If no tool is needed, reply with 'Action: final_answer' and 'Action Input: <your \
             answer>' (not 'Action: None').",
            "如果不需要工具，请回复 'Action: final_answer' 和 'Action Input: <你的答案>'\
             （不要写 'Action: None'）。"
        ),
        FormatError::MissingToolName => say!(
            lang,
            "Your 'Action:' names no tool. Write 'Action: <tool name>' on one line and \
             'Action Input: <JSON object>' on the next.",
            "你的 'Action:' 没有写工具名。请在一行写 'Action: <工具名>'，下一行写 \
             'Action Input: <JSON 对象>'。"
        ),
        FormatError::InputWithoutAction => say!(
            lang,
            "You wrote 'Action Input:' without an 'Action:' line. Put 'Action: <tool name>' on \
             the line before 'Action Input:'.",
            "你写了 'Action Input:'，前面却没有 'Action:' 行。请在 'Action Input:' 的上一行写 \
             'Action: <工具名>'。"
        ),
        FormatError::MixedActionAndAnswer => say!(
            lang,
            "Your 'Action:' line also holds a final answer. Write either 'Action: <tool name>' \
             with 'Action Input: <JSON object>', or 'Action: final_answer' with 'Action Input: \
             <the answer>', not both.",
            "你的 'Action:' 行里还写了最终答案。请二选一：'Action: <工具名>' 加 \
             'Action Input: <JSON 对象>'，或 'Action: final_answer' 加 'Action Input: <答案>'。"
        ),
        FormatError::EmptyAnswer => say!(
            lang,
            "Your final answer is empty. Write the answer itself on the line 'Action Input: \
             <the answer>' right after 'Action: final_answer'.",
            "你的最终答案是空的。请在 'Action: final_answer' 之后的 'Action Input: <答案>' \
             这一行写出答案本身。"
        ),
        FormatError::XmlToolCall => say!(
            lang,
            "Do not use XML tool calls. Write 'Action: <tool name>' and 'Action Input: <JSON \
             object>' instead.",
            "不要使用 XML 工具调用。请改写为 'Action: <工具名>' 和 'Action Input: <JSON 对象>'。"
        ),
        // A long argument that ran into the token limit, which the model repeats unless told
        // it was too long.
        FormatError::InvalidJson { line, column, .. } if error.cut_off() => say!(
            lang,
            "Your Action Input stops before its JSON is closed (line {line}, column {column}): \
             it was too long and got cut off. Write a short Action Input, one JSON object on \
             one line, e.g. {{\"query\": \"...\"}}.",
            "你的 Action Input 在 JSON 结束之前就断了（第 {line} 行第 {column} 列）：它太长，\
             被截断了。请写一个简短的 Action Input，在一行内写一个 JSON 对象，\
             例如 {{\"query\": \"...\"}}。"
        ),
        FormatError::InvalidJson {
            line,
            column,
            message,
        } => say!(
            lang,
            "The JSON in your reply is not valid (line {line}, column {column}: {message}). \
             Write the Action Input as one JSON object with double-quoted keys and strings, \
             e.g. {{\"query\": \"...\"}}.",
            "你回复中的 JSON 无效（第 {line} 行第 {column} 列：{message}）。请把 Action Input \
             写成一个 JSON 对象，键和字符串都用双引号，例如 {{\"query\": \"...\"}}。"
        ),
        FormatError::ArgumentsAsAnswer { tool } => say!(
            lang,
            "Your final_answer holds {tool}'s arguments, not an answer. To use {tool}, write \
             'Action: {tool}' with a JSON object as Action Input. Once an Observation has the \
             result, write 'Action: final_answer' with the answer as plain text.",
            "你的 final_answer 里写的是 {tool} 的参数，不是答案。要使用 {tool}，请写 \
             'Action: {tool}'，Action Input 写 JSON 对象。等 Observation 给出结果后，再写 \
             'Action: final_answer'，答案用普通文字。"
        ),
        FormatError::ExampleCopied => say!(
            lang,
            "That is copied from the example in the instructions, not about this question. \
             Work on this question: call a tool with its own arguments, or answer from this \
             run's Observations.",
            "这是照抄说明里的示例，与这个问题无关。请处理这个问题：用它自己的参数调用工具，\
             或者根据本次运行的 Observation 回答。"
        ),
        FormatError::QuestionRepeated => say!(
            lang,
            "That only repeats the question; it is not an answer. Write the answer itself, from \
             the Observations above, as the Action Input of 'Action: final_answer'.",
            "这只是重复了问题，不是答案。请根据上面的 Observation，在 'Action: final_answer' \
             之后的 Action Input 里写出答案本身。"
        ),
        FormatError::YesNoAsked => say!(
            lang,
            "The question asks yes or no, and this answer only gives an amount. Answer yes or \
             no, with what the Observations say, as the Action Input of 'Action: final_answer'.",
            "问题问的是“是不是”，而这个答案只给了一个数量。请根据 Observation，在 \
             'Action: final_answer' 之后的 Action Input 里回答是或否，并说明情况。"
        ),
        FormatError::NumberUnused { number } => say!(
            lang,
            "The question gives {number}, and nothing so far has used it: this answer skips a \
             step. First do the step with {number} with a tool, then answer.",
            "问题里的 {number} 还没有用到：这个答案少了一步。请先用工具完成用到 {number} 的那一步，\
             再回答。"
        ),
        FormatError::NameUnused { name, tool, .. } => say!(
            lang,
            "The question also names {name}, and nothing so far has used it: this answer skips \
             a step. Call {tool} for {name} too, then answer.",
            "问题里还提到了 {name}，还没有用到：这个答案少了一步。请也为 {name} 调用 {tool}，再回答。"
        ),
        FormatError::ResultMissed { result } => say!(
            lang,
            "The calculator gave {result}, and this answer does not say it: the answer to a \
             calculation is its result. Answer with {result}, or first take the step the \
             question still needs.",
            "计算器给出的是 {result}，而这个答案里没有它：计算的答案就是它的结果。请用 {result} \
             回答；如果问题还需要一步，先完成那一步。"
        ),
        FormatError::LabelAsAnswer { label } => say!(
            lang,
            "'{label}' is a word of the format, not an answer. Write what the Observation says \
             that answers the question, as the Action Input of 'Action: final_answer'.",
            "'{label}' 只是格式里的一个词，不是答案。请把 Observation 里回答问题的内容写在 \
             'Action: final_answer' 之后的 Action Input 里。"
        ),
        FormatError::ActionNotThought { chosen, action } => say!(
            lang,
            "Your Thought chose {chosen}, but your Action is {action}. Write the Action your \
             Thought chose: 'Action: {chosen}' and its Action Input.",
            "你的 Thought 选择了 {chosen}，但 Action 写的是 {action}。请写出 Thought 所选的 \
             Action：'Action: {chosen}' 和它的 Action Input。"
        ),
        FormatError::NoteCopied => say!(
            lang,
            "That repeats a note of the loop to you; it is not an answer. Write the answer \
             itself, from what the tools found, as the Action Input of 'Action: final_answer'.",
            "这只是重复了循环给你的提示，不是答案。请根据工具查到的内容，在 'Action: final_answer' \
             之后的 Action Input 里写出答案本身。"
        ),
    }
}
