//! The agent loop, driven natively with scripted models: every guard, both message styles,
//! the demo model, and the trace format.

use reactloop::agent::{Agent, AgentError, Next, ToolResult};
use reactloop::ask::{Avoid, AvoidWhy, ModelRequest, MustAnswer};
use reactloop::config::AgentConfig;
use reactloop::drive::run_to_end;
use reactloop::history::MessageStyle;
use reactloop::lang::Lang;
use reactloop::llm::{Constrained, LlmError, Message, Role, ServerKind};
use reactloop::parse::{FormatError, ParseResult, Parsed, Repair, Span};
use reactloop::tools::{default_documents, HostContext, Registry, ToolError, ToolSpec};
use reactloop::trace::{
    Guard, ModelReply, ObservationSource, Outcome, ServerChoice, Trace, TraceError,
};
use serde_json::json;

const HOST: HostContext = HostContext {
    // 2026-11-30 06:58:07 UTC, a Monday
    now_unix_ms: 1_796_021_887_000.0,
    utc_offset_minutes: 480,
};

fn registry() -> Registry {
    Registry::with_builtins(default_documents())
}

fn reply(text: &str) -> Result<ModelReply, LlmError> {
    Ok(ModelReply {
        text: text.to_string(),
        ..ModelReply::default()
    })
}

/// A model that plays the given replies in order, then repeats the last one.
fn scripted(replies: &[&str]) -> impl FnMut(&ModelRequest) -> Result<ModelReply, LlmError> {
    let replies: Vec<String> = replies.iter().map(|s| s.to_string()).collect();
    let mut i = 0;
    move |_| {
        let text = replies[i.min(replies.len() - 1)].clone();
        i += 1;
        reply(&text)
    }
}

fn run(question: &str, config: AgentConfig, replies: &[&str]) -> (Outcome, Trace) {
    let mut agent = Agent::new(question, registry(), config);
    let outcome = run_to_end(&mut agent, &HOST, scripted(replies));
    (outcome, agent.trace().clone())
}

/// The run's own messages: from its question on (the system prompt left out).
fn own(messages: &[Message]) -> &[Message] {
    let question = messages
        .iter()
        .rposition(|m| m.role == Role::User && m.content.starts_with("Question:"))
        .expect("a question");
    &messages[question..]
}

/// The chat layout (a user message per Observation), which unconstrained runs leave for the
/// transcript unless asked for.
fn chat() -> AgentConfig {
    AgentConfig {
        style: MessageStyle::Chat,
        ..AgentConfig::default()
    }
}

fn guards(trace: &Trace) -> Vec<&Guard> {
    trace.steps.iter().flat_map(|s| s.guards.iter()).collect()
}

/// The question most runs here ask: the calculator is about it.
const Q: &str = "What is 6 * 7?";
const CALC: &str = "Thought: compute\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}";
const FINAL: &str = "Thought: done\nAction: final_answer\nAction Input: 42";

#[test]
fn a_tool_call_then_a_final_answer() {
    let (outcome, trace) = run("What is 6*7?", AgentConfig::default(), &[CALC, FINAL]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "42".into()
        }
    );
    assert_eq!(trace.steps.len(), 2);
    let first = &trace.steps[0];
    assert_eq!(
        first.call.as_ref().map(|c| c.tool.as_str()),
        Some("calculator")
    );
    let obs = first.observation.as_ref().expect("observation");
    assert_eq!(obs.text, "42");
    assert_eq!(obs.source, ObservationSource::Tool);
    // the second request carries the reply and the observation
    let msgs = own(&trace.steps[1].request.messages);
    assert_eq!(msgs.len(), 2);
    assert_eq!(msgs[1].role, Role::Assistant);
    assert_eq!(msgs[1].content, format!("{CALC}\nObservation: 42"));
    assert!(guards(&trace).is_empty());
}

#[test]
fn every_request_carries_the_stop_sequence() {
    let (_, trace) = run(Q, AgentConfig::default(), &[CALC, FINAL]);
    for step in &trace.steps {
        assert_eq!(step.request.stop, vec!["Observation:".to_string()]);
    }
}

#[test]
fn chat_requests_only_ever_append() {
    // The last call computes the answer FINAL gives.
    let calls: Vec<String> = (3..8)
        .map(|i| format!("Action: calculator\nAction Input: {{\"expression\": \"6*{i}\"}}"))
        .collect();
    let mut script: Vec<&str> = calls.iter().map(String::as_str).collect();
    script.push(FINAL);
    let (outcome, trace) = run(Q, chat(), &script);
    assert!(outcome.finished());
    for pair in trace.steps.windows(2) {
        let (a, b) = (&pair[0].request.messages, &pair[1].request.messages);
        assert_eq!(
            &b[..a.len()],
            &a[..],
            "step {} is not an extension",
            pair[1].index
        );
    }
}

#[test]
fn the_step_limit_stops_the_run_and_keeps_the_last_observation() {
    let calls: Vec<String> = (0..10)
        .map(|i| format!("Action: calculator\nAction Input: {{\"expression\": \"{i}*2\"}}"))
        .collect();
    let script: Vec<&str> = calls.iter().map(String::as_str).collect();
    let config = AgentConfig {
        max_steps: 4,
        ..AgentConfig::default()
    };
    let (outcome, trace) = run(Q, config, &script);
    assert_eq!(
        outcome,
        Outcome::StepLimit {
            steps: 4,
            last_observation: Some("6".into())
        }
    );
    assert_eq!(trace.steps.len(), 4);
    assert!(matches!(
        trace.steps[3].guards.last(),
        Some(Guard::StepLimit { steps: 4 })
    ));
}

#[test]
fn format_errors_are_fed_back_and_three_in_a_row_stop_the_run() {
    let (outcome, trace) = run(Q, AgentConfig::default(), &["I think it is 42."]);
    assert_eq!(outcome, Outcome::FormatErrors { count: 3 });
    assert_eq!(trace.steps.len(), 3);
    let feedback = trace.steps[0].observation.as_ref().expect("feedback");
    assert_eq!(feedback.source, ObservationSource::Feedback);
    assert!(feedback.text.contains("Action"), "{}", feedback.text);
    let counts: Vec<usize> = guards(&trace)
        .iter()
        .filter_map(|g| match g {
            Guard::FormatFeedback { consecutive, .. } => Some(*consecutive),
            _ => None,
        })
        .collect();
    assert_eq!(counts, vec![1, 2, 3]);
    // the feedback reaches the model as the next observation
    let next = &trace.steps[1].request.messages;
    let sent = format!("Observation: {}", feedback.text);
    assert!(next.last().is_some_and(|m| m.content.ends_with(&sent)));
}

#[test]
fn a_good_reply_resets_the_format_error_count() {
    let (outcome, _) = run(
        "q",
        AgentConfig::default(),
        &["prose", "prose", CALC, "prose", "prose", FINAL],
    );
    assert!(outcome.finished(), "{outcome:?}");
}

/// Grammar mode, without the first-step rule, so each request shows only what the last
/// reply caused.
/// The grammar with the defaults (act first).
fn grammar() -> AgentConfig {
    AgentConfig {
        constrained: Constrained::Grammar,
        ..AgentConfig::default()
    }
}

/// The same settings with the Chinese prompt.
fn in_chinese(config: AgentConfig) -> AgentConfig {
    AgentConfig {
        prompt: reactloop::prompt::PromptConfig {
            lang: Lang::Zh,
            ..Default::default()
        },
        ..config
    }
}

/// No constraint, so no server to ask about: the driver feeds the model at once.
fn unconstrained() -> AgentConfig {
    AgentConfig {
        constrained: Constrained::Off,
        ..AgentConfig::default()
    }
}

fn constrained() -> AgentConfig {
    AgentConfig {
        constrained: Constrained::Grammar,
        act_first: false,
        ..AgentConfig::default()
    }
}

