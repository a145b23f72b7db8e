//! Golden files pin the generated system prompts. After an intended change, regenerate
//! them with `UPDATE_GOLDEN=1 cargo test --test prompt` and review the diff.

use reactloop::lang::{estimate_tokens, Lang};
use std::path::PathBuf;

use reactloop::prompt::{system_prompt, FewShot, PromptConfig};
use reactloop::tools::{default_documents, Registry, ToolSpec};
use serde_json::json;

fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1)", path.display()));
    assert_eq!(actual, expected, "{name} changed; see the diff above");
}

fn registry() -> Registry {
    Registry::with_builtins(default_documents())
}

fn prompt(lang: Lang, few_shot: Vec<FewShot>) -> String {
    let config = PromptConfig {
        lang,
        template: None,
        few_shot,
        ..PromptConfig::default()
    };
    system_prompt(&registry().specs(), &config)
}

#[test]
fn english_prompt() {
    golden("prompt_en.txt", &prompt(Lang::En, vec![]));
}

#[test]
fn chinese_prompt() {
    golden("prompt_zh.txt", &prompt(Lang::Zh, vec![]));
}

#[test]
fn few_shot_examples_are_appended() {
    let shot = FewShot {
        question: "What is 2 + 2?".into(),
        transcript: "Thought: I should add.\nAction: calculator\nAction Input: {\"expression\": \"2 + 2\"}\nObservation: 4\nThought: I know it.\nAction: final_answer\nAction Input: 4".into(),
    };
    golden("prompt_few_shot_en.txt", &prompt(Lang::En, vec![shot]));
}

#[test]
fn a_host_tool_appears_with_an_example_built_from_its_schema() {
    let mut registry = registry();
    registry.set_enabled("current_time", false);
    registry
        .register_external(ToolSpec {
            name: "weather".into(),
            description: "Current weather for a city.".into(),
            parameters: json!({"type": "object", "properties": {
                "city": {"type": "string", "examples": ["Paris"]}}, "required": ["city"]}),
            ..ToolSpec::default()
        })
        .unwrap();
    let text = system_prompt(&registry.specs(), &PromptConfig::default());
    assert!(
        text.contains(
            "- weather: Current weather for a city. Action Input: {\"city\":\"Paris\"}\n"
        ),
        "{text}"
    );
    assert!(text.contains("Action: <one of: calculator, search_docs, weather, final_answer>"));
    assert!(!text.contains("current_time"));
}

#[test]
fn a_custom_template_gets_the_tools_filled_in() {
    let config = PromptConfig {
        lang: Lang::En,
        template: Some("Tools: {tool_names}\n{tools}".into()),
        ..PromptConfig::default()
    };
    let text = system_prompt(&registry().specs(), &config);
    assert!(text.starts_with("Tools: calculator, search_docs, current_time\n- calculator: "));
}

/// The issue asks for the prompt to stay small next to LangChain's `hwchase17/react`
/// prompt for the same tools. Both are counted with `estimate_tokens`.
#[test]
fn the_prompt_is_smaller_than_langchains_react_prompt() {
    let registry = registry();
    let tools: Vec<String> = registry
        .specs()
        .iter()
        .map(|t| format!("{}: {}", t.name, t.description))
        .collect();
    let names: Vec<&str> = registry.specs().iter().map(|t| t.name.as_str()).collect();
    let langchain = include_str!("golden/langchain_react_prompt.txt")
        .replace("{tools}", &tools.join("\n"))
        .replace("{tool_names}", &names.join(", "));
    let ours = estimate_tokens(&prompt(Lang::En, vec![]));
    let theirs = estimate_tokens(&langchain);
    println!("system prompt tokens (estimate): reactloop en {ours}, zh {}, LangChain hwchase17/react {theirs}",
        estimate_tokens(&prompt(Lang::Zh, vec![])));
    // Ours also carries an example Action Input per tool, which LangChain's lacks.
    assert!(
        ours * 10 <= theirs * 11,
        "ours {ours} vs LangChain {theirs}"
    );
}

/// The request for the answer, word for word: the bench measured these texts, and a space
/// more or less changes the 0.5B model's replies.
#[test]
fn the_request_for_the_answer_word_for_word() {
    use reactloop::ask::MustAnswer::{LastStep, RepeatedCall, RepeatedFailure};
    use reactloop::prompt::ask_for_answer;
    let q = "What is 6*7?";
    let zh = "天空是什么颜色？";
    let cases = [
        (q, Lang::En, RepeatedCall, false, "Now answer the question \"What is 6*7?\" from the Observations above. Reply with:\nThought: I now know the answer.\nAction: final_answer\nAction Input: <the answer>"),
        (q, Lang::En, LastStep, true, "Write the answer itself now: reply with Action: final_answer, and as its Action Input the answer to \"What is 6*7?\" in your own words, from the Observations above."),
        (q, Lang::En, RepeatedFailure, false, "Now answer the question \"What is 6*7?\" from what you know: the tools do not answer it. Reply with:\nThought: I now know the answer.\nAction: final_answer\nAction Input: <the answer>"),
        (q, Lang::En, RepeatedFailure, true, "Write the answer itself now: reply with Action: final_answer, and as its Action Input the answer to \"What is 6*7?\" in your own words, from what you know: the tools do not answer it."),
        (zh, Lang::Zh, RepeatedCall, false, "现在请根据上面的 Observation 回答问题“天空是什么颜色？”。回复：\nThought: 我现在知道答案了。\nAction: final_answer\nAction Input: <答案>"),
        (zh, Lang::Zh, LastStep, true, "现在请写出答案本身：回复 Action: final_answer，并在 Action Input 里用你自己的话写出问题“天空是什么颜色？”的答案，内容来自上面的 Observation。"),
        (zh, Lang::Zh, RepeatedFailure, false, "现在请根据你自己的知识（工具回答不了它）回答问题“天空是什么颜色？”。回复：\nThought: 我现在知道答案了。\nAction: final_answer\nAction Input: <答案>"),
        (zh, Lang::Zh, RepeatedFailure, true, "现在请写出答案本身：回复 Action: final_answer，并在 Action Input 里用你自己的话写出问题“天空是什么颜色？”的答案，根据你自己的知识（工具回答不了它）。"),
    ];
    for (question, lang, why, again, expected) in cases {
        assert_eq!(
            ask_for_answer(question, lang.into(), why, again),
            expected,
            "{lang:?} {why:?} again={again}"
        );
    }
}

/// A summary reply, as models write its label, and what the run keeps of it.
#[test]
fn a_summary_is_read_past_its_label_however_it_is_written() {
    let cases = [
        (
            "Summary: The calculator gave 42.",
            "The calculator gave 42.",
        ),
        (
            "summary：The calculator gave 42.",
            "The calculator gave 42.",
        ),
        (
            "**Summary:** The calculator gave 42.",
            "The calculator gave 42.",
        ),
        (
            "## SUMMARY: The calculator gave 42.",
            "The calculator gave 42.",
        ),
        ("总结：计算器给出了 42。", "计算器给出了 42。"),
        (
            r#"{"summary": "The calculator gave 42."}"#,
            "The calculator gave 42.",
        ),
        // No label: the text is the summary; a word that only starts like one is kept.
        ("The calculator gave 42.", "The calculator gave 42."),
        ("Summaries: none yet", "Summaries: none yet"),
        ("总", "总"),
    ];
    for (reply, kept) in cases {
        assert_eq!(reactloop::prompt::read_summary(reply), kept, "{reply}");
    }
}
