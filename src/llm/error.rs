//! What can go wrong when calling the model, said so that a workshop attendee can fix it.
//!
//! `Display` states the problem in one or two sentences; [`LlmError::hint`] (in `hint`) adds
//! the concrete fix, which often needs the page's origin (only the driver knows it). The retry
//! policy is in `retry`.

use crate::fields::tagged;
use crate::fields::units;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::hint::is_loopback_host;
use crate::limits::MAX_REPLY_BYTES;

/// Characters of a reply body kept in errors: enough to recognise it, short enough for a trace.
pub(crate) const EXCERPT_CHARS: usize = 200;
/// Characters of a server's own error message kept in errors.
const MESSAGE_CHARS: usize = 500;

tagged! {
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum LlmError in "type" {
        /// `fetch` itself failed: no server, a refused origin (CORS), DNS, a dropped connection.
        Network {
            url: String,
            detail: String,
        } = "network",
        /// An https page tried to call plain http on a host other than the local machine.
        MixedContent {
            page_origin: String,
            url: String,
        } = "mixed_content",
        /// The server answered with a non-2xx status. `models` is filled in by the driver on 404
        /// when it could list the server's models.
        Http {
            status: u16,
            url: String,
            body_excerpt: String,
            server_message: Option<String>,
            models: Option<Vec<String>>,
        } = "http",
        /// A 2xx reply (or a streamed event) that carries an `error` object instead of a completion.
        Server {
            message: String,
        } = "server",
        /// The page's model function (`useModel`) failed: `code` says how when the function
        /// says (the in-page engine does), `detail` is its own words, untranslated.
        PageModel {
            code: PageModelCode,
            detail: String,
        } = "page_model",
        /// The reply is neither JSON nor an event stream (an HTML page, plain text, nothing).
        NotJson {
            excerpt: String,
        } = "not_json",
        /// The reply is JSON but lacks what an OpenAI-compatible server sends (`expected`).
        UnexpectedReply {
            expected: String,
            excerpt: String,
        } = "unexpected_reply",
        Timeout {
            ms: u32,
        } = "timeout",
        /// The user (or the driver) cancelled the request.
        Aborted = "aborted",
        /// The event stream was malformed or broke off.
        Stream {
            message: String,
        } = "stream",
        /// The model answered, but with no text.
        EmptyReply = "empty_reply",
        /// A reply, or a part of a stream, outgrew its limit in [`crate::limits`]; reading stopped
        /// there, so a broken server cannot make the page buffer without end.
        TooLarge {
            part: Oversized,
            limit_bytes: usize,
        } = "too_large",
    }
}

units! {
    /// What outgrew its limit in an [`LlmError::TooLarge`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Oversized {
        /// A whole body: a non-streamed reply, a model list, or JSON sent instead of a stream.
        Body,
        /// One line of an event stream, never ended.
        StreamLine,
        /// One event of an event stream (its `data:` lines together), never ended.
        StreamEvent,
        /// The text of a streamed reply, all its pieces together.
        StreamedText,
    }
}

/// How a page's model function failed, from the `code` of what it threw (`www/inpage.js` and
/// its worker set one); any other code, or none, is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PageModelCode {
    /// No model is loaded in the page.
    NotLoaded,
    /// The conversation no longer fits the model's context.
    Context,
    /// The engine itself failed.
    Engine,
    #[serde(other)]
    Other,
}

impl PageModelCode {
    /// The code a page's function threw with (`code` of the error), as serde reads it.
    pub fn from_code(code: &str) -> Self {
        match code {
            "not_loaded" => PageModelCode::NotLoaded,
            "context" => PageModelCode::Context,
            "engine" => PageModelCode::Engine,
            _ => PageModelCode::Other,
        }
    }
}

impl crate::fields::Read for PageModelCode {
    fn read(value: serde_json::Value) -> Result<Self, serde_json::Error> {
        match value {
            serde_json::Value::String(code) => Ok(PageModelCode::from_code(&code)),
            other => Err(crate::fields::invalid_type(&other, "string or map")),
        }
    }
}

impl LlmError {
    /// A whole reply body over [`MAX_REPLY_BYTES`], for the driver that reads it.
    pub fn body_too_large() -> Self {
        Self::TooLarge {
            part: Oversized::Body,
            limit_bytes: MAX_REPLY_BYTES,
        }
    }
}

impl LlmError {
    /// Attaches the server's model list to a 404, so the message can name the right choices.
    pub fn with_models(self, models: Vec<String>) -> Self {
        match self {
            Self::Http {
                status,
                url,
                body_excerpt,
                server_message,
                ..
            } => Self::Http {
                status,
                url,
                body_excerpt,
                server_message,
                models: Some(models),
            },
            other => other,
        }
    }
}

