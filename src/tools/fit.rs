//! How well each tool fits a question, from evidence in the question itself. Every tool
//! brings its own: its keywords and the words of its name (what it is about), its examples
//! (questions it answers), its parameters' values, the words of its description; and its
//! role's rules: for the tool that searches, the terms the documents hold (a name in a title
//! counts most); for the one that computes, numbers and operations; for the clock, words for
//! now and dates. The question's subject outranks generic evidence: in "the weather in Lisbon
//! right now" the weather tool's word outranks the clock's "now". Small models pick a
//! tool by surface (the 0.5B model sent "What is the maximum number of steps in Kestrel?" to
//! the calculator while the documents described Kestrel); the agent uses the fit to say which
//! tool comes first and which next, and the trace shows it so a reader can see why.
//!
//! The word lists below are recognition data, not text the model is told.

use crate::lower::Lower;
use serde::Serialize;

use crate::fields::{tagged, via_value, Fields};

use super::comparison::comparison;
use super::days::{day_offset, find_word};
use super::declared::{best_example, params_text, subject_words, values, QUESTION_PAIRS};
use super::glossary::{glosses, translated};
use super::registry::words;
use super::search_docs::tokenize;
use super::{Registry, Role, ToolSpec};

/// A score from which a tool's evidence is strong enough to steer the run to it.
pub const STRONG: u32 = 3;
/// Below this, the best tool's evidence is no evidence: the question is for the model alone.
pub const SOME: u32 = 2;

/// One tool's fit to the question: the sum of its evidence's weights.
// Read back by hand below (a struct literal, so a new field needs its line there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolFit {
    pub tool: String,
    /// The tool's declared role, which the loop's rules go by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    pub score: u32,
    pub evidence: Vec<Evidence>,
}

via_value! {
    ToolFit => tool_fit,
}

fn tool_fit(value: serde_json::Value) -> Result<ToolFit, serde_json::Error> {
    let mut f = Fields::object(value)?;
    Ok(ToolFit {
        tool: f.get("tool")?,
        role: f.opt("role")?,
        score: f.get("score")?,
        evidence: f.get("evidence")?,
    })
}

tagged! {
    /// What in the question points to a tool.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum Evidence in "kind" {
        /// A word the question shares with the tool's name, description, parameters or examples.
        Described {
            word: String,
        } = "described",
        /// A keyword of the tool, or a word of its name: what the question asks about.
        Keyword {
            word: String,
        } = "keyword",
        /// The question is like one of the tool's examples (two or more words in common).
        Example {
            example: String,
        } = "example",
        /// A value one of the tool's parameters lists (its `enum`): "kg" for a unit.
        Value {
            param: String,
            value: String,
        } = "value",
        /// A place the question names, for a parameter that takes one ("开罗" for a weather
        /// tool's `city`; `places`).
        Place {
            param: String,
            place: String,
        } = "place",
        /// Generic evidence ("now", a number) that another tool's subject outranks: "now" in
        /// "the weather right now" asks for the weather; "1042" in "order 1042" is the order's.
        Outranked {
            word: String,
            by: String,
        } = "outranked",
        /// A computation asked of one number ("40 shares ... in total") waits for its other
        /// operand, from the tool that gives facts the question points to.
        Awaits {
            word: String,
            by: String,
        } = "awaits",
        /// A word of a tool that needs a number the question does not give: "气温" in "开罗的气温比
        /// 奥斯陆高多少度？" is about temperature, and no value to convert.
        Unfilled {
            word: String,
            param: String,
        } = "unfilled",
        /// A word for now alone, with tools that give facts beside the clock: it may say when
        /// for what another tool gives.
        Qualifier {
            word: String,
        } = "qualifier",
        /// The question says to look in the documents ("documents", 文档): a keyword of the tool
        /// that searches them.
        Source {
            word: String,
        } = "source",
        /// A term of the question that names a document (in its title, or written as a name).
        Name {
            term: String,
        } = "name",
        /// A rarer term of the question that some documents hold (one counts: alone, a word or
        /// two in common with the documents is no sign that they answer the question).
        InDocuments {
            term: String,
        } = "in_documents",
        Number {
            number: String,
        } = "number",
        /// An operation or conversion ("square root", "multiply", 乘, `*`).
        Operation {
            word: String,
        } = "operation",
        /// It asks for an amount ("how many", 多少).
        Quantity {
            word: String,
        } = "quantity",
        /// It asks how much two things it names differ ("more … than", 比…高多少): a computation
        /// on two facts found, none given (`comparison`). Weighs nothing: the facts come first.
        Compares {
            phrase: String,
        } = "compares",
        /// A word about now ("today", 今年) when `now`, else about dates and times ("week").
        Time {
            word: String,
            now: bool,
        } = "time",
        /// A day counted from today ("tomorrow", "30 days from today", 昨天): the clock counts
        /// it (`days`), so a steered call is given it.
        Day {
            phrase: String,
            days: i64,
        } = "day",
}
}

