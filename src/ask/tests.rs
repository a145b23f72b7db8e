//! A request's body: each constrained mode, a plan and a summary, an avoided tool.

use super::*;
use crate::llm::{ClientConfig, Role};
use crate::tools::ToolSpec;
use serde_json::{json, Value};

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
