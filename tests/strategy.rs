//! The loop variants of the ReAct paper's comparison, driven with scripted replies: what each
//! asks the model (prompt, constraint) and how it reads the replies, in English and Chinese.

use reactloop::agent::{opening, Agent};
use reactloop::ask::{chat_body, ModelRequest};
use reactloop::config::AgentConfig;
use reactloop::drive::{drive, run_to_end};
use reactloop::lang::Lang;
use reactloop::llm::{ClientConfig, Constrained, LlmError, Message, ServerKind};
use reactloop::prompt::PromptConfig;
use reactloop::settings::{configure, Purpose};
use reactloop::strategy::Strategy;
use reactloop::tools::{default_documents, HostContext, Registry};
use reactloop::trace::{plan_progress, Outcome, Trace};
use serde_json::{json, Value};

const HOST: HostContext = HostContext {
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 0,
};

fn config(strategy: Strategy, constrained: Constrained, lang: Lang) -> AgentConfig {
    AgentConfig {
        strategy,
        constrained,
        prompt: PromptConfig {
            lang,
            ..PromptConfig::default()
        },
        ..AgentConfig::default()
    }
}

/// Runs `question` with replies played in order; returns the outcome, the trace and the
/// request bodies as a llama.cpp server would get them.
fn run(config: AgentConfig, question: &str, replies: &[&str]) -> (Outcome, Trace, Vec<Value>) {
    let mut agent = Agent::new(
        question,
        Registry::with_builtins(default_documents()),
        config,
    );
    let tools = agent
        .registry()
        .specs()
        .into_iter()
        .cloned()
        .collect::<Vec<_>>();
    let client = ClientConfig::new("http://127.0.0.1:8080/v1", "qwen");
    let mut bodies = Vec::new();
    let mut i = 0;
    let outcome = run_to_end(&mut agent, &HOST, |request: &ModelRequest| {
        bodies.push(chat_body(&client, request, &tools));
        let text = replies[i.min(replies.len() - 1)].to_string();
        i += 1;
        Ok::<_, LlmError>(reactloop::trace::ModelReply {
            text,
            ..Default::default()
        })
    });
    (outcome, agent.trace().clone(), bodies)
}

fn answer(text: &str) -> Outcome {
    Outcome::Answer {
        answer: text.into(),
    }
}

#[test]
fn act_only_asks_for_actions_without_thoughts_and_reads_them() {
    let calc = "Action: calculator\nAction Input: {\"expression\": \"6 * 7\"}";
    let done = "Action: final_answer\nAction Input: The answer is 42";
    for lang in [Lang::En, Lang::Zh] {
        let (outcome, trace, bodies) = run(
            config(Strategy::Act, Constrained::Grammar, lang),
            "What is 6 * 7?",
            &[calc, done],
        );
        assert_eq!(outcome, answer("The answer is 42"), "{lang:?}");
        assert_eq!(trace.config.strategy, Strategy::Act);
        // The prompt shows the format without a Thought line and says how a reply starts.
        assert!(!trace.system_prompt.contains("Thought:"), "{lang:?}");
        assert!(trace.system_prompt.contains("\"Action:\""), "{lang:?}");
        assert!(trace.system_prompt.contains("calculator"), "{lang:?}");
        for (step, body) in trace.steps.iter().zip(&bodies) {
            assert!(step.request.no_thought);
            assert_eq!(step.request.thought_prefix, None);
            let grammar = body["grammar"].as_str().expect("a grammar");
            assert!(grammar.starts_with("root ::= \"Action: \""), "{grammar}");
            assert!(!grammar.contains("Thought"), "{grammar}");
        }
        let parse = trace.steps[0].parse.as_ref().expect("parsed");
        assert_eq!(parse.thought, None);
        assert_eq!(trace.steps[0].observation.as_ref().unwrap().text, "42");
    }
}

