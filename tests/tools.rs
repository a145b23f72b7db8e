//! Tests of the tools module through its public API.

use reactloop::lang::Lang;
use reactloop::told;
use reactloop::tools::{
    calculator, default_documents, evaluate, evaluate_list, format_number, Builtin, CalcError,
    DispatchError, Document, HostContext, Note, Registry, RegistryError, ToolCall, ToolError,
    ToolSpec,
};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn registry() -> Registry {
    Registry::with_builtins(default_documents())
}

/// Dispatches and runs a built-in, as the loop does; failures become their observation text.
fn run(tool: &str, input: Value) -> String {
    let reg = registry();
    match reg.dispatch(tool, &input) {
        Ok(call) => match reg.run_builtin(&call, &HostContext::default(), Lang::En) {
            Ok(out) => out,
            Err(e) => told::tool_error(&e, Lang::En.into()),
        },
        Err(e) => told::dispatch_error(&e, Lang::En.into()),
    }
}

fn spec(name: &str, parameters: Value) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("the {name} tool"),
        parameters,
        ..ToolSpec::default()
    }
}

fn weather_spec() -> ToolSpec {
    spec(
        "getWeather",
        json!({
            "type": "object",
            "properties": {
                "city": { "type": "string" },
                "units": { "type": "string", "enum": ["metric", "imperial"] }
            },
            "required": ["city"]
        }),
    )
}

// ---------------------------------------------------------------- calculator

#[test]
#[allow(clippy::disallowed_methods)] // std's `powf` is the reference for `^`
fn calculator_values() {
    let cases: &[(&str, f64)] = &[
        ("2 + 3 * 4", 14.0),
        ("(2 + 3) * 4", 20.0),
        ("1 - 2 - 3", -4.0),
        ("12 / 3 / 2", 2.0),
        ("2 * 3 % 4", 2.0),
        ("2 ^ 3 ^ 2", 512.0),
        ("2 ** 3 ** 2", 512.0),
        ("-2^2", -4.0),
        ("(-2)^2", 4.0),
        ("2^-1", 0.5),
        ("-3 + +2", -1.0),
        ("--3", 3.0),
        ("-(3)", -3.0),
        ("10 / 4", 2.5),
        ("7 % 3", 1.0),
        ("-7 % 3", -1.0),
        ("7 % -3", 1.0),
        ("17.5% * 2480", 434.0),
        ("200 * 15%", 30.0),
        ("(10 + 40)% * 8", 4.0),
        ("max(50%, 0.2)", 0.5),
        ("50%", 0.5),
        ("1.5e3", 1500.0),
        ("1E-2", 0.01),
        ("2.5e+2", 250.0),
        (".5 + 5.", 5.5),
        ("1,234 + 1", 1235.0),
        ("1,234,567.5 * 2", 2_469_135.0),
        ("(1,000 + 1)", 1001.0),
        ("max(1,234)", 234.0),
        ("max((1,234), 5)", 1234.0),
        ("sqrt(16)", 4.0),
        ("abs(-3)", 3.0),
        ("round(2.5)", 3.0),
        ("round(-2.5)", -3.0),
        ("round(1.23456, 2)", 1.23),
        ("round(1234, -2)", 1200.0),
        ("floor(-1.5)", -2.0),
        ("ceil(1.2)", 2.0),
        ("min(3, 1, 2)", 1.0),
        ("max(3)", 3.0),
        ("ln(e)", 1.0),
        ("log10(1000)", 3.0),
        ("log(100)", 2.0),
        ("log(8, 2)", 3.0),
        ("exp(0)", 1.0),
        ("sin(0)", 0.0),
        ("cos(pi)", -1.0),
        ("tan(0)", 0.0),
        ("6 × 7", 42.0),
        ("84 ÷ 2", 42.0),
        ("50 − 8", 42.0),
        ("π", std::f64::consts::PI),
        ("2 * pi", std::f64::consts::TAU),
        ("math.sqrt(9)", 3.0),
        ("Math.PI", std::f64::consts::PI),
        ("SQRT(4) + E - e", 2.0),
        ("2 + 2 =", 4.0),
        ("  42  ", 42.0),
        ("29^0.23", 29f64.powf(0.23)),
        ("sqrt(sqrt(16)) * (1 + (2 * (3 + 4)))", 30.0),
    ];
    for &(expr, want) in cases {
        match evaluate(expr) {
            Ok(got) => assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{expr}: got {got}, want {want}"
            ),
            Err(e) => panic!("{expr}: unexpected error {e}"),
        }
    }
}