#[test]
fn a_final_answer_that_is_a_tools_arguments_counts_only_once_observed() {
    let as_answer =
        |input: &str| format!("Thought: t\nAction: final_answer\nAction Input: {input}");
    let (early, late) = (
        as_answer(r#"{"expression": "6*7"}"#),
        as_answer(r#"{"expression": "42"}"#),
    );
    // Before any Observation the model meant to call the calculator: the call is run.
    for input in [
        r#"{"expression": "6*7"}"#,
        r#"{"expression": "6*7", "top_k": 3}"#,
    ] {
        let (outcome, trace) = run(Q, AgentConfig::default(), &[&as_answer(input), &late]);
        assert_eq!(
            outcome,
            Outcome::Answer {
                answer: "42".into()
            },
            "{input}"
        );
        let first = &trace.steps[0];
        assert_eq!(
            first.call.as_ref().map(|c| c.tool.as_str()),
            Some("calculator")
        );
        assert_eq!(
            first.observation.as_ref().map(|o| o.text.as_str()),
            Some("42")
        );
        let repairs = &first.parse.as_ref().expect("parse").repairs;
        assert!(repairs.contains(&Repair::ArgumentsRunAsCall), "{repairs:?}");
        // The last answer's text ("42") had been observed, so it is accepted unwrapped.
        assert!(trace.steps[1].guards.is_empty());
    }
    // Arguments the tool cannot run are neither an answer nor a call: the model is told, and
    // constrained modes leave final_answer out of the next reply only.
    let shakespeare = as_answer(r#"{"expression": "William Shakespeare"}"#);
    let (outcome, trace) = run(Q, constrained(), &[&shakespeare, CALC, &late]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "42".into()
        }
    );
    assert!(matches!(
        &trace.steps[0].guards[..],
        [Guard::FormatFeedback { error: FormatError::ArgumentsAsAnswer { tool }, .. }] if tool == "calculator"
    ));
    let feedback = &trace.steps[0].observation.as_ref().expect("feedback").text;
    assert!(feedback.contains("Action: calculator"), "{feedback}");
    let avoided: Vec<Option<&str>> = trace
        .steps
        .iter()
        .map(|s| s.request.avoid.as_ref().map(|a| a.tool.as_str()))
        .collect();
    assert_eq!(avoided, [None, Some("final_answer"), None]);
    // The arguments of a call already made point at its result, which becomes the answer.
    let (outcome, trace) = run(Q, AgentConfig::default(), &[CALC, &early]);
    last_parse_answers(&outcome, &trace, "42", Repair::AnswerFromEarlierCall);
    // Keys no tool takes and plain text are answers as they stand.
    for input in [r#"{"value": 2187}"#, "6*7"] {
        let (outcome, _) = run(Q, AgentConfig::default(), &[&as_answer(input)]);
        assert!(outcome.finished(), "{input}: {outcome:?}");
    }
}

#[test]
fn auto_asks_for_the_server_and_constrains_each_request_for_it() {
    let question = "What is 6*7?";
    let mut agent = Agent::new(question, registry(), AgentConfig::default());
    assert_eq!(agent.next(), Next::DetectServer);
    // Nothing else is taken before the answer.
    assert_eq!(
        agent.feed_model(reply(CALC).unwrap()),
        Err(AgentError::NotWaitingForModel)
    );
    let request = &agent.trace().steps[0].request;
    assert_eq!(request.constrained, Constrained::Off);
    assert_eq!(request.stop, ["Observation:"]);
    agent.feed_server(ServerKind::LlamaCppPython).unwrap();
    assert_eq!(
        agent.trace().server,
        Some(ServerChoice {
            kind: ServerKind::LlamaCppPython,
            constrained: Constrained::Grammar
        })
    );
    // Under the grammar: no stop sequence (the grammar ends the reply; a stop would cut a
    // Thought that mentions an Observation), and the first reply must act.
    let Next::CallModel { request } = agent.next() else {
        panic!("no request")
    };
    assert_eq!(request.constrained, Constrained::Grammar);
    assert!(request.stop.is_empty());
    assert_eq!(
        request.avoid,
        Some(Avoid {
            tool: "final_answer".into(),
            why: AvoidWhy::ActFirst
        })
    );
    agent.feed_model(reply(CALC).unwrap()).unwrap();
    // Too late: the choice stands.
    assert_eq!(
        agent.feed_server(ServerKind::Ollama),
        Err(AgentError::NotWaitingForServer)
    );
    assert_eq!(
        agent.trace().server.map(|s| s.kind),
        Some(ServerKind::LlamaCppPython)
    );
    let output = agent.run_builtin(&HOST).expect("built-in");
    agent
        .feed_tool(ToolResult {
            output,
            elapsed_ms: None,
            edited: false,
        })
        .unwrap();
    let Next::CallModel { request } = agent.next() else {
        panic!("no request")
    };
    assert_eq!(request.avoid, None);
    // After a tool's Observation the grammar opens the Thought by reading it, quoting a
    // short result.
    assert_eq!(
        request.thought_prefix.as_deref(),
        Some("The Observation shows 42")
    );
    assert_eq!(request.answer_prefix.as_deref(), Some("The answer is"));
    // The first one opened by choosing a tool: the one the question's numbers point to.
    let first = &agent.trace().steps[0].request;
    assert_eq!(
        first.thought_prefix.as_deref(),
        Some("To answer this, I need calculator")
    );
    // A server nobody knows gets no constraint; a chosen mode is never asked about.
    let mut agent = Agent::new(question, registry(), AgentConfig::default());
    agent.feed_server(ServerKind::Unknown).unwrap();
    let Next::CallModel { request } = agent.next() else {
        panic!("no request")
    };
    assert_eq!(request.constrained, Constrained::Off);
    assert_eq!(request.avoid, None);
    assert_eq!(
        (
            request.thought_prefix.as_deref(),
            request.answer_prefix.as_deref()
        ),
        (None, None)
    );
    let agent = Agent::new(question, registry(), constrained());
    assert!(matches!(agent.next(), Next::CallModel { .. }));
    // The trace keeps the choice through export and import.
    let mut agent = Agent::new(question, registry(), AgentConfig::default());
    agent.feed_server(ServerKind::Vllm).unwrap();
    let json = serde_json::to_string(agent.trace()).unwrap();
    assert_eq!(
        Trace::from_json(&json).unwrap().server,
        agent.trace().server
    );
}

#[test]
fn a_refused_constraint_is_dropped_once_and_the_request_rebuilt() {
    let http = |status| LlmError::Http {
        status,
        url: "http://localhost:8080/v1/chat/completions".into(),
        body_excerpt: String::new(),
        server_message: None,
        models: None,
    };
    let refused = http(500);
    // Not a refusal of the constraint: the run stops on it, to be retried.
    let mut agent = Agent::new(Q, registry(), constrained());
    agent.feed_model_error(http(401)).unwrap();
    assert!(matches!(
        agent.next(),
        Next::Done {
            outcome: Outcome::ModelError { .. }
        }
    ));
    let mut agent = Agent::new(Q, registry(), constrained());
    agent.feed_model_error(refused.clone()).unwrap();
    let Next::CallModel { request } = agent.next() else {
        panic!("no request")
    };
    assert_eq!(request.constrained, Constrained::Off);
    assert_eq!(request.stop, ["Observation:"]);
    assert!(matches!(
        &agent.trace().steps[0].guards[..],
        [Guard::ConstraintDropped {
            constrained: Constrained::Grammar,
            ..
        }]
    ));
    let explanation = reactloop::sentences::guard(&agent.trace().steps[0].guards[0]).en;
    assert!(explanation.contains("grammar"), "{explanation}");
    // Once: the next refusal is a model error like any other.
    let mut again = agent.clone();
    again.feed_model_error(refused).unwrap();
    assert!(matches!(
        again.next(),
        Next::Done {
            outcome: Outcome::ModelError { .. }
        }
    ));
    agent.feed_model(reply(CALC).unwrap()).unwrap();
    assert_eq!(agent.trace().steps.len(), 1);
}

/// Asserts the run answered `answer` through `repair`; returns the last step's parse.
fn last_parse_answers<'t>(
    outcome: &Outcome,
    trace: &'t Trace,
    answer: &str,
    repair: Repair,
) -> &'t ParseResult {
    assert_eq!(
        outcome,
        &Outcome::Answer {
            answer: answer.into()
        }
    );
    let parse = trace
        .steps
        .last()
        .and_then(|s| s.parse.as_ref())
        .expect("parse");
    assert_eq!(parse.repairs, [repair]);
    parse
}

#[test]
fn an_action_input_alone_completes_an_empty_final_answer_just_before() {
    let empty = "Thought: 6*7 is 42\nAction: final_answer";
    for (input, thought) in [
        ("Action Input: 42", None),
        ("Thought: so it is\nAction Input: 42", Some("so it is")),
    ] {
        let (outcome, trace) = run(Q, AgentConfig::default(), &[empty, input]);
        let parse = last_parse_answers(&outcome, &trace, "42", Repair::InputCompletesFinalAnswer);
        // A Thought above the input stays the thought; spans point into this reply's text.
        assert_eq!(parse.thought.as_deref(), thought, "{input:?}");
        let text = |sp: Option<Span>| sp.map(|sp| &input[sp.start..sp.end]);
        assert_eq!(text(parse.spans.answer), Some("42"), "{input:?}");
        assert_eq!(text(parse.spans.thought), thought, "{input:?}");
        assert_eq!(parse.spans.action, None);
    }
    // Elsewhere an input without an action stays a format error.
    let (_, trace) = run(Q, AgentConfig::default(), &["Action Input: 42", FINAL]);
    assert!(matches!(
        &trace.steps[0].guards[..],
        [Guard::FormatFeedback {
            error: FormatError::InputWithoutAction,
            ..
        }]
    ));
}

#[test]
fn repeated_calls_reuse_the_result_then_stop() {
    let (outcome, trace) = run(Q, constrained(), &[CALC]);
    assert_eq!(
        outcome,
        Outcome::RepeatedCalls {
            tool: "calculator".into()
        }
    );
    // the first call runs, repeats 1 and 2 are served from the cache, repeat 3 stops
    assert_eq!(trace.steps.len(), 4);
    let cached = trace.steps[1].observation.as_ref().expect("cached");
    assert_eq!(cached.source, ObservationSource::Cached);
    assert!(cached.text.starts_with("42\n"));
    assert!(cached.text.contains("already called calculator"));
    assert!(matches!(
        trace.steps[3].guards.last(),
        Some(Guard::TooManyRepeats { repeats: 3, .. })
    ));
    // Only a request that follows a repeat asks constrained modes to leave the tool out.
    let avoided: Vec<Option<&str>> = trace
        .steps
        .iter()
        .map(|s| s.request.avoid.as_ref().map(|a| a.tool.as_str()))
        .collect();
    assert_eq!(
        avoided,
        [None, None, Some("calculator"), Some("calculator")]
    );
    // The result of a call that succeeded is in hand: only the answer is left to write.
    let must: Vec<Option<MustAnswer>> = trace.steps.iter().map(|s| s.request.must_answer).collect();
    let again = Some(MustAnswer::RepeatedCall);
    assert_eq!(must, [None, None, again, again]);
    // The last step the limit allows can only answer.
    let config = AgentConfig {
        max_steps: 3,
        ..constrained()
    };
    let other = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"1+1\"}";
    let (_, trace) = run(Q, config, &[CALC, other, FINAL]);
    let must: Vec<Option<MustAnswer>> = trace.steps.iter().map(|s| s.request.must_answer).collect();
    assert_eq!(must, [None, None, Some(MustAnswer::LastStep)]);
}

