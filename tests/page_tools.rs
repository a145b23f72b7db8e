//! A page's own tools take part in the tool fit and the steering on equal terms with the
//! built-ins: each brings its evidence (its name's words, keywords, examples, listed values),
//! the question's subject outranks generic evidence ("now", a number that is another tool's
//! argument), weak or split evidence steers to no tool, and a page tool that declares it
//! computes gets the calculator's rules.

use reactloop::agent::{Agent, Next, ToolResult};
use reactloop::ask::{chat_body, ModelRequest, Unsteered};
use reactloop::config::AgentConfig;
use reactloop::lang::Lang;
use reactloop::llm::{ClientConfig, Constrained};
use reactloop::sentences;
use reactloop::tools::{
    default_documents, fit, Evidence, Registry, RegistryError, Role, ToolFit, ToolSpec,
};
use reactloop::trace::ModelReply;
use serde_json::json;

/// The README's weather tool, as written there.
fn weather() -> ToolSpec {
    ToolSpec {
        name: "weather".into(),
        description: "Current weather for a city.".into(),
        parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        ..ToolSpec::default()
    }
}

fn order_status() -> ToolSpec {
    ToolSpec {
        name: "order_status".into(),
        description: "Looks up an online order by its order number.".into(),
        parameters: json!({"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}),
        keywords: vec!["order".into(), "订单".into()],
        ..ToolSpec::default()
    }
}

fn convert() -> ToolSpec {
    ToolSpec {
        name: "convert_units".into(),
        description: "Converts a value from one unit to another.".into(),
        parameters: json!({"type": "object", "properties": {
            "value": {"type": "number"},
            "from": {"type": "string", "enum": ["km", "mi", "kg", "lb"]},
            "to": {"type": "string", "enum": ["km", "mi", "kg", "lb"]}
        }, "required": ["value", "from", "to"]}),
        examples: vec!["How many pounds is 5 kg?".into()],
        ..ToolSpec::default()
    }
}

fn forecast() -> ToolSpec {
    ToolSpec {
        name: "forecast".into(),
        description: "The coming days' weather.".into(),
        parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}}),
        keywords: vec!["weather".into()],
        examples: vec!["巴黎这几天天气怎么样？".into()],
        ..ToolSpec::default()
    }
}

fn registry(page: &[ToolSpec]) -> Registry {
    let mut registry = Registry::with_builtins(default_documents());
    for tool in page {
        registry
            .register_external(tool.clone())
            .expect("a valid tool");
    }
    registry
}

fn fits(question: &str, page: &[ToolSpec]) -> Vec<ToolFit> {
    let lang = if question.is_ascii() {
        Lang::En
    } else {
        Lang::Zh
    };
    registry(page).fits(question, |t| reactloop::told::tool_description(t, lang))
}

fn evidence<'a>(fits: &'a [ToolFit], tool: &str) -> &'a [Evidence] {
    &fits
        .iter()
        .find(|f| f.tool == tool)
        .expect("the tool's fit")
        .evidence
}

fn agent(question: &str, page: &[ToolSpec]) -> Agent {
    let config = AgentConfig {
        constrained: Constrained::Grammar,
        ..AgentConfig::default()
    };
    Agent::new(question, registry(page), config)
}

fn request(agent: &Agent) -> ModelRequest {
    match agent.next() {
        Next::CallModel { request } => request.clone(),
        _ => panic!("the agent does not ask the model"),
    }
}

/// Feeds a call of `tool` and its result; returns the next request.
fn call(agent: &mut Agent, tool: &str, args: serde_json::Value, result: &str) -> ModelRequest {
    call_thinking(agent, "t", tool, args, result)
}

/// [`call`] with the reply's Thought.
fn call_thinking(
    agent: &mut Agent,
    thought: &str,
    tool: &str,
    args: serde_json::Value,
    result: &str,
) -> ModelRequest {
    let text = format!("Thought: {thought}\nAction: {tool}\nAction Input: {args}");
    agent
        .feed_model(ModelReply {
            text,
            ..ModelReply::default()
        })
        .expect("a reply");
    if let Next::RunTool { .. } = agent.next() {
        let output = Ok(result.to_string());
        agent
            .feed_tool(ToolResult {
                output,
                elapsed_ms: None,
                edited: false,
            })
            .expect("a result");
    }
    request(agent)
}

/// Feeds a call of the tool that gives a fact; the next request must steer the computation:
/// the question's numbers it must use.
fn computed_next(
    agent: &mut Agent,
    tool: &str,
    args: serde_json::Value,
    result: &str,
) -> Vec<String> {
    let steer = call(agent, tool, args, result)
        .steer
        .expect("the computation comes next");
    assert_eq!(steer.tool, "calculator");
    steer.uses.to_vec()
}

fn steered(request: &ModelRequest) -> Option<&str> {
    request.steer.as_ref().map(|s| s.tool.as_str())
}

#[test]
fn the_readme_weather_tool_is_steered_to_and_now_is_its_not_the_clocks() {
    let question = "What is the weather like in Lisbon right now?";
    let fits = fits(question, &[weather()]);
    assert_eq!(fits[0].tool, "weather", "{fits:?}");
    assert!(evidence(&fits, "weather").contains(&Evidence::Keyword {
        word: "weather".into()
    }));
    assert!(
        evidence(&fits, "current_time").contains(&Evidence::Outranked {
            word: "now".into(),
            by: "weather".into()
        })
    );
    let agent = agent(question, &[weather()]);
    let first = request(&agent);
    assert_eq!(steered(&first), Some("weather"));
    assert!(first
        .thought_prefix
        .as_deref()
        .is_some_and(|t| t.ends_with("weather")));
    // The anatomy says what pointed there, in both languages.
    let said = sentences::fit(&first.fits[0]);
    assert!(said.en.contains("“weather”, its subject"), "{}", said.en);
    assert!(said.zh.contains("“weather”，正是它的主题"), "{}", said.zh);
}