#[test]
fn calculator_errors() {
    let known = "the calculator knows numbers, arithmetic and math functions such as sqrt and \
                 round, nothing else";
    let cases: Vec<(String, CalcError, String)> = vec![
        (
            "".into(),
            CalcError::Empty,
            "the expression is empty".into(),
        ),
        (
            "  = ".into(),
            CalcError::Empty,
            "the expression is empty".into(),
        ),
        (
            "2 +".into(),
            CalcError::UnexpectedEnd,
            "the expression ends too early".into(),
        ),
        (
            "2 $ 3".into(),
            CalcError::UnexpectedChar { ch: '$', pos: 3 },
            "unexpected character '$' at position 3".into(),
        ),
        (
            "检索 + 1".into(),
            CalcError::UnexpectedChar { ch: '检', pos: 1 },
            "unexpected character '检' at position 1".into(),
        ),
        (
            "2 3".into(),
            CalcError::UnexpectedToken {
                token: "3".into(),
                pos: 3,
            },
            "unexpected '3' at position 3".into(),
        ),
        (
            "2pi".into(),
            CalcError::UnexpectedToken {
                token: "pi".into(),
                pos: 2,
            },
            "unexpected 'pi' at position 2".into(),
        ),
        (
            "1,23 + 1".into(),
            CalcError::UnexpectedToken {
                token: ",".into(),
                pos: 2,
            },
            "unexpected ',' at position 2".into(),
        ),
        (
            "(1, 2)".into(),
            CalcError::UnexpectedToken {
                token: ",".into(),
                pos: 3,
            },
            "unexpected ',' at position 3".into(),
        ),
        (
            "max(1 2)".into(),
            CalcError::UnexpectedToken {
                token: "2".into(),
                pos: 7,
            },
            "unexpected '2' at position 7".into(),
        ),
        (
            "()".into(),
            CalcError::UnexpectedToken {
                token: ")".into(),
                pos: 2,
            },
            "unexpected ')' at position 2".into(),
        ),
        (
            "(2 + 3".into(),
            CalcError::UnclosedParen { pos: 1 },
            "unbalanced parenthesis: the '(' at position 1 is never closed".into(),
        ),
        (
            "max(2, 3".into(),
            CalcError::UnclosedParen { pos: 4 },
            "unbalanced parenthesis: the '(' at position 4 is never closed".into(),
        ),
        (
            "2 + 3)".into(),
            CalcError::UnexpectedCloseParen { pos: 6 },
            "unbalanced parenthesis: the ')' at position 6 has no matching '('".into(),
        ),
        (
            "foo(2)".into(),
            CalcError::UnknownName {
                name: "foo".into(),
                pos: 1,
            },
            format!("unknown name 'foo' at position 1; {known}"),
        ),
        (
            "sqr(2)".into(),
            CalcError::UnknownName {
                name: "sqr".into(),
                pos: 1,
            },
            "unknown name 'sqr' at position 1; did you mean sqrt?".into(),
        ),
        (
            "year() - 1969".into(),
            CalcError::UnknownName {
                name: "year".into(),
                pos: 1,
            },
            format!("unknown name 'year' at position 1; {known}"),
        ),
        (
            "  1 + X".into(),
            CalcError::UnknownName {
                name: "X".into(),
                pos: 7,
            },
            format!("unknown name 'X' at position 7; {known}"),
        ),
        // A syntax error after a word is reported as the word (the wrong tool), unless the
        // word is one letter (`2 x 3`) or a known or misspelt function.
        (
            "current_time['year'] - 1969".into(),
            CalcError::UnknownName {
                name: "current_time".into(),
                pos: 1,
            },
            format!("unknown name 'current_time' at position 1; {known}"),
        ),
        (
            "sky_color = (1 + 2)".into(),
            CalcError::UnknownName {
                name: "sky_color".into(),
                pos: 1,
            },
            format!("unknown name 'sky_color' at position 1; {known}"),
        ),
        (
            "2 x 3".into(),
            CalcError::UnexpectedToken {
                token: "x".into(),
                pos: 3,
            },
            "unexpected 'x' at position 3".into(),
        ),
        (
            "sqr 2 $".into(),
            CalcError::UnexpectedChar { ch: '$', pos: 7 },
            "unexpected character '$' at position 7".into(),
        ),
        (
            "π(3)^2".into(),
            CalcError::ConstantCalled {
                name: "π".into(),
                pos: 1,
            },
            "'π' at position 1 is a number, not a function; multiply: π * (…)".into(),
        ),
        (
            "sqrt 4".into(),
            CalcError::MissingParens {
                name: "sqrt".into(),
            },
            "'sqrt' is a function and needs parentheses, e.g. sqrt(2)".into(),
        ),
        (
            "round(1, 2, 3)".into(),
            CalcError::WrongArgCount {
                function: "round".into(),
                expected: "1 or 2".into(),
                got: 3,
            },
            "round() takes 1 or 2 argument(s), got 3".into(),
        ),
        (
            "sqrt()".into(),
            CalcError::WrongArgCount {
                function: "sqrt".into(),
                expected: "1".into(),
                got: 0,
            },
            "sqrt() takes 1 argument(s), got 0".into(),
        ),
        (
            "max()".into(),
            CalcError::WrongArgCount {
                function: "max".into(),
                expected: "at least 1".into(),
                got: 0,
            },
            "max() takes at least 1 argument(s), got 0".into(),
        ),
        (
            "1 / 0".into(),
            CalcError::DivisionByZero,
            "division by zero".into(),
        ),
        (
            "1 / (2 - 2)".into(),
            CalcError::DivisionByZero,
            "division by zero".into(),
        ),
        (
            "5 % 0".into(),
            CalcError::DivisionByZero,
            "division by zero".into(),
        ),
        (
            "0 ^ -1".into(),
            CalcError::DivisionByZero,
            "division by zero".into(),
        ),
        (
            "2**1000000".into(),
            CalcError::Overflow,
            "the result is too large to represent".into(),
        ),
        (
            "1e400".into(),
            CalcError::Overflow,
            "the result is too large to represent".into(),
        ),
        (
            "10^308 * 10".into(),
            CalcError::Overflow,
            "the result is too large to represent".into(),
        ),
        (
            "exp(1000)".into(),
            CalcError::Overflow,
            "the result is too large to represent".into(),
        ),
        (
            "sqrt(-1)".into(),
            CalcError::InvalidArgument {
                function: "sqrt".into(),
                reason: "needs a number ≥ 0, got -1".into(),
            },
            "sqrt: needs a number ≥ 0, got -1".into(),
        ),
        (
            "ln(0)".into(),
            CalcError::InvalidArgument {
                function: "ln".into(),
                reason: "needs a number > 0, got 0".into(),
            },
            "ln: needs a number > 0, got 0".into(),
        ),
        (
            "log(8, 1)".into(),
            CalcError::InvalidArgument {
                function: "log".into(),
                reason: "the base must be > 0 and not 1, got 1".into(),
            },
            "log: the base must be > 0 and not 1, got 1".into(),
        ),
        (
            "round(1, 0.5)".into(),
            CalcError::InvalidArgument {
                function: "round".into(),
                reason: "the number of decimals must be a whole number from -15 to 15, got 0.5"
                    .into(),
            },
            "round: the number of decimals must be a whole number from -15 to 15, got 0.5".into(),
        ),
        (
            "(-8)^(1/3)".into(),
            CalcError::InvalidArgument {
                function: "^".into(),
                reason: "the result is not a real number".into(),
            },
            "^: the result is not a real number".into(),
        ),
        (
            "1".repeat(501),
            CalcError::TooLong { len: 501, max: 500 },
            "the expression is too long (501 characters; the limit is 500)".into(),
        ),
        (
            format!("{}1{}", "(".repeat(70), ")".repeat(70)),
            CalcError::TooDeep { max: 64 },
            "the expression is nested too deeply (more than 64 levels)".into(),
        ),
        (
            format!("{}1", "-".repeat(400)),
            CalcError::TooDeep { max: 64 },
            "the expression is nested too deeply (more than 64 levels)".into(),
        ),
        (
            format!("{}2", "2^".repeat(200)),
            CalcError::TooDeep { max: 64 },
            "the expression is nested too deeply (more than 64 levels)".into(),
        ),
        (
            format!("{}1{}", "sqrt(".repeat(70), ")".repeat(70)),
            CalcError::TooDeep { max: 64 },
            "the expression is nested too deeply (more than 64 levels)".into(),
        ),
    ];
    for (expr, want, message) in cases {
        let got = evaluate(&expr);
        assert_eq!(got, Err(want), "{expr}");
        if let Err(e) = got {
            assert_eq!(e.to_string(), message, "{expr}");
        }
    }
}

#[test]
fn calculator_limits_are_not_hit_by_ordinary_input() {
    // A long flat sum and moderate nesting are fine: only depth is limited, not length of chains.
    assert_eq!(evaluate(&format!("{}1", "1+".repeat(249))), Ok(250.0));
    assert_eq!(
        evaluate(&format!("{}1{}", "(".repeat(60), ")".repeat(60))),
        Ok(1.0)
    );
}

#[test]
fn number_formatting() {
    let cases: &[(f64, &str)] = &[
        (14.0, "14"),
        (-0.0, "0"),
        (0.0, "0"),
        (0.1 + 0.2, "0.3"),
        (10.0 / 3.0, "3.33333333333"),
        (-2.5, "-2.5"),
        (123_456.789, "123456.789"),
        (2f64.sqrt(), "1.41421356237"),
        (0.000_001_234, "0.000001234"),
        (1e-9, "1e-9"),
        (-1.5e-12, "-1.5e-12"),
        (999_999_999_999_999.0, "999999999999999"),
        (1e15, "1e15"),
        (2f64.powi(60), "1.15292150461e18"),
        (1_234_567_890_123.25, "1234567890123"),
        (123_456_789_012.75, "123456789013"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "inf"),
    ];
    for &(x, want) in cases {
        assert_eq!(format_number(x), want, "{x:e}");
    }
}

#[test]
fn calculator_tool_output_and_error_observations() {
    assert_eq!(run("calculator", json!({"expression": "0.1 + 0.2"})), "0.3");
    assert_eq!(run("calculator", json!({"expression": "0 * -1"})), "0");
    assert_eq!(
        run("calculator", json!("1/0")),
        "Error: division by zero. Hint: the divisor is 0; check the numbers"
    );
    assert_eq!(
        run("calculator", json!("2 +")),
        "Error: the expression ends too early. Hint: the expression is incomplete; finish it"
    );
}

