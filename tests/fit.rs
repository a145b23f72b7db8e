//! Tool choice from evidence: how well each tool fits a question (`tools::fit`), and how a run
//! follows it: the first constrained reply may call only the tool with strong evidence, the
//! next only the tool the question still needs (a fact first, then the computation), and a
//! question no tool fits may be answered at once.

use reactloop::agent::Agent;
use reactloop::ask::{chat_body, AvoidWhy, ModelRequest, MustAnswer, Steer, SteerWhy};
use reactloop::config::AgentConfig;
use reactloop::drive::run_to_end;
use reactloop::lang::Lang;
use reactloop::llm::{ClientConfig, Constrained, LlmError, Usage};
use reactloop::tools::{
    default_documents, fit, Document, Evidence, HostContext, Registry, ToolSpec,
};
use reactloop::trace::{ModelReply, Trace};
use serde_json::json;

const HOST: HostContext = HostContext {
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 480,
};

/// The built-ins over documents that describe a product the model cannot know.
fn registry() -> Registry {
    let mut docs = default_documents();
    docs.push(Document {
        title: "Kestrel agent runtime".into(),
        text: "Kestrel runs at most 40 reasoning steps per run. Each Kestrel vector has 384 \
               dimensions."
            .into(),
    });
    Registry::with_builtins(docs)
}

fn fits(question: &str) -> Vec<reactloop::tools::ToolFit> {
    let lang = if question.is_ascii() {
        Lang::En
    } else {
        Lang::Zh
    };
    registry().fits(question, |t| reactloop::told::tool_description(t, lang))
}

/// The best tool, when it is ahead with strong evidence, and whether the question asks for a
/// computation, for questions of every kind in both languages.
#[test]
fn each_question_fits_the_tool_its_evidence_points_to() {
    let cases: &[(&str, Option<&str>, bool)] = &[
        ("What is 1234 * 5678?", Some("calculator"), true),
        ("What is the cube root of 2744?", Some("calculator"), true),
        (
            "一个班有 48 名学生，其中 37.5% 是女生，女生有多少人？",
            Some("calculator"),
            true,
        ),
        // A name the documents hold, though the question never says "documents".
        (
            "What is the maximum number of reasoning steps in Kestrel?",
            Some("search_docs"),
            false,
        ),
        (
            "According to the documents, what is RAG?",
            Some("search_docs"),
            false,
        ),
        (
            "根据文档，思维链提示能提高哪些问题的准确率？",
            Some("search_docs"),
            false,
        ),
        // "on average" in a question about the documents is what they say, not a computation.
        (
            "根据文档，英文里一个词元平均大约有几个字符？",
            Some("search_docs"),
            false,
        ),
        (
            "Which day of the week is tomorrow?",
            Some("current_time"),
            false,
        ),
        ("明天是几月几日？", Some("current_time"), false),
        // A fact first, then the computation.
        (
            "Each dimension of a Kestrel vector is 4 bytes; how many bytes is one vector?",
            Some("search_docs"),
            true,
        ),
        (
            "Someone was born in 1987. How old do they turn this year?",
            Some("current_time"),
            true,
        ),
        (
            "用今年的年份减去 1949，再乘以 2，得多少？",
            Some("current_time"),
            true,
        ),
        (
            "先查文档看看 ReAct 是哪一年提出的，再算一下到今年过了几年。",
            Some("search_docs"),
            true,
        ),
        // No tool: nothing points anywhere.
        ("What is the capital city of Japan?", None, false),
        ("《静夜思》的作者是谁？", None, false),
    ];
    for &(question, first, computes) in cases {
        let fits = fits(question);
        assert_eq!(
            fit::next_tool(&fits, &[], false),
            first,
            "{question}: {fits:?}"
        );
        assert_eq!(fit::computes(&fits), computes, "{question}: {fits:?}");
    }
    assert!(fit::none_fits(&fits(
        "Who wrote the play Romeo and Juliet?"
    )));
    assert!(!fit::none_fits(&fits("What's the date today?")));
}

