//! What a reader is shown, in every language of the interface, one match per kind with the
//! English and the Chinese side by side: a guard's sentence and title in `guards.rs`;
//! outcomes, why an action was left out, tool call notes, repairs and format errors here; why
//! a request allows only the answer in `must_answer.rs`; a model error's message and its fix
//! in `errors.rs`; a refused setting, tool or trace file in `refusals.rs`; every other kind's
//! title (an outcome's, a strategy's, …) in `titles.rs`. No page keeps a copy of its own. A
//! tool-call note's English is its `Display`, which is also how a trace stores it
//! (`Note::read` reads it back); its Chinese is here.

mod errors;
mod guards;
mod must_answer;
mod refusals;
mod titles;

pub use errors::{hint, hosted_page, llm_error};
pub use guards::guard;
pub use must_answer::must_answer;
pub use refusals::{
    agent_error, config_error, misuse, registry_error, settings_error, trace_error, BadNumber,
    Given, Misuse,
};
pub use titles::{titles, Titles};

use crate::ask::{Avoid, AvoidWhy, Steer, SteerWhy, Unsteered};
use crate::lang::{Lang, Text};
use crate::parse::{FormatError, Repair};
use crate::settings::DEMO_MODEL;
use crate::told;
use crate::tools::{Evidence, ToolFit};
use crate::tools::{Note, ToolSpec};
use crate::trace::Outcome;

pub fn outcome(outcome: &Outcome) -> Text {
    let (en, zh) = match outcome {
        Outcome::Answer { answer } => (
            format!("Final answer: {answer}"),
            format!("最终答案：{answer}"),
        ),
        Outcome::StepLimit { steps, .. } => (
            format!("Stopped without an answer: the step limit of {steps} was reached."),
            format!("没有得到答案就停止了：达到了 {steps} 步的上限。"),
        ),
        Outcome::FormatErrors { count } => (
            format!("Stopped: the model broke the reply format {count} times in a row."),
            format!("已停止：模型连续 {count} 次违反回复格式。"),
        ),
        Outcome::RepeatedCalls { tool } => (
            format!("Stopped: the model kept calling {tool} with the same arguments."),
            format!("已停止：模型不断以相同参数调用 {tool}。"),
        ),
        Outcome::ModelError { error } => {
            let said = llm_error(error);
            (
                format!("Stopped by a model error: {}", said.en),
                format!("因模型调用出错而停止：{}", said.zh),
            )
        }
        Outcome::Aborted => (
            "Stopped by the user.".to_string(),
            "已被用户停止。".to_string(),
        ),
    };
    Text { en, zh }
}

