//! The ReAct loop as a state machine that does no I/O.
//!
//! The agent says what it needs next ([`Next`]): call the model with these messages, run this
//! tool with these arguments, or nothing more because the run is over. The driver (the
//! browser, a test, the CLI) does that and feeds the result back. Every transition is
//! recorded in the [`Trace`], which is all a page needs to render a run.

use serde::{Deserialize, Serialize};

mod compression;
mod course;
mod log;
mod observe;
mod reply;
mod request;
mod server;

use compression::Compression;
use course::{Answered, Course};
use reply::{json_thought_cut, parse_grammar_reply, reply_text_at};
use request::prompt_and_examples;
pub use request::{opening, system_prompt};

use crate::ask::{
    Avoid, AvoidWhy, Left, ModelRequest, MustAnswer, Steer, SteerWhy, Unsteered, FINAL_ANSWER,
    MAX_USES,
};
use crate::config::AgentConfig;
use crate::history::{self, Layout, Round};
use crate::llm::{Constrained, LlmError, ServerKind};
use crate::parse::{self, FormatError, ParseResult, Parsed, Span, Spans};
use crate::prompt::{self, FewShot, Opening, PromptConfig};
use crate::reading::{self, Examples, PastCall, RunSoFar, SentBack};
use crate::strategy::Strategy;
use crate::told;
use crate::tools::{fit, HostContext, Registry, Role, ToolCall, ToolError, ToolFit, ToolSpec};
use crate::trace::{
    Guard, ModelReply, Observation, ObservationSource, Outcome, ServerChoice, Step, Trace,
    GENERATOR, TRACE_VERSION,
};

/// A tool result this short (a number, a date) is quoted at the start of the next Thought
/// under the grammar, "The Observation shows 375": the 0.5B model otherwise went on from its
/// own earlier guess (a remainder of 6 after the calculator said 4).
const SHORT_RESULT: usize = 40;
/// The most of a run-on Thought given back to be continued.
const RAN_ON_CHARS: usize = 120;

/// What the driver must do next; each is answered by one feed (`Done` by none). It borrows
/// from the agent: a driver copies what it keeps across an await.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Next<'a> {
    /// `constrained: auto` before the first request: find out what the server is (its `GET
    /// /models`, [`ServerKind::detect`]; the in-page engine and the demo are known without
    /// asking, [`crate::settings::Model::known_server`]) and [`Agent::feed_server`] it.
    DetectServer,
    /// Ask the model, then [`Agent::feed_model`] the reply or [`Agent::feed_model_error`].
    CallModel {
        request: &'a ModelRequest,
    },
    /// Run the tool ([`Agent::run_builtin`] for a built-in one), then [`Agent::feed_tool`].
    RunTool {
        call: &'a ToolCall,
    },
    Done {
        outcome: &'a Outcome,
    },
}

/// What a transition did, logged where the agent decides it; `crate::events` turns the log
/// into the page's events ([`Agent::take_changes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A guard stepped in: its step, and its place in the step's guards.
    Guard { step: usize, at: usize },
    /// A step's record changed.
    Step { step: usize },
    /// A step was opened: its request is new.
    Opened { step: usize },
    /// The run ended.
    Done,
}

/// A tool's result, as fed by the driver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub output: Result<String, ToolError>,
    pub elapsed_ms: Option<f64>,
    pub edited: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum State {
    NeedModel,
    NeedTool(ToolCall),
    Done(Outcome),
}

/// Feeding the agent something it did not ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentError {
    NotWaitingForServer,
    NotWaitingForModel,
    NotWaitingForTool,
    NothingToRetry,
}

// Its message (`Display`) is in `crate::sentences::refusals`, in both languages.
impl std::error::Error for AgentError {}

/// One ReAct run.
#[derive(Debug, Clone)]
pub struct Agent {
    /// What the examples in the system prompt call and answer: copying is not working.
    examples: Examples,
    registry: Registry,
    trace: Trace,
    rounds: Vec<Round>,
    /// What the loop itself wrote into Observations (notes after results, feedback): words
    /// a model may copy, and never an answer.
    notes: Vec<String>,
    /// Index of the first round still sent to the model.
    window_start: usize,
    state: State,
    format_errors: usize,
    /// Calls made so far with the observation each got; compared by JSON equality, so the
    /// order of argument keys does not matter.
    calls: Vec<PastCall>,
    /// The constraint requests go out with now: the configured one, `auto` resolved.
    constrained: Constrained,
    /// The last reply that got feedback, and that feedback as first written.
    last_feedback: Option<(String, String)>,
    /// Feedback rounds in a row where the model sent the same reply or made the same mistake.
    stuck: usize,
    /// What the last step that got an Observation leaves for the next request.
    last: LastStep,
    /// What a final answer was sent back for, once a run each.
    sent_back: SentBack,
    /// The strategy's own state: a plan to carry out, an answer to check.
    course: Course,
    /// What happens to rounds that leave the window.
    compression: Compression,
    /// What the transitions since the last [`Agent::take_changes`] did.
    changes: Vec<Change>,
    /// How well each tool fits the question, best first.
    fits: Vec<ToolFit>,
}

