//! The shape of a recorded run has one source, the Rust trace types (`reactloop::trace`, with
//! the views `reactloop::view` adds: what `exportTrace` writes). Two texts restate it by hand,
//! and this test holds them to it:
//!
//! - `www/recording.js`, which reads a recording without the wasm: its `VIEW_VERSION` is
//!   [`TRACE_VERSION`], and its `RUN` (the fields the cards read, each with its type, `?` for
//!   one that may be missing or null) is walked against exported runs (real runs driven with
//!   scripted replies, and a trace with every field set). Every field `RUN` names must be
//!   written at that path, with that type, so a field renamed or removed in Rust fails here
//!   naming the path. One not marked `?` must be in every instance of its object. One marked
//!   `?` must be one Rust can leave out or null (an `Option`, a skipped field, a field of one
//!   variant), as some exported run shows, or be listed in [`OLDER_VIEWS`] with the reason:
//!   the reader checks no less than the core guarantees. `RUN` is a subset on purpose (what
//!   the cards draw, not the whole trace), so the other direction is not "no extra field"
//!   but this: each field it names is one the core writes.
//! - `docs/trace-format.md`: its annotated example (the `jsonc` block) is read as a tree. Every
//!   key it names must be written at that path; and an object it writes out (not `{}`, not a
//!   value of [`FREE`]) must name every key Rust writes there, unless it holds `"…": "…"`,
//!   which says its other keys depend on its type (a guard, an outcome).
//!
//! Both readers are small: the subset of JavaScript `RUN` is written in (object literals, one
//! kind of list item, quoted type names, the named constants above it), and JSON with
//! comments, `…` and `{"a", "b"}` (keys without values). A construct they do not know fails
//! the test with its text, so it is taught rather than skipped.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Deref, DerefMut};

use common::{full_trace, AtEnd, CALC, FINAL, ORIGIN};
use reactloop::config::AgentConfig;
use reactloop::llm::LlmError;
use reactloop::parse::Parsed;
use reactloop::trace::{Outcome, Trace, TRACE_VERSION};
use reactloop::view;
use serde_json::{json, Value};

const RECORDING_JS: &str = include_str!("../www/recording.js");
const TRACE_FORMAT_MD: &str = include_str!("../docs/trace-format.md");

/// Fields `RUN` marks `?` although the core always writes them, and why.
const OLDER_VIEWS: &[(&str, &str)] = &[(
    "steps[].view.fits",
    "views exported before the tool fit existed (format version 1 all the same) have none; \
     the cards draw them without it",
)];

/// Values in the documented example that are free JSON, not fields of the format, and why.
const FREE: &[(&str, &str)] = &[
    ("tools[].parameters", "the tool's JSON schema"),
    (
        "steps[].parse.input",
        "the Action Input as the model wrote it",
    ),
    (
        "steps[].call.args",
        "the arguments the tool was called with",
    ),
];

// ---------------------------------------------------------------------------------------
// Exported runs: what a page downloads.

/// No Thought, and a full-width colon the parser repairs.
const BARE_CALL: &str = "Action：calculator\nAction Input: {\"expression\": \"6*7\"}";

/// A real run: the model's name, its replies (`None` is a model error), and what its trace
/// shows (checked, so the walks below see the cases they rely on).
struct Script {
    shows: &'static str,
    model: Option<&'static str>,
    replies: &'static [Option<&'static str>],
    is: fn(&Trace) -> bool,
}

