//! Every variant of every enum a trace holds comes back from `Trace::from_json`.
//!
//! Serialising is derived, but reading is the crate's own (`src/fields.rs`: each tagged
//! enum's reader generated from its variant list, each struct's a literal). A scripted run only
//! produces some kinds, so the samples here are written out, one of every variant (nested ones
//! inside each variant that holds them), with fields away from their defaults so that a reader
//! that drops or misnames a field is caught too; a fieldless enum's samples are its `ALL`, so
//! its new variant needs nothing here, nor does a new guard (each one's run in
//! `src/sentences/guards.rs` reads its trace back). Each sample is put in a real trace alone,
//! and then all of them together; a failure names the samples that did not come back.

mod common;

use std::fmt::Debug;

use common::{full_request, CALC, FINAL, HOST};
use reactloop::agent::Agent;
use reactloop::ask::{Avoid, AvoidWhy, ModelRequest, MustAnswer, Steer, SteerWhy};
use reactloop::config::AgentConfig;
use reactloop::drive::run_to_end;
use reactloop::history::MessageStyle;
use reactloop::lang::Lang;
use reactloop::llm::{
    Constrained, LlmError, Message, Oversized, PageModelCode, Role, ServerKind, Usage,
};
use reactloop::parse::{FormatError, ParseResult, Parsed, Repair, Span, Spans};
use reactloop::prompt::{FewShot, PromptConfig};
use reactloop::strategy::{Compress, Strategy};
use reactloop::told::Templates;
use reactloop::tools::{
    default_documents, Builtin, CalcError, DispatchError, Note, Registry, ToolCall, ToolError,
};
use reactloop::trace::{
    Guard, ModelReply, Observation, ObservationSource, Outcome, ServerChoice, Step, Trace,
};
use serde_json::json;

// ---------------------------------------------------------------------------------------------
// Samples. Each list has one value of every variant; the `covered` functions below match each
// sample without a `_` arm (but a guard's, whose runs are elsewhere), so a new variant fails to
// compile there: add a sample above it.

fn calc_errors() -> Vec<CalcError> {
    vec![
        CalcError::Empty,
        CalcError::TooLong {
            len: 1201,
            max: 1000,
        },
        CalcError::TooDeep { max: 65 },
        CalcError::UnexpectedChar { ch: '€', pos: 7 },
        CalcError::UnexpectedToken {
            token: ")".into(),
            pos: 4,
        },
        CalcError::UnexpectedEnd,
        CalcError::UnclosedParen { pos: 3 },
        CalcError::UnexpectedCloseParen { pos: 9 },
        CalcError::UnknownName {
            name: "sqr".into(),
            pos: 2,
        },
        CalcError::MissingParens {
            name: "sqrt".into(),
        },
        CalcError::ConstantCalled {
            name: "pi".into(),
            pos: 5,
        },
        CalcError::WrongArgCount {
            function: "max".into(),
            expected: "at least 1".into(),
            got: 3,
        },
        CalcError::DivisionByZero,
        CalcError::Overflow,
        CalcError::InvalidArgument {
            function: "sqrt".into(),
            reason: "a negative number".into(),
        },
    ]
}

fn tool_errors() -> Vec<ToolError> {
    let mut out: Vec<ToolError> = calc_errors()
        .into_iter()
        .map(ToolError::Calculator)
        .collect();
    out.extend([
        ToolError::NoDocuments,
        ToolError::EmptyQuery,
        ToolError::NoMatch {
            query: "tallest tower".into(),
            topics: vec!["ReAct".into(), "Tokenizers".into()],
        },
        // Finite, so that it is written as a number (a NaN would be written as null).
        ToolError::InvalidClock {
            now_unix_ms: 9.5e15,
            utc_offset_minutes: -1500,
        },
        ToolError::InvalidInput {
            tool: "calculator".into(),
            message: "expression must be a string".into(),
        },
        ToolError::NotBuiltin {
            tool: "weather".into(),
        },
        ToolError::NoImplementation {
            tool: "weather".into(),
        },
        ToolError::External {
            message: "weather service down".into(),
        },
        ToolError::ScriptThrew {
            tool: "js_tool".into(),
            message: "boom".into(),
        },
        ToolError::ScriptRejected {
            tool: "js_tool".into(),
            message: "boom".into(),
        },
        ToolError::ScriptTimedOut {
            tool: "js_tool".into(),
            message: "its worker was stopped after 300 ms without an answer".into(),
        },
        ToolError::NoAnswerWithin {
            tool: "js_tool".into(),
            ms: 300,
        },
        ToolError::NotText {
            tool: "js_tool".into(),
            message: "cyclic object value".into(),
        },
        ToolError::ArgumentsNotPassed {
            tool: "js_tool".into(),
            message: "not JSON".into(),
        },
    ]);
    out
}

