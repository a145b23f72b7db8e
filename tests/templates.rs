//! What the loop tells the model is a table of named templates (`told::ALL`): each one has both
//! languages with the same placeholders, a run's own text replaces it in what the model is sent,
//! and the trace says which request first sent it.

mod common;

use common::AtEnd;
use reactloop::config::AgentConfig;
use reactloop::lang::Lang;
use reactloop::llm::{Constrained, LlmError};
use reactloop::settings::{configure, Purpose};
use reactloop::told::{self, found_in, placeholders, Templates, Voice};
use reactloop::trace::Trace;
use serde_json::json;
use std::collections::BTreeSet;

#[test]
fn every_template_is_named_once_and_says_the_same_in_both_languages() {
    let all: Vec<_> = told::all().collect();
    let names: BTreeSet<&str> = all.iter().map(|t| t.name).collect();
    assert_eq!(names.len(), all.len(), "a name is used twice");
    assert!(all.len() >= 90, "{} templates", all.len());
    for t in all {
        let (group, name) = t.name.split_once('.').expect("group.name");
        assert!(!group.is_empty() && !name.is_empty(), "{}", t.name);
        let en: BTreeSet<&str> = placeholders(t.en).into_iter().collect();
        let zh: BTreeSet<&str> = placeholders(t.zh).into_iter().collect();
        assert_eq!(
            en, zh,
            "{}: the languages fill different placeholders",
            t.name
        );
        assert!(
            !t.en.trim().is_empty() && !t.zh.trim().is_empty(),
            "{}",
            t.name
        );
    }
}

fn config(texts: &[(&str, &str)]) -> AgentConfig {
    AgentConfig {
        constrained: Constrained::Off,
        prompt: reactloop::prompt::PromptConfig {
            texts: (texts.iter())
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect::<Templates>(),
            ..Default::default()
        },
        ..AgentConfig::default()
    }
}

/// The model's reply is a Thought alone: the format feedback goes back as the Observation.
const THOUGHT_ONLY: &str = "Thought: I will think about it";

/// The run of "What is 6*7?" under `config` with these replies.
fn run(config: AgentConfig, replies: &[Option<&'static str>]) -> Trace {
    common::drive(
        common::agent(config),
        replies,
        LlmError::Aborted,
        AtEnd::Leave,
    )
    .trace
}

/// The templates the request of step `at` (from 0) sent first, as the trace's view says.
fn sent_first(trace: &Trace, at: usize) -> Vec<String> {
    let view = reactloop::view::trace(trace, "http://localhost").unwrap();
    serde_json::from_value(view["steps"][at]["view"]["texts"].clone()).unwrap()
}

#[test]
fn a_runs_own_text_is_what_the_model_is_sent_and_the_trace_says_where() {
    let own = "Only a Thought, {placeholder}. Now write the Action line.";
    let trace = run(
        config(&[("format.thought_only", own)]),
        &[Some(THOUGHT_ONLY), Some(common::FINAL)],
    );
    let sent: String = (trace.steps[1].request.messages.iter())
        .map(|m| m.content.as_str())
        .collect();
    // Its placeholder filled, an unknown one kept as written; the built-in text not sent.
    assert!(
        sent.contains("Observation: Only a Thought, {placeholder}. Now write the Action line."),
        "{sent}"
    );
    assert!(!sent.contains("You gave only a Thought"), "{sent}");
    assert_eq!(sent_first(&trace, 0), Vec::<String>::new());
    assert!(sent_first(&trace, 1).contains(&"format.thought_only".into()));
    // The same run with the built-in text: found as well, under the same name.
    let trace = run(config(&[]), &[Some(THOUGHT_ONLY), Some(common::FINAL)]);
    assert!(sent_first(&trace, 1).contains(&"format.thought_only".into()));
}

#[test]
fn a_name_no_template_has_is_refused_in_both_languages() {
    let refused = configure(
        json!({"demo": true, "texts": {"format.no_such": "x"}}),
        Purpose::Run,
    )
    .unwrap_err();
    let text = reactloop::sentences::settings_error(&refused);
    assert!(text.en.contains("\"format.no_such\""), "{}", text.en);
    assert!(text.zh.contains("“format.no_such”"), "{}", text.zh);
    // A known name is taken.
    let ok = configure(
        json!({"demo": true, "texts": {"note.empty_result": "(nothing)"}}),
        Purpose::Run,
    )
    .unwrap();
    assert_eq!(
        ok.agent.prompt.texts.get("note.empty_result").unwrap(),
        "(nothing)"
    );
}

#[test]
fn each_template_is_found_where_it_was_sent_and_not_elsewhere() {
    for lang in [Lang::En, Lang::Zh] {
        let voice = Voice::from(lang);
        let note = told::empty_result(voice);
        assert_eq!(found_in(&note, voice), ["note.empty_result"]);
        let omitted = told::steps_omitted(3, voice);
        assert_eq!(found_in(&omitted, voice), ["history.steps_omitted"]);
        assert!(found_in("Observation: 42", voice).is_empty());
    }
    // A run's own text is looked for, not the built-in one.
    let texts = [(
        "note.empty_result".to_string(),
        "(returned nothing at all)".to_string(),
    )]
    .into_iter()
    .collect::<Templates>();
    let voice = Voice {
        lang: Lang::En,
        custom: Some(&texts),
    };
    assert_eq!(
        found_in("(returned nothing at all)", voice),
        ["note.empty_result"]
    );
    assert!(found_in("(The tool returned nothing.)", voice).is_empty());
}

/// A Chinese text is found as its English one is: a CJK character weighs as two letters, so
/// each template with a piece of ten letters' worth in English has one in Chinese too (short
/// words and placeholders alone are never found, `{tool}: {message}`), and each of those is
/// found in its own text, filled.
#[test]
fn a_chinese_text_is_found_where_its_english_one_is() {
    let mut missing = Vec::new();
    for template in told::all() {
        let found = |lang: Lang| {
            let voice = Voice::from(lang);
            let args: Vec<(&str, &dyn std::fmt::Display)> = (template.placeholders().into_iter())
                .map(|name| (name, &"X7" as &dyn std::fmt::Display))
                .collect();
            found_in(&voice.say(template, &args), voice).contains(&template.name)
        };
        if found(Lang::En) && !found(Lang::Zh) {
            missing.push(format!("{}: {:?}", template.name, template.zh));
        }
    }
    assert!(
        missing.is_empty(),
        "found in English, not in Chinese:\n{}",
        missing.join("\n")
    );
}

#[test]
fn an_opening_is_found_at_the_request_that_wrote_it_first_not_in_the_next_one() {
    let config = AgentConfig {
        constrained: Constrained::Grammar,
        ..AgentConfig::default()
    };
    // The reply as the grammar has it begin: with the opening.
    let reply = "Thought: To answer this, I need calculator\nAction: calculator\n\
                 Action Input: {\"expression\": \"6*7\"}";
    let trace = run(config, &[Some(reply), Some(common::FINAL)]);
    let first = trace.steps[0].request.thought_prefix.clone();
    assert!(
        first
            .as_deref()
            .is_some_and(|p| p.starts_with("To answer this, I need")),
        "{first:?}"
    );
    let opening = "opening.choose_tool".to_string();
    assert!(sent_first(&trace, 0).contains(&opening));
    // The next request repeats the reply that opening began: not sent again by the loop.
    let next = sent_first(&trace, 1);
    assert!(!next.contains(&opening), "{next:?}");
    assert!(
        next.contains(&"opening.read_observation".into()),
        "{next:?}"
    );
}