/// Several expressions separated by commas get each their value; a comma between digits is
/// still part of a number or an error, and a lone value needs no list.
#[test]
fn calculator_lists() {
    let cases: [(&str, Result<Vec<f64>, ()>); 7] = [
        ("17 * 3, 8 * 6, 100 / 2", Ok(vec![51.0, 48.0, 50.0])),
        ("3^7, 7^3", Ok(vec![2187.0, 343.0])),
        ("min(1, 2), 3", Ok(vec![1.0, 3.0])),
        ("1,000 * 2, 5", Ok(vec![2000.0, 5.0])),
        ("2 * 3", Ok(vec![6.0])),
        ("1,23", Err(())),
        ("2,", Err(())),
    ];
    for (expr, want) in cases {
        assert_eq!(evaluate_list(expr).map_err(|_| ()), want, "{expr}");
    }
    // One value where one is asked for: `evaluate` still refuses a list.
    assert!(evaluate("1, 2").is_err());
    assert_eq!(
        run("calculator", json!({"expression": "17 * 3, 8 * 6"})),
        "51, 48"
    );
}

/// A tiny xorshift PRNG, so the no-panic checks need no dependency and are reproducible.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A sequence of calculator tokens, often a valid expression.
    fn expression(&mut self, max_tokens: usize) -> String {
        const TOKENS: &[&str] = &[
            "1", "2.5", "0", "1e3", "1,234", "pi", "e", "sqrt(", "max(", "log(", "round(", "(",
            ")", ")", "+", "-", "*", "/", "^", "**", "%", ",", " ", "×",
        ];
        let len = self.below(max_tokens + 1);
        (0..len).map(|_| TOKENS[self.below(TOKENS.len())]).collect()
    }

    /// A string mostly of characters the calculator knows, sometimes of arbitrary ones.
    fn string(&mut self, max_len: usize) -> String {
        const ALPHABET: &[char] = &[
            '0', '1', '2', '9', '.', ',', 'e', 'E', '+', '-', '*', '/', '%', '^', '(', ')', ' ',
            '×', '÷', '−', 'π', 's', 'q', 'r', 't', 'p', 'i', 'm', 'a', 'x', 'l', 'o', 'g', '_',
            '=', '检', '索', '{', '"', ':', '}',
        ];
        let len = self.below(max_len + 1);
        (0..len)
            .map(|_| {
                if self.below(10) == 0 {
                    char::from_u32(self.next() as u32 % 0x11_0000).unwrap_or('?')
                } else {
                    ALPHABET[self.below(ALPHABET.len())]
                }
            })
            .collect()
    }
}

#[test]
fn no_panics_on_arbitrary_input() {
    let reg = registry();
    let host = HostContext {
        now_unix_ms: 1.7e12,
        utc_offset_minutes: 60,
    };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let tools = [
        "calculator",
        "search_docs",
        "current_time",
        "Calculater",
        "calc",
        "x",
        "",
    ];
    let mut evaluated = 0;
    for i in 0..20_000 {
        let s = if i % 2 == 0 {
            rng.expression(12)
        } else {
            rng.string(40)
        };
        if let Ok(v) = evaluate(&s) {
            assert!(v.is_finite(), "{s:?} gave {v}");
            evaluated += 1;
        }
        let x = f64::from_bits(rng.next());
        assert!(
            x.is_nan() || format_number(x).parse::<f64>().is_ok(),
            "{x:e}"
        );
    }
    assert!(
        evaluated > 100,
        "the generator should also make valid expressions"
    );

    // The whole path, dispatch and run, with random names and inputs. (Fewer rounds: each
    // search ranks all documents.)
    for _ in 0..2_000 {
        let s = rng.string(60);
        let input = match rng.below(4) {
            0 => Value::String(s.clone()),
            1 => json!({ "expr": s, "top_k": rng.next() % 20 }),
            2 => serde_json::from_str(&s).unwrap_or(Value::Null),
            _ => json!({ "input": { "q": s } }),
        };
        let tool = tools[rng.below(tools.len())];
        let observation = match reg.dispatch(tool, &input) {
            Ok(call) => reg
                .run_builtin(&call, &host, Lang::En)
                .unwrap_or_else(|e| told::tool_error(&e, Lang::En.into())),
            Err(e) => told::dispatch_error(&e, Lang::En.into()),
        };
        assert!(!observation.is_empty());
    }
}

// ---------------------------------------------------------------- search_docs

fn top_result(query: &str) -> String {
    run("search_docs", json!({ "query": query, "top_k": 1 }))
}

#[test]
fn search_ranks_the_right_document_first() {
    let cases = [
        (
            "what is RAG",
            "Retrieval-augmented generation, RAG (检索增强生成)",
        ),
        (
            "什么是检索增强生成",
            "Retrieval-augmented generation, RAG (检索增强生成)",
        ),
        (
            "RAG是什么？",
            "Retrieval-augmented generation, RAG (检索增强生成)",
        ),
        (
            "Model Context Protocol",
            "Model Context Protocol, MCP (模型上下文协议)",
        ),
        (
            "MCP 协议是谁提出的",
            "Model Context Protocol, MCP (模型上下文协议)",
        ),
        ("FAISS", "FAISS vector search (向量相似度搜索库)"),
        ("向量相似度搜索", "FAISS vector search (向量相似度搜索库)"),
        (
            "ReAct thought action observation",
            "ReAct: reasoning and acting (推理与行动)",
        ),
        ("推理与行动", "ReAct: reasoning and acting (推理与行动)"),
        ("embedding cosine similarity", "Embeddings (嵌入向量)"),
        ("嵌入", "Embeddings (嵌入向量)"),
        ("tokenizer BPE", "Tokens and tokenization (词元与分词)"),
        ("分词器", "Tokens and tokenization (词元与分词)"),
        ("prompt engineering", "Prompt engineering (提示工程)"),
        ("提示工程", "Prompt engineering (提示工程)"),
        ("few-shot examples", "Few-shot prompting (少样本提示)"),
        ("少样本", "Few-shot prompting (少样本提示)"),
        (
            "function calling JSON Schema",
            "Function calling (函数调用)",
        ),
        ("工具调用", "Function calling (函数调用)"),
        ("think step by step", "Chain-of-thought prompting (思维链)"),
        ("思维链", "Chain-of-thought prompting (思维链)"),
    ];
    for (query, title) in cases {
        let out = top_result(query);
        assert!(
            out.starts_with(&format!("[1] {title}: ")),
            "{query:?} found {out}"
        );
    }
}

