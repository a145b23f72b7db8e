//! The request for the in-page engine: llama.cpp compiled to wasm (`@wllama/wllama`, whose
//! core is llama.cpp's own server context), run in a Worker of the page. It takes the body a
//! llama.cpp server takes, so it is built by [`chat_body`]: the messages (which the engine
//! renders with the model's own chat template, read from the GGUF), the stop sequences, the
//! token limit, the seed and the GBNF grammar. What differs is decided here, not in the driver.

use serde_json::{json, Value};

use super::{chat_body, ClientConfig, Constraint, Message};

/// The body the in-page engine is asked with: [`chat_body`], streamed (the page shows the
/// tokens as they come; the stream is a callback, not SSE, so there is nothing to buffer), and
/// with the prompt cache on. The history is append-only between trims
/// ([`crate::history`]), so each step evaluates the tokens added since the last one, and the
/// last reply again where the grammar made the model spell a word in other tokens than the
/// tokenizer does (`T`,`h`,`ough`,`t` for `Thought`): the cache matches tokens, not text.
pub fn in_page_body(
    cfg: &ClientConfig,
    messages: &[Message],
    stop: &[String],
    constraint: Option<Constraint>,
) -> Value {
    let mut body = chat_body(
        &ClientConfig {
            stream: true,
            ..cfg.clone()
        },
        messages,
        stop,
        constraint,
    );
    if let Some(map) = body.as_object_mut() {
        // Token counts arrive with the last chunk; there is no SSE option to ask for them.
        map.remove("stream_options");
        map.insert("cache_prompt".into(), json!(true));
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Role;

    #[test]
    fn the_engine_gets_the_grammar_the_stops_and_the_prompt_cache() {
        let cfg = ClientConfig {
            stream: false,
            max_tokens: Some(200),
            ..ClientConfig::new("", "SmolLM2-135M-Instruct.Q4_1.gguf")
        };
        let messages = [Message {
            role: Role::User,
            content: "What is 2+2?".into(),
        }];
        let stop = ["Observation:".to_string()];
        let grammar = Constraint::Grammar("root ::= \"x\"".into());
        let body = in_page_body(&cfg, &messages, &[], Some(grammar));
        assert_eq!(body["stream"], json!(true));
        assert_eq!(body["cache_prompt"], json!(true));
        assert_eq!(body["max_tokens"], json!(200));
        assert!(body.get("stream_options").is_none());
        assert_eq!(body["grammar"], json!("root ::= \"x\""));
        assert!(body.get("stop").is_none());
        assert_eq!(body["messages"][0]["content"], json!("What is 2+2?"));
        // Plain: the stop sequence, no grammar.
        let body = in_page_body(&cfg, &messages, &stop, None);
        assert_eq!(body["stop"], json!(["Observation:"]));
        assert!(body.get("grammar").is_none());
    }
}
