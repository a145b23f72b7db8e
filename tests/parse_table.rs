//! Table-driven specification of the reply parser: each repair, each error and its feedback,
//! spans, observation cutting, and the lenient JSON reader.

use reactloop::lang::Lang;
use reactloop::parse::{
    cut_observation, parse_json_lenient, parse_reply, FormatError, ParseResult, Parsed, Repair,
    Span,
};
use reactloop::told;
use serde_json::{json, Value};

enum Want {
    Action(&'static str, Value),
    Final(&'static str),
    Error(FormatError),
}

struct Case {
    text: &'static str,
    want: Want,
    repairs: &'static [Repair],
    absent: Vec<Repair>,
    spans: Vec<(&'static str, &'static str)>,
}

fn case(text: &'static str, want: Want) -> Case {
    Case {
        text,
        want,
        repairs: &[],
        absent: Vec::new(),
        spans: Vec::new(),
    }
}

impl Case {
    fn repairs(mut self, repairs: &'static [Repair]) -> Self {
        self.repairs = repairs;
        self
    }
    fn no_repair(mut self, repair: Repair) -> Self {
        self.absent.push(repair);
        self
    }
    /// Expects `&text[span]` of the named span ("thought", "action", "input", "answer").
    fn span(mut self, which: &'static str, expected: &'static str) -> Self {
        self.spans.push((which, expected));
        self
    }
}

fn action(tool: &'static str, input: Value) -> Want {
    Want::Action(tool, input)
}

fn span_of(r: &ParseResult, which: &str) -> Option<Span> {
    match which {
        "thought" => r.spans.thought,
        "action" => r.spans.action,
        "input" => r.spans.input,
        "answer" => r.spans.answer,
        other => panic!("unknown span {other}"),
    }
}

fn check(c: &Case) {
    let r = parse_reply(c.text);
    let ctx = format!("text {:?}\n  got {r:?}", c.text);
    match (&c.want, &r.parsed) {
        (Want::Action(tool, input), Parsed::Action { tool: t, input: i }) => {
            assert_eq!((*tool, input), (t.as_str(), i), "{ctx}");
        }
        (Want::Final(answer), Parsed::Final { answer: a }) => assert_eq!(answer, a, "{ctx}"),
        (Want::Error(e), Parsed::Error { error }) => assert_eq!(e, error, "{ctx}"),
        _ => panic!("wrong kind\n  {ctx}"),
    }
    for rep in c.repairs {
        assert!(r.repairs.contains(rep), "missing repair {rep:?}\n  {ctx}");
    }
    for rep in &c.absent {
        assert!(
            !r.repairs.contains(rep),
            "unexpected repair {rep:?}\n  {ctx}"
        );
    }
    for (which, expected) in &c.spans {
        let sp = span_of(&r, which).unwrap_or_else(|| panic!("no {which} span\n  {ctx}"));
        assert_eq!(
            &c.text[sp.start..sp.end],
            *expected,
            "{which} span\n  {ctx}"
        );
    }
}

#[test]
fn protocol_forms() {
    let cases = [
        case(
            "Thought: look it up\nAction: search\nAction Input: {\"q\": \"rust\"}",
            action("search", json!({"q": "rust"})),
        )
        .span("thought", "look it up")
        .span("action", "search")
        .span("input", "{\"q\": \"rust\"}"),
        case(
            "Thought: done\nFinal Answer: It is 42.\nReally.",
            Want::Final("It is 42.\nReally."),
        )
        .span("answer", "It is 42.\nReally."),
        case(
            "thought: x\nACTION: search\naction input: plain words",
            action("search", json!("plain words")),
        ),
        case("Action: get_time", action("get_time", Value::Null)).span("action", "get_time"),
        case(
            "Action: calc\nAction Input: 2022",
            action("calc", json!(2022)),
        ),
        case(
            "Thought: a\r\nAction: s\r\nAction Input: {\"q\": 1}\r\n",
            action("s", json!({"q": 1})),
        )
        .span("input", "{\"q\": 1}"),
        case(
            "Action: final_answer\nAction Input: \"Paris\"",
            Want::Final("Paris"),
        )
        .span("answer", "\"Paris\""),
        case("Action: Finish\nAction Input: done", Want::Final("done")),
        case(
            "Action: Final Answer\nAction Input: yes",
            Want::Final("yes"),
        ),
        case(
            "Thought: é中😀\nAction: 検索\nAction Input: 😀 x",
            action("検索", json!("😀 x")),
        )
        .span("thought", "é中😀")
        .span("action", "検索")
        .span("input", "😀 x"),
        case(
            "I will search.\nAction: search\nAction Input: x",
            action("search", json!("x")),
        )
        .span("thought", "I will search."),
    ];
    cases.iter().for_each(check);
}

#[test]
fn each_repair() {
    use Repair::*;
    let cases = [
        case("Thought：想\nAction：search\nAction Input：{\"q\": \"中\"}", action("search", json!({"q": "中"})))
            .repairs(&[FullWidthColon])
            .span("thought", "想")
            .span("action", "search")
            .span("input", "{\"q\": \"中\"}"),
        case("**Thought:** I will look.\n**Action:** search\n**Action Input:** {\"q\": \"x\"}", action("search", json!({"q": "x"})))
            .repairs(&[MarkdownLabel])
            .span("thought", "I will look.")
            .span("action", "search"),
        case("Thought 2: x\nAction 2: search\nAction Input 2: \"rust\"", action("search", json!("rust")))
            .repairs(&[NumberedLabel]),
        case("Thought: done\nAnswer: 42", Want::Final("42")).repairs(&[AnswerLabel]).span("answer", "42"),
        case("Thought: I know it. Final Answer: Paris", Want::Final("Paris"))
            .repairs(&[InlineFinalAnswer])
            .span("thought", "I know it.")
            .span("answer", "Paris"),
        case("Action: search\nAction Input:\n```json\n{\"q\": \"x\"}\n```", action("search", json!({"q": "x"})))
            .repairs(&[CodeFenceRemoved])
            .span("input", "{\"q\": \"x\"}"),
        case("```\nThought: t\nFinal Answer: 42\n```", Want::Final("42")).repairs(&[CodeFenceRemoved]),
        case("Action: add\nAction Input: Tool({\"a\": 1})", action("add", json!({"a": 1})))
            .repairs(&[JsonExtractedFromProse])
            .span("input", "{\"a\": 1}"),
        case("Sure! Here you go:\n{\"action\": \"search\", \"action_input\": \"x\"}\nHope it helps.", action("search", json!("x")))
            .repairs(&[JsonExtractedFromProse, JsonObjectForm])
            .span("thought", "Sure! Here you go:"),
        case("{\"action\": \"search\", \"action_input\": {\"q\": \"x\"}}", action("search", json!({"q": "x"})))
            .repairs(&[JsonObjectForm])
            .span("action", "search")
            .span("input", "{\"q\": \"x\"}"),
        case("{\"function_call\": {\"name\": \"search\", \"arguments\": \"{\\\"q\\\": \\\"x\\\"}\"}}", action("search", json!({"q": "x"})))
            .repairs(&[WrapperUnwrapped, StringJsonDecoded]),
        case("Action: Lookup[Eiffel Tower]", action("Lookup", json!("Eiffel Tower")))
            .repairs(&[PaperForm])
            .span("action", "Lookup")
            .span("input", "Eiffel Tower"),
        case("Action: Finish[Paris]", Want::Final("Paris")).repairs(&[PaperForm]).span("answer", "Paris"),
        case("Action: search(query=\"rust\", limit=3)", action("search", json!({"query": "rust", "limit": 3})))
            .repairs(&[CallForm])
            .span("action", "search"),
        case("Action: Wikipedia Search (beta)", action("Wikipedia Search (beta)", Value::Null)).no_repair(CallForm),
        case("Action: search\n{\"q\": \"x\"}", action("search", json!({"q": "x"})))
            .repairs(&[InputWithoutLabel])
            .span("input", "{\"q\": \"x\"}"),
        case("Action: `search`\nAction Input: x", action("search", json!("x")))
            .repairs(&[ToolNameUnquoted])
            .span("action", "search"),
        case("Action: s\nAction Input: {'q': 'it\\'s'}", action("s", json!({"q": "it's"}))).repairs(&[SingleQuotes]),
        case("Action: s\nAction Input: {\"a\": [1, 2,],}", action("s", json!({"a": [1, 2]}))).repairs(&[TrailingComma]),
        case("Action: s\nAction Input: {// why\n\"q\": \"x\" /* c */}", action("s", json!({"q": "x"}))).repairs(&[CommentRemoved]),
        case("Action: s\nAction Input: {\"a\": True, \"b\": None}", action("s", json!({"a": true, "b": null}))).repairs(&[PythonLiterals]),
        case("Action: s\nAction Input: {\"code\": \"a\n\tb\"}", action("s", json!({"code": "a\n\tb"}))).repairs(&[RawControlInString]),
        case("Action: s\nAction Input: {\"path\": \"C:\\dir\"}", action("s", json!({"path": "C:\\dir"}))).repairs(&[InvalidEscape]),
        case("Action: s\nAction Input: {q: \"x\"}", action("s", json!({"q": "x"}))).repairs(&[UnquotedKey]),
        case("Action: s\nAction Input: \"{\\\"q\\\": 1}\"", action("s", json!({"q": 1}))).repairs(&[StringJsonDecoded]),
        case("Action: final_answer\nAction Input: {\"expression\": \"7006652\"}", Want::Final("7006652"))
            .repairs(&[AnswerUnwrapped]),
        case(
            "Action: final_answer\nAction Input: [1] RAG: retrieval-augmented generation.",
            Want::Final("[1] RAG: retrieval-augmented generation."),
        ),
        case("Action: final_answer\nAction Input: {\"answer\": \"42\"}", Want::Final("42"))
            .repairs(&[AnswerUnwrapped])
            .span("answer", "42"),
        case("Action: s\nAction Input: {\"q\": 1} and some words", action("s", json!({"q": 1})))
            .repairs(&[TrailingTextIgnored])
            .span("input", "{\"q\": 1}"),
        case("Action: s\nAction Input: x\nObservation: made up\nThought: t\nFinal Answer: f", action("s", json!("x")))
            .repairs(&[HallucinatedObservationDropped])
            .span("input", "x"),
        case("Action: s\nAction Input: x\nObser", action("s", json!("x"))).repairs(&[PartialObservationDropped]),
        case("Action: s\nAction Input: x\nFinal Answer: y", action("s", json!("x"))).repairs(&[FinalAnswerIgnored]),
        case("Action: a\nAction Input: 1\nAction: b\nAction Input: 2", action("a", json!(1))).repairs(&[ExtraActionIgnored]),
        case("Final Answer: y\nAction: s\nAction Input: x", Want::Final("y")).repairs(&[ActionAfterFinalIgnored]),
        case("Thought: just greet\nAction: None\nFinal Answer: Hello!", Want::Final("Hello!"))
            .repairs(&[NoToolActionIgnored])
            .span("answer", "Hello!"),
        case("Action: s\nAction Input: {}\nAction: t", action("s", json!({}))).repairs(&[ExtraActionIgnored])
            .no_repair(FinalAnswerIgnored),
        case("Action: None\nFinal Answer: hi", Want::Final("hi")).no_repair(FinalAnswerIgnored),
    ];
    cases.iter().for_each(check);
}

/// The rules the grown corpus (tests/corpus/README.md) added: labels in Chinese, labels after
/// a sentence, bare tool[arg] lines, the first complete action, tool names with extra words,
/// full-width JSON punctuation, unclosed JSON at the end, and reasoning blocks.
#[test]
fn corpus_rules() {
    use Repair::*;
    let cases = [
        // Labels in the prompt's language.
        case(
            "思考：想\n行动：search\n行动输入：{\"q\": 1}",
            action("search", json!({"q": 1})),
        )
        .repairs(&[TranslatedLabel, FullWidthColon])
        .span("thought", "想")
        .span("action", "search")
        .span("input", "{\"q\": 1}"),
        case(
            "思考: 好\n动作: search\n动作输入: 北京",
            action("search", json!("北京")),
        )
        .repairs(&[TranslatedLabel]),
        case("思考：完成\n最终答案：北京", Want::Final("北京"))
            .repairs(&[TranslatedLabel])
            .span("answer", "北京"),
        case(
            "行动：s\n行动输入：x\n观察：y\n最终答案：z",
            action("s", json!("x")),
        )
        .repairs(&[HallucinatedObservationDropped]),
        case("思考：知道了。最终答案：42", Want::Final("42")).repairs(&[InlineFinalAnswer]),
        // A label right after a sentence; Action Input after the tool on the Action line.
        case(
            "Thought: I need the sum. Action: calculator\nAction Input: {\"expression\": \"1+2\"}",
            action("calculator", json!({"expression": "1+2"})),
        )
        .repairs(&[InlineLabel])
        .span("thought", "I need the sum.")
        .span("action", "calculator"),
        case("Action: foo Action Input: bar", action("foo", json!("bar")))
            .repairs(&[InlineLabel])
            .span("action", "foo")
            .span("input", "bar"),
        case(
            "Thought: Done. Action: final_answer, Action Input: {\"answer\": \"7\"}. Bye!",
            Want::Final("7"),
        )
        .repairs(&[
            InlineLabel,
            ToolNameTrimmed,
            TrailingTextIgnored,
            AnswerUnwrapped,
        ]),
        // Lower case, or not after a sentence end: prose.
        case(
            "Thought: then the final answer: 42",
            Want::Error(FormatError::ThoughtOnly),
        ),
        case(
            "Thought: the criteria for your Final Answer: short",
            Want::Error(FormatError::ThoughtOnly),
        ),
        case(
            "Thought: see 'Action: search' above",
            Want::Error(FormatError::ThoughtOnly),
        ),
        // Bare paper-form lines.
        case("Thought: done\nFinish[Paris]", Want::Final("Paris"))
            .repairs(&[BareActionLine, PaperForm])
            .span("answer", "Paris"),
        case("**Finish[x]**", Want::Final("x")).repairs(&[BareActionLine]),
        case(
            "> `Search[Apple Remote]`",
            action("Search", json!("Apple Remote")),
        )
        .repairs(&[BareActionLine]),
        case("finish(answer=\"done\")", Want::Final("done")).repairs(&[BareActionLine, CallForm]),
        case(
            "Thought: see\nNote[1]\nAction: s\nAction Input: x",
            action("s", json!("x")),
        )
        .no_repair(BareActionLine),
        case(
            "Thought: done\nprint(x)",
            Want::Error(FormatError::ThoughtOnly),
        ),
        case("Action: Finish[answer=\"yes\"]", Want::Final("yes"))
            .repairs(&[PaperForm, AnswerUnwrapped]),
        case("Action: `Search[x]`", action("Search", json!("x")))
            .repairs(&[ToolNameUnquoted, PaperForm]),
        // The first complete action wins.
        case(
            "Thought: ok. Action: final_answer\nAction: search\nAction Input: x",
            action("search", json!("x")),
        )
        .repairs(&[IncompleteActionSkipped]),
        case(
            "Thought: a. Action Input: {}\nAction: final_answer\nAction Input: 42",
            Want::Final("42"),
        )
        .repairs(&[IncompleteActionSkipped]),
        case(
            "Thought: e.g. Action: search\nAction: calc\nAction Input: 1",
            action("calc", json!(1)),
        )
        .repairs(&[IncompleteActionSkipped]),
        case(
            "Thought: fine. Action: current_time",
            action("current_time", Value::Null),
        ),
        case(
            "Thought: ok. Action: Search[x]\nAction: Finish[y]",
            action("Search", json!("x")),
        )
        .no_repair(IncompleteActionSkipped),
        case(
            "Action: final_answer\nAction: final_answer\nAction Input: 3",
            Want::Final("3"),
        ),
        // Tool names with extra words.
        case(
            "Action: add (add two numbers)\nAction Input: {}",
            action("add", json!({})),
        )
        .repairs(&[ToolNameTrimmed])
        .span("action", "add"),
        case(
            "Action: Use the `search` tool\nAction Input: x",
            action("search", json!("x")),
        )
        .repairs(&[ToolNameTrimmed])
        .span("action", "search"),
        case(
            "Action: search.\nAction Input: x",
            action("search", json!("x")),
        )
        .repairs(&[ToolNameTrimmed]),
        case(
            "Action: calc - to add\nAction Input: 1",
            action("calc", json!(1)),
        )
        .repairs(&[ToolNameTrimmed]),
        case(
            "Action: the calculator tool\nAction Input: 1",
            action("the calculator tool", json!(1)),
        )
        .no_repair(ToolNameTrimmed),
        // JSON: full-width punctuation, unclosed at the end, unbalanced quote.
        case(
            "Action: s\nAction Input: {“q”：“中”，“n”：1}",
            action("s", json!({"q": "中", "n": 1})),
        )
        .repairs(&[FullWidthPunctuation]),
        case(
            "Action: s\nAction Input: {\"q\"：\"a：b\"，\"n\"：1}",
            action("s", json!({"q": "a：b", "n": 1})),
        )
        .repairs(&[FullWidthPunctuation]),
        case(
            "Action: s\nAction Input: {\"q\": \"他说“好”，走了\"}",
            action("s", json!({"q": "他说“好”，走了"})),
        )
        .no_repair(FullWidthPunctuation),
        case(
            "Action: s\nAction Input: {\"q\": \"x\"",
            action("s", json!({"q": "x"})),
        )
        .repairs(&[UnclosedJson])
        .span("input", "{\"q\": \"x\""),
        case(
            "Action: s\nAction Input: {\"a\": {\"b\": [\"x\"]",
            action("s", json!({"a": {"b": ["x"]}})),
        )
        .repairs(&[UnclosedJson]),
        case(
            "Action: calculator\nAction Input: {\"expression\":\"round(4.1844, 3)}",
            action("calculator", json!({"expression": "round(4.1844, 3)"})),
        )
        .repairs(&[UnclosedString]),
        case(
            "Action: s\nAction Input: {\"q\": [\"a\", \"b]}\n",
            action("s", json!({"q": ["a", "b"]})),
        )
        .repairs(&[UnclosedString]),
        case(
            "Action: s\nAction Input: \"what is it",
            action("s", json!("what is it")),
        )
        .repairs(&[UnbalancedQuote])
        .span("input", "what is it"),
        // Final answers that start like JSON.
        case(
            "Action: final_answer\nAction Input: {\"answer\": \"42\"}. Done.",
            Want::Final("42"),
        )
        .repairs(&[TrailingTextIgnored]),
        case(
            "Action: final_answer\nAction Input: {\"a\": 1, \"b\": 2}",
            Want::Final("{\"a\": 1, \"b\": 2}"),
        ),
        case(
            "Action: final_answer\nAction Input: {\"a\": \"x\"}`",
            Want::Final("x"),
        ),
        // JSON objects: records are not calls; one-element tool_calls lists are.
        case(
            "{\"name\": \"张三\", \"city\": \"北京\"}",
            Want::Error(FormatError::NoAction),
        ),
        case(
            "{\"tool_calls\": [{\"action\": \"t\", \"action_input\": {}}]}",
            action("t", json!({})),
        )
        .repairs(&[WrapperUnwrapped]),
        // Reasoning blocks.
        case(
            "<think>Action: no</think>\nAction: s\nAction Input: x",
            action("s", json!("x")),
        )
        .repairs(&[ReasoningSkipped]),
        case("<think>ok</think>Final Answer: 4", Want::Final("4"))
            .repairs(&[ReasoningSkipped])
            .span("thought", "ok"),
        case(
            "<think>\nFinal Answer: 4",
            Want::Error(FormatError::NoAction),
        )
        .repairs(&[ReasoningSkipped]),
        // Native tool-call tokens leaked as text.
        case(
            "ok<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_end|>",
            Want::Error(FormatError::XmlToolCall),
        ),
    ];
    cases.iter().for_each(check);

    // Cut inside a string or after a number: not closed.
    for text in [
        "Action: s\nAction Input: {\"q\": \"Par",
        "Action: s\nAction Input: {\"q\": 1",
        "Action: s\nAction Input: {\"q\": \"x\",",
    ] {
        let r = parse_reply(text);
        assert!(
            matches!(
                r.parsed,
                Parsed::Error {
                    error: FormatError::InvalidJson { .. }
                }
            ),
            "{text:?}: {r:?}"
        );
    }
}

#[test]
fn errors_and_feedback() {
    use FormatError::*;
    let cases = [
        case("", Want::Error(Empty)),
        case(" \n\t ", Want::Error(Empty)),
        case("Hello! How can I help?", Want::Error(NoAction)),
        case("Thought: hmm", Want::Error(ThoughtOnly)).span("thought", "hmm"),
        case("Thought: greeting only\nAction: None", Want::Error(NoTool)),
        case("Action: N/A", Want::Error(NoTool)),
        case("Action: no tool needed", Want::Error(NoTool)),
        case("Thought: Do I need to use a tool? No", Want::Error(NoTool)),
        case(
            "Thought: x\nAction:\nAction Input: {}",
            Want::Error(MissingToolName),
        ),
        case("Action: {\"q\": 1}", Want::Error(MissingToolName)),
        case(
            "Thought: x\nAction Input: {}",
            Want::Error(InputWithoutAction),
        ),
        case("Thought: x\nFinal Answer:   ", Want::Error(EmptyAnswer)),
        case("Action: Finish[]", Want::Error(EmptyAnswer)),
        case("Action: final_answer", Want::Error(EmptyAnswer)),
        case(
            "Action: final_answer\nAction Input: {}",
            Want::Error(EmptyAnswer),
        ),
        case(
            r#"{"thought": "t", "action": "final_answer", "action_input": []}"#,
            Want::Error(EmptyAnswer),
        ),
        case(
            "<tool_calls><invoke name=\"ls\"></invoke></tool_calls>",
            Want::Error(XmlToolCall),
        ),
        case(
            "Thought: t\nAction: search Final Answer:\nAction Input: x",
            Want::Error(MixedActionAndAnswer),
        ),
        case(
            "行动：search 最终答案：北京",
            Want::Error(MixedActionAndAnswer),
        ),
    ];
    cases.iter().for_each(check);

    let needs = [
        // Feedback teaches the prompt's own format: final_answer is an Action.
        (Empty, vec!["empty", "Action:", "final_answer"]),
        (
            NoAction,
            vec!["No 'Action:'", "Action Input:", "Action: final_answer"],
        ),
        (
            ThoughtOnly,
            vec!["only a Thought", "Action:", "Action: final_answer"],
        ),
        (NoTool, vec!["no tool", "Action: final_answer"]),
        (
            MissingToolName,
            vec!["names no tool", "Action: <tool name>"],
        ),
        (
            InputWithoutAction,
            vec!["without an 'Action:'", "Action: <tool name>"],
        ),
        (
            EmptyAnswer,
            vec!["final answer is empty", "Action Input: <the answer>"],
        ),
        (XmlToolCall, vec!["XML", "Action Input:"]),
        (
            MixedActionAndAnswer,
            vec![
                "final answer",
                "Action: <tool name>",
                "Action: final_answer",
            ],
        ),
        (
            ArgumentsAsAnswer {
                tool: "calculator".into(),
            },
            vec![
                "calculator's arguments",
                "Action: calculator",
                "Action: final_answer",
            ],
        ),
    ];
    for (error, phrases) in needs {
        let feedback = told::format_error(&error, Lang::En.into());
        for p in phrases {
            assert!(
                feedback.contains(p),
                "feedback for {error:?} lacks {p:?}: {feedback}"
            );
        }
        assert!(!error.to_string().is_empty());
    }
}

#[test]
fn invalid_json_reports_position() {
    // A missing comma is not a repair: the model is told where.
    let r = parse_reply("Action: s\nAction Input: {\n  \"a\": 1\n  \"b\": 2\n}");
    let Parsed::Error { error } = &r.parsed else {
        panic!("expected an error, got {r:?}")
    };
    let FormatError::InvalidJson {
        line,
        column,
        message,
    } = error
    else {
        panic!("expected InvalidJson, got {error:?}")
    };
    assert_eq!((*line, *column), (3, 3), "{message}");
    assert!(message.contains("expected"), "{message}");
    let feedback = told::format_error(error, Lang::En.into());
    assert!(feedback.contains("line 3, column 3"), "{feedback}");
    assert!(error.to_string().contains("line 3, column 3"));

    // An argument that ran into the token limit: the model is told it was too long.
    let long = format!(
        "Thought: t\nAction: calculator\nAction Input: {{\"expression\": \"{}",
        "8 * 4 / 2 - 10 + ".repeat(12)
    );
    let r = parse_reply(&long);
    let Parsed::Error { error } = &r.parsed else {
        panic!("expected an error, got {r:?}")
    };
    assert!(
        told::format_error(error, Lang::En.into()).contains("too long"),
        "{error:?}"
    );
    assert!(
        told::format_error(error, Lang::Zh.into()).contains("太长"),
        "{error:?}"
    );
    let short = parse_reply("Action: s\nAction Input: {\"q\": \"ab");
    let Parsed::Error { error } = &short.parsed else {
        panic!("expected an error, got {short:?}")
    };
    assert!(told::format_error(error, Lang::En.into())
        .starts_with("The JSON in your reply is not valid"));

    // A reply that is only a broken JSON object is a JSON error too.
    let broken = |text: &str| {
        let r = parse_reply(text);
        let Parsed::Error {
            error: FormatError::InvalidJson { .. },
        } = r.parsed
        else {
            panic!("expected InvalidJson for {text:?}, got {r:?}")
        };
        r
    };
    broken("{\"action\": \"search\", \"action_input\": {\"q\": ");
    let r = broken("Thought: x\n{\"action\": \"s\", \"action_input\": {\"q\": ");
    assert_eq!(r.thought.as_deref(), Some("x"));
    // Something that only looks like JSON inside prose is not.
    let r = parse_reply("Thought: Example call {\"action\": \"x\"} end.");
    assert_eq!(
        r.parsed,
        Parsed::Error {
            error: FormatError::ThoughtOnly
        }
    );
}

#[test]
fn thought_sources() {
    // The object's own "thought" key beats loose prose around it; a label beats both.
    let r = parse_reply("Sure:\n{\"thought\": \"t\", \"action\": \"s\"}");
    assert_eq!(r.thought.as_deref(), Some("t"));
    assert!(r.repairs.contains(&Repair::JsonExtractedFromProse));
    let r = parse_reply("Thought: label\n{\"thought\": \"t\", \"action\": \"s\"}");
    assert_eq!(r.thought.as_deref(), Some("label"));
    let r = parse_reply("Sure:\n{\"action\": \"s\"}");
    assert_eq!(r.thought.as_deref(), Some("Sure:"));
}

#[test]
fn first_action_wins_and_fences_hide_steps() {
    let r = parse_reply(
        "Thought: t\nAction: a\nAction Input: {\"n\": 1}\nAction: b\nAction Input: {\"n\": 2}",
    );
    assert_eq!(
        r.parsed,
        Parsed::Action {
            tool: "a".into(),
            input: json!({"n": 1})
        }
    );

    let text = "Action: write\nAction Input: doc:\n```\nAction: fake\nObservation: fake\n```";
    let r = parse_reply(text);
    assert_eq!(
        r.parsed,
        Parsed::Action {
            tool: "write".into(),
            input: json!("doc:\n```\nAction: fake\nObservation: fake\n```")
        }
    );
    assert!(r.repairs.is_empty(), "{:?}", r.repairs);
}

#[test]
fn cut_observation_cases() {
    let cases: &[(&str, &str, bool)] = &[
        (
            "Action: a\nAction Input: b\nObservation: c\nThought: d",
            "Action: a\nAction Input: b",
            true,
        ),
        (
            "Action: a\nAction Input: b\n  observation：c",
            "Action: a\nAction Input: b",
            true,
        ),
        (
            "Action: a\nAction Input: b\n**Observation 1:** c",
            "Action: a\nAction Input: b",
            true,
        ),
        ("Final Answer: x\nObservation: y", "Final Answer: x", true),
        (
            "行动：a\n行动输入：b\n观察：c",
            "行动：a\n行动输入：b",
            true,
        ),
        (
            "Action: a\nAction Input: b\nObs",
            "Action: a\nAction Input: b",
            true,
        ),
        // An echo of the previous step before any action is kept.
        (
            "Observation: old\nThought: t\nAction: a",
            "Observation: old\nThought: t\nAction: a",
            false,
        ),
        // Inside a fenced input it is text.
        (
            "Action: a\nAction Input:\n```\nObservation: x\n```",
            "Action: a\nAction Input:\n```\nObservation: x\n```",
            false,
        ),
        (
            "Thought: the Observation: mid-line stays",
            "Thought: the Observation: mid-line stays",
            false,
        ),
        ("", "", false),
    ];
    for (text, kept, cut) in cases {
        assert_eq!(cut_observation(text), (*kept, *cut), "text {text:?}");
    }
}

#[test]
fn lenient_json() {
    assert_eq!(
        parse_json_lenient("{\"a\": [1, 2]}"),
        Ok((json!({"a": [1, 2]}), vec![]))
    );
    let cases: &[(&str, Value, &[Repair])] = &[
        ("{'a': 'b'}", json!({"a": "b"}), &[Repair::SingleQuotes]),
        ("[1, 2, ]", json!([1, 2]), &[Repair::TrailingComma]),
        (
            "/* c */ {\"a\": 1} // end",
            json!({"a": 1}),
            &[Repair::CommentRemoved],
        ),
        (
            "{\"x\": False}",
            json!({"x": false}),
            &[Repair::PythonLiterals],
        ),
        (
            "{\"s\": \"a\nb\"}",
            json!({"s": "a\nb"}),
            &[Repair::RawControlInString],
        ),
        (
            "{\"s\": \"\\ud83d\\ude00 \\u00e9\"}",
            json!({"s": "😀 é"}),
            &[],
        ),
        (
            "{\"s\": \"\\ud83d\"}",
            json!({"s": "\u{FFFD}"}),
            &[Repair::InvalidEscape],
        ),
        ("'it\\'s'", json!("it's"), &[Repair::SingleQuotes]),
        (
            "{“a”：“b”，“c”：[1，2]}",
            json!({"a": "b", "c": [1, 2]}),
            &[Repair::FullWidthPunctuation],
        ),
        (
            "{\"a\": [\"x\"",
            json!({"a": ["x"]}),
            &[Repair::UnclosedJson],
        ),
    ];
    for (text, value, repairs) in cases {
        let (v, r) = parse_json_lenient(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(&v, value, "{text:?}");
        for rep in *repairs {
            assert!(r.contains(rep), "{text:?}: missing {rep:?} in {r:?}");
        }
    }
    for bad in [
        "{\"a\": }",
        "{\"a\" 1}",
        "[1 2]",
        "{\"a\": 1",
        "'open",
        "nope",
        "",
        "{\"a\": 1} x",
        "{\"a\": \"x\",",
        "{“a”：“b",
    ] {
        match parse_json_lenient(bad) {
            Err(FormatError::InvalidJson { line, column, .. }) => {
                assert!(line >= 1 && column <= bad.len() + 1)
            }
            other => panic!("{bad:?} should fail, got {other:?}"),
        }
    }
    // Deep nesting fails cleanly instead of overflowing the stack.
    let deep = "[".repeat(100_000);
    assert!(parse_json_lenient(&deep).is_err());
    let deep_obj = "{\"a\":".repeat(50_000);
    assert!(parse_json_lenient(&deep_obj).is_err());
}

#[test]
fn result_serializes_with_kind_tag() {
    let r = parse_reply("Thought：t\nAction: s\nAction Input: {\"q\": 1}");
    let v = serde_json::to_value(&r).expect("serializes");
    assert_eq!(v["kind"], "action");
    assert_eq!(v["tool"], "s");
    assert_eq!(v["input"], json!({"q": 1}));
    assert_eq!(v["repairs"], json!(["full_width_colon"]));
    assert_eq!(v["spans"]["action"], json!({"start": 20, "end": 21}));
    let back: ParseResult = serde_json::from_value(v).expect("deserializes");
    assert_eq!(back, r);

    let e = parse_reply("Action: s\nAction Input: {\"a\" 1}");
    let v = serde_json::to_value(&e).expect("serializes");
    assert_eq!(v["kind"], "error");
    assert_eq!(v["error"]["type"], "invalid_json");
    assert_eq!(v["error"]["line"], 1);

    for rep in [
        Repair::FullWidthColon,
        Repair::PaperForm,
        Repair::HallucinatedObservationDropped,
    ] {
        assert!(!reactloop::sentences::repair(rep).en.is_empty());
    }
    assert_eq!(
        reactloop::sentences::repair(Repair::SingleQuotes).en,
        "single quotes → double"
    );
}