#[test]
fn a_number_after_the_tools_word_is_its_identifier_not_one_to_compute_with() {
    let question = "What is the total of order 1042 with 20% VAT added?";
    let fits = fits(question, &[order_status()]);
    let calc = evidence(&fits, "calculator");
    assert!(calc.contains(&Evidence::Outranked {
        word: "1042".into(),
        by: "order_status".into()
    }));
    // The one number left waits for the order's total.
    assert!(calc.contains(&Evidence::Awaits {
        word: "20".into(),
        by: "order_status".into()
    }));
    assert!(
        fit::computes(&fits),
        "20% of the total is still a computation"
    );
    let mut agent = agent(question, &[order_status()]);
    assert_eq!(steered(&request(&agent)), Some("order_status"));
    let uses = computed_next(
        &mut agent,
        "order_status",
        json!({"order_id": "1042"}),
        "Order 1042: total 58.40 EUR.",
    );
    assert_eq!(uses, ["20"]);
    // 订单3310: the identifier is written right after the keyword.
    let zh = self::fits("订单3310送到了吗？", &[order_status()]);
    assert_eq!(zh[0].tool, "order_status");
    assert!(!evidence(&zh, "calculator")
        .iter()
        .any(|e| matches!(e, Evidence::Number { .. })));
}

#[test]
fn a_tool_that_takes_the_number_converts_it_and_nothing_is_left_to_compute() {
    let question = "How many pounds is 70 kg?";
    let fits = fits(question, &[convert()]);
    assert_eq!(fits[0].tool, "convert_units", "{fits:?}");
    let own = evidence(&fits, "convert_units");
    assert!(own.contains(&Evidence::Example {
        example: "How many pounds is 5 kg?".into()
    }));
    assert!(own.contains(&Evidence::Value {
        param: "from".into(),
        value: "kg".into()
    }));
    // "kg" counts once, though both parameters list it.
    assert_eq!(
        own.iter()
            .filter(|e| matches!(e, Evidence::Value { .. }))
            .count(),
        1
    );
    assert!(!fit::computes(&fits));
    let mut agent = agent(question, &[convert()]);
    assert_eq!(steered(&request(&agent)), Some("convert_units"));
    let next = call(
        &mut agent,
        "convert_units",
        json!({"value": 70, "from": "kg", "to": "lb"}),
        "70 kg = 154.324 lb",
    );
    assert_eq!(steered(&next), None, "no calculation after the conversion");
    // "convert" is the converter's word when it names the tool, not the calculator's.
    let fits = self::fits("Convert 26.2 miles to kilometers.", &[convert()]);
    assert_eq!(fits[0].tool, "convert_units", "{fits:?}");
    assert!(evidence(&fits, "calculator")
        .iter()
        .all(|e| matches!(e, Evidence::Outranked { .. })));
}

#[test]
fn an_example_in_chinese_points_to_its_tool() {
    let fits = fits("东京这几天的天气怎么样？", &[forecast()]);
    assert_eq!(fits[0].tool, "forecast", "{fits:?}");
    assert!(evidence(&fits, "forecast")
        .iter()
        .any(|e| matches!(e, Evidence::Example { .. })));
}

#[test]
fn split_or_weak_evidence_steers_to_no_tool_and_says_why() {
    // Two tools whose subject is the weather.
    let question = "What is the weather in Oslo?";
    let agent = agent(question, &[weather(), forecast()]);
    let first = request(&agent);
    assert_eq!(steered(&first), None);
    assert_eq!(
        first.unsteered.as_deref(),
        Some(&Unsteered::Split {
            tools: ["weather".into(), "forecast".into()]
        })
    );
    let said = sentences::unsteered(first.unsteered.as_deref().unwrap());
    assert!(said.en.contains("weather and forecast") && said.zh.contains("weather 和 forecast"));
    // "today" alone, with a page tool that gives facts: the clock is not steered to.
    let agent = self::agent("Should I take an umbrella in Oslo today?", &[weather()]);
    let first = request(&agent);
    assert_eq!(steered(&first), None);
    assert!(
        matches!(first.unsteered.as_deref(), Some(Unsteered::Weak { .. })),
        "{:?}",
        first.unsteered
    );
    // Oslo, a city, is the weather tool's: ahead on that alone, it is named, not steered to.
    assert_eq!(
        first.thought_prefix.as_deref(),
        Some("To answer this, I need weather")
    );
    let clock = evidence(&first.fits, "current_time");
    assert!(
        clock.contains(&Evidence::Qualifier {
            word: "today".into()
        }),
        "{clock:?}"
    );
    // With only the built-ins, "today" is the clock's.
    let agent = self::agent("Should I take an umbrella in Oslo today?", &[]);
    assert_eq!(steered(&request(&agent)), Some("current_time"));
}

#[test]
fn a_page_tool_that_computes_gets_the_calculators_rules() {
    let math = ToolSpec {
        name: "math".into(),
        description: "Evaluates an arithmetic expression.".into(),
        parameters: json!({"type": "object", "properties": {"expr": {"type": "string"}}, "required": ["expr"]}),
        role: Some(Role::Computes),
        ..ToolSpec::default()
    };
    let mut registry = registry(&[math]);
    registry.set_enabled("calculator", false);
    let config = AgentConfig {
        constrained: Constrained::Grammar,
        ..AgentConfig::default()
    };
    let mut agent = Agent::new("What is the capital of Peru?", registry, config);
    // Made to act, the model computed something for a question without numbers: the page's
    // computing tool is held to what the calculator is.
    let next = call(&mut agent, "math", json!({"expr": "1 + 1"}), "2");
    assert!(next.must_answer.is_some(), "{next:?}");
}