#[test]
fn search_output_format() {
    let out = run("search_docs", json!("what is RAG"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "default top_k is 3:\n{out}");
    assert!(lines[0].starts_with(
        "[1] Retrieval-augmented generation, RAG (检索增强生成): Retrieval-augmented generation (RAG) combines"
    ));
    assert!(lines[1].starts_with("[2] ") && lines[2].starts_with("[3] "));

    // The snippet comes from the sentence in the query's language.
    let zh = run("search_docs", json!({"query": "检索增强生成", "top_k": 1}));
    assert!(
        zh.starts_with(
            "[1] Retrieval-augmented generation, RAG (检索增强生成): 检索增强生成（RAG）"
        ),
        "{zh}"
    );
    // The whole result fits the default observation limit (500 characters): the best match
    // gets what the others, at most 100 characters each, leave, at least 300, cut after a
    // sentence, with an ellipsis; a short paragraph is shown whole.
    assert!(out.chars().count() <= 500, "{out}");
    let snippet = |line: &str| line.split_once("): ").map(|(_, s)| s.to_string());
    let en = snippet(lines[0]).unwrap_or_default();
    assert!(en.ends_with("the prompt. …"), "{en}");
    let second = snippet(lines[1]).unwrap_or_default();
    assert!(second.chars().count() <= 101, "{second}");
    let zh = snippet(&zh).unwrap_or_default();
    assert!(zh.ends_with("2020 年的论文。"), "{zh}");

    assert_eq!(
        run("search_docs", json!({"query": "RAG", "top_k": 1}))
            .lines()
            .count(),
        1
    );
    assert!(
        run("search_docs", json!({"query": "RAG", "top_k": 99}))
            .lines()
            .count()
            <= 10
    );
}

/// The best match shows its whole paragraph when it fits: the answer to a question about a
/// document is often its last sentence, whatever the query matched first. With other results
/// beside it, it is cut after a whole sentence; no result outgrows the observation limit.
#[test]
fn search_shows_the_best_paragraph_whole() {
    for (query, end) in [
        (
            "retrieval-augmented generation",
            "The name comes from Lewis et al. (2020).",
        ),
        (
            "MCP client discovery protocol",
            "used by many different assistants.",
        ),
        ("检索增强生成", "这个名称来自 Lewis 等人 2020 年的论文。"),
    ] {
        let out = run("search_docs", json!({ "query": query }));
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(out.ends_with(end), "{query}:\n{out}");
    }
    let out = run(
        "search_docs",
        json!("ReAct pattern and chain-of-thought retrieval"),
    );
    let first = out.lines().next().unwrap_or_default();
    assert!(first.ends_with(". …"), "cut after a sentence:\n{out}");
    for doc in default_documents() {
        for query in doc
            .title
            .split_whitespace()
            .chain(doc.text.split_whitespace())
        {
            let out = run("search_docs", json!({ "query": query, "top_k": 10 }));
            assert!(out.chars().count() <= 500, "{query}:\n{out}");
        }
    }
}

/// The snippet comes from the query's language, and from the sentence with the most query
/// words, the first such one, so a Chinese question about FAISS gets the Chinese sentence that
/// defines it rather than one that shares 用 and 做 with the question.
#[test]
fn search_snippet_in_the_query_language() {
    let out = run("search_docs", json!("FAISS 主要用来做什么？"));
    assert!(
        out.starts_with("[1] FAISS vector search (向量相似度搜索库): FAISS（Facebook AI Similarity Search）是 Meta 开源的"),
        "{out}"
    );
    let out = run("search_docs", json!("What is FAISS?"));
    assert!(
        out.starts_with(
            "[1] FAISS vector search (向量相似度搜索库): FAISS (Facebook AI Similarity Search) is"
        ),
        "{out}"
    );
}

/// A query word in a document's title counts more than the same word in another document's
/// text: most documents mention ReAct or vectors, few are about them.
#[test]
fn search_ranks_title_matches_first() {
    for (query, title) in [
        ("ReAct 模式结合能力", "ReAct: reasoning and acting"),
        ("FAISS 主要用来做什么？", "FAISS vector search"),
        // Single characters (结, 合, 能, 力…) count less than the pair 模式 and the name.
        (
            "ReAct 模式结合了哪两种能力？",
            "ReAct: reasoning and acting",
        ),
    ] {
        let out = run("search_docs", json!(query));
        assert!(out.starts_with(&format!("[1] {title}")), "{query}:\n{out}");
    }
}

/// Only documents about the question are listed: one that shares only a framing word ("used"
/// in "what is FAISS used for?") or scores far below the best is left out, while a query that
/// names two topics still finds both.
#[test]
fn search_lists_only_relevant_documents() {
    let titles = |query: &str| -> Vec<String> {
        run("search_docs", json!(query))
            .lines()
            .map(|l| l.split(": ").next().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(
        titles("what is FAISS used for?"),
        ["[1] FAISS vector search (向量相似度搜索库)"]
    );
    assert_eq!(titles("What does MCP stand for?").len(), 1);
    // Chinese framing (主要, 用来, 做) is not a topic either.
    assert_eq!(titles("FAISS 主要用来做什么？").len(), 1);
    let both = titles("RAG FAISS").join("\n");
    assert!(
        both.contains("FAISS vector search") && both.contains("Retrieval-augmented generation"),
        "{both}"
    );
    // A question about nothing in the documents gets the "no match" error and its topic list.
    assert!(run("search_docs", json!("day of the week from today"))
        .starts_with("Error: no document matches"));
}

#[test]
fn search_failures() {
    let reg = registry();
    let call = |query: &str| ToolCall {
        tool: "search_docs".into(),
        args: json!({ "query": query }),
        builtin: Some(Builtin::SearchDocs),
        notes: vec![],
    };
    let host = HostContext::default();
    for empty in ["", "   ", "???", "what is the"] {
        assert_eq!(
            reg.run_builtin(&call(empty), &host, Lang::En),
            Err(ToolError::EmptyQuery)
        );
    }
    let err = reg
        .run_builtin(&call("xylophone zebra"), &host, Lang::En)
        .unwrap_err();
    assert!(
        matches!(&err, ToolError::NoMatch { query, topics } if query == "xylophone zebra" && topics.len() == 10)
    );
    let obs = told::tool_error(&err, Lang::En.into());
    assert!(
        obs.starts_with(
            "Error: no document matches 'xylophone zebra'. Hint: try other or fewer keywords"
        ) && obs.contains("ReAct: reasoning and acting"),
        "{obs}"
    );
    let empty = Registry::with_builtins(vec![]);
    assert_eq!(
        empty.run_builtin(&call("RAG"), &host, Lang::En),
        Err(ToolError::NoDocuments)
    );

    // Host documents replace the defaults; long CJK text is cut safely.
    let mut reg = registry();
    reg.set_documents(vec![Document {
        title: "长文".into(),
        text: "检索".repeat(300),
    }]);
    assert_eq!(reg.documents().len(), 1);
    let out = reg.run_builtin(&call("检索"), &host, Lang::En).unwrap();
    assert!(out.ends_with('…') && out.chars().count() <= 500, "{out}");
}

/// A host document is untrusted text: blank lines by the hundred thousand (a pasted log, a
/// file of padding) must not make a search quadratic: 200,000 once took minutes.
#[test]
fn search_is_fast_on_long_runs_of_blank_lines() {
    // 200,000 line breaks in all, in two runs: one between sentences, one at the very end.
    let run = 100_000;
    let mut reg = registry();
    for (name, gap) in [("newlines", "\n"), ("blank lines with spaces", " \r\n\t")] {
        reg.set_documents(vec![Document {
            title: "Padding".into(),
            text: format!(
                "Some words first.{}The needle is here. More words.{}",
                gap.repeat(run),
                gap.repeat(run)
            ),
        }]);
        let call = reg.dispatch("search_docs", &json!("needle")).unwrap();
        let started = Instant::now();
        let out = reg.run_builtin(&call, &HostContext::default(), Lang::En);
        let elapsed = started.elapsed();
        // Debug build: under 50 ms when linear, minutes when quadratic.
        assert!(elapsed < Duration::from_secs(1), "{name}: took {elapsed:?}");
        assert_eq!(
            out.as_deref(),
            Ok("[1] Padding: The needle is here. More words."),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------- current_time

#[test]
fn current_time_formatting() {
    let reg = registry();
    let call = reg.dispatch("current_time", &Value::Null).unwrap();
    let cases: &[(f64, i32, &str)] = &[
        (
            0.0,
            0,
            "Thursday, 1 January 1970, 00:00:00 (UTC+00:00); date 1970-01-01",
        ),
        (
            999.9,
            0,
            "Thursday, 1 January 1970, 00:00:00 (UTC+00:00); date 1970-01-01",
        ),
        (
            -1.0,
            0,
            "Wednesday, 31 December 1969, 23:59:59 (UTC+00:00); date 1969-12-31",
        ),
        (
            1_796_018_709_000.0,
            480,
            "Monday, 30 November 2026, 14:05:09 (UTC+08:00); date 2026-11-30",
        ),
        (
            1_709_208_000_000.0,
            0,
            "Thursday, 29 February 2024, 12:00:00 (UTC+00:00); date 2024-02-29",
        ),
        (
            1_709_208_000_000.0,
            -300,
            "Thursday, 29 February 2024, 07:00:00 (UTC-05:00); date 2024-02-29",
        ),
        (
            1_709_208_000_000.0,
            330,
            "Thursday, 29 February 2024, 17:30:00 (UTC+05:30); date 2024-02-29",
        ),
        (
            1_709_208_000_000.0,
            720,
            "Friday, 1 March 2024, 00:00:00 (UTC+12:00); date 2024-03-01",
        ),
        (
            951_782_400_000.0,
            0,
            "Tuesday, 29 February 2000, 00:00:00 (UTC+00:00); date 2000-02-29",
        ),
        (
            4_107_542_400_000.0,
            0,
            "Monday, 1 March 2100, 00:00:00 (UTC+00:00); date 2100-03-01",
        ),
    ];
    for &(now_unix_ms, utc_offset_minutes, want) in cases {
        let host = HostContext {
            now_unix_ms,
            utc_offset_minutes,
        };
        assert_eq!(reg.run_builtin(&call, &host, Lang::En).as_deref(), Ok(want));
    }
    for (now_unix_ms, utc_offset_minutes) in
        [(f64::NAN, 0), (f64::INFINITY, 0), (1e17, 0), (0.0, 2000)]
    {
        let host = HostContext {
            now_unix_ms,
            utc_offset_minutes,
        };
        let err = reg.run_builtin(&call, &host, Lang::En).unwrap_err();
        assert!(matches!(err, ToolError::InvalidClock { .. }), "{err}");
    }
}

#[test]
fn current_time_counts_days_from_today() {
    let reg = registry();
    // Friday 14 March 2025, 12:00 UTC.
    let host = HostContext {
        now_unix_ms: 1_741_953_600_000.0,
        utc_offset_minutes: 0,
    };
    let cases: &[(Value, Lang, &str)] = &[
        (
            json!({"days": 1}),
            Lang::En,
            "Tomorrow: Saturday, 15 March 2025; date 2025-03-15",
        ),
        (
            json!({"days": -1}),
            Lang::En,
            "Yesterday: Thursday, 13 March 2025; date 2025-03-13",
        ),
        (
            json!({"days": 30}),
            Lang::En,
            "30 days from today: Sunday, 13 April 2025; date 2025-04-13",
        ),
        (
            json!({"days": 353}),
            Lang::En,
            "353 days from today: Monday, 2 March 2026; date 2026-03-02",
        ),
        (
            json!({"days": 45}),
            Lang::Zh,
            "45 天后：2025年4月28日 星期一；日期 2025-04-28",
        ),
        (
            json!({"days": -2}),
            Lang::Zh,
            "2 天前：2025年3月12日 星期三；日期 2025-03-12",
        ),
        (
            json!({"days": 0}),
            Lang::En,
            "Friday, 14 March 2025, 12:00:00 (UTC+00:00); date 2025-03-14",
        ),
    ];
    for (args, lang, want) in cases {
        let call = reg.dispatch("current_time", args).unwrap();
        assert_eq!(
            reg.run_builtin(&call, &host, *lang).as_deref(),
            Ok(*want),
            "{args}"
        );
    }
    let today = reg
        .run_builtin(
            &reg.dispatch("current_time", &Value::Null).unwrap(),
            &host,
            Lang::Zh,
        )
        .unwrap();
    assert_eq!(
        reactloop::tools::current_time::year_of(&today).as_deref(),
        Some("2025")
    );
    assert_eq!(
        reactloop::tools::current_time::year_of(cases[0].2).as_deref(),
        Some("2025")
    );
    assert_eq!(
        reactloop::tools::current_time::year_of("12:00; date soon"),
        None
    );
    // Not a whole number: the model is told so; too far: the clock says how far it counts.
    assert!(reg.dispatch("current_time", &json!({"days": 1.5})).is_err());
    for days in [json!(1e300), json!(2_000_000), json!(-2_000_000)] {
        let refused = match reg.dispatch("current_time", &json!({ "days": days })) {
            Err(_) => true,
            Ok(call) => matches!(
                reg.run_builtin(&call, &host, Lang::En),
                Err(ToolError::InvalidInput { .. })
            ),
        };
        assert!(refused, "{days}");
    }
}

// ---------------------------------------------------------------- dispatch

#[test]
fn dispatch_resolves_names() {
    let reg = registry();
    let cases = [
        ("calculator", "calculator", None),
        (" `calculator` ", "calculator", None),
        (
            "Calculator",
            "calculator",
            Some("tool name 'Calculator' read as 'calculator'"),
        ),
        (
            "Calculater",
            "calculator",
            Some("tool name 'Calculater' read as 'calculator'"),
        ),
        (
            "calcualtor",
            "calculator",
            Some("tool name 'calcualtor' read as 'calculator'"),
        ),
        (
            "Search Docs",
            "search_docs",
            Some("tool name 'Search Docs' read as 'search_docs'"),
        ),
        (
            "search-docs",
            "search_docs",
            Some("tool name 'search-docs' read as 'search_docs'"),
        ),
        (
            "searchdoc",
            "search_docs",
            Some("tool name 'searchdoc' read as 'search_docs'"),
        ),
        (
            "Search",
            "search_docs",
            Some("tool name 'Search' read as 'search_docs'"),
        ),
        (
            "calc",
            "calculator",
            Some("tool name 'calc' read as 'calculator'"),
        ),
        (
            "get_current_time",
            "current_time",
            Some("tool name 'get_current_time' read as 'current_time'"),
        ),
    ];
    for (written, tool, note) in cases {
        let call = reg
            .dispatch(written, &json!("1"))
            .unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(call.tool, tool, "{written}");
        let first = call.notes.first().map(ToString::to_string);
        assert_eq!(first.as_deref(), note, "{written}");
    }
}

#[test]
fn dispatch_unknown_tool() {
    let reg = registry();
    let err = reg.dispatch("current_date", &json!("today")).unwrap_err();
    assert_eq!(
        err,
        DispatchError::UnknownTool {
            name: "current_date".into(),
            available: vec![
                "calculator".into(),
                "search_docs".into(),
                "current_time".into()
            ],
            nearest: Some("current_time".into()),
        }
    );
    assert_eq!(
        told::dispatch_error(&err, Lang::En.into()),
        "Error: there is no tool named 'current_date'. Available tools: calculator, \
         search_docs, current_time. Did you mean 'current_time'? Write the tool name exactly \
         as listed."
    );
    // No far-fetched suggestion.
    assert_eq!(
        told::dispatch_error(
            &reg.dispatch("weather", &json!("Paris")).unwrap_err(),
            Lang::En.into()
        ),
        "Error: there is no tool named 'weather'. Available tools: calculator, search_docs, \
         current_time. Write the tool name exactly as listed."
    );
    assert_eq!(
        told::dispatch_error(
            &Registry::new().dispatch("x", &Value::Null).unwrap_err(),
            Lang::En.into()
        ),
        "Error: there is no tool named 'x'. No tools are available; answer directly."
    );

    // An ambiguous partial name is not guessed.
    let mut reg = registry();
    reg.register_external(spec(
        "search_web",
        json!({"type": "object", "properties": {}}),
    ))
    .unwrap();
    assert!(matches!(
        reg.dispatch("search", &Value::Null),
        Err(DispatchError::UnknownTool { .. })
    ));

    // Disabled tools cannot be called, not even through a correction.
    let mut reg = registry();
    assert!(reg.set_enabled("calculator", false));
    for name in ["calculator", "Calculater"] {
        assert!(matches!(
            reg.dispatch(name, &json!("1")),
            Err(DispatchError::UnknownTool { available, .. }) if available.len() == 2
        ));
    }
    assert!(reg.set_enabled("calculator", true));
    assert!(reg.dispatch("calculator", &json!("1")).is_ok());
}

/// A tool name is model output, so it can be anything: a megabyte of it must be refused
/// quickly (no edit distances over it) and not echoed whole into the next prompt.
#[test]
fn dispatch_refuses_an_overlong_tool_name_quickly() {
    let reg = registry();
    let cases = [
        ("one letter", "a".repeat(1 << 20)),
        ("a real name repeated", "calculator".repeat(100_000)),
        (
            "a real name padded",
            format!("calculator{}", " x".repeat(500_000)),
        ),
        ("multibyte", "检索".repeat(200_000)),
    ];
    for (name, written) in cases {
        let started = Instant::now();
        let err = reg.dispatch(&written, &json!("1")).unwrap_err();
        let elapsed = started.elapsed();
        // Debug build: milliseconds when capped, seconds when every name's distance is computed.
        assert!(elapsed < Duration::from_secs(1), "{name}: took {elapsed:?}");
        let DispatchError::UnknownTool { nearest, .. } = &err else {
            panic!("{name}: {err:?}");
        };
        assert_eq!(*nearest, None, "{name}");
        let obs = told::dispatch_error(&err, Lang::En.into());
        assert!(obs.chars().count() < 300, "{name}: {obs}");
        assert!(
            obs.starts_with("Error: there is no tool named '")
                && obs.contains("…'. Available tools: calculator, search_docs, current_time."),
            "{name}: {obs}"
        );
    }
    // An argument key is model output too: a megabyte key is given up on as quickly, however
    // many parameters it could have been a misspelling of.
    let mut reg = registry();
    let params = ["origin_city", "destination", "travel_date", "return_date"];
    let properties: serde_json::Map<String, Value> = params
        .iter()
        .map(|p| (p.to_string(), json!({"type": "string"})))
        .collect();
    reg.register_external(spec(
        "book_flight",
        json!({"type": "object", "properties": properties, "required": ["origin_city"]}),
    ))
    .unwrap();
    let input = json!({ "o".repeat(1 << 20): "Paris" });
    let started = Instant::now();
    let err = reg.dispatch("book_flight", &input).unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_secs(1),
        "long key: took {elapsed:?}"
    );
    assert!(
        matches!(&err, DispatchError::MissingArgument { missing, .. } if missing == &["origin_city"]),
        "{err:?}"
    );

    // The longest name a host may register (64 characters) is still matched loosely.
    let long = "t".repeat(63) + "x";
    reg.register_external(spec(&long, json!({"type": "object", "properties": {}})))
        .unwrap();
    let call = reg.dispatch(&long.to_uppercase(), &Value::Null).unwrap();
    assert_eq!(call.tool, long);
    let call = reg.dispatch(&format!("`{long}`"), &Value::Null).unwrap();
    assert_eq!((call.tool, call.notes.len()), (long, 0));
}

// ---------------------------------------------------------------- normalisation

#[test]
fn argument_normalisation() {
    let mut reg = registry();
    reg.register_external(weather_spec()).unwrap();
    reg.register_external(spec("free", json!({"type": "object"})))
        .unwrap();
    reg.register_external(spec(
        "open",
        json!({"type": "object", "properties": {"a": {"type": "number"}}, "additionalProperties": true}),
    ))
    .unwrap();
    let cases: Vec<(&str, Value, Value, Vec<&str>)> = vec![
        (
            "calculator",
            json!("2+2"),
            json!({"expression": "2+2"}),
            vec![],
        ),
        ("calculator", json!(42), json!({"expression": "42"}), vec![]),
        (
            "calculator",
            json!(4.5),
            json!({"expression": "4.5"}),
            vec![],
        ),
        (
            "calculator",
            json!({"expr": "1+1"}),
            json!({"expression": "1+1"}),
            vec!["key 'expr' read as 'expression'"],
        ),
        (
            "calculator",
            json!({"Expression": "1"}),
            json!({"expression": "1"}),
            vec!["key 'Expression' read as 'expression'"],
        ),
        (
            "calculator",
            json!({"expre": "1"}),
            json!({"expression": "1"}),
            vec!["key 'expre' read as 'expression'"],
        ),
        (
            "calculator",
            json!({"expresion": "1"}),
            json!({"expression": "1"}),
            vec!["key 'expresion' read as 'expression'"],
        ),
        (
            "calculator",
            json!({"expression": "1", "x": 2}),
            json!({"expression": "1"}),
            vec!["extra key 'x' ignored"],
        ),
        (
            "calculator",
            json!({"expression": "1", "expr": "2"}),
            json!({"expression": "1"}),
            vec!["extra key 'expr' ignored"],
        ),
        (
            "calculator",
            json!("{\"expression\": \"3*3\"}"),
            json!({"expression": "3*3"}),
            vec![],
        ),
        (
            "calculator",
            json!({"input": {"expression": "1+2"}}),
            json!({"expression": "1+2"}),
            vec![],
        ),
        (
            "calculator",
            json!({"args": {"formula": "1"}}),
            json!({"expression": "1"}),
            vec!["key 'formula' read as 'expression'"],
        ),
        (
            "calculator",
            json!({"input": "2+2"}),
            json!({"expression": "2+2"}),
            vec![],
        ),
        (
            "calculator",
            json!({"Action Input": "{\"expression\": \"5\"}"}),
            json!({"expression": "5"}),
            vec![],
        ),
        (
            "search_docs",
            json!({"q": "RAG", "top_k": "2"}),
            json!({"query": "RAG", "top_k": 2}),
            vec!["key 'q' read as 'query'"],
        ),
        (
            "search_docs",
            json!({"query": "RAG", "top_k": null}),
            json!({"query": "RAG"}),
            vec![],
        ),
        (
            "search_docs",
            json!({"query": "RAG", "top_k": 2.0}),
            json!({"query": "RAG", "top_k": 2}),
            vec![],
        ),
        ("search_docs", json!("RAG"), json!({"query": "RAG"}), vec![]),
        ("current_time", Value::Null, json!({}), vec![]),
        ("current_time", json!(""), json!({}), vec![]),
        ("current_time", json!(-1), json!({"days": -1}), vec![]),
        (
            "current_time",
            json!({"days": "30"}),
            json!({"days": 30}),
            vec![],
        ),
        (
            "current_time",
            json!({"day": 2}),
            json!({"days": 2}),
            vec!["key 'day' read as 'days'"],
        ),
        (
            "current_time",
            json!("now"),
            json!({}),
            vec!["input ignored: current_time needs no arguments"],
        ),
        (
            "current_time",
            json!({"timezone": "UTC"}),
            json!({}),
            vec!["extra key 'timezone' ignored"],
        ),
        (
            "getWeather",
            json!("Paris"),
            json!({"city": "Paris"}),
            vec![],
        ),
        (
            "getWeather",
            json!({"input": "上海"}),
            json!({"city": "上海"}),
            vec![],
        ),
        (
            "getWeather",
            json!({"City": "Paris", "unit": "metric"}),
            json!({"city": "Paris", "units": "metric"}),
            vec!["key 'City' read as 'city'", "key 'unit' read as 'units'"],
        ),
        ("free", json!("hello"), json!({"input": "hello"}), vec![]),
        (
            "free",
            json!({"input": {"x": 1}}),
            json!({"input": {"x": 1}}),
            vec![],
        ),
        (
            "open",
            json!({"a": "1.5", "b": true}),
            json!({"a": 1.5, "b": true}),
            vec![],
        ),
    ];
    for (tool, input, args, notes) in cases {
        let call = reg
            .dispatch(tool, &input)
            .unwrap_or_else(|e| panic!("{tool} {input}: {e}"));
        assert_eq!(call.args, args, "{tool} {input}");
        let sentences: Vec<String> = call.notes.iter().map(ToString::to_string).collect();
        assert_eq!(sentences, notes, "{tool} {input}");
    }
}

#[test]
fn argument_errors_show_the_expected_json() {
    let mut reg = registry();
    reg.register_external(weather_spec()).unwrap();
    reg.register_external(spec(
        "add",
        json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}),
    ))
    .unwrap();
    let missing_expression = DispatchError::MissingArgument {
        tool: "calculator".into(),
        missing: vec!["expression".into()],
        expected: json!({"expression": "<arithmetic from the question>"}),
    };
    for input in [json!({}), Value::Null, json!(""), json!({"a": 1, "b": 2})] {
        assert_eq!(
            reg.dispatch("calculator", &input),
            Err(missing_expression.clone()),
            "{input}"
        );
    }
    assert_eq!(
        told::dispatch_error(&missing_expression, Lang::En.into()),
        "Error: calculator needs the argument 'expression'. Action Input must be a JSON object \
         like: {\"expression\": \"<arithmetic from the question>\"}"
    );

    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "search_docs",
            json!({"query": "x", "top_k": "many"}),
            "Error: search_docs: 'top_k' should be a whole number, got \"many\". Action Input must \
             be a JSON object like: {\"query\": \"<keywords from the question>\"}",
        ),
        (
            "calculator",
            json!({"expression": {"value": "1"}}),
            "Error: calculator: 'expression' should be text, got {\"value\":\"1\"}. Action Input \
             must be a JSON object like: {\"expression\": \"<arithmetic from the question>\"}",
        ),
        (
            "add",
            json!("1 2"),
            "Error: add: add takes several arguments; give them as a JSON object. Action Input \
             must be a JSON object like: {\"a\": 1, \"b\": 1}",
        ),
        (
            "add",
            json!({"a": 1}),
            "Error: add needs the argument 'b'. Action Input must be a JSON object like: \
             {\"a\": 1, \"b\": 1}",
        ),
        (
            "getWeather",
            json!({}),
            "Error: getWeather needs the argument 'city'. Action Input must be a JSON object \
             like: {\"city\": \"<city>\"}",
        ),
    ];
    for (tool, input, observation) in cases {
        let err = reg.dispatch(tool, &input).unwrap_err();
        assert_eq!(
            told::dispatch_error(&err, Lang::En.into()),
            observation,
            "{tool} {input}"
        );
    }
}

// ---------------------------------------------------------------- specs and registry

#[test]
fn spec_params_and_examples() {
    let reg = registry();
    let names: Vec<&str> = reg.specs().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["calculator", "search_docs", "current_time"]);
    assert_eq!(
        Builtin::SearchDocs.spec().params(),
        [("query".to_string(), true), ("top_k".to_string(), false)]
    );
    // `days` is optional with a default: no example and no constrained call writes it.
    assert_eq!(
        Builtin::CurrentTime.spec().params(),
        [("days".to_string(), false)]
    );
    assert_eq!(Builtin::CurrentTime.spec().example_input(), json!({}));
    assert!(Builtin::CurrentTime.spec().written_params().is_empty());
    assert_eq!(calculator::evaluate("1"), Ok(1.0));

    let ordered = spec(
        "t",
        json!({"type": "object", "properties": {"z": {}, "a": {}, "b": {}, "y": {}}, "required": ["b", "a", "b"]}),
    );
    let params: Vec<(String, bool)> = ["b", "a"]
        .iter()
        .map(|n| (n.to_string(), true))
        .chain(["z", "y"].iter().map(|n| (n.to_string(), false)))
        .collect();
    assert_eq!(ordered.params(), params);

    let optional = spec(
        "t",
        json!({"type": "object", "properties": {
            "flag": {"type": "boolean"},
            "n": {"type": ["integer", "null"]},
            "mode": {"enum": ["fast", "slow"]},
            "tags": {"type": "array"},
            "when": {"type": "string", "default": "today"},
            "city": {"type": "string", "examples": ["Paris"]}
        }}),
    );
    // An optional parameter with a default is left to it; a required one shows it.
    assert_eq!(
        optional.example_input(),
        json!({"city": "Paris", "flag": true, "mode": "fast", "n": 1, "tags": []})
    );
    let defaulted = spec(
        "t",
        json!({"type": "object", "properties": {"when": {"type": "string", "default": "today"}},
               "required": ["when"]}),
    );
    assert_eq!(defaulted.example_input(), json!({"when": "today"}));
    let given = spec("t", json!({"type": "object", "example": {"x": 1}}));
    assert_eq!(given.example_input(), json!({"x": 1}));
}

