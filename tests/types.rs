//! The hand-written TypeScript declarations (`wasm/src/types.d.ts`, which the wasm build puts
//! into `www/pkg/reactloop.d.ts`) checked against the Rust types they describe, so that they
//! cannot drift:
//!
//! - `interface Settings` declares every key the settings reader reads
//!   ([`SETTINGS_KEYS`]) and no other, and its `constrained`, `style` and `lang` list exactly
//!   the strings the Rust enums accept; likewise every other union of string literals that
//!   names a Rust enum (a message's role, a tool call's built-in, an observation's source, …).
//! - Real runs (scripted replies through [`Run`]) and fully populated values (struct literals,
//!   one of each enum variant) are serialised as the page gets them and walked against the
//!   declarations: every key must be declared by the interface the value is declared as (a
//!   missing one fails naming the interface and the key), every declared property that is not
//!   optional must be there, and strings, numbers, nulls and arrays must fit the declared
//!   types.
//! - Every property of every declaration the walk covers is produced by some value, so a
//!   declaration that no Rust type backs fails too.
//!
//! The reader of the declarations is small: interfaces, type aliases, object literals, unions,
//! arrays, string literals, `Omit<…>`. A construct it does not know fails the test with its
//! text, so it is taught rather than skipped.

mod common;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use common::{
    full_call, full_request, full_step, full_trace, to_value, AtEnd, Driven, CALC, FINAL, ORIGIN,
};
use reactloop::ask::MustAnswer;
use reactloop::config::AgentConfig;
use reactloop::events::{Event, Pending};
use reactloop::history::MessageStyle;
use reactloop::lang::{Lang, Text};
use reactloop::llm::{Constrained, LlmError, Role, ServerKind};
use reactloop::parse::{parse_reply, ParseResult};
use reactloop::settings::{configure, Purpose, SETTINGS_KEYS};
use reactloop::tools::{default_documents, Builtin, Registry};
use reactloop::trace::{Guard, ObservationSource, Outcome};
use reactloop::{limits, view};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// The declarations as the build writes them: the hand-written ones and the unions of names
/// written from the Rust enums (`view::unions`, which scripts/build appends).
fn declarations() -> String {
    format!(
        "{}\n{}",
        include_str!("../wasm/src/types.d.ts"),
        view::unions()
    )
}

/// Declarations no Rust value is walked against, and why.
const NOT_WALKED: &[&str] = &[
    // Read by the wasm driver only (`Edit` in wasm/src/lib.rs, `Definition` in
    // wasm/src/js_tools.rs), not by the core.
    "Edit",
    "ToolDefinition",
    // What the page gives the grader (src/grade.rs, tests/grade.rs); the core never returns one.
    "Expect",
    // Functions the page supplies.
    "ModelFunction",
    "OnEvent",
];

// ---------------------------------------------------------------------------------------
// Reading the declarations.

/// The interfaces and type aliases of a declaration file, comments removed.
struct Declarations {
    interfaces: BTreeMap<String, String>,
    aliases: BTreeMap<String, String>,
}

/// One property of an object type.
#[derive(Debug, Clone)]
struct Prop {
    name: String,
    optional: bool,
    ty: String,
}

/// An object type: an interface, an object literal, or an `Omit<…>` of one.
#[derive(Debug, Clone)]
struct Shape {
    /// `Step`, `Trace.view`, `Outcome[answer]` (an alternative of a union, by its tag).
    name: String,
    props: Vec<Prop>,
    /// It has an index signature (`[field: string]: unknown`): other keys are allowed.
    open: bool,
    /// An object literal (not an interface).
    inline: bool,
}

/// One alternative of a union type.
enum Alt {
    Null,
    String,
    Number,
    Boolean,
    /// `any`, `unknown` or `object`.
    Anything,
    Literal(String),
    Array(String),
    Shape(Shape),
    /// A named alias: its own alternatives.
    Alias(String),
    Function,
}