fn dispatch_errors() -> Vec<DispatchError> {
    vec![
        DispatchError::UnknownTool {
            name: "calculater".into(),
            available: vec!["calculator".into(), "search_docs".into()],
            nearest: Some("calculator".into()),
        },
        DispatchError::UnknownTool {
            name: "weather".into(),
            available: Vec::new(),
            nearest: None,
        },
        DispatchError::MissingArgument {
            tool: "search_docs".into(),
            missing: vec!["query".into()],
            expected: json!({"query": "<query>"}),
        },
        DispatchError::BadArguments {
            tool: "calculator".into(),
            message: "expression must be a string".into(),
            expected: json!({"expression": "2 * (3 + 4)"}),
        },
    ]
}

fn format_errors() -> Vec<FormatError> {
    vec![
        FormatError::Empty,
        FormatError::NoAction,
        FormatError::ThoughtOnly,
        FormatError::NoTool,
        FormatError::MissingToolName,
        FormatError::InputWithoutAction,
        FormatError::MixedActionAndAnswer,
        FormatError::EmptyAnswer,
        FormatError::XmlToolCall,
        FormatError::InvalidJson {
            line: 2,
            column: 17,
            message: "EOF while parsing a string".into(),
        },
        FormatError::ArgumentsAsAnswer {
            tool: "search_docs".into(),
        },
        FormatError::ExampleCopied,
        FormatError::QuestionRepeated,
        FormatError::YesNoAsked,
        FormatError::NumberUnused {
            number: "10".into(),
        },
        FormatError::ResultMissed {
            result: "25".into(),
        },
        FormatError::NoteCopied,
        FormatError::LabelAsAnswer {
            label: "Observation".into(),
        },
        FormatError::ActionNotThought {
            chosen: "weather".into(),
            action: "search_docs".into(),
        },
        FormatError::NameUnused {
            name: "Iceland".into(),
            tool: "country_population".into(),
            param: "country".into(),
        },
    ]
}

fn llm_errors() -> Vec<LlmError> {
    let mut out = vec![
        LlmError::Network {
            url: "http://localhost:8080/v1/chat/completions".into(),
            detail: "connection refused".into(),
        },
        LlmError::MixedContent {
            page_origin: "https://example.org".into(),
            url: "http://192.168.1.5:8080/v1".into(),
        },
        LlmError::Http {
            status: 404,
            url: "http://localhost:11434/v1/chat/completions".into(),
            body_excerpt: "{\"error\":\"model not found\"}".into(),
            server_message: Some("model 'qwen' not found".into()),
            models: Some(vec!["qwen2.5:0.5b".into(), "llama3".into()]),
        },
        LlmError::Http {
            status: 503,
            url: "http://localhost:8080/v1/chat/completions".into(),
            body_excerpt: "busy".into(),
            server_message: None,
            models: None,
        },
        LlmError::Server {
            message: "context length exceeded".into(),
        },
        LlmError::NotJson {
            excerpt: "<html>".into(),
        },
        LlmError::UnexpectedReply {
            expected: "choices[0].message.content".into(),
            excerpt: "{\"ok\":true}".into(),
        },
        LlmError::Timeout { ms: 30_000 },
        LlmError::Aborted,
        LlmError::Stream {
            message: "the stream broke off".into(),
        },
        LlmError::EmptyReply,
    ];
    out.extend(
        page_model_codes()
            .into_iter()
            .map(|code| LlmError::PageModel {
                code,
                detail: "kv cache full".into(),
            }),
    );
    out.extend(oversized().into_iter().map(|part| LlmError::TooLarge {
        part,
        limit_bytes: 123_456,
    }));
    out
}

fn page_model_codes() -> Vec<PageModelCode> {
    vec![
        PageModelCode::NotLoaded,
        PageModelCode::Context,
        PageModelCode::Engine,
        PageModelCode::Other,
    ]
}

fn oversized() -> Vec<Oversized> {
    Oversized::ALL.to_vec()
}

fn constraints() -> Vec<Constrained> {
    Constrained::ALL.to_vec()
}

fn guards() -> Vec<Guard> {
    let mut out = Vec::new();
    out.extend(
        format_errors()
            .into_iter()
            .map(|error| Guard::FormatFeedback {
                error,
                consecutive: 2,
            }),
    );
    out.extend(
        dispatch_errors()
            .into_iter()
            .map(|error| Guard::DispatchFailed { error }),
    );
    out.extend(
        tool_errors()
            .into_iter()
            .map(|error| Guard::ToolFailed { error }),
    );
    out.extend([
        Guard::RepeatedCall {
            tool: "search_docs".into(),
            repeat: 2,
        },
        Guard::SelfObservationCut { dropped_chars: 37 },
        Guard::ObservationTruncated {
            from_chars: 900,
            to_chars: 450,
        },
        Guard::HistoryTrimmed {
            dropped_rounds: 2,
            kept_rounds: 5,
        },
        Guard::StepLimit { steps: 7 },
        Guard::TooManyFormatErrors { count: 4 },
        Guard::TooManyRepeats {
            tool: "calculator".into(),
            repeats: 3,
        },
        Guard::SecondMove { repeat: 2 },
        Guard::PromptCut {
            sent: 3100,
            counted: 2048,
        },
        Guard::SelfCheck { kept: true },
    ]);
    // Every model error, with every constraint in turn.
    let constraints = constraints();
    out.extend(
        llm_errors()
            .into_iter()
            .enumerate()
            .map(|(i, error)| Guard::ConstraintDropped {
                constrained: constraints[i % constraints.len()],
                error,
            }),
    );
    out
}