#[test]
fn registry_management() {
    let mut reg = registry();
    let bad_names = ["", "bad name", "1abc", "naïve", &"a".repeat(65)];
    for name in bad_names {
        assert_eq!(
            reg.register_external(spec(name, json!({"type": "object"}))),
            Err(RegistryError::InvalidName { name: name.into() }),
            "{name:?}"
        );
    }
    assert!(reg
        .register_external(spec(&"a".repeat(64), json!({})))
        .is_ok());
    for name in ["final_answer", "Finish", "FinalAnswer"] {
        assert_eq!(
            reg.register_external(spec(name, json!({}))),
            Err(RegistryError::ReservedName { name: name.into() })
        );
    }
    for name in ["calculator", "Calculator", "search_Docs"] {
        assert_eq!(
            reg.register_external(spec(name, json!({}))),
            Err(RegistryError::BuiltinName { name: name.into() })
        );
    }
    let schemas = [
        (
            json!("string"),
            "it must be a JSON object like {\"type\": \"object\", \"properties\": {…}}",
        ),
        (
            json!({"type": "string"}),
            "\"type\" must be \"object\", not \"string\"",
        ),
        (
            json!({"properties": []}),
            "\"properties\" must be an object",
        ),
        (
            json!({"required": "a"}),
            "\"required\" must be a list of parameter names",
        ),
        (
            json!({"required": [1]}),
            "\"required\" must list names as strings",
        ),
        (
            json!({"properties": {"a": {}}, "required": ["b"]}),
            "required parameter 'b' is not in \"properties\"",
        ),
    ];
    for (parameters, message) in schemas {
        let err = reg.register_external(spec("t", parameters)).unwrap_err();
        assert_eq!(
            err,
            RegistryError::InvalidSchema {
                name: "t".into(),
                message: message.into()
            }
        );
        assert!(err
            .to_string()
            .starts_with("the parameters of 't' are not a usable schema: "));
    }

    // Same name replaces; a name that folds alike clashes.
    reg.register_external(weather_spec()).unwrap();
    let mut newer = weather_spec();
    newer.description = "newer".into();
    reg.register_external(newer).unwrap();
    let weather: Vec<&ToolSpec> = reg
        .specs()
        .into_iter()
        .filter(|s| s.name == "getWeather")
        .collect();
    assert_eq!(weather.len(), 1);
    assert_eq!(weather[0].description, "newer");
    assert_eq!(
        reg.register_external(spec("get_weather", json!({}))),
        Err(RegistryError::NameClash {
            name: "get_weather".into(),
            existing: "getWeather".into()
        })
    );

    let call = reg.dispatch("getWeather", &json!("Paris")).unwrap();
    assert_eq!(call.builtin, None);
    assert_eq!(
        reg.run_builtin(&call, &HostContext::default(), Lang::En),
        Err(ToolError::NotBuiltin {
            tool: "getWeather".into()
        })
    );

    assert!(reg.remove("getWeather"));
    assert!(!reg.remove("getWeather"));
    assert!(!reg.set_enabled("getWeather", false));
    assert!(reg.remove("calculator"));
    assert!(reg.dispatch("calculator", &json!("1")).is_err());
}

