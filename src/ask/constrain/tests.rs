use super::*;

fn builtins() -> Vec<ToolSpec> {
    crate::tools::builtin_specs()
}

#[test]
fn grammar_golden() {
    let tools = builtins();
    assert_eq!(
        react_grammar(&actions(&tools, None), Thought::Free, None),
        concat!(
            "root ::= \"Thought: \" text (\"\\n\" | \" \")? \"Action: \" ( act0 | act1 | act2 | act3 )\n",
            "act0 ::= \"calculator\\nAction Input: \" \"{\\\"expression\\\": \" exprstr \"}\"\n",
            "act1 ::= \"search_docs\\nAction Input: \" \"{\\\"query\\\": \" wordstr \"}\"\n",
            "act2 ::= \"current_time\\nAction Input: \" \"{}\"\n",
            "act3 ::= \"final_answer\\nAction Input: \" answer\n",
            "exprstr ::= \"\\\"\" ( [0-9 .,+*/%^()-] | \"round\" | \"floor\" | \"log10\" | \"sqrt\" | \"ceil\" | \"abs\" | \"min\" | \"max\" | \"log\" | \"exp\" | \"sin\" | \"cos\" | \"tan\" | \"ln\" | \"pi\" | \"e\" )+ \"\\\"\"\n",
            "wordstr ::= \"\\\"\" word (\" \" word (\" \" word (\" \" word (\" \" word (\" \" word (\" \" word (\" \" word)?)?)?)?)?)?)? \"\\\"\"\n",
            "word ::= [^ \"\\\\\\r\\n\\t{}\\[\\]<>]+\n",
            "text ::= seg (end seg (end seg (end seg (end seg)?)?)?)?\n",
            "seg ::= [^\\r\\n.!?。！？:：]*\n",
            "end ::= [.!?。！？]\n",
            "answer ::= [^{\\[<\"'“‘「\\r\\n \\t] line\n",
            "line ::= part (end part (end part (end part (end part)?)?)?)?\n",
            "part ::= [^\\r\\n.!?。！？]*\n",
            "str ::= \"\\\"\" chr chr* \"\\\"\"\n",
            "chr ::= [^\"\\\\\\r\\n] | \"\\\\\" [\"\\\\/nt]\n",
            "num ::= \"-\"? dig (\".\" dig)?\n",
            "dig ::= [0-9] ([0-9] ([0-9] ([0-9] ([0-9] [0-9]?)?)?)?)?\n",
            "bool ::= \"true\" | \"false\"\n",
            "value ::= str | num | bool | \"null\" | \"[\" (value (\", \" value)*)? \"]\" | \"{\" (str \": \" value (\", \" str \": \" value)*)? \"}\"\n",
        )
    );
}

#[test]
fn prefixes_open_the_thought_and_the_answer() {
    let finals = actions(&[], None);
    let grammar = react_grammar(
        &finals,
        Thought::StartsWith("The \"Observation\" shows"),
        Some("It is"),
    );
    let lines: Vec<&str> = grammar.lines().collect();
    assert_eq!(
        lines[0],
        "root ::= \"Thought: The \\\"Observation\\\" shows\" text (\"\\n\" | \" \")? \"Action: \" ( act0 )"
    );
    assert_eq!(
        lines[1],
        "act0 ::= \"final_answer\\nAction Input: \" \"It is \" answer"
    );
    let plain = react_grammar(&finals, Thought::Free, None);
    assert_eq!(
        react_grammar(&finals, Thought::StartsWith(""), Some("")),
        plain
    );
    // A Thought given back whole, on one line, with the Action right after it.
    let grammar = react_grammar(&finals, Thought::Exactly("It is 42.\nSo"), None);
    assert_eq!(
        grammar.lines().next().unwrap(),
        "root ::= \"Thought: It is 42. So\" (\"\\n\" | \" \")? \"Action: \" ( act0 )"
    );
}

#[test]
fn each_parameter_type_has_its_grammar() {
    let tool = ToolSpec {
        name: "book \"it\"".into(),
        description: "d".into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "nights": {"type": "integer"},
                "pets": {"type": "boolean"},
                "class": {"enum": ["eco", "biz"]},
                "extras": {"type": "array"},
                "note": {"type": "string"},
            },
            "required": ["city", "nights", "pets", "class", "extras"],
        }),
        ..ToolSpec::default()
    };
    let tools = [tool];
    let grammar = react_grammar(&actions(&tools, None), Thought::Free, None);
    let act = grammar.lines().nth(1).unwrap();
    assert_eq!(
        act,
        "act0 ::= \"book \\\"it\\\"\\nAction Input: \" \"{\\\"city\\\": \" str \", \\\"nights\\\": \" num \", \\\"pets\\\": \" bool \", \\\"class\\\": \" ( \"\\\"eco\\\"\" | \"\\\"biz\\\"\" ) \", \\\"extras\\\": \" value \"}\""
    );
    let schema = react_schema(&actions(&tools, None), Thought::Free, None);
    let branches = schema["anyOf"].as_array().unwrap();
    assert_eq!(
        branches[0]["properties"]["action_input"]["required"],
        json!(["city", "nights", "pets", "class", "extras"])
    );
    // A host tool's schema goes out as it was registered (no pattern added).
    assert_eq!(
        branches[0]["properties"]["action_input"]["properties"]["city"],
        json!({"type": "string"})
    );
    assert_eq!(branches[1]["properties"]["action"]["const"], "final_answer");
}

