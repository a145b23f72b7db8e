use super::*;

const URL: &str = "http://localhost:11434/v1/chat/completions";
const PAGE: &str = "https://me.github.io";

/// The fix in English (`crate::sentences::hint` writes both languages).
fn fix(error: &LlmError, page_origin: &str) -> Option<String> {
    crate::sentences::hint(error, page_origin).map(|text| text.en)
}

#[test]
fn server_messages_are_found_in_every_error_shape() {
    let cases: &[(&str, Option<&str>)] = &[
        // OpenAI, llama.cpp, Ollama's /v1.
        (
            r#"{"error":{"message":"Invalid API key","type":"invalid_request_error"}}"#,
            Some("Invalid API key"),
        ),
        (
            r#"{"error":{"code":500,"message":"failed to load model","type":"server_error"}}"#,
            Some("failed to load model"),
        ),
        // Ollama's native form.
        (
            r#"{"error":"model 'llama9' not found"}"#,
            Some("model 'llama9' not found"),
        ),
        // An error object without a message is shown as it is.
        (r#"{"error":{"code":7}}"#, Some(r#"{"code":7}"#)),
        // vLLM.
        (
            r#"{"object":"error","message":"max_tokens is too large","code":400}"#,
            Some("max_tokens is too large"),
        ),
        // FastAPI, so llama-cpp-python.
        (r#"{"detail":"Not Found"}"#, Some("Not Found")),
        (
            r#"{"detail":[{"loc":["body","max_tokens"],"msg":"Input should be greater than 0"},{"loc":["body",3],"msg":"bad"}]}"#,
            Some("body.max_tokens: Input should be greater than 0; body.3: bad"),
        ),
        (r#"{"detail":[{"msg":"no location"}]}"#, Some("no location")),
        // Plain text (Ollama's unknown path), HTML, empty and unrelated JSON.
        ("404 page not found\n", Some("404 page not found")),
        ("<html><body>Bad Gateway</body></html>", None),
        ("", None),
        ("  ", None),
        (r#"{"foo":1}"#, None),
        (r#"{"error":null}"#, None),
        (r#"{"error":"  "}"#, None),
    ];
    for (body, want) in cases {
        assert_eq!(server_message(body).as_deref(), *want, "{body}");
    }
    let long = format!("{{\"error\":\"{}\"}}", "é".repeat(800));
    let message = server_message(&long).unwrap();
    assert_eq!(message.chars().count(), MESSAGE_CHARS + 1);
    assert!(message.ends_with('…'));
}

#[test]
fn classify_http_keeps_status_message_and_excerpt() {
    let body = format!("<html>{}</html>", "y".repeat(300));
    let LlmError::Http {
        status,
        url,
        body_excerpt,
        server_message,
        models,
    } = classify_http(502, &body, URL)
    else {
        panic!("not an Http error");
    };
    assert_eq!((status, url.as_str()), (502, URL));
    assert_eq!(body_excerpt.chars().count(), EXCERPT_CHARS + 1);
    assert!(body_excerpt.starts_with("<html>yyy") && body_excerpt.ends_with('…'));
    assert_eq!((server_message, models), (None, None));
}

/// (status, body, words the message must contain, words the hint must contain)
#[test]
fn each_status_gets_its_own_explanation_and_fix() {
    let cases: &[(u16, &str, &[&str], &[&str])] = &[
        (
            400,
            r#"{"error":{"message":"the request exceeds the available context size"}}"#,
            &["invalid (HTTP 400)", "The server says: the request exceeds"],
            &["context window", "-c 8192"],
        ),
        (400, "", &["HTTP 400"], &["Check the settings"]),
        (
            401,
            r#"{"error":{"message":"Incorrect API key provided"}}"#,
            &["API key", "HTTP 401", "Incorrect API key provided"],
            &["Authorization: Bearer <key>"],
        ),
        (
            403,
            "",
            &[
                "HTTP 403",
                "origin",
                "Ollama answers a disallowed origin with 403",
            ],
            &["OLLAMA_ORIGINS=https://me.github.io ollama serve"],
        ),
        (
            404,
            "404 page not found",
            &[
                "HTTP 404",
                "base URL is wrong",
                "model",
                "404 page not found",
            ],
            &["/v1", "http://localhost:11434/v1"],
        ),
        (
            429,
            "",
            &["HTTP 429"],
            &["retried automatically up to 2 times"],
        ),
        (
            500,
            r#"{"error":{"code":500,"message":"llama_decode failed"}}"#,
            &["failed while answering (HTTP 500)", "llama_decode failed"],
            &["server's console", "json_object"],
        ),
        (
            502,
            "<html>bad gateway</html>",
            &["proxy", "HTTP 502", "«<html>bad gateway</html>»"],
            &["server's console"],
        ),
        (
            503,
            "",
            &["still loading the model", "HTTP 503"],
            &["loaded the model"],
        ),
        (507, "", &["failed (HTTP 507)"], &["server's console"]),
        (418, "I'm a teapot", &["HTTP 418", "I'm a teapot"], &[]),
    ];
    for (status, body, in_message, in_hint) in cases {
        let err = classify_http(*status, body, URL);
        let message = err.to_string();
        assert!(message.contains(URL), "{message}");
        for word in *in_message {
            assert!(
                message.contains(word),
                "{status}: {word:?} not in {message:?}"
            );
        }
        let hint = fix(&err, PAGE);
        for word in *in_hint {
            let hint = hint.as_deref().unwrap_or_default();
            assert!(hint.contains(word), "{status}: {word:?} not in {hint:?}");
        }
        assert_eq!(hint.is_none(), in_hint.is_empty(), "{status}: {hint:?}");
    }
}

#[test]
fn a_404_names_the_models_the_driver_found() {
    let err = classify_http(404, r#"{"error":"model \"llama9\" not found"}"#, URL)
        .with_models(vec!["qwen2.5-coder:0.5b".into(), "smollm2".into()]);
    assert!(err
        .to_string()
        .ends_with("The server offers: qwen2.5-coder:0.5b, smollm2."));
    assert!(fix(&err, PAGE)
        .unwrap()
        .ends_with("the server offers: qwen2.5-coder:0.5b, smollm2."));
    let none = classify_http(404, "", URL).with_models(vec![]);
    assert!(none.to_string().ends_with("The server lists no models."));
    assert_eq!(LlmError::Aborted.with_models(vec![]), LlmError::Aborted);
}

#[test]
fn network_errors_say_what_to_check_and_how_to_fix_it() {
    let err = LlmError::Network {
        url: URL.into(),
        detail: "TypeError: Failed to fetch".into(),
    };
    let message = err.to_string();
    for word in [
        URL,
        "(TypeError: Failed to fetch)",
        "running",
        "origin",
        "OLLAMA_ORIGINS=<origin> ollama serve",
        "lms server start --cors",
        "llama.cpp's server allows every origin",
    ] {
        assert!(message.contains(word), "{word:?} not in {message}");
    }
    let hint = fix(&err, PAGE).unwrap();
    assert!(
        hint.contains("Open http://localhost:11434/v1/models"),
        "{hint}"
    );
    assert!(hint.contains("OLLAMA_ORIGINS=https://me.github.io ollama serve"));
    assert!(
        hint.contains("reach devices on your local network"),
        "{hint}"
    );
    // The same rule for the local network, and only for network failures.
    let at = |url: &str| LlmError::Network {
        url: url.into(),
        detail: String::new(),
    };
    for (url, private) in [
        ("http://localhost:11434/v1", true),
        ("http://127.0.0.1:8080/v1", true),
        ("http://192.168.1.20:8080/v1", true),
        ("http://10.0.0.5/v1", true),
        ("http://172.20.1.1/v1", true),
        ("http://172.32.1.1/v1", false),
        ("http://gpu.local:8080/v1", true),
        ("https://api.example.com/v1", false),
    ] {
        assert_eq!(at(url).private_network(PAGE), private, "{url}");
        assert!(!at(url).private_network("http://localhost:8000"), "{url}");
    }
    assert!(!LlmError::Timeout { ms: 1 }.private_network(PAGE));
    // A local page is not asked about (Local Network Access); `file://` has origin "null".
    let local = fix(&err, "http://localhost:8000").unwrap();
    assert!(!local.contains("local network"));
    assert!(fix(&err, "null")
        .unwrap()
        .contains("OLLAMA_ORIGINS=* ollama serve"));
    let bare = LlmError::Network {
        url: URL.into(),
        detail: String::new(),
    };
    assert!(bare
        .to_string()
        .starts_with(&format!("Could not reach {URL}. ")));
}

#[test]
fn every_other_variant_has_a_sentence() {
    let cases: &[(LlmError, &str, Option<&str>)] = &[
        (
            LlmError::MixedContent {
                page_origin: PAGE.into(),
                url: "http://192.168.1.5:11434/v1".into(),
            },
            "blocks its requests to the plain-http address http://192.168.1.5:11434/v1",
            Some("ssh -L"),
        ),
        (
            LlmError::Server {
                message: "prompt is too long for the context".into(),
            },
            "The model server reported an error: prompt is too long",
            Some("context window"),
        ),
        (
            LlmError::Server {
                message: "boom".into(),
            },
            "reported an error: boom",
            None,
        ),
        (
            LlmError::NotJson {
                excerpt: "<html>".into(),
            },
            "not JSON",
            Some("/v1"),
        ),
        (
            LlmError::NotJson {
                excerpt: String::new(),
            },
            "empty reply instead of JSON",
            Some("/v1"),
        ),
        (
            LlmError::UnexpectedReply {
                expected: "a `choices` list".into(),
                excerpt: "{}".into(),
            },
            "lacks a `choices` list",
            Some("/v1"),
        ),
        (
            LlmError::Timeout { ms: 60_000 },
            "within 60 s",
            Some("raise the timeout (now 60 s)"),
        ),
        (
            LlmError::Timeout { ms: 1_500 },
            "within 1.5 s",
            Some("1.5 s"),
        ),
        (LlmError::Aborted, "cancelled", None),
        (
            LlmError::Stream {
                message: "cut".into(),
            },
            "malformed: cut",
            Some("streaming off"),
        ),
        (LlmError::EmptyReply, "begins with one", Some("max tokens")),
    ];
    for (err, in_message, in_hint) in cases {
        assert!(err.to_string().contains(in_message), "{err}");
        match (fix(err, PAGE), in_hint) {
            (Some(hint), Some(word)) => assert!(hint.contains(word), "{hint}"),
            (None, None) => {}
            (hint, _) => panic!("{err}: unexpected hint {hint:?}"),
        }
    }
}

#[test]
fn mixed_content_is_refused_only_from_https_to_remote_http() {
    let cases: &[(&str, &str, bool)] = &[
        (PAGE, "http://192.168.1.5:11434/v1", false),
        (PAGE, "HTTP://Example.com/v1", false),
        (PAGE, "http://localhost.example.com/v1", false),
        (PAGE, "http://127.example.com/v1", false),
        (PAGE, "http://0.0.0.0:8080/v1", false),
        (PAGE, "http://localhost:11434/v1", true),
        (PAGE, "http://LOCALHOST/v1", true),
        (PAGE, "http://ollama.localhost/v1", true),
        (PAGE, "http://127.0.0.1:8080/v1", true),
        (PAGE, "http://127.1.2.3/v1", true),
        (PAGE, "http://[::1]:8080/v1", true),
        (PAGE, "http://user:pw@localhost:8080/v1", true),
        (PAGE, "https://api.openai.com/v1", true),
        ("http://localhost:8000", "http://192.168.1.5:11434/v1", true),
        ("null", "http://192.168.1.5:11434/v1", true),
        ("", "http://192.168.1.5/v1", true),
    ];
    for (page, url, allowed) in cases {
        let result = check_mixed_content(page, url);
        assert_eq!(result.is_ok(), *allowed, "{page} -> {url}");
        if let Err(err) = result {
            assert_eq!(
                err,
                LlmError::MixedContent {
                    page_origin: page.to_string(),
                    url: url.to_string(),
                }
            );
        }
    }
}

#[test]
fn errors_round_trip_through_json_with_a_type_tag() {
    let errors = vec![
        LlmError::Network {
            url: URL.into(),
            detail: "x".into(),
        },
        classify_http(404, "{\"error\":\"nope\"}", URL).with_models(vec!["m".into()]),
        LlmError::Timeout { ms: 5 },
        LlmError::Aborted,
        LlmError::EmptyReply,
        LlmError::body_too_large(),
    ];
    for err in errors {
        let text = serde_json::to_string(&err).unwrap();
        assert!(text.starts_with("{\"type\":\""), "{text}");
        assert_eq!(serde_json::from_str::<LlmError>(&text).unwrap(), err);
    }
    assert_eq!(
        serde_json::to_value(LlmError::Aborted).unwrap(),
        serde_json::json!({"type": "aborted"})
    );
}

/// (part, limit, words the message must contain, words the hint must contain)
#[test]
fn a_reply_over_a_limit_says_which_limit_and_what_to_check() {
    let cases: &[(Oversized, usize, &[&str], &[&str])] = &[
        (
            Oversized::Body,
            MAX_REPLY_BYTES,
            &["reply is larger than 4 MB", "reading stopped"],
            &["base URL", "/v1"],
        ),
        (
            Oversized::StreamLine,
            1_000_000,
            &["A line of the streamed reply ran past 1 MB without ending"],
            &["event stream", "turn streaming off"],
        ),
        (
            Oversized::StreamEvent,
            1_000_000,
            &["An event of the streamed reply grew past 1 MB"],
            &["turn streaming off"],
        ),
        (
            Oversized::StreamedText,
            MAX_REPLY_BYTES,
            &["passed 4 MB of text"],
            &["lower max tokens"],
        ),
    ];
    for &(part, limit_bytes, in_message, in_hint) in cases {
        let err = LlmError::TooLarge { part, limit_bytes };
        let (message, hint) = (err.to_string(), fix(&err, PAGE).unwrap());
        for word in in_message {
            assert!(
                message.contains(word),
                "{part:?}: {word:?} not in {message:?}"
            );
        }
        for word in in_hint {
            assert!(hint.contains(word), "{part:?}: {word:?} not in {hint:?}");
        }
        assert!(!err.is_retryable());
    }
    assert_eq!(
        LlmError::body_too_large(),
        LlmError::TooLarge {
            part: Oversized::Body,
            limit_bytes: 4_000_000
        }
    );
    assert_eq!(
        serde_json::to_value(LlmError::body_too_large()).unwrap(),
        serde_json::json!({"type": "too_large", "part": "body", "limit_bytes": 4_000_000})
    );
}

/// A page function's code reads as serde's derive reads it, unknown codes as `Other`.
#[test]
fn page_model_codes_read_as_the_derive_reads_them() {
    use crate::fields::Read;
    for code in [
        "not_loaded",
        "context",
        "engine",
        "other",
        "aborted",
        "",
        "Engine",
    ] {
        let derived: PageModelCode = serde_json::from_value(serde_json::json!(code)).unwrap();
        assert_eq!(PageModelCode::from_code(code), derived, "{code}");
        assert_eq!(
            PageModelCode::read(serde_json::json!(code)).unwrap(),
            derived
        );
    }
    let refused = |v: serde_json::Value| PageModelCode::read(v).unwrap_err().to_string();
    let derived = serde_json::from_value::<PageModelCode>(serde_json::json!(1)).unwrap_err();
    assert_eq!(refused(serde_json::json!(1)), derived.to_string());
}