#[test]
fn act_only_under_a_json_schema_has_no_thought_property() {
    let (_, trace, _) = run(
        config(Strategy::Act, Constrained::JsonSchema, Lang::En),
        "What is 6 * 7?",
        &[r#"{"action": "final_answer", "action_input": "The answer is 42"}"#],
    );
    let tools = Registry::with_builtins(default_documents());
    let tools: Vec<_> = tools.specs().into_iter().cloned().collect();
    let body = chat_body(
        &ClientConfig::new("http://127.0.0.1:8080/v1", "qwen"),
        &trace.steps[0].request,
        &tools,
    );
    let schema = &body["response_format"]["json_schema"]["schema"];
    // One branch per action; here only the calculator's, which the question's numbers steer
    // the first reply to.
    assert_eq!(
        trace.steps[0].request.steer.as_ref().unwrap().tool,
        "calculator"
    );
    let branches = schema["anyOf"]
        .as_array()
        .cloned()
        .unwrap_or(vec![schema.clone()]);
    for branch in &branches {
        assert_eq!(
            branch["required"],
            json!(["action", "action_input"]),
            "{branch}"
        );
        assert!(branch["properties"].get("thought").is_none(), "{branch}");
    }
    // ReAct keeps the Thought first.
    let mut react = trace.steps[0].request.clone();
    react.no_thought = false;
    let body = chat_body(
        &ClientConfig::new("http://127.0.0.1:8080/v1", "qwen"),
        &react,
        &tools,
    );
    let first = &body["response_format"]["json_schema"]["schema"];
    assert_eq!(first["required"][0], json!("thought"));
}

#[test]
fn chain_of_thought_reasons_then_answers_with_no_tools() {
    let reply = "Thought: 6 times 7 is 42.\nAction: final_answer\nAction Input: The answer is 42";
    for (lang, no_tools) in [
        (Lang::En, "There are no tools"),
        (Lang::Zh, "没有可用的工具"),
    ] {
        for constrained in [Constrained::Grammar, Constrained::Off] {
            let (outcome, trace, bodies) = run(
                config(Strategy::Cot, constrained, lang),
                "What is 6 * 7?",
                &[reply],
            );
            assert_eq!(outcome, answer("The answer is 42"));
            // One request, its Thought and its answer.
            assert_eq!(trace.steps.len(), 1);
            let parse = trace.steps[0].parse.as_ref().expect("parsed");
            assert_eq!(parse.thought.as_deref(), Some("6 times 7 is 42."));
            assert!(trace.tools.is_empty(), "no tool is offered");
            assert!(
                trace.system_prompt.contains(no_tools),
                "{}",
                trace.system_prompt
            );
            assert!(!trace.system_prompt.contains("calculator"));
            let request = &trace.steps[0].request;
            // No "To answer this, I need <tool>": there is none to choose.
            assert_eq!(request.thought_prefix, None);
            if constrained == Constrained::Grammar {
                let grammar = bodies[0]["grammar"].as_str().expect("a grammar");
                assert!(grammar.contains("final_answer"), "{grammar}");
                assert!(!grammar.contains("calculator"), "{grammar}");
            }
        }
    }
}

#[test]
fn chain_of_thought_cannot_call_a_tool() {
    let call = "Thought: compute\nAction: calculator\nAction Input: {\"expression\": \"6 * 7\"}";
    let done = "Thought: it is 42\nAction: final_answer\nAction Input: 42";
    let (outcome, trace, _) = run(
        config(Strategy::Cot, Constrained::Off, Lang::En),
        "What is 6 * 7?",
        &[call, done],
    );
    assert_eq!(outcome, answer("42"));
    let told = &trace.steps[0].observation.as_ref().expect("feedback").text;
    assert!(told.contains("calculator"), "{told}");
    assert!(trace.steps[0].call.is_none(), "nothing ran");
}

#[test]
fn the_strategy_is_a_setting_and_part_of_the_trace() {
    for (name, strategy) in [
        ("react", Strategy::React),
        ("act", Strategy::Act),
        ("cot", Strategy::Cot),
        ("plan", Strategy::Plan),
        ("reflect", Strategy::Reflect),
    ] {
        let configured = configure(json!({"demo": true, "strategy": name}), Purpose::Run)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(configured.agent.strategy, strategy);
        let (_, trace, _) = run(
            configured.agent,
            "What is 6 * 7?",
            &["Action: final_answer\nAction Input: 42"],
        );
        let json = serde_json::to_string(&trace).expect("writes");
        let again = Trace::from_json(&json).expect("loads");
        assert_eq!(again.config.strategy, strategy, "{name}");
        assert!(
            json.contains(&format!("\"strategy\":\"{name}\""))
                || json.contains(&format!("\"strategy\": \"{name}\""))
        );
    }
    let refused = configure(json!({"demo": true, "strategy": "reflex"}), Purpose::Run)
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        refused.as_deref(),
        Some("Invalid settings: unknown variant `reflex`, expected one of `react`, `act`, `cot`, `plan`, `reflect`")
    );
    // A trace from before strategies is a ReAct run.
    assert_eq!(AgentConfig::default().strategy, Strategy::React);
}