/// A repair the parser applied, in each language.
pub fn repair(repair: Repair) -> Text {
    let (en, zh) = match repair {
        Repair::FullWidthColon => ("full-width colon ： read as :", "全角冒号“：”按半角“:”读取"),
        Repair::MarkdownLabel => ("markdown around a label ignored (e.g. **Action:**)", "忽略标签外的 Markdown（如 **Action:**）"),
        Repair::NumberedLabel => ("numbered label (e.g. Thought 1:) read without its number", "带编号的标签（如 Thought 1:）去掉编号读取"),
        Repair::AnswerLabel => ("'Answer:' read as 'Final Answer:'", "“Answer:”按“Final Answer:”读取"),
        Repair::InlineFinalAnswer => ("'Final Answer:' found in the middle of a line", "在一行中间找到了“Final Answer:”"),
        Repair::CodeFenceRemoved => ("code fence removed", "去掉代码块标记"),
        Repair::JsonExtractedFromProse => ("JSON extracted from prose", "从文字中取出了 JSON"),
        Repair::JsonObjectForm => ("action read from a JSON object", "从 JSON 对象中读出动作"),
        Repair::WrapperUnwrapped => ("outer wrapper object (e.g. tool_call) unwrapped", "去掉外层包装对象（如 tool_call）"),
        Repair::PaperForm => ("paper form tool[arg]", "论文写法 tool[参数]"),
        Repair::CallForm => ("call form tool(args)", "函数调用写法 tool(参数)"),
        Repair::InputWithoutLabel => ("input read from the lines after the Action (no 'Action Input:')", "没有“Action Input:”，从 Action 之后的几行读取输入"),
        Repair::ToolNameUnquoted => ("quotes or backticks around the tool name removed", "去掉工具名外的引号"),
        Repair::SingleQuotes => ("single quotes → double", "单引号改为双引号"),
        Repair::TrailingComma => ("trailing comma removed", "删去多余的逗号"),
        Repair::CommentRemoved => ("comment removed from JSON", "删去 JSON 中的注释"),
        Repair::PythonLiterals => ("Python True/False/None → true/false/null", "Python 字面量 True/False/None 改为 JSON 的 true/false/null"),
        Repair::RawControlInString => ("raw newline or tab inside a JSON string accepted", "接受 JSON 字符串中未转义的换行或制表符"),
        Repair::InvalidEscape => ("invalid escape in a JSON string kept as text", "JSON 字符串中无效的转义按原文保留"),
        Repair::UnquotedKey => ("unquoted JSON key accepted", "接受没有引号的键"),
        Repair::StringJsonDecoded => ("JSON written inside a string decoded", "解开写在字符串里的 JSON"),
        Repair::AnswerUnwrapped => ("{\"answer\": …} unwrapped to its text", "把 {\"answer\": …} 解开为其中的文字"),
        Repair::TrailingTextIgnored => ("text after the JSON input ignored", "忽略 JSON 输入之后的文字"),
        Repair::HallucinatedObservationDropped => ("hallucinated Observation dropped", "删去模型自编的 Observation"),
        Repair::PartialObservationDropped => ("cut-off stop word (e.g. 'Obs') dropped", "删去被截断的停止词（如“Obs”）"),
        Repair::FinalAnswerIgnored => ("final answer after the action ignored", "忽略动作之后的最终答案"),
        Repair::ExtraActionIgnored => ("later actions ignored (only the first counts)", "忽略后面的动作（只算第一个）"),
        Repair::ActionAfterFinalIgnored => ("action after the final answer ignored", "忽略最终答案之后的动作"),
        Repair::InputCompletesFinalAnswer => ("'Action Input:' alone read as the answer to the last reply's 'Action: final_answer'", "单独的“Action Input:”作为上一条回复中“Action: final_answer”的答案读取"),
        Repair::ArgumentsRunAsCall => ("final_answer held a tool's arguments that no Observation had shown: that call was run", "final_answer 里是工具参数：执行了那次调用"),
        Repair::ExpressionRunAsCall => ("final_answer was an expression, not its value: the calculator was run on it", "final_answer 是算式而不是它的值：用计算器算了它"),
        Repair::ListedPairOrdered => ("two parameters given the same listed value got the two the question names, in its order (C and C for “100 °F to °C”: F, then C)", "两个参数被给了同一个列出值，改为问题所说的两个值，按问题的顺序（“100 华氏度换算成摄氏度”写成 C 和 C：改为 F，再是 C）"),
        Repair::PlaceNamed => ("a place argument was given the place the question names, as the tool writes places (中国 for “冰岛的人口”: Iceland; Oslo again where Cairo is not looked up yet: Cairo)", "地名参数改为问题所说的地方，按工具的写法（“冰岛的人口”写成中国：改为 Iceland；奥斯陆查过了而开罗还没查：改为开罗）"),
        Repair::ResultAsAnswer => ("the answer only named what the question names, once more: the last result a tool found is the answer", "答案又一次只说了问题里的词：以工具最后查到的结果为答案"),
        Repair::ListedValueCompleted => ("a listed value cut short, or written in other words, was given as the listed one it means (m for “miles”: mi; RMB: CNY)", "被截短或换了说法的列出值改为它所指的列出值（“miles”是 mi，而不是 m；RMB 是 CNY）"),
        Repair::ExpressionEvaluated => ("final_answer was an expression at the last step: its value is the answer", "最后一步的 final_answer 是算式：以它的值为答案"),
        Repair::CopiedLabelRemoved => ("the answer opened with a copied label ('Observation:'): the label was taken out", "答案开头照抄了标签（Observation:）：去掉了这个标签"),
        Repair::AnswerFromEarlierCall => ("final_answer repeated an earlier call's arguments: that call's result is the answer", "final_answer 重复了之前一次调用的参数：以那次调用的结果为答案"),
        Repair::ProseAsAnswer => ("only the answer was asked for, and the reply gave it without the format: its text is the answer", "请求只要答案，回复没有按格式给出：以回复的文字为答案"),
        Repair::NoToolActionIgnored => ("'Action: None' ignored; the Final Answer after it is used", "忽略“Action: None”，使用其后的 Final Answer"),
        Repair::TranslatedLabel => ("Chinese label read as its English keyword (思考 → Thought)", "中文标签按英文标签读取（思考 → Thought）"),
        Repair::InlineLabel => ("label found after a sentence, in the middle of a line", "在一行中间、一句话之后找到了标签"),
        Repair::BareActionLine => ("a line with only tool[arg] or finish(…) read as the Action", "只有 tool[参数] 或 finish(…) 的一行作为 Action 读取"),
        Repair::IncompleteActionSkipped => ("an incomplete step ('Action: final_answer' without an answer, or 'Action Input:' \
                 without an Action) skipped; the complete action after it is used", "跳过不完整的一步（“Action: final_answer”没有答案，或“Action Input:”没有 Action），使用其后完整的动作"),
        Repair::ToolNameTrimmed => ("words around the tool name dropped", "去掉工具名前后多余的词"),
        Repair::FullWidthPunctuation => ("full-width quotes, colons or commas in JSON read as ASCII", "JSON 中的全角引号、冒号或逗号按半角读取"),
        Repair::UnclosedJson => ("missing closing brackets at the end of the JSON added", "在 JSON 末尾补上缺少的右括号"),
        Repair::UnbalancedQuote => ("opening quote that is never closed dropped", "删去没有闭合的左引号"),
        Repair::UnclosedString => ("missing closing quote before the closing bracket added", "补上右括号前缺少的右引号"),
        Repair::ReasoningSkipped => ("<think>…</think> reasoning read as thought, not as protocol", "<think>…</think> 中的推理按思考读取，不按协议读取"),
    };
    Text {
        en: en.to_string(),
        zh: zh.to_string(),
    }
}