#[test]
fn a_page_tool_may_declare_only_what_it_can_be() {
    let mut registry = Registry::with_builtins(Vec::new());
    let clock = ToolSpec {
        role: Some(Role::Clock),
        ..weather()
    };
    let refused = registry.register_external(clock).unwrap_err();
    assert_eq!(
        refused,
        RegistryError::RoleNotDeclarable {
            name: "weather".into()
        }
    );
    let said = sentences::registry_error(&refused);
    assert!(said.en.contains("'computes' or none") && said.zh.contains("'computes'"));
    let many = ToolSpec {
        keywords: vec!["w".into(); 33],
        ..weather()
    };
    assert_eq!(
        registry.register_external(many).unwrap_err(),
        RegistryError::TooMuchEvidence {
            name: "weather".into()
        }
    );
    let long = ToolSpec {
        examples: vec!["x".repeat(301)],
        ..weather()
    };
    assert!(registry.register_external(long).is_err());
    assert!(registry.register_external(forecast()).is_ok());
}

#[test]
fn after_a_find_a_page_tool_nothing_points_to_is_left_out() {
    let question = "What is the weather like in Lisbon right now?";
    let mut agent = agent(question, &[weather(), order_status()]);
    let first = request(&agent);
    assert!(first.left_out.is_empty(), "nothing was found yet");
    let next = call(
        &mut agent,
        "weather",
        json!({"city": "Lisbon"}),
        "Sunny, 21 °C",
    );
    assert_eq!(next.left_out, ["order_status"]);
    let cfg = ClientConfig::new("http://localhost:8080/v1", "m");
    let tools: Vec<ToolSpec> = agent.registry().specs().into_iter().cloned().collect();
    let grammar = chat_body(&cfg, &next, &tools)["grammar"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        !grammar.contains("order_status") && grammar.contains("weather"),
        "{grammar}"
    );
    let said = sentences::left_out(&next.left_out);
    assert!(said.en.contains("order_status") && said.zh.contains("order_status"));
}

#[test]
fn after_a_call_on_weak_evidence_every_tool_stays() {
    // "today" alone is weak evidence for the clock: the question may be for the weather tool,
    // whose words it does not share.
    let mut agent = agent("Should I take an umbrella in Oslo today?", &[weather()]);
    let next = call(
        &mut agent,
        "current_time",
        json!({}),
        "Friday, 14 March 2025",
    );
    assert!(next.left_out.is_empty(), "{:?}", next.left_out);
}

fn stock_price() -> ToolSpec {
    ToolSpec {
        name: "stock_price".into(),
        description: "Latest share price of a company by its ticker (e.g. ACME), in US dollars."
            .into(),
        parameters: json!({"type": "object", "properties": {"ticker": {"type": "string"}}, "required": ["ticker"]}),
        ..ToolSpec::default()
    }
}

fn exchange_rate() -> ToolSpec {
    ToolSpec {
        name: "exchange_rate".into(),
        description: "Exchange rate between two currencies by ISO code (USD, EUR, JPY, CNY)."
            .into(),
        parameters: json!({"type": "object", "properties": {"base": {"type": "string"}, "quote": {"type": "string"}}}),
        ..ToolSpec::default()
    }
}

#[test]
fn a_question_in_chinese_finds_a_tool_declared_in_english() {
    // 股价 is a share price: the subject of `stock_price`, read through the glossary.
    let agent = agent("ZETA 的股价现在是多少？", &[stock_price(), weather()]);
    let first = request(&agent);
    assert_eq!(steered(&first), Some("stock_price"), "{:?}", first.fits);
    assert!(evidence(&first.fits, "stock_price")
        .iter()
        .any(|e| matches!(e, Evidence::Keyword { word } if word.starts_with("股价 ("))));
    let said = sentences::fit(first.fits.iter().find(|f| f.tool == "stock_price").unwrap());
    assert!(said.en.contains("股价"), "{}", said.en);
    // A word the description writes (USD) is weaker: it names the tool in the first Thought,
    // and steers nothing.
    let agent = self::agent("5 美元能换多少日元？", &[exchange_rate(), weather()]);
    let first = request(&agent);
    assert_eq!(steered(&first), None, "{:?}", first.fits);
    assert_eq!(
        first.thought_prefix.as_deref(),
        Some("To answer this, I need exchange_rate")
    );
    // The other way: an English question, a tool declared in Chinese.
    let zh_tool = ToolSpec {
        name: "tianqi".into(),
        description: "查询城市的天气".into(),
        keywords: vec!["天气".into()],
        parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}}),
        ..ToolSpec::default()
    };
    let fits = fits("What is the weather in Rome?", &[zh_tool]);
    assert_eq!(fits[0].tool, "tianqi", "{fits:?}");
    // Nothing of a term the question does not hold.
    let fits = self::fits("What is 48 * 37?", &[stock_price(), exchange_rate()]);
    assert_eq!(fits[0].tool, "calculator");
    assert!(evidence(&fits, "stock_price").is_empty());
}