/// Together these leave out, or null, every field Rust can leave out; a run whose replies run
/// out is exported unfinished, as `exportTrace` may be called mid-run.
const RUNS: &[Script] = &[
    Script {
        shows: "a calculation, then the answer",
        model: Some("scripted"),
        replies: &[Some(CALC), Some(FINAL)],
        is: |t| t.model.is_some() && matches!(t.outcome, Some(Outcome::Answer { .. })),
    },
    Script {
        shows: "a repaired call without a Thought, a format error, then a model error with no fix",
        model: None,
        replies: &[Some(BARE_CALL), Some("hmm"), None],
        is: |t| {
            let parsed = |i: usize| t.steps[i].parse.as_ref();
            matches!(t.outcome, Some(Outcome::ModelError { .. }))
                && parsed(0).is_some_and(|p| p.thought.is_none() && !p.repairs.is_empty())
                && parsed(1).is_some_and(|p| matches!(p.parsed, Parsed::Error { .. }))
                && t.steps[2].reply.is_none()
                && t.steps[2].error == Some(LlmError::Aborted)
        },
    },
    Script {
        shows: "a run just started: one step, no reply yet",
        model: None,
        replies: &[],
        is: |t| t.outcome.is_none() && t.steps.len() == 1 && t.steps[0].reply.is_none(),
    },
];

/// The trace of a real run, driven as far as its replies go.
fn drive(script: &Script) -> Trace {
    let mut agent = common::agent(AgentConfig::default());
    if let Some(model) = script.model {
        agent.label_model(model);
    }
    // Aborted: the one model error a page is given no fix for.
    common::drive(agent, script.replies, LlmError::Aborted, AtEnd::Leave).trace
}

/// Every exported run: the full trace and the real runs, as `exportTrace` writes them.
fn exported() -> Vec<Value> {
    let traces = std::iter::once(full_trace()).chain(RUNS.iter().map(drive));
    traces
        .map(|trace| view::trace(&trace, ORIGIN).expect("a trace in view form"))
        .collect()
}

/// `path.key`, or `key` at the top.
fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn fail_on(what: &str, problems: &BTreeSet<String>) {
    let list: Vec<&str> = problems.iter().map(String::as_str).collect();
    assert!(list.is_empty(), "{what}:\n- {}", list.join("\n- "));
}

// ---------------------------------------------------------------------------------------
// What both readers share.

/// Where a reader is in its text, and the file it names when it cannot read on. Both readers
/// deref to it, so they skip, peek and eat alike.
struct Cursor<'a> {
    source: &'static str,
    rest: &'a str,
}

impl<'a> Cursor<'a> {
    fn new(source: &'static str, rest: &'a str) -> Self {
        Cursor { source, rest }
    }

    /// Skips whitespace and `//` comments.
    fn skip(&mut self) {
        loop {
            self.rest = self.rest.trim_start();
            match self.rest.strip_prefix("//") {
                Some(comment) => self.rest = comment.split_once('\n').map_or("", |(_, r)| r),
                None => return,
            }
        }
    }

    /// What the reader does not know, with the file and the text it stopped at.
    fn unknown(&self) -> String {
        let near: String = self.rest.chars().take(40).collect();
        format!("{}: cannot read `{near}`", self.source)
    }

    fn peek(&mut self) -> Option<char> {
        self.skip();
        self.rest.chars().next()
    }

    fn eat(&mut self, c: char) -> Result<(), String> {
        self.skip();
        self.rest = self.rest.strip_prefix(c).ok_or_else(|| self.unknown())?;
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Reading `RUN` in www/recording.js.

/// A type in `RUN`.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    /// `'string'`, `'number'` or `'boolean'`: what `typeof` says of the value.
    Type(String),
    /// Named fields: (name, may be missing or null, shape).
    Object(Vec<(String, bool, Shape)>),
    /// A list whose items have one shape.
    List(Box<Shape>),
}

/// A reader of the JavaScript object-literal subset `RUN` is written in; `file` holds the
/// constants its values may name.
struct Js<'a> {
    file: &'a str,
    at: Cursor<'a>,
}

impl<'a> Deref for Js<'a> {
    type Target = Cursor<'a>;
    fn deref(&self) -> &Cursor<'a> {
        &self.at
    }
}

impl DerefMut for Js<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.at
    }
}

impl<'a> Js<'a> {
    /// The value of `const <name> = …;` in `file`.
    fn constant(file: &'a str, name: &str) -> Result<Shape, String> {
        let start = format!("const {name} = ");
        let at = file
            .find(&start)
            .ok_or_else(|| format!("no `{start}…` in www/recording.js"))?;
        let mut js = Js {
            file,
            at: Cursor::new("www/recording.js", &file[at + start.len()..]),
        };
        let shape = js.value()?;
        js.eat(';')?;
        Ok(shape)
    }