/// A format error, in each language. The English is the error's `Display`.
pub fn format_error(error: &FormatError) -> Text {
    let (en, zh) = match error {
        FormatError::Empty => ("empty reply".to_string(), "回复为空".to_string()),
        FormatError::NoAction => (
            "no Action or Final Answer found".to_string(),
            "没有找到 Action 或 Final Answer".to_string(),
        ),
        FormatError::ThoughtOnly => (
            "only a Thought, no Action or Final Answer".to_string(),
            "只有 Thought，没有 Action 或 Final Answer".to_string(),
        ),
        FormatError::NoTool => (
            "the model says no tool is needed but gave no answer".to_string(),
            "模型说不需要工具，却没有给出答案".to_string(),
        ),
        FormatError::MissingToolName => (
            "Action without a tool name".to_string(),
            "Action 缺少工具名".to_string(),
        ),
        FormatError::InputWithoutAction => (
            "Action Input without an Action".to_string(),
            "有 Action Input 却没有 Action".to_string(),
        ),
        FormatError::MixedActionAndAnswer => (
            "one line holds both an Action and a Final Answer".to_string(),
            "同一行里既有 Action 又有 Final Answer".to_string(),
        ),
        FormatError::EmptyAnswer => (
            "empty Final Answer".to_string(),
            "Final Answer 为空".to_string(),
        ),
        FormatError::XmlToolCall => (
            "XML tool call instead of Action/Action Input".to_string(),
            "用了 XML 工具调用，而不是 Action/Action Input".to_string(),
        ),
        FormatError::InvalidJson {
            line,
            column,
            message,
        } => (
            format!("invalid JSON at line {line}, column {column}: {message}"),
            // serde_json's own message has no Chinese; the place is enough to find it.
            format!("第 {line} 行第 {column} 列的 JSON 无效"),
        ),
        FormatError::ArgumentsAsAnswer { tool } => (
            format!("final_answer given {tool}'s arguments instead of an answer"),
            format!("final_answer 里写的是 {tool} 的参数，不是答案"),
        ),
        FormatError::ExampleCopied => (
            "copied from the example in the prompt".to_string(),
            "照抄了提示词里的示例".to_string(),
        ),
        FormatError::QuestionRepeated => (
            "the answer only repeats the question".to_string(),
            "答案只是重复了问题".to_string(),
        ),
        FormatError::YesNoAsked => (
            "the question asks yes or no, and the answer is an amount alone".to_string(),
            "问题问的是“是不是”，答案却只有一个数量".to_string(),
        ),
        FormatError::NumberUnused { number } => (
            format!("the answer leaves out the question's {number}"),
            format!("答案没有用到问题里的 {number}"),
        ),
        FormatError::NameUnused { name, .. } => (
            format!("the answer leaves out {name}, which the question names"),
            format!("答案没有用到问题里提到的 {name}"),
        ),
        FormatError::ResultMissed { result } => (
            format!("the answer does not give the calculator's result, {result}"),
            format!("答案没有给出计算器的结果 {result}"),
        ),
        FormatError::LabelAsAnswer { label } => (
            format!("the answer is only “{label}”, a word of the format"),
            format!("答案只是格式里的词“{label}”"),
        ),
        FormatError::ActionNotThought { chosen, action } => (
            format!("the Thought chose {chosen}, the Action is {action}"),
            format!("Thought 选择了 {chosen}，Action 却是 {action}"),
        ),
        FormatError::NoteCopied => (
            "the answer repeats the loop's note".to_string(),
            "答案重复了循环的提示".to_string(),
        ),
    };
    Text { en, zh }
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_error(self).en)
    }
}

