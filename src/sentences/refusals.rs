//! What a page says when it refuses what a person gave it: settings, a server address, a tool
//! definition, a trace file. One match per kind with English and Chinese; each type's
//! `Display` is the English.

use std::fmt;

use crate::agent::AgentError;
use crate::lang::Text;
use crate::llm::{ConfigError, MAX_TEMPERATURE};
use crate::numbers::shown;
use crate::settings::SettingsError;
use crate::tools::{RegistryError, MAX_EVIDENCE, MAX_EVIDENCE_CHARS, MAX_NAME_LEN};
use crate::trace::TraceError;

fn text(en: String, zh: String) -> Text {
    Text { en, zh }
}

/// A saved trace that cannot be opened.
pub fn trace_error(error: &TraceError) -> Text {
    match error {
        TraceError::NotJson { message } => text(
            format!("This file is not JSON: {message}"),
            format!("这个文件不是 JSON：{message}"),
        ),
        TraceError::NewerVersion { found, supported } => text(
            format!(
                "This trace has format version {found}; this reactloop reads up to version \
                 {supported}. Update reactloop to open it."
            ),
            format!("这个运行记录的格式版本是 {found}；这个 reactloop 最多能读版本 {supported}。请更新 reactloop 再打开它。"),
        ),
        TraceError::Invalid { message } => text(
            format!("This JSON is not a reactloop trace: {message}"),
            format!("这个 JSON 不是 reactloop 的运行记录：{message}"),
        ),
    }
}

/// Settings a run cannot start with.
pub fn settings_error(error: &SettingsError) -> Text {
    match error {
        SettingsError::Invalid { message } => text(
            format!("Invalid settings: {message}"),
            format!("设置无效：{message}"),
        ),
        SettingsError::Limit { name, got } => {
            let got = shown(*got);
            text(
                format!("{name} must be a whole number of at least 1 (got {got})."),
                format!("{name} 必须是不小于 1 的整数（收到的是 {got}）。"),
            )
        }
        SettingsError::Client(error) => config_error(error),
        SettingsError::UnknownTemplate { name } => text(
            format!(
                "texts: the loop sends no text named \"{name}\" (the Prompt panel lists their \
                 names)."
            ),
            format!("texts：循环不发送名为“{name}”的文字（提示词面板列出了它们的名字）。"),
        ),
    }
}

/// Server settings that cannot work.
pub fn config_error(error: &ConfigError) -> Text {
    match error {
        ConfigError::EmptyBaseUrl => text(
            "Enter the server's base URL, for example http://localhost:11434/v1 (Ollama) or \
             http://localhost:8080/v1 (llama.cpp)."
                .to_string(),
            "请填写服务器的基础 URL，例如 http://localhost:11434/v1（Ollama）或 http://localhost:8080/v1（llama.cpp）。"
                .to_string(),
        ),
        ConfigError::BadScheme { url } => text(
            format!("The base URL \"{url}\" must start with http:// or https://."),
            format!("基础 URL \"{url}\" 必须以 http:// 或 https:// 开头。"),
        ),
        ConfigError::UrlHasWhitespace { url } => text(
            format!("The base URL \"{url}\" contains a space; remove it."),
            format!("基础 URL \"{url}\" 中有空格；请删掉它。"),
        ),
        ConfigError::UrlHasQuery { url } => text(
            format!(
                "The base URL \"{url}\" must not contain ? or #; give only the address, up to \
                 /v1."
            ),
            format!("基础 URL \"{url}\" 不能包含 ? 或 #；只填地址，到 /v1 为止。"),
        ),
        ConfigError::MissingHost { url } => text(
            format!("The base URL \"{url}\" has no server name after http:// or https://."),
            format!("基础 URL \"{url}\" 在 http:// 或 https:// 后面没有服务器名。"),
        ),
        ConfigError::EmptyModel => text(
            "Enter a model name: Ollama needs one it has pulled (e.g. qwen2.5-coder:0.5b); \
             llama.cpp accepts any name."
                .to_string(),
            "请填写模型名称：Ollama 需要一个它已经拉取的模型（例如 qwen2.5-coder:0.5b）；llama.cpp 接受任何名称。"
                .to_string(),
        ),
        ConfigError::BadTemperature { value } => {
            let max = shown(MAX_TEMPERATURE);
            text(
                format!("The temperature must be a number from 0 to {max}, not {value}."),
                format!("温度必须是 0 到 {max} 之间的数，而不是 {value}。"),
            )
        }
        ConfigError::ZeroMaxTokens => text(
            "Max tokens must be at least 1 (or left empty for the server's default).".to_string(),
            "最大 token 数至少为 1（或留空，使用服务器的默认值）。".to_string(),
        ),
        ConfigError::ZeroTimeout => text(
            "The timeout must be more than 0 ms.".to_string(),
            "超时必须大于 0 毫秒。".to_string(),
        ),
        ConfigError::BadApiKey => text(
            "The API key contains a line break or a non-ASCII character, which cannot be sent \
             in an HTTP header; paste it again."
                .to_string(),
            "API 密钥中有换行或非 ASCII 字符，无法放进 HTTP 请求头；请重新粘贴。".to_string(),
        ),
    }
}