    /// `'text'`, without escapes (none of its names or types needs one).
    fn quoted(&mut self) -> Result<&'a str, String> {
        self.eat('\'')?;
        let (text, rest) = self.rest.split_once('\'').ok_or_else(|| self.unknown())?;
        if text.contains(['\\', '\n']) {
            return Err(self.unknown());
        }
        self.rest = rest;
        Ok(text)
    }

    fn ident(&mut self) -> &'a str {
        self.skip();
        let end = self
            .rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(self.rest.len());
        let (ident, rest) = self.rest.split_at(end);
        self.rest = rest;
        ident
    }

    fn value(&mut self) -> Result<Shape, String> {
        match self.peek() {
            Some('\'') => {
                let at = self.unknown();
                match self.quoted()? {
                    ty @ ("string" | "number" | "boolean") => Ok(Shape::Type(ty.to_string())),
                    _ => Err(at),
                }
            }
            Some('[') => {
                self.eat('[')?;
                let item = self.value()?;
                if self.peek() == Some(',') {
                    self.eat(',')?;
                }
                self.eat(']')?;
                Ok(Shape::List(Box::new(item)))
            }
            Some('{') => self.object(),
            Some(c) if c.is_ascii_alphabetic() => {
                let name = self.ident();
                Js::constant(self.file, name)
            }
            _ => Err(self.unknown()),
        }
    }

    fn object(&mut self) -> Result<Shape, String> {
        self.eat('{')?;
        let mut fields = Vec::new();
        while self.peek() != Some('}') {
            let key = match self.peek() {
                Some('\'') => self.quoted()?,
                _ => self.ident(),
            };
            if key.is_empty() {
                return Err(self.unknown());
            }
            let (name, optional) = match key.strip_suffix('?') {
                Some(name) => (name, true),
                None => (key, false),
            };
            self.eat(':')?;
            fields.push((name.to_string(), optional, self.value()?));
            if self.peek() != Some('}') {
                self.eat(',')?;
            }
        }
        self.eat('}')?;
        Ok(Shape::Object(fields))
    }
}

/// The number in `const VIEW_VERSION = <n>;`.
fn view_version(file: &str) -> Result<u32, String> {
    let (_, rest) = file
        .split_once("const VIEW_VERSION = ")
        .ok_or("no `const VIEW_VERSION = …` in www/recording.js")?;
    let (number, _) = rest.split_once(';').ok_or("VIEW_VERSION has no `;`")?;
    number
        .trim()
        .parse()
        .map_err(|_| format!("VIEW_VERSION is `{number}`, not a number"))
}

