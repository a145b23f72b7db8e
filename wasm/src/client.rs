//! The model client over `fetch`: the request, the streamed or whole reply, and the
//! mapping of every failure to an [`LlmError`]. Everything that can be decided without I/O
//! lives in `reactloop::llm`; this file only moves bytes.

use gloo_net::http::{Request, Response};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader};

use super::timer::{self, Timeout};
use reactloop::ask::ModelRequest;
use reactloop::limits::MAX_REPLY_BYTES;
use reactloop::llm::{
    self, AfterHttpError, ClientConfig, LlmError, ServerKind, SseDecoder, StreamEvent, Usage,
};
use reactloop::tools::ToolSpec;

const DETECT_TIMEOUT_MS: u32 = 5_000;

/// A model reply as the client received it.
pub struct Completion {
    pub text: String,
    pub usage: Usage,
    /// The stream ended without `[DONE]`: the reply may be cut short.
    pub unfinished: bool,
}

/// One chat completion, retried as [`llm::after_http_error`] says.
pub async fn complete(
    cfg: &ClientConfig,
    request: &ModelRequest,
    tools: &[ToolSpec],
    abort: &AbortController,
    on_delta: &dyn Fn(&str),
) -> Result<Completion, LlmError> {
    let url = llm::chat_url(&cfg.base_url);
    llm::check_mixed_content(&timer::page_origin(), &url)?;
    let body =
        serde_json::to_string(&reactloop::ask::chat_body(cfg, request, tools)).unwrap_or_default();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let response = send(cfg, &url, Some(&body), abort).await?;
        let status = response.status();
        if (200..300).contains(&status) {
            return read_reply(cfg, response, abort, on_delta).await;
        }
        let retry_after = response.headers().get("retry-after");
        // An error page is read only as far as the limit: its start is all a message shows.
        let text = read_text(cfg, &response, &url, abort)
            .await
            .map(|(text, _)| text)
            .unwrap_or_default();
        let error = llm::classify_http(status, &text, &url);
        match llm::after_http_error(&error, attempt, retry_after.as_deref()) {
            AfterHttpError::Retry { delay_ms } => {
                timer::sleep(delay_ms).await;
                if abort.signal().aborted() {
                    return Err(LlmError::Aborted);
                }
            }
            AfterHttpError::ListModels => {
                return Err(match list_models(cfg, abort).await {
                    Ok(models) => error.with_models(models),
                    Err(_) => error,
                })
            }
            AfterHttpError::GiveUp => return Err(error),
        }
    }
}

/// What kind of server this is, from its model list; `Unknown` when that cannot be read
/// (the chat request then reports what is wrong). A model list comes back at once, so a
/// server that takes longer is not waited for beyond a few seconds.
pub async fn server_kind(cfg: &ClientConfig, abort: &AbortController) -> ServerKind {
    let cfg = ClientConfig {
        timeout_ms: cfg.timeout_ms.min(DETECT_TIMEOUT_MS),
        ..cfg.clone()
    };
    let url = llm::models_url(&cfg.base_url);
    if llm::check_mixed_content(&timer::page_origin(), &url).is_err() {
        return ServerKind::Unknown;
    }
    let body = match send(&cfg, &url, None, abort).await {
        Ok(response) if response.ok() => match read_text(&cfg, &response, &url, abort).await {
            Ok((text, false)) => text,
            _ => String::new(),
        },
        _ => String::new(),
    };
    ServerKind::detect(&body, &cfg.base_url)
}

/// The server's model list (`GET {base}/models`).
pub async fn list_models(
    cfg: &ClientConfig,
    abort: &AbortController,
) -> Result<Vec<String>, LlmError> {
    let url = llm::models_url(&cfg.base_url);
    llm::check_mixed_content(&timer::page_origin(), &url)?;
    let response = send(cfg, &url, None, abort).await?;
    let status = response.status();
    let (text, cut) = read_text(cfg, &response, &url, abort).await?;
    if !(200..300).contains(&status) {
        return Err(llm::classify_http(status, &text, &url));
    }
    if cut {
        return Err(LlmError::body_too_large());
    }
    llm::parse_models(&text)
}

/// Sends the request; the configured timeout covers the wait for the response headers.
async fn send(
    cfg: &ClientConfig,
    url: &str,
    body: Option<&str>,
    abort: &AbortController,
) -> Result<Response, LlmError> {
    let builder = match body {
        Some(_) => Request::post(url),
        None => Request::get(url),
    };
    let mut builder = builder.abort_signal(Some(&abort.signal()));
    if let Some((name, value)) = llm::auth_header(cfg) {
        builder = builder.header(&name, &value);
    }
    let timeout = Timeout::start(cfg.timeout_ms, abort);
    let sent = match body {
        Some(body) => {
            builder
                .header("Content-Type", "application/json")
                .body(body)
                .map_err(|e| network_error(url, &e.to_string()))?
                .send()
                .await
        }
        None => builder.send().await,
    };
    sent.map_err(|e| failure(cfg, &timeout, abort, || network_error(url, &e.to_string())))
}