/// Why a request leaves an action out of the reply's allowed ones.
pub fn avoid(avoid: &Avoid) -> Text {
    let tool = &avoid.tool;
    let (en, zh) = match avoid.why {
        AvoidWhy::Repeated => (
            format!("The model just repeated a call to {tool}, so the constraint leaves {tool} out of this reply's allowed actions."),
            format!("模型刚刚重复调用了 {tool}，所以约束在本次回复的可选动作中去掉了 {tool}。"),
        ),
        AvoidWhy::WrongTool => (
            format!("{tool} said the model's input is not the kind it handles, so the constraint leaves {tool} out of this reply's allowed actions."),
            format!("{tool} 表示模型的输入不是它能处理的，所以约束在本次回复的可选动作中去掉了 {tool}。"),
        ),
        AvoidWhy::Runaway => (
            format!("The model's input for {tool} ran on to the token limit, so the constraint leaves {tool} out of this reply's allowed actions."),
            format!("模型给 {tool} 的输入一直写到了 token 上限，所以约束在本次回复的可选动作中去掉了 {tool}。"),
        ),
        AvoidWhy::ActFirst => (
            "The first reply must call a tool: the constraint leaves final_answer out of its allowed actions (small models otherwise answer from memory at once).".to_string(),
            "第一条回复必须调用工具：约束在允许的动作中去掉了 final_answer（否则小模型会立刻凭记忆作答）。".to_string(),
        ),
        AvoidWhy::NotAnAnswer => (
            "The model's last final answer was not an answer yet, so the constraint leaves final_answer out of this reply's allowed actions.".to_string(),
            "模型上一次的 final_answer 还不是答案，所以约束在本次回复的可选动作中去掉了 final_answer。".to_string(),
        ),
        AvoidWhy::Counted => (
            format!("{tool} already ran with the input the question fixes, so the constraint leaves {tool} out of this reply's allowed actions (called again without it, the 0.5B model lost the day it had counted)."),
            format!("{tool} 已经用问题决定的输入运行过，所以约束在本次回复的可选动作中去掉了 {tool}（不带这个输入再调用时，0.5B 模型丢掉了已经算出的那一天）。"),
        ),
    };
    Text { en, zh }
}