/// Walks `values` (every instance of one path in the exported runs) against `shape`: what
/// does not fit goes into `problems`, each `?` field that every run writes into `always`.
fn walk_run(
    shape: &Shape,
    values: &[&Value],
    path: &str,
    problems: &mut BTreeSet<String>,
    always: &mut BTreeSet<String>,
) {
    match shape {
        Shape::Type(ty) => {
            for value in values {
                let fits = match ty.as_str() {
                    "string" => value.is_string(),
                    "number" => value.is_number(),
                    _ => value.is_boolean(),
                };
                if !fits {
                    problems.insert(format!("`{path}`: RUN reads a {ty}, a run has {value}"));
                }
            }
        }
        Shape::List(item) => {
            let mut items = Vec::new();
            for value in values {
                match value.as_array() {
                    Some(list) => items.extend(list),
                    None => {
                        problems.insert(format!("`{path}`: RUN reads a list, a run has {value}"));
                    }
                }
            }
            if items.is_empty() {
                problems.insert(format!(
                    "`{path}`: no exported run has an item here; give one an item"
                ));
            }
            walk_run(item, &items, &format!("{path}[]"), problems, always);
        }
        Shape::Object(fields) => {
            let objects: Vec<_> = values.iter().filter_map(|v| v.as_object()).collect();
            if objects.len() < values.len() {
                problems.insert(format!(
                    "`{path}`: RUN reads an object, a run has another type"
                ));
            }
            for (name, optional, inner) in fields {
                let at = join(path, name);
                // The JavaScript reader takes a missing field and a null one alike.
                let present: Vec<&Value> = objects
                    .iter()
                    .filter_map(|o| o.get(name))
                    .filter(|v| !v.is_null())
                    .collect();
                if present.is_empty() {
                    problems.insert(format!(
                        "`{at}`: RUN reads it, and no exported run has it (renamed or removed in Rust?)"
                    ));
                    continue;
                }
                let left_out = present.len() < objects.len();
                if left_out && !optional {
                    problems.insert(format!(
                        "`{at}`: RUN requires it, and an exported run leaves it out or null: mark it `'{name}?'`"
                    ));
                }
                if !left_out && *optional {
                    always.insert(at.clone());
                }
                walk_run(inner, &present, &at, problems, always);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reading the example in docs/trace-format.md.

/// A value of the documented example.
#[derive(Debug, Clone, PartialEq)]
enum Doc {
    /// A string, number, `true`, `false`, `null`, `…`, or a key written without a value.
    Leaf,
    /// Its keys; `open` when it holds `"…": "…"` (more keys, by its type).
    Object {
        keys: BTreeMap<String, Doc>,
        open: bool,
    },
    List(Vec<Doc>),
}

/// The first ```` ```jsonc ```` block of a Markdown text.
fn jsonc_block(markdown: &str) -> Result<&str, String> {
    let (_, rest) = markdown
        .split_once("```jsonc\n")
        .ok_or("no ```jsonc block in docs/trace-format.md")?;
    let (block, _) = rest
        .split_once("\n```")
        .ok_or("the ```jsonc block is not closed")?;
    Ok(block)
}

/// A reader of JSON with `//` comments, `…` for more of the same, and keys without values.
struct Jsonc<'a>(Cursor<'a>);

impl<'a> Deref for Jsonc<'a> {
    type Target = Cursor<'a>;
    fn deref(&self) -> &Cursor<'a> {
        &self.0
    }
}

impl DerefMut for Jsonc<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<'a> Jsonc<'a> {
    fn read(text: &'a str) -> Result<Doc, String> {
        let mut reader = Jsonc(Cursor::new("docs/trace-format.md", text));
        let doc = reader.value()?;
        reader.skip();
        if reader.rest.is_empty() {
            Ok(doc)
        } else {
            Err(reader.unknown())
        }
    }

    /// `"text"`, its escapes kept as written (a key needs none).
    fn string(&mut self) -> Result<&'a str, String> {
        self.eat('"')?;
        let mut escaped = false;
        for (i, c) in self.rest.char_indices() {
            match c {
                '"' if !escaped => {
                    let text = &self.rest[..i];
                    self.rest = &self.rest[i + 1..];
                    return Ok(text);
                }
                '\n' => break,
                _ => escaped = c == '\\' && !escaped,
            }
        }
        Err(self.unknown())
    }

    fn value(&mut self) -> Result<Doc, String> {
        match self.peek() {
            Some('"') => self.string().map(|_| Doc::Leaf),
            Some('{') => self.object(),
            Some('[') => {
                self.eat('[')?;
                let mut items = Vec::new();
                while self.peek() != Some(']') {
                    items.push(self.value()?);
                    if self.peek() != Some(']') {
                        self.eat(',')?;
                    }
                }
                self.eat(']')?;
                Ok(Doc::List(items))
            }
            Some('…') => {
                self.rest = &self.rest['…'.len_utf8()..];
                Ok(Doc::Leaf)
            }
            _ => {
                // A number, true, false or null.
                let end = self
                    .rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                    .unwrap_or(self.rest.len());
                let word = &self.rest[..end];
                let known =
                    matches!(word, "true" | "false" | "null") || word.parse::<f64>().is_ok();
                if !known {
                    return Err(self.unknown());
                }
                self.rest = &self.rest[end..];
                Ok(Doc::Leaf)
            }
        }
    }

    fn object(&mut self) -> Result<Doc, String> {
        self.eat('{')?;
        let (mut keys, mut open) = (BTreeMap::new(), false);
        while self.peek() != Some('}') {
            let key = self.string()?;
            let value = match self.peek() {
                Some(':') => {
                    self.eat(':')?;
                    self.value()?
                }
                _ => Doc::Leaf,
            };
            if key == "…" {
                open = true;
            } else if keys.insert(key.to_string(), value).is_some() {
                return Err(format!("docs/trace-format.md: `{key}` twice in one object"));
            }
            if self.peek() != Some('}') {
                self.eat(',')?;
            }
        }
        self.eat('}')?;
        Ok(Doc::Object { keys, open })
    }
}

/// The items of a documented list as one: their objects' keys together (a list of a tagged
/// type shows one item of each shape).
fn merged(items: &[Doc]) -> Doc {
    let mut keys = BTreeMap::new();
    let mut open = false;
    let mut any = false;
    for item in items {
        if let Doc::Object { keys: k, open: o } = item {
            any = true;
            open |= o;
            for (key, value) in k {
                keys.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
    }
    if any {
        Doc::Object { keys, open }
    } else {
        Doc::Leaf
    }
}

/// Walks `values` (every instance of one path in the exported runs) against the documented
/// `doc`.
fn walk_doc(doc: &Doc, values: &[&Value], path: &str, problems: &mut BTreeSet<String>) {
    if FREE.iter().any(|(free, _)| *free == path) {
        return;
    }
    match doc {
        Doc::Leaf => {}
        Doc::List(items) => {
            let items_of: Vec<&Value> = values
                .iter()
                .filter_map(|v| v.as_array())
                .flatten()
                .collect();
            walk_doc(&merged(items), &items_of, &format!("{path}[]"), problems);
        }
        Doc::Object { keys, open } => {
            let objects: Vec<_> = values.iter().filter_map(|v| v.as_object()).collect();
            for (key, inner) in keys {
                let at = join(path, key);
                let found: Vec<&Value> = objects.iter().filter_map(|o| o.get(key)).collect();
                if found.is_empty() {
                    problems.insert(format!(
                        "`{at}`: the doc names it, and no exported run has it"
                    ));
                }
                walk_doc(inner, &found, &at, problems);
            }
            // `{}`: any object (none is left in the example but free ones); `"…"`: more keys.
            if keys.is_empty() || *open {
                return;
            }
            for object in &objects {
                for key in object.keys().filter(|k| !keys.contains_key(*k)) {
                    problems.insert(format!(
                        "`{}`: exported runs have it, and the doc does not name it",
                        join(path, key)
                    ));
                }
            }
        }
    }
}

/// The values at `a.b[].c` in `value`.
fn values_at<'v>(value: &'v Value, path: &str) -> Vec<&'v Value> {
    let mut at = vec![value];
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, list) = match part.strip_suffix("[]") {
            Some(key) => (key, true),
            None => (part, false),
        };
        at = at.iter().filter_map(|v| v.get(key)).collect();
        if list {
            at = at.iter().filter_map(|v| v.as_array()).flatten().collect();
        }
    }
    at
}

