//! The model client's pure half: settings, request bodies, reply parsing, the event-stream
//! decoder and the errors. The wasm driver does the `fetch` and feeds the results in here, so
//! everything below is tested natively.
//!
//! Targets OpenAI-compatible servers: llama.cpp's `llama-server`, llama-cpp-python, Ollama
//! (`/v1`), LM Studio, vLLM and OpenAI itself.

mod constrain;
mod error;
mod hint;
mod inpage;
mod retry;
mod sse;
mod steer;
mod uses;

use crate::fields::{via_value, Fields};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::tools::{ToolFit, ToolSpec};

pub use constrain::{actions, react_grammar, react_schema, Constrained, ServerKind, Thought};
pub use error::{check_mixed_content, classify_http, LlmError, Oversized, PageModelCode};
pub use hint::{page_place, PagePlace};
pub use inpage::in_page_body;
pub use retry::{
    after_http_error, retry_delay_ms, AfterHttpError, MAX_ATTEMPTS, MAX_RETRY_DELAY_MS,
};
pub use sse::{SseDecoder, StreamEvent};
pub use steer::{Avoid, AvoidWhy, Steer, SteerWhy, Unsteered};
pub use uses::MAX_USES;

/// One request's time limit ([`crate::defaults`]).
pub const DEFAULT_TIMEOUT_MS: u32 = crate::defaults::TIMEOUT_MS.default;
/// OpenAI's upper bound; llama.cpp accepts more, but beyond 2 the text is noise.
pub const MAX_TEMPERATURE: f64 = 2.0;
/// The action that ends the loop; always allowed by the constrained modes.
pub const FINAL_ANSWER: &str = "final_answer";
const CHAT_PATH: &str = "/chat/completions";
const MODELS_PATH: &str = "/models";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
}

impl Role {
    /// Every role (tests/titles.rs checks it against serde's).
    pub const ALL: [Role; 3] = [Role::System, Role::User, Role::Assistant];

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::System => "system",
            Self::User => "user",
            Self::Assistant => "assistant",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

/// Why a reply may only be the final answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MustAnswer {
    /// A call that had succeeded was repeated: its result is in hand.
    RepeatedCall,
    /// The step limit allows no further Observation.
    LastStep,
    /// Without a constraint: a call that had failed was repeated. The tools do not reach the
    /// answer (a question of general knowledge, an expression the calculator cannot read);
    /// the 0.5B model sent the same failing call until the repeat limit ended the run.
    RepeatedFailure,
    /// A calculation for a question without numbers: no tool is about the question (the
    /// 0.5B model, made to act first, computed `1 + 1` for "What is the capital of China?").
    NoToolFits,
    /// A calculation for a question without numbers after another tool found something: the
    /// answer is in that result (the 1.5B model found "Let's think step by step", computed
    /// `1 + 1`, and, told to answer from what it knows, answered 2).
    FoundBefore,
    /// A calculation applied the last one's final operation again to its result (`* 2` to
    /// the result of `… * 2`): that result is the answer. Of ten runs whose calculator ran a
    /// second time on its own result, none answered right.
    AppliedAgain,
}

/// What the agent core asks the model for.
// Read back by hand below (a struct literal, so a new field needs its line there).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelRequest {
    pub messages: Vec<Message>,
    pub stop: Vec<String>,
    /// An action (a tool or `final_answer`) the reply may not take, and why: e.g. a call the
    /// model repeated with the same arguments. Small models copy their previous reply, so
    /// only a constrained mode, which leaves the action out of the allowed ones, can break
    /// the loop; plain mode ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoid: Option<Avoid>,
    /// The constraint this request goes out with, as the agent decided it for the server.
    #[serde(default)]
    pub constrained: Constrained,
    /// Constrained modes allow only final_answer in this reply, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_answer: Option<MustAnswer>,
    /// Words the reply's Thought must begin with, under a constraint (plain mode ignores it):
    /// after an Observation, small models copy their previous reply word for word unless
    /// their Thought starts by reading what came back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thought_prefix: Option<String>,
    /// The Thought is exactly `thought_prefix`, and the Action comes next: the model's own
    /// Thought, given back after it ran on to the token limit without an Action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub thought_closed: bool,
    /// Words a final answer must begin with, under a constraint: left free, small models
    /// copy the prompt's placeholder or an argument object there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_prefix: Option<String>,
    /// The reply has no Thought, under a constraint: Act-only
    /// ([`crate::strategy::Strategy::Act`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_thought: bool,
    /// The answer this request asks the model to check before it is taken (the `reflect`
    /// strategy): the step is the self-check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks_answer: Option<String>,
    /// The reply is to be a plan (the `plan` strategy): `Plan:` and numbered steps.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub asks_plan: bool,
    /// The reply is to summarise the run so far (`compress: summary`): `Summary:` and a few
    /// sentences.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub summarizes: bool,
    /// The one tool a constrained reply may call (plain mode ignores it): the tool the
    /// question's evidence points to first, or next after what ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steer: Option<Steer>,
    /// How well each tool fits the question, best first; on the first request only, which
    /// chose from it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fits: Vec<ToolFit>,
    /// Why the first reply is steered to no tool though tools fit: the model chooses. Boxed:
    /// only a first request may have one, and every step's effect carries its request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsteered: Option<Box<Unsteered>>,
    /// Tools a constrained reply may not call: after something was found, a page's tool
    /// that nothing in the question points to (a call of it could only invent its input).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: Option<u32>,
    pub completion_tokens: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientConfig {
    /// Up to and including `/v1`, e.g. `http://localhost:11434/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    #[serde(default)]
    pub stream: bool,
    pub seed: Option<u64>,
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u32,
}