/// Why the first reply is steered to no tool: the model chooses.
pub fn unsteered(unsteered: &Unsteered) -> Text {
    match unsteered {
        Unsteered::Weak { best } => Text {
            en: format!("No tool's evidence is strong (the best is {best}'s, see the tool fit), so the constraint steers to none: the model chooses its tool."),
            zh: format!("没有哪个工具的依据充分（最好的是 {best}，见工具匹配），所以约束不引向任何工具：由模型自己选择。"),
        },
        Unsteered::Split { tools: [a, b] } => Text {
            en: format!("The evidence is split: {a} and {b} fit the question as well (see the tool fit), so the constraint steers to neither: the model chooses."),
            zh: format!("依据不分上下：{a} 和 {b} 与问题同样匹配（见工具匹配），所以约束不引向其中任何一个：由模型自己选择。"),
        },
    }
}

/// Why a request leaves page tools out of the reply's allowed actions.
pub fn left_out(tools: &[String]) -> Text {
    let list = tools.join(", ");
    Text {
        en: format!("Something was found, and nothing in the question points to {list}: the constraint leaves them out (a call could only invent its input)."),
        zh: format!("已经找到了结果，而问题里没有指向 {list} 的内容：约束去掉了它们（调用它们只能编造输入）。"),
    }
}

/// Why a request allows only one tool.
pub fn steer(steer: &Steer) -> Text {
    let tool = &steer.tool;
    let (en, zh) = match steer.why {
        SteerWhy::Fits => (
            format!("The question's evidence points to {tool} (see the tool fit), so the constraint allows only {tool} in this reply."),
            format!("问题里的依据指向 {tool}（见工具匹配），所以约束在本次回复中只允许 {tool}。"),
        ),
        SteerWhy::Thought => (
            format!("The last Thought chose {tool} and its Action called another tool, so the constraint allows only {tool} in this reply."),
            format!("上一个 Thought 选择了 {tool}，它的 Action 却调用了别的工具，所以约束在本次回复中只允许 {tool}。"),
        ),
        SteerWhy::Next => (
            format!("After what ran, the question still needs {tool}, so the constraint allows only {tool} in this reply."),
            format!("在已运行的工具之后，问题还需要 {tool}，所以约束在本次回复中只允许 {tool}。"),
        ),
    };
    let (mut en, mut zh) = (en, zh);
    if !steer.uses.is_empty() {
        let uses = steer.uses.join(", ");
        en.push_str(&format!(
            " Its expression must use {uses} from the question, with an operator."
        ));
        zh.push_str(&format!("它的算式必须用上问题里的 {uses}，并带有运算符。"));
    }
    if !steer.seen.is_empty() {
        let seen = steer.seen.join(", ");
        en.push_str(&format!(
            " Its numbers are those the question and the results gave ({seen}) or short ones."
        ));
        zh.push_str(&format!(
            "算式里的数只能是问题和结果里出现过的（{seen}），或很短的数。"
        ));
    }
    if let Some(args) = &steer.args {
        let args = crate::fields::json_text(&serde_json::Value::Object((**args).clone()));
        en.push_str(&format!(" The question fixes its input: {args}."));
        zh.push_str(&format!("问题决定了它的输入：{args}。"));
    }
    Text { en, zh }
}