#[test]
fn a_computation_on_one_number_waits_for_the_fact_it_needs() {
    let question = "How much do 40 shares of ACME cost in total?";
    let mut agent = agent(question, &[stock_price(), weather()]);
    let first = request(&agent);
    // Not the calculator first: 40 alone computes nothing.
    assert_ne!(steered(&first), Some("calculator"));
    let calc = evidence(&first.fits, "calculator");
    assert!(
        calc.iter()
            .all(|e| matches!(e, Evidence::Awaits { by, .. } if by == "stock_price")),
        "{calc:?}"
    );
    let said = sentences::fit(first.fits.iter().find(|f| f.tool == "calculator").unwrap());
    assert!(
        said.en.contains("waits for what stock_price finds"),
        "{}",
        said.en
    );
    assert!(said.zh.contains("stock_price"), "{}", said.zh);
    assert_eq!(
        first.thought_prefix.as_deref(),
        Some("To answer this, I need stock_price")
    );
    // With the price found, the computation comes next, with the question's 40.
    let uses = computed_next(
        &mut agent,
        "stock_price",
        json!({"ticker": "ACME"}),
        "ACME: 123.45 USD",
    );
    assert_eq!(uses, ["40"]);
    // An operation of one number is a computation of its own, and two numbers are one.
    for question in ["What is the square root of 40?", "What is 40 times 3?"] {
        let agent = self::agent(question, &[stock_price(), weather()]);
        assert_eq!(steered(&request(&agent)), Some("calculator"), "{question}");
    }
    // With the built-ins alone, the rule does not apply: no tool gives the other operand.
    let fits = fits(question, &[]);
    assert!(!evidence(&fits, "calculator")
        .iter()
        .any(|e| matches!(e, Evidence::Awaits { .. })));
}

#[test]
fn a_call_of_another_tool_than_the_thought_chose_is_sent_back_and_the_choice_steered_to() {
    // A ticker the tool's description does not write (ACME, which it does, is a value of its
    // `ticker` and steers the first reply).
    let mut agent = agent(
        "How much do 40 shares of GLOBX cost in total?",
        &[stock_price(), weather()],
    );
    let first = request(&agent);
    assert_eq!(steered(&first), None);
    // The 0.5B model's reply at 386e74d (for ACME): its Thought chose the price, its Action
    // searched.
    agent
        .feed_model(ModelReply {
            text: "Thought: To answer this, I need stock_price information for GLOBX.\nAction: search_docs\nAction Input: {\"query\": \"GLOBX\"}".into(),
            ..ModelReply::default()
        })
        .expect("a reply");
    let next = request(&agent);
    let steer = next.steer.as_ref().expect("the Thought's choice");
    assert_eq!(
        (steer.tool.as_str(), steer.why),
        ("stock_price", reactloop::ask::SteerWhy::Thought)
    );
    let said = sentences::steer(steer);
    assert!(said.en.contains("Thought chose stock_price"), "{}", said.en);
    let step = &agent.trace().steps[0];
    let feedback = &step.observation.as_ref().expect("feedback").text;
    assert!(
        feedback.contains("Your Thought chose stock_price, but your Action is search_docs"),
        "{feedback}"
    );
    // Without a constraint: the same feedback, no steer.
    let config = AgentConfig {
        constrained: Constrained::Off,
        ..AgentConfig::default()
    };
    let mut agent = Agent::new(
        "How much do 40 shares of ACME cost in total?",
        registry(&[stock_price()]),
        config,
    );
    request(&agent);
    agent
        .feed_model(ModelReply {
            text: "Thought: I need stock_price.\nAction: search_docs\nAction Input: {\"query\": \"ACME\"}".into(),
            ..ModelReply::default()
        })
        .expect("a reply");
    assert_eq!(steered(&request(&agent)), None);
    let observation = agent.trace().steps[0]
        .observation
        .as_ref()
        .expect("feedback");
    assert!(observation.text.contains("Your Thought chose stock_price"));
}

#[test]
fn a_listed_value_cut_short_is_completed_to_the_one_the_question_names() {
    let units = converter(&["km", "mi", "m", "ft", "C", "F"]);
    // (question, the call's from and to, what runs)
    let cases = [
        // The 0.5B model's call at f1cc81f, on both paths: `m` for miles.
        (
            "Convert 26.2 miles to kilometers.",
            "m",
            "km",
            Some(("mi", "km")),
        ),
        // 英里 is "mile" in the glossary.
        ("把 10 英里换算成公里。", "m", "km", Some(("mi", "km"))),
        // Metres named: `m` stands.
        ("Convert 5 meters to miles.", "m", "mi", None),
        // Nothing longer named.
        ("Convert 5 m to feet.", "m", "ft", None),
    ];
    repaired(
        &units,
        &cases,
        reactloop::parse::Repair::ListedValueCompleted,
    );
    // In other words, by the glossary: the listed one it means.
    let rate = exchange_rate();
    let question = "按美元兑人民币汇率，300 美元是多少人民币？";
    for (quote, want) in [
        // The 0.5B model's call at 9956029.
        ("RMB", "CNY"),
        ("人民币", "CNY"),
        ("yen", "JPY"),
        // Listed, or in another case only, or no term of the glossary: it stands.
        ("CNY", "CNY"),
        ("cny", "cny"),
        ("XYZ", "XYZ"),
    ] {
        let (input, repairs) = first_call(&rate, question, json!({"base": "USD", "quote": quote}));
        assert_eq!(input["quote"], json!(want), "{quote}");
        let completed = repairs.contains(&reactloop::parse::Repair::ListedValueCompleted);
        assert_eq!(completed, want != quote, "{quote}");
    }
    let (input, _) = first_call(
        &converter(&["kg", "lb"]),
        "How many pounds is 5 kilograms?",
        json!({"value": 5, "from": "kilogram", "to": "lb"}),
    );
    assert_eq!(input["from"], json!("kg"));
}

/// A converter whose `from` and `to` list `units`.
fn converter(units: &[&str]) -> ToolSpec {
    ToolSpec {
        name: "convert_units".into(),
        description: "Converts a value from one unit to another.".into(),
        parameters: json!({"type": "object", "properties": {
            "value": {"type": "number"},
            "from": {"type": "string", "enum": units},
            "to": {"type": "string", "enum": units}
        }, "required": ["value", "from", "to"]}),
        ..ToolSpec::default()
    }
}

/// Each case (question, the call's `from` and `to`, what runs when `repair` applies) run as
/// the converter's first call: what runs, and whether `repair` was made.
type ConvertCase<'a> = (&'a str, &'a str, &'a str, Option<(&'a str, &'a str)>);