fn outcomes() -> Vec<Outcome> {
    let mut out = vec![
        Outcome::Answer {
            answer: "42".into(),
        },
        Outcome::StepLimit {
            steps: 7,
            last_observation: Some("no document matches".into()),
        },
        Outcome::StepLimit {
            steps: 7,
            last_observation: None,
        },
        Outcome::FormatErrors { count: 4 },
        Outcome::RepeatedCalls {
            tool: "calculator".into(),
        },
    ];
    out.extend(
        llm_errors()
            .into_iter()
            .map(|error| Outcome::ModelError { error }),
    );
    out.push(Outcome::Aborted);
    out
}

fn repairs() -> Vec<Repair> {
    Repair::ALL.to_vec()
}

/// Every kind of parse (`Parsed`, read by hand with the flattened `kind`), each with every
/// repair, and one error parse per format error.
fn parses() -> Vec<ParseResult> {
    let span = |start, end| Some(Span { start, end });
    let full = |parsed: Parsed, repairs: Vec<Repair>| ParseResult {
        parsed,
        thought: Some("I should compute it".into()),
        spans: Spans {
            thought: span(9, 28),
            action: span(37, 47),
            input: span(62, 85),
            answer: span(90, 92),
        },
        repairs,
    };
    let mut out = vec![
        full(
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "6*7", "precise": true, "digits": [1, 2]}),
            },
            repairs(),
        ),
        // No input, and an input that was not JSON.
        full(
            Parsed::Action {
                tool: "current_time".into(),
                input: serde_json::Value::Null,
            },
            vec![Repair::PaperForm],
        ),
        full(
            Parsed::Action {
                tool: "search_docs".into(),
                input: json!("ReAct paper"),
            },
            vec![Repair::InputWithoutLabel],
        ),
        full(
            Parsed::Final {
                answer: "42".into(),
            },
            vec![Repair::AnswerLabel, Repair::InlineFinalAnswer],
        ),
    ];
    out.extend(
        format_errors()
            .into_iter()
            .map(|error| full(Parsed::Error { error }, vec![Repair::ReasoningSkipped])),
    );
    // A parse with no thought, no spans and no repairs.
    out.push(ParseResult {
        parsed: Parsed::Error {
            error: FormatError::Empty,
        },
        thought: None,
        spans: Spans::default(),
        repairs: Vec::new(),
    });
    out
}

/// A note is written as its sentence and read back from it.
fn notes() -> Vec<Note> {
    vec![
        Note::ToolRenamed {
            written: "Calculator.".into(),
            tool: "calculator".into(),
        },
        Note::KeyRenamed {
            key: "expr".into(),
            param: "expression".into(),
        },
        Note::ExtraKeyIgnored {
            key: "precision".into(),
        },
        Note::InputIgnored {
            tool: "current_time".into(),
        },
        Note::Other("the number 3 was written as a string".into()),
    ]
}

/// Calls with every built-in (and none: an external tool), each note, and all notes at once.
fn calls() -> Vec<ToolCall> {
    let call = |tool: &str, builtin, notes| ToolCall {
        tool: tool.into(),
        args: json!({"expression": "6*7", "n": 3}),
        builtin,
        notes,
    };
    let mut out = vec![
        call("calculator", Some(Builtin::Calculator), notes()),
        call("search_docs", Some(Builtin::SearchDocs), Vec::new()),
        call("current_time", Some(Builtin::CurrentTime), Vec::new()),
        call("weather", None, Vec::new()),
    ];
    out.extend(
        notes()
            .into_iter()
            .map(|note| call("calculator", Some(Builtin::Calculator), vec![note])),
    );
    out
}

fn sources() -> Vec<ObservationSource> {
    ObservationSource::ALL.to_vec()
}