// Its message (`Display`) and fix are in `crate::sentences::errors`, in both languages.
impl std::error::Error for LlmError {}

/// Turns a non-2xx reply into an error, keeping the server's own message (OpenAI, Ollama,
/// llama.cpp, vLLM and FastAPI/llama-cpp-python shapes) and an excerpt of the body.
pub fn classify_http(status: u16, body: &str, url: &str) -> LlmError {
    LlmError::Http {
        status,
        url: url.to_string(),
        body_excerpt: excerpt(body),
        server_message: server_message(body),
        models: None,
    }
}

/// Refuses what the browser would block anyway, but with a message that says why: an https
/// page calling plain http on anything but this machine (`localhost`, `127.x.x.x`, `[::1]`).
pub fn check_mixed_content(page_origin: &str, url: &str) -> Result<(), LlmError> {
    let page_is_https = matches!(super::http_host(page_origin), Some((true, _)));
    match super::http_host(url) {
        Some((false, host)) if page_is_https && !is_loopback_host(&host) => {
            Err(LlmError::MixedContent {
                page_origin: page_origin.trim().to_string(),
                url: url.trim().to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// The first [`EXCERPT_CHARS`] characters of a body, trimmed, with `…` when cut.
pub(crate) fn excerpt(body: &str) -> String {
    clip(body.trim_start_matches('\u{feff}').trim(), EXCERPT_CHARS)
}

/// `Some` when a JSON reply is an error report (`{"error": …}`) rather than a result.
pub(crate) fn server_error(value: &Value) -> Option<LlmError> {
    match value.get("error") {
        None | Some(Value::Null) => None,
        Some(_) => Some(LlmError::Server {
            message: message_in(value).unwrap_or_else(|| "(no details given)".to_string()),
        }),
    }
}

/// An error payload from a stream (`event: error` or llama.cpp's `error:` line), which may be
/// wrapped (`{"error": {...}}`), bare (`{"code": 400, "message": ...}`) or plain text.
pub(crate) fn stream_error(payload: &str) -> LlmError {
    let message = match serde_json::from_str::<Value>(payload) {
        Ok(value) => message_in(&value),
        Err(_) => Some(clip(payload.trim(), MESSAGE_CHARS)).filter(|m| !m.is_empty()),
    };
    LlmError::Server {
        message: message.unwrap_or_else(|| "(no details given)".to_string()),
    }
}

fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

fn server_message(body: &str) -> Option<String> {
    let text = body.trim_start_matches('\u{feff}').trim();
    match serde_json::from_str::<Value>(text) {
        Ok(value) => message_in(&value),
        // An HTML error page says nothing useful in a sentence; its excerpt is shown instead.
        Err(_) if text.starts_with('<') => None,
        // Plain text such as Ollama's "404 page not found".
        Err(_) => Some(clip(text, MESSAGE_CHARS)).filter(|m| !m.is_empty()),
    }
}

/// The message inside the error shapes servers use: `{"error": "…"}` (Ollama),
/// `{"error": {"message": …}}` (OpenAI, llama.cpp), `{"message": …}` (vLLM, llama.cpp streams),
/// `{"detail": "…" | [{"loc": …, "msg": …}]}` (FastAPI, so llama-cpp-python).
fn message_in(value: &Value) -> Option<String> {
    let found = match value.get("error") {
        Some(Value::String(text)) => Some(text.clone()),
        Some(inner @ Value::Object(_)) => Some(
            inner
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| crate::fields::json_text(inner), str::to_string),
        ),
        _ => None,
    }
    .or_else(|| {
        value
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
    })
    .or_else(|| value.get("detail").and_then(detail_text));
    found
        .map(|m| clip(m.trim(), MESSAGE_CHARS))
        .filter(|m| !m.is_empty())
}

fn detail_text(detail: &Value) -> Option<String> {
    match detail {
        Value::String(text) => Some(text.clone()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(validation_item).collect();
            Some(parts.join("; ")).filter(|joined| !joined.is_empty())
        }
        _ => None,
    }
}

/// One FastAPI validation complaint: `body.max_tokens: Input should be greater than 0`.
fn validation_item(item: &Value) -> Option<String> {
    let msg = item.get("msg").and_then(Value::as_str)?;
    let location: Vec<String> = item
        .get("loc")
        .and_then(Value::as_array)
        .map(|loc| {
            loc.iter()
                .map(|part| match part {
                    Value::String(s) => s.clone(),
                    other => crate::fields::json_text(other),
                })
                .collect()
        })
        .unwrap_or_default();
    Some(if location.is_empty() {
        msg.to_string()
    } else {
        format!("{}: {msg}", location.join("."))
    })
}

#[cfg(test)]
mod tests;
