//! The ReAct loop as a state machine that does no I/O.
//!
//! The agent says what it needs next ([`Next`]): call the model with these messages, run this
//! tool with these arguments, or nothing more because the run is over. The driver (the
//! browser, a test, the CLI) does that and feeds the result back. Every transition is
//! recorded in the [`Trace`], which is all a page needs to render a run.

use crate::lang::Lang;
use serde::{Deserialize, Serialize};

use crate::config::AgentConfig;
use crate::history::{self, Layout, Round};
use crate::llm::{
    Avoid, AvoidWhy, Constrained, LlmError, ModelRequest, MustAnswer, ServerKind, FINAL_ANSWER,
};
use crate::parse::{self, FormatError, ParseResult, Parsed, Span, Spans};
use crate::prompt::{self, FewShot, Opening, PromptConfig};
use crate::reading::{self, Examples, PastCall, RunSoFar};
use crate::strategy::{Compress, Strategy};
use crate::tools::{Builtin, HostContext, Registry, ToolCall, ToolError, ToolSpec};
use crate::trace::{
    Guard, ModelReply, Observation, ObservationSource, Outcome, ServerChoice, Step, Trace,
    TRACE_VERSION,
};

/// A tool result this short (a number, a date) is quoted at the start of the next Thought
/// under the grammar, "The Observation shows 375": the 0.5B model otherwise went on from its
/// own earlier guess (a remainder of 6 after the calculator said 4).
const SHORT_RESULT: usize = 40;
/// The most of a run-on Thought given back to be continued.
const RAN_ON_CHARS: usize = 120;

/// What the driver must do next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Next {
    CallModel { request: ModelRequest },
    RunTool { call: ToolCall },
    Done { outcome: Outcome },
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
    NotWaitingForModel,
    NotWaitingForTool,
    NothingToRetry,
}

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AgentError::NotWaitingForModel => "The agent is not waiting for a model reply now.",
            AgentError::NotWaitingForTool => "The agent is not waiting for a tool result now.",
            AgentError::NothingToRetry => "Only a run stopped by a model error can be retried.",
        })
    }
}

impl std::error::Error for AgentError {}

/// One ReAct run.
#[derive(Debug, Clone)]
pub struct Agent {
    /// What the examples in the system prompt call and answer: copying is not working.
    examples: Examples,
    registry: Registry,
    trace: Trace,
    rounds: Vec<Round>,
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
    /// A final answer was sent back for leaving out a number of the question (once a run).
    number_noted: bool,
    /// The answer the pending request asks the model to check (`reflect`).
    checking: Option<String>,
    /// The run's one self-check was asked for.
    checked: bool,
    /// The plan of a `plan` run, kept in the prompt.
    plan: Option<Vec<String>>,
    /// The next request asks for a plan: the first, or one new plan after a failed tool.
    plan_pending: bool,
    /// The one new plan was asked for.
    replanned: bool,
    /// The window start the pending summary request makes room for (`compress: summary`).
    summarizing: Option<usize>,
    /// The latest summary of the rounds that left the window.
    summary: Option<String>,
}

/// What a finished step leaves for the next request; kept as state so that no decision
/// re-reads the trace, which is only the record.
#[derive(Debug, Clone, Default)]
struct LastStep {
    /// The reply's format error, whose feedback was the Observation.
    format_error: Option<FormatError>,
    /// The Thought of a reply that was only a Thought.
    thought_only: Option<String>,
    /// A call repeated with the same arguments: its tool, and whether it had succeeded.
    repeated: Option<(String, bool)>,
    /// A tool's result short enough to quote (a number, a date).
    short_result: Option<String>,
    /// A tool that said its input was not its kind (the calculator given words).
    wrong_tool: Option<String>,
    /// A tool whose argument ran on until the token limit cut it off.
    runaway: Option<String>,
    /// A calculation for a question without numbers: no tool is about the question.
    unrelated: bool,
}

/// The system prompt a run starts with: the user's own, or the built-in one, which without a
/// constraint (`auto` before the server is known counts as none) ends with worked examples.
/// Fixed once the first request has gone out (a constraint dropped later does not add them:
/// the prompt cache would be lost).
pub fn system_prompt(
    config: &AgentConfig,
    registry: &Registry,
    constrained: Constrained,
) -> String {
    if let Some(own) = &config.system_prompt {
        return own.clone();
    }
    let strategy = config.strategy;
    let prompt = PromptConfig {
        few_shot: examples(config, registry, constrained),
        template: (config.prompt.template.clone())
            .or_else(|| Some(prompt::template(strategy, config.prompt.lang))),
        ..config.prompt.clone()
    };
    prompt::system_prompt(&registry.specs(), &prompt)
}

