//! The request of each step: the system prompt a run starts with, and what a request asks
//! beyond the history (a left-out action, an answer it must give, the words a Thought or an
//! answer opens with), from what the last step left.

use super::*;
use crate::llm::Message;
use crate::tools::{current_time, days};

impl Agent {
    /// The request for step `index`, from the history window and what the last finished
    /// step showed.
    pub(super) fn request(&self, index: usize) -> ModelRequest {
        let config = &self.trace.config;
        let on = self.constrained.is_on();
        let layout = Layout {
            pinned: {
                let lang = config.prompt.lang;
                let plan = (self.course.plan()).map(|steps| prompt::plan_text(steps, lang));
                let summary = (self.compression.latest())
                    .map(|s| prompt::summary_text(s, config.prompt.voice()));
                let pinned: Vec<String> = plan.into_iter().chain(summary).collect();
                (!pinned.is_empty()).then(|| pinned.join("\n"))
            },
            style: config.style.resolve(on),
            restate_question: config.restate_question,
            voice: config.prompt.voice(),
        };
        let mut messages = history::messages(
            &self.trace.system_prompt,
            &self.trace.question,
            &self.rounds[self.window_start..],
            self.window_start,
            &layout,
        );
        if self.compression.summarizing() {
            // The history as it stands, asked to be summarised: an extension of the last
            // request, so the server's prompt cache holds.
            history::close_with(
                &mut messages,
                &prompt::ask_for_summary(config.prompt.voice()),
            );
            return ModelRequest {
                messages,
                stop: if on { Vec::new() } else { config.stop.clone() },
                constrained: self.constrained,
                summarizes: true,
                ..ModelRequest::default()
            };
        }
        let last = &self.last;
        let next = self.next_tool();
        // The last reply's misused action, which constrained modes then leave out; no final
        // answer before a tool has run (act first), also after a format error.
        let avoid = |tool: &str, why| {
            Some(Avoid {
                tool: tool.to_string(),
                why,
            })
        };
        let avoid = if let Noted::Repeated { tool, .. } = &last.noted {
            avoid(tool, AvoidWhy::Repeated)
        } else if let Noted::WrongTool { tool } = &last.noted {
            avoid(tool, AvoidWhy::WrongTool)
        } else if let Noted::FormatError {
            runaway: Some(tool),
            ..
        } = &last.noted
        {
            // The 1.5B model wrote the same endless expression again after being told it was
            // cut off; without that tool it answers or takes another. Before act-first: the
            // model did try to act.
            avoid(tool, AvoidWhy::Runaway)
        } else if let Some(tool) = self.counted_tool() {
            avoid(tool, AvoidWhy::Counted)
        } else if config.act_first && self.calls.is_empty() && !self.no_tool_fits() {
            avoid(FINAL_ANSWER, AvoidWhy::ActFirst)
        } else if let Some(
            FormatError::ArgumentsAsAnswer { .. }
            | FormatError::NumberUnused { .. }
            | FormatError::NameUnused { .. },
        ) = last.format_error()
        {
            // Told the answer is not one yet, the model answers again unless it cannot.
            avoid(FINAL_ANSWER, AvoidWhy::NotAnAnswer)
        } else {
            None
        };
        // Asked for the answer, the model broke the format (or copied the placeholder): the
        // feedback says how, and the request asks again, in other words.
        let asked_before = self.trace.steps.last().and_then(|s| s.request.must_answer);
        let again = !on && last.format_error().is_some() && asked_before.is_some();
        let unrelated = matches!(last.noted, Noted::Unrelated);
        let must_answer = MustAnswer::from_left(&Left {
            constrained: on,
            repeated: match last.noted {
                Noted::Repeated { succeeded, .. } => Some(succeeded),
                _ => None,
            },
            unrelated: unrelated && next.is_none(),
            found_before: self.found_before().is_some(),
            applied_again: matches!(last.noted, Noted::AppliedAgain),
            last_step: index >= config.max_steps && index > 1,
            asked_again: asked_before.filter(|_| again),
        });
        let voice = config.prompt.voice();
        if let Some(why) = must_answer.filter(|_| !on) {
            history::close_with(
                &mut messages,
                &prompt::ask_for_answer(&self.trace.question, voice, why, again),
            );
        }
        // A Thought that ran on to the token limit is given back, cut to its first
        // sentences, with the Action to follow: the model's own half-written reply, continued.
        let ran_on = match &last.noted {
            Noted::FormatError { thought_only, .. } => {
                thought_only.as_deref().map(leading_sentences)
            }
            _ => None,
        };
        let thought_closed = on && ran_on.is_some();
        let observed = !self.rounds.is_empty();
        let unused = match last.format_error() {
            Some(FormatError::NumberUnused { number }) => Some(prompt::use_number(number, voice)),
            Some(FormatError::NameUnused { name, tool, .. }) => {
                Some(prompt::use_name(name, tool, voice))
            }
            _ => None,
        };
        let thought_prefix = match (observed, ran_on) {
            _ if !config.strategy.thinks() || self.course.asks_plan() => None,
            (_, Some(thought)) => Some(thought),
            _ if self.course.checking().is_some() => Some(prompt::opening(Opening::Check, voice)),
            _ if unrelated => Some(match (next, self.found_before()) {
                (Some(tool), _) => {
                    format!("{} {tool}", prompt::opening(Opening::ChooseTool, voice))
                }
                (None, Some(found)) => prompt::found_by(found, voice),
                (None, None) => prompt::opening(Opening::FromKnowledge, voice),
            }),
            (_, None) if unused.is_some() => unused,
            // Carrying out a plan, the Thought opens on the step it is at.
            (_, None) if self.course.plan().is_some() => {
                let done = crate::trace::plan_progress(&self.trace.steps).map_or(0, |p| p.done);
                self.course.plan_opening(done, config.prompt.voice())
            }
            // No tool has evidence in the question: the first Thought opens on answering it.
            (false, None) if config.act_first && config.strategy.acts() && self.no_tool_fits() => {
                Some(prompt::opening(Opening::FromKnowledge, voice))
            }
            // The tool the question points to, named where the first Thought opens: the one
            // steered to, or else the best fit when it is ahead of the others.
            (false, None) if config.act_first && config.strategy.acts() => {
                let opening = prompt::opening(Opening::ChooseTool, voice);
                // Named on strong evidence, or a page's tool ahead of all on some: a tool
                // declared in another language, or by its description alone, has no more to
                // show. On weaker evidence the model chooses.
                let ahead = match &self.fits[..] {
                    [best, next, ..] if best.score > next.score => Some(best),
                    [best] if best.score > 0 => Some(best),
                    _ => None,
                };
                let named = |f: &&ToolFit| {
                    f.score >= fit::STRONG || (f.role.is_none() && f.score >= fit::SOME)
                };
                let ahead = ahead.filter(named).map(|f| f.tool.as_str());
                Some(match next.or(ahead) {
                    Some(tool) => format!("{opening} {tool}"),
                    None => opening.to_string(),
                })
            }
            (false, None) => None,
            (true, None) => {
                let opening = prompt::opening(Opening::ReadObservation, voice);
                Some(match &last.short_result {
                    Some(result) => format!("{opening} {result}"),
                    None => opening.to_string(),
                })
            }
        }
        .filter(|_| on);
        let checks_answer = self.course.checking().map(str::to_string);
        let asks_plan = self.course.asks_plan() && must_answer.is_none();
        // The check's reply may be "OK": no opening forces a sentence; a plan has no answer.
        let answer_prefix = (on && checks_answer.is_none() && !asks_plan)
            .then(|| prompt::opening(Opening::Answer, voice));
        // Not to the tool the last reply misused: left out, it stays out.
        let misused = |tool: &&str| avoid.as_ref().is_some_and(|a| a.tool == *tool);
        // The tool the last Thought chose, which its Action did not call.
        let chosen = match last.format_error() {
            Some(FormatError::ActionNotThought { chosen, .. }) => Some(chosen.as_str()),
            _ => None,
        };
        // The tool called for one name of the question, for the name it left out.
        let left_out_name = match last.format_error() {
            Some(FormatError::NameUnused { name, tool, param }) => Some((tool, param, name)),
            _ => None,
        };
        let steer = (chosen
            .or(left_out_name.map(|(tool, ..)| tool.as_str()))
            .or(next))
        .filter(|tool| on && must_answer.is_none() && !asks_plan && !misused(tool))
        .map(|tool| {
            let first = self.calls.is_empty();
            // After a fact was found, the computation that uses it.
            let computes = !first && chosen.is_none();
            Steer {
                tool: tool.to_string(),
                why: match (chosen.is_some(), first) {
                    (true, _) => SteerWhy::Thought,
                    (false, true) => SteerWhy::Fits,
                    (false, false) => SteerWhy::Next,
                },
                uses: match computes {
                    true => self.numbers_to_use(tool).into(),
                    false => Box::default(),
                },
                seen: match computes {
                    true => self.numbers_seen(tool).into(),
                    false => Box::default(),
                },
                args: match left_out_name {
                    Some((_, param, name)) => Some(Box::new(serde_json::Map::from_iter([(
                        param.clone(),
                        name.as_str().into(),
                    )]))),
                    None => self.fixed_args(tool),
                },
            }
        });
        // What the first request chose from, for a reader of its anatomy.
        let fits = match self.rounds.is_empty() && self.calls.is_empty() {
            true if config.strategy.acts() => self.fits.clone(),
            _ => Vec::new(),
        };
        let left_out = match steer.is_none() && must_answer.is_none() && !asks_plan && on {
            true => self.without_evidence(),
            false => Vec::new(),
        };
        let follows = config.act_first && !self.course.own_course() && on;
        let unsteered = (follows && !fits.is_empty() && steer.is_none() && must_answer.is_none())
            .then(|| self.unsteered())
            .flatten()
            .map(Box::new);
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
            steer,
            fits,
            unsteered,
            left_out,
        }
    }

    /// After a tool the question points to (strong evidence) found something, the page's tools
    /// (no role) that nothing in the question points to: the 0.5B model, its answer in hand,
    /// went on to call the weather for "London" and an order lookup with a number of its own.
    /// Not after a call on weak evidence: the question may be for a tool whose words it does
    /// not share ("GLOBX 的股价" for a share price tool described in English).
    fn without_evidence(&self) -> Vec<String> {
        let strong =
            |tool: &str| (self.fits.iter()).any(|f| f.tool == tool && f.score >= fit::STRONG);
        if !self.calls.iter().any(|c| c.succeeded && strong(&c.tool)) {
            return Vec::new();
        }
        (self.fits.iter())
            .filter(|f| f.role.is_none() && f.score < fit::SOME)
            .map(|f| f.tool.clone())
            .collect()
    }

    /// Why the first reply goes to no tool, when some tool has evidence: it is weak, or two
    /// tools' is as strong.
    fn unsteered(&self) -> Option<Unsteered> {
        if self.no_tool_fits() {
            return None;
        }
        match &self.fits[..] {
            [best, next, ..] if best.score >= fit::STRONG && best.score == next.score => {
                Some(Unsteered::Split {
                    tools: [best.tool.clone(), next.tool.clone()],
                })
            }
            [best, ..] if best.score > 0 => Some(Unsteered::Weak {
                best: best.tool.clone(),
            }),
            _ => None,
        }
    }

    /// The tool the question's evidence says comes next, when the run follows the evidence:
    /// acting first, with no plan or self-check of its own to follow.
    pub(super) fn next_tool(&self) -> Option<&str> {
        let config = &self.trace.config;
        let follows = config.act_first && config.strategy.acts() && !self.course.own_course();
        if !follows {
            return None;
        }
        let called: Vec<&str> = (self.calls.iter())
            .filter(|c| !observe::bare_number(c))
            .map(|c| c.tool.as_str())
            .collect();
        // A comparison computes on two facts: after one, the other is still to find.
        let found = self.facts().len() >= if fit::compares(&self.fits) { 2 } else { 1 };
        // The question's numbers all went into calls (the clock counted its "100 days"):
        // nothing is left for a computation to use.
        let spent = !reading::operands(&self.trace.question).is_empty()
            && self.numbers_to_compute().is_empty();
        fit::next_tool(&self.fits, &called, found && !spent)
    }

    /// The numbers each result found gives, in the order found: the same twice is one fact (the
    /// 0.5B model asked for 奥斯陆, then for Oslo).
    fn facts(&self) -> Vec<Vec<String>> {
        let mut facts: Vec<Vec<String>> = Vec::new();
        let found = (self.calls.iter()).filter(|c| c.succeeded && c.role != Some(Role::Computes));
        for numbers in found.map(|c| reading::facts(&c.observation)) {
            if !facts.contains(&numbers) {
                facts.push(numbers);
            }
        }
        facts
    }

    /// The arguments the question fixes for `tool`: the clock's `days` when it names a day
    /// counted from today.
    fn fixed_args(&self, tool: &str) -> Option<Box<serde_json::Map<String, serde_json::Value>>> {
        let days = (self.registry.role(tool) == Some(Role::Clock))
            .then(|| fit::day(&self.fits, tool))
            .flatten()?;
        Some(Box::new(serde_json::Map::from_iter([(
            "days".to_string(),
            days.into(),
        )])))
    }

    /// A tool that already ran, successfully, with the arguments the question fixes for it.
    fn counted_tool(&self) -> Option<&str> {
        (self.calls.iter())
            .filter(|c| c.succeeded)
            .find(|c| {
                self.fixed_args(&c.tool)
                    .is_some_and(|args| c.args == serde_json::Value::Object(*args))
            })
            .map(|c| c.tool.as_str())
    }

    /// The question's numbers that no call has used, when the computation comes next (a fact
    /// was found): the calculation is to use them.
    fn numbers_to_use(&self, tool: &str) -> Vec<String> {
        match self.registry.role(tool) {
            Some(Role::Computes) => self.numbers_to_compute(),
            _ => Vec::new(),
        }
    }

    /// The numbers a computation after a found fact may hold, besides short ones: the
    /// question's and those of the calls and their results, but a date's or a time's.
    fn numbers_seen(&self, tool: &str) -> Vec<String> {
        if self.registry.role(tool) != Some(Role::Computes) {
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::new();
        let results = (self.calls.iter().filter(|c| c.succeeded)).flat_map(|c| {
            reading::facts(&c.observation)
                .into_iter()
                .chain(reading::facts(&crate::fields::json_text(&c.args)))
        });
        for n in reading::operands(&self.trace.question)
            .into_iter()
            .chain(results)
        {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    fn numbers_to_compute(&self) -> Vec<String> {
        let used: Vec<String> = (self.calls.iter())
            .flat_map(|c| reading::numbers(&crate::fields::json_text(&c.args)))
            .collect();
        let mut out: Vec<String> = Vec::new();
        // "Years since 1969 as of this year": the year is the clock's, not the hour beside it
        // (the 0.5B model wrote `14 - 1 + 12 + …` from "Friday, 14 March 2025, 12:00:00").
        if days::this_year(&self.trace.question) {
            let year = (self.calls.iter())
                .filter(|c| c.succeeded && c.role == Some(Role::Clock))
                .find_map(|c| current_time::year_of(&c.observation));
            out.extend(year.filter(|y| !used.contains(y)));
        }
        // A comparison is of the two facts found: the first number of each, what a result
        // leads with (the 0.5B model wrote `27 - 27` for Cairo's 27 °C against Oslo's 2 °C).
        if fit::compares(&self.fits) {
            let first = self
                .facts()
                .into_iter()
                .filter_map(|f| f.into_iter().next());
            for n in first.take(2) {
                if !used.contains(&n) && !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        let claimed = fit::claimed(&self.fits);
        for n in reading::operands(&self.trace.question) {
            if !used.contains(&n) && !out.contains(&n) && !claimed.contains(&n.as_str()) {
                out.push(n);
            }
        }
        out.truncate(MAX_USES);
        out
    }

    /// No tool has evidence in the question, and each declares what points to it (a role,
    /// keywords or examples): a tool with only a description to go by may still be the one.
    fn no_tool_fits(&self) -> bool {
        fit::none_fits(&self.fits)
            && (self.registry.specs().into_iter())
                .all(|t| t.role.is_some() || !t.keywords.is_empty() || !t.examples.is_empty())
    }
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

/// What every run of these settings starts with, up to where its question goes
/// ([`history::opening`]), on a `server` of this kind (`None`: not known before the run): a
/// model engine can read it into its prompt cache before a question is asked. Built by
/// starting a run, so it is the run's own system prompt (the tools a strategy keeps, the
/// examples a constraint leaves out).
pub fn opening(
    registry: Registry,
    config: AgentConfig,
    server: Option<ServerKind>,
) -> Vec<Message> {
    let mut run = Agent::new("", registry, config);
    if let Some(kind) = server.filter(|_| run.wants_server()) {
        // Cannot fail: the run wants its server.
        let _ = run.feed_server(kind);
    }
    history::opening(&run.trace.system_prompt)
}

/// The system prompt and what its examples call and answer, which copying is not working.
pub(super) fn prompt_and_examples(
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
pub(super) fn examples(
    config: &AgentConfig,
    registry: &Registry,
    constrained: Constrained,
) -> Vec<FewShot> {
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

/// The first sentences of a Thought that ran on: up to three sentence ends and
/// [`RAN_ON_CHARS`] characters, cut after a word. It is given back whole and the Action must
/// fit after it within the token limit: 300 characters of a repeated date
/// ("2026-12-01, 2026-12-01, …") once left SmolLM2 no tokens for its answer.
pub(super) fn leading_sentences(thought: &str) -> String {
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
