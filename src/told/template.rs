//! Every text the loop sends the model, beyond the system prompt, is a named template with
//! `{placeholders}`, in English and Chinese ([`ALL`]); a run may replace any of them with its own
//! text ([`Templates`]), so a workshop can show that the loop's "cleverness" is text it can edit.

use std::fmt::Display;

use serde::{Serialize, Serializer};
use serde_json::{Error, Value};

use crate::fields::{kind, via_value, Fields};

use crate::lang::Lang;

/// A text the model is sent: its name, and its English and Chinese with `{placeholders}`
/// (`{{` and `}}` for a literal brace, as in `format!`).
#[derive(Debug, PartialEq, Eq)]
pub struct Template {
    pub name: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
}

impl Template {
    pub fn text(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }

    /// Its placeholders' names, in the order of their first appearance in the English.
    pub fn placeholders(&self) -> Vec<&'static str> {
        placeholders(self.en)
    }
}

/// The names of the `{placeholders}` in `text`, each once.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in parts(text) {
        if let Part::Slot(name) = part {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// A piece of a template: fixed text (its `{{` and `}}` as single braces) or a placeholder.
#[derive(Debug, PartialEq, Eq)]
enum Part<'a> {
    Text(String),
    Slot(&'a str),
}

/// `text` as fixed text and placeholders, in order: the one reader of a template's braces. A
/// brace that opens no `{name}` is text.
fn parts(text: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut fixed = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(['{', '}']) {
        fixed.push_str(&rest[..at]);
        let brace = &rest[at..];
        if brace.starts_with("{{") || brace.starts_with("}}") {
            fixed.push_str(&brace[..1]);
            rest = &brace[2..];
            continue;
        }
        let name = brace[1..].split('}').next().unwrap_or_default();
        if brace.starts_with('{') && brace.len() > name.len() + 1 && is_name(name) {
            out.push(Part::Text(std::mem::take(&mut fixed)));
            out.push(Part::Slot(name));
            rest = &brace[name.len() + 2..];
        } else {
            fixed.push_str(&brace[..1]);
            rest = &brace[1..];
        }
    }
    fixed.push_str(rest);
    out.push(Part::Text(fixed));
    out
}

fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `text` with each `{name}` of `args` filled in and `{{`, `}}` as single braces; a placeholder
/// it is not given stays as written (a run's own text may name one that does not exist).
pub fn fill(text: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    for part in parts(text) {
        match part {
            Part::Text(fixed) => out.push_str(&fixed),
            Part::Slot(name) => match args.iter().find(|(n, _)| *n == name) {
                Some((_, value)) => out.push_str(&value.to_string()),
                None => out.push_str(&format!("{{{name}}}")),
            },
        }
    }
    out
}

/// A run's own texts for some templates: name → text, in the run's language, by name (a
/// list, not a `BTreeMap`: its code was the last map of its kind in the wasm).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Templates(Vec<(String, String)>);

/// By name, the last text of a name kept, as a map would.
impl FromIterator<(String, String)> for Templates {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(texts: I) -> Self {
        let mut texts: Vec<(String, String)> = texts.into_iter().collect();
        texts.reverse();
        crate::order::sort_by(&mut texts, |a, b| a.0.cmp(&b.0));
        texts.dedup_by(|a, b| a.0 == b.0);
        Templates(texts)
    }
}

impl Serialize for Templates {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, text)| (name, text)))
    }
}

via_value! {
    Templates => templates,
}

fn templates(value: Value) -> Result<Templates, Error> {
    (Fields::object(value)?.0.into_iter())
        .map(|(name, text)| match text {
            Value::String(text) => Ok((name, text)),
            other => Err(serde::de::Error::custom(format!(
                "invalid type: {}, expected a string",
                kind(&other)
            ))),
        })
        .collect()
}

impl Templates {
    /// A run's own text for the template `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        (self.0.iter())
            .find(|(n, _)| n == name)
            .map(|(_, text)| text.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names that are no template's ([`ALL`]).
    pub fn unknown(&self) -> Vec<&str> {
        (self.0.iter())
            .map(|(name, _)| name.as_str())
            .filter(|name| !super::all().any(|t| t.name == *name))
            .collect()
    }
}

/// How the model is spoken to in a run: its language and its own templates.
#[derive(Debug, Clone, Copy)]
pub struct Voice<'a> {
    pub lang: Lang,
    pub custom: Option<&'a Templates>,
}

impl From<Lang> for Voice<'static> {
    fn from(lang: Lang) -> Self {
        Voice { lang, custom: None }
    }
}

impl Voice<'_> {
    /// `template` in this voice, filled with `args`.
    pub fn say(&self, template: &Template, args: &[(&str, &dyn Display)]) -> String {
        let own = (self.custom).and_then(|c| c.get(template.name));
        fill(own.unwrap_or(template.text(self.lang)), args)
    }
}