#[test]
fn the_demo_model_follows_each_strategy() {
    for (strategy, question, want) in [
        (Strategy::Act, "What is 23 * 17 + 4?", "The result is 395."),
        (Strategy::Cot, "What is 23 * 17 + 4?", "The result is 395."),
        (Strategy::Cot, "计算 (2^10 - 24) / 8 的结果", "结果是 125。"),
        (
            Strategy::React,
            "What is 23 * 17 + 4?",
            "The result is 395.",
        ),
        (
            Strategy::Reflect,
            "What is 23 * 17 + 4?",
            "The result is 395.",
        ),
        (Strategy::Plan, "What is 23 * 17 + 4?", "The result is 395."),
        (Strategy::Plan, "什么是模型上下文协议？", "MCP"),
    ] {
        let mut agent = Agent::new(
            question,
            Registry::with_builtins(default_documents()),
            config(strategy, Constrained::Off, Lang::En),
        );
        let outcome = run_to_end(&mut agent, &HOST, |request: &ModelRequest| {
            Ok::<_, LlmError>(reactloop::trace::ModelReply {
                text: reactloop::demo::reply(request),
                ..Default::default()
            })
        });
        let Outcome::Answer { answer: got } = &outcome else {
            panic!("{strategy:?} {question}: {outcome:?}");
        };
        assert!(got.contains(want), "{strategy:?} {question}: {got}");
        let trace = agent.trace();
        let replies: Vec<&str> = trace
            .steps
            .iter()
            .filter_map(|s| Some(s.reply.as_ref()?.text.as_str()))
            .collect();
        match strategy {
            Strategy::Act => assert!(
                replies.iter().all(|r| !r.contains("Thought:")),
                "{replies:?}"
            ),
            Strategy::Cot => assert_eq!(trace.steps.len(), 1, "{replies:?}"),
            Strategy::React => assert!(replies.iter().all(|r| r.contains("Thought:"))),
            Strategy::Reflect => assert!(replies
                .last()
                .is_some_and(|r| r.ends_with("Action Input: OK"))),
            Strategy::Plan => {
                assert!(replies[0].starts_with("Plan:\n1. "), "{replies:?}");
                assert_eq!(trace.steps[0].plan.as_ref().map(Vec::len), Some(2));
                assert_eq!(trace.steps.len(), 3, "{replies:?}");
            }
        }
    }
}

/// A reflect run: a calculation, an answer, and then the reply to the self-check.
fn reflect(check: &str, more: &[&str], lang: Lang) -> (Outcome, Trace, Vec<Value>) {
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"6 * 7\"}";
    let first = "Thought: t\nAction: final_answer\nAction Input: The answer is 42";
    let mut replies = vec![calc, first, check];
    replies.extend(more);
    run(
        config(Strategy::Reflect, Constrained::Grammar, lang),
        "What is 6 * 7?",
        &replies,
    )
}