#[test]
fn the_evidence_says_what_in_the_question_gave_it() {
    let fits = fits("In the documents, how many steps may a Kestrel run take? Then add 2.");
    let docs = fits.iter().find(|f| f.tool == "search_docs").unwrap();
    assert!(docs.evidence.contains(&Evidence::Source {
        word: "documents".into()
    }));
    assert!(docs.evidence.contains(&Evidence::Name {
        term: "kestrel".into()
    }));
    // Each kind of evidence weighs what it says: a word shared with the description 1, the
    // documents named 3, a term they hold 1, a name in them 3.
    let want = [
        Evidence::Described {
            word: "document".into(),
        },
        Evidence::Source {
            word: "documents".into(),
        },
        Evidence::InDocuments {
            term: "many".into(),
        },
        Evidence::Name {
            term: "kestrel".into(),
        },
    ];
    assert_eq!(docs.evidence, want);
    assert_eq!(docs.score, 8);
    let calc = fits.iter().find(|f| f.tool == "calculator").unwrap();
    assert_eq!(
        calc.evidence,
        [
            Evidence::Number { number: "2".into() },
            Evidence::Operation { word: "add".into() },
            Evidence::Quantity {
                word: "how many".into()
            }
        ]
    );
    assert_eq!(calc.score, 5);
    // Best first.
    assert!(fits.windows(2).all(|w| w[0].score >= w[1].score));
}

/// After the fact is found the calculator comes next, and only once something was found;
/// each tool is steered to once.
#[test]
fn the_next_tool_follows_what_ran() {
    let one = fits("Find in the documents the year MCP was introduced, then multiply it by 3.");
    assert_eq!(fit::next_tool(&one, &[], false), Some("search_docs"));
    assert_eq!(
        fit::next_tool(&one, &["search_docs"], true),
        Some("calculator")
    );
    // The search failed: nothing to compute with.
    assert_eq!(fit::next_tool(&one, &["search_docs"], false), None);
    assert_eq!(
        fit::next_tool(&one, &["search_docs", "calculator"], true),
        None
    );
    // Two facts, then the computation.
    let two = fits("先查文档看看 ReAct 是哪一年提出的，再算一下到今年过了几年。");
    assert_eq!(
        fit::next_tool(&two, &["search_docs"], true),
        Some("current_time")
    );
    assert_eq!(
        fit::next_tool(&two, &["search_docs", "current_time"], true),
        Some("calculator")
    );
}

fn scripted(replies: &[&str]) -> impl FnMut(&ModelRequest) -> Result<ModelReply, LlmError> {
    let replies: Vec<String> = replies.iter().map(|s| s.to_string()).collect();
    let mut i = 0;
    move |_| {
        let text = replies[i.min(replies.len() - 1)].clone();
        i += 1;
        Ok(ModelReply {
            text,
            usage: Usage::default(),
            elapsed_ms: None,
            edited: false,
        })
    }
}

/// A client whose request bodies the tests read (nothing is sent).
fn client() -> ClientConfig {
    ClientConfig {
        base_url: "http://localhost:8080/v1".into(),
        api_key: None,
        model: "m".into(),
        temperature: None,
        max_tokens: None,
        stream: false,
        seed: None,
        timeout_ms: 1000,
    }
}

fn run(question: &str, constrained: Constrained, replies: &[&str]) -> Trace {
    let config = AgentConfig {
        constrained,
        ..AgentConfig::default()
    };
    let mut agent = Agent::new(question, registry(), config);
    run_to_end(&mut agent, &HOST, scripted(replies));
    agent.trace().clone()
}

const SEARCH: &str = "Thought: t\nAction: search_docs\nAction Input: {\"query\": \"Kestrel\"}";
const TIMES: &str = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"384 * 4\"}";
const ANSWER: &str = "Thought: t\nAction: final_answer\nAction Input: 1536 bytes";