/// The system prompt and what its examples call and answer, which copying is not working.
fn prompt_and_examples(
    config: &AgentConfig,
    registry: &Registry,
    constrained: Constrained,
) -> (String, Examples) {
    let mut examples = Examples::of(&examples(config, registry, constrained));
    // The request that asks for the answer shows an answer line too.
    examples
        .answers
        .push(prompt::answer_placeholder(config.prompt.lang).to_string());
    (system_prompt(config, registry, constrained), examples)
}

/// The examples the built-in system prompt ends with: the user's, or else, without a
/// constraint, the worked examples of the enabled built-in tools.
fn examples(config: &AgentConfig, registry: &Registry, constrained: Constrained) -> Vec<FewShot> {
    if config.system_prompt.is_some() {
        Vec::new()
    } else if !config.prompt.few_shot.is_empty() {
        config.prompt.few_shot.clone()
    } else if config.worked_examples
        && config.prompt.template.is_none()
        && !constrained.is_on()
        && config.strategy == Strategy::React
    {
        let specs = registry.specs();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        prompt::worked_examples(config.prompt.lang, &names)
    } else {
        Vec::new()
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
            number_noted: false,
            checking: None,
            checked: false,
            plan: None,
            plan_pending: config.strategy.plans(),
            replanned: false,
            summarizing: None,
            summary: None,
            constrained,
            registry,
            trace: Trace {
                version: TRACE_VERSION,
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
            window_start: 0,
            state: State::NeedModel,
            format_errors: 0,
            calls: Vec::new(),
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

    /// True while `constrained` is `auto` and the server's kind is still unknown: the driver
    /// should find out (e.g. from `GET /models`, [`ServerKind::detect`]) and call
    /// [`Agent::set_server`] before the first request goes out.
    pub fn wants_server(&self) -> bool {
        self.trace.config.constrained == Constrained::Auto
            && self.trace.server.is_none()
            && self.state == State::NeedModel
    }

    /// The server's kind decides the constraint (recorded in the trace); the pending request
    /// is rebuilt with it.
    pub fn set_server(&mut self, kind: ServerKind) {
        if !self.wants_server() {
            return;
        }
        self.constrained = kind.constrained();
        self.trace.server = Some(ServerChoice {
            kind,
            constrained: self.constrained,
        });
        (self.trace.system_prompt, self.examples) =
            prompt_and_examples(&self.trace.config, &self.registry, self.constrained);
        self.current_mut().request = self.request(self.trace.steps.len());
    }

    /// The model call failed. When the server refused the constraint (an HTTP 400, 422 or 500
    /// to a constrained request), the constraint is dropped for the rest of the run, the
    /// pending request is rebuilt without it and true is returned: the driver asks again.
    /// Once per run; any other error returns false.
    pub fn constraint_refused(&mut self, error: &LlmError) -> bool {
        let refused = matches!(
            error,
            LlmError::Http {
                status: 400 | 422 | 500,
                ..
            }
        );
        if !refused || !self.constrained.is_on() || self.state != State::NeedModel {
            return false;
        }
        let constrained = std::mem::replace(&mut self.constrained, Constrained::Off);
        let request = self.request(self.trace.steps.len());
        let step = self.current_mut();
        step.guards.push(Guard::ConstraintDropped {
            constrained,
            error: error.clone(),
        });
        step.request = request;
        true
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub fn next(&self) -> Next {
        match &self.state {
            State::NeedModel => Next::CallModel {
                request: self.current().request.clone(),
            },
            State::NeedTool(call) => Next::RunTool { call: call.clone() },
            State::Done(outcome) => Next::Done {
                outcome: outcome.clone(),
            },
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
        if self.state != State::NeedModel {
            return Err(AgentError::NotWaitingForModel);
        }
        if let Some(start) = self.summarizing.take() {
            self.take_summary(reply, start);
            return Ok(());
        }
        if self.current().request.asks_plan {
            self.plan_pending = false;
            if let Some(steps) = prompt::read_plan(&reply.text) {
                self.take_plan(reply, steps);
                return Ok(());
            }
            // No plan in the reply: the run goes on without one, as ReAct.
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
        let run = RunSoFar {
            question: &self.trace.question,
            registry: &self.registry,
            calls: &self.calls,
            observations: &observations,
            after_empty_answer: self.last.format_error == Some(FormatError::EmptyAnswer),
            answer_asked: self.current().request.must_answer.is_some()
                && !self.current().request.constrained.is_on(),
            last_step: self.trace.steps.len() >= self.trace.config.max_steps,
            // "OK" to a self-check leaves the question's numbers where they were.
            number_noted: self.number_noted || self.checking.is_some(),
            examples: &self.examples,
        };
        let parsed = reading::in_context(parsed, &reply.text, &run);
        self.number_noted |= matches!(
            parsed.parsed,
            Parsed::Error {
                error: FormatError::NumberUnused { .. }
            }
        );
        self.last = LastStep::default();
        let reply_text = reply.text.trim().to_string();
        let (kept, cut) = parse::cut_observation(&reply.text);
        let kept = kept.trim_end().to_string();
        let dropped_chars = reply.text.chars().count() - kept.chars().count();
        let prompt_cut = self.prompt_cut(&reply);
        let step = self.current_mut();
        step.guards.extend(prompt_cut);
        if cut {
            step.guards
                .push(Guard::SelfObservationCut { dropped_chars });
        }
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
                if error == FormatError::ThoughtOnly {
                    self.last.thought_only = parsed.thought.clone();
                }
                if error.cut_off() {
                    self.last.runaway = parsed
                        .spans
                        .action
                        .and_then(|span| reply_text_at(&self.current().reply, span))
                        .filter(|action| self.registry.specs().iter().any(|t| t.name == *action));
                }
                self.last.format_error = Some(error.clone());
                let lang = self.trace.config.prompt.lang;
                let feedback = self.second_move(&reply_text, error.feedback(lang));
                self.current_mut()
                    .guards
                    .push(Guard::FormatFeedback { error, consecutive });
                self.mark_second_move();
                self.observe(kept, feedback, ObservationSource::Feedback, None, false);
            }
            Parsed::Action { tool, input } => {
                self.format_errors = 0;
                if self.checking.take().is_some() {
                    // The self-check went back to the tools: its revision is what follows.
                    self.current_mut()
                        .guards
                        .push(Guard::SelfCheck { kept: false });
                }
                match self.registry.dispatch(&tool, &input) {
                    Err(error) => {
                        let lang = self.trace.config.prompt.lang;
                        let text = self.second_move(&reply_text, error.observation(lang));
                        self.current_mut()
                            .guards
                            .push(Guard::DispatchFailed { error });
                        self.mark_second_move();
                        self.observe(kept, text, ObservationSource::Feedback, None, false);
                    }
                    Ok(call) => self.prepare_call(kept, call),
                }
            }
        }
        Ok(())
    }

    /// A summary reply: kept on its step and after the question from now on; the rounds it
    /// covers leave the window, and the run goes on.
    fn take_summary(&mut self, reply: ModelReply, start: usize) {
        let summary = prompt::read_summary(&reply.text);
        let dropped = start - self.window_start;
        self.window_start = start;
        self.summary = Some(summary.clone());
        let kept_rounds = self.rounds.len() - start;
        let step = self.current_mut();
        step.reply = Some(reply);
        step.summary = Some(summary);
        step.guards.push(Guard::HistoryTrimmed {
            dropped_rounds: dropped,
            kept_rounds,
        });
        self.open_step();
    }

    /// A plan reply: its steps on the step, in the prompt from now on, and the model told to
    /// carry it out.
    fn take_plan(&mut self, reply: ModelReply, steps: Vec<String>) {
        let kept = reply.text.trim().to_string();
        let lang = self.trace.config.prompt.lang;
        self.plan = Some(steps.clone());
        let step = self.current_mut();
        step.reply = Some(reply);
        step.plan = Some(steps);
        let text = prompt::plan_feedback(lang, false).to_string();
        self.observe(kept, text, ObservationSource::Feedback, None, false);
    }

    /// A final answer: taken, or first checked once (`reflect`), or the check's own reply,
    /// which keeps the answer it was shown ("OK") or replaces it.
    fn final_answer(&mut self, reply: String, answer: String) {
        let config = &self.trace.config;
        if let Some(checked) = self.checking.take() {
            let kept = prompt::keeps_answer(&answer);
            self.current_mut().guards.push(Guard::SelfCheck { kept });
            let answer = if kept { checked } else { answer };
            self.finish(Outcome::Answer { answer });
        } else if config.strategy.checks()
            && !self.checked
            && self.trace.steps.len() < config.max_steps
        {
            self.checked = true;
            let lang = config.prompt.lang;
            let text = prompt::check_answer(&self.trace.question, &answer, lang);
            self.checking = Some(answer);
            self.observe(reply, text, ObservationSource::Feedback, None, false);
        } else {
            self.finish(Outcome::Answer { answer });
        }
    }

    /// A [`Guard::PromptCut`] when the server's count of this request's prompt shows it cut
    /// the prompt, the first time in the run.
    fn prompt_cut(&self, reply: &ModelReply) -> Option<Guard> {
        let counted = reply.usage.prompt_tokens?;
        let steps = &self.trace.steps;
        let noted = steps.iter().any(|s| {
            s.guards
                .iter()
                .any(|g| matches!(g, Guard::PromptCut { .. }))
        });
        let sent = history::estimate(&self.current().request.messages);
        let before = steps.iter().rev().nth(1).and_then(|s| {
            let counted = s.reply.as_ref()?.usage.prompt_tokens?;
            Some((history::estimate(&s.request.messages), counted))
        });
        (!noted && history::cut_by_server(sent, counted, before))
            .then_some(Guard::PromptCut { sent, counted })
    }

    /// Identical reply, identical feedback, identical reply: a stuck model needs something
    /// else. When the reply or the mistake repeats the last one, the feedback changes: first a
    /// short form that shows only the three lines to write, then the hard wording.
    fn second_move(&mut self, reply: &str, feedback: String) -> String {
        let same = self
            .last_feedback
            .as_ref()
            .is_some_and(|(r, f)| r == reply || *f == feedback);
        self.stuck = if same { self.stuck + 1 } else { 0 };
        self.last_feedback = Some((reply.to_string(), feedback.clone()));
        if self.stuck == 0 {
            return feedback;
        }
        let names: Vec<String> = self
            .registry
            .specs()
            .iter()
            .map(|t| t.name.clone())
            .collect();
        let names = names.join(", ");
        match (self.trace.config.prompt.lang, self.stuck) {
            (Lang::En, stuck) => {
                let lines = format!(
                    "Thought: <one sentence>\nAction: <one of: {names}, final_answer>\nAction \
                     Input: <JSON arguments; for final_answer, the answer>"
                );
                if stuck == 1 {
                    format!("{feedback}\nReply with only these three lines:\n{lines}")
                } else {
                    format!(
                        "You sent the same reply again. Reply with exactly these three lines, or \
                         the task fails:\n{lines}"
                    )
                }
            }
            (Lang::Zh, stuck) => {
                let lines = format!(
                    "Thought: <一句话>\nAction: <以下之一：{names}, final_answer>\nAction Input: \
                     <JSON 参数；若为 final_answer，则写答案>"
                );
                if stuck == 1 {
                    format!("{feedback}\n只回复这三行：\n{lines}")
                } else {
                    format!("你又发送了同样的回复。请严格只回复这三行，否则任务失败：\n{lines}")
                }
            }
        }
    }

    /// After a tool failed, the others and what each is for: small models keep trying the
    /// first tool they thought of (the calculator for "what month is it?").
    fn other_tools(&self, failed: &str) -> String {
        let lang = self.trace.config.prompt.lang;
        let others: Vec<String> = self
            .registry
            .specs()
            .into_iter()
            .filter(|t| t.name != failed)
            .map(|t| format!("{} ({})", t.name, crate::tools::description(t, lang)))
            .collect();
        let (label, none) = match lang {
            Lang::En => (
                "Other tools: ",
                "No other tools; fix the call or answer with final_answer.",
            ),
            Lang::Zh => (
                "其他工具：",
                "没有其他工具；请修正调用，或用 final_answer 作答。",
            ),
        };
        if others.is_empty() {
            none.to_string()
        } else {
            format!("{label}{}.", others.join("; "))
        }
    }

    /// The guard that shows a changed feedback, after the guard that gave it.
    fn mark_second_move(&mut self) {
        let repeat = self.stuck;
        if repeat > 0 {
            self.current_mut().guards.push(Guard::SecondMove { repeat });
        }
    }

    /// Records a failed model call; the run stops but can be retried with [`Agent::retry`].
    pub fn feed_model_error(&mut self, error: LlmError) -> Result<(), AgentError> {
        if self.state != State::NeedModel {
            return Err(AgentError::NotWaitingForModel);
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
        self.open_step();
        Ok(())
    }

    pub fn feed_tool(&mut self, result: ToolResult) -> Result<(), AgentError> {
        let State::NeedTool(call) = &self.state else {
            return Err(AgentError::NotWaitingForTool);
        };
        let (tool, args) = (call.tool.clone(), call.args.clone());
        // The 0.5B model, made to act first, computed `1 + 1` for "What is the capital of
        // China?" and answered 2: a calculation for a question without numbers is not about it.
        let unrelated = call.builtin == Some(Builtin::Calculator)
            && result.output.is_ok()
            && !reading::mentions_number(&self.trace.question);
        let reply = self.pending_reply();
        let succeeded = result.output.is_ok();
        self.last.short_result = result
            .output
            .as_ref()
            .ok()
            .map(|text| text.trim())
            .filter(|text| text.chars().count() <= SHORT_RESULT && !text.contains('\n'))
            .map(str::to_string);
        let (text, source) = match result.output {
            Ok(text) if unrelated => {
                self.last.short_result = None;
                self.last.unrelated = true;
                let note = match self.trace.config.prompt.lang {
                    Lang::En => {
                        "(The question has no numbers, so this calculation is not about it. If \
                         no tool answers the question, answer it from what you know.)"
                    }
                    Lang::Zh => {
                        "（问题里没有数字，所以这个计算与它无关。如果没有工具能回答这个问题，\
                         就根据你自己的知识回答。）"
                    }
                };
                (format!("{text}\n{note}"), ObservationSource::Tool)
            }
            Ok(text) => (text, ObservationSource::Tool),
            Err(error) => {
                if error.wrong_tool() {
                    self.last.wrong_tool = Some(tool.clone());
                }
                let lang = self.trace.config.prompt.lang;
                let mut text = format!("{}\n{}", error.observation(lang), self.other_tools(&tool));
                self.current_mut().guards.push(Guard::ToolFailed { error });
                if self.plan.is_some() && !self.replanned {
                    // One new plan, now that a step of the old one failed.
                    self.replanned = true;
                    self.plan_pending = true;
                    text = format!("{text}\n{}", prompt::plan_feedback(lang, true));
                }
                (text, ObservationSource::ToolError)
            }
        };
        // Recorded before the observation opens the next step, whose request depends on it.
        self.calls.push(PastCall {
            tool,
            args,
            observation: String::new(),
            succeeded,
            repeats: 0,
        });
        let sent = self.observe(reply, text, source, result.elapsed_ms, result.edited);
        if let Some(past) = self.calls.last_mut() {
            past.observation = sent;
        }
        Ok(())
    }

    /// After [`Agent::abort`] during a model call: records the text that had streamed in.
    pub fn keep_partial_reply(&mut self, text: String) {
        let aborted = matches!(self.state, State::Done(Outcome::Aborted));
        if aborted && !text.is_empty() && self.current().reply.is_none() {
            self.current_mut().reply = Some(ModelReply {
                text,
                ..ModelReply::default()
            });
        }
    }

    /// Stops the run now; the trace so far is kept.
    pub fn abort(&mut self) {
        if !matches!(self.state, State::Done(_)) {
            self.finish(Outcome::Aborted);
        }
    }

    fn prepare_call(&mut self, kept: String, call: ToolCall) {
        self.current_mut().call = Some(call.clone());
        let past = self
            .calls
            .iter_mut()
            .find(|p| p.tool == call.tool && p.args == call.args);
        let Some(past) = past else {
            self.state = State::NeedTool(call);
            return;
        };
        past.repeats += 1;
        let (earlier, repeat, past_succeeded) =
            (past.observation.clone(), past.repeats, past.succeeded);
        self.last.repeated = Some((call.tool.clone(), past.succeeded));
        let max = self.trace.config.max_repeats;
        if repeat >= max {
            self.current_mut().guards.push(Guard::TooManyRepeats {
                tool: call.tool.clone(),
                repeats: repeat,
            });
            self.finish(Outcome::RepeatedCalls { tool: call.tool });
            return;
        }
        self.current_mut().guards.push(Guard::RepeatedCall {
            tool: call.tool.clone(),
            repeat,
        });
        let tool = &call.tool;
        // A failed call is not something to answer with: that invitation got error messages
        // sent as answers. Without a constraint the next request asks for the answer
        // ([`prompt::ask_for_answer`]), so the note only says what happened.
        let will_ask = !self.constrained.is_on();
        let text = match (self.trace.config.prompt.lang, past_succeeded, will_ask) {
            (Lang::En, false, true) => {
                format!("{earlier}\n(The same call again, and it failed the same way.)")
            }
            (Lang::Zh, false, true) => {
                format!("{earlier}\n（同样的调用，同样失败了。）")
            }
            (Lang::En, false, false) => format!(
                "{earlier}\n(You already called {tool} with these arguments, and it failed the \
                 same way. Change the arguments, or use another tool.)"
            ),
            (Lang::Zh, false, false) => format!(
                "{earlier}\n（你已经用相同的参数调用过 {tool}，它同样失败了。请修改参数，或者换用别的工具。）"
            ),
            (Lang::En, true, false) => format!(
                "{earlier}\n(You already called {tool} with these arguments; this is the same \
                 result. Use it to give the final answer with Action: final_answer, or try \
                 something different.)"
            ),
            (Lang::Zh, true, false) => format!(
                "{earlier}\n（你已经用相同的参数调用过 {tool}，这是同样的结果。请用它通过 \
                 Action: final_answer 给出最终答案，或者换一种做法。）"
            ),
            (Lang::En, true, true) => {
                format!("{earlier}\n(The same call again, the same result.)")
            }
            (Lang::Zh, true, true) => format!("{earlier}\n（同样的调用，同样的结果。）"),
        };
        self.record_observation(kept, text, ObservationSource::Cached, None, false);
    }

    /// Truncates, records and answers with an observation; returns the text the model sees.
    fn observe(
        &mut self,
        reply: String,
        text: String,
        source: ObservationSource,
        elapsed_ms: Option<f64>,
        edited: bool,
    ) -> String {
        let limit = self.trace.config.observation_limit;
        let full_chars = text.chars().count();
        let text = if full_chars > limit {
            self.current_mut().guards.push(Guard::ObservationTruncated {
                from_chars: full_chars,
                to_chars: limit,
            });
            truncate_chars(&text, limit, full_chars)
        } else {
            text
        };
        self.record_observation(reply, text.clone(), source, elapsed_ms, edited);
        text
    }

    fn record_observation(
        &mut self,
        reply: String,
        text: String,
        source: ObservationSource,
        elapsed_ms: Option<f64>,
        edited: bool,
    ) {
        let step = self.current_mut();
        let full_chars = step
            .guards
            .iter()
            .find_map(|g| match g {
                Guard::ObservationTruncated { from_chars, .. } => Some(*from_chars),
                _ => None,
            })
            .unwrap_or_else(|| text.chars().count());
        step.observation = Some(Observation {
            text: text.clone(),
            source,
            full_chars,
            elapsed_ms,
            edited,
        });
        self.rounds.push(Round {
            reply,
            observation: text.clone(),
        });
        let config = &self.trace.config;
        // The counter resets on every parseable reply, so reaching the limit means this
        // step was a format error too.
        if self.format_errors >= config.max_format_errors {
            let count = self.format_errors;
            self.current_mut()
                .guards
                .push(Guard::TooManyFormatErrors { count });
            self.finish(Outcome::FormatErrors { count });
        } else if self.trace.steps.len() >= config.max_steps {
            let steps = config.max_steps;
            self.current_mut().guards.push(Guard::StepLimit { steps });
            self.finish(Outcome::StepLimit {
                steps,
                last_observation: Some(text),
            });
        } else {
            self.state = State::NeedModel;
            self.open_step();
        }
    }

    /// Starts the next step: trims the history when due and freezes the request.
    fn open_step(&mut self) {
        let config = &self.trace.config;
        let trim = history::trim_start(self.window_start, self.rounds.len(), config.history_rounds);
        // With `summary`, the rounds about to leave are first summarised, from the full history.
        // A summary takes a step of its own: not when the limit leaves no step after it.
        let summarize = config.compress == Compress::Summary
            && self.summarizing.is_none()
            && self.trace.steps.len() + 2 <= config.max_steps;
        if let Some(start) = trim.filter(|_| summarize) {
            self.summarizing = Some(start);
        } else if let Some(start) = trim {
            let dropped = start - self.window_start;
            self.window_start = start;
            let kept_rounds = self.rounds.len() - start;
            if let Some(last) = self.trace.steps.last_mut() {
                last.guards.push(Guard::HistoryTrimmed {
                    dropped_rounds: dropped,
                    kept_rounds,
                });
            }
        }
        let index = self.trace.steps.len() + 1;
        let request = self.request(index);
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

    /// The request for step `index`, from the history window and what the last finished
    /// step showed.
    fn request(&self, index: usize) -> ModelRequest {
        let config = &self.trace.config;
        let on = self.constrained.is_on();
        let layout = Layout {
            pinned: {
                let lang = config.prompt.lang;
                let plan = (self.plan.as_deref()).map(|steps| prompt::plan_text(steps, lang));
                let summary = (self.summary.as_deref()).map(|s| prompt::summary_text(s, lang));
                let pinned: Vec<String> = plan.into_iter().chain(summary).collect();
                (!pinned.is_empty()).then(|| pinned.join("\n"))
            },
            style: config.style.resolve(on),
            restate_question: config.restate_question,
            lang: config.prompt.lang,
        };
        let mut messages = history::messages(
            &self.trace.system_prompt,
            &self.trace.question,
            &self.rounds[self.window_start..],
            self.window_start,
            &layout,
        );
        if self.summarizing.is_some() {
            // The history as it stands, asked to be summarised: an extension of the last
            // request, so the server's prompt cache holds.
            history::close_with(&mut messages, prompt::ask_for_summary(config.prompt.lang));
            return ModelRequest {
                messages,
                stop: if on { Vec::new() } else { config.stop.clone() },
                constrained: self.constrained,
                summarizes: true,
                ..ModelRequest::default()
            };
        }
        let last = &self.last;
        // The last reply's misused action, which constrained modes then leave out; no final
        // answer before a tool has run (act first), also after a format error.
        let avoid = |tool: &str, why| {
            Some(Avoid {
                tool: tool.to_string(),
                why,
            })
        };
        let avoid = if let Some((tool, _)) = &last.repeated {
            avoid(tool, AvoidWhy::Repeated)
        } else if let Some(tool) = &last.wrong_tool {
            avoid(tool, AvoidWhy::WrongTool)
        } else if let Some(tool) = &last.runaway {
            // The 1.5B model wrote the same endless expression again after being told it was
            // cut off; without that tool it answers or takes another. Before act-first: the
            // model did try to act.
            avoid(tool, AvoidWhy::Runaway)
        } else if config.act_first && self.calls.is_empty() {
            avoid(FINAL_ANSWER, AvoidWhy::ActFirst)
        } else if let Some(
            FormatError::ArgumentsAsAnswer { .. } | FormatError::NumberUnused { .. },
        ) = last.format_error
        {
            // Told the answer is not one yet, the model answers again unless it cannot.
            avoid(FINAL_ANSWER, AvoidWhy::NotAnAnswer)
        } else {
            None
        };
        // Asked for the answer, the model broke the format (or copied the placeholder): the
        // feedback says how, and the request asks again, in other words.
        let asked_before = self.trace.steps.last().and_then(|s| s.request.must_answer);
        let again = !on && last.format_error.is_some() && asked_before.is_some();
        let repeated_succeeded = last.repeated.as_ref().map(|(_, succeeded)| *succeeded);
        let must_answer = match repeated_succeeded {
            // A successful call repeated with the same arguments: its result is in hand, and
            // the 0.5B model went on repeating it (or another tool) until the limit. Only the
            // answer is left to write.
            Some(true) => Some(MustAnswer::RepeatedCall),
            // A failed one: a constraint leaves the failing tool out instead (`avoid`).
            Some(false) if !on => Some(MustAnswer::RepeatedFailure),
            // Made to act first, the model computed something for a question without numbers;
            // the answer is to come from what it knows (a constraint allows only that).
            _ if last.unrelated => Some(MustAnswer::NoToolFits),
            // The last step the limit allows cannot use another Observation: only the answer
            // is left (after the first, so that a tool can still run in a one-step run). A
            // constraint allows nothing else; without one, the request ends by asking for it.
            _ if index >= config.max_steps && index > 1 => Some(MustAnswer::LastStep),
            _ if again => asked_before,
            _ => None,
        };
        let lang = config.prompt.lang;
        if let Some(why) = must_answer.filter(|_| !on) {
            history::close_with(
                &mut messages,
                &prompt::ask_for_answer(&self.trace.question, lang, why, again),
            );
        }
        // A Thought that ran on to the token limit is given back, cut to its first
        // sentences, with the Action to follow: the model's own half-written reply, continued.
        let ran_on = last.thought_only.as_deref().map(leading_sentences);
        let thought_closed = on && ran_on.is_some();
        let observed = !self.rounds.is_empty();
        let unused = match &last.format_error {
            Some(FormatError::NumberUnused { number }) => Some(prompt::use_number(number, lang)),
            _ => None,
        };
        let thought_prefix = match (observed, ran_on) {
            _ if !config.strategy.thinks() || self.plan_pending => None,
            (_, Some(thought)) => Some(thought),
            _ if self.checking.is_some() => Some(prompt::opening(Opening::Check, lang).to_string()),
            _ if last.unrelated => Some(prompt::opening(Opening::FromKnowledge, lang).to_string()),
            (_, None) if unused.is_some() => unused,
            // Carrying out a plan, the Thought opens on the step it is at (the tools that
            // answered so far): the 0.5B model, opening "The Observation shows", made up a
            // result and then ran its steps on past the last.
            (_, None) if self.plan.is_some() => {
                let done = self.calls.iter().filter(|c| c.succeeded).count();
                let plan = self.plan.as_deref().unwrap_or_default();
                Some(prompt::plan_step(plan, done, lang))
            }
            // The tool the question's words point to, named where the first Thought opens;
            // the Action stays the model's choice.
            (false, None) if config.act_first && config.strategy.acts() => {
                let opening = prompt::opening(Opening::ChooseTool, lang);
                Some(match self.registry.suggest(&self.trace.question, lang) {
                    Some(tool) => format!("{opening} {tool}"),
                    None => opening.to_string(),
                })
            }
            (false, None) => None,
            (true, None) => {
                let opening = prompt::opening(Opening::ReadObservation, lang);
                Some(match &last.short_result {
                    Some(result) => format!("{opening} {result}"),
                    None => opening.to_string(),
                })
            }
        }
        .filter(|_| on);
        let checks_answer = self.checking.clone();
        let asks_plan = self.plan_pending && must_answer.is_none();
        // The check's reply may be "OK": no opening forces a sentence; a plan has no answer.
        let answer_prefix = (on && checks_answer.is_none() && !asks_plan)
            .then(|| prompt::opening(Opening::Answer, lang).to_string());
        ModelRequest {
            must_answer,
            thought_prefix,
            thought_closed,
            answer_prefix,
            messages,
            // A constrained reply ends by itself; a stop would cut a Thought that mentions
            // an Observation and leave a reply with no action.
            stop: if on { Vec::new() } else { config.stop.clone() },
            avoid: avoid.filter(|_| on && !asks_plan),
            constrained: self.constrained,
            no_thought: on && !config.strategy.thinks(),
            checks_answer,
            asks_plan,
            summarizes: false,
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.trace.outcome = Some(outcome.clone());
        self.state = State::Done(outcome);
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

    fn current(&self) -> &Step {
        // Invariant: `new` opens the first step, and steps are never removed.
        &self.trace.steps[self.trace.steps.len() - 1]
    }

    fn current_mut(&mut self) -> &mut Step {
        let last = self.trace.steps.len() - 1;
        &mut self.trace.steps[last]
    }
}

/// A reply the grammar shaped: the Thought (the given opening, then words without a colon),
/// then `Action: ` on the next line or after a space, then the Action Input. A reply cut
/// before its Action Input is only a Thought; `None` for a reply the grammar could not have
/// made.
fn parse_grammar_reply(text: &str, prefix: &str) -> Option<ParseResult> {
    let thought_line = text.strip_prefix("Thought: ")?;
    // The model's own words have no colon under the grammar, so the first "Action: " after
    // the opening it was given (which may quote a time) is the Action, on its own line or
    // right after the Thought. A reply with other colons was not made by the grammar (an
    // edited reply): the general parser reads it.
    let skip = if thought_line.starts_with(prefix) {
        prefix.len()
    } else {
        0
    };
    let action_at = thought_line[skip..].find("Action: ").map(|at| at + skip);
    let own_words = &thought_line[skip..action_at.unwrap_or(thought_line.len())];
    if own_words.contains([':', '：']) {
        return None;
    }
    let thought = thought_line[..action_at.unwrap_or(thought_line.len())].trim_end();
    let rest_at = "Thought: ".len() + action_at.unwrap_or(thought_line.len());
    let rest = text.get(rest_at..)?;
    // Cut by the token limit before the Action Input: only a Thought, given back next time
    // with the Action to follow.
    if !rest.contains("\nAction Input: ") {
        return Some(ParseResult {
            parsed: Parsed::Error {
                error: FormatError::ThoughtOnly,
            },
            thought: Some(thought.trim().to_string()),
            spans: Spans {
                thought: Some(Span {
                    start: "Thought: ".len(),
                    end: "Thought: ".len() + thought.len(),
                }),
                ..Spans::default()
            },
            repairs: Vec::new(),
        });
    }
    let mut parsed = parse::parse_reply(rest);
    let shift = |span: Option<Span>| {
        span.map(|s| Span {
            start: s.start + rest_at,
            end: s.end + rest_at,
        })
    };
    parsed.spans = Spans {
        thought: Some(Span {
            start: "Thought: ".len(),
            end: "Thought: ".len() + thought.len(),
        }),
        action: shift(parsed.spans.action),
        input: shift(parsed.spans.input),
        answer: shift(parsed.spans.answer),
    };
    parsed.thought = Some(thought.trim().to_string());
    Some(parsed)
}

/// A JSON reply cut by the token limit inside its `thought`, the first property the schema
/// asks for: only a Thought, given back next time (as a `const`) with the action to follow, as
/// under the grammar. The 0.5B model explained a formula over five sentences and was told its
/// Action Input was not closed, which it was not to blame for, three times in a row.
fn json_thought_cut(text: &str) -> Option<ParseResult> {
    let open = text.trim_start().strip_prefix('{')?.trim_start();
    let value = open.strip_prefix("\"thought\"")?.trim_start();
    let string = value.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let mut escaped = false;
    for c in string.chars() {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            // The string closes: not cut there, the general parser reads the reply.
            (false, '"') => return None,
            _ => {}
        }
    }
    // The text as written, its escapes read where they are whole.
    let raw = string.trim_end_matches('\\');
    let thought =
        serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.to_string());
    let start = text.len() - string.len();
    Some(ParseResult {
        parsed: Parsed::Error {
            error: FormatError::ThoughtOnly,
        },
        thought: Some(thought.trim().to_string()),
        spans: Spans {
            thought: Some(Span {
                start,
                end: text.len(),
            }),
            ..Spans::default()
        },
        repairs: Vec::new(),
    })
}

/// The first sentences of a Thought that ran on: up to three sentence ends and
/// [`RAN_ON_CHARS`] characters, cut after a word. It is given back whole and the Action must
/// fit after it within the token limit: 300 characters of a repeated date
/// ("2026-12-01, 2026-12-01, …") once left SmolLM2 no tokens for its answer.
fn leading_sentences(thought: &str) -> String {
    let mut ends = 0;
    let mut cut = thought.len();
    for (n, (i, c)) in thought.char_indices().enumerate() {
        if n >= RAN_ON_CHARS {
            // After the last space, unless the text has none (Chinese).
            cut = thought[..i].rfind(' ').filter(|&at| at > 0).unwrap_or(i);
            break;
        }
        if matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
            ends += 1;
            if ends == 3 {
                cut = i + c.len_utf8();
                break;
            }
        }
    }
    thought[..cut].trim().trim_end_matches(',').to_string()
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

/// The text of a span of the reply, trimmed (e.g. the tool an Action names).
fn reply_text_at(reply: &Option<ModelReply>, span: Span) -> Option<String> {
    let text = reply.as_ref()?.text.get(span.start..span.end)?;
    Some(text.trim().to_string())
}