/// Without a constraint only words can make the model answer: after it repeated a call that
/// had succeeded, and on the last step, the request ends by asking for the answer, and plain
/// sentences in reply are the answer.
#[test]
fn unconstrained_a_repeated_success_and_the_last_step_ask_for_the_answer() {
    let question = "What is 6*7?";
    let ask = reactloop::prompt::ask_for_answer(
        question,
        Lang::En.into(),
        MustAnswer::RepeatedCall,
        false,
    );
    let again = reactloop::prompt::ask_for_answer(
        question,
        Lang::En.into(),
        MustAnswer::RepeatedCall,
        true,
    );
    let (outcome, trace) = run(
        question,
        AgentConfig::default(),
        &[CALC, CALC, "6 * 7 is 42."],
    );
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "6 * 7 is 42.".into()
        }
    );
    let cached = trace.steps[1].observation.as_ref().expect("cached");
    assert_eq!(cached.text, "42\n(The same call again, the same result.)");
    let must: Vec<Option<MustAnswer>> = trace.steps.iter().map(|s| s.request.must_answer).collect();
    assert_eq!(must, [None, None, Some(MustAnswer::RepeatedCall)]);
    let parse = trace.steps[2].parse.as_ref().expect("parsed");
    assert!(parse.repairs.contains(&Repair::ProseAsAnswer));
    // The transcript's assistant message stays as it was; the request to answer follows it.
    let asked = &trace.steps[2].request.messages;
    let before = &trace.steps[1].request.messages;
    assert_eq!(
        asked.last(),
        Some(&Message {
            role: Role::User,
            content: ask.clone()
        })
    );
    assert_eq!(asked[asked.len() - 2].role, Role::Assistant);
    assert!(asked[asked.len() - 2]
        .content
        .starts_with(&before[before.len() - 1].content));
    // In chat style it closes the Observation's own user message: no two user messages in a row.
    let chat = AgentConfig {
        style: MessageStyle::Chat,
        ..AgentConfig::default()
    };
    let (_, trace) = run(question, chat, &[CALC, CALC, FINAL]);
    let last = trace.steps[2].request.messages.last().expect("messages");
    assert_eq!(last.role, Role::User);
    assert!(last
        .content
        .starts_with("Observation: 42\n(The same call again"));
    assert!(last.content.ends_with(&ask));
    // The last step the limit allows asks too; the steps before it do not.
    let config = AgentConfig {
        max_steps: 3,
        ..AgentConfig::default()
    };
    let other = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"1+1\"}";
    let (outcome, trace) = run(question, config, &[CALC, other, FINAL]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "42".into()
        }
    );
    let must: Vec<Option<MustAnswer>> = trace.steps.iter().map(|s| s.request.must_answer).collect();
    assert_eq!(must, [None, None, Some(MustAnswer::LastStep)]);
    let asking: Vec<bool> = trace
        .steps
        .iter()
        .map(|s| {
            s.request
                .messages
                .last()
                .is_some_and(|m| m.content.ends_with(&ask))
        })
        .collect();
    assert_eq!(asking, [false, false, true]);
    // The placeholder of the answer line copied is not an answer: told so, the model is asked
    // again, without the lines it copied.
    let copied =
        "Thought: I now know the answer.\nAction: final_answer\nAction Input: <the answer>";
    let (outcome, trace) = run(
        question,
        AgentConfig::default(),
        &[CALC, CALC, copied, FINAL],
    );
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "42".into()
        }
    );
    assert!(matches!(
        trace.steps[2].guards.as_slice(),
        [Guard::FormatFeedback {
            error: FormatError::ExampleCopied,
            ..
        }]
    ));
    assert_eq!(
        trace.steps[3].request.must_answer,
        Some(MustAnswer::RepeatedCall)
    );
    let last = trace.steps[3].request.messages.last().expect("messages");
    assert_eq!(last.content, again);
    // A failed call is not invited as the answer: under a constraint the note asks for
    // other arguments or another tool (and the constraint leaves the tool out).
    let bad = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"month()\"}";
    let (_, trace) = run(Q, constrained(), &[bad, bad, FINAL]);
    let cached = trace.steps[1].observation.as_ref().expect("cached");
    assert!(cached
        .text
        .ends_with("Change the arguments, or use another tool.)"));
    assert_eq!(trace.steps[2].request.must_answer, None);
}

/// Without a constraint, a failed call sent again means the tools do not reach the answer
/// (a question of general knowledge, an expression the calculator cannot read): the 0.5B
/// model sent it until the repeat limit ended the run. The request asks for the answer from
/// what the model knows, and plain sentences in reply are the answer.
#[test]
fn unconstrained_a_repeated_failure_asks_for_the_answer_from_what_the_model_knows() {
    let question = "What color do you get by mixing blue and yellow paint?";
    let bad = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"blue + yellow\"}";
    let (outcome, trace) = run(
        question,
        AgentConfig::default(),
        &[bad, bad, "Mixing blue and yellow gives green."],
    );
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "Mixing blue and yellow gives green.".into()
        }
    );
    let cached = trace.steps[1].observation.as_ref().expect("cached");
    assert!(
        cached.text.starts_with("Error: ")
            && cached
                .text
                .ends_with("\n(The same call again, and it failed the same way.)"),
        "{}",
        cached.text
    );
    let must: Vec<Option<MustAnswer>> = trace.steps.iter().map(|s| s.request.must_answer).collect();
    assert_eq!(must, [None, None, Some(MustAnswer::RepeatedFailure)]);
    let ask = reactloop::prompt::ask_for_answer(
        question,
        Lang::En.into(),
        MustAnswer::RepeatedFailure,
        false,
    );
    assert!(ask.contains("from what you know"), "{ask}");
    assert!(!ask.contains("Observations above"), "{ask}");
    let asked = trace.steps[2].request.messages.last().expect("messages");
    assert_eq!(
        (asked.role.clone(), asked.content.as_str()),
        (Role::User, ask.as_str())
    );
    // Another failing call in reply: the run ends at the repeat limit as before.
    let (outcome, _) = run(question, AgentConfig::default(), &[bad, bad, bad]);
    assert!(
        matches!(outcome, Outcome::RepeatedCalls { .. }),
        "{outcome:?}"
    );
    // In Chinese, too.
    let zh = reactloop::prompt::ask_for_answer(
        "天空是什么颜色？",
        Lang::Zh.into(),
        MustAnswer::RepeatedFailure,
        true,
    );
    assert!(
        zh.contains("根据你自己的知识") && zh.contains("天空是什么颜色？"),
        "{zh}"
    );
}

#[test]
fn the_same_arguments_in_another_key_order_are_a_repeat() {
    let reg = {
        let mut r = registry();
        r.register_external(ToolSpec {
            name: "weather".into(),
            description: "Weather for a city.".into(),
            parameters: json!({"type": "object", "properties": {
                "city": {"type": "string"}, "unit": {"type": "string"}}, "required": ["city"]}),
            ..ToolSpec::default()
        })
        .expect("register");
        r
    };
    let mut agent = Agent::new(Q, reg, unconstrained());
    let replies = [
        "Action: weather\nAction Input: {\"city\": \"Paris\", \"unit\": \"C\"}",
        "Action: weather\nAction Input: {\"unit\": \"C\", \"city\": \"Paris\"}",
    ];
    agent.feed_model(reply(replies[0]).unwrap()).unwrap();
    assert!(matches!(agent.next(), Next::RunTool { .. }));
    assert_eq!(
        agent.run_builtin(&HOST),
        None,
        "an external tool is the driver's"
    );
    agent
        .feed_tool(ToolResult {
            output: Ok("sunny".into()),
            elapsed_ms: Some(3.0),
            edited: false,
        })
        .unwrap();
    agent.feed_model(reply(replies[1]).unwrap()).unwrap();
    assert!(matches!(agent.next(), Next::CallModel { .. }));
    let step = &agent.trace().steps[1];
    assert!(matches!(
        step.guards[0],
        Guard::RepeatedCall { repeat: 1, .. }
    ));
}

#[test]
fn a_tool_that_returns_nothing_is_said_to_in_the_runs_language() {
    for (config, said) in [
        (unconstrained(), "(The tool returned nothing.)"),
        (in_chinese(unconstrained()), "（工具没有返回任何内容。）"),
    ] {
        for output in ["", " \n "] {
            let mut agent = Agent::new("What time is it?", registry(), config.clone());
            agent
                .feed_model(reply("Action: current_time\nAction Input: {}").unwrap())
                .unwrap();
            agent
                .feed_tool(ToolResult {
                    output: Ok(output.into()),
                    elapsed_ms: None,
                    edited: false,
                })
                .unwrap();
            let obs = agent.trace().steps[0].observation.clone().expect("obs");
            assert!(obs.text.starts_with(said), "{output:?}: {}", obs.text);
        }
    }
}

#[test]
fn long_observations_are_cut_by_characters_with_a_marker() {
    let mut agent = Agent::new(Q, registry(), unconstrained());
    agent
        .feed_model(reply("Action: search_docs\nAction Input: {\"query\": \"RAG\"}").unwrap())
        .unwrap();
    let long = "中".repeat(2000);
    agent
        .feed_tool(ToolResult {
            output: Ok(long),
            elapsed_ms: None,
            edited: true,
        })
        .unwrap();
    let obs = agent.trace().steps[0].observation.clone().expect("obs");
    assert_eq!(obs.full_chars, 2000);
    assert!(obs.edited);
    assert!(obs.text.starts_with(&"中".repeat(500)));
    assert!(!obs.text.starts_with(&"中".repeat(501)));
    // The note on what the question still needs comes after the cut, which would drop it.
    assert!(obs.text.ends_with(
        "…[truncated: showing 500 of 2000 characters]\n\
         (Next, compute the answer with calculator from what was found.)"
    ));
    assert!(matches!(
        agent.trace().steps[0].guards[0],
        Guard::ObservationTruncated {
            from_chars: 2000,
            to_chars: 500
        }
    ));
}