/// What a finished step leaves for the next request; kept as state so that no decision
/// re-reads the trace, which is only the record.
#[derive(Debug, Clone, Default)]
struct LastStep {
    /// What the loop noted about the step, which the next request answers.
    noted: Noted,
    /// A tool's result short enough to quote (a number, a date).
    short_result: Option<String>,
}

/// What the loop noted about a step: at most one thing, which the next request answers (a
/// tool left out, only the answer allowed, where the Thought opens).
#[derive(Debug, Clone, Default)]
enum Noted {
    #[default]
    Nothing,
    /// The reply's format error, whose feedback was the Observation; the Thought of a reply
    /// that was only a Thought; a tool whose argument ran on until the token limit cut it off.
    FormatError {
        error: FormatError,
        thought_only: Option<String>,
        runaway: Option<String>,
    },
    /// A call repeated with the same arguments: its tool, and whether it had succeeded.
    Repeated { tool: String, succeeded: bool },
    /// A tool that said its input was not its kind (the calculator given words).
    WrongTool { tool: String },
    /// A calculation for a question without numbers: no tool is about the question.
    Unrelated,
    /// A calculation applied the last one's final operation again: not run.
    AppliedAgain,
}

impl LastStep {
    fn format_error(&self) -> Option<&FormatError> {
        match &self.noted {
            Noted::FormatError { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl Agent {
    pub fn new(question: &str, mut registry: Registry, config: AgentConfig) -> Agent {
        if !config.strategy.acts() {
            let names: Vec<String> = registry.specs().iter().map(|t| t.name.clone()).collect();
            for name in names {
                registry.set_enabled(&name, false);
            }
        }
        let tools: Vec<ToolSpec> = registry.specs().into_iter().cloned().collect();
        let lang = config.prompt.lang;
        let fits = registry.fits(question, |t| told::tool_description(t, lang));
        let (system_prompt, examples) = prompt_and_examples(&config, &registry, config.constrained);
        let constrained = match config.constrained {
            Constrained::Auto => Constrained::Off,
            chosen => chosen,
        };
        let mut agent = Agent {
            examples,
            last_feedback: None,
            stuck: 0,
            last: LastStep::default(),
            sent_back: SentBack::default(),
            course: Course::new(config.strategy),
            compression: Compression::new(config.compress),
            constrained,
            registry,
            trace: Trace {
                version: TRACE_VERSION,
                generator: Some(GENERATOR.to_string()),
                model: None,
                question: question.trim().to_string(),
                server: None,
                system_prompt,
                tools,
                config,
                steps: Vec::new(),
                outcome: None,
            },
            rounds: Vec::new(),
            notes: Vec::new(),
            window_start: 0,
            state: State::NeedModel,
            format_errors: 0,
            calls: Vec::new(),
            changes: Vec::new(),
            fits,
        };
        agent.open_step();
        agent
    }

    /// Records which model answers this run (shown to readers of the trace).
    pub fn label_model(&mut self, model: &str) {
        self.trace.model = Some(model.to_string());
    }

    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub fn next(&self) -> Next<'_> {
        match &self.state {
            State::NeedModel if self.wants_server() => Next::DetectServer,
            State::NeedModel => Next::CallModel {
                request: &self.current().request,
            },
            State::NeedTool(call) => Next::RunTool { call },
            State::Done(outcome) => Next::Done { outcome },
        }
    }

    /// Runs the pending tool when it is a built-in one; `None` when the driver must run it.
    pub fn run_builtin(&self, host: &HostContext) -> Option<Result<String, ToolError>> {
        match &self.state {
            State::NeedTool(call) if call.builtin.is_some() => Some(self.registry.run_builtin(
                call,
                host,
                self.trace.config.prompt.lang,
            )),
            _ => None,
        }
    }

    pub fn feed_model(&mut self, reply: ModelReply) -> Result<(), AgentError> {
        if self.state != State::NeedModel || self.wants_server() {
            return Err(AgentError::NotWaitingForModel);
        }
        if let Some(start) = self.compression.take_pending() {
            self.take_summary(reply, start);
            return Ok(());
        }
        if self.current().request.asks_plan {
            if let Some(steps) = self.course.read_plan(&reply.text) {
                self.take_plan(reply, steps);
                return Ok(());
            }
        }
        let request = &self.current().request;
        let prefix = request.thought_prefix.clone().unwrap_or_default();
        let parsed = match request.constrained {
            Constrained::Grammar => parse_grammar_reply(&reply.text, &prefix),
            Constrained::JsonSchema | Constrained::JsonObject => json_thought_cut(&reply.text),
            Constrained::Auto | Constrained::Off => None,
        }
        .unwrap_or_else(|| parse::parse_reply(&reply.text));
        let observations: Vec<&str> = self.rounds.iter().map(|r| r.observation.as_str()).collect();
        let notes: Vec<&str> = self.notes.iter().map(String::as_str).collect();
        let run = RunSoFar {
            question: &self.trace.question,
            registry: &self.registry,
            calls: &self.calls,
            observations: &observations,
            notes: &notes,
            after_empty_answer: self.last.format_error() == Some(&FormatError::EmptyAnswer),
            answer_asked: self.current().request.must_answer.is_some()
                && !self.current().request.constrained.is_on(),
            last_step: self.trace.steps.len() >= self.trace.config.max_steps,
            // "OK" to a self-check leaves the question's numbers where they were.
            sent_back: match self.course.checking() {
                Some(_) => SentBack {
                    number: true,
                    result: true,
                    ..self.sent_back
                },
                None => self.sent_back,
            },
            steered: reply.edited || self.steered(),
            allowed_only: self
                .current()
                .request
                .steer
                .as_ref()
                .map(|s| s.tool.as_str()),
            examples: &self.examples,
        };
        let parsed = reading::in_context(parsed, &reply.text, &run);
        self.sent_back = self.sent_back.after(&parsed.parsed);
        self.last = LastStep::default();
        let reply_text = reply.text.trim().to_string();
        let (kept, cut) = parse::cut_observation(&reply.text);
        let kept = kept.trim_end().to_string();
        let dropped_chars = reply.text.chars().count() - kept.chars().count();
        let prompt_cut = self.prompt_cut(&reply);
        if let Some(guard) = prompt_cut {
            self.guard(guard);
        }
        if cut {
            self.guard(Guard::SelfObservationCut { dropped_chars });
        }
        let step = self.current_mut();
        step.reply = Some(reply);
        step.parse = Some(parsed.clone());
        match parsed.parsed {
            Parsed::Final { answer } => {
                self.format_errors = 0;
                self.final_answer(kept, answer);
            }
            Parsed::Error { error } => {
                self.format_errors += 1;
                let consecutive = self.format_errors;
                let thought_only = (error == FormatError::ThoughtOnly)
                    .then(|| parsed.thought.clone())
                    .flatten();
                let runaway = (parsed.spans.action)
                    .filter(|_| error.cut_off())
                    .and_then(|span| reply_text_at(&self.current().reply, span))
                    .filter(|action| self.registry.specs().iter().any(|t| t.name == *action));
                self.last.noted = Noted::FormatError {
                    error: error.clone(),
                    thought_only,
                    runaway,
                };
                let voice = self.trace.config.prompt.voice();
                let feedback = self.second_move(&reply_text, told::format_error(&error, voice));
                self.guard(Guard::FormatFeedback { error, consecutive });
                self.mark_second_move();
                self.observe(kept, feedback, ObservationSource::Feedback, None, false);
            }
            Parsed::Action { tool, input } => {
                self.format_errors = 0;
                if self.course.leaves_check() {
                    // The self-check went back to the tools: its revision is what follows.
                    self.guard(Guard::SelfCheck { kept: false });
                }
                match self.registry.dispatch(&tool, &input) {
                    Err(error) => {
                        let voice = self.trace.config.prompt.voice();
                        let text =
                            self.second_move(&reply_text, told::dispatch_error(&error, voice));
                        self.guard(Guard::DispatchFailed { error });
                        self.mark_second_move();
                        self.observe(kept, text, ObservationSource::Feedback, None, false);
                    }
                    Ok(call) => self.prepare_call(kept, call),
                }
            }
        }
        Ok(())
    }

    /// Records a failed model call; the run stops but can be retried with [`Agent::retry`].
    /// A refused constraint is dropped instead, with a guard, and the model asked again.
    pub fn feed_model_error(&mut self, error: LlmError) -> Result<(), AgentError> {
        if self.state != State::NeedModel || self.wants_server() {
            return Err(AgentError::NotWaitingForModel);
        }
        if self.drop_refused_constraint(&error) {
            return Ok(());
        }
        self.current_mut().error = Some(error.clone());
        self.finish(Outcome::ModelError { error });
        Ok(())
    }

    /// Whether [`Agent::retry`] can ask again: the run stopped on a model error.
    pub fn can_retry(&self) -> bool {
        matches!(self.state, State::Done(Outcome::ModelError { .. }))
    }

    /// After a model error: ask the model again with the same request.
    pub fn retry(&mut self) -> Result<(), AgentError> {
        if !self.can_retry() {
            return Err(AgentError::NothingToRetry);
        }
        self.trace.outcome = None;
        self.state = State::NeedModel;
        // The failed step can no longer be retried.
        self.touch();
        self.open_step();
        Ok(())
    }

    /// Stops the run now; the trace so far is kept, with `partial`, the text the model had
    /// streamed when it was stopped, as the step's reply.
    pub fn abort(&mut self, partial: Option<String>) {
        let asking = match &self.state {
            State::Done(_) => return,
            state => *state == State::NeedModel,
        };
        self.finish(Outcome::Aborted);
        let partial = partial.filter(|text| asking && !text.is_empty());
        if let Some(text) = partial.filter(|_| self.current().reply.is_none()) {
            self.current_mut().reply = Some(ModelReply {
                text,
                ..ModelReply::default()
            });
        }
    }

    /// Starts the next step: trims the history when due and freezes the request.
    fn open_step(&mut self) {
        let config = &self.trace.config;
        let trim = history::trim_start(self.window_start, self.rounds.len(), config.history_rounds);
        // With `summary`, the rounds about to leave are first summarised, from the full history.
        // A summary takes a step of its own: not when the limit leaves no step after it.
        let room = self.trace.steps.len() + 2 <= config.max_steps;
        let dropped_now = match trim {
            Some(start) if self.compression.summarize_first(start, room) => None,
            trim => trim,
        };
        if let Some(start) = dropped_now {
            let dropped = start - self.window_start;
            self.window_start = start;
            let kept_rounds = self.rounds.len() - start;
            if !self.trace.steps.is_empty() {
                self.guard(Guard::HistoryTrimmed {
                    dropped_rounds: dropped,
                    kept_rounds,
                });
            }
        }
        let index = self.trace.steps.len() + 1;
        let request = self.request(index);
        self.changes.push(Change::Opened { step: index });
        self.trace.steps.push(Step {
            index,
            request,
            reply: None,
            parse: None,
            call: None,
            observation: None,
            guards: Vec::new(),
            error: None,
            plan: None,
            summary: None,
        });
    }

    fn finish(&mut self, outcome: Outcome) {
        self.trace.outcome = Some(outcome.clone());
        self.state = State::Done(outcome);
        // Its card shows how the run ended.
        self.touch();
        self.changes.push(Change::Done);
    }

    /// The reply of the step waiting for its tool, as kept in the history.
    fn pending_reply(&self) -> String {
        let text = self
            .current()
            .reply
            .as_ref()
            .map(|r| r.text.as_str())
            .unwrap_or_default();
        parse::cut_observation(text).0.trim_end().to_string()
    }

    /// A person edited a reply or an Observation of this run.
    fn steered(&self) -> bool {
        self.trace.steps.iter().any(|s| {
            s.reply.as_ref().is_some_and(|r| r.edited)
                || s.observation.as_ref().is_some_and(|o| o.edited)
        })
    }

    fn current(&self) -> &Step {
        // Invariant: `new` opens the first step, and steps are never removed.
        &self.trace.steps[self.trace.steps.len() - 1]
    }

    /// The current step, to change: the change is logged.
    fn current_mut(&mut self) -> &mut Step {
        self.touch();
        let last = self.trace.steps.len() - 1;
        &mut self.trace.steps[last]
    }
}

/// Keeps the first `limit` characters and says how much was cut.
pub fn truncate_chars(text: &str, limit: usize, total: usize) -> String {
    let end = text
        .char_indices()
        .nth(limit)
        .map_or(text.len(), |(i, _)| i);
    format!(
        "{}\n…[truncated: showing {limit} of {total} characters]",
        &text[..end]
    )
}
