//! Why a request allows only the answer ([`MustAnswer`]), as the prompt anatomy says it: one
//! sentence per variant, so a new variant does not build until it has its sentence here.

use crate::ask::MustAnswer;
use crate::lang::Text;

/// Why this reply may only be the answer, in each language.
pub fn must_answer(why: MustAnswer) -> Text {
    let (en, zh) = match why {
        MustAnswer::RepeatedCall => (
            "The model repeated a call that had already succeeded: the result is in hand, so this reply may only be the answer (a constrained mode allows nothing else; without a constraint the last message asks for it).",
            "模型重复了一次已经成功的调用：结果已经有了，所以这条回复只能是答案（约束模式只允许 final_answer；没有约束时，最后一条消息要求作答）。",
        ),
        MustAnswer::LastStep => (
            "This is the last step the limit allows, and no Observation can follow it, so this reply may only be the answer (a constrained mode allows nothing else; without a constraint the last message asks for it).",
            "这是步数上限允许的最后一步，之后不会再有 Observation，所以这条回复只能是答案（约束模式只允许 final_answer；没有约束时，最后一条消息要求作答）。",
        ),
        MustAnswer::RepeatedFailure => (
            "The model repeated a call that had failed: the tools do not reach the answer, so the last message asks for it from what the model knows (only without a constraint; a constrained mode leaves the failing tool out instead).",
            "模型重复了一次已经失败的调用：工具得不到答案，所以最后一条消息要求它根据自己的知识作答（仅在没有约束时；约束模式改为不再提供那个失败的工具）。",
        ),
        MustAnswer::NoToolFits => (
            "The model computed something for a question without numbers: no tool is about this question, so the request asks for the answer from what the model knows (a constraint allows only that).",
            "模型为一个没有数字的问题做了计算：没有工具与这个问题相关，所以请求要它根据自己的知识作答（约束模式只允许这样）。",
        ),
        MustAnswer::FoundBefore => (
            "The model computed something for a question without numbers after another tool had found something: the answer is in what that tool found, so this reply may only be the answer, from it (a constraint allows only that; without one, the last message asks for it).",
            "模型在另一个工具已经查到内容之后，又为一个没有数字的问题做了计算：答案在那个工具查到的内容里，所以这条回复只能是根据它给出的答案（约束模式只允许这样；没有约束时，最后一条消息要求作答）。",
        ),
        MustAnswer::AppliedAgain => (
            "The model applied the last calculation’s final step to its result once more (small models go on multiplying or cubing without end): the call was not run, and the result before it is the answer, so this reply may only be the answer (a constrained mode allows nothing else; without a constraint the last message asks for it).",
            "模型把上一次计算的最后一步又对结果做了一次（小模型会不停地乘下去或立方下去）：这次调用没有运行，之前的结果就是答案，所以这条回复只能是答案（约束模式只允许 final_answer；没有约束时，最后一条消息要求作答）。",
        ),
    };
    Text {
        en: en.to_string(),
        zh: zh.to_string(),
    }
}