#[test]
fn the_history_is_trimmed_in_blocks_and_the_trims_are_recorded() {
    // The last call computes the answer FINAL gives.
    let calls: Vec<String> = (0..8)
        .map(|i| format!("{i}+{i}"))
        .chain(["6*7".to_string()])
        .map(|e| format!("Action: calculator\nAction Input: {{\"expression\": \"{e}\"}}"))
        .collect();
    let mut script: Vec<&str> = calls.iter().map(String::as_str).collect();
    script.push(FINAL);
    let config = AgentConfig {
        max_steps: 20,
        history_rounds: 4,
        ..chat()
    };
    let (outcome, trace) = run(Q, config, &script);
    assert!(outcome.finished());
    let sizes: Vec<usize> = trace
        .steps
        .iter()
        .map(|s| own(&s.request.messages).len() + 1)
        .collect();
    // system + question + 2 per kept round; after 5 rounds keep 2, grow to 4, trim again
    assert_eq!(sizes, vec![2, 4, 6, 8, 10, 6, 8, 10, 6, 8]);
    let trims: Vec<(usize, usize)> = guards(&trace)
        .iter()
        .filter_map(|g| match g {
            Guard::HistoryTrimmed {
                dropped_rounds,
                kept_rounds,
            } => Some((*dropped_rounds, *kept_rounds)),
            _ => None,
        })
        .collect();
    assert_eq!(trims, vec![(3, 2), (3, 2)]);
    let question = &own(&trace.steps[5].request.messages)[0].content;
    assert!(
        question.contains("first 3 steps were omitted"),
        "{question}"
    );
}

#[test]
fn a_self_written_observation_is_cut_from_the_history() {
    let (outcome, trace) = run(
        "What is 1 + 1?",
        chat(),
        &[
            "Thought: x\nAction: calculator\nAction Input: {\"expression\": \"1+1\"}\nObservation: 999\nFinal Answer: 999",
            FINAL,
        ],
    );
    assert!(outcome.finished());
    assert!(matches!(
        trace.steps[0].guards[0],
        Guard::SelfObservationCut { .. }
    ));
    let sent = own(&trace.steps[1].request.messages);
    assert!(!sent[1].content.contains("999"));
    assert_eq!(sent[2].content, "Observation: 2");
}

#[test]
fn unknown_tools_and_bad_arguments_are_explained_to_the_model() {
    let (outcome, trace) = run(
        "q",
        AgentConfig::default(),
        &[
            "Action: weather\nAction Input: {\"city\": \"Paris\"}",
            "Action: calculator\nAction Input: {\"foo\": 1}",
            FINAL,
        ],
    );
    assert!(outcome.finished());
    let unknown = trace.steps[0].observation.as_ref().unwrap();
    assert!(unknown.text.contains("calculator"), "{}", unknown.text);
    assert!(matches!(
        trace.steps[0].guards[0],
        Guard::DispatchFailed { .. }
    ));
    let missing = trace.steps[1].observation.as_ref().unwrap();
    assert!(missing.text.contains("expression"), "{}", missing.text);
}

#[test]
fn tool_errors_become_observations() {
    let (outcome, trace) = run(
        "q",
        AgentConfig::default(),
        &[
            "Action: calculator\nAction Input: {\"expression\": \"1/0\"}",
            FINAL,
        ],
    );
    assert!(outcome.finished());
    let obs = trace.steps[0].observation.as_ref().unwrap();
    assert_eq!(obs.source, ObservationSource::ToolError);
    assert!(
        obs.text.to_ascii_lowercase().contains("division by zero"),
        "{}",
        obs.text
    );
    assert!(matches!(trace.steps[0].guards[0], Guard::ToolFailed { .. }));
}

#[test]
fn a_model_error_ends_the_run_and_retry_continues_it() {
    let mut agent = Agent::new(Q, registry(), unconstrained());
    let error = LlmError::Timeout { ms: 1000 };
    agent.feed_model_error(error.clone()).unwrap();
    assert_eq!(
        agent.next(),
        Next::Done {
            outcome: &Outcome::ModelError { error }
        }
    );
    assert!(agent.feed_model(reply(FINAL).unwrap()).is_err());
    agent.retry().unwrap();
    let outcome = run_to_end(&mut agent, &HOST, scripted(&[FINAL]));
    assert!(outcome.finished());
    let trace = agent.trace();
    assert_eq!(trace.steps.len(), 2);
    assert!(trace.steps[0].error.is_some());
    assert_eq!(trace.steps[0].request, trace.steps[1].request);
}

#[test]
fn abort_keeps_the_trace_and_refuses_more_input() {
    let mut agent = Agent::new(Q, registry(), unconstrained());
    agent.feed_model(reply(CALC).unwrap()).unwrap();
    agent.abort(None);
    assert_eq!(agent.trace().outcome, Some(Outcome::Aborted));
    assert!(agent
        .feed_tool(ToolResult {
            output: Err(ToolError::External {
                message: "late".into()
            }),
            elapsed_ms: None,
            edited: false
        })
        .is_err());
    assert_eq!(agent.trace().steps.len(), 1);
}

#[test]
fn the_scratchpad_style_keeps_one_growing_user_message() {
    let config = AgentConfig {
        style: MessageStyle::Scratchpad,
        ..AgentConfig::default()
    };
    let (outcome, trace) = run("What is 6*7?", config, &[CALC, FINAL]);
    assert!(outcome.finished());
    let msgs = own(&trace.steps[1].request.messages);
    assert_eq!(msgs.len(), 1);
    assert!(msgs[0]
        .content
        .starts_with("Question: What is 6*7?\nThought: compute"));
    assert!(msgs[0].content.ends_with("Observation: 42"));
}

#[test]
fn the_transcript_style_keeps_one_growing_assistant_message() {
    let config = AgentConfig {
        style: MessageStyle::Transcript,
        ..AgentConfig::default()
    };
    let other = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"1+1\"}";
    let (outcome, trace) = run("What is 6*7?", config, &[CALC, other, FINAL]);
    assert!(outcome.finished());
    let second = own(&trace.steps[1].request.messages);
    let third = own(&trace.steps[2].request.messages);
    assert_eq!(second.len(), 2);
    assert_eq!(third.len(), 2);
    assert_eq!(third[1].role, Role::Assistant);
    assert_eq!(second[1].content, format!("{CALC}\nObservation: 42"));
    assert_eq!(
        third[1].content,
        format!("{CALC}\nObservation: 42\n{other}\nObservation: 2")
    );
    // `auto`, the default: chat under a constraint, the transcript without.
    let (_, constrained_run) = run("What is 6*7?", grammar(), &[CALC, FINAL]);
    let roles: Vec<&Role> = own(&constrained_run.steps[1].request.messages)
        .iter()
        .map(|m| &m.role)
        .collect();
    assert_eq!(roles, [&Role::User, &Role::Assistant, &Role::User]);
    let (_, unconstrained) = run("What is 6*7?", AgentConfig::default(), &[CALC, FINAL]);
    assert_eq!(own(&unconstrained.steps[1].request.messages), second);
    // Each request extends the one before it.
    let before = &trace.steps[1].request.messages;
    let after = &trace.steps[2].request.messages;
    assert_eq!(before[..before.len() - 1], after[..before.len() - 1]);
    assert!(after[before.len() - 1]
        .content
        .starts_with(&before[before.len() - 1].content));
}

/// The worked example's answer or call, copied word for word, is sent back; where no example
/// was shown (under a constraint), the same words are an answer like any other.
#[test]
fn a_copied_example_is_sent_back() {
    let copied = "Thought: done\nAction: final_answer\nAction Input: (7 + 5) * 3 is 36.";
    let (outcome, trace) = run(
        "What is 6*7?",
        AgentConfig::default(),
        &[copied, CALC, FINAL],
    );
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "42".into()
        }
    );
    assert!(matches!(
        trace.steps[0].guards[..],
        [Guard::FormatFeedback {
            error: FormatError::ExampleCopied,
            ..
        }]
    ));
    let feedback = trace.steps[0].observation.as_ref().expect("feedback");
    assert!(feedback.text.starts_with("That is copied from the example"));
    let example_call = "Action: calculator\nAction Input: {\"expression\": \"(7 + 5) * 3\"}";
    let (_, trace) = run(
        "What is 6*7?",
        AgentConfig::default(),
        &[example_call, CALC, FINAL],
    );
    assert!(trace.steps[0].call.is_none());
    assert!(matches!(
        trace.steps[0].guards[..],
        [Guard::FormatFeedback {
            error: FormatError::ExampleCopied,
            ..
        }]
    ));
    // Asked for in the question, it is a call.
    let (_, trace) = run(
        "What is (7 + 5) * 3?",
        AgentConfig::default(),
        &[example_call, FINAL],
    );
    assert!(trace.steps[0].call.is_some());
    let config = AgentConfig {
        act_first: false,
        ..grammar()
    };
    let (outcome, _) = run("What is 6*7?", config, &[copied]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "(7 + 5) * 3 is 36.".into()
        }
    );
}