impl Evidence {
    pub(super) fn weight(&self) -> u32 {
        match self {
            Evidence::Outranked { .. } | Evidence::Awaits { .. } | Evidence::Unfilled { .. } => 0,
            Evidence::Compares { .. } => 0,
            Evidence::Described { .. } | Evidence::InDocuments { .. } => 1,
            Evidence::Qualifier { .. } => 1,
            Evidence::Value { .. } | Evidence::Place { .. } => 2,
            Evidence::Keyword { .. } | Evidence::Example { .. } => 3,
            Evidence::Quantity { .. } => 1,
            Evidence::Time { now: false, .. } => 1,
            Evidence::Number { .. } | Evidence::Operation { .. } => 2,
            Evidence::Source { .. } | Evidence::Name { .. } => 3,
            Evidence::Time { now: true, .. } | Evidence::Day { .. } => 3,
        }
    }
}

// Lower-case phrases; a Latin one matches at word boundaries, a Chinese one anywhere.
#[rustfmt::skip]
const OPERATION: &[&str] = &[
    "add", "subtract", "plus", "minus", "times", "multiply", "multiplied", "divide", "divided",
    "sum", "total", "average", "product", "difference", "square", "squared", "root", "cube",
    "cubed", "power", "percent", "percentage", "logarithm", "log", "sqrt", "factorial",
    "compute", "calculate", "convert", "correspond", "equivalent", "twice", "double", "triple",
    "thrice",
    "加", "减", "乘", "除", "平方", "立方", "开方", "平均", "总共", "一共", "合计", "百分",
    "对数", "倍", "打折", "计算", "算", "换算", "相当于", "折合",
];
/// Operations on one number.
#[rustfmt::skip]
pub(super) const UNARY: &[&str] = &[
    "square", "squared", "root", "sqrt", "cube", "cubed", "factorial", "logarithm", "log",
    "平方", "立方", "开方", "对数",
];
/// The operations that ask to compute or convert whatever the numbers are.
#[rustfmt::skip]
const COMPUTE: &[&str] = &[
    "compute", "calculate", "convert", "correspond", "equivalent",
    "计算", "算", "换算", "相当于", "折合",
];
const OPERATORS: &[char] = &['+', '*', '/', '^', '×', '÷', '%', '='];
#[rustfmt::skip]
const QUANTITY: &[&str] = &[
    "how many", "how much", "how old",
    "多少", "几", "多大",
];
#[rustfmt::skip]
const NOW: &[&str] = &[
    "today", "tomorrow", "yesterday", "now", "current", "currently", "this year", "this month",
    "this week",
    "今天", "明天", "昨天", "后天", "前天", "现在", "今年", "本月", "这个月", "当前", "目前",
    "此刻",
];
#[rustfmt::skip]
const DATES: &[&str] = &[
    "date", "time", "day", "days", "week", "weekday", "month", "year", "hour", "clock",
    "日期", "时间", "星期", "周几", "几点", "几号", "月份", "年份", "几月",
];