#[test]
fn tool_error_observations() {
    let cases = [
        (
            ToolError::External {
                message: "network down.".into(),
            },
            "Error: network down. Hint: check the Action Input against the tool's parameters and \
             try again",
        ),
        (
            ToolError::NoDocuments,
            "Error: there are no documents to search. Hint: no documents are loaded; answer from \
             what you know and say so",
        ),
        (
            ToolError::EmptyQuery,
            "Error: the search query has no keywords. Hint: give a few content words, e.g. \
             {\"query\": \"context window\"}",
        ),
        (
            ToolError::Calculator(CalcError::TooDeep { max: 64 }),
            "Error: the expression is nested too deeply (more than 64 levels). Hint: split the \
             calculation into smaller steps",
        ),
    ];
    for (err, observation) in cases {
        assert_eq!(told::tool_error(&err, Lang::En.into()), observation);
    }
    // A page's JavaScript tool: how it failed, in the run's language.
    let timed_out = ToolError::NoAnswerWithin {
        tool: "js_tool".into(),
        ms: 300,
    };
    assert_eq!(
        told::tool_error(&timed_out, Lang::En.into()),
        "Error: js_tool did not answer within 300 ms. Hint: the tool took too long; call it with \
         a smaller request, or answer from what you have"
    );
    assert_eq!(
        told::tool_error(&timed_out, Lang::Zh.into()),
        "错误：js_tool 在 300 毫秒内没有回答。提示：工具用时太长；请用更小的请求调用它，或者根据已有的信息回答"
    );
    let rejected = ToolError::ScriptRejected {
        tool: "js_tool".into(),
        message: "boom".into(),
    };
    assert!(told::tool_error(&rejected, Lang::Zh.into())
        .starts_with("错误：js_tool 失败了（它返回的 promise 被拒绝）：boom。"));
    // An out-of-range top_k is clamped, not an error.
    assert_eq!(
        run("search_docs", json!({"query": "RAG", "top_k": -1}))
            .lines()
            .count(),
        1
    );
}