#[test]
fn reflect_checks_an_answer_once_before_taking_it() {
    for lang in [Lang::En, Lang::Zh] {
        // "OK" keeps the answer the check was shown.
        let ok = "Thought: t\nAction: final_answer\nAction Input: OK";
        let (outcome, trace, bodies) = reflect(ok, &[], lang);
        assert_eq!(outcome, answer("The answer is 42"), "{lang:?}");
        assert_eq!(trace.steps.len(), 3);
        // The answer's step sends the check back as its Observation; the next step is the
        // check, its own card, asked with no answer opening (it may be "OK").
        let sent = &trace.steps[1].observation.as_ref().expect("the check").text;
        assert!(
            sent.contains("The answer is 42") && sent.contains("What is 6 * 7?"),
            "{sent}"
        );
        let check = &trace.steps[2].request;
        assert_eq!(check.checks_answer.as_deref(), Some("The answer is 42"));
        assert_eq!(check.answer_prefix, None);
        let grammar = bodies[2]["grammar"].as_str().expect("a grammar");
        assert!(
            grammar.contains("calculator"),
            "a revision may use a tool: {grammar}"
        );
        assert!(matches!(
            trace.steps[2].guards[..],
            [reactloop::trace::Guard::SelfCheck { kept: true }]
        ));
        // The request is the previous one extended: the server's prompt cache holds.
        let (before, after) = (&trace.steps[1].request.messages, &check.messages);
        assert_eq!(&after[..before.len()], &before[..]);
    }
    // Another answer is the revision, and final.
    let revised =
        "Thought: t\nAction: final_answer\nAction Input: The answer is 42, six times seven";
    let (outcome, trace, _) = reflect(revised, &[], Lang::En);
    assert_eq!(outcome, answer("The answer is 42, six times seven"));
    assert!(matches!(
        trace.steps[2].guards[..],
        [reactloop::trace::Guard::SelfCheck { kept: false }]
    ));
    // A tool call goes on with the loop; the next answer is taken without a second check.
    let call = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"7 * 6\"}";
    let last = "Thought: t\nAction: final_answer\nAction Input: The answer is 42 again";
    let (outcome, trace, _) = reflect(call, &[last], Lang::En);
    assert_eq!(outcome, answer("The answer is 42 again"));
    assert_eq!(trace.steps.len(), 4);
    // Chinese: the check is asked in Chinese.
    let ok = "Thought: t\nAction: final_answer\nAction Input: OK";
    let (_, trace, _) = reflect(ok, &[], Lang::Zh);
    let sent = &trace.steps[1].observation.as_ref().expect("the check").text;
    assert!(sent.contains("请检查它"), "{sent}");
    // At the step limit there is no step left for a check: the answer is taken.
    let mut cfg = config(Strategy::Reflect, Constrained::Off, Lang::En);
    cfg.max_steps = 2;
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"6 * 7\"}";
    let done = "Thought: t\nAction: final_answer\nAction Input: 42";
    let (outcome, trace, _) = run(cfg, "What is 6 * 7?", &[calc, done]);
    assert_eq!(outcome, answer("42"));
    assert_eq!(trace.steps.len(), 2);
}