/// Requests with every reason to answer, and with none; and every constraint.
fn requests() -> Vec<ModelRequest> {
    let request = |must_answer, constrained| ModelRequest {
        messages: vec![
            Message {
                role: Role::System,
                content: "You are a ReAct agent.".into(),
            },
            Message {
                role: Role::User,
                content: "What is 6*7?".into(),
            },
            Message {
                role: Role::Assistant,
                content: "Thought: compute\nAction: calculator".into(),
            },
        ],
        stop: vec!["Observation:".into(), "\nObservation".into()],
        constrained,
        must_answer,
        thought_prefix: Some("The Observation shows".into()),
        steer: None,
        // The rest (an avoided tool, the flags, a fit with every kind of evidence) as in the
        // request with every field set, so a new field is away from its default here too.
        ..full_request()
    };
    let mut out: Vec<ModelRequest> = MustAnswer::ALL
        .into_iter()
        .map(|m| request(Some(m), Constrained::Grammar))
        .collect();
    out.extend(constraints().into_iter().map(|c| request(None, c)));
    for why in AvoidWhy::ALL {
        let mut r = request(None, Constrained::Grammar);
        r.avoid = Some(Avoid {
            tool: "calculator".into(),
            why,
        });
        out.push(r);
    }
    for why in SteerWhy::ALL {
        let mut r = request(None, Constrained::JsonSchema);
        r.steer = Some(Steer {
            tool: "calculator".into(),
            why,
            uses: match why {
                SteerWhy::Next => ["3".into(), "0.5".into()].into(),
                SteerWhy::Fits | SteerWhy::Thought => Box::default(),
            },
            seen: match why {
                SteerWhy::Next => ["3".into(), "0.5".into(), "2024".into()].into(),
                SteerWhy::Fits | SteerWhy::Thought => Box::default(),
            },
            args: None,
        });
        out.push(r);
    }
    out
}

fn server_kinds() -> Vec<ServerKind> {
    ServerKind::ALL.to_vec()
}

// ---------------------------------------------------------------------------------------------
// A new variant of an enum with fields fails to compile here: add a sample of it to the list
// above. (A fieldless enum's samples are its `ALL`.)

fn covered_calc_error(e: &CalcError) {
    match e {
        CalcError::Empty
        | CalcError::TooLong { .. }
        | CalcError::TooDeep { .. }
        | CalcError::UnexpectedChar { .. }
        | CalcError::UnexpectedToken { .. }
        | CalcError::UnexpectedEnd
        | CalcError::UnclosedParen { .. }
        | CalcError::UnexpectedCloseParen { .. }
        | CalcError::UnknownName { .. }
        | CalcError::MissingParens { .. }
        | CalcError::ConstantCalled { .. }
        | CalcError::WrongArgCount { .. }
        | CalcError::DivisionByZero
        | CalcError::Overflow
        | CalcError::InvalidArgument { .. } => {}
    }
}

fn covered_tool_error(e: &ToolError) {
    match e {
        ToolError::Calculator(e) => covered_calc_error(e),
        ToolError::NoDocuments
        | ToolError::EmptyQuery
        | ToolError::NoMatch { .. }
        | ToolError::InvalidClock { .. }
        | ToolError::InvalidInput { .. }
        | ToolError::NotBuiltin { .. }
        | ToolError::NoImplementation { .. }
        | ToolError::External { .. }
        | ToolError::ScriptThrew { .. }
        | ToolError::ScriptRejected { .. }
        | ToolError::ScriptTimedOut { .. }
        | ToolError::NoAnswerWithin { .. }
        | ToolError::NotText { .. }
        | ToolError::ArgumentsNotPassed { .. } => {}
    }
}

fn covered_dispatch_error(e: &DispatchError) {
    match e {
        DispatchError::UnknownTool { .. }
        | DispatchError::MissingArgument { .. }
        | DispatchError::BadArguments { .. } => {}
    }
}

fn covered_format_error(e: &FormatError) {
    match e {
        FormatError::Empty
        | FormatError::NoAction
        | FormatError::ThoughtOnly
        | FormatError::NoTool
        | FormatError::MissingToolName
        | FormatError::InputWithoutAction
        | FormatError::MixedActionAndAnswer
        | FormatError::EmptyAnswer
        | FormatError::XmlToolCall
        | FormatError::InvalidJson { .. }
        | FormatError::ArgumentsAsAnswer { .. }
        | FormatError::ExampleCopied
        | FormatError::QuestionRepeated
        | FormatError::YesNoAsked
        | FormatError::NumberUnused { .. }
        | FormatError::ResultMissed { .. }
        | FormatError::NoteCopied
        | FormatError::LabelAsAnswer { .. }
        | FormatError::ActionNotThought { .. }
        | FormatError::NameUnused { .. } => {}
    }
}

fn covered_llm_error(e: &LlmError) {
    match e {
        LlmError::TooLarge { .. } => {}
        LlmError::PageModel { code, .. } => covered_page_model_code(code),
        LlmError::Network { .. }
        | LlmError::MixedContent { .. }
        | LlmError::Http { .. }
        | LlmError::Server { .. }
        | LlmError::NotJson { .. }
        | LlmError::UnexpectedReply { .. }
        | LlmError::Timeout { .. }
        | LlmError::Aborted
        | LlmError::Stream { .. }
        | LlmError::EmptyReply => {}
    }
}