impl Registry {
    /// Every enabled tool's fit to `question`, best first (registration order on a tie).
    /// `describe` gives a tool's description in the question's language
    /// (`crate::told::tool_description`).
    pub fn fits(&self, question: &str, describe: impl Fn(&ToolSpec) -> &str) -> Vec<ToolFit> {
        let lower = question.lower();
        let asked = words(question);
        let glossed = glosses(&lower);
        let mut fits: Vec<ToolFit> = self
            .enabled()
            .map(|entry| {
                let spec = &entry.spec;
                let (example, shared) = best_example(spec, question);
                let example = example.filter(|_| shared >= 2);
                let mut about_text =
                    format!("{} {} {}", spec.name, describe(spec), params_text(spec));
                if example.is_none() {
                    // An example like the question is evidence of its own, not word by word.
                    about_text = format!("{about_text} {}", spec.examples.join(" "));
                }
                let about = words(&about_text);
                let mut evidence: Vec<Evidence> = asked
                    .iter()
                    .filter(|w| about.contains(w) && !QUESTION_PAIRS.contains(&w.as_str()))
                    .map(|w| Evidence::Described { word: w.clone() })
                    .collect();
                let searches = spec.role == Some(Role::Searches);
                // The words that say where to look count only when there is something to find.
                if !searches || !self.documents.is_empty() {
                    evidence.extend(subject_words(spec, &lower).into_iter().map(|word| {
                        match searches {
                            true => Evidence::Source { word },
                            false => Evidence::Keyword { word },
                        }
                    }));
                }
                if let Some(example) = example {
                    evidence.push(Evidence::Example { example });
                }
                let declared = format!("{about_text} {}", spec.keywords.join(" "));
                evidence.extend(translated(spec, &declared.lower(), &glossed, &evidence));
                evidence.extend(values(spec, question));
                evidence.extend(super::places::evidence(spec, question));
                match spec.role {
                    Some(Role::Searches) => self.document_evidence(question, &mut evidence),
                    Some(Role::Computes) => calculation_evidence(question, &lower, &mut evidence),
                    Some(Role::Clock) => time_evidence(&lower, &mut evidence),
                    None => {}
                }
                ToolFit {
                    tool: spec.name.clone(),
                    role: spec.role,
                    score: 0,
                    evidence,
                }
            })
            .collect();
        self.outrank(question, &mut fits);
        self.unfilled(question, &mut fits);
        self.await_operand(&mut fits);
        for fit in &mut fits {
            fit.score = fit.evidence.iter().map(Evidence::weight).sum();
        }
        crate::order::sort_by_key(&mut fits, |f| std::cmp::Reverse(f.score));
        fits
    }

    pub(super) fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.enabled().map(|e| &e.spec).find(|s| s.name == name)
    }

    fn document_evidence(&self, question: &str, out: &mut Vec<Evidence>) {
        if self.documents.is_empty() {
            return;
        }
        // Lists, not hash sets: a question has a few terms, and the hash tables' code for a
        // type of its own was the wasm's.
        let titles: Vec<String> = self
            .documents
            .iter()
            .flat_map(|d| tokenize(&d.title))
            .collect();
        let texts: Vec<Vec<String>> = self.documents.iter().map(|d| tokenize(&d.text)).collect();
        let written_as_names = names(question);
        let (mut named, mut held) = (0, 0);
        let mut seen = Vec::new();
        for term in tokenize(question) {
            // A lone character or a number says little about a topic.
            if term.chars().count() == 1
                || term.chars().all(|c| c.is_ascii_digit())
                || seen.contains(&term)
            {
                continue;
            }
            seen.push(term.clone());
            let held_by = texts.iter().filter(|t| t.contains(&term)).count();
            let name = titles.contains(&term) || (held_by > 0 && written_as_names.contains(&term));
            if name && named < 2 {
                named += 1;
                out.push(Evidence::Name { term });
            } else if !name && held_by > 0 && held_by * 2 <= texts.len() && held < 1 {
                held += 1;
                out.push(Evidence::InDocuments { term });
            }
        }
    }
}