/// A tool's fit to the question: its score and what in the question gave it.
pub fn fit(fit: &ToolFit) -> Text {
    let (en, zh): (Vec<String>, Vec<String>) = fit.evidence.iter().map(evidence).unzip();
    let (tool, score) = (&fit.tool, fit.score);
    match fit.evidence.is_empty() {
        true => Text {
            en: format!("{tool}: 0, nothing in the question points to it"),
            zh: format!("{tool}：0，问题里没有指向它的内容"),
        },
        false => Text {
            en: format!("{tool}: {score}, {}", en.join("; ")),
            zh: format!("{tool}：{score}，{}", zh.join("；")),
        },
    }
}

fn evidence(evidence: &Evidence) -> (String, String) {
    match evidence {
        Evidence::Described { word } => (
            format!("shares “{word}” with its description"),
            format!("和它的说明都有“{word}”"),
        ),
        Evidence::Keyword { word } => (
            format!("the question asks about “{word}”, its subject"),
            format!("问题问的是“{word}”，正是它的主题"),
        ),
        Evidence::Example { example } => (
            format!("like its example “{example}”"),
            format!("像它的示例“{example}”"),
        ),
        Evidence::Value { param, value } => (
            format!("“{value}” is a value of its {param}"),
            format!("“{value}”是它的参数 {param} 的取值"),
        ),
        Evidence::Place { param, place } => (
            format!("“{place}” is a place, for its {param}"),
            format!("“{place}”是地名，可作它的参数 {param}"),
        ),
        Evidence::Qualifier { word } => (
            format!("“{word}” is about now, maybe of what another tool gives"),
            format!("“{word}”说的是现在，也许是别的工具给出的现在的情况"),
        ),
        Evidence::Outranked { word, by } => (
            format!("“{word}” counts for {by}, what the question asks about"),
            format!("“{word}”属于问题所问的 {by}"),
        ),
        Evidence::Awaits { word, by } => (
            format!("“{word}” waits for what {by} finds: one number is not a computation yet"),
            format!("“{word}”要等 {by} 查到的结果：只有一个数还算不了"),
        ),
        Evidence::Compares { phrase } => (
            format!(
                "“{phrase}” asks how much two things differ: a computation once both are found"
            ),
            format!("“{phrase}”问的是两者相差多少：两个都查到之后再计算"),
        ),
        Evidence::Unfilled { word, param } => (
            format!("“{word}”, but the question gives no number for its {param}"),
            format!("有“{word}”，但问题没有给出它的参数 {param} 要的数"),
        ),
        Evidence::Source { word } => (
            format!("the question points to the documents (“{word}”)"),
            format!("问题指向文档（“{word}”）"),
        ),
        Evidence::Name { term } => (
            format!("“{term}” names a document"),
            format!("“{term}”是文档里的名称"),
        ),
        Evidence::InDocuments { term } => (
            format!("the documents hold “{term}”"),
            format!("文档里有“{term}”"),
        ),
        Evidence::Number { number } => (format!("the number {number}"), format!("数字 {number}")),
        Evidence::Operation { word } => {
            (format!("the operation “{word}”"), format!("运算“{word}”"))
        }
        Evidence::Quantity { word } => (
            format!("asks for an amount (“{word}”)"),
            format!("问的是数量（“{word}”）"),
        ),
        Evidence::Time { word, now: true } => (
            format!("“{word}” is about now"),
            format!("“{word}”说的是现在"),
        ),
        Evidence::Time { word, now: false } => (
            format!("“{word}” is about dates and times"),
            format!("“{word}”与日期时间有关"),
        ),
        Evidence::Day { phrase, days } => (
            format!("“{phrase}” is a day counted from today ({days:+} days)"),
            format!("“{phrase}”是从今天算起的某一天（{days:+} 天）"),
        ),
    }
}