#[test]
fn serde_shapes() {
    let err = ToolError::Calculator(CalcError::DivisionByZero);
    let v = serde_json::to_value(&err).unwrap();
    assert_eq!(v, json!({"type": "calculator", "kind": "division_by_zero"}));
    assert_eq!(serde_json::from_value::<ToolError>(v).unwrap(), err);
    let err = ToolError::Calculator(CalcError::UnexpectedChar { ch: '$', pos: 3 });
    let back: ToolError = serde_json::from_value(serde_json::to_value(&err).unwrap()).unwrap();
    assert_eq!(back, err);

    let d = DispatchError::UnknownTool {
        name: "x".into(),
        available: vec![],
        nearest: None,
    };
    assert_eq!(serde_json::to_value(&d).unwrap()["type"], "unknown_tool");
    assert_eq!(
        serde_json::to_value(Builtin::SearchDocs).unwrap(),
        "search_docs"
    );

    // A registry survives a round trip (the host may persist it).
    let reg = registry();
    let back: Registry = serde_json::from_str(&serde_json::to_string(&reg).unwrap()).unwrap();
    assert_eq!(back.documents(), reg.documents());
    assert_eq!(
        back.dispatch("calculator", &json!("1")),
        reg.dispatch("calculator", &json!("1"))
    );
}