/// Without a constraint, the built-in system prompt ends with a worked example for each
/// enabled built-in tool that has one, in the run's language; never under a constraint or
/// with a prompt of the user's.
#[test]
fn unconstrained_runs_get_worked_examples_in_the_system_prompt() {
    let prompt = |config: AgentConfig, registry: Registry| {
        Agent::new("What is 6*7?", registry, config)
            .trace()
            .system_prompt
            .clone()
    };
    let en = prompt(AgentConfig::default(), registry());
    assert!(en.contains("\n\nExample 1:\nQuestion: What is (7 + 5) * 3?\nThought: I need to compute (7 + 5) * 3."), "{en}");
    assert!(en.contains("Observation: 36\nThought: I now know the answer.\nAction: final_answer"));
    assert!(en.contains("Example 2:\nQuestion: According to the documents"));
    let zh = prompt(in_chinese(AgentConfig::default()), registry());
    assert!(
        zh.contains("示例 1:\nQuestion: (7 + 5) * 3 等于多少？"),
        "{zh}"
    );
    assert!(zh.contains("Thought: 我现在知道答案了。"));
    // Only the enabled tools' examples.
    let mut no_calc = registry();
    assert!(no_calc.set_enabled("calculator", false));
    let some = prompt(AgentConfig::default(), no_calc);
    assert!(some.contains("Example 1:\nQuestion: According to the documents"));
    assert!(!some.contains("Example 2"));
    // None under a constraint, with the user's few-shot examples, or when turned off.
    let off = AgentConfig {
        worked_examples: false,
        ..AgentConfig::default()
    };
    let plain = prompt(off, registry());
    assert!(!plain.contains("Example"));
    let with_shots = AgentConfig {
        prompt: reactloop::prompt::PromptConfig {
            few_shot: vec![reactloop::prompt::FewShot {
                question: "2+2?".into(),
                transcript: "Thought: t".into(),
            }],
            ..Default::default()
        },
        ..AgentConfig::default()
    };
    assert!(!prompt(with_shots, registry()).contains("(7 + 5)"));
    assert_eq!(prompt(grammar(), registry()), plain);
    // `auto` decides with the server: llama.cpp takes the grammar, so no examples.
    let mut agent = Agent::new("What is 6*7?", registry(), AgentConfig::default());
    assert_eq!(agent.trace().system_prompt, en);
    agent.feed_server(ServerKind::LlamaCpp).unwrap();
    assert_eq!(agent.trace().system_prompt, plain);
    let Next::CallModel { request } = agent.next() else {
        panic!("a model call")
    };
    assert_eq!(request.messages[0].content, plain);
}

#[test]
fn the_demo_shows_a_repair_and_a_format_correction() {
    let mut agent = Agent::new("What is 23 * 17 + 4?", registry(), AgentConfig::default());
    run_to_end(&mut agent, &HOST, |r| reply(&reactloop::demo::reply(r)));
    let step = &agent.trace().steps[0];
    assert!(!step.parse.as_ref().unwrap().repairs.is_empty());
    assert!(
        !step.call.as_ref().unwrap().notes.is_empty(),
        "tool name and key corrected"
    );

    let mut agent = Agent::new(
        reactloop::demo::QUESTIONS[3].1,
        registry(),
        AgentConfig::default(),
    );
    run_to_end(&mut agent, &HOST, |r| reply(&reactloop::demo::reply(r)));
    assert!(matches!(
        agent.trace().steps[0].guards[0],
        Guard::FormatFeedback { consecutive: 1, .. }
    ));
}

/// Issue 31: Step, Ask the model, change the expression, continue. The demo answers from the
/// Observation the edited call got, and no check meant for a model's own course (the
/// question's 23 unused) second-guesses a run a person steered.
#[test]
fn the_demo_answers_from_an_edited_call_without_being_second_guessed() {
    for question in ["What is 23 * 17 + 4?", reactloop::demo::QUESTIONS[3].1] {
        let mut agent = Agent::new(question, registry(), AgentConfig::default());
        agent.feed_server(ServerKind::Unknown).unwrap();
        // The Chinese script starts with a format mistake: the person edits the next reply.
        if question != "What is 23 * 17 + 4?" {
            let Next::CallModel { request } = agent.next() else {
                panic!("a model call")
            };
            let text = reactloop::demo::reply(request);
            agent.feed_model(reply(&text).unwrap()).unwrap();
        }
        let Next::CallModel { request } = agent.next() else {
            panic!("a model call")
        };
        let asked = reactloop::demo::reply(request);
        let expression = if question.contains("23") {
            "23 * 17 + 4"
        } else {
            "(2^10 - 24) / 8"
        };
        assert!(asked.contains(expression), "{asked}");
        let edited = asked.replace(expression, "100 + 1");
        agent
            .feed_model(ModelReply {
                text: edited,
                edited: true,
                ..ModelReply::default()
            })
            .unwrap();
        let outcome = run_to_end(&mut agent, &HOST, |r| reply(&reactloop::demo::reply(r)));
        let want = if question.contains("23") {
            "The result is 101."
        } else {
            "结果是 101。"
        };
        assert_eq!(
            outcome,
            Outcome::Answer {
                answer: want.into()
            },
            "{question}: {:#?}",
            agent.trace().steps
        );
    }
}

#[test]
fn the_demo_answers_each_example_question() {
    for (_, question) in reactloop::demo::QUESTIONS {
        let mut agent = Agent::new(question, registry(), AgentConfig::default());
        run_to_end(&mut agent, &HOST, |r| reply(&reactloop::demo::reply(r)));
        let outcome = agent.trace().outcome.clone();
        assert!(
            outcome.as_ref().is_some_and(Outcome::finished),
            "{question}: {outcome:?}"
        );
    }
}