/// Under a constraint: the search first, then the calculator, then the answer is free; the
/// first request carries the fit it chose from, and the wire allows only the steered tool.
#[test]
fn a_constrained_run_searches_then_computes() {
    let question = "Each dimension of a Kestrel vector is 4 bytes; how many bytes is one vector?";
    let trace = run(question, Constrained::Grammar, &[SEARCH, TIMES, ANSWER]);
    let steers: Vec<Option<Steer>> = trace
        .steps
        .iter()
        .map(|s| s.request.steer.clone())
        .collect();
    let steer = |tool: &str, why, uses: &[&str]| {
        Some((
            tool.to_string(),
            why,
            uses.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
        ))
    };
    let kinds: Vec<_> = (steers.iter())
        .map(|s| s.as_ref().map(|s| (s.tool.clone(), s.why, s.uses.to_vec())))
        .collect();
    assert_eq!(
        kinds,
        [
            steer("search_docs", SteerWhy::Fits, &[]),
            // The computation is to use the question's 4, which the search did not.
            steer("calculator", SteerWhy::Next, &["4"]),
            None
        ]
    );
    // And may hold the numbers the question and the search gave: the dimension is 384.
    let seen = &steers[1].as_ref().unwrap().seen;
    assert!(
        seen.contains(&"4".into()) && seen.contains(&"384".into()),
        "{seen:?}"
    );
    assert!(steers[0].as_ref().unwrap().seen.is_empty());
    assert_eq!(trace.steps[0].request.fits[0].tool, "search_docs");
    assert!(trace.steps[1].request.fits.is_empty());
    let found = &trace.steps[0].observation.as_ref().unwrap().text;
    assert!(
        found.ends_with("(Next, compute the answer with calculator from what was found.)"),
        "{found}"
    );
    // The grammar of the steered request names no other action.
    let cfg = client();
    let body = chat_body(&cfg, &trace.steps[1].request, &trace.tools);
    let grammar = body["grammar"].as_str().unwrap();
    assert!(grammar.contains("calculator"));
    for other in ["search_docs", "current_time", "final_answer"] {
        assert!(!grammar.contains(other), "{other} in {grammar}");
    }
    assert!(grammar.contains("xa xo"), "{grammar}");
    assert!(grammar.contains("\"4\""), "{grammar}");
    // The reader is told why, in both languages, and sees the fit.
    let view = reactloop::view::step(&trace.steps[1], "").unwrap();
    assert!(view["view"]["steer"]["en"]
        .as_str()
        .unwrap()
        .contains("still needs calculator"));
    assert!(view["view"]["steer"]["en"]
        .as_str()
        .unwrap()
        .contains("must use 4"));
    assert!(view["view"]["steer"]["zh"]
        .as_str()
        .unwrap()
        .contains("还需要 calculator"));
    let first = reactloop::view::step(&trace.steps[0], "").unwrap();
    let fit = first["view"]["fits"][0]["en"].as_str().unwrap();
    assert!(fit.starts_with("search_docs: "), "{fit}");
    assert!(fit.contains("“kestrel” names a document"), "{fit}");
}