/// The words a question writes as names, lower-cased, in its order: capitalised where no
/// sentence begins, or with capitals inside (FAISS, iPhone).
pub fn names(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut sentence_start = true;
    let mut word = String::new();
    for c in question.chars().chain([' ']) {
        if c.is_ascii_alphanumeric() {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            let mut chars = word.chars();
            let first_upper = chars.next().is_some_and(|c| c.is_ascii_uppercase());
            let lower = word.lower();
            let name = (first_upper && !sentence_start) || chars.any(|c| c.is_ascii_uppercase());
            if name && !out.contains(&lower) {
                out.push(lower);
            }
            word.clear();
            sentence_start = false;
        }
        if matches!(c, '.' | '!' | '?' | ':' | '。' | '！' | '？' | '：') {
            sentence_start = true;
        }
    }
    out
}

fn calculation_evidence(question: &str, lower: &str, out: &mut Vec<Evidence>) {
    out.extend(
        (numbers(question)
            .into_iter()
            .chain(super::factors(question)))
        .take(2)
        .map(|number| Evidence::Number { number }),
    );
    let symbol = question
        .char_indices()
        .find(|&(i, c)| {
            OPERATORS.contains(&c)
                || (c == '-' && question[i..].starts_with("- ") && question[..i].ends_with(' '))
        })
        .map(|(_, c)| c.to_string());
    if let Some(word) = symbol.or_else(|| phrases(lower, OPERATION).next()) {
        out.push(Evidence::Operation { word });
    }
    if let Some(word) = phrases(lower, QUANTITY).next() {
        out.push(Evidence::Quantity { word });
    }
    if let Some(phrase) = comparison(lower) {
        out.push(Evidence::Compares { phrase });
    }
}

fn time_evidence(lower: &str, out: &mut Vec<Evidence>) {
    if let Some(word) = phrases(lower, NOW).next() {
        out.push(Evidence::Time { word, now: true });
    } else if let Some(word) = phrases(lower, DATES).next() {
        out.push(Evidence::Time { word, now: false });
    }
    if let Some((phrase, days)) = day_offset(lower) {
        out.push(Evidence::Day { phrase, days });
    }
}

/// Whether the question has a word about dates and times ("weekday", 星期), beside any word
/// for now.
pub(super) fn about_dates(lower: &str) -> bool {
    phrases(lower, DATES).next().is_some()
}

/// The day a fit's evidence counts from today, if it names one.
pub fn day(fits: &[ToolFit], tool: &str) -> Option<i64> {
    let fit = fits.iter().find(|f| f.tool == tool)?;
    fit.evidence.iter().find_map(|e| match e {
        Evidence::Day { days, .. } => Some(*days),
        _ => None,
    })
}

/// The numbers a question writes on their own, as written: not part of a name (GPT-4, X2)
/// ([`crate::numbers::QUESTION`]).
fn numbers(question: &str) -> Vec<String> {
    let found = crate::numbers::read(question, crate::numbers::QUESTION);
    found.into_iter().map(|n| n.written).collect()
}

/// Whether `text` holds a number, in digits or in words ("seven", "half", "三", "一半"): a
/// question without one needs no calculation.
pub fn mentions_number(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "hundred",
        "thousand",
        "million",
        "billion",
        "half",
        "twice",
        "double",
        "triple",
        "dozen",
        "percent",
        "pi",
    ];
    // The Chinese number characters are recognition data, read in the question, never told.
    !numbers(text).is_empty()
        || text.chars().any(|c| ('０'..='９').contains(&c))
        || text
            .chars()
            .any(|c| "零一二两三四五六七八九十百千万亿半倍".contains(c))
        || text
            .lower()
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|word| WORDS.contains(&word))
}