// ---------------------------------------------------------------------------------------
// The tests.

#[test]
fn the_recording_reader_draws_the_cores_trace_version() {
    assert_eq!(
        view_version(RECORDING_JS),
        Ok(TRACE_VERSION),
        "www/recording.js's VIEW_VERSION is not the core's TRACE_VERSION: a file the reader \
         draws must be one the core writes"
    );
    for run in exported() {
        assert_eq!(run["version"], json!(TRACE_VERSION));
    }
}

#[test]
fn what_the_cards_read_is_what_the_core_writes() {
    let run = Js::constant(RECORDING_JS, "RUN").unwrap_or_else(|e| panic!("{e}"));
    let runs = exported();
    let (mut problems, mut always) = (BTreeSet::new(), BTreeSet::new());
    walk_run(
        &run,
        &runs.iter().collect::<Vec<_>>(),
        "",
        &mut problems,
        &mut always,
    );
    let older: BTreeSet<String> = OLDER_VIEWS.iter().map(|(p, _)| p.to_string()).collect();
    for path in always.difference(&older) {
        problems.insert(format!(
            "`{path}`: RUN marks it '?', and every exported run has it: Rust cannot leave it \
             out, so drop the '?' (or list it in OLDER_VIEWS with the reason)"
        ));
    }
    for path in older.difference(&always) {
        problems.insert(format!(
            "`{path}`: OLDER_VIEWS lists it, and it is no '?' field of RUN that every run has"
        ));
    }
    fail_on("www/recording.js's RUN against exported runs", &problems);
}