/// Names why a fetch step failed: our timer, the user's abort, or the network.
fn failure(
    cfg: &ClientConfig,
    timeout: &Timeout,
    abort: &AbortController,
    other: impl FnOnce() -> LlmError,
) -> LlmError {
    if timeout.fired() {
        LlmError::Timeout { ms: cfg.timeout_ms }
    } else if abort.signal().aborted() {
        LlmError::Aborted
    } else {
        other()
    }
}

/// The body as text, at most [`MAX_REPLY_BYTES`] of it, and whether there was more (which is
/// not read: the download is cancelled). A leading BOM is dropped, as `Response.text()` does.
async fn read_text(
    cfg: &ClientConfig,
    response: &Response,
    url: &str,
    abort: &AbortController,
) -> Result<(String, bool), LlmError> {
    let timeout = Timeout::start(cfg.timeout_ms, abort);
    let read = read_capped(response, MAX_REPLY_BYTES).await;
    let (bytes, cut) =
        read.map_err(|e| failure(cfg, &timeout, abort, || network_error(url, &js_message(&e))))?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
    Ok((text, cut))
}

/// Reads the body chunk by chunk, keeping at most `limit` bytes.
async fn read_capped(response: &Response, limit: usize) -> Result<(Vec<u8>, bool), JsValue> {
    let Some(body) = response.body() else {
        return Ok((Vec::new(), false));
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await?;
        if Reflect::get(&chunk, &"done".into())?.is_truthy() {
            return Ok((bytes, false));
        }
        let value = Uint8Array::new(&Reflect::get(&chunk, &"value".into())?);
        let room = limit - bytes.len();
        if value.length() as usize > room {
            bytes.extend(value.subarray(0, room as u32).to_vec());
            let _ = reader.cancel();
            return Ok((bytes, true));
        }
        bytes.extend(value.to_vec());
    }
}

async fn read_reply(
    cfg: &ClientConfig,
    response: Response,
    abort: &AbortController,
    on_delta: &dyn Fn(&str),
) -> Result<Completion, LlmError> {
    let url = response.url();
    if !cfg.stream {
        let (text, cut) = read_text(cfg, &response, &url, abort).await?;
        if cut {
            return Err(LlmError::body_too_large());
        }
        let (text, usage) = llm::parse_chat_response(&text)?;
        return Ok(Completion {
            text,
            usage,
            unfinished: false,
        });
    }
    let Some(body) = response.body() else {
        // No body is an empty reply, which the agent feeds back like any format error.
        return Ok(Completion {
            text: String::new(),
            usage: Usage::default(),
            unfinished: true,
        });
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut decoder = SseDecoder::new();
    let mut completion = Completion {
        text: String::new(),
        usage: Usage::default(),
        unfinished: false,
    };
    loop {
        // While streaming, the timeout is the longest silence between two chunks.
        let timeout = Timeout::start(cfg.timeout_ms, abort);
        let chunk = JsFuture::from(reader.read()).await.map_err(|e| {
            failure(cfg, &timeout, abort, || LlmError::Stream {
                message: js_message(&e),
            })
        })?;
        drop(timeout);
        let done = Reflect::get(&chunk, &"done".into())
            .map(|d| d.is_truthy())
            .unwrap_or(true);
        let events = if done {
            decoder.finish()
        } else {
            let value = Reflect::get(&chunk, &"value".into()).unwrap_or(JsValue::UNDEFINED);
            decoder.push_bytes(&Uint8Array::new(&value).to_vec())
        };
        for event in events {
            match event {
                StreamEvent::Delta(text) => {
                    on_delta(&text);
                    completion.text.push_str(&text);
                }
                StreamEvent::Usage(usage) => completion.usage = usage,
                StreamEvent::Done => {}
                StreamEvent::Error(error) => {
                    let _ = reader.cancel();
                    return Err(error);
                }
            }
        }
        if done {
            completion.unfinished = !decoder.saw_done();
            return Ok(completion);
        }
    }
}

fn network_error(url: &str, detail: &str) -> LlmError {
    LlmError::Network {
        url: url.to_string(),
        detail: detail.to_string(),
    }
}

pub fn js_message(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}