#[test]
fn traces_round_trip_through_json_and_check_their_version() {
    let (_, trace) = run("What is 6*7?", AgentConfig::default(), &[CALC, FINAL]);
    let json = serde_json::to_string(&trace).unwrap();
    assert_eq!(Trace::from_json(&json).unwrap(), trace);

    let mut newer: serde_json::Value = serde_json::from_str(&json).unwrap();
    newer["version"] = json!(99);
    assert!(matches!(
        Trace::from_json(&newer.to_string()),
        Err(TraceError::NewerVersion { found: 99, .. })
    ));
    assert!(matches!(
        Trace::from_json("{oops"),
        Err(TraceError::NotJson { .. })
    ));
    assert!(matches!(
        Trace::from_json("{}"),
        Err(TraceError::Invalid { .. })
    ));
    let message = Trace::from_json(r#"{"version": 1, "steps": 3}"#)
        .unwrap_err()
        .to_string();
    assert!(message.contains("not a reactloop trace"), "{message}");
}

/// The trace is read back by hand (`deser`): newer variants come back too.
#[test]
fn a_trace_of_every_kind_of_step_round_trips() {
    let calc = |input: &str| format!("Thought: t\nAction: calculator\nAction Input: {input}");
    let replies = [
        calc(r#"{"expression": "π(3)"}"#),
        "prose".to_string(),
        calc(r#"{"expression": "sqr(4)"}"#),
        calc(r#"{"expression":"17.5% * 2480}"#),
        calc(r#"{"expression":"17.5% * 2480}"#),
        "It is 434.".to_string(),
    ];
    let replies: Vec<&str> = replies.iter().map(String::as_str).collect();
    let (outcome, trace) = run(Q, AgentConfig::default(), &replies);
    assert!(outcome.finished(), "{outcome:?}");
    let json = serde_json::to_string(&trace).unwrap();
    for kind in [
        "constant_called",
        "unclosed_string",
        "repeated_call",
        "format_feedback",
        "prose_as_answer",
    ] {
        assert!(json.contains(kind), "{kind} is not in the trace");
    }
    assert_eq!(Trace::from_json(&json).unwrap(), trace);
}

#[test]
fn a_trace_with_a_bad_version_says_what_is_wrong() {
    let (_, trace) = run("What is 6*7?", AgentConfig::default(), &[CALC, FINAL]);
    let valid = serde_json::to_value(&trace).unwrap();
    let invalid = "This JSON is not a reactloop trace: ";
    let wrong = format!(
        "{invalid}the \"version\" field must be a positive whole number written in digits, \
         like 1; found "
    );
    // (the version, or None to leave it out; the message after `wrong`, or the whole message)
    let cases = [
        (None, format!("{invalid}the \"version\" field is missing")),
        (Some(json!("1")), format!(r#"{wrong}"1""#)),
        (Some(json!(-1)), format!("{wrong}-1")),
        (Some(json!(1e300)), format!("{wrong}1e+300")),
        (Some(json!(1.5)), format!("{wrong}1.5")),
        // A whole number, but serde would refuse it as a u32 with a murkier message.
        (Some(json!(1.0)), format!("{wrong}1.0")),
        (Some(json!(null)), format!("{wrong}null")),
        (Some(json!([1])), format!("{wrong}[1]")),
        // No trace was ever written with version 0: refused, not read as the first version.
        (Some(json!(0)), format!("{wrong}0")),
        // What was found is cut short: the field could hold a whole file.
        (
            Some(json!("a".repeat(100_000))),
            format!("{wrong}\"{}…", "a".repeat(39)),
        ),
    ];
    for (version, want) in cases {
        let mut json = valid.clone();
        match &version {
            Some(v) => json["version"] = v.clone(),
            None => drop(json.as_object_mut().unwrap().remove("version")),
        }
        let got = Trace::from_json(&json.to_string());
        assert!(
            matches!(&got, Err(TraceError::Invalid { .. })),
            "{version:?}: {got:?}"
        );
        assert_eq!(got.unwrap_err().to_string(), want, "{version:?}");
    }
    // A version past u32 is still a newer version, not an invalid one.
    let mut newer = valid.clone();
    newer["version"] = json!(u64::MAX);
    assert!(matches!(
        Trace::from_json(&newer.to_string()),
        Err(TraceError::NewerVersion {
            found: u32::MAX,
            ..
        })
    ));
}

#[test]
fn feeding_out_of_turn_is_refused() {
    let mut agent = Agent::new(Q, registry(), unconstrained());
    assert!(agent
        .feed_tool(ToolResult {
            output: Ok("x".into()),
            elapsed_ms: None,
            edited: false
        })
        .is_err());
    assert!(agent.retry().is_err());
    agent.feed_model(reply(CALC).unwrap()).unwrap();
    assert!(agent.feed_model(reply(CALC).unwrap()).is_err());
}

#[test]
fn a_partial_reply_is_kept_only_by_an_abort_during_a_model_call() {
    let mut agent = Agent::new(Q, registry(), AgentConfig::default());
    agent.abort(Some("Thought: ha".into()));
    let kept = agent.trace().steps[0].reply.clone().expect("kept");
    assert_eq!(kept.text, "Thought: ha");
    agent.abort(Some("other".into()));
    assert_eq!(
        agent.trace().steps[0].reply.as_ref().unwrap().text,
        "Thought: ha"
    );
    // Waiting for its tool, the step has its reply; an empty text is no reply.
    let mut agent = Agent::new(Q, registry(), constrained());
    agent.feed_model(reply(CALC).unwrap()).unwrap();
    agent.abort(Some("Thought: stale".into()));
    assert_eq!(agent.trace().steps[0].reply.as_ref().unwrap().text, CALC);
    let mut agent = Agent::new(Q, registry(), constrained());
    agent.abort(Some(String::new()));
    assert_eq!(agent.trace().steps[0].reply, None);
}

#[test]
fn a_thought_that_ran_on_is_given_back_with_the_action_to_follow() {
    let ran_on = format!(
        "Thought: The Observation shows 42. So the answer is 42. Done. {}",
        "Thanks! ".repeat(100)
    );
    let (outcome, trace) = run(Q, constrained(), &[CALC, &ran_on, FINAL]);
    assert!(outcome.finished(), "{outcome:?}");
    assert!(matches!(
        &trace.steps[1].guards[..],
        [Guard::FormatFeedback {
            error: FormatError::ThoughtOnly,
            ..
        }]
    ));
    let next = &trace.steps[2].request;
    assert_eq!(
        next.thought_prefix.as_deref(),
        Some("The Observation shows 42. So the answer is 42. Done.")
    );
    assert!(next.thought_closed);
    // Other requests leave the Thought open; plain mode has no grammar to close it with.
    assert!(!trace.steps[1].request.thought_closed);
    let (_, trace) = run(Q, AgentConfig::default(), &[CALC, &ran_on, FINAL]);
    assert_eq!(trace.steps[2].request.thought_prefix, None);
    assert!(!trace.steps[2].request.thought_closed);
}

#[test]
fn a_stuck_model_gets_a_different_feedback_each_time() {
    // The plain prompt's classic: an Action with no input, sent again byte for byte.
    let stuck = "Thought: I need the calculator\nAction: calculator";
    let (outcome, trace) = run(
        "q",
        AgentConfig::default(),
        &[stuck, stuck, stuck, CALC, FINAL],
    );
    assert!(outcome.finished(), "{outcome:?}");
    let feedback: Vec<&str> = trace.steps[..3]
        .iter()
        .map(|s| s.observation.as_ref().expect("feedback").text.as_str())
        .collect();
    assert!(
        feedback[0].starts_with("Error: calculator needs"),
        "{}",
        feedback[0]
    );
    assert!(!feedback[0].contains("Reply with"), "{}", feedback[0]);
    assert!(
        feedback[1].contains("Reply with only these three lines:\nThought: <one sentence>\nAction: <one of: calculator, search_docs, current_time, final_answer>"),
        "{}",
        feedback[1]
    );
    assert!(feedback[2].contains("or the task fails"), "{}", feedback[2]);
    let moves: Vec<Vec<&Guard>> = trace.steps[..4]
        .iter()
        .map(|s| {
            s.guards
                .iter()
                .filter(|g| matches!(g, Guard::SecondMove { .. }))
                .collect()
        })
        .collect();
    assert_eq!(
        moves,
        [
            vec![],
            vec![&Guard::SecondMove { repeat: 1 }],
            vec![&Guard::SecondMove { repeat: 2 }],
            vec![]
        ]
    );
    // The same mistake in other words counts too; a new mistake starts over.
    let (_, trace) = run(
        "q",
        AgentConfig::default(),
        &["prose", "other prose", "Action Input: 1", FINAL],
    );
    let repeats: Vec<usize> = trace.steps[..3]
        .iter()
        .map(|s| {
            s.guards
                .iter()
                .filter(|g| matches!(g, Guard::SecondMove { .. }))
                .count()
        })
        .collect();
    assert_eq!(repeats, [0, 1, 0]);
}

#[test]
fn a_failed_tool_reminds_the_model_of_the_others() {
    let words = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"month()\"}";
    let (_, trace) = run("What month is it?", AgentConfig::default(), &[words, FINAL]);
    let observation = trace.steps[0].observation.as_ref().expect("observation");
    assert_eq!(observation.source, ObservationSource::ToolError);
    let (error, others) = observation.text.split_once('\n').expect("two lines");
    assert!(error.starts_with("Error:"), "{error}");
    assert_eq!(
        others,
        "Other tools: search_docs (Searches the reference documents by keywords.); current_time (Returns today's date, the time, the weekday, the month and the year; with days, the date that many days from today.)."
    );
    let zh = in_chinese(AgentConfig::default());
    let (_, trace) = run("现在几月？", zh, &[words, FINAL]);
    let text = &trace.steps[0]
        .observation
        .as_ref()
        .expect("observation")
        .text;
    assert!(text.contains("\n其他工具：search_docs (按关键词"), "{text}");
}

#[test]
fn no_final_answer_before_a_tool_has_run_under_a_constraint() {
    let config = grammar();
    let (outcome, trace) = run(Q, config, &["prose", CALC, FINAL]);
    assert!(outcome.finished(), "{outcome:?}");
    let avoided: Vec<Option<&str>> = trace
        .steps
        .iter()
        .map(|s| s.request.avoid.as_ref().map(|a| a.tool.as_str()))
        .collect();
    // A format error is no tool run: the rule holds until the calculator has answered.
    assert_eq!(avoided, [Some("final_answer"), Some("final_answer"), None]);
}

#[test]
fn a_reply_that_opens_by_echoing_the_observation_still_counts() {
    let echo = "Observation: 42\nThought: done\nAction: final_answer\nAction Input: 42";
    let (outcome, trace) = run("What is 6*7?", AgentConfig::default(), &[CALC, echo]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "42".into()
        }
    );
    let parse = trace.steps[1].parse.as_ref().expect("parse");
    assert_eq!(parse.thought.as_deref(), Some("done"));
}

/// Under the grammar the model's Thought has no colon, so an `Action:` right after it, on
/// the same line, is the Action; a reply cut before its Action Input is only a Thought; a
/// reply with colons in its Thought (edited by hand) is read by the general parser.
#[test]
fn under_the_grammar_an_action_inside_the_thought_line_is_the_action() {
    let reply =
        "Thought: The result is near. Action: calculator\nAction Input: {\"expression\": \"6*7\"}";
    let (outcome, trace) = run(Q, constrained(), &[reply, FINAL]);
    assert!(outcome.finished(), "{outcome:?}");
    let step = &trace.steps[0];
    assert_eq!(
        step.call.as_ref().map(|c| c.tool.as_str()),
        Some("calculator")
    );
    let parse = step.parse.as_ref().expect("parse");
    assert_eq!(parse.thought.as_deref(), Some("The result is near."));
    let text = |span: Option<Span>| span.map(|s| &reply[s.start..s.end]);
    assert_eq!(text(parse.spans.thought), parse.thought.as_deref());
    assert_eq!(text(parse.spans.action), Some("calculator"));
    assert_eq!(text(parse.spans.input), Some("{\"expression\": \"6*7\"}"));
    // Cut off by the token limit inside the Thought or the Action: only a Thought.
    for cut in [
        "Thought: so. Observation 3. Then",
        "Thought: so. Action: calc",
    ] {
        let (_, trace) = run(Q, constrained(), &[cut, CALC, FINAL]);
        assert!(
            matches!(
                &trace.steps[0].guards[..],
                [Guard::FormatFeedback {
                    error: FormatError::ThoughtOnly,
                    ..
                }]
            ),
            "{cut}"
        );
        assert!(trace.steps[1].request.thought_closed);
    }
    // Colons in the model's words: not the grammar's making; the general parser reads it.
    let edited =
        "Thought: Note: compute it\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}";
    let (_, trace) = run(Q, constrained(), &[edited, FINAL]);
    let parse = trace.steps[0].parse.as_ref().expect("parse");
    assert_eq!(parse.thought.as_deref(), Some("Note: compute it"));
    assert_eq!(
        trace.steps[0].call.as_ref().map(|c| c.tool.as_str()),
        Some("calculator")
    );
}

/// A Chinese run talks Chinese to the model: tool errors, format feedback, the note on a
/// repeated call and the second move.
#[test]
fn feedback_speaks_the_runs_language() {
    let zh = in_chinese(AgentConfig::default());
    let month = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"month()\"}";
    let (_, trace) = run(
        "现在几月？",
        zh.clone(),
        &[
            month,
            "随便说说",
            "随便说说",
            "Action: nowhere\nAction Input: {}",
            CALC,
            CALC,
            FINAL,
        ],
    );
    let observations: Vec<&str> = trace
        .steps
        .iter()
        .filter_map(|s| s.observation.as_ref().map(|o| o.text.as_str()))
        .collect();
    assert!(
        observations[0].starts_with("错误：第 1 个位置有未知的名称 'month'"),
        "{}",
        observations[0]
    );
    assert!(
        observations[0].contains("提示：请写数字"),
        "{}",
        observations[0]
    );
    assert!(
        observations[1].starts_with("没有找到 'Action:'"),
        "{}",
        observations[1]
    );
    assert!(
        observations[2].contains("只回复这三行"),
        "{}",
        observations[2]
    );
    assert!(
        observations[3].starts_with("错误：没有名为 'nowhere' 的工具"),
        "{}",
        observations[3]
    );
    assert!(
        observations[5].ends_with("（同样的调用，同样的结果。）"),
        "{}",
        observations[5]
    );
    // The same run in English keeps the English wording.
    let (_, trace) = run("What month?", AgentConfig::default(), &[month, FINAL]);
    let text = &trace.steps[0]
        .observation
        .as_ref()
        .expect("observation")
        .text;
    assert!(text.starts_with("Error: unknown name 'month'"), "{text}");
}

/// Under the grammar a short result is quoted where the next Thought opens; a passage is not.
#[test]
fn a_short_result_opens_the_next_thought_and_a_passage_does_not() {
    let config = grammar();
    let search = "Thought: t\nAction: search_docs\nAction Input: {\"query\": \"RAG\"}";
    let (_, trace) = run(Q, config.clone(), &[CALC, search, FINAL]);
    let prefixes: Vec<Option<&str>> = trace
        .steps
        .iter()
        .map(|s| s.request.thought_prefix.as_deref())
        .collect();
    assert_eq!(
        prefixes[1..],
        [
            Some("The Observation shows 42"),
            Some("The Observation shows")
        ]
    );
}

/// A tool that says its input is not its kind (the calculator given words) is left out of
/// the next constrained reply; a mistake the tool can fix (a misspelt function) keeps it, and
/// a repeated failed call is not invited as the answer.
#[test]
fn a_tool_given_the_wrong_kind_of_input_is_left_out_of_the_next_reply() {
    let config = grammar();
    let calc = |expr: &str| {
        format!("Thought: t\nAction: calculator\nAction Input: {{\"expression\": \"{expr}\"}}")
    };
    let time = "Thought: t\nAction: current_time\nAction Input: {}";
    for words in ["year()", "H2O", "MCP的全称"] {
        let (outcome, trace) = run(Q, config.clone(), &[&calc(words), time, FINAL]);
        assert!(outcome.finished(), "{words}: {outcome:?}");
        let next = &trace.steps[1].request;
        assert_eq!(
            next.avoid.as_ref().map(|a| a.tool.as_str()),
            Some("calculator"),
            "{words}"
        );
        // One step only: after the clock the calculator is offered again.
        assert_eq!(trace.steps[2].request.avoid, None, "{words}");
    }
    let zh = in_chinese(config.clone());
    let (_, trace) = run(Q, zh, &[&calc("month()"), time, FINAL]);
    // The clock answers a Chinese run in Chinese.
    let clock = &trace.steps[1].observation.as_ref().expect("clock").text;
    assert_eq!(
        clock,
        "2026年11月30日 星期一 14:58:07（UTC+08:00）；日期 2026-11-30"
    );
    // A misspelt function and a syntax slip are the calculator's to fix.
    for fixable in ["sqr(16)", "2 +* 3"] {
        let (_, trace) = run(Q, config.clone(), &[&calc(fixable), CALC, FINAL]);
        assert_eq!(trace.steps[1].request.avoid, None, "{fixable}");
        assert_eq!(
            trace.steps[1].request.thought_prefix.as_deref(),
            Some("The Observation shows"),
            "{fixable}"
        );
    }
    // An argument cut off at the token limit leaves its tool out of the next reply, even at
    // the first step (the model did try to act); a short broken JSON does not.
    let endless = format!(
        "Thought: t\nAction: calculator\nAction Input: {{\"expression\": \"{}",
        "8 * 4 - ".repeat(20)
    );
    let (_, trace) = run(Q, config.clone(), &[&endless, FINAL]);
    assert_eq!(
        trace.steps[1].request.avoid,
        Some(Avoid {
            tool: "calculator".into(),
            why: AvoidWhy::Runaway
        })
    );
    // The reader is told why, in each language.
    let view = reactloop::view::step(&trace.steps[1], "").unwrap();
    let said = &view["view"]["avoid"];
    assert!(
        said["en"]
            .as_str()
            .unwrap()
            .contains("calculator ran on to the token limit"),
        "{said}"
    );
    assert!(
        said["zh"].as_str().unwrap().contains("token 上限"),
        "{said}"
    );
    let short = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"2";
    let (_, trace) = run(Q, config.clone(), &[short, FINAL]);
    assert_eq!(
        trace.steps[1]
            .request
            .avoid
            .as_ref()
            .map(|a| a.tool.as_str()),
        Some("final_answer")
    );
    // The same failed call again: the note asks for a change, not for an answer.
    let (_, trace) = run(Q, config, &[&calc("sqr(16)"), &calc("sqr(16)"), FINAL]);
    let note = &trace.steps[1].observation.as_ref().expect("note").text;
    assert!(note.contains("failed the same way"), "{note}");
    assert!(!note.contains("final_answer"), "{note}");
}

/// Under the grammar the first Thought names the tool the question's words point to; the
/// Action stays free, and a question that points nowhere gets the bare opening.
#[test]
fn the_first_thought_names_the_tool_the_question_points_to() {
    let config = grammar();
    let first = |question: &str, config: AgentConfig| {
        let agent = Agent::new(question, registry(), config);
        agent.trace().steps[0].request.clone()
    };
    let request = first("According to the documents, what is RAG?", config.clone());
    assert_eq!(
        request.thought_prefix.as_deref(),
        Some("To answer this, I need search_docs")
    );
    assert_eq!(
        request.avoid.as_ref().map(|a| a.tool.as_str()),
        Some("final_answer")
    );
    assert_eq!(
        first("What is 6*7?", config.clone())
            .thought_prefix
            .as_deref(),
        Some("To answer this, I need calculator")
    );

    let zh = in_chinese(config);
    assert_eq!(
        first("今天星期几？", zh).thought_prefix.as_deref(),
        Some("要回答这个问题，我需要 current_time")
    );
}

/// A Thought that ran on without a sentence end is given back short, cut after a word, so
/// the Action fits in the token limit after it.
#[test]
fn a_run_on_thought_is_given_back_short() {
    let config = grammar();
    let run_on = format!(
        "Thought: The Observation shows{}",
        ", 2026-12-01".repeat(40)
    );
    let (_, trace) = run(Q, config, &[&run_on, FINAL]);
    let next = &trace.steps[1].request;
    assert!(next.thought_closed);
    let given = next.thought_prefix.as_deref().expect("the Thought");
    assert!(given.chars().count() <= 120, "{given}");
    assert!(given.ends_with("2026-12-01"), "{given}");
    assert!(
        given.starts_with("The Observation shows, 2026-12-01"),
        "{given}"
    );
}

/// A model behind a server that reads at most `window` prompt tokens (as Ollama does with a
/// prompt longer than its context): the count it reports stops growing at the window.
fn behind_a_window(
    window: u32,
    replies: &[&str],
) -> impl FnMut(&ModelRequest) -> Result<ModelReply, LlmError> {
    let mut script = scripted(replies);
    move |request| {
        let sent = reactloop::history::estimate(&request.messages);
        let mut reply = script(request)?;
        reply.usage.prompt_tokens = Some(sent.min(window));
        Ok(reply)
    }
}

#[test]
fn a_prompt_the_server_cut_is_named_once_in_the_trace() {
    let search = "Thought: look\nAction: search_docs\nAction Input: {\"query\": \"FAISS\"}";
    let replies = [
        search,
        "Thought: again\nAction: search_docs\nAction Input: {\"query\": \"ReAct\"}",
        "Thought: more\nAction: search_docs\nAction Input: {\"query\": \"BM25\"}",
        "Thought: done\nAction: final_answer\nAction Input: similarity search",
    ];
    let cuts = |window: u32| -> Vec<(usize, u32, u32)> {
        let mut agent = Agent::new("What is FAISS used for?", registry(), chat());
        run_to_end(&mut agent, &HOST, behind_a_window(window, &replies));
        agent
            .trace()
            .steps
            .iter()
            .flat_map(|s| {
                s.guards.iter().filter_map(move |g| match g {
                    Guard::PromptCut { sent, counted } => Some((s.index, *sent, *counted)),
                    _ => None,
                })
            })
            .collect()
    };
    // A window larger than the run: nothing to say.
    assert_eq!(cuts(100_000), []);
    // The first request fits, the history grows past the window: the first step whose
    // count stalls says so, once, with both numbers.
    let first = {
        let agent = Agent::new("What is FAISS used for?", registry(), chat());
        reactloop::history::estimate(&agent.trace().steps[0].request.messages)
    };
    let found = cuts(first + 20);
    assert_eq!(found.len(), 1, "{found:?}");
    let (index, sent, counted) = found[0];
    assert!(index >= 2, "{found:?}");
    assert_eq!(counted, first + 20);
    assert!(sent >= counted + 100, "{found:?}");
    let guard = Guard::PromptCut { sent, counted };
    assert!(reactloop::sentences::guard(&guard)
        .en
        .contains("OLLAMA_CONTEXT_LENGTH"));
    assert!(reactloop::sentences::guard(&guard)
        .zh
        .contains("OLLAMA_CONTEXT_LENGTH"));
}

#[test]
fn a_count_under_half_of_the_sent_prompt_is_a_cut_and_a_tokenizer_is_not() {
    use reactloop::history::cut_by_server;
    // (sent, counted, the request before) → cut?
    let cases = [
        (3000, 2048, None, false),
        (3000, 1400, None, true),
        (800, 300, None, false),
        (1500, 1300, Some((1300, 1250)), false),
        (1500, 1250, Some((1300, 1250)), true),
        (1350, 1250, Some((1300, 1250)), false),
    ];
    for (sent, counted, before, cut) in cases {
        assert_eq!(
            cut_by_server(sent, counted, before),
            cut,
            "{sent} {counted} {before:?}"
        );
    }
}

#[test]
fn a_json_thought_cut_by_the_token_limit_is_given_back_as_the_schemas_const() {
    let schema = AgentConfig {
        constrained: Constrained::JsonSchema,
        act_first: false,
        ..AgentConfig::default()
    };
    let call = r#"{"thought": "Compute it.", "action": "calculator", "action_input": {"expression": "6*7"}}"#;
    // Cut inside the thought, mid-sentence, after an escaped quote.
    let cut = "{\n  \"thought\": \"The Observation shows 42. The \\\"formula\\\" is P(1 + r)^n. So the answer is 42. Then, where P is";
    let answer =
        r#"{"thought": "done", "action": "final_answer", "action_input": "The answer is 42."}"#;
    let (outcome, trace) = run(Q, schema.clone(), &[call, cut, answer]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "The answer is 42.".into()
        }
    );
    assert!(matches!(
        &trace.steps[1].guards[..],
        [Guard::FormatFeedback {
            error: FormatError::ThoughtOnly,
            ..
        }]
    ));
    let next = &trace.steps[2].request;
    assert_eq!(
        next.thought_prefix.as_deref(),
        Some("The Observation shows 42. The \"formula\" is P(1 + r)^n. So the answer is 42.")
    );
    assert!(next.thought_closed);
    let body = reactloop::ask::chat_body(
        &reactloop::llm::ClientConfig::new("http://localhost:11434/v1", "m"),
        next,
        &trace.tools,
    );
    let branches = body["response_format"]["json_schema"]["schema"]["anyOf"]
        .as_array()
        .unwrap();
    for branch in branches {
        // Its quotes as apostrophes: a JSON-schema converter may not escape them.
        assert_eq!(
            branch["properties"]["thought"]["const"],
            "The Observation shows 42. The 'formula' is P(1 + r)^n. So the answer is 42."
        );
    }
    // A reply whose thought closes is read as a whole, cut or not after it.
    let (_, trace) = run(
        "q",
        schema,
        &["{\"thought\": \"Compute it.\", \"action\": \"calcul", FINAL],
    );
    assert!(!matches!(
        &trace.steps[0].guards[..],
        [Guard::FormatFeedback {
            error: FormatError::ThoughtOnly,
            ..
        }]
    ));
}

#[test]
fn an_answer_that_leaves_out_a_number_of_the_question_is_sent_back_once() {
    let clock = "Thought: t\nAction: current_time\nAction Input: {}";
    let early = "Thought: t\nAction: final_answer\nAction Input: The answer is 2025";
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"2025 - 1969\"}";
    let done = "Thought: t\nAction: final_answer\nAction Input: The answer is 56";
    let question = "How many years have passed since 1969?";
    let (outcome, trace) = run(question, grammar(), &[clock, early, calc, done]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "The answer is 56".into()
        }
    );
    assert!(matches!(
        &trace.steps[1].guards[..],
        [Guard::FormatFeedback { error: FormatError::NumberUnused { number }, .. }] if number == "1969"
    ));
    let feedback = &trace.steps[1].observation.as_ref().expect("feedback").text;
    assert!(
        feedback.contains("1969") && feedback.contains("tool"),
        "{feedback}"
    );
    // Under a constraint the next reply cannot answer again before a tool has run, and its
    // Thought opens on the number to use.
    let next = &trace.steps[2].request;
    assert_eq!(
        next.avoid.as_ref().map(|a| a.tool.as_str()),
        Some("final_answer")
    );
    assert_eq!(
        next.thought_prefix.as_deref(),
        Some("To use the 1969 of the question, I need the calculator to compute")
    );
    // Said once: the same answer a second time stands.
    let (outcome, trace) = run(question, grammar(), &[clock, early, early]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "The answer is 2025".into()
        }
    );
    assert_eq!(trace.steps.len(), 3);
    // In Chinese, the feedback is Chinese.
    let (_, trace) = run(
        "100 天之后是星期几？",
        in_chinese(grammar()),
        &[
            clock,
            "Thought: t\nAction: final_answer\nAction Input: 答案是 5",
            done,
        ],
    );
    let feedback = &trace.steps[1].observation.as_ref().expect("feedback").text;
    assert!(feedback.contains("问题里的 100"), "{feedback}");
}

/// After a search found the answer, a calculation for a question without numbers sends the
/// model back to what the search found, not to what it knows (the 1.5B model found "Let's
/// think step by step", computed `1 + 1`, was told to answer from what it knows and answered 2).
#[test]
fn a_calculation_without_numbers_after_a_search_points_back_at_what_it_found() {
    let question = "Which sentence does the reference material suggest adding to a prompt?";
    let search = "Thought: t\nAction: search_docs\nAction Input: {\"query\": \"chain-of-thought\"}";
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"1 + 1\"}";
    let done = "Thought: t\nAction: final_answer\nAction Input: Let's think step by step";
    for (lang, config, note, opening) in [
        (
            "en",
            grammar(),
            "Answer with what the search_docs result above says.",
            "The search_docs Observation shows",
        ),
        (
            "zh",
            in_chinese(grammar()),
            "请用上面 search_docs 的结果作答。",
            "search_docs 的 Observation 显示",
        ),
    ] {
        let (outcome, trace) = run(question, config, &[search, calc, done]);
        assert!(
            matches!(outcome, Outcome::Answer { .. }),
            "{lang}: {outcome:?}"
        );
        let observation = &trace.steps[1].observation.as_ref().expect("result").text;
        assert!(observation.contains(note), "{lang}: {observation}");
        let next = &trace.steps[2].request;
        assert_eq!(next.must_answer, Some(MustAnswer::FoundBefore), "{lang}");
        assert_eq!(next.thought_prefix.as_deref(), Some(opening), "{lang}");
    }
    // Without a constraint the request asks for the answer from the Observations.
    let (_, trace) = run(question, chat(), &[search, calc, done]);
    let last = trace.steps[2].request.messages.last().expect("a message");
    assert!(
        last.content.contains("from the Observations above"),
        "{}",
        last.content
    );
}

/// The 1.5B model answered with the note's own words ("The answer is to come from the
/// search_docs result above."): a note is sent back, and the answer after it stands.
#[test]
fn an_answer_that_repeats_the_loops_note_is_sent_back() {
    let question = "Which sentence does the reference material suggest adding to a prompt?";
    let search = "Thought: t\nAction: search_docs\nAction Input: {\"query\": \"chain-of-thought\"}";
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"1 + 1\"}";
    let done = "Thought: t\nAction: final_answer\nAction Input: Let's think step by step";
    for (lang, config, copied, told) in [
        (
            "en",
            grammar(),
            "The answer is Answer with what the search_docs result above says.",
            "repeats a note of the loop",
        ),
        (
            "zh",
            in_chinese(grammar()),
            "答案是请用上面 search_docs 的结果作答。",
            "重复了循环给你的提示",
        ),
    ] {
        let copied = format!("Thought: t\nAction: final_answer\nAction Input: {copied}");
        let (outcome, trace) = run(question, config, &[search, calc, &copied, done]);
        assert_eq!(
            outcome,
            Outcome::Answer {
                answer: "Let's think step by step".into()
            },
            "{lang}"
        );
        let step = &trace.steps[2];
        assert_eq!(
            step.parse.as_ref().map(|p| &p.parsed),
            Some(&Parsed::Error {
                error: FormatError::NoteCopied
            }),
            "{lang}"
        );
        let feedback = &step.observation.as_ref().expect("feedback").text;
        assert!(feedback.contains(told), "{lang}: {feedback}");
    }
}

/// A question without numbers can still need a calculation on what a tool gave: the 1.5B model
/// read 14 March from the clock and computed `31 - 14` for the days left in the month, and was
/// told the calculation was not about the question.
#[test]
fn a_calculation_with_a_number_a_tool_gave_is_about_the_question() {
    let question = "How many days are left in the current month, not counting today?";
    let clock = "Thought: t\nAction: current_time\nAction Input: {}";
    // The clock says Monday, 30 November 2026.
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"30 - 30\"}";
    let done = "Thought: t\nAction: final_answer\nAction Input: 0";
    for config in [grammar(), chat()] {
        let (outcome, trace) = run(question, config, &[clock, calc, done]);
        assert_eq!(outcome, Outcome::Answer { answer: "0".into() });
        let observation = &trace.steps[1].observation.as_ref().expect("result").text;
        assert_eq!(observation, "0");
        assert_eq!(trace.steps[2].request.must_answer, None);
    }
    // A number the clock did not give leaves the calculation unrelated, as before.
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"9 * 9\"}";
    let (_, trace) = run(question, grammar(), &[clock, calc, done]);
    let observation = &trace.steps[1].observation.as_ref().expect("result").text;
    assert!(
        observation.contains("current_time result above"),
        "{observation}"
    );
}

#[test]
fn a_calculation_for_a_question_without_numbers_is_not_about_it() {
    let calc = "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"1 + 1\"}";
    let done = "Thought: t\nAction: final_answer\nAction Input: The answer is Paris";
    let (outcome, trace) = run("What is the capital of France?", grammar(), &[calc, done]);
    assert_eq!(
        outcome,
        Outcome::Answer {
            answer: "The answer is Paris".into()
        }
    );
    let observation = &trace.steps[0].observation.as_ref().expect("result").text;
    assert!(
        observation.starts_with("2\n") && observation.contains("no numbers"),
        "{observation}"
    );
    // Only the answer is left, from what the model knows; the unrelated result is not quoted
    // where the Thought opens.
    let next = &trace.steps[1].request;
    assert_eq!(next.must_answer, Some(MustAnswer::NoToolFits));
    assert_eq!(
        next.thought_prefix.as_deref(),
        Some("No tool answers this, so I answer from what I know")
    );
    // Without a constraint the request ends by asking for the answer from what it knows.
    let (_, trace) = run("What is the capital of France?", chat(), &[calc, done]);
    let last = trace.steps[1].request.messages.last().expect("a message");
    assert!(
        last.content.contains("from what you know"),
        "{}",
        last.content
    );
    let (_, trace) = run(
        "中国的首都是哪座城市？",
        in_chinese(grammar()),
        &[calc, done],
    );
    let observation = &trace.steps[0].observation.as_ref().expect("result").text;
    assert!(observation.contains("问题里没有数字"), "{observation}");
    // A question with a number, in digits or in words, keeps its calculation as it is.
    for question in [
        "What is 6 * 7?",
        "What is half of seven?",
        "三的平方是多少？",
    ] {
        let (_, trace) = run(question, grammar(), &[calc, done]);
        let observation = &trace.steps[0].observation.as_ref().expect("result").text;
        assert_eq!(observation, "2", "{question}");
    }
}