fn repaired(units: &ToolSpec, cases: &[ConvertCase], repair: reactloop::parse::Repair) {
    for &(question, from, to, want) in cases {
        let ((ran_from, ran_to), repairs) = converted(units, question, from, to);
        let ran = (ran_from.as_str(), ran_to.as_str());
        assert_eq!(ran, want.unwrap_or((from, to)), "{question} {from} {to}");
        assert_eq!(
            repairs.contains(&repair),
            want.is_some(),
            "{question} {from} {to}"
        );
    }
}

/// The converter's first call for `question`, given `from` and `to`: what runs, and the repairs.
fn converted(
    units: &ToolSpec,
    question: &str,
    from: &str,
    to: &str,
) -> ((String, String), Vec<reactloop::parse::Repair>) {
    let args = json!({"value": 1, "from": from, "to": to});
    let (input, repairs) = first_call(units, question, args);
    let value = |key: &str| input[key].as_str().unwrap().to_string();
    ((value("from"), value("to")), repairs)
}

/// `tool`'s first call for `question`, given `args`: what runs, and the repairs.
fn first_call(
    tool: &ToolSpec,
    question: &str,
    args: serde_json::Value,
) -> (serde_json::Value, Vec<reactloop::parse::Repair>) {
    let mut agent = agent(question, std::slice::from_ref(tool));
    request(&agent);
    let text = format!("Thought: t\nAction: {}\nAction Input: {args}", tool.name);
    agent
        .feed_model(ModelReply {
            text,
            ..ModelReply::default()
        })
        .expect("a reply");
    let parse = agent.trace().steps[0].parse.clone().expect("parsed");
    let reactloop::parse::Parsed::Action { input, .. } = parse.parsed else {
        panic!("{question}: {:?}", parse.parsed);
    };
    (input, parse.repairs)
}

/// A tool that needs a number is no tool for a question that gives none: a converter that
/// speaks of temperature, beside a weather tool, for a question of two cities' temperatures.
#[test]
fn a_tool_whose_number_the_question_cannot_give_has_no_evidence_from_it() {
    let weather = ToolSpec {
        description: "Current weather for a city: temperature in °C, sky, wind.".into(),
        ..weather()
    };
    let converter = ToolSpec {
        description: "Converts a value from one unit to another, temperature (C, F) too.".into(),
        examples: Vec::new(),
        ..convert()
    };
    let page = [weather, converter];
    let first = request(&agent("开罗的气温比奥斯陆高多少度？", &page));
    assert_eq!(first.fits[0].tool, "weather", "{:?}", first.fits);
    let unfilled = evidence(&first.fits, "convert_units");
    assert!(!unfilled.is_empty(), "{:?}", first.fits);
    assert!(unfilled
        .iter()
        .all(|e| matches!(e, Evidence::Unfilled { param, .. } if param == "value")));
    let said = sentences::fit(
        first
            .fits
            .iter()
            .find(|f| f.tool == "convert_units")
            .unwrap(),
    );
    assert!(
        said.en.contains("gives no number for its value"),
        "{}",
        said.en
    );
    // A number in the question, in digits or in words, is the converter's to convert.
    for question in [
        "把 100 华氏度换算成摄氏度。",
        "What is the temperature of five hundred kelvin in C?",
    ] {
        let fits = fits(question, &page);
        assert!(
            (evidence(&fits, "convert_units").iter())
                .all(|e| !matches!(e, Evidence::Unfilled { .. })),
            "{question}: {fits:?}"
        );
    }
}

/// 股 counts shares: "买 25 股 GLOBX" asks about a stock, read through the glossary.
#[test]
fn shares_counted_in_chinese_point_to_the_share_price() {
    let first = request(&agent(
        "买 25 股 GLOBX 要花多少美元？",
        &[stock_price(), exchange_rate()],
    ));
    assert_eq!(first.fits[0].tool, "stock_price", "{:?}", first.fits);
    assert!(
        first.fits[0].score > first.fits[1].score,
        "{:?}",
        first.fits
    );
}

fn population() -> ToolSpec {
    ToolSpec {
        name: "country_population".into(),
        description: "Population of a country.".into(),
        parameters: json!({"type": "object", "properties": {"country": {"type": "string"}}, "required": ["country"]}),
        keywords: vec!["population".into(), "people".into()],
        ..ToolSpec::default()
    }
}

/// An answer after a lookup for one name of the question, while another is in no call and no
/// result, is sent back: the same tool is steered to, for the other name, and the Thought says
/// so.
#[test]
fn a_comparison_answered_after_one_lookup_is_steered_to_the_other() {
    let population = population();
    let question = "How many more people live in Norway than in Iceland?";
    let mut agent = agent(question, &[population]);
    assert_eq!(steered(&request(&agent)), Some("country_population"));
    call(
        &mut agent,
        "country_population",
        json!({"country": "Norway"}),
        "Norway: 5550203 people.",
    );
    let answer = "Thought: t\nAction: final_answer\nAction Input: The answer is 5550203";
    (agent.feed_model(ModelReply {
        text: answer.into(),
        ..ModelReply::default()
    }))
    .expect("a reply");
    let next = request(&agent);
    let steer = next.steer.as_ref().expect("a steer");
    assert_eq!(steer.tool, "country_population");
    assert_eq!(
        steer.args.as_deref().map(|a| a["country"].clone()),
        Some(json!("Iceland"))
    );
    assert_eq!(
        next.thought_prefix.as_deref(),
        Some("The question also names Iceland, so I need country_population for it")
    );
    let sent_back = agent.trace().steps[1].observation.as_ref().unwrap();
    assert!(
        sent_back
            .text
            .contains("Call country_population for Iceland too"),
        "{}",
        sent_back.text
    );
}