fn covered_page_model_code(c: &PageModelCode) {
    match c {
        PageModelCode::NotLoaded
        | PageModelCode::Context
        | PageModelCode::Engine
        | PageModelCode::Other => {}
    }
}

/// Only a guard's nested errors need a sample of each here: every guard is raised by a run,
/// and read back, in `src/sentences/guards.rs`.
fn covered_guard(g: &Guard) {
    match g {
        Guard::FormatFeedback { error, .. } => covered_format_error(error),
        Guard::DispatchFailed { error } => covered_dispatch_error(error),
        Guard::ToolFailed { error } => covered_tool_error(error),
        Guard::ConstraintDropped { error, .. } => covered_llm_error(error),
        _ => {}
    }
}

fn covered_outcome(o: &Outcome) {
    match o {
        Outcome::ModelError { error } => covered_llm_error(error),
        Outcome::Answer { .. }
        | Outcome::StepLimit { .. }
        | Outcome::FormatErrors { .. }
        | Outcome::RepeatedCalls { .. }
        | Outcome::Aborted => {}
    }
}

fn covered_parse(p: &ParseResult) {
    match &p.parsed {
        Parsed::Error { error } => covered_format_error(error),
        Parsed::Action { .. } | Parsed::Final { .. } => {}
    }
}

fn covered_note(n: &Note) {
    match n {
        Note::ToolRenamed { .. }
        | Note::KeyRenamed { .. }
        | Note::ExtraKeyIgnored { .. }
        | Note::InputIgnored { .. }
        | Note::Other(_) => {}
    }
}

fn covered_call(c: &ToolCall) {
    c.notes.iter().for_each(covered_note);
    match c.builtin {
        Some(Builtin::Calculator | Builtin::SearchDocs | Builtin::CurrentTime) | None => {}
    }
}