#[test]
fn a_note_is_kept_as_its_sentence_and_read_back_from_it() {
    let notes = [
        Note::ToolRenamed {
            written: "Calculater".into(),
            tool: "calculator".into(),
        },
        Note::KeyRenamed {
            key: "expr".into(),
            param: "expression".into(),
        },
        Note::ExtraKeyIgnored { key: "x".into() },
        Note::InputIgnored {
            tool: "current_time".into(),
        },
        // Names with the sentence's own words in them still come back as written.
        Note::ExtraKeyIgnored {
            key: "a' ignored".into(),
        },
        Note::Other("a note from another reactloop".into()),
    ];
    for note in notes {
        let saved = serde_json::to_value(&note).unwrap();
        assert!(saved.is_string(), "{saved}");
        let back: Note = serde_json::from_value(saved.clone()).unwrap();
        assert_eq!(back.to_string(), saved.as_str().unwrap());
        assert_eq!(back, note);
    }
}

/// Words where arithmetic belongs mean the calculator was the wrong tool; a slip the model
/// can fix in the expression does not.
#[test]
fn the_calculator_tells_words_from_slips() {
    for (expr, words) in [
        ("year() - 1969", true),
        ("H2O", true),
        ("MCP的全称是什么", true),
        ("检索", true),
        ("current_time['year']", true),
        ("sqr(16)", false),
        ("2 $ 3", false),
        ("2 x 3", false),
        ("(2 + 3", false),
        ("pi(3)", false),
    ] {
        let error = evaluate(expr).expect_err(expr);
        assert_eq!(error.is_words(), words, "{expr}: {error}");
        assert_eq!(ToolError::Calculator(error).wrong_tool(), words, "{expr}");
    }
}

/// The same query finds the same passages every time: the scores are summed in a fixed order,
/// not a hash set's, which changes with each set (a near tie once picked another sentence of
/// the same document for `ho-docs-zh-cot-tasks` on two runs of the bench).
#[test]
fn search_gives_the_same_result_every_time() {
    let docs = default_documents();
    for query in [
        "大模型在哪些类型问题上的准确率？",
        "少样本提示 上下文学习 新任务",
        "How does FAISS index vectors for RAG?",
    ] {
        let first = reactloop::tools::search_docs::search(&docs, query, 3).unwrap();
        for _ in 0..200 {
            let again = reactloop::tools::search_docs::search(&docs, query, 3).unwrap();
            assert_eq!(again, first, "{query}");
        }
    }
}