/// A comparison computes on two facts: after one population the computation is not steered
/// yet; after both it is, on the numbers found.
#[test]
fn a_comparison_is_computed_once_both_facts_are_found() {
    let population = population();
    for (question, first, second) in [
        (
            "How many more people live in Norway than in Iceland?",
            "Norway",
            "Iceland",
        ),
        ("挪威的人口比冰岛多多少？", "挪威", "冰岛"),
    ] {
        let fits = fits(question, std::slice::from_ref(&population));
        assert!(
            evidence(&fits, "calculator")
                .iter()
                .any(|e| matches!(e, Evidence::Compares { .. })),
            "{question}: {fits:?}"
        );
        let mut agent = agent(question, std::slice::from_ref(&population));
        assert_eq!(steered(&request(&agent)), Some("country_population"));
        let next = call(
            &mut agent,
            "country_population",
            json!({ "country": first }),
            "Norway: 5550203 people (2024 estimate).",
        );
        assert_ne!(steered(&next), Some("calculator"), "{question}: one fact");
        // The same place in other words gives the same fact: still one. (Written in the
        // Thought too, the model's own choice, it is not made the question's other place.)
        let next = call_thinking(
            &mut agent,
            "Norwegen",
            "country_population",
            json!({ "country": "Norwegen" }),
            "Norway: 5550203 people (2024 estimate).",
        );
        assert_ne!(
            steered(&next),
            Some("calculator"),
            "{question}: the same fact"
        );
        let next = call(
            &mut agent,
            "country_population",
            json!({ "country": second }),
            "Iceland: 387758 people (2024 estimate).",
        );
        let steer = next.steer.as_ref().expect("the computation comes next");
        assert_eq!(steer.tool, "calculator", "{question}");
        // On the two facts: each result's first number (not 2024, the estimate's year).
        assert_eq!(steer.uses.to_vec(), ["5550203", "387758"], "{question}");
    }
    // One fact and a computation asked of it is no comparison: the computation follows it.
    let question = "What is twice the population of Iceland?";
    assert!(!fits(question, std::slice::from_ref(&population))
        .iter()
        .flat_map(|f| &f.evidence)
        .any(|e| matches!(e, Evidence::Compares { .. })));
}

/// Two parameters that list the same values, given one and the same, get the two the question
/// names: the one its number comes with first, else the first named.
#[test]
fn a_pair_of_listed_values_given_alike_gets_the_two_the_question_names() {
    let units = converter(&["km", "mi", "kg", "lb", "C", "F"]);
    // (question, the call's from and to, what runs)
    let cases = [
        // The 0.5B model's call at 2db9d11, on both paths.
        ("把 100 华氏度换算成摄氏度。", "C", "C", Some(("F", "C"))),
        // The number comes with the second unit named: it is the one to convert from.
        ("How many lb are 70 kg?", "lb", "lb", Some(("kg", "lb"))),
        ("How many lb are 70 kg?", "kg", "kg", Some(("kg", "lb"))),
        // Else the order the question names them in.
        ("Convert km to mi.", "mi", "mi", Some(("km", "mi"))),
        // Two different values stand, even in the wrong order: the model's choice.
        ("How many lb are 70 kg?", "lb", "kg", None),
        // One value named: nothing to give the other.
        ("Convert 5 kg.", "kg", "kg", None),
    ];
    repaired(&units, &cases, reactloop::parse::Repair::ListedPairOrdered);
    // Two strings without a list take the codes the tool's text writes (USD, EUR, JPY).
    let rate = exchange_rate();
    for (question, given, want) in [
        // The 0.5B model's call at 9956029, on both paths.
        ("1 美元能换多少日元？", "USD", Some(("USD", "JPY"))),
        ("Convert EUR to USD.", "USD", Some(("EUR", "USD"))),
        // One currency named.
        ("How many euros is 1 EUR?", "EUR", None),
    ] {
        let args = json!({"base": given, "quote": given});
        let (input, repairs) = first_call(&rate, question, args);
        let (base, quote) = want.unwrap_or((given, given));
        assert_eq!(input, json!({"base": base, "quote": quote}), "{question}");
        let ordered = repairs.contains(&reactloop::parse::Repair::ListedPairOrdered);
        assert_eq!(ordered, want.is_some(), "{question}");
    }
}

/// An amount alone for a question that asks yes or no is sent back once; a yes, a choice
/// offered, or the second time, stands.
#[test]
fn an_amount_alone_for_a_yes_or_no_question_is_sent_back_once() {
    let answer_after_lookup = |question: &str, answers: &[&str]| -> Vec<bool> {
        let mut agent = agent(question, &[order_status()]);
        request(&agent);
        call(
            &mut agent,
            "order_status",
            json!({"order_id": "3310"}),
            "Order 3310: delivered on 2025-03-10, 2 items, total 24.50 EUR.",
        );
        answers
            .iter()
            .map(|answer| {
                let text = format!("Thought: t\nAction: final_answer\nAction Input: {answer}");
                let at = agent.trace().steps.len() - 1;
                agent
                    .feed_model(ModelReply {
                        text,
                        ..ModelReply::default()
                    })
                    .expect("a reply");
                let parse = agent.trace().steps[at].parse.clone();
                let sent_back = matches!(
                    parse.map(|p| p.parsed),
                    Some(reactloop::parse::Parsed::Error {
                        error: reactloop::parse::FormatError::YesNoAsked
                    })
                );
                if sent_back {
                    request(&agent);
                }
                sent_back
            })
            .collect()
    };
    assert_eq!(
        answer_after_lookup(
            "订单3310送到了吗？",
            &["答案是 24.50 EUR", "答案是 24.50 EUR"]
        ),
        [true, false]
    );
    assert_eq!(
        answer_after_lookup(
            "Has order 3310 been delivered?",
            &["The answer is 24.50 EUR."]
        ),
        [true]
    );
    assert_eq!(
        answer_after_lookup("订单3310送到了吗？", &["答案是 已送到，2025-03-10"]),
        [false]
    );
    assert_eq!(
        answer_after_lookup(
            "What is the total of order 3310?",
            &["The answer is 24.50 EUR."]
        ),
        [false]
    );
    assert_eq!(
        answer_after_lookup("Is order 3310 2 or 3 items?", &["The answer is 2"]),
        [false]
    );
}

