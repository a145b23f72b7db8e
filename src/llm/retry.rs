//! The retry policy: which failures are worth another try, how long to wait, and what a
//! client does after an HTTP error (retry, list the models for a 404, or give up).

use super::error::LlmError;

/// Tries of one request (the first one included) when its error [`LlmError::is_retryable`].
pub const MAX_ATTEMPTS: u32 = 3;
/// Upper bound of any wait between two tries, a server's Retry-After included.
pub const MAX_RETRY_DELAY_MS: u32 = 8_000;
const BASE_RETRY_DELAY_MS: u32 = 500;

impl LlmError {
    /// Worth trying again after [`retry_delay_ms`]: only a rate limit (429) or a busy server
    /// (503). A network failure is not: a stopped server or a refused origin stays so.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::Http {
                status: 429 | 503,
                ..
            }
        )
    }
}

/// What a client does after a request failed with an HTTP error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterHttpError {
    /// Send the same request again after this many milliseconds.
    Retry {
        delay_ms: u32,
    },
    /// A 404: "unknown model" and "wrong URL" look alike; the model list tells them apart, so
    /// fetch it and attach it with [`LlmError::with_models`].
    ListModels,
    GiveUp,
}

/// The retry policy: after try number `attempt` (1-based) failed with `error`, a rate limit
/// or a busy server is tried again up to [`MAX_ATTEMPTS`] tries, waiting [`retry_delay_ms`].
pub fn after_http_error(
    error: &LlmError,
    attempt: u32,
    retry_after: Option<&str>,
) -> AfterHttpError {
    if error.is_retryable() && attempt < MAX_ATTEMPTS {
        return AfterHttpError::Retry {
            delay_ms: retry_delay_ms(attempt, retry_after),
        };
    }
    match error {
        LlmError::Http { status: 404, .. } => AfterHttpError::ListModels,
        _ => AfterHttpError::GiveUp,
    }
}

/// Wait before try number `attempt + 1`, where `attempt` counts the tries made so far (1 after
/// the first failure). Honours a Retry-After in seconds; an HTTP-date or garbage falls back to
/// exponential backoff (0.5 s, 1 s, 2 s, …). Never more than [`MAX_RETRY_DELAY_MS`].
pub fn retry_delay_ms(attempt: u32, retry_after: Option<&str>) -> u32 {
    let from_server = retry_after
        .and_then(|s| s.trim().parse::<u32>().ok())
        .map(|secs| secs.saturating_mul(1000));
    let backoff = || {
        let doublings = attempt.saturating_sub(1).min(16);
        BASE_RETRY_DELAY_MS.saturating_mul(1 << doublings)
    };
    from_server.unwrap_or_else(backoff).min(MAX_RETRY_DELAY_MS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::classify_http;

    const URL: &str = "http://localhost:11434/v1/chat/completions";

    #[test]
    fn only_rate_limits_and_busy_servers_are_retried() {
        for status in [400, 401, 403, 404, 500, 502, 504] {
            assert!(!classify_http(status, "", URL).is_retryable(), "{status}");
        }
        for status in [429, 503] {
            assert!(classify_http(status, "", URL).is_retryable(), "{status}");
        }
        let network = LlmError::Network {
            url: URL.into(),
            detail: String::new(),
        };
        for err in [network, LlmError::Timeout { ms: 1 }, LlmError::EmptyReply] {
            assert!(!err.is_retryable(), "{err}");
        }
    }

    #[test]
    fn retry_delays_back_off_honour_retry_after_and_stay_bounded() {
        let cases: &[(u32, Option<&str>, u32)] = &[
            (0, None, 500),
            (1, None, 500),
            (2, None, 1_000),
            (3, None, 2_000),
            (4, None, 4_000),
            (5, None, 8_000),
            (6, None, MAX_RETRY_DELAY_MS),
            (u32::MAX, None, MAX_RETRY_DELAY_MS),
            (1, Some("2"), 2_000),
            (3, Some(" 0 "), 0),
            (1, Some("120"), MAX_RETRY_DELAY_MS),
            (1, Some("4294967295"), MAX_RETRY_DELAY_MS),
            (2, Some("Wed, 21 Oct 2015 07:28:00 GMT"), 1_000),
            (2, Some("-1"), 1_000),
            (2, Some(""), 1_000),
        ];
        for (attempt, retry_after, want) in cases {
            assert_eq!(
                retry_delay_ms(*attempt, *retry_after),
                *want,
                "{attempt} {retry_after:?}"
            );
        }
    }

    #[test]
    fn after_an_http_error_the_policy_retries_busy_servers_and_lists_models_on_404() {
        let http = |status| classify_http(status, "", URL);
        use AfterHttpError::*;
        let cases = [
            (http(429), 1, None, Retry { delay_ms: 500 }),
            (http(503), 2, Some("3"), Retry { delay_ms: 3_000 }),
            // The last try is not retried, whatever it was.
            (http(429), MAX_ATTEMPTS, None, GiveUp),
            (http(404), 1, None, ListModels),
            (http(500), 1, None, GiveUp),
            (http(401), 1, None, GiveUp),
        ];
        for (error, attempt, retry_after, want) in cases {
            assert_eq!(
                after_http_error(&error, attempt, retry_after),
                want,
                "{error} {attempt}"
            );
        }
    }
}