/// A day counted from today is the clock's to count: the steered call is given `days`, on
/// both constraint paths, in both languages, and nothing is left for the calculator after it.
#[test]
fn a_day_from_today_is_counted_by_the_clock() {
    for (question, days, observation) in [
        (
            "What will the date be 30 days from today?",
            30,
            "30 days from today: Wednesday, 30 December 2026; date 2026-12-30",
        ),
        (
            "100 天之后是星期几？",
            100,
            "100 days from today: Wednesday, 10 March 2027; date 2027-03-10",
        ),
        (
            "What was the date yesterday?",
            -1,
            "Yesterday: Sunday, 29 November 2026; date 2026-11-29",
        ),
    ] {
        let evidence = &fits(question)[0];
        assert_eq!(evidence.tool, "current_time", "{question}");
        assert!(
            evidence
                .evidence
                .iter()
                .any(|e| matches!(e, Evidence::Day { days: d, .. } if *d == days)),
            "{question}: {evidence:?}"
        );
        let call = format!("Thought: t\nAction: current_time\nAction Input: {{\"days\": {days}}}");
        let trace = run(question, Constrained::Grammar, &[&call, ANSWER]);
        let steer = trace.steps[0].request.steer.clone().expect("a steer");
        assert_eq!(
            (steer.tool.as_str(), steer.why),
            ("current_time", SteerWhy::Fits)
        );
        assert_eq!(
            serde_json::Value::Object(*steer.args.clone().expect("args")),
            json!({ "days": days })
        );
        // The question's number went into the clock's call: no computation is steered to,
        // and the clock, which counted the day, is not called again to lose it.
        assert_eq!(trace.steps[1].request.steer, None, "{question}");
        let avoid = trace.steps[1].request.avoid.clone().expect("an avoid");
        assert_eq!(
            (avoid.tool.as_str(), avoid.why),
            ("current_time", AvoidWhy::Counted)
        );
        let seen = &trace.steps[0].observation.as_ref().unwrap().text;
        assert_eq!(seen, observation);

        let cfg = client();
        let body = chat_body(&cfg, &trace.steps[0].request, &trace.tools);
        let grammar = body["grammar"].as_str().unwrap();
        assert!(
            grammar.contains(&format!(r#""{{\"days\": " ( "{days}" ) "}}""#)),
            "{grammar}"
        );
        let schema_request = ModelRequest {
            constrained: Constrained::JsonSchema,
            ..trace.steps[0].request.clone()
        };
        let body = chat_body(&cfg, &schema_request, &trace.tools);
        let schema = &body["response_format"]["json_schema"]["schema"];
        assert_eq!(
            schema["properties"]["action_input"]["properties"]["days"]["enum"],
            json!([days])
        );
        assert_eq!(
            schema["properties"]["action_input"]["required"],
            json!(["days"])
        );

        let view = reactloop::view::step(&trace.steps[0], "").unwrap();
        let said = view["view"]["steer"]["en"].as_str().unwrap();
        assert!(
            said.contains(&format!(
                "The question fixes its input: {{\"days\":{days}}}."
            )),
            "{said}"
        );
        assert!(view["view"]["steer"]["zh"]
            .as_str()
            .unwrap()
            .contains("问题决定了它的输入"));
        let fit = view["view"]["fits"][0]["en"].as_str().unwrap();
        assert!(fit.contains("is a day counted from today"), "{fit}");
    }
    // With no day named, the clock's call writes no `days`.
    let trace = run("What year is it now?", Constrained::Grammar, &[ANSWER]);
    let grammar = chat_body(&client(), &trace.steps[0].request, &trace.tools)["grammar"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!grammar.contains("days"), "{grammar}");
}

/// A computation with "this year" is to use the year the clock gave, before the question's
/// own numbers.
#[test]
fn this_year_is_the_clocks_year() {
    const CLOCK: &str = "Thought: t\nAction: current_time\nAction Input: {}";
    const MINUS: &str =
        "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"2026 - 1969\"}";
    for question in [
        "How many years have passed since 1969 as of the current year?",
        "今年距离 1969 年过去了多少年？",
    ] {
        let trace = run(question, Constrained::Grammar, &[CLOCK, MINUS, ANSWER]);
        let steer = trace.steps[1].request.steer.clone().expect("a steer");
        assert_eq!(steer.tool, "calculator", "{question}");
        assert_eq!(*steer.uses, ["2026", "1969"], "{question}");
    }
    // Without "this year", the clock's year is not required.
    let trace = run(
        "How many days until 1 January 2030?",
        Constrained::Grammar,
        &[CLOCK, MINUS, ANSWER],
    );
    let uses = trace.steps[1]
        .request
        .steer
        .as_ref()
        .map(|s| s.uses.clone());
    assert!(!uses.unwrap_or_default().contains(&"2026".to_string()));
}

/// Without a constraint nothing is steered on the wire; the Observation's note says what
/// comes next.
#[test]
fn a_plain_run_is_told_what_comes_next() {
    let question = "Each dimension of a Kestrel vector is 4 bytes; how many bytes is one vector?";
    let trace = run(question, Constrained::Off, &[SEARCH, TIMES, ANSWER]);
    assert!(trace.steps.iter().all(|s| s.request.steer.is_none()));
    let found = &trace.steps[0].observation.as_ref().unwrap().text;
    assert!(found.contains("Kestrel runs at most 40"), "{found}");
    assert!(found.ends_with("from what was found.)"), "{found}");
    // After the calculator, nothing more: no note.
    let computed = &trace.steps[1].observation.as_ref().unwrap().text;
    assert_eq!(computed, "1536");
}

/// A calculation for a question about the documents points the model at them, instead of
/// telling it to answer from what it knows.
#[test]
fn a_calculation_off_the_question_is_redirected_to_the_tool_that_fits() {
    let question = "What is the maximum number of reasoning steps per run in Kestrel?";
    let guess = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"1000 / 1000\"}";
    let trace = run(
        question,
        Constrained::Off,
        &[
            guess,
            SEARCH,
            "Thought: t\nAction: final_answer\nAction Input: 40",
        ],
    );
    let note = &trace.steps[0].observation.as_ref().unwrap().text;
    assert!(
        note.contains("Its words point to search_docs: call it next."),
        "{note}"
    );
    assert_eq!(trace.steps[1].request.must_answer, None);
    // Under a constraint the next reply may only search, and its Thought says so.
    let trace = run(
        question,
        Constrained::Grammar,
        &[
            guess,
            SEARCH,
            "Thought: t\nAction: final_answer\nAction Input: 40",
        ],
    );
    let next = &trace.steps[1].request;
    assert_eq!(
        next.steer.as_ref().map(|s| s.tool.as_str()),
        Some("search_docs")
    );
    assert_eq!(
        next.thought_prefix.as_deref(),
        Some("To answer this, I need search_docs")
    );
    // With nothing that fits, the answer is to come from what the model knows, as before.
    let trace = run(
        "What is the capital of Japan?",
        Constrained::Grammar,
        &[
            guess,
            "Thought: t\nAction: final_answer\nAction Input: Tokyo",
        ],
    );
    assert_eq!(
        trace.steps[1].request.must_answer,
        Some(MustAnswer::NoToolFits)
    );
}

/// A question no tool fits may be answered at once under a constraint; with a page's own
/// tool registered (which only its description can speak for) the first reply still acts.
#[test]
fn a_question_no_tool_fits_may_be_answered_at_once() {
    let trace = run(
        "Who wrote the play Romeo and Juliet?",
        Constrained::Grammar,
        &["Thought: t\nAction: final_answer\nAction Input: Shakespeare"],
    );
    let first = &trace.steps[0].request;
    assert_eq!(first.avoid, None);
    assert_eq!(first.steer, None);
    assert_eq!(
        first.thought_prefix.as_deref(),
        Some("No tool answers this, so I answer from what I know")
    );
    let mut registry = registry();
    registry
        .register_external(ToolSpec {
            name: "lookup_play".into(),
            description: "Looks up facts about a play".into(),
            parameters: json!({"type": "object", "properties": {"title": {"type": "string"}}}),
            ..ToolSpec::default()
        })
        .unwrap();
    let config = AgentConfig {
        constrained: Constrained::Grammar,
        ..AgentConfig::default()
    };
    let agent = Agent::new("Who wrote Romeo and Juliet?", registry, config);
    let first = &agent.trace().steps[0].request;
    assert_eq!(
        first.avoid.as_ref().map(|a| a.tool.as_str()),
        Some("final_answer")
    );
}

fn calc(expression: &str) -> String {
    format!("Thought: t\nAction: calculator\nAction Input: {{\"expression\": \"{expression}\"}}")
}

/// The last calculation's final step applied again to its result is not run: that result is
/// the answer, and a constrained reply may only give it.
#[test]
fn a_step_applied_again_to_its_own_result_is_not_run() {
    let question = "First take the square root of 2025, then raise the result to the third power.";
    let answer = "Thought: t\nAction: final_answer\nAction Input: 91125";
    let trace = run(
        question,
        Constrained::Grammar,
        &[&calc("sqrt(2025) ^ 3"), &calc("91125 ^ 3"), answer],
    );
    assert_eq!(trace.steps.len(), 3);
    let refused = trace.steps[1].observation.as_ref().unwrap();
    assert_eq!(
        refused.text,
        "(Not run: this applies \"^3\" again to 91125, which already had it applied. The \
         question asks for it once, so 91125 is the result.)"
    );
    let next = &trace.steps[2].request;
    assert_eq!(next.must_answer, Some(MustAnswer::AppliedAgain));
    assert_eq!(
        next.thought_prefix.as_deref(),
        Some("The Observation shows 91125")
    );
    // Another operation on the result is a next step, and runs.
    let trace = run(
        "先算 15 的立方，再除以 25，结果是多少？",
        Constrained::Grammar,
        &[&calc("15^3"), &calc("3375 / 25"), answer],
    );
    assert_eq!(trace.steps[1].observation.as_ref().unwrap().text, "135");
    // A step that bound only the last number before (precedence) was not applied to the
    // result: `2025 - 1949 * 2` doubled 1949, so doubling its result runs.
    for (first, again, result) in [
        ("2025 - 1949 * 2", "-1873 * 2", "-3746"),
        ("2 * 3 ^ 2", "18 ^ 2", "324"),
        ("2 ^ 3 ^ 2", "512 ^ 2", "262144"),
    ] {
        let trace = run(
            "Subtract 1949 from 2025, then multiply by 2.",
            Constrained::Grammar,
            &[&calc(first), &calc(again), answer],
        );
        let seen = &trace.steps[1].observation.as_ref().unwrap().text;
        assert_eq!(seen, result, "{first} then {again}");
    }
    // Within parentheses, or after a step as tight, it was applied to the whole.
    for (first, again) in [("(2025 - 1949) * 2", "152 * 2"), ("3 * 4 * 2", "24 * 2")] {
        let trace = run(
            "Subtract 1949 from 2025, then multiply by 2.",
            Constrained::Grammar,
            &[&calc(first), &calc(again), answer],
        );
        let seen = &trace.steps[1].observation.as_ref().unwrap().text;
        assert!(
            seen.starts_with("(Not run: this applies"),
            "{first} then {again}: {seen}"
        );
    }
    // So is the same step when the question asks for it again.
    let trace = run(
        "Square 3, then square the result again.",
        Constrained::Grammar,
        &[&calc("3^2"), &calc("9^2"), answer],
    );
    assert_eq!(trace.steps[1].observation.as_ref().unwrap().text, "81");
}

/// A number alone sent to the calculator computes nothing: the Observation says so, and the
/// computation the question asks for is still to come.
#[test]
fn a_number_alone_is_not_the_computation() {
    let question =
        "Find in the documents how many steps a Kestrel run may take, then multiply that by 3.";
    let trace = run(
        question,
        Constrained::Grammar,
        &[SEARCH, &calc("40"), &calc("40 * 3"), ANSWER],
    );
    let bare = &trace.steps[1].observation.as_ref().unwrap().text;
    assert!(
        bare.starts_with("40\n(A number alone computes nothing"),
        "{bare}"
    );
    assert_eq!(
        trace.steps[2]
            .request
            .steer
            .as_ref()
            .map(|s| s.tool.as_str()),
        Some("calculator")
    );
    assert_eq!(trace.steps[3].request.steer, None);
}

/// The calculation steered to after a fact was found must hold the question's unused numbers,
/// each whole, and an operator: the fact alone or the question's number alone is no
/// computation. Its other numbers are ones the run has seen or short ones, and it is short:
/// no timestamp strung into it, no run to the token limit. The JSON schema's pattern, read by
/// a regular-expression engine.
#[test]
fn a_steered_calculation_uses_the_question_numbers() {
    let request = |uses: &[&str], seen: &[&str]| ModelRequest {
        constrained: Constrained::JsonSchema,
        steer: Some(Steer {
            tool: "calculator".into(),
            why: SteerWhy::Next,
            uses: uses.iter().map(|n| n.to_string()).collect(),
            seen: seen.iter().map(|n| n.to_string()).collect(),
            args: None,
        }),
        ..ModelRequest::default()
    };
    let cfg = client();
    let tools = registry().specs().into_iter().cloned().collect::<Vec<_>>();
    let pattern = |uses: &[&str], seen: &[&str]| {
        let body = chat_body(&cfg, &request(uses, seen), &tools);
        let schema = &body["response_format"]["json_schema"]["schema"];
        let p = schema
            .pointer("/properties/action_input/properties/expression/pattern")
            .and_then(|p| p.as_str())
            .unwrap_or_else(|| panic!("no pattern in {schema}"))
            .to_string();
        regex_lite::Regex::new(&p).unwrap()
    };
    let long = format!("58.40 * 0.20 * 100 / 1{}", "0".repeat(60));
    let runaway = format!("58.4 {}", "+ 58.4 ".repeat(30));
    // The numbers to use, the numbers seen, expressions allowed, expressions refused.
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [&'a str], &'a [&'a str]);
    let cases: [Case; 5] = [
        (
            &["3"],
            &["3", "2024"],
            &["2024 * 3", "3*2024", "(2024) * 3", "sqrt(3) + 1"],
            &["3", "2024", "2024 * 35", "32024 * 2", "2024 * 1.3", "3 3"],
        ),
        (
            &["1949", "2"],
            &["1949", "2", "2025"],
            &["(2025 - 1949) * 2", "2 * (2025 - 1949)", "1949*2"],
            &["2025 - 1949", "1949 2", "(2025 - 19492) * 2", "2"],
        ),
        (
            &["0.25"],
            &["0.25", "2000"],
            &["2000 * 0.25"],
            &["2000 * 0x25", "2000 * 0.255", "2500 * 0.25"],
        ),
        (
            &["40"],
            &["40", "123.45"],
            &["123.45 * 40", "40 * 123.450", "(123.45 * 40) * 1.2"],
            &[
                "123.45 * 2025 - 1200 * 40",
                "40 * 1.21578125",
                "123.45 * 202.5 - 40",
            ],
        ),
        (
            &["20"],
            &["20", "3", "58.4"],
            &["58.40 * (1 + 20 / 100)", "58.4 + 58.4 * 20 / 100"],
            &[&long, &runaway],
        ),
    ];
    for (uses, seen, allowed, refused) in cases {
        let p = pattern(uses, seen);
        for text in allowed {
            assert!(p.is_match(text), "{uses:?}: {text} refused");
        }
        for text in refused {
            assert!(!p.is_match(text), "{uses:?}: {text} allowed");
        }
    }
    // With no number left to use, the numbers seen still hold: any of them alone is written.
    let p = pattern(&[], &["2024"]);
    assert!(p.is_match("2024") && !p.is_match("2025 * 2"));
}