/// A tool whose parameter takes a city: "The city, e.g. Paris".
fn city_weather() -> ToolSpec {
    ToolSpec {
        parameters: json!({"type": "object", "properties": {"city": {"type": "string", "description": "The city, e.g. Paris"}}, "required": ["city"]}),
        ..weather()
    }
}

/// A place the question names is evidence for the tool whose parameter takes it, in either
/// language: "开罗今天多少度？" asks the weather tool, not the clock its "today" would point to.
#[test]
fn a_place_the_question_names_points_to_the_tool_that_takes_it() {
    for (question, tool, place) in [
        ("开罗今天多少度？", "weather", "开罗"),
        ("How warm is it in Reykjavik today?", "weather", "Reykjavik"),
        ("冰岛有多少人？", "country_population", "冰岛"),
    ] {
        let page = [city_weather(), population()];
        let fits = fits(question, &page);
        let param = if tool == "weather" { "city" } else { "country" };
        assert!(
            evidence(&fits, tool).contains(&Evidence::Place {
                param: param.into(),
                place: place.into()
            }),
            "{question}: {fits:?}"
        );
        // Ahead of every other tool, it is named where the first Thought opens.
        assert_eq!(fits[0].tool, tool, "{question}: {fits:?}");
        let first = request(&agent(question, &page));
        assert!(
            first
                .thought_prefix
                .as_deref()
                .is_some_and(|t| t.ends_with(tool)),
            "{question}: {:?}",
            first.thought_prefix
        );
        // A country is no city: the weather tool gets no place from 冰岛.
        if tool == "country_population" {
            assert!(!evidence(&fits, "weather")
                .iter()
                .any(|e| matches!(e, Evidence::Place { .. })));
        }
    }
    let said = sentences::fit(&fits("开罗今天多少度？", &[city_weather()])[0]);
    assert!(
        said.en.contains("“开罗” is a place, for its city"),
        "{}",
        said.en
    );
    assert!(said.zh.contains("“开罗”是地名"), "{}", said.zh);
    // A place and a word for the time: the clock's question.
    let fits = fits("What time is it now in Tokyo?", &[city_weather()]);
    assert_eq!(fits[0].tool, "current_time", "{fits:?}");
}

/// (question, earlier calls' places, the reply's Thought, the place given, what runs)
type PlaceCase<'a> = (&'a str, &'a [&'a str], &'a str, &'a str, Option<&'a str>);

/// A call of a tool that takes a place gets the place the question names: for a place the
/// question does not name that nothing in the run wrote, and for a place already looked up
/// while the question names another; in English for a tool declared in English.
#[test]
fn a_place_argument_is_the_place_the_question_names() {
    let cases: &[PlaceCase] = &[
        // The 0.5B model's first call at e8984c6: 中国 for 冰岛.
        (
            "冰岛人口的两倍是多少？",
            &[],
            "我需要人口",
            "中国",
            Some("Iceland"),
        ),
        // The question's place in Chinese, for a tool declared in English.
        ("开罗今天多少度？", &[], "t", "开罗", Some("Cairo")),
        // Oslo again, where Cairo is not looked up yet (奥斯陆 was Oslo).
        (
            "开罗的气温比奥斯陆高多少度？",
            &["奥斯陆"],
            "t",
            "Oslo",
            Some("Cairo"),
        ),
        // An invented argument.
        (
            "Should I take an umbrella in Oslo today?",
            &[],
            "t",
            "1234567890",
            Some("Oslo"),
        ),
        // The question's place, as the question writes it or in other words: it stands.
        (
            "Should I take an umbrella in Oslo today?",
            &[],
            "t",
            "Oslo, Norway",
            None,
        ),
        (
            "What is the population of Iceland?",
            &[],
            "t",
            "Iceland",
            None,
        ),
        // A place the model worked out and wrote in its Thought: its own choice.
        (
            "Is Cairo warmer than the capital of Norway?",
            &[],
            "The capital of Norway is Oslo.",
            "Oslo",
            None,
        ),
        (
            "Is Cairo warmer than the capital of Norway?",
            &[],
            "t",
            "Oslo",
            Some("Cairo"),
        ),
        // Every place of the question looked up: the model's choice stands.
        (
            "Is Cairo warmer than the capital of Norway?",
            &["Cairo"],
            "t",
            "Oslo",
            None,
        ),
        // No place of the question: nothing to give.
        ("What is the weather like today?", &[], "t", "Paris", None),
    ];
    for &(question, earlier, thought, given, want) in cases {
        let (tool, param) = match question.contains("人口") || question.contains("population") {
            true => ("country_population", "country"),
            false => ("weather", "city"),
        };
        let mut agent = agent(question, &[city_weather(), population()]);
        request(&agent);
        for place in earlier {
            call(&mut agent, tool, json!({ param: place }), "a result");
        }
        let text = format!(
            "Thought: {thought}\nAction: {tool}\nAction Input: {}",
            json!({ param: given })
        );
        (agent.feed_model(ModelReply {
            text,
            ..ModelReply::default()
        }))
        .expect("a reply");
        let step = agent.trace().steps.last().unwrap();
        let parse = step.parse.clone().expect("parsed");
        let reactloop::parse::Parsed::Action { input, .. } = &parse.parsed else {
            panic!("{question}: {:?}", parse.parsed);
        };
        assert_eq!(
            input[param],
            json!(want.unwrap_or(given)),
            "{question} {given}"
        );
        let repaired = parse
            .repairs
            .contains(&reactloop::parse::Repair::PlaceNamed);
        assert_eq!(repaired, want.is_some(), "{question} {given}");
    }
    // A tool declared in Chinese gets the place as the question writes it.
    let chinese = ToolSpec {
        name: "tianqi".into(),
        description: "查询城市的天气".into(),
        parameters: json!({"type": "object", "properties": {"city": {"type": "string", "description": "城市"}}, "required": ["city"]}),
        ..ToolSpec::default()
    };
    let mut agent = agent("开罗今天多少度？", &[chinese]);
    request(&agent);
    let text = "Thought: t\nAction: tianqi\nAction Input: {\"city\": \"北京\"}";
    (agent.feed_model(ModelReply {
        text: text.into(),
        ..ModelReply::default()
    }))
    .expect("a reply");
    let parse = agent.trace().steps[0].parse.clone().expect("parsed");
    let reactloop::parse::Parsed::Action { input, .. } = &parse.parsed else {
        panic!("{:?}", parse.parsed);
    };
    assert_eq!(input["city"], json!("开罗"));
}