#[test]
fn plan_asks_for_a_plan_first_keeps_it_and_replans_once_after_a_failure() {
    let plan = "Plan:\n1. Compute 6 * 7 with the calculator.\n2. Answer with the result.";
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"6 * 7\"}";
    let done = "Thought: t\nAction: final_answer\nAction Input: The answer is 42";
    for (lang, carry) in [
        (Lang::En, "Now carry out the plan"),
        (Lang::Zh, "现在执行这个计划"),
    ] {
        let (outcome, trace, bodies) = run(
            config(Strategy::Plan, Constrained::Grammar, lang),
            "What is 6 * 7?",
            &[plan, calc, done],
        );
        assert_eq!(outcome, answer("The answer is 42"), "{lang:?}");
        let first = &trace.steps[0];
        assert!(first.request.asks_plan);
        assert_eq!(first.request.thought_prefix, None);
        assert_eq!(first.request.avoid, None);
        let grammar = bodies[0]["grammar"].as_str().expect("a plan grammar");
        assert!(grammar.starts_with("root ::= \"Plan:\\n1. \""), "{grammar}");
        assert_eq!(
            first.plan.as_deref(),
            Some(
                &[
                    "Compute 6 * 7 with the calculator.".to_string(),
                    "Answer with the result.".to_string()
                ][..]
            )
        );
        assert!(first.observation.as_ref().unwrap().text.starts_with(carry));
        // Then ReAct, with the plan in the history (the requests only append), each Thought
        // opening on the step of the plan it is at.
        assert!(!trace.steps[1].request.asks_plan);
        if lang == Lang::En {
            let opened: Vec<Option<&str>> = trace.steps[1..]
                .iter()
                .map(|s| s.request.thought_prefix.as_deref())
                .collect();
            assert_eq!(
                opened,
                [
                    Some("Step 1 of the plan is to compute 6 * 7 with the calculator"),
                    Some("Step 2 of the plan is to answer with the result"),
                ]
            );
        }
        let (before, after) = (
            &trace.steps[1].request.messages,
            &trace.steps[2].request.messages,
        );
        assert_eq!(&after[..before.len()], &before[..]);
        assert!(before
            .iter()
            .any(|m| m.content.contains("1. Compute 6 * 7")));
        assert!(trace.system_prompt.contains("Plan:"));
    }
    // Under a JSON schema the plan is a list.
    let (_, trace, _) = run(
        config(Strategy::Plan, Constrained::JsonSchema, Lang::En),
        "What is 6 * 7?",
        &[r#"{"plan": ["Compute it.", "Answer."]}"#, done],
    );
    assert_eq!(trace.steps[0].plan.as_ref().map(Vec::len), Some(2));
    let tools: Vec<_> = Registry::with_builtins(default_documents())
        .specs()
        .into_iter()
        .cloned()
        .collect();
    let body = chat_body(
        &ClientConfig::new("http://x/v1", "m"),
        &trace.steps[0].request,
        &tools,
    );
    let schema = &body["response_format"]["json_schema"]["schema"];
    assert_eq!(schema["properties"]["plan"]["maxItems"], json!(5));
    // A failed tool asks for one new plan; a second failure does not.
    let bad = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"6 // 7\"}";
    let (outcome, trace, _) = run(
        config(Strategy::Plan, Constrained::Off, Lang::En),
        "What is 6 * 7?",
        &[
            plan,
            bad,
            plan,
            &bad.replace("6 // 7", "7 // 6"),
            calc,
            done,
        ],
    );
    assert_eq!(outcome, answer("The answer is 42"));
    let asked: Vec<bool> = trace.steps.iter().map(|s| s.request.asks_plan).collect();
    assert_eq!(asked, [true, false, true, false, false, false]);
    // The progress the Thought opens on and the page ticks: the newest plan's, a failed call
    // no item done, the calculation one.
    let progress = |upto: usize| plan_progress(&trace.steps[..upto]).map(|p| (p.step, p.done));
    assert_eq!(progress(2), Some((1, 0)));
    assert_eq!(progress(4), Some((3, 0)));
    assert_eq!(progress(5), Some((3, 1)));
    assert_eq!(plan_progress(&[]), None);
    assert!(trace.steps[1]
        .observation
        .as_ref()
        .unwrap()
        .text
        .contains("Write a new plan first"));
    assert!(!trace.steps[3]
        .observation
        .as_ref()
        .unwrap()
        .text
        .contains("Write a new plan first"));
    // A model that skips the plan goes on as ReAct.
    let (outcome, trace, _) = run(
        config(Strategy::Plan, Constrained::Off, Lang::En),
        "What is 6 * 7?",
        &[calc, done],
    );
    assert_eq!(outcome, answer("The answer is 42"));
    assert_eq!(trace.steps[0].plan, None);
    assert_eq!(
        trace.steps[0].call.as_ref().map(|c| c.tool.as_str()),
        Some("calculator")
    );
}

#[test]
fn a_plan_is_read_from_numbered_lines_or_json() {
    use reactloop::prompt::read_plan;
    let cases: &[(&str, Option<&[&str]>)] = &[
        (
            "Plan:\n1. Search.\n2. Answer.",
            Some(&["Search.", "Answer."]),
        ),
        ("计划：\n1、搜索文档\n2）回答", Some(&["搜索文档", "回答"])),
        (
            "1) a\n2) b\n3) c\n4) d\n5) e\n6) f",
            Some(&["a", "b", "c", "d", "e"]),
        ),
        (r#"{"plan": ["a", " ", "b"]}"#, Some(&["a", "b"])),
        ("Thought: t\nAction: calculator", None),
        (r#"{"plan": []}"#, None),
        ("2025. A year.", Some(&["A year."])),
    ];
    for (text, want) in cases {
        let want = want.map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(read_plan(text), want, "{text}");
    }
}

#[test]
fn compress_summary_asks_for_a_summary_before_rounds_leave_the_window() {
    use reactloop::strategy::Compress;
    let calc = |n: u32| {
        format!("Thought: t\nAction: calculator\nAction Input: {{\"expression\": \"6 * 7 + {n}\"}}")
    };
    let summary = "Summary: The calculator gave 42, 43 and 44.";
    let done = "Thought: t\nAction: final_answer\nAction Input: The answer is 42";
    let (a, b, c) = (calc(0), calc(1), calc(2));
    for (lang, asked, kept) in [
        (
            Lang::En,
            "summarise the steps so far",
            "Summary of the omitted steps: The calculator gave 42, 43 and 44.",
        ),
        (
            Lang::Zh,
            "请用最多三句话总结",
            "被省略步骤的总结：The calculator gave 42, 43 and 44.",
        ),
    ] {
        let mut cfg = config(Strategy::React, Constrained::Grammar, lang);
        cfg.history_rounds = 2;
        cfg.compress = Compress::Summary;
        let (outcome, trace, bodies) = run(cfg, "What is 6 * 7?", &[&a, &b, &c, summary, done]);
        assert_eq!(outcome, answer("The answer is 42"), "{lang:?}");
        // Step 4 is the summary: the full history, asked to be summarised, its own grammar.
        let step = &trace.steps[3];
        assert!(step.request.summarizes);
        assert!(step
            .request
            .messages
            .last()
            .unwrap()
            .content
            .contains(asked));
        assert!(bodies[3]["grammar"]
            .as_str()
            .unwrap()
            .starts_with("root ::= \"Summary: \""));
        assert_eq!(
            step.summary.as_deref(),
            Some("The calculator gave 42, 43 and 44.")
        );
        assert_eq!(
            step.guards,
            // The window moves in blocks, so the server's prompt cache holds between trims.
            [reactloop::trace::Guard::HistoryTrimmed {
                dropped_rounds: 2,
                kept_rounds: 1
            }]
        );
        // From then on the summary follows the question, and the oldest round is gone.
        let next = &trace.steps[4].request.messages;
        let question = next
            .iter()
            .find(|m| m.content.starts_with("Question:"))
            .unwrap();
        assert!(question.content.contains(kept), "{}", question.content);
        assert!(!next.iter().any(|m| m.content.contains("6 * 7 + 1")));
    }
    // The default drops the rounds without asking.
    let mut cfg = config(Strategy::React, Constrained::Grammar, Lang::En);
    cfg.history_rounds = 2;
    let (_, trace, _) = run(cfg, "What is 6 * 7?", &[&a, &b, &c, done]);
    assert!(trace.steps.iter().all(|s| !s.request.summarizes));
    assert_eq!(trace.steps.len(), 4);
}

/// The messages of a run's first request on a server of this kind.
fn first_request(mut agent: Agent, server: ServerKind) -> Vec<Message> {
    let mut first = None;
    drive(&mut agent, &HOST, server, |request| {
        first.get_or_insert_with(|| request.messages.clone());
        Ok::<_, LlmError>(reactloop::trace::ModelReply {
            text: "Thought: done\nAction: final_answer\nAction Input: 42".into(),
            ..Default::default()
        })
    });
    first.expect("a request")
}

#[test]
fn every_run_starts_with_the_opening_an_engine_can_read_ahead() {
    let servers = [None, Some(ServerKind::InPage), Some(ServerKind::Ollama)];
    for ((strategy, lang), (constrained, server)) in (Strategy::ALL.into_iter())
        .flat_map(|s| Lang::ALL.map(|l| (s, l)))
        .flat_map(|sl| {
            Constrained::ALL
                .into_iter()
                .flat_map(move |c| servers.map(|v| (sl, (c, v))))
        })
    {
        let config = config(strategy, constrained, lang);
        let registry = Registry::with_builtins(default_documents());
        let want = opening(registry.clone(), config.clone(), server);
        let agent = Agent::new("What is 6 * 7?", registry, config);
        let sent = first_request(agent, server.unwrap_or(ServerKind::Unknown));
        let case = format!("{strategy:?} {lang:?} {constrained:?} {server:?}");
        assert_eq!(sent[0], want[0], "{case}: the system message");
        assert_eq!(sent[1].role, want[1].role, "{case}");
        assert!(
            sent[1].content.starts_with(&want[1].content),
            "{case}: {:?} does not start with {:?}",
            sent[1].content,
            want[1].content
        );
    }
}