/// `text` without `/* … */` and `// …` comments (outside string literals).
fn strip_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut quote: Option<char> = None;
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = quote {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 1;
            } else if c == q {
                quote = None;
            }
        } else if c == '\'' || c == '"' || c == '`' {
            quote = Some(c);
            out.push(c);
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let end = (i + 2..chars.len().saturating_sub(1))
                .find(|&j| chars[j] == '*' && chars[j + 1] == '/')
                .expect("an unclosed comment in types.d.ts");
            out.push(' ');
            i = end + 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// Splits `text` where `at` holds outside brackets and string literals.
fn split_top(text: &str, at: impl Fn(char) -> bool) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '{' | '(' | '[' | '<' => depth += 1,
            // The `>` of an arrow is no bracket.
            '>' if text[..i].ends_with('=') => {}
            '}' | ')' | ']' | '>' => depth -= 1,
            _ if depth == 0 && at(c) => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The index of the bracket that closes the one at `open`.
fn closing(text: &str, open: usize) -> usize {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for (i, c) in text[open..].char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    panic!("types.d.ts: an unclosed bracket at {:?}", &text[open..]);
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The identifier at the start of `text`, and the rest.
fn ident(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text.find(|c| !is_ident(c)).unwrap_or(text.len());
    (&text[..end], &text[end..])
}

impl Declarations {
    fn read(text: &str) -> Declarations {
        let text = strip_comments(text);
        let mut interfaces = BTreeMap::new();
        let mut aliases = BTreeMap::new();
        let mut rest = text.as_str();
        loop {
            let rest_trim = rest.trim_start();
            if rest_trim.is_empty() {
                break;
            }
            let (word, after) = ident(rest_trim);
            match word {
                "export" | "declare" => rest = after,
                "interface" => {
                    let (name, after) = ident(after);
                    let open = after.find('{').expect("an interface body");
                    let close = closing(after, open);
                    let body = after[open + 1..close].to_string();
                    assert!(
                        interfaces.insert(name.to_string(), body).is_none(),
                        "types.d.ts declares interface {name} twice"
                    );
                    rest = &after[close + 1..];
                }
                "type" => {
                    let (name, after) = ident(after);
                    let after = after.trim_start();
                    let after = after
                        .strip_prefix('=')
                        .unwrap_or_else(|| panic!("types.d.ts: `type {name}` without `=`"));
                    let parts = split_top(after, |c| c == ';');
                    let ty = parts[0].trim().to_string();
                    rest = &after[parts[0].len()..];
                    rest = rest.strip_prefix(';').unwrap_or(rest);
                    aliases.insert(name.to_string(), ty);
                }
                _ => panic!(
                    "types.d.ts: cannot read the declaration at {:?}",
                    &rest_trim[..rest_trim.len().min(60)]
                ),
            }
        }
        Declarations {
            interfaces,
            aliases,
        }
    }

    fn interface(&self, name: &str) -> Shape {
        let body = self
            .interfaces
            .get(name)
            .unwrap_or_else(|| panic!("types.d.ts has no interface {name}"));
        members(name, body)
    }

    /// The declared type of `shape.prop`.
    fn prop_type(&self, shape: &str, prop: &str) -> Result<String, String> {
        let Some(body) = self.interfaces.get(shape) else {
            return Err(format!("types.d.ts has no interface {shape}"));
        };
        let found = members(shape, body)
            .props
            .into_iter()
            .find(|p| p.name == prop);
        found
            .map(|p| p.ty)
            .ok_or_else(|| format!("interface {shape} has no property `{prop}`"))
    }

    /// The alternatives of a type expression; object literals among them named after
    /// `context` (and their tag, when they have one).
    fn alternatives(&self, ty: &str, context: &str) -> Vec<Alt> {
        split_top(ty, |c| c == '|')
            .into_iter()
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| self.alternative(a, context))
            .collect()
    }

    fn alternative(&self, a: &str, context: &str) -> Alt {
        match a {
            "null" | "undefined" => return Alt::Null,
            "string" => return Alt::String,
            "number" => return Alt::Number,
            "boolean" => return Alt::Boolean,
            "any" | "unknown" | "object" => return Alt::Anything,
            _ => {}
        }
        if let Some(literal) = a.strip_prefix('\'').and_then(|a| a.strip_suffix('\'')) {
            return Alt::Literal(literal.to_string());
        }
        if let Some(element) = a.strip_suffix("[]") {
            let element = element.trim();
            let element = match element.strip_prefix('(') {
                Some(inner) if closing(element, 0) == element.len() - 1 => {
                    inner.strip_suffix(')').unwrap_or(inner)
                }
                _ => element,
            };
            return Alt::Array(element.to_string());
        }
        if a.starts_with('(') && a.contains("=>") {
            return Alt::Function;
        }
        if a.starts_with('{') && closing(a, 0) == a.len() - 1 {
            let mut shape = members(context, &a[1..a.len() - 1]);
            shape.inline = true;
            if let Some((_, tag)) = tag(&shape) {
                shape.name = format!("{context}[{tag}]");
            }
            return Alt::Shape(shape);
        }
        if let Some(args) = a.strip_prefix("Omit<").and_then(|a| a.strip_suffix('>')) {
            let (base, keys) = args.split_once(',').expect("Omit<Type, keys>");
            let mut shape = self.interface(base.trim());
            let keys: Vec<&str> = split_top(keys, |c| c == '|')
                .into_iter()
                .map(|k| k.trim().trim_matches('\''))
                .collect();
            shape.props.retain(|p| !keys.contains(&p.name.as_str()));
            return Alt::Shape(shape);
        }
        let (name, rest) = ident(a);
        if rest.is_empty() && !name.is_empty() {
            if self.interfaces.contains_key(name) {
                return Alt::Shape(self.interface(name));
            }
            if self.aliases.contains_key(name) {
                return Alt::Alias(name.to_string());
            }
        }
        panic!("types.d.ts: cannot read the type `{a}` (in {context}); teach tests/types.rs");
    }
}

/// The members of an object type's body.
fn members(name: &str, body: &str) -> Shape {
    let mut shape = Shape {
        name: name.to_string(),
        props: Vec::new(),
        open: false,
        inline: false,
    };
    for member in split_top(body, |c| c == ';' || c == ',' || c == '\n') {
        let member = member.trim();
        if member.is_empty() {
            continue;
        }
        if member.starts_with('[') {
            shape.open = true;
            continue;
        }
        let (prop, rest) = ident(member);
        let (optional, rest) = match rest.trim_start().strip_prefix('?') {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let ty = rest
            .trim_start()
            .strip_prefix(':')
            .unwrap_or_else(|| panic!("types.d.ts: cannot read the member `{member}` of {name}"));
        assert!(!prop.is_empty(), "types.d.ts: `{member}` in {name}");
        shape.props.push(Prop {
            name: prop.to_string(),
            optional,
            ty: ty.trim().to_string(),
        });
    }
    shape
}

/// An object literal's tag: its `type` or `kind` property (the key, and the value), when that
/// is one string literal.
fn tag(shape: &Shape) -> Option<(String, String)> {
    let prop = shape
        .props
        .iter()
        .find(|p| p.name == "type" || p.name == "kind")?;
    let literal = prop.ty.strip_prefix('\'')?.strip_suffix('\'')?;
    (!literal.contains('\'')).then(|| (prop.name.clone(), literal.to_string()))
}

/// The string literals of a union type, through named aliases (`'a' | 'b' | null` → a, b).
fn literals(decls: &Declarations, ty: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for alt in decls.alternatives(ty, "literals") {
        match alt {
            Alt::Literal(l) => {
                out.insert(l);
            }
            Alt::Alias(name) => out.extend(literals(decls, &decls.aliases[&name])),
            _ => {}
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Walking values against them.

/// Which object types the values reached, and which of their properties they had.
#[derive(Default)]
struct Coverage {
    seen: BTreeMap<String, BTreeSet<String>>,
}

impl Coverage {
    fn merge(&mut self, other: Coverage) {
        for (shape, props) in other.seen {
            self.seen.entry(shape).or_default().extend(props);
        }
    }
}

struct Walk<'d> {
    decls: &'d Declarations,
    errors: Vec<String>,
    coverage: Coverage,
}

impl<'d> Walk<'d> {
    fn new(decls: &'d Declarations) -> Self {
        Walk {
            decls,
            errors: Vec::new(),
            coverage: Coverage::default(),
        }
    }

    /// Checks `value` (from `what`) against the declared type `ty`.
    fn check(&mut self, what: &str, value: &Value, ty: &str) {
        let (errors, coverage) = self.value(value, ty, ty, what);
        self.errors.extend(errors);
        self.coverage.merge(coverage);
    }

    fn value(&self, value: &Value, ty: &str, context: &str, path: &str) -> (Vec<String>, Coverage) {
        let alternatives = self.decls.alternatives(ty, context);
        // When none fits, what the alternative that comes closest found wrong (see `rank`):
        // it says better what is wrong than "fits none".
        let mut best: Option<(bool, Vec<String>, Coverage)> = None;
        let mut tag_key = None;
        for alt in &alternatives {
            let (errors, coverage) = self.alternative(value, alt, context, path);
            if errors.is_empty() {
                return (errors, coverage);
            }
            let alt_tag = match alt {
                Alt::Shape(shape) => tag(shape),
                _ => None,
            };
            let tagged = alt_tag.as_ref().is_some_and(|(key, literal)| {
                tag_key = Some(key.clone());
                value.get(key) == Some(&json!(literal))
            });
            let relevant = alternatives.len() == 1
                || matches!(
                    (alt, value),
                    (Alt::Shape(_), Value::Object(_))
                        | (Alt::Array(_), Value::Array(_))
                        | (Alt::Alias(_), _)
                );
            // Tagged first; then the one whose problems lie deeper (the value itself fits,
            // a field of it does not); then the one with fewer.
            let here = format!("at {path}: ");
            let rank = |tagged: bool, errors: &[String]| {
                let shallow = errors.iter().filter(|e| e.starts_with(&here)).count();
                (tagged, Reverse(shallow), Reverse(errors.len()))
            };
            let better = best
                .as_ref()
                .is_none_or(|(was_tagged, was, _)| rank(tagged, &errors) > rank(*was_tagged, was));
            if relevant && better {
                best = Some((tagged, errors, coverage));
            }
        }
        // An alias by its name, a short type as it is written.
        let ty = if ty.contains('\n') || ty.len() > 100 {
            context
        } else {
            ty
        };
        if let (Some(key), Some((false, _, _))) = (&tag_key, &best) {
            if let Some(found) = value.get(key) {
                return (
                    vec![format!(
                        "at {path}: the union `{ty}` has no member with {key} {found}"
                    )],
                    Coverage::default(),
                );
            }
        }
        // The coverage of a value that does not fit still counts: the declarations it did
        // reach are reported as reached.
        match best {
            Some((_, errors, coverage)) => (errors, coverage),
            None => (
                vec![format!(
                    "at {path}: {value} fits no alternative of the declared type `{ty}`"
                )],
                Coverage::default(),
            ),
        }
    }

    fn alternative(
        &self,
        value: &Value,
        alt: &Alt,
        context: &str,
        path: &str,
    ) -> (Vec<String>, Coverage) {
        let fits = match (alt, value) {
            (Alt::Anything, _) => true,
            (Alt::Null, Value::Null) => true,
            (Alt::String, Value::String(_)) => true,
            (Alt::Number, Value::Number(_)) => true,
            (Alt::Boolean, Value::Bool(_)) => true,
            (Alt::Literal(l), Value::String(s)) => l == s,
            (Alt::Alias(name), _) => {
                return self.value(value, &self.decls.aliases[name], name, path);
            }
            (Alt::Array(element), Value::Array(items)) => {
                let mut errors = Vec::new();
                let mut coverage = Coverage::default();
                for (i, item) in items.iter().enumerate() {
                    let (e, c) = self.value(item, element, context, &format!("{path}[{i}]"));
                    errors.extend(e);
                    coverage.merge(c);
                }
                return (errors, coverage);
            }
            (Alt::Shape(shape), Value::Object(map)) => return self.object(map, shape, path),
            _ => false,
        };
        let errors = if fits {
            Vec::new()
        } else {
            vec![format!("at {path}: {value} is not {}", describe(alt))]
        };
        (errors, Coverage::default())
    }

    fn object(
        &self,
        map: &serde_json::Map<String, Value>,
        shape: &Shape,
        path: &str,
    ) -> (Vec<String>, Coverage) {
        let mut errors = Vec::new();
        let mut coverage = Coverage::default();
        let seen = coverage.seen.entry(shape.name.clone()).or_default();
        for key in map.keys() {
            if shape.props.iter().any(|p| &p.name == key) {
                seen.insert(key.clone());
            } else if !shape.open {
                errors.push(format!(
                    "at {path}: {} has no property `{key}`, which the Rust value has",
                    declared(&shape.name)
                ));
            }
        }
        for prop in &shape.props {
            match map.get(&prop.name) {
                None if !prop.optional => errors.push(format!(
                    "at {path}: {} declares `{}` as always there; the Rust value lacks it",
                    declared(&shape.name),
                    prop.name
                )),
                None => {}
                Some(v) => {
                    let context = format!("{}.{}", shape.name, prop.name);
                    let (e, c) =
                        self.value(v, &prop.ty, &context, &format!("{path}.{}", prop.name));
                    errors.extend(e);
                    coverage.merge(c);
                }
            }
        }
        (errors, coverage)
    }
}

fn declared(shape: &str) -> String {
    if shape.contains(['.', '[']) {
        format!("the object type {shape}")
    } else {
        format!("interface {shape}")
    }
}

fn describe(alt: &Alt) -> String {
    match alt {
        Alt::Null => "null".into(),
        Alt::String => "a string".into(),
        Alt::Number => "a number".into(),
        Alt::Boolean => "a boolean".into(),
        Alt::Anything => "anything".into(),
        Alt::Literal(l) => format!("'{l}'"),
        Alt::Array(e) => format!("an array of {e}"),
        Alt::Shape(s) => format!("an object ({})", s.name),
        Alt::Alias(a) => a.clone(),
        Alt::Function => "a function".into(),
    }
}

/// Every object type the declarations hold (but those of [`NOT_WALKED`]), named as the walk
/// names them, with their properties.
fn declared_shapes(decls: &Declarations) -> BTreeMap<String, Shape> {
    fn within(decls: &Declarations, ty: &str, context: &str, out: &mut BTreeMap<String, Shape>) {
        for alt in decls.alternatives(ty, context) {
            match alt {
                Alt::Shape(shape) if shape.inline => add(decls, shape, out),
                Alt::Array(element) => within(decls, &element, context, out),
                _ => {}
            }
        }
    }
    fn add(decls: &Declarations, shape: Shape, out: &mut BTreeMap<String, Shape>) {
        for prop in &shape.props {
            within(
                decls,
                &prop.ty,
                &format!("{}.{}", shape.name, prop.name),
                out,
            );
        }
        out.insert(shape.name.clone(), shape);
    }
    let mut out = BTreeMap::new();
    for name in decls.interfaces.keys() {
        if !NOT_WALKED.contains(&name.as_str()) {
            add(decls, decls.interface(name), &mut out);
        }
    }
    for (name, ty) in &decls.aliases {
        if !NOT_WALKED.contains(&name.as_str()) {
            within(decls, ty, name, &mut out);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The Rust side: enum names, real runs and fully populated values.

/// The names a Rust enum is read from and written as: the reader's own list (from its
/// "unknown variant" message), each checked to serialise to itself.
fn names<T: DeserializeOwned + Serialize>() -> BTreeSet<String> {
    let message = serde_json::from_value::<T>(json!("\u{1}"))
        .err()
        .expect("no variant is named \\u{1}")
        .to_string();
    let names = quoted(&message);
    for name in &names {
        let variant: T = serde_json::from_value(json!(name)).unwrap();
        assert_eq!(serde_json::to_value(variant).unwrap(), json!(name));
    }
    names
}

/// The back-quoted names after "expected" in serde's unknown-variant message.
fn quoted(message: &str) -> BTreeSet<String> {
    let (_, expected) = message
        .split_once("expected")
        .unwrap_or_else(|| panic!("not an unknown-variant message: {message}"));
    let names: BTreeSet<String> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect();
    assert!(!names.is_empty(), "{message}");
    names
}

/// What a page receives from a run driven to its end with these replies (a `None` is a model
/// error).
fn drive(constrained: Constrained, replies: &[Option<&'static str>]) -> Driven {
    let mut agent = common::agent(AgentConfig {
        constrained,
        ..AgentConfig::default()
    });
    agent.label_model("scripted");
    let error = LlmError::Timeout { ms: 1000 };
    common::drive(agent, replies, error, AtEnd::Abort("Thought: half"))
}

fn text(s: &str) -> Text {
    Text {
        en: s.into(),
        zh: s.into(),
    }
}

/// One of each variant. The match is exhaustive: a new variant does not compile until it has
/// its sample here.
fn outcomes() -> Vec<Outcome> {
    let mut all = vec![Outcome::Answer {
        answer: "42".into(),
    }];
    loop {
        let next = match all.last().unwrap() {
            Outcome::Answer { .. } => Outcome::StepLimit {
                steps: 8,
                last_observation: Some("42".into()),
            },
            Outcome::StepLimit { .. } => Outcome::FormatErrors { count: 3 },
            Outcome::FormatErrors { .. } => Outcome::RepeatedCalls {
                tool: "calculator".into(),
            },
            Outcome::RepeatedCalls { .. } => Outcome::ModelError {
                error: LlmError::Aborted,
            },
            Outcome::ModelError { .. } => Outcome::Aborted,
            Outcome::Aborted => return all,
        };
        all.push(next);
    }
}

fn pendings() -> Vec<Pending> {
    let mut all = vec![Pending::CallModel { step: 1 }];
    loop {
        let next = match all.last().unwrap() {
            Pending::CallModel { .. } => Pending::RunTool {
                step: 1,
                call: full_call(),
            },
            Pending::RunTool { .. } => Pending::Done,
            Pending::Done => return all,
        };
        all.push(next);
    }
}

fn events() -> Vec<Event> {
    let step_view = |with_request: bool| {
        let mut value = view::step(&full_step(), ORIGIN).unwrap();
        value["view"]["can_retry"] = json!(true);
        if !with_request {
            value.as_object_mut().unwrap().remove("request");
        }
        value
    };
    let mut all = vec![Event::Request {
        step: 1,
        request: full_request(),
    }];
    loop {
        let next = match all.last().unwrap() {
            Event::Request { .. } => Event::Delta {
                step: 1,
                text: "Thought:".into(),
            },
            Event::Delta { .. } => Event::ToolStart {
                step: 1,
                call: full_call(),
            },
            Event::ToolStart { .. } => Event::Step {
                step: step_view(true),
            },
            Event::Step { step } if step.get("request").is_some() => Event::Step {
                step: step_view(false),
            },
            Event::Step { .. } => Event::Guard {
                step: 1,
                guard: Guard::StepLimit { steps: 8 },
                explanation: text("the step limit"),
            },
            Event::Guard { .. } => Event::Notice {
                step: 1,
                message: text("a notice"),
            },
            Event::Notice { .. } => Event::Error {
                step: 1,
                error: LlmError::Timeout { ms: 60_000 },
                message: text("The model did not answer"),
                hint: Some(text("a fix")),
            },
            Event::Error { .. } => Event::Next {
                next: Pending::Done,
            },
            Event::Next { .. } => Event::Done {
                outcome: Outcome::Aborted,
                message: text("stopped"),
            },
            Event::Done { .. } => return all,
        };
        all.push(next);
    }
}

/// A settings object with every key set to a value the reader accepts.
fn settings() -> Value {
    json!({
        "demo": true, "demoDelayMs": 10, "inPage": true,
        "baseUrl": "http://localhost:11434/v1", "apiKey": "sk-x", "model": "qwen2.5:0.5b",
        "temperature": 0.2, "maxTokens": 256, "stream": true, "seed": 7, "timeoutMs": 30000,
        "constrained": "grammar", "actFirst": false, "strategy": "act", "compress": "summary",
        "lang": "zh", "template": "{tools} {tool_names}", "systemPrompt": "You are …",
        "fewShot": [{"question": "q", "transcript": "Thought: t"}], "workedExamples": false, "texts": {"note.empty_result": "(nothing)"},
        "restateQuestion": true, "stop": ["Observation:"],
        "maxSteps": 8, "maxFormatErrors": 3, "maxRepeats": 3, "observationLimit": 500,
        "historyRounds": 6, "style": "transcript",
        "documents": [{"title": "t", "text": "x"}], "disabledTools": ["current_time"],
    })
}

// ---------------------------------------------------------------------------------------
// The tests.

/// Fails with each distinct problem once, at the first place it was found.
fn fail_on(errors: &[String]) {
    let mut problems: Vec<(&str, &str, usize)> = Vec::new();
    for error in errors {
        let (place, problem) = error
            .strip_prefix("at ")
            .and_then(|e| e.split_once(": "))
            .unwrap_or(("", error));
        match problems.iter_mut().find(|(_, p, _)| *p == problem) {
            Some((_, _, more)) => *more += 1,
            None => problems.push((place, problem, 0)),
        }
    }
    let lines: Vec<String> = problems
        .iter()
        .map(|(place, problem, more)| match (place.is_empty(), more) {
            (true, _) => problem.to_string(),
            (false, 0) => format!("{problem} (at {place})"),
            (false, more) => format!("{problem} (at {place} and {more} more)"),
        })
        .collect();
    assert!(
        lines.is_empty(),
        "wasm/src/types.d.ts does not match the Rust types:\n  {}",
        lines.join("\n  ")
    );
}

#[test]
fn settings_declares_every_key_the_reader_reads_and_no_other() {
    let decls = Declarations::read(&declarations());
    let declared: BTreeSet<String> = decls
        .interface("Settings")
        .props
        .into_iter()
        .map(|p| p.name)
        .collect();
    let read: BTreeSet<String> = SETTINGS_KEYS.iter().map(|k| k.to_string()).collect();
    let mut errors: Vec<String> = read
        .difference(&declared)
        .map(|k| format!("interface Settings has no property `{k}`, which the reader reads"))
        .collect();
    errors.extend(declared.difference(&read).map(|k| {
        format!("interface Settings declares `{k}`, which the reader does not read (SETTINGS_KEYS)")
    }));
    fail_on(&errors);

    // A settings object with every key is accepted, and fits the declarations.
    let sample = settings();
    let keys: BTreeSet<String> = sample.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, read, "the sample settings set every key");
    configure(sample.clone(), Purpose::Run).expect("the sample settings are accepted");
    let mut walk = Walk::new(&decls);
    walk.check("settings", &sample, "Settings");
    fail_on(&walk.errors);
}

#[test]
fn each_union_of_names_lists_exactly_the_rust_enums_names() {
    let decls = Declarations::read(&declarations());
    let parse_kinds = quoted(
        &serde_json::from_value::<ParseResult>(json!({"kind": "\u{1}"}))
            .expect_err("no parse kind is named \\u{1}")
            .to_string(),
    );
    let cases: Vec<(&str, &str, BTreeSet<String>)> = vec![
        ("Settings", "constrained", names::<Constrained>()),
        ("Settings", "style", names::<MessageStyle>()),
        ("Settings", "lang", names::<Lang>()),
        ("ModelRequest", "constrained", names::<Constrained>()),
        ("ModelRequest", "must_answer", names::<MustAnswer>()),
        ("ServerChoice", "kind", names::<ServerKind>()),
        ("ServerChoice", "constrained", names::<Constrained>()),
        ("Message", "role", names::<Role>()),
        ("ToolCall", "builtin", names::<Builtin>()),
        ("Observation", "source", names::<ObservationSource>()),
        ("Parse", "kind", parse_kinds),
    ];
    let mut errors = Vec::new();
    for (interface, prop, rust) in cases {
        let ts = match decls.prop_type(interface, prop) {
            Ok(ty) => literals(&decls, &ty),
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        for missing in rust.difference(&ts) {
            errors.push(format!(
                "interface {interface}: `{prop}` does not list '{missing}', which the Rust type has"
            ));
        }
        for extra in ts.difference(&rust) {
            errors.push(format!(
                "interface {interface}: `{prop}` lists '{extra}', which the Rust type does not have"
            ));
        }
    }
    fail_on(&errors);
}

#[test]
fn what_the_core_gives_a_page_fits_the_declarations_and_fills_them() {
    let decls = Declarations::read(&declarations());
    let mut walk = Walk::new(&decls);

    // Real runs: plain, constrained with a repeated call and a format error, and one that
    // ends on a model error after `auto` found its server.
    let runs = [
        drive(Constrained::Off, &[Some(CALC), Some(FINAL)]),
        drive(
            Constrained::Grammar,
            &[Some(CALC), Some(CALC), Some("nonsense"), Some(FINAL)],
        ),
        drive(Constrained::Auto, &[Some(CALC), None]),
    ];
    for (
        i,
        Driven {
            events,
            nexts,
            trace,
        },
    ) in runs.iter().enumerate()
    {
        for (j, event) in events.iter().enumerate() {
            walk.check(
                &format!("run{i}.events[{j}]"),
                &to_value(event),
                "AgentEvent",
            );
        }
        for (j, next) in nexts.iter().enumerate() {
            walk.check(&format!("run{i}.next[{j}]"), next, "Pending");
        }
        walk.check(
            &format!("run{i}.trace()"),
            &view::trace(trace, ORIGIN).unwrap(),
            "Trace",
        );
        walk.check(&format!("run{i}.exportTrace()"), &to_value(trace), "Trace");
    }

    // Every field set, and one of each variant.
    walk.check(
        "trace",
        &view::trace(&full_trace(), ORIGIN).unwrap(),
        "Trace",
    );
    walk.check("exportTrace", &to_value(full_trace()), "Trace");
    for (i, outcome) in outcomes().iter().enumerate() {
        walk.check(&format!("outcome[{i}]"), &to_value(outcome), "Outcome");
    }
    for (i, pending) in pendings().iter().enumerate() {
        walk.check(&format!("pending[{i}]"), &to_value(pending), "Pending");
    }
    for (i, event) in events().iter().enumerate() {
        walk.check(&format!("event[{i}]"), &to_value(event), "AgentEvent");
    }
    let replies = [
        CALC,
        FINAL,
        "Thought: done\nFinal Answer: 42",
        "nonsense",
        "",
        "Thought：compute\nAction: calculator\nAction Input: {'expression': '6*7',}",
    ];
    for (i, text) in replies.iter().enumerate() {
        walk.check(
            &format!("parseReply[{i}]"),
            &to_value(parse_reply(text)),
            "Parse",
        );
    }
    walk.check("ask()", &to_value(full_step().reply), "ModelReply");
    let registry = Registry::with_builtins(Vec::new());
    // As wasm/src/api.rs gives them: each spec with its description in every language.
    let builtins: Vec<Value> = registry
        .specs()
        .iter()
        .map(|spec| {
            let mut value = to_value(spec);
            value["view"] = json!({ "description": reactloop::sentences::tool_description(spec) });
            value
        })
        .collect();
    walk.check("builtinTools()", &Value::Array(builtins), "BuiltinTool[]");
    walk.check(
        "defaultDocuments()",
        &to_value(default_documents()),
        "Document[]",
    );
    walk.check("limits()", &limits::for_page(), "Limits");
    walk.check(
        "settingDefaults()",
        &reactloop::defaults::for_page(),
        "SettingDefaults",
    );
    walk.check(
        "templates()",
        &reactloop::told::for_page(),
        "TemplateText[]",
    );
    walk.check("settings", &settings(), "Settings");

    // Every declared object type was reached, with each of its properties.
    let mut errors = walk.errors;
    for (name, shape) in declared_shapes(&decls) {
        let Some(seen) = walk.coverage.seen.get(&name) else {
            errors.push(format!(
                "no Rust value was checked against {} (add one here, or name it in NOT_WALKED)",
                declared(&name)
            ));
            continue;
        };
        for prop in &shape.props {
            if !seen.contains(&prop.name) {
                errors.push(format!(
                    "{} declares `{}`, which no Rust value has",
                    declared(&name),
                    prop.name
                ));
            }
        }
    }
    fail_on(&errors);
}

#[test]
fn the_reader_of_declarations_reads_what_it_is_given() {
    let decls = Declarations::read(
        "// a\nexport interface A {\n  /** b */ b?: 'x' | 'y'; c: { d: number }[];\n\
         [k: string]: unknown }\n\
         export type T =\n  | { type: 'one'; a: A }\n  /** two */\n  | { type: 'two' };\n\
         export type F = (x: { y: string }) => Promise<{ z?: number }>;",
    );
    let a = decls.interface("A");
    assert!(a.open);
    let props: Vec<(&str, bool, &str)> = a
        .props
        .iter()
        .map(|p| (p.name.as_str(), p.optional, p.ty.as_str()))
        .collect();
    assert_eq!(
        props,
        [("b", true, "'x' | 'y'"), ("c", false, "{ d: number }[]")]
    );
    assert_eq!(
        literals(&decls, &decls.prop_type("A", "b").unwrap()),
        BTreeSet::from(["x".to_string(), "y".to_string()])
    );
    let mut walk = Walk::new(&decls);
    walk.check(
        "ok",
        &json!({"type": "one", "a": {"c": [{"d": 1}], "e": 2}}),
        "T",
    );
    assert_eq!(walk.errors, Vec::<String>::new());
    walk.check(
        "bad",
        &json!({"type": "one", "a": {"b": "z", "c": [{"d": 1, "f": 2}]}}),
        "T",
    );
    walk.check("bad", &json!({"type": "two", "extra": 1}), "T");
    walk.check("bad", &json!({"type": "three"}), "T");
    assert_eq!(
        walk.errors,
        [
            "at bad.a.b: \"z\" fits no alternative of the declared type `'x' | 'y'`",
            "at bad.a.c[0]: the object type A.c has no property `f`, which the Rust value has",
            "at bad: the object type T[two] has no property `extra`, which the Rust value has",
            "at bad: the union `T` has no member with type \"three\"",
        ]
    );
    let shapes: Vec<String> = declared_shapes(&decls).into_keys().collect();
    assert_eq!(shapes, ["A", "A.c", "T[one]", "T[two]"]);
}
