//! The fix for each error, for the person at the page: which command to run, which setting to
//! change, phrased for the page's origin (`OLLAMA_ORIGINS=…`) and the server's answer.

use super::error::{seconds, LlmError, Oversized};
use super::retry::MAX_ATTEMPTS;

impl LlmError {
    /// A network failure that Chrome's Private Network Access may have caused: a public https
    /// page calling this machine or the local network. The embed's one-line hint follows it.
    pub fn private_network(&self, page_origin: &str) -> bool {
        matches!(self, Self::Network { url, .. } if is_public_https(page_origin) && is_private_url(url))
    }

    /// The concrete fix, phrased for this page (`page_origin` like `https://me.github.io`).
    pub fn hint(&self, page_origin: &str) -> Option<String> {
        let origin = command_origin(page_origin);
        match self {
            Self::Network { url, .. } => {
                let mut hint = format!(
                    "Open {} in a new browser tab. If it does not load, start the model server \
                     (for example `ollama serve`, or `llama-server -m MODEL.gguf --port 8080`) or \
                     correct the base URL. If it loads there but not here, the server refuses \
                     this page's origin {origin}: for Ollama restart it with \
                     `OLLAMA_ORIGINS={origin} ollama serve`; for LM Studio run \
                     `lms server start --cors`; llama.cpp's server allows every origin by default.",
                    super::models_url(url)
                );
                if self.private_network(page_origin) {
                    hint.push_str(
                        " Chrome may also block a public https page from calling localhost \
                         (Private Network Access); then open this page from http://localhost.",
                    );
                }
                Some(hint)
            }
            Self::MixedContent { .. } => Some(
                "Open this page over http (for example from a local copy), put the model server \
                 behind https, or forward its port to this computer (`ssh -L 11434:localhost:11434 \
                 HOST`) and use http://localhost:11434/v1."
                    .to_string(),
            ),
            Self::Http {
                status,
                server_message,
                models,
                ..
            } => http_hint(
                *status,
                server_message.as_deref(),
                models.as_deref(),
                &origin,
            ),
            Self::Server { message } => context_hint(message),
            Self::NotJson { .. } | Self::UnexpectedReply { .. } => Some(
                "Check that the base URL points at the OpenAI-compatible API, which usually ends \
                 in /v1 (Ollama: http://localhost:11434/v1, llama.cpp: http://localhost:8080/v1, \
                 LM Studio: http://localhost:1234/v1)."
                    .to_string(),
            ),
            Self::Timeout { ms } => Some(format!(
                "Small machines can be slow: raise the timeout (now {}), lower max tokens, use a \
                 smaller model, or turn on streaming to watch the reply arrive.",
                seconds(*ms)
            )),
            Self::Aborted => None,
            Self::Stream { .. } => {
                Some("Turn streaming off in the settings and try again.".to_string())
            }
            Self::EmptyReply => Some(
                "Raise max tokens, check that no stop sequence matches the start of the reply, \
                 or try another model."
                    .to_string(),
            ),
            Self::TooLarge { part, .. } => Some(
                match part {
                    Oversized::Body => {
                        "A chat reply is a few kilobytes: check that the base URL points at the \
                         OpenAI-compatible API, which usually ends in /v1 (Ollama: \
                         http://localhost:11434/v1, llama.cpp: http://localhost:8080/v1, LM \
                         Studio: http://localhost:1234/v1), not at a file or a page."
                    }
                    Oversized::StreamLine | Oversized::StreamEvent => {
                        "The server, or a proxy in front of it, does not send a proper event \
                         stream: check the base URL, or turn streaming off in the settings."
                    }
                    Oversized::StreamedText => {
                        "The model may be repeating itself: lower max tokens, or add a stop \
                         sequence."
                    }
                }
                .to_string(),
            ),
        }
    }
}