fn covered_request(r: &ModelRequest) {
    for m in &r.messages {
        match m.role {
            Role::System | Role::User | Role::Assistant => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The trace the samples go into.

/// A real run (a tool call, then the answer) under a config with every field away from its
/// default, its first step filled in where the run left defaults, and no outcome yet.
fn base_trace() -> Trace {
    let config = AgentConfig {
        max_steps: 7,
        max_format_errors: 4,
        max_repeats: 2,
        observation_limit: 450,
        history_rounds: 5,
        restate_question: true,
        style: MessageStyle::Scratchpad,
        stop: vec!["Observation:".into(), "\nObservation".into()],
        prompt: PromptConfig {
            lang: Lang::Zh,
            template: Some("Tools:\n{tools}\nNames: {tool_names}".into()),
            few_shot: vec![FewShot {
                question: "What is 2+2?".into(),
                transcript: "Thought: add\nAction: calculator".into(),
            }],
            texts: [("note.empty_result".to_string(), "（空）".to_string())]
                .into_iter()
                .collect::<Templates>(),
        },
        system_prompt: Some("You answer with tools.".into()),
        constrained: Constrained::JsonSchema,
        act_first: false,
        worked_examples: false,
        strategy: Strategy::Act,
        compress: Compress::Summary,
    };
    let replies = [CALC, FINAL];
    let mut agent = Agent::new(
        "What is 6*7?",
        Registry::with_builtins(default_documents()),
        config,
    );
    let mut i = 0;
    let outcome = run_to_end(&mut agent, &HOST, |_| {
        let text = replies[i.min(replies.len() - 1)].to_string();
        i += 1;
        Ok(ModelReply {
            text,
            ..ModelReply::default()
        })
    });
    assert!(outcome.finished(), "{outcome:?}");
    let mut trace = agent.trace().clone();
    assert_eq!(trace.steps.len(), 2, "{trace:#?}");
    trace.model = Some("qwen2.5-0.5b-instruct".into());
    trace.server = Some(ServerChoice {
        kind: ServerKind::LlamaCpp,
        constrained: Constrained::Grammar,
    });
    trace.outcome = None;
    let first = &mut trace.steps[0];
    let reply = first.reply.as_mut().expect("the first step has a reply");
    reply.usage = Usage {
        prompt_tokens: Some(321),
        completion_tokens: Some(45),
        cached_tokens: Some(300),
    };
    reply.elapsed_ms = Some(812.25);
    reply.edited = true;
    let observation = first.observation.as_mut().expect("an observation");
    observation.elapsed_ms = Some(3.5);
    observation.edited = true;
    first.request = requests().remove(0);
    trace
}

/// Appends a copy of the first step, renumbered, changed by `edit`.
fn push_step(trace: &mut Trace, edit: impl FnOnce(&mut Step)) {
    let mut step = trace.steps[0].clone();
    step.index = trace.steps.len() + 1;
    step.guards.clear();
    step.error = None;
    edit(&mut step);
    trace.steps.push(step);
}

/// `Ok` when the trace reads back as it was, from its JSON and from its view form (what
/// `exportTrace` writes); else the first part that differs.
fn reread(trace: &Trace) -> Result<(), String> {
    let plain = serde_json::to_string(trace).map_err(|e| format!("not written: {e}"))?;
    reread_from(trace, &plain)?;
    let viewed = reactloop::view::trace(trace, "http://127.0.0.1:8000")
        .map_err(|e| format!("no view: {e}"))?;
    reread_from(trace, &viewed.to_string()).map_err(|e| format!("from its view form: {e}"))
}

fn reread_from(trace: &Trace, json: &str) -> Result<(), String> {
    let back = Trace::from_json(json).map_err(|e| format!("not read back: {e}"))?;
    if back == *trace {
        return Ok(());
    }
    for (i, (was, is)) in trace.steps.iter().zip(&back.steps).enumerate() {
        // The field that differs, by name.
        macro_rules! compare {
            ($($field:ident),*) => {$(
                if was.$field != is.$field {
                    return Err(format!(
                        "step {}'s {} was {:?}, read back as {:?}",
                        i + 1,
                        stringify!($field),
                        was.$field,
                        is.$field
                    ));
                }
            )*};
        }
        compare!(
            index,
            request,
            reply,
            parse,
            call,
            observation,
            guards,
            error
        );
    }
    if back.outcome != trace.outcome {
        return Err(format!("the outcome read back as {:?}", back.outcome));
    }
    Err(format!("read back as {back:?}"))
}

/// Puts each sample alone into the base trace and reads it back, naming every sample that
/// does not come back; then all of them into one trace.
fn assert_round_trips<T: Debug>(what: &str, samples: &[T], put: impl Fn(&mut Trace, &T)) {
    let base = base_trace();
    assert_eq!(reread(&base), Ok(()), "the base trace");
    let mut all = base.clone();
    let mut failures = Vec::new();
    for sample in samples {
        let mut trace = base.clone();
        put(&mut trace, sample);
        if let Err(why) = reread(&trace) {
            failures.push(format!("  {sample:?}: {why}"));
        }
        put(&mut all, sample);
    }
    assert!(
        failures.is_empty(),
        "{} of {} {what} samples did not round-trip:\n{}",
        failures.len(),
        samples.len(),
        failures.join("\n")
    );
    assert_eq!(reread(&all), Ok(()), "all {what} samples in one trace");
}

// ---------------------------------------------------------------------------------------------

#[test]
fn every_guard_round_trips_with_every_error_it_holds() {
    let samples = guards();
    samples.iter().for_each(covered_guard);
    assert_round_trips("guard", &samples, |trace, guard| {
        push_step(trace, |step| step.guards = vec![guard.clone()]);
    });
}

#[test]
fn every_model_error_round_trips_as_a_step_error() {
    let samples = llm_errors();
    samples.iter().for_each(covered_llm_error);
    assert_round_trips("model error", &samples, |trace, error| {
        push_step(trace, |step| {
            step.reply = None;
            step.parse = None;
            step.call = None;
            step.observation = None;
            step.error = Some(error.clone());
        });
    });
}

#[test]
fn every_outcome_round_trips() {
    let samples: Vec<Option<Outcome>> = std::iter::once(None)
        .chain(outcomes().into_iter().map(Some))
        .collect();
    samples.iter().flatten().for_each(covered_outcome);
    assert_round_trips("outcome", &samples, |trace, outcome| {
        trace.outcome = outcome.clone();
    });
}

#[test]
fn every_parse_round_trips_with_every_repair() {
    let samples = parses();
    samples.iter().for_each(covered_parse);
    // Each repair alone too, so a failing one is named.
    let repairs: Vec<ParseResult> = repairs()
        .into_iter()
        .map(|repair| ParseResult {
            repairs: vec![repair],
            ..samples[0].clone()
        })
        .collect();
    let put = |trace: &mut Trace, parse: &ParseResult| {
        push_step(trace, |step| step.parse = Some(parse.clone()));
    };
    assert_round_trips("parse", &samples, put);
    assert_round_trips("repair", &repairs, put);
}

#[test]
fn every_call_round_trips_with_every_note_and_builtin() {
    let samples = calls();
    samples.iter().for_each(covered_call);
    assert_round_trips("call", &samples, |trace, call| {
        push_step(trace, |step| step.call = Some(call.clone()));
    });
}

#[test]
fn every_observation_source_and_request_round_trips() {
    let sources = sources();
    assert_round_trips("observation source", &sources, |trace, source| {
        push_step(trace, |step| {
            step.observation = Some(Observation {
                text: "42\n…[truncated: showing 450 of 900 characters]".into(),
                source: *source,
                full_chars: 900,
                elapsed_ms: Some(7.75),
                edited: true,
            });
        });
    });
    let requests = requests();
    requests.iter().for_each(covered_request);
    assert_round_trips("request", &requests, |trace, request| {
        push_step(trace, |step| step.request = request.clone());
    });
}

#[test]
fn every_server_kind_round_trips() {
    let samples: Vec<Option<ServerChoice>> = std::iter::once(None)
        .chain(
            server_kinds()
                .into_iter()
                .zip(constraints().into_iter().cycle())
                .map(|(kind, constrained)| Some(ServerChoice { kind, constrained })),
        )
        .collect();
    assert_round_trips("server", &samples, |trace, server| {
        trace.server = *server;
    });
}

/// One trace that holds every sample at once, as a page would save it.
#[test]
fn a_trace_holding_every_sample_round_trips() {
    let mut trace = base_trace();
    for guard in guards() {
        push_step(&mut trace, |step| step.guards.push(guard));
    }
    // Several guards in one step, in the order the loop would add them.
    push_step(&mut trace, |step| step.guards = guards());
    for error in llm_errors() {
        push_step(&mut trace, |step| step.error = Some(error));
    }
    for parse in parses() {
        push_step(&mut trace, |step| step.parse = Some(parse));
    }
    for call in calls() {
        push_step(&mut trace, |step| step.call = Some(call));
    }
    for request in requests() {
        push_step(&mut trace, |step| step.request = request);
    }
    for outcome in outcomes() {
        trace.outcome = Some(outcome);
        assert_eq!(reread(&trace), Ok(()), "{:?}", trace.outcome);
    }
    let json = serde_json::to_string(&trace).expect("written");
    assert_eq!(Trace::from_json(&json).expect("read back"), trace);
}

/// A host clock that is not a number is written as null (JSON has no NaN) and read back as
/// NaN, so the trace of that failure still loads.
#[test]
fn an_invalid_clock_that_is_not_a_number_still_loads() {
    let mut trace = base_trace();
    push_step(&mut trace, |step| {
        step.guards.push(Guard::ToolFailed {
            error: ToolError::InvalidClock {
                now_unix_ms: f64::NAN,
                utc_offset_minutes: 0,
            },
        })
    });
    let json = serde_json::to_string(&trace).unwrap();
    assert!(json.contains(r#""now_unix_ms":null"#), "{json}");
    let back = Trace::from_json(&json).expect("loads");
    let last = back.steps.last().expect("the step");
    assert!(matches!(
        last.guards[..],
        [Guard::ToolFailed { error: ToolError::InvalidClock { now_unix_ms, .. } }] if now_unix_ms.is_nan()
    ));
}

/// Traces written before `avoid` name only the action (`avoid_action`); they still load,
/// with the reason the page then showed for it.
#[test]
fn an_older_avoid_action_reads_as_avoid() {
    let trace = base_trace();
    let mut value = serde_json::to_value(&trace).unwrap();
    for (step, tool) in [(0, "final_answer"), (1, "calculator")] {
        let request = value["steps"][step]["request"].as_object_mut().unwrap();
        request.remove("avoid");
        request.insert("avoid_action".into(), json!(tool));
    }
    let back = Trace::from_json(&value.to_string()).expect("loads");
    let why = |i: usize| back.steps[i].request.avoid.clone().map(|a| (a.tool, a.why));
    assert_eq!(why(0), Some(("final_answer".into(), AvoidWhy::NotAnAnswer)));
    assert_eq!(why(1), Some(("calculator".into(), AvoidWhy::Repeated)));
}

/// Every sentence a reader is shown about a guard, an outcome, a model error or a refusal, in
/// both languages: each Chinese one is Chinese, and keeps every number of the English one.
#[test]
fn every_sentence_a_reader_sees_has_both_languages_with_the_same_details() {
    use reactloop::sentences;
    let numbers = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut texts: Vec<(String, reactloop::lang::Text)> = Vec::new();
    texts.extend(
        guards()
            .iter()
            .map(|g| (format!("{g:?}"), sentences::guard(g))),
    );
    texts.extend(
        outcomes()
            .iter()
            .map(|o| (format!("{o:?}"), sentences::outcome(o))),
    );
    for e in llm_errors() {
        texts.push((format!("{e:?}"), sentences::llm_error(&e)));
        for page in ["https://me.github.io", "http://127.0.0.1:8000", "null"] {
            if let Some(hint) = sentences::hint(&e, page) {
                texts.push((format!("the fix for {e:?} on {page}"), hint));
            }
        }
    }
    for page in ["https://me.github.io", "http://192.168.1.5:8000"] {
        let note = sentences::hosted_page(page).expect(page);
        texts.push((format!("the hosted-page note on {page}"), note));
    }
    // What a page says when it refuses a setting, a tool, a trace file or a call.
    use reactloop::llm::ConfigError;
    use reactloop::sentences::Misuse;
    use reactloop::settings::SettingsError;
    use reactloop::tools::RegistryError;
    use reactloop::trace::TraceError;
    let url = "http://localhost:8080/v1?x".to_string();
    let configs = [
        ConfigError::EmptyBaseUrl,
        ConfigError::BadScheme { url: url.clone() },
        ConfigError::UrlHasWhitespace { url: url.clone() },
        ConfigError::UrlHasQuery { url: url.clone() },
        ConfigError::MissingHost { url },
        ConfigError::EmptyModel,
        ConfigError::BadTemperature {
            value: "3.5".into(),
        },
        ConfigError::ZeroMaxTokens,
        ConfigError::ZeroTimeout,
        ConfigError::BadApiKey,
    ];
    texts.extend(
        configs
            .iter()
            .map(|e| (format!("{e:?}"), sentences::config_error(e))),
    );
    let settings = [
        SettingsError::Invalid {
            message: "unknown variant `fr`".into(),
        },
        SettingsError::Limit {
            name: "maxSteps",
            got: 0.5,
        },
    ];
    texts.extend(
        settings
            .iter()
            .map(|e| (format!("{e:?}"), sentences::settings_error(e))),
    );
    let name = || "my_tool".to_string();
    let registry = [
        RegistryError::InvalidName { name: name() },
        RegistryError::ReservedName { name: name() },
        RegistryError::BuiltinName { name: name() },
        RegistryError::NameClash {
            name: name(),
            existing: "MyTool".into(),
        },
        RegistryError::InvalidSchema {
            name: name(),
            message: "not an object".into(),
        },
    ];
    texts.extend(
        registry
            .iter()
            .map(|e| (format!("{e:?}"), sentences::registry_error(e))),
    );
    let traces = [
        TraceError::NotJson {
            message: "expected value at line 1 column 1".into(),
        },
        TraceError::NewerVersion {
            found: 9,
            supported: 1,
        },
        TraceError::Invalid {
            message: "missing field `steps`".into(),
        },
    ];
    texts.extend(
        traces
            .iter()
            .map(|e| (format!("{e:?}"), sentences::trace_error(e))),
    );
    let misuses = [
        Misuse::StillRunning,
        Misuse::Busy,
        Misuse::NoQuestion,
        Misuse::NotAskingModel,
        Misuse::NothingRan,
        Misuse::NotStarted,
        Misuse::NoServer,
        Misuse::NoRunFunction,
        Misuse::ForkPart {
            part: "thought".into(),
        },
        Misuse::ForkStep { step: 4 },
    ];
    use reactloop::sentences::Given;
    let misuses = misuses.into_iter().chain(
        [
            Given::Settings,
            Given::ToolDefinition,
            Given::Edit,
            Given::ModelReply,
        ]
        .map(|what| Misuse::Invalid {
            what,
            message: "missing field `name`".into(),
        }),
    );
    use reactloop::sentences::BadNumber;
    let misuses = misuses.chain(
        [
            BadNumber::NaN,
            BadNumber::Infinity,
            BadNumber::NegativeInfinity,
            BadNumber::BigInt,
        ]
        .map(|got| Misuse::NotJsonNumber {
            what: Given::Expectation,
            key: None,
            got,
        }),
    );
    texts.extend(misuses.map(|m| (format!("{m:?}"), sentences::misuse(&m))));
    use reactloop::agent::AgentError;
    let refused_feeds = [
        AgentError::NotWaitingForServer,
        AgentError::NotWaitingForModel,
        AgentError::NotWaitingForTool,
        AgentError::NothingToRetry,
    ];
    texts.extend(
        refused_feeds
            .iter()
            .map(|e| (format!("{e:?}"), sentences::agent_error(e))),
    );
    let mut problems = Vec::new();
    for (what, text) in &texts {
        if !text
            .zh
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
        {
            problems.push(format!("{what}: no Chinese: {}", text.zh));
        }
        for n in numbers(&text.en) {
            if !numbers(&text.zh).contains(&n) {
                problems.push(format!("{what}: {n} is not in {}", text.zh));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A page's model function names its failure with a code of its own choosing: the ones the
/// core words are read as such, any other as `other`, never a refusal of the trace.
#[test]
fn a_page_model_code_the_core_does_not_know_reads_as_other() {
    let read = |code: &str| {
        let error: LlmError =
            serde_json::from_value(json!({"type": "page_model", "code": code, "detail": "d"}))
                .expect(code);
        error
    };
    for (code, expected) in [
        ("not_loaded", PageModelCode::NotLoaded),
        ("context", PageModelCode::Context),
        ("engine", PageModelCode::Engine),
        ("worker", PageModelCode::Other),
        ("", PageModelCode::Other),
    ] {
        assert_eq!(
            read(code),
            LlmError::PageModel {
                code: expected,
                detail: "d".into()
            },
            "{code}"
        );
    }
}