/// The phrases of `list` that `lower` holds, in the list's order: Latin ones at word
/// boundaries ("now" is not in "know"), Chinese ones anywhere.
fn phrases<'a>(lower: &'a str, list: &'a [&'a str]) -> impl Iterator<Item = String> + 'a {
    list.iter()
        .filter(move |p| find_word(lower, p).is_some())
        .map(|p| p.to_string())
}

/// Whether the calculator's evidence asks for a computation: an operation on a number the
/// question gives, an amount asked of one ("how many years since 1969"), or a word that asks
/// to compute or convert ("then work out", 换算). An operation word alone is not one: "on
/// average" in a question about the documents asks for what they say.
pub fn computes(fits: &[ToolFit]) -> bool {
    (fits.iter())
        .filter(|f| f.role == Some(Role::Computes))
        .any(|f| {
            asks_computation(f)
                || f.evidence
                    .iter()
                    .any(|e| matches!(e, Evidence::Awaits { .. }))
        })
}

pub(super) fn asks_computation(fit: &ToolFit) -> bool {
    let has = |p: &dyn Fn(&Evidence) -> bool| fit.evidence.iter().any(p);
    let number = has(&|e| matches!(e, Evidence::Number { .. }));
    let asks = has(&|e| matches!(e, Evidence::Operation { .. } | Evidence::Quantity { .. }));
    let verb =
        has(&|e| matches!(e, Evidence::Operation { word } if COMPUTE.contains(&word.as_str())));
    (number && asks) || verb || compares(std::slice::from_ref(fit))
}

/// Whether the question asks how much two things differ ([`Evidence::Compares`]): the
/// computation needs two facts found, not one.
pub fn compares(fits: &[ToolFit]) -> bool {
    (fits.iter().filter(|f| f.role == Some(Role::Computes)))
        .flat_map(|f| &f.evidence)
        .any(|e| matches!(e, Evidence::Compares { .. }))
}

/// What the fit gave another tool that the computation would have had: "1042" in "order
/// 1042" is the order's, not a number to compute with.
pub fn claimed(fits: &[ToolFit]) -> Vec<&str> {
    (fits.iter().filter(|f| f.role == Some(Role::Computes)))
        .flat_map(|f| &f.evidence)
        .filter_map(|e| match e {
            Evidence::Outranked { word, .. } => Some(word.as_str()),
            _ => None,
        })
        .collect()
}

/// Whether no tool has evidence worth the name: the best scores under `SOME` (2).
pub fn none_fits(fits: &[ToolFit]) -> bool {
    fits.first().is_none_or(|f| f.score < SOME)
}

/// The tool the run should call next, given the tools called so far: first the tools that
/// find facts (strong evidence, best first; none on a tie at the top of a first choice), then
/// the calculator when the question asks for a computation and something was found to
/// compute with. `None` when the evidence says nothing more.
pub fn next_tool<'a>(fits: &'a [ToolFit], called: &[&str], found: bool) -> Option<&'a str> {
    let computes_role = |f: &ToolFit| f.role == Some(Role::Computes);
    let facts: Vec<&ToolFit> = fits
        .iter()
        .filter(|f| !computes_role(f) && f.score >= STRONG && !called.contains(&f.tool.as_str()))
        .collect();
    if let [best, rest @ ..] = &facts[..] {
        let tie = rest.first().is_some_and(|next| next.score == best.score);
        return (!tie || !called.is_empty()).then_some(best.tool.as_str());
    }
    let calc = fits.iter().find(|f| computes_role(f))?;
    let computes = computes(fits);
    let first = called.is_empty() && calc.score >= STRONG && fits[0].tool == calc.tool;
    ((computes && found) || first)
        .then_some(calc.tool.as_str())
        .filter(|tool| !called.contains(tool))
}