/// A streamed reply that ended without `[DONE]`.
pub fn unfinished_stream() -> Text {
    Text {
        en: "The stream ended without [DONE]; the reply may be incomplete.".into(),
        zh: "流式回复没有以 [DONE] 结束；回复可能不完整。".into(),
    }
}

/// The model a trace names: the demo's name said in each language, any other as it is.
pub fn model(name: &str) -> Text {
    let zh = if name == DEMO_MODEL {
        "演示模型（脚本，不是大模型）"
    } else {
        name
    };
    Text {
        en: name.to_string(),
        zh: zh.to_string(),
    }
}

/// A tool's description as the Tools panel shows it: what the model reads in each language.
pub fn tool_description(spec: &ToolSpec) -> Text {
    Text {
        en: told::tool_description(spec, Lang::En).to_string(),
        zh: told::tool_description(spec, Lang::Zh).to_string(),
    }
}

/// A correction made to a tool call.
pub fn note(note: &Note) -> Text {
    let zh = match note {
        Note::ToolRenamed { written, tool } => format!("工具名 '{written}' 按 '{tool}' 读取"),
        Note::KeyRenamed { key, param } => format!("键 '{key}' 按 '{param}' 读取"),
        Note::ExtraKeyIgnored { key } => format!("忽略多余的键 '{key}'"),
        Note::InputIgnored { tool } => format!("忽略输入：{tool} 不需要参数"),
        Note::Other(text) => text.clone(),
    };
    Text {
        en: note.to_string(),
        zh,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Guard;

    #[test]
    fn chinese_keeps_the_details_of_the_english() {
        let guard_text = guard(&Guard::RepeatedCall {
            tool: "calculator".into(),
            repeat: 2,
        });
        assert!(guard_text.zh.contains("calculator") && guard_text.zh.contains("第 2 次"));
        assert!(guard_text.en.contains("calculator was called again"));
        // A tool's error is said in the reader's language too, as the model is told it.
        let failed = guard(&Guard::ToolFailed {
            error: crate::tools::ToolError::Calculator(
                crate::tools::calculator::CalcError::DivisionByZero,
            ),
        });
        assert!(failed.zh.contains("除数为零"), "{}", failed.zh);
        assert!(failed.en.contains("division by zero"), "{}", failed.en);
        assert_eq!(repair(Repair::SingleQuotes).zh, "单引号改为双引号");
        assert_eq!(format_error(&FormatError::Empty).zh, "回复为空");
        // The Chinese keeps what a reader needs to find the fault.
        let json = format_error(&FormatError::InvalidJson {
            line: 2,
            column: 7,
            message: "expected value".into(),
        });
        assert_eq!(json.zh, "第 2 行第 7 列的 JSON 无效");
        assert_eq!(outcome(&Outcome::Aborted).zh, "已被用户停止。");
    }

    #[test]
    fn a_page_elsewhere_says_what_a_server_here_needs_and_what_the_browser_does() {
        for local in [
            "http://127.0.0.1:8000",
            "http://localhost:8000",
            "http://[::1]:8000",
            "null",
            "",
        ] {
            assert_eq!(hosted_page(local), None, "{local}");
        }
        let https = hosted_page("https://me.github.io").unwrap();
        for part in [
            "OLLAMA_ORIGINS=https://me.github.io ollama serve",
            "lms server start --cors",
            "llama.cpp's server allows every origin",
            "lets an https page call http://localhost",
            "asks you",
        ] {
            assert!(https.en.contains(part), "{part:?} not in {}", https.en);
        }
        assert!(https
            .zh
            .contains("OLLAMA_ORIGINS=https://me.github.io ollama serve"));
        let lan = hosted_page("http://192.168.1.5:8000").unwrap();
        assert!(lan
            .en
            .contains("OLLAMA_ORIGINS=http://192.168.1.5:8000 ollama serve"));
        assert!(lan.en.contains("only on https pages"), "{}", lan.en);
        assert!(lan.zh.contains("python3 -m http.server"), "{}", lan.zh);
    }
}