fn default_timeout_ms() -> u32 {
    DEFAULT_TIMEOUT_MS
}

impl ClientConfig {
    /// Server defaults for everything else: no key, no sampling overrides, no streaming.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            api_key: None,
            model: model.into(),
            temperature: None,
            max_tokens: None,
            stream: false,
            seed: None,
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }

    /// Catches the mistakes that would otherwise surface as a baffling network error.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.check(true)
    }

    /// [`Self::validate`]; without `need_model` an empty model passes (listing the models).
    pub fn check(&self, need_model: bool) -> Result<(), ConfigError> {
        let url = self.base_url.trim();
        if url.is_empty() {
            return Err(ConfigError::EmptyBaseUrl);
        }
        let Some((_, host)) = http_host(url) else {
            return Err(ConfigError::BadScheme { url: url.into() });
        };
        if url.chars().any(char::is_whitespace) {
            return Err(ConfigError::UrlHasWhitespace { url: url.into() });
        }
        if url.contains(['?', '#']) {
            return Err(ConfigError::UrlHasQuery { url: url.into() });
        }
        if host.is_empty() {
            return Err(ConfigError::MissingHost { url: url.into() });
        }
        if need_model && self.model.trim().is_empty() {
            return Err(ConfigError::EmptyModel);
        }
        if let Some(t) = self.temperature {
            // `contains` is false for NaN, so NaN is refused too.
            if !(0.0..=MAX_TEMPERATURE).contains(&t) {
                return Err(ConfigError::BadTemperature {
                    value: t.to_string(),
                });
            }
        }
        if self.max_tokens == Some(0) {
            return Err(ConfigError::ZeroMaxTokens);
        }
        if self.timeout_ms == 0 {
            return Err(ConfigError::ZeroTimeout);
        }
        // `fetch` throws on such a header value, which the driver would report as a network
        // error.
        if let Some(key) = &self.api_key {
            if key.trim().chars().any(|c| !(' '..='~').contains(&c)) {
                return Err(ConfigError::BadApiKey);
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConfigError {
    EmptyBaseUrl,
    BadScheme {
        url: String,
    },
    UrlHasWhitespace {
        url: String,
    },
    UrlHasQuery {
        url: String,
    },
    MissingHost {
        url: String,
    },
    EmptyModel,
    /// The value as text: NaN would not survive a JSON round trip as a number.
    BadTemperature {
        value: String,
    },
    ZeroMaxTokens,
    ZeroTimeout,
    BadApiKey,
}

// Its sentence for a person (`Display`, the English) is in `crate::sentences`, with the Chinese.
impl std::error::Error for ConfigError {}

/// `{base}/chat/completions`; a base that already ends so is kept as it is.
pub fn chat_url(base: &str) -> String {
    let base = trim_base(base);
    if base.ends_with(CHAT_PATH) {
        base.to_string()
    } else {
        format!("{base}{CHAT_PATH}")
    }
}

/// `{base}/models`, also from a base given as the full chat-completions URL or as the model
/// list's own URL (a failed listing's error names that one).
pub fn models_url(base: &str) -> String {
    let base = trim_base(base);
    let root = [CHAT_PATH, MODELS_PATH]
        .iter()
        .find_map(|path| base.strip_suffix(path))
        .unwrap_or(base);
    format!("{root}{MODELS_PATH}")
}

fn trim_base(base: &str) -> &str {
    base.trim().trim_end_matches('/')
}

/// `("Authorization", "Bearer KEY")` for a non-blank key. A pasted `Bearer ` prefix is dropped
/// rather than doubled.
pub fn auth_header(cfg: &ClientConfig) -> Option<(String, String)> {
    let key = cfg.api_key.as_deref()?.trim();
    let key = match key.get(..6).zip(key.get(6..)) {
        Some((word, rest))
            if word.eq_ignore_ascii_case("bearer")
                && (rest.is_empty() || rest.starts_with(char::is_whitespace)) =>
        {
            rest.trim_start()
        }
        _ => key,
    };
    (!key.is_empty()).then(|| ("Authorization".to_string(), format!("Bearer {key}")))
}

/// The JSON body of a chat-completions request. Unset options are left out, so each server
/// applies its own default. `tools` are the registered tools, for the constrained modes.
pub fn chat_body(cfg: &ClientConfig, req: &ModelRequest, tools: &[ToolSpec]) -> Value {
    let messages: Vec<Value> = req
        .messages
        .iter()
        .map(|m| json!({"role": m.role.as_str(), "content": m.content}))
        .collect();
    let mut body = Map::new();
    body.insert("model".into(), json!(cfg.model.trim()));
    body.insert("messages".into(), Value::Array(messages));
    body.insert("stream".into(), json!(cfg.stream));
    if cfg.stream {
        // Without it OpenAI sends no token counts in a stream. llama.cpp, Ollama and vLLM
        // support it; llama-cpp-python ignores unknown fields.
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    if let Some(t) = cfg.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(n) = cfg.max_tokens {
        body.insert("max_tokens".into(), json!(n));
    }
    // The agent picks the stops for the mode (none under a constraint, which ends the reply
    // itself); they go out unchanged.
    if !req.stop.is_empty() {
        body.insert("stop".into(), json!(req.stop));
    }
    if let Some(seed) = cfg.seed {
        body.insert("seed".into(), json!(seed));
    }
    let tools = if req.must_answer.is_some() {
        &[]
    } else {
        tools
    };
    let steered: Vec<ToolSpec>;
    let (tools, avoid) = match &req.steer {
        Some(steer) if tools.iter().any(|t| t.name == steer.tool) => {
            steered = tools
                .iter()
                .filter(|t| t.name == steer.tool)
                .map(|t| match &steer.args {
                    Some(args) => t.with_fixed(args),
                    None => t.clone(),
                })
                .collect();
            (&steered[..], Some(FINAL_ANSWER))
        }
        _ if !req.left_out.is_empty() => {
            steered = (tools.iter())
                .filter(|t| !req.left_out.contains(&t.name))
                .cloned()
                .collect();
            (&steered[..], req.avoid.as_ref().map(|a| a.tool.as_str()))
        }
        _ => (tools, req.avoid.as_ref().map(|a| a.tool.as_str())),
    };
    let actions = actions(tools, avoid);
    let thought = match (&req.thought_prefix, req.thought_closed) {
        _ if req.no_thought => Thought::Omitted,
        (Some(text), true) => Thought::Exactly(text),
        (Some(text), false) => Thought::StartsWith(text),
        (None, _) => Thought::Free,
    };
    let answer = req.answer_prefix.as_deref();
    // What the reply is to be under the constraint (a plan, a summary or a step): its schema,
    // named on the wire, or its grammar.
    // The numbers the steered calculation must use, when the steer is to the calculator.
    let uses = req.steer.as_ref().filter(|steer| {
        let spec = tools.iter().find(|t| t.name == steer.tool);
        let constrains = !steer.uses.is_empty() || !steer.seen.is_empty();
        constrains && spec.and_then(|s| s.role) == Some(crate::tools::Role::Computes)
    });
    let schema = || {
        if req.asks_plan {
            ("react_plan", constrain::plan_schema())
        } else if req.summarizes {
            ("react_summary", constrain::summary_schema())
        } else {
            let mut schema = react_schema(&actions, thought, answer);
            if let Some(steer) = uses {
                uses::into_schema(&mut schema, &steer.tool, &steer.uses, &steer.seen);
            }
            ("react_step", schema)
        }
    };
    let grammar = || {
        if req.asks_plan {
            constrain::plan_grammar()
        } else if req.summarizes {
            constrain::summary_grammar()
        } else {
            let grammar = react_grammar(&actions, thought, answer);
            match uses {
                Some(steer) => uses::into_grammar(&grammar, &steer.uses, &steer.seen),
                None => grammar,
            }
        }
    };
    match req.constrained {
        Constrained::Auto | Constrained::Off => {}
        Constrained::JsonObject => {
            let (_, schema) = schema();
            body.insert(
                "response_format".into(),
                json!({"type": "json_object", "schema": schema}),
            );
        }
        Constrained::JsonSchema => {
            let (name, schema) = schema();
            body.insert(
                "response_format".into(),
                json!({"type": "json_schema", "json_schema": {"name": name, "schema": schema}}),
            );
        }
        Constrained::Grammar => {
            body.insert("grammar".into(), json!(grammar()));
        }
    }
    Value::Object(body)
}

/// The text and token counts of a non-streamed reply: `choices[0].message.content`, or
/// `choices[0].text` from servers that answer in the older completions shape.
pub fn parse_chat_response(body: &str) -> Result<(String, Usage), LlmError> {
    let value = parse_json(body)?;
    if let Some(err) = error::server_error(&value) {
        return Err(err);
    }
    let Some(choices) = value.get("choices").and_then(Value::as_array) else {
        return Err(LlmError::UnexpectedReply {
            expected: "a `choices` list".into(),
            excerpt: error::excerpt(body),
        });
    };
    let text = choices
        .first()
        .and_then(|choice| {
            choice
                .pointer("/message/content")
                .and_then(Value::as_str)
                .or_else(|| choice.get("text").and_then(Value::as_str))
        })
        .unwrap_or("");
    // An empty text (a thinking model that spent every token on `reasoning_content` lands
    // here too) is still a reply: the agent feeds it back as a format error, and its token
    // counts belong in the trace.
    Ok((text.to_string(), usage_in(&value).unwrap_or_default()))
}

/// Model names from `GET /models` (`data[].id`) or Ollama's `/api/tags` (`models[].name`).
pub fn parse_models(body: &str) -> Result<Vec<String>, LlmError> {
    let value = parse_json(body)?;
    if let Some(err) = error::server_error(&value) {
        return Err(err);
    }
    let (list, key) = if let Some(data) = value.get("data").and_then(Value::as_array) {
        (data, "id")
    } else if let Some(models) = value.get("models").and_then(Value::as_array) {
        (models, "name")
    } else {
        return Err(LlmError::UnexpectedReply {
            expected: "a `data` or `models` list".into(),
            excerpt: error::excerpt(body),
        });
    };
    Ok(list
        .iter()
        .filter_map(|m| m.get(key).and_then(Value::as_str))
        .map(str::to_string)
        .collect())
}

fn parse_json(body: &str) -> Result<Value, LlmError> {
    serde_json::from_str(body.trim_start_matches('\u{feff}')).map_err(|_| LlmError::NotJson {
        excerpt: error::excerpt(body),
    })
}

/// The `usage` object of a reply or stream chunk; `None` when absent or empty.
fn usage_in(value: &Value) -> Option<Usage> {
    let usage = value.get("usage")?;
    let count = |key: &str| {
        usage
            .get(key)
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    };
    let found = Usage {
        prompt_tokens: count("prompt_tokens"),
        completion_tokens: count("completion_tokens"),
    };
    (found != Usage::default()).then_some(found)
}

/// `(is_https, host)` of an `http(s)://` URL, the host lowercased without port, user info or
/// IPv6 brackets; `None` for any other scheme.
fn http_host(url: &str) -> Option<(bool, String)> {
    let url = url.trim();
    let strip = |prefix: &str| {
        url.get(..prefix.len())
            .filter(|head| head.eq_ignore_ascii_case(prefix))
            .and_then(|_| url.get(prefix.len()..))
    };
    let (https, rest) = match strip("https://") {
        Some(rest) => (true, rest),
        None => (false, strip("http://")?),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host_port.split(':').next().unwrap_or_default(),
    };
    Some((https, host.to_ascii_lowercase()))
}

via_value! {
    ModelRequest => model_request,
}

fn model_request(value: Value) -> Result<ModelRequest, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(ModelRequest {
        messages: f.get("messages")?,
        stop: f.get("stop")?,
        avoid: avoid(&mut f)?,
        constrained: f.or("constrained", Default::default())?,
        must_answer: f.opt("must_answer")?,
        thought_prefix: f.opt("thought_prefix")?,
        thought_closed: f.or("thought_closed", false)?,
        answer_prefix: f.opt("answer_prefix")?,
        no_thought: f.or("no_thought", false)?,
        checks_answer: f.opt("checks_answer")?,
        asks_plan: f.or("asks_plan", false)?,
        summarizes: f.or("summarizes", false)?,
        steer: f.opt("steer")?,
        fits: f.or("fits", Vec::new())?,
        unsteered: f.opt("unsteered")?,
        left_out: f.or("left_out", Vec::new())?,
    })
}

/// `avoid`, or the `avoid_action` name alone that traces before it wrote: a left-out
/// `final_answer` then followed a non-answer, any other action a repeated call.
fn avoid(f: &mut Fields) -> Result<Option<Avoid>, serde_json::Error> {
    if let Some(value) = f.opt::<Value>("avoid")? {
        let mut a = Fields::object(value)?;
        return Ok(Some(Avoid {
            tool: a.get("tool")?,
            why: a.get("why")?,
        }));
    }
    Ok(f.opt::<String>("avoid_action")?.map(|tool| {
        let why = if tool == crate::llm::FINAL_ANSWER {
            AvoidWhy::NotAnAnswer
        } else {
            AvoidWhy::Repeated
        };
        Avoid { tool, why }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    type Edit<'a> = dyn Fn(&mut ClientConfig) + 'a;
    type Reply = Result<(String, Usage), LlmError>;

    fn tools() -> Vec<ToolSpec> {
        ["search", "calculator"]
            .map(|name| ToolSpec {
                name: name.into(),
                description: String::new(),
                parameters: json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
                ..ToolSpec::default()
            })
            .to_vec()
    }

    fn with_mode(constrained: Constrained) -> ModelRequest {
        ModelRequest {
            constrained,
            ..request()
        }
    }

    fn request() -> ModelRequest {
        ModelRequest {
            messages: vec![
                Message {
                    role: Role::System,
                    content: "You are a ReAct agent.".into(),
                },
                Message {
                    role: Role::User,
                    content: "2+2?".into(),
                },
            ],
            stop: vec!["\nObservation:".into()],
            constrained: Constrained::Off,
            ..ModelRequest::default()
        }
    }

    fn messages_json() -> Value {
        json!([
            {"role": "system", "content": "You are a ReAct agent."},
            {"role": "user", "content": "2+2?"},
        ])
    }

    fn schema_json() -> Value {
        react_schema(&actions(&tools(), None), Thought::Free, None)
    }

    #[test]
    fn urls_are_built_from_any_reasonable_base() {
        let cases = [
            (
                "http://localhost:11434/v1",
                "http://localhost:11434/v1/chat/completions",
            ),
            (
                "http://localhost:11434/v1/",
                "http://localhost:11434/v1/chat/completions",
            ),
            (
                "  http://localhost:8080/v1//  ",
                "http://localhost:8080/v1/chat/completions",
            ),
            (
                "http://localhost:8080",
                "http://localhost:8080/chat/completions",
            ),
            (
                "http://localhost:8080/v1/chat/completions",
                "http://localhost:8080/v1/chat/completions",
            ),
            (
                "http://localhost:8080/v1/chat/completions/",
                "http://localhost:8080/v1/chat/completions",
            ),
        ];
        for (base, want) in cases {
            assert_eq!(chat_url(base), want, "{base}");
        }
        let cases = [
            (
                "http://localhost:11434/v1",
                "http://localhost:11434/v1/models",
            ),
            (
                "http://localhost:11434/v1/",
                "http://localhost:11434/v1/models",
            ),
            (
                "http://localhost:8080/v1/chat/completions",
                "http://localhost:8080/v1/models",
            ),
            (
                "http://localhost:8080/v1/models",
                "http://localhost:8080/v1/models",
            ),
        ];
        for (base, want) in cases {
            assert_eq!(models_url(base), want, "{base}");
        }
    }

    #[test]
    fn auth_header_only_for_a_real_key() {
        let with_key = |key: Option<&str>| {
            let mut cfg = ClientConfig::new("http://localhost:8080/v1", "m");
            cfg.api_key = key.map(str::to_string);
            auth_header(&cfg)
        };
        let bearer = |v: &str| Some(("Authorization".to_string(), format!("Bearer {v}")));
        assert_eq!(with_key(None), None);
        assert_eq!(with_key(Some("")), None);
        assert_eq!(with_key(Some("   ")), None);
        assert_eq!(with_key(Some("Bearer ")), None);
        assert_eq!(with_key(Some("sk-123")), bearer("sk-123"));
        assert_eq!(with_key(Some("  sk-123\n")), bearer("sk-123"));
        assert_eq!(with_key(Some("bearer sk-123")), bearer("sk-123"));
        assert_eq!(with_key(Some("bearer-sk")), bearer("bearer-sk"));
        assert_eq!(with_key(Some("中文中文中文")), bearer("中文中文中文"));
    }

    #[test]
    fn validate_explains_each_mistake() {
        let base = ClientConfig::new("http://localhost:11434/v1", "qwen2.5-coder:0.5b");
        assert_eq!(base.validate(), Ok(()));
        let edit = |f: &Edit<'_>| {
            let mut cfg = base.clone();
            f(&mut cfg);
            cfg.validate()
        };
        let url = |u: &'static str| move |c: &mut ClientConfig| c.base_url = u.into();
        let ok: &[&Edit<'_>] = &[
            &url("HTTPS://api.openai.com/v1"),
            &url(" http://127.0.0.1:8080 "),
            &|c| c.temperature = Some(0.0),
            &|c| c.temperature = Some(2.0),
            &|c| c.max_tokens = Some(1),
            &|c| c.api_key = Some(" sk-abc 123 ".into()),
        ];
        for f in ok {
            assert_eq!(edit(f), Ok(()));
        }
        let bad: &[(&Edit<'_>, ConfigError, &str)] = &[
            (
                &url("  "),
                ConfigError::EmptyBaseUrl,
                "Enter the server's base URL",
            ),
            (
                &url("localhost:11434/v1"),
                ConfigError::BadScheme {
                    url: "localhost:11434/v1".into(),
                },
                "must start with http:// or https://",
            ),
            (
                &url("ftp://host/v1"),
                ConfigError::BadScheme {
                    url: "ftp://host/v1".into(),
                },
                "http://",
            ),
            (
                &url("http://local host/v1"),
                ConfigError::UrlHasWhitespace {
                    url: "http://local host/v1".into(),
                },
                "contains a space",
            ),
            (
                &url("http://localhost/v1?key=1"),
                ConfigError::UrlHasQuery {
                    url: "http://localhost/v1?key=1".into(),
                },
                "must not contain ? or #",
            ),
            (
                &url("http:///v1"),
                ConfigError::MissingHost {
                    url: "http:///v1".into(),
                },
                "no server name",
            ),
            (
                &|c| c.model = " ".into(),
                ConfigError::EmptyModel,
                "model name",
            ),
            (
                &|c| c.temperature = Some(-0.1),
                ConfigError::BadTemperature {
                    value: "-0.1".into(),
                },
                "from 0 to 2, not -0.1",
            ),
            (
                &|c| c.temperature = Some(f64::NAN),
                ConfigError::BadTemperature {
                    value: "NaN".into(),
                },
                "not NaN",
            ),
            (
                &|c| c.temperature = Some(2.5),
                ConfigError::BadTemperature {
                    value: "2.5".into(),
                },
                "not 2.5",
            ),
            (
                &|c| c.max_tokens = Some(0),
                ConfigError::ZeroMaxTokens,
                "at least 1",
            ),
            (
                &|c| c.timeout_ms = 0,
                ConfigError::ZeroTimeout,
                "more than 0 ms",
            ),
            (
                &|c| c.api_key = Some("sk-1\nsk-2".into()),
                ConfigError::BadApiKey,
                "HTTP header",
            ),
            (
                &|c| c.api_key = Some("sk-ä".into()),
                ConfigError::BadApiKey,
                "non-ASCII",
            ),
        ];
        for (f, want, words) in bad {
            let got = edit(f);
            assert_eq!(got.as_ref(), Err(want));
            assert!(want.to_string().contains(words), "{want}");
        }
    }

    #[test]
    fn config_json_fills_defaults_and_uses_plain_mode_names() {
        let cfg: ClientConfig =
            serde_json::from_str(r#"{"base_url":"http://localhost:8080/v1","model":"m"}"#).unwrap();
        assert_eq!(cfg, ClientConfig::new("http://localhost:8080/v1", "m"));
        assert_eq!(cfg.timeout_ms, DEFAULT_TIMEOUT_MS);
        assert_eq!(
            serde_json::to_value(Constrained::JsonSchema).unwrap(),
            json!("json_schema")
        );
        assert_eq!(
            serde_json::to_value(Role::Assistant).unwrap(),
            json!("assistant")
        );
        let err = ConfigError::BadTemperature {
            value: "NaN".into(),
        };
        let text = serde_json::to_string(&err).unwrap();
        assert_eq!(text, r#"{"type":"bad_temperature","value":"NaN"}"#);
        assert_eq!(serde_json::from_str::<ConfigError>(&text).unwrap(), err);
    }

    #[test]
    fn plain_body_leaves_unset_options_out() {
        let cfg = ClientConfig::new("http://localhost:8080/v1", " qwen ");
        let req = ModelRequest {
            stop: vec![],
            ..request()
        };
        assert_eq!(
            chat_body(&cfg, &req, &tools()),
            json!({"model": "qwen", "messages": messages_json(), "stream": false})
        );
    }

    #[test]
    fn body_for_each_mode() {
        let mut cfg = ClientConfig::new("http://localhost:8080/v1", "qwen");
        cfg.temperature = Some(0.2);
        cfg.max_tokens = Some(256);
        cfg.seed = Some(42);
        let common = json!({
            "model": "qwen",
            "messages": messages_json(),
            "stream": false,
            "temperature": 0.2,
            "max_tokens": 256,
            "stop": ["\nObservation:"],
            "seed": 42,
        });
        let with = |extra: Value| {
            let mut body = common.clone();
            if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
                body.extend(extra);
            }
            body
        };
        let cases = [
            (Constrained::Off, false, common.clone()),
            (
                Constrained::Off,
                true,
                with(json!({"stream": true, "stream_options": {"include_usage": true}})),
            ),
            (
                Constrained::JsonObject,
                false,
                with(json!({"response_format": {"type": "json_object", "schema": schema_json()}})),
            ),
            (
                Constrained::JsonSchema,
                false,
                with(json!({"response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "react_step", "schema": schema_json()},
                }})),
            ),
            (
                Constrained::Grammar,
                true,
                with(json!({
                    "stream": true,
                    "stream_options": {"include_usage": true},
                    "grammar": react_grammar(&actions(&tools(), None), Thought::Free, None),
                })),
            ),
        ];
        for (mode, stream, want) in cases {
            cfg.stream = stream;
            assert_eq!(
                chat_body(&cfg, &with_mode(mode), &tools()),
                want,
                "{mode:?} {stream}"
            );
        }
    }

    #[test]
    fn a_plan_and_a_summary_get_their_own_schema_and_grammar_in_every_mode() {
        let cfg = ClientConfig::new("http://localhost:8080/v1", "qwen");
        let plan = ModelRequest {
            asks_plan: true,
            ..request()
        };
        let summary = ModelRequest {
            summarizes: true,
            ..request()
        };
        let shapes = [
            (
                plan,
                "react_plan",
                constrain::plan_schema(),
                constrain::plan_grammar(),
            ),
            (
                summary,
                "react_summary",
                constrain::summary_schema(),
                constrain::summary_grammar(),
            ),
        ];
        for (req, name, schema, grammar) in shapes {
            let body = |constrained| {
                chat_body(
                    &cfg,
                    &ModelRequest {
                        constrained,
                        ..req.clone()
                    },
                    &tools(),
                )
            };
            let object = body(Constrained::JsonObject);
            assert_eq!(
                object["response_format"],
                json!({"type": "json_object", "schema": schema})
            );
            let named = body(Constrained::JsonSchema);
            assert_eq!(
                named["response_format"],
                json!({"type": "json_schema", "json_schema": {"name": name, "schema": schema}})
            );
            assert_eq!(body(Constrained::Grammar)["grammar"], json!(grammar));
            let off = body(Constrained::Off);
            assert!(off.get("grammar").is_none() && off.get("response_format").is_none());
        }
    }

    #[test]
    fn an_avoided_tool_is_left_out_of_every_constrained_mode_only() {
        let cfg = ClientConfig::new("http://localhost:8080/v1", "qwen");
        let avoiding = |constrained| ModelRequest {
            avoid: Some(Avoid {
                tool: "search".into(),
                why: AvoidWhy::Repeated,
            }),
            ..with_mode(constrained)
        };
        let tools = tools();
        let allowed = actions(&tools, Some("search"));
        assert_eq!(allowed.len(), 2);
        let body = chat_body(&cfg, &avoiding(Constrained::Grammar), &tools);
        assert_eq!(
            body["grammar"],
            json!(react_grammar(&allowed, Thought::Free, None))
        );
        assert!(!body["grammar"].as_str().unwrap().contains("\"search"));
        let branch_actions = |schema: &Value| -> Vec<Value> {
            schema["anyOf"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["properties"]["action"]["const"].clone())
                .collect()
        };
        let body = chat_body(&cfg, &avoiding(Constrained::JsonObject), &tools);
        assert_eq!(
            branch_actions(&body["response_format"]["schema"]),
            [json!("calculator"), json!("final_answer")]
        );
        let body = chat_body(&cfg, &avoiding(Constrained::JsonSchema), &tools);
        assert_eq!(
            branch_actions(&body["response_format"]["json_schema"]["schema"]),
            [json!("calculator"), json!("final_answer")]
        );
        assert_eq!(
            chat_body(&cfg, &avoiding(Constrained::Off), &tools),
            chat_body(&cfg, &request(), &tools)
        );
        assert_eq!(
            chat_body(&cfg, &avoiding(Constrained::Auto), &tools),
            chat_body(&cfg, &request(), &tools)
        );
        let answering = ModelRequest {
            must_answer: Some(MustAnswer::LastStep),
            ..with_mode(Constrained::JsonSchema)
        };
        let body = chat_body(&cfg, &answering, &tools);
        // One branch is the schema itself: a final answer, as text.
        let schema = &body["response_format"]["json_schema"]["schema"];
        assert_eq!(schema["properties"]["action"]["const"], "final_answer");
        assert_eq!(schema["properties"]["action_input"]["type"], "string");
    }

    #[test]
    fn schema_properties_go_out_in_generation_order() {
        let cfg = ClientConfig::new("http://localhost:8080/v1", "qwen");
        let text = chat_body(&cfg, &with_mode(Constrained::JsonSchema), &tools()).to_string();
        let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
        assert!(text.starts_with(r#"{"model":"qwen","messages":"#), "{text}");
        assert!(at("\"thought\":") < at("\"action\":"), "{text}");
        assert!(at("\"action\":") < at("\"action_input\":"), "{text}");
    }

    #[test]
    fn non_streamed_replies() {
        let ok = |text: &str, prompt, completion| {
            Ok((
                text.to_string(),
                Usage {
                    prompt_tokens: prompt,
                    completion_tokens: completion,
                },
            ))
        };
        let html = format!("<html>{}</html>", "z".repeat(300));
        let cases: Vec<(&str, Reply)> = vec![
            (
                r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"Thought: hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}"#,
                ok("Thought: hi", Some(10), Some(3)),
            ),
            (
                "\u{feff} {\"choices\":[{\"text\":\"legacy\"}]} ",
                ok("legacy", None, None),
            ),
            (
                r#"{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":-1,"completion_tokens":99999999999}}"#,
                ok("x", None, None),
            ),
            (
                r#"{"error":{"message":"model not found","type":"invalid_request_error"}}"#,
                Err(LlmError::Server {
                    message: "model not found".into(),
                }),
            ),
            (
                r#"{"error":"busy"}"#,
                Err(LlmError::Server {
                    message: "busy".into(),
                }),
            ),
            (
                r#"{"choices":[{"message":{"content":null,"reasoning_content":"thinking"}}],"usage":{"prompt_tokens":9,"completion_tokens":256}}"#,
                ok("", Some(9), Some(256)),
            ),
            (
                r#"{"choices":[{"message":{"content":"  \n"}}]}"#,
                ok("  \n", None, None),
            ),
            (r#"{"choices":[]}"#, ok("", None, None)),
            (
                r#"{"message":{"content":"ollama native"}}"#,
                Err(LlmError::UnexpectedReply {
                    expected: "a `choices` list".into(),
                    excerpt: r#"{"message":{"content":"ollama native"}}"#.into(),
                }),
            ),
            (
                &html,
                Err(LlmError::NotJson {
                    excerpt: format!("<html>{}…", "z".repeat(194)),
                }),
            ),
            (
                "",
                Err(LlmError::NotJson {
                    excerpt: String::new(),
                }),
            ),
        ];
        for (body, want) in cases {
            assert_eq!(parse_chat_response(body), want, "{body}");
        }
    }

    #[test]
    fn model_lists_in_both_shapes() {
        let cases: Vec<(&str, Result<Vec<String>, LlmError>)> = vec![
            (
                r#"{"object":"list","data":[{"id":"qwen","object":"model"},{"id":"smol"},{"x":1}]}"#,
                Ok(vec!["qwen".into(), "smol".into()]),
            ),
            (
                r#"{"models":[{"name":"llama3.2:1b","model":"llama3.2:1b"},{"name":"qwen2.5:0.5b"}]}"#,
                Ok(vec!["llama3.2:1b".into(), "qwen2.5:0.5b".into()]),
            ),
            // llama.cpp sends both; `data` is the OpenAI one.
            (
                r#"{"models":[{"name":"m.gguf"}],"object":"list","data":[{"id":"m.gguf"}]}"#,
                Ok(vec!["m.gguf".into()]),
            ),
            (r#"{"data":[]}"#, Ok(vec![])),
            (
                r#"{"error":{"message":"Invalid API key"}}"#,
                Err(LlmError::Server {
                    message: "Invalid API key".into(),
                }),
            ),
            (
                r#"{"status":"ok"}"#,
                Err(LlmError::UnexpectedReply {
                    expected: "a `data` or `models` list".into(),
                    excerpt: r#"{"status":"ok"}"#.into(),
                }),
            ),
            (
                "Ollama is running",
                Err(LlmError::NotJson {
                    excerpt: "Ollama is running".into(),
                }),
            ),
        ];
        for (body, want) in cases {
            assert_eq!(parse_models(body), want, "{body}");
        }
    }
}