fn http_hint(
    status: u16,
    server_message: Option<&str>,
    models: Option<&[String]>,
    origin: &str,
) -> Option<String> {
    match status {
        400 => server_message.and_then(context_hint).or_else(|| {
            Some(
                "Check the settings (model, max tokens, constrained output); the server's \
                 message names what it rejects."
                    .to_string(),
            )
        }),
        401 => Some(
            "Enter the server's API key in the settings; it is sent as \
             `Authorization: Bearer <key>`."
                .to_string(),
        ),
        403 => Some(format!(
            "If the server is Ollama, restart it allowing this page: \
             `OLLAMA_ORIGINS={origin} ollama serve`. Otherwise check that the API key may use \
             this model."
        )),
        404 => {
            let mut hint = "Check the base URL: OpenAI-compatible servers usually expect it to \
                            end in /v1 (Ollama: http://localhost:11434/v1, llama.cpp: \
                            http://localhost:8080/v1, LM Studio: http://localhost:1234/v1). \
                            Then check the model name"
                .to_string();
            match models {
                Some(names) if !names.is_empty() => {
                    hint.push_str(&format!("; the server offers: {}.", names.join(", ")));
                }
                _ => hint.push('.'),
            }
            Some(hint)
        }
        429 => Some(format!(
            "Wait a moment and try again; the request is retried automatically up to {} times.",
            MAX_ATTEMPTS - 1
        )),
        503 => Some("Wait until the server has loaded the model, then try again.".to_string()),
        500..=599 => server_message.and_then(context_hint).or_else(|| {
            Some(
                "Look at the server's console for the cause. If constrained output is on, try \
                 another mode: llama-cpp-python rejects json_schema (use json_object), and not \
                 every server supports grammar."
                    .to_string(),
            )
        }),
        _ => None,
    }
}

/// Servers word it differently ("exceeds the available context size", "context length"), but
/// all of them say "context" when the conversation no longer fits.
fn context_hint(message: &str) -> Option<String> {
    message.to_ascii_lowercase().contains("context").then(|| {
        "The conversation no longer fits in the model's context window: start a new run, lower \
         max tokens, or restart the server with a larger context (llama.cpp: `-c 8192`, \
         llama-cpp-python: `--n_ctx 8192`)."
            .to_string()
    })
}

/// The origin to paste into `OLLAMA_ORIGINS`; a `file://` page has the origin `null`.
fn command_origin(page_origin: &str) -> String {
    match page_origin.trim().trim_end_matches('/') {
        "" | "null" => "*".to_string(),
        origin => origin.to_string(),
    }
}

fn is_public_https(page_origin: &str) -> bool {
    matches!(super::http_host(page_origin), Some((true, host)) if !is_loopback_host(&host))
}

fn is_private_url(url: &str) -> bool {
    matches!(super::http_host(url), Some((_, host)) if is_loopback_host(&host) || is_lan_host(&host))
}

/// Private IPv4 ranges (10/8, 172.16/12, 192.168/16, link-local 169.254/16) and mDNS names.
fn is_lan_host(host: &str) -> bool {
    let octets: Vec<u8> = host.split('.').filter_map(|p| p.parse().ok()).collect();
    let ipv4 = octets.len() == 4 && host.split('.').count() == 4;
    let private_ip = ipv4
        && match octets[..] {
            [10, ..] | [192, 168, ..] | [169, 254, ..] => true,
            [172, b, ..] => (16..=31).contains(&b),
            _ => false,
        };
    private_ip || host.ends_with(".local")
}

/// The hosts browsers treat as this machine (and so exempt from mixed-content blocking).
pub(super) fn is_loopback_host(host: &str) -> bool {
    let ipv4_loopback = || {
        let parts: Vec<&str> = host.split('.').collect();
        parts.len() == 4 && parts[0] == "127" && parts.iter().all(|p| p.parse::<u8>().is_ok())
    };
    host == "localhost" || host.ends_with(".localhost") || host == "::1" || ipv4_loopback()
}