/// A tool definition the registry refuses.
pub fn registry_error(error: &RegistryError) -> Text {
    match error {
        RegistryError::InvalidName { name } => text(
            format!(
                "invalid tool name '{name}': use 1 to {MAX_NAME_LEN} letters, digits or \
                 underscores, not starting with a digit"
            ),
            format!("工具名 '{name}' 无效：请用 1 到 {MAX_NAME_LEN} 个字母、数字或下划线，且不以数字开头"),
        ),
        RegistryError::ReservedName { name } => text(
            format!("'{name}' is reserved: the model uses it to give its final answer"),
            format!("'{name}' 是保留名称：模型用它给出最终答案"),
        ),
        RegistryError::BuiltinName { name } => text(
            format!("'{name}' is the name of a built-in tool; choose another"),
            format!("'{name}' 是内置工具的名称；请换一个"),
        ),
        RegistryError::NameClash { name, existing } => text(
            format!(
                "'{name}' is too similar to the tool '{existing}' (names are matched ignoring \
                 case and underscores); choose another"
            ),
            format!("'{name}' 与工具 '{existing}' 太相似（比较名称时忽略大小写和下划线）；请换一个"),
        ),
        RegistryError::InvalidSchema { name, message } => text(
            format!("the parameters of '{name}' are not a usable schema: {message}"),
            format!("'{name}' 的参数不是可用的模式（schema）：{message}"),
        ),
        RegistryError::RoleNotDeclarable { name } => text(
            format!("'{name}' may declare the role 'computes' or none: the clock's and the document search's roles are the built-in tools' own"),
            format!("'{name}' 只能声明角色 'computes' 或不声明：时钟和文档搜索的角色属于内置工具"),
        ),
        RegistryError::TooMuchEvidence { name } => text(
            format!("'{name}' declares too much: at most {MAX_EVIDENCE} keywords and {MAX_EVIDENCE} examples, each at most {MAX_EVIDENCE_CHARS} characters"),
            format!("'{name}' 声明的内容太多：关键词和示例各最多 {MAX_EVIDENCE} 条，每条最多 {MAX_EVIDENCE_CHARS} 个字符"),
        ),
    }
}

/// A call the browser module's API refuses at this moment (`wasm/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Misuse {
    /// `start` while a step is in flight.
    StillRunning,
    /// A second step while one is in flight.
    Busy,
    NoQuestion,
    /// `ask` when the run waits for a tool or is over.
    NotAskingModel,
    /// `retry`, `exportTrace` or `trace` before any run.
    NothingRan,
    /// `step` or `fork` before `start`.
    NotStarted,
    /// `listModels` with settings that name no server.
    NoServer,
    /// `registerTool` without a `run` function.
    NoRunFunction,
    /// `fork` with a part other than "reply" or "observation".
    ForkPart {
        part: String,
    },
    /// `fork` at a step that never waited there.
    ForkStep {
        step: usize,
    },
    /// A grader's task (`checkAnswer`) whose `expect` has no text and no number.
    NoExpectation {
        task: String,
    },
    /// A value the page passed that is not what it must be; `message` says why (serde's
    /// wording).
    Invalid {
        what: Given,
        message: String,
    },
    /// A number JSON cannot hold, in a value the page passed; `key` names it (`None`: the
    /// value itself).
    NotJsonNumber {
        what: Given,
        key: Option<String>,
        got: BadNumber,
    },
}

/// A JavaScript number JSON cannot hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadNumber {
    NaN,
    Infinity,
    NegativeInfinity,
    /// A BigInt beyond a JavaScript number's safe integers.
    BigInt,
}

/// What a page passes the browser module as a plain JS value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    Settings,
    ToolDefinition,
    Edit,
    ModelReply,
    Expectation,
}

