//! The model client's pure half: settings, request bodies, reply parsing, the event-stream
//! decoder, the errors and the retries. The wasm driver does the `fetch` and feeds the results
//! in here, so everything below is tested natively. What the loop asks for, and which
//! constraint that makes, is decided above it ([`crate::ask`]); this module only puts it on the
//! wire.
//!
//! Targets OpenAI-compatible servers: llama.cpp's `llama-server`, llama-cpp-python, Ollama
//! (`/v1`), LM Studio, vLLM and OpenAI itself.

mod error;
mod hint;
mod inpage;
mod retry;
mod server;
mod sse;

use crate::fields::{units, via_value, Fields};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub use error::{check_mixed_content, classify_http, LlmError, Oversized, PageModelCode};
pub use hint::{page_place, PagePlace};
pub use inpage::in_page_body;
pub use retry::{
    after_http_error, retry_delay_ms, AfterHttpError, MAX_ATTEMPTS, MAX_RETRY_DELAY_MS,
};
pub use server::{Constrained, ServerKind};
pub use sse::{SseDecoder, StreamEvent};

/// One request's time limit ([`crate::defaults`]).
pub const DEFAULT_TIMEOUT_MS: u32 = crate::defaults::TIMEOUT_MS.default;
/// OpenAI's upper bound; llama.cpp accepts more, but beyond 2 the text is noise.
pub const MAX_TEMPERATURE: f64 = 2.0;
const CHAT_PATH: &str = "/chat/completions";
const MODELS_PATH: &str = "/models";

units! {
    #[derive(Debug, Clone, PartialEq)]
    pub enum Role {
        System,
        User,
        Assistant,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

via_value! {
    Message => message,
}

fn message(value: serde_json::Value) -> Result<Message, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(Message {
        role: f.get("role")?,
        content: f.get("content")?,
    })
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Usage {
    pub prompt_tokens: Option<u32>,
    pub completion_tokens: Option<u32>,
    /// Of the prompt tokens, how many the server took from its prompt cache instead of
    /// evaluating them (OpenAI's `prompt_tokens_details.cached_tokens`, llama.cpp's
    /// `timings.cache_n`): what an append-only history and a read-ahead save.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached_tokens: Option<u32>,
}

via_value! {
    Usage => usage,
}

fn usage(value: serde_json::Value) -> Result<Usage, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(Usage {
        prompt_tokens: f.opt("prompt_tokens")?,
        completion_tokens: f.opt("completion_tokens")?,
        cached_tokens: f.opt("cached_tokens")?,
    })
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
                    value: crate::numbers::shown(t),
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

/// What a reply must be, in the form the request carries it (see [`Constrained`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    /// `response_format: {"type": "json_object", "schema": …}`.
    JsonObject(Value),
    /// `response_format: {"type": "json_schema", "json_schema": {"name": …, "schema": …}}`.
    JsonSchema { name: &'static str, schema: Value },
    /// A GBNF `grammar` field.
    Grammar(String),
}

/// The JSON body of a chat-completions request. Unset options are left out, so each server
/// applies its own default; the stops go out unchanged (the loop picks them for the mode: none
/// under a constraint, which ends the reply itself).
pub fn chat_body(
    cfg: &ClientConfig,
    messages: &[Message],
    stop: &[String],
    constraint: Option<Constraint>,
) -> Value {
    let messages: Vec<Value> = messages
        .iter()
        .map(|m| json!({"role": m.role.label(), "content": m.content}))
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
    if !stop.is_empty() {
        body.insert("stop".into(), json!(stop));
    }
    if let Some(seed) = cfg.seed {
        body.insert("seed".into(), json!(seed));
    }
    match constraint {
        None => {}
        Some(Constraint::JsonObject(schema)) => {
            body.insert(
                "response_format".into(),
                json!({"type": "json_object", "schema": schema}),
            );
        }
        Some(Constraint::JsonSchema { name, schema }) => {
            body.insert(
                "response_format".into(),
                json!({"type": "json_schema", "json_schema": {"name": name, "schema": schema}}),
            );
        }
        Some(Constraint::Grammar(grammar)) => {
            body.insert("grammar".into(), json!(grammar));
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

/// The `usage` object of a reply or stream chunk, with the tokens taken from the prompt cache
/// where the server says (OpenAI, vLLM: in `usage`; llama.cpp: in its own `timings`); `None`
/// when absent or empty.
fn usage_in(value: &Value) -> Option<Usage> {
    let usage = value.get("usage")?;
    let count = |path: &str| {
        (value.pointer(path))
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    };
    let found = Usage {
        prompt_tokens: count("/usage/prompt_tokens"),
        completion_tokens: count("/usage/completion_tokens"),
        cached_tokens: count("/usage/prompt_tokens_details/cached_tokens")
            .or_else(|| count("/timings/cache_n")),
    };
    (usage.is_object() && found != Usage::default()).then_some(found)
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

#[cfg(test)]
mod tests;
