//! The client's tests: URLs, the key, the settings' checks, replies and model lists.

use super::*;

type Edit<'a> = dyn Fn(&mut ClientConfig) + 'a;
type Reply = Result<(String, Usage), LlmError>;

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
fn non_streamed_replies() {
    let ok = |text: &str, prompt, completion| {
        Ok((
            text.to_string(),
            Usage {
                prompt_tokens: prompt,
                completion_tokens: completion,
                cached_tokens: None,
            },
        ))
    };
    let cached = |text: &str, prompt, cached| {
        Ok((
            text.to_string(),
            Usage {
                prompt_tokens: Some(prompt),
                completion_tokens: Some(2),
                cached_tokens: Some(cached),
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
        // The prompt cache's share: OpenAI's (and vLLM's) field, llama.cpp's timings.
        (
            r#"{"choices":[{"message":{"content":"a"}}],"usage":{"prompt_tokens":300,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":256}}}"#,
            cached("a", 300, 256),
        ),
        (
            r#"{"choices":[{"message":{"content":"b"}}],"usage":{"prompt_tokens":281,"completion_tokens":2},"timings":{"cache_n":262,"prompt_n":19}}"#,
            cached("b", 281, 262),
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