#[test]
fn the_documented_example_names_every_field_and_no_other() {
    let doc = jsonc_block(TRACE_FORMAT_MD)
        .and_then(Jsonc::read)
        .unwrap_or_else(|e| panic!("{e}"));
    let runs = exported();
    let mut problems = BTreeSet::new();
    walk_doc(&doc, &runs.iter().collect::<Vec<_>>(), "", &mut problems);
    for (path, _) in FREE {
        if !runs.iter().any(|run| !values_at(run, path).is_empty()) {
            problems.insert(format!(
                "`{path}`: FREE lists it, and no exported run has it"
            ));
        }
    }
    fail_on(
        "docs/trace-format.md's example against exported runs",
        &problems,
    );
}

#[test]
fn each_real_run_shows_what_it_says() {
    for script in RUNS {
        let trace = drive(script);
        assert!((script.is)(&trace), "not {}: {trace:#?}", script.shows);
    }
}

#[test]
fn the_readers_read_what_they_are_given() {
    // The JavaScript subset, with a named constant, and what it refuses.
    let file =
        "const A = { x: 'number' };\nconst R = {\n  // a comment\n  a: A, 'b?': ['string'],\n};";
    let a = Shape::Object(vec![("x".into(), false, Shape::Type("number".into()))]);
    let r = Shape::Object(vec![
        ("a".into(), false, a),
        (
            "b".into(),
            true,
            Shape::List(Box::new(Shape::Type("string".into()))),
        ),
    ]);
    assert_eq!(Js::constant(file, "R"), Ok(r));
    let refused = [
        ("const R = { a: 'object' };", "'object' }"),
        ("const R = { a: ['string', 'number'] };", "'number']"),
        ("const R = { a: B };", "no `const B = …`"),
        ("const R = { ...A };", "...A"),
        ("const R = { a: 1 };", "1 }"),
    ];
    for (text, near) in refused {
        let error = Js::constant(text, "R").expect_err(text);
        assert!(error.contains(near), "{text}: {error}");
    }
    assert_eq!(view_version("const VIEW_VERSION = 3;"), Ok(3));
    assert!(view_version("const VIEW_VERSION = '1';").is_err());

    // The example's JSON: comments, `…`, keys without values, `"…": "…"`.
    let doc = Jsonc::read(
        "{\"a\": 1, // note \"x\": 2\n \"b\": [{\"c\", \"d\"}, …], \"e\": {\"…\": \"…\"}}",
    );
    let leaf = |k: &[&str]| k.iter().map(|k| (k.to_string(), Doc::Leaf)).collect();
    let expected = Doc::Object {
        keys: BTreeMap::from([
            ("a".to_string(), Doc::Leaf),
            (
                "b".to_string(),
                Doc::List(vec![
                    Doc::Object {
                        keys: leaf(&["c", "d"]),
                        open: false,
                    },
                    Doc::Leaf,
                ]),
            ),
            (
                "e".to_string(),
                Doc::Object {
                    keys: BTreeMap::new(),
                    open: true,
                },
            ),
        ]),
        open: false,
    };
    assert_eq!(doc, Ok(expected));
    for text in [
        "{\"a\": tru}",
        "{\"a\": 1} x",
        "{\"a\": 1, \"a\": 2}",
        "{'a': 1}",
    ] {
        assert!(Jsonc::read(text).is_err(), "{text}");
    }
}