/// The templates `text` holds, as `voice` writes them: their fixed pieces in order, something
/// in the place of each placeholder between two of them, and one piece long enough to tell the
/// template apart ([`MIN_PIECE`]); or, for a template without placeholders however short (an
/// opening such as `答案是`), a whole line of `text`. A template of placeholders and short words
/// only is never found.
pub fn found_in(text: &str, voice: Voice<'_>) -> Vec<&'static str> {
    super::all()
        .filter(|t| {
            let own = (voice.custom).and_then(|c| c.get(t.name));
            let pieces = fixed_pieces(own.unwrap_or(t.text(voice.lang)));
            let line = |piece: &String| text.lines().any(|l| l.trim() == piece.trim());
            match pieces.as_slice() {
                [whole] if !whole.trim().is_empty() && line(whole) => true,
                _ => pieces.iter().any(|p| p.len() >= MIN_PIECE) && holds(text, &pieces),
            }
        })
        .map(|t| t.name)
        .collect()
}

/// Whether `text` holds `pieces` in order, each after the last one ends (and, but for the first,
/// after at least one character more: a placeholder's value), trying each place the first
/// one is.
fn holds(text: &str, pieces: &[String]) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return false;
    };
    // A template that opens with a placeholder has its first piece empty: one place to try.
    let starts: Vec<usize> = match first.is_empty() {
        true => vec![0],
        false => text
            .match_indices(first.as_str())
            .map(|(at, _)| at)
            .collect(),
    };
    starts.into_iter().any(|at| {
        let mut from = at + first.len();
        rest.iter().all(|piece| {
            let Some(gap) = text[from..].chars().next() else {
                return piece.is_empty();
            };
            let start = from + gap.len_utf8();
            match text[start..].find(piece.as_str()) {
                Some(found) => {
                    from = start + found + piece.len();
                    true
                }
                None => false,
            }
        })
    })
}

/// The shortest piece of a template's fixed text that [`found_in`] looks for, in bytes of
/// UTF-8: ten letters, or four Chinese characters (three bytes each). A Chinese character
/// says about as much as a few letters (`除数为零`, 4 characters, is "division by zero"); counted
/// as one, 28 of the 120 Chinese texts were too short to be found where the English ones are.
pub const MIN_PIECE: usize = 10;

/// The text between a template's placeholders, its escaped braces as single ones.
fn fixed_pieces(text: &str) -> Vec<String> {
    (parts(text).into_iter())
        .filter_map(|part| match part {
            Part::Text(fixed) => Some(fixed),
            Part::Slot(_) => None,
        })
        .collect()
}

/// `say!(voice, TEMPLATE, a, b)`: the template in the voice, its `{a}` and `{b}` filled from
/// the variables of those names.
macro_rules! say {
    ($voice:expr, $template:expr $(, $arg:ident)* $(,)?) => {
        $crate::told::Voice::from($voice).say(
            &$template,
            &[$((stringify!($arg), &$arg as &dyn ::std::fmt::Display)),*],
        )
    };
}
pub(crate) use say;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_puts_values_in_and_keeps_the_rest() {
        let n = 3;
        let args: [(&str, &dyn Display); 2] = [("n", &n), ("tool", &"calculator")];
        assert_eq!(
            fill("{tool} ran {n} times", &args),
            "calculator ran 3 times"
        );
        assert_eq!(
            fill("e.g. {{\"query\": \"{n}\"}}", &args),
            "e.g. {\"query\": \"3\"}"
        );
        // Not given, not a name, or not closed: as written.
        assert_eq!(fill("{other} {N} {n", &args), "{other} {N} {n");
        assert_eq!(fill("（{n}）", &args), "（3）");
        assert_eq!(placeholders("{a} {{b}} {c}{a} {D}"), ["a", "c"]);
        assert_eq!(fixed_pieces("x {a} y {{z}} {B}"), ["x ", " y {z} {B}"]);
        let pieces = |t: &str| fixed_pieces(t);
        // In order, with a value in each placeholder's place.
        assert!(holds(
            "The search_docs Observation shows",
            &pieces("The {tool} Observation shows")
        ));
        assert!(!holds(
            "The Observation shows",
            &pieces("The {tool} Observation shows")
        ));
        assert!(!holds("b then a", &pieces("a {x} b")));
        assert!(holds("(x) a 1 b", &pieces("a {x} b")));
        assert!(holds(
            "42\n(The same call)",
            &pieces("{earlier}\n(The same call)")
        ));
    }

    #[test]
    fn a_runs_texts_are_read_and_written_as_an_object_by_name() {
        let texts: Templates =
            serde_json::from_value(serde_json::json!({"b": "2", "a": "1"})).unwrap();
        assert_eq!(texts.get("a"), Some("1"));
        assert_eq!(texts.get("c"), None);
        assert_eq!(
            serde_json::to_string(&texts).unwrap(),
            r#"{"a":"1","b":"2"}"#
        );
        // The last of a name is kept, as a map keeps it.
        let given = [("a", "1"), ("b", "2"), ("a", "3")].map(|(n, t)| (n.into(), t.into()));
        assert_eq!(
            given.into_iter().collect::<Templates>().0,
            [("a".into(), "3".into()), ("b".into(), "2".into())]
        );
        let refused = serde_json::from_value::<Templates>(serde_json::json!({"a": 3})).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "invalid type: number, expected a string"
        );
        assert!(serde_json::from_value::<Templates>(serde_json::json!(["a"])).is_err());
    }
}