pub fn misuse(misuse: &Misuse) -> Text {
    let (en, zh) = match misuse {
        Misuse::StillRunning => (
            "A step is still running; abort it first.".to_string(),
            "还有一步在运行；请先中止它。".to_string(),
        ),
        Misuse::Busy => (
            "A step is already running.".to_string(),
            "已经有一步在运行。".to_string(),
        ),
        Misuse::NoQuestion => (
            "Ask a question first.".to_string(),
            "请先提一个问题。".to_string(),
        ),
        Misuse::NotAskingModel => (
            "The run is not waiting for the model now.".to_string(),
            "运行现在没有在等模型回复。".to_string(),
        ),
        Misuse::NothingRan => (
            "Nothing has run yet.".to_string(),
            "还没有运行过任何内容。".to_string(),
        ),
        Misuse::NotStarted => (
            "Call start(question) first.".to_string(),
            "请先调用 start(question)。".to_string(),
        ),
        Misuse::NoServer => (
            "No server configured.".to_string(),
            "没有配置服务器。".to_string(),
        ),
        Misuse::NoRunFunction => (
            "A tool needs a run(args) function.".to_string(),
            "工具需要一个 run(args) 函数。".to_string(),
        ),
        Misuse::ForkPart { part } => (
            format!("A fork replaces a \"reply\" or an \"observation\", not \"{part}\"."),
            format!("分叉只能替换 \"reply\" 或 \"observation\"，不能替换 \"{part}\"。"),
        ),
        Misuse::ForkStep { step } => (
            format!("Step {step} of this run cannot be forked there."),
            format!("这次运行的第 {step} 步不能在那里分叉。"),
        ),
        Misuse::NoExpectation { task } => (
            format!("Task {task} expects nothing: give it any_of (texts) or number."),
            format!("任务 {task} 没有给出期望的答案：请给出 any_of（文本）或 number。"),
        ),
        Misuse::Invalid { what, message } => {
            let (en, zh) = given(*what);
            (
                format!("Invalid {en}: {message}"),
                format!("{zh}无效：{message}"),
            )
        }
        Misuse::NotJsonNumber { what, key, got } => {
            let (en, zh) = given(*what);
            let (key_en, key_zh) = match key {
                Some(key) => (key.clone(), key.clone()),
                None => ("the value".to_string(), "这个值".to_string()),
            };
            let finite = |got: &str| {
                (
                    format!("{key_en} must be a finite number (got {got})"),
                    format!("{key_zh} 必须是有限的数（收到的是 {got}）"),
                )
            };
            let (why_en, why_zh) = match got {
                BadNumber::NaN => finite("NaN"),
                BadNumber::Infinity => finite("Infinity"),
                BadNumber::NegativeInfinity => finite("-Infinity"),
                BadNumber::BigInt => (
                    format!("{key_en} is a BigInt too large for a JavaScript number"),
                    format!("{key_zh} 是一个 BigInt，超出了 JavaScript 数字能精确表示的范围"),
                ),
            };
            (
                format!("Invalid {en}: {why_en}"),
                format!("{zh}无效：{why_zh}"),
            )
        }
    };
    text(en, zh)
}

/// What the page passed, in English and Chinese.
fn given(what: Given) -> (&'static str, &'static str) {
    match what {
        Given::Settings => ("settings", "设置"),
        Given::ToolDefinition => ("tool definition", "工具定义"),
        Given::Edit => ("edit", "修改"),
        Given::ModelReply => ("model reply", "模型回复"),
        Given::Expectation => ("expected answer", "期望的答案"),
    }
}

/// A feed the agent did not ask for (a driver's mistake), or a retry with nothing to retry.
pub fn agent_error(error: &AgentError) -> Text {
    match error {
        AgentError::NotWaitingForServer => text(
            "The agent is not asking what the server is now.".to_string(),
            "智能体现在没有在询问服务器类型。".to_string(),
        ),
        AgentError::NotWaitingForModel => text(
            "The agent is not waiting for a model reply now.".to_string(),
            "智能体现在没有在等模型回复。".to_string(),
        ),
        AgentError::NotWaitingForTool => text(
            "The agent is not waiting for a tool result now.".to_string(),
            "智能体现在没有在等工具结果。".to_string(),
        ),
        AgentError::NothingToRetry => text(
            "Only a run stopped by a model error can be retried.".to_string(),
            "只有因模型出错而停止的运行才能重试。".to_string(),
        ),
    }
}

macro_rules! english {
    ($($ty:ty => $said:ident,)*) => {$(
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&$said(self).en)
            }
        }
    )*};
}

english! {
    AgentError => agent_error,
    TraceError => trace_error,
    SettingsError => settings_error,
    ConfigError => config_error,
    RegistryError => registry_error,
}