/// An answer after one place of a Chinese comparison is looked up is sent back for the other,
/// as it is for a name in English: the place is read in either language.
#[test]
fn a_place_left_out_of_a_chinese_comparison_is_looked_up_next() {
    let question = "挪威的人口比冰岛多多少？";
    let mut agent = agent(question, &[population()]);
    request(&agent);
    call(
        &mut agent,
        "country_population",
        json!({"country": "Norway"}),
        "Norway: 5550203 people.",
    );
    let answer = "Thought: t\nAction: final_answer\nAction Input: 5550203";
    (agent.feed_model(ModelReply {
        text: answer.into(),
        ..ModelReply::default()
    }))
    .expect("a reply");
    let steer = request(&agent).steer.expect("a steer");
    assert_eq!(steer.tool, "country_population");
    assert_eq!(
        steer.args.as_deref().map(|a| a["country"].clone()),
        Some(json!("冰岛"))
    );
}

/// A factor written in words ("twice", 两倍) is a number to compute with: the fact comes first,
/// then the computation that must use the factor.
#[test]
fn a_factor_in_words_is_computed_on_the_fact_found() {
    for (question, country) in [
        ("冰岛人口的两倍是多少？", "冰岛"),
        ("What is twice the population of Iceland?", "Iceland"),
    ] {
        let mut agent = agent(question, &[population()]);
        assert_eq!(
            steered(&request(&agent)),
            Some("country_population"),
            "{question}"
        );
        let uses = computed_next(
            &mut agent,
            "country_population",
            json!({ "country": country }),
            "Iceland: 387758 people (2024 estimate).",
        );
        assert_eq!(uses, ["2"], "{question}");
    }
}

/// A call repeated after the computation gets the earlier result without the note that said
/// to compute: that note is past.
#[test]
fn a_repeated_call_gets_its_result_without_a_past_note() {
    let question = "How much do 25 shares of GLOBX cost?";
    let mut agent = agent(question, &[stock_price()]);
    request(&agent);
    let price = "GLOBX: 48.20 USD (2025-03-14 12:00 UTC).";
    call(&mut agent, "stock_price", json!({"ticker": "GLOBX"}), price);
    let first = agent.trace().steps[0].observation.clone().unwrap().text;
    assert!(first.contains("calculator"), "{first}");
    call(
        &mut agent,
        "calculator",
        json!({"expression": "25 * 48.20"}),
        "1205",
    );
    call(&mut agent, "stock_price", json!({"ticker": "GLOBX"}), price);
    let again = agent.trace().steps[2].observation.clone().unwrap().text;
    assert!(
        again.starts_with(price) && !again.contains("calculator"),
        "{again}"
    );
}

/// One unit of what a tool gives ("1 美元", "1 EUR") is that fact itself: the calculator does
/// not come after it; two units do.
#[test]
fn one_unit_of_a_fact_is_the_fact_and_nothing_is_computed() {
    let rate = ToolSpec {
        examples: vec![
            "How many yen is one dollar?".into(),
            "欧元兑人民币的汇率是多少？".into(),
        ],
        ..exchange_rate()
    };
    for (question, computes) in [
        ("1 美元能换多少日元？", false),
        ("How many yen is 1 USD?", false),
        ("300 美元能换多少日元？", true),
    ] {
        let fits = fits(question, std::slice::from_ref(&rate));
        assert_eq!(fit::computes(&fits), computes, "{question}: {fits:?}");
        let mut agent = agent(question, std::slice::from_ref(&rate));
        request(&agent);
        let next = call(
            &mut agent,
            "exchange_rate",
            json!({"base": "USD", "quote": "JPY"}),
            "1 USD = 149.2 JPY",
        );
        assert_eq!(steered(&next) == Some("calculator"), computes, "{question}");
    }
    // A code the tool's text lists is a value of its parameters, written in capitals: "USD" is,
    // "us" is not ("US dollars" in the share price's description).
    let usd = fits("How many yen is 1 USD?", std::slice::from_ref(&rate));
    assert!(evidence(&usd, "exchange_rate").contains(&Evidence::Value {
        param: "base".into(),
        value: "USD".into()
    }));
    for question in ["Tell us the weather.", "How many US dollars are 250 euros?"] {
        let us = fits(question, &[stock_price()]);
        let values = (evidence(&us, "stock_price").iter())
            .filter(|e| matches!(e, Evidence::Value { .. }))
            .count();
        assert_eq!(values, 0, "{question}: {us:?}");
    }
}
