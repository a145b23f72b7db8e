//! The title of every kind a page names: a guard, an outcome, a strategy, a constraint, how
//! older rounds are kept, where an observation came from and whose a message is. One match
//! per kind, English and Chinese side by side. [`titles`] gives them all under the page's
//! string keys; scripts/build writes them into www/titles.js, so the page keeps no copy, and
//! tests/titles.rs checks that every variant serde knows has its title.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::llm::{Constrained, Role};
use crate::strategy::{Compress, Strategy};
use crate::trace::{Guard, ObservationSource, Outcome};

/// Every title in each language, keyed as the page's strings are (`guard.step_limit`), and
/// the settings' choices in the order a page lists them.
#[derive(Debug, Serialize)]
pub struct Titles {
    pub en: BTreeMap<String, &'static str>,
    pub zh: BTreeMap<String, &'static str>,
    pub strategy: Vec<String>,
    pub constrained: Vec<String>,
    pub compress: Vec<String>,
}

pub fn titles() -> Titles {
    let mut out = Titles {
        en: BTreeMap::new(),
        zh: BTreeMap::new(),
        strategy: Strategy::ALL.iter().map(Strategy::label).collect(),
        constrained: Constrained::ALL.iter().map(Constrained::label).collect(),
        compress: Compress::ALL.iter().map(Compress::label).collect(),
    };
    let mut add = |key: String, (en, zh): (&'static str, &'static str)| {
        out.en.insert(key.clone(), en);
        out.zh.insert(key, zh);
    };
    for name in Guard::TAGS.iter().copied() {
        if let Some(title) = super::guards::title(name) {
            add(format!("guard.{name}"), title);
        }
    }
    for name in Outcome::TAGS.iter().copied() {
        if let Some(title) = outcome(name) {
            add(format!("outcome.{name}"), title);
        }
    }
    for s in Strategy::ALL {
        let (short, long) = strategy(s);
        add(format!("compare.strategy.{}", s.label()), short);
        add(format!("strategy.{}", s.label()), long);
    }
    for c in Constrained::ALL {
        let (short, long) = constrained(c);
        add(format!("compare.constrained.{}", c.label()), short);
        add(format!("constrained.{}", c.label()), long);
    }
    for c in Compress::ALL {
        add(format!("limits.compress.{}", c.label()), compress(c));
    }
    for s in ObservationSource::ALL {
        add(format!("source.{}", s.label()), source(s));
    }
    for r in Role::ALL {
        add(format!("role.{}", r.label()), role(&r));
    }
    out
}

/// How a run ended, in a word or two (Compare's table), by the outcome's tag.
fn outcome(tag: &str) -> Option<(&'static str, &'static str)> {
    Some(match tag {
        "answer" => ("answered", "已作答"),
        "step_limit" => ("step limit", "达到步数上限"),
        "format_errors" => ("format errors", "格式错误"),
        "repeated_calls" => ("repeated calls", "重复调用"),
        "model_error" => ("model error", "模型出错"),
        "aborted" => ("stopped", "已停止"),
        _ => return None,
    })
}

type Both = (&'static str, &'static str);

/// A strategy's name (Compare's columns) and its line in the Prompt panel's list.
fn strategy(strategy: Strategy) -> (Both, Both) {
    match strategy {
        Strategy::React => (
            ("ReAct", "ReAct"),
            (
                "ReAct: Thought, Action, Observation",
                "ReAct：Thought、Action、Observation 交替进行",
            ),
        ),
        Strategy::Act => (
            ("Act only", "只行动"),
            (
                "Act only: Actions without Thoughts",
                "只行动：只有 Action，没有 Thought",
            ),
        ),
        Strategy::Cot => (
            ("Chain of thought", "思维链"),
            (
                "Chain of thought: reasoning, no tools",
                "思维链：只推理，不用工具",
            ),
        ),
        Strategy::Plan => (
            ("Plan and execute", "先计划后执行"),
            (
                "Plan and execute: a numbered plan first, then ReAct",
                "先计划后执行：先写编号的计划，再按 ReAct 执行",
            ),
        ),
        Strategy::Reflect => (
            ("Reflect", "反思"),
            (
                "Reflect: ReAct, and one self-check of the answer",
                "反思：ReAct，并在作答前自查一次答案",
            ),
        ),
    }
}

/// A constraint's short name (Compare's columns) and its line in the Connect panel's list.
fn constrained(constrained: Constrained) -> (Both, Both) {
    match constrained {
        Constrained::Auto => (
            ("Auto", "自动"),
            ("Auto (from what the server is)", "自动（按服务器类型选择）"),
        ),
        Constrained::Off => (
            ("Off", "关闭"),
            ("Off (plain prompt)", "关闭（仅靠提示词）"),
        ),
        Constrained::JsonObject => (
            ("JSON object", "JSON 对象"),
            (
                "JSON object (llama-cpp-python)",
                "JSON 对象（llama-cpp-python）",
            ),
        ),
        Constrained::JsonSchema => (
            ("JSON schema", "JSON schema"),
            (
                "JSON schema (llama.cpp, Ollama, vLLM, OpenAI)",
                "JSON schema 约束（llama.cpp、Ollama、vLLM、OpenAI）",
            ),
        ),
        Constrained::Grammar => (
            ("Grammar", "语法（GBNF）"),
            (
                "GBNF grammar (llama.cpp, the in-page engine)",
                "GBNF 语法（llama.cpp、页面内引擎）",
            ),
        ),
    }
}

fn compress(compress: Compress) -> Both {
    match compress {
        Compress::Window => ("Dropped", "直接丢弃"),
        Compress::Summary => ("Summarised first", "先总结再丢弃"),
    }
}

/// An observation's badge: where its text came from.
fn source(source: ObservationSource) -> Both {
    match source {
        ObservationSource::Tool => ("tool result", "工具结果"),
        ObservationSource::ToolError => ("tool error", "工具出错"),
        ObservationSource::Feedback => ("feedback from the loop", "循环给出的反馈"),
        ObservationSource::Cached => ("earlier result reused", "复用之前的结果"),
    }
}

/// A message's role in the prompt anatomy: the API's own word in English.
fn role(role: &Role) -> Both {
    match role {
        Role::System => ("system", "系统"),
        Role::User => ("user", "用户"),
        Role::Assistant => ("assistant", "助手（模型）"),
    }
}