/// The patterns of the JSON schema, read by a regular-expression engine: what each lets
/// through and what it stops.
#[test]
fn schema_patterns_say_what_the_grammar_says() {
    let tools = builtins();
    let schema = react_schema(
        &actions(&tools, None),
        Thought::StartsWith("The \"Observation\" shows 3.5 = 2^10 (a) [1] {x} $5 a|b?*+"),
        Some("The answer is"),
    );
    let branches = schema["anyOf"].as_array().unwrap();
    let names: Vec<&str> = branches
        .iter()
        .map(|b| b["properties"]["action"]["const"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["calculator", "search_docs", "current_time", "final_answer"]
    );
    for branch in branches {
        assert_eq!(
            branch["required"],
            json!(["thought", "action", "action_input"])
        );
    }
    let pattern = |branch: usize, pointer: &str| {
        let p = branches[branch]["properties"]
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no pattern at {branch} {pointer}"));
        regex_lite::Regex::new(p).unwrap()
    };
    let cases: [(&str, regex_lite::Regex, &[&str], &[&str]); 4] = [
        (
            "expression",
            pattern(0, "/action_input/properties/expression/pattern"),
            &[
                "12 * 7",
                "sqrt(2) + log10(100) * pi",
                "17 * 3, 8 * 6",
                "(1.5 - -2)^2 % 3",
            ],
            &[
                "} + 7 + 12 = 12 * 7 = 84",
                "12 * 7 = 84",
                "two plus two",
                "",
                "1\n2",
                "x + 1",
            ],
        ),
        (
            "query",
            pattern(1, "/action_input/properties/query/pattern"),
            &[
                "FAISS",
                "what is FAISS used for?",
                "向量数据库",
                "ReAct 模式",
            ],
            &[
                "",
                " FAISS",
                "{\"query\": \"x\"}",
                "a b c d e f g h i",
                "two\nlines",
                "say \"hi\"",
            ],
        ),
        (
            "thought",
            pattern(3, "/thought/pattern"),
            &[
                "The 'Observation' shows 3.5 = 2^10 (a) [1] {x} $5 a|b?*+ so the answer is 3.5.",
                "The 'Observation' shows 3.5 = 2^10 (a) [1] {x} $5 a|b?*+",
            ],
            &[
                "I will answer.",
                "The 'Observation' shows 3.5 = 2^10 (a) [1] {x} $5 a|b?*+. Action: final_answer",
                "The 'Observation' shows 3.5 = 2^10 (a) [1] {x} $5 a|b?*+\nmore",
                "The 'Observation' shows 3.5 = 2x10 (a) [1] {x} $5 a|b?*+",
            ],
        ),
        (
            "answer",
            pattern(3, "/action_input/pattern"),
            &[
                "The answer is 84.",
                "The answer is Paris. It is in France.",
                "The answer is 3.14",
                "The answer is 12:30 UTC.",
                "The answer is 下午3：15。",
            ],
            &[
                "84",
                "The answer is {\"expression\": \"1\"}",
                "The answer is \"Observation: [1] x\"",
                "The answer is <answer>",
                "The answer is  84",
                "The answer is 84\nmore",
                "The answer is 'Thought",
            ],
        ),
    ];
    for (what, regex, good, bad) in cases {
        for text in good {
            assert!(regex.is_match(text), "{what} should take {text:?}");
        }
        for text in bad {
            assert!(!regex.is_match(text), "{what} should refuse {text:?}");
        }
    }
    // A host tool's string stays free; the final answer alone is the schema itself.
    let finals = react_schema(&actions(&[], None), Thought::Exactly("Done.\nSo"), None);
    assert_eq!(finals["properties"]["action"]["const"], "final_answer");
    assert_eq!(finals["properties"]["thought"]["const"], "Done. So");
    let quoted = react_schema(
        &actions(&[], None),
        Thought::Exactly("It \"is\" a\\b."),
        None,
    );
    assert_eq!(quoted["properties"]["thought"]["const"], "It 'is' a/b.");
}

#[test]
fn avoided_actions_blank_and_repeated_names_are_left_out() {
    let mut tools = builtins();
    tools.push(tools[0].clone());
    tools.push(ToolSpec {
        name: String::new(),
        ..tools[0].clone()
    });
    let names = |avoid| -> Vec<String> {
        actions(&tools, avoid)
            .into_iter()
            .map(|a| action_name(a).to_string())
            .collect()
    };
    assert_eq!(
        names(None),
        ["calculator", "search_docs", "current_time", "final_answer"]
    );
    assert_eq!(
        names(Some("final_answer")),
        ["calculator", "search_docs", "current_time"]
    );
    assert_eq!(
        names(Some("search_docs")),
        ["calculator", "current_time", "final_answer"]
    );
    assert_eq!(
        actions(&[], Some("final_answer"))
            .into_iter()
            .map(|a| action_name(a).to_string())
            .collect::<Vec<_>>(),
        ["final_answer"]
    );
}

#[test]
fn literals_quote_awkward_names() {
    let cases = [
        ("say \"hi\"", "\"say \\\"hi\\\"\""),
        ("back\\slash", "\"back\\\\slash\""),
        ("two\nlines\r\t", "\"two\\nlines\\r\\t\""),
        ("bell\u{7}", "\"bell\\x07\""),
        ("c1\u{85}", "\"c1\\x85\""),
        ("中文😀", "\"中文😀\""),
    ];
    for (text, literal) in cases {
        assert_eq!(gbnf_literal(text), literal);
    }
}
