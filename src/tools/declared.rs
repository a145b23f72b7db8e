//! What a tool declares that points to it in a question, read the same way for every tool,
//! built-in or a page's own: the words of its name and its keywords (its subject), its
//! examples, the values its parameters list, the text of its parameters, and whether it
//! takes a number. `fit` weighs them.

use super::days::find_word;
use super::registry::words;
use super::search_docs::tokenize;
use super::{Evidence, ToolSpec};
use crate::lower::Lower;

/// A tool's parameters and their schemas, in schema order.
pub(super) fn properties(spec: &ToolSpec) -> impl Iterator<Item = (&String, &serde_json::Value)> {
    (spec
        .parameters
        .get("properties")
        .and_then(|p| p.as_object())
        .into_iter())
    .flatten()
}

/// The text of a tool's parameters: their names (`order_id` as "order id"), descriptions and
/// listed values.
pub(super) fn params_text(spec: &ToolSpec) -> String {
    let properties = properties(spec);
    let mut out = String::new();
    for (name, schema) in properties {
        out.push_str(&name.replace('_', " "));
        out.push(' ');
        if let Some(d) = schema.get("description").and_then(|d| d.as_str()) {
            out.push_str(d);
            out.push(' ');
        }
        for value in enum_values(schema) {
            out.push_str(value);
            out.push(' ');
        }
    }
    out
}

fn enum_values(schema: &serde_json::Value) -> impl Iterator<Item = &str> {
    (schema
        .get("enum")
        .and_then(|e| e.as_array())
        .into_iter()
        .flatten())
    .filter_map(|v| v.as_str())
}

/// Words of a name that say nothing of what a tool is about.
#[rustfmt::skip]
const GENERIC: &[&str] = &[
    "get", "set", "find", "lookup", "look", "search", "fetch", "query", "current", "latest",
    "info", "information", "data", "tool", "check", "status", "list", "api", "the", "and", "for",
    "from", "run", "show", "tell", "by", "of", "my",
];

/// The tool's keywords the question holds, and, for a tool with no role, the words of its
/// name ("order" of `order_status`, "weather"); one word per place in the question, in a
/// light word form ("orders" for "order", "weather's").
pub(super) fn subject_words(spec: &ToolSpec, lower: &str) -> Vec<String> {
    let mut places = Vec::new();
    let mut out = Vec::new();
    for word in subject(spec) {
        if let Some((at, len)) = find_form(lower, &word).filter(|(at, _)| !places.contains(at)) {
            places.push(at);
            // As the question writes it: "documents", "orders".
            out.push(lower[at..at + len].to_string());
        }
    }
    out
}

/// What a tool is about: its keywords, and for a tool with no role, the words of its name
/// that say something ("order" of `order_status`, not "status").
pub(super) fn subject(spec: &ToolSpec) -> Vec<String> {
    let mut out: Vec<String> = (spec.keywords.iter())
        .map(|k| k.trim().lower())
        .filter(|k| !k.is_empty())
        .collect();
    if spec.role.is_none() {
        out.extend(name_words(&spec.name).filter(|w| !GENERIC.contains(&w.as_str())));
    }
    out
}

/// The words of a tool's name: `order_status`, `stockPrice`, `get-weather`.
fn name_words(name: &str) -> impl Iterator<Item = String> + '_ {
    let mut spaced = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            spaced.push(' ');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        spaced.push(if c.is_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            ' '
        });
    }
    let words: Vec<String> = spaced
        .split_whitespace()
        .filter(|w| w.len() >= 3)
        .map(String::from)
        .collect();
    words.into_iter()
}

/// Where `word` occurs in `lower` in a light word form: as it is, with a plural `s` or `es`
/// or a possessive `'s`, or without its own plural `s`.
pub(super) fn find_form(lower: &str, word: &str) -> Option<(usize, usize)> {
    if !word.is_ascii() {
        return find_word(lower, word).map(|at| (at, word.len()));
    }
    let forms = [
        word.to_string(),
        format!("{word}s"),
        format!("{word}es"),
        format!("{word}'s"),
        word.strip_suffix('s').unwrap_or(word).to_string(),
    ];
    (forms.iter().filter(|f| f.len() >= 2))
        .find_map(|f| find_word(lower, f).map(|at| (at, f.len())))
}

/// The example most like the question, and how many of its words the question holds.
pub(super) fn best_example(spec: &ToolSpec, question: &str) -> (Option<String>, usize) {
    let asked = example_words(question);
    (spec.examples.iter())
        .map(|example| {
            let shared = (example_words(example).iter())
                .filter(|w| asked.contains(w))
                .count();
            (Some(example.clone()), shared)
        })
        .max_by_key(|(_, shared)| *shared)
        .unwrap_or((None, 0))
}

/// Words that can tell questions apart: Latin words (a plural `s` dropped) and pairs of
/// Chinese characters, without function words, question words or numbers.
fn example_words(text: &str) -> Vec<String> {
    let latin = tokenize(text).into_iter().filter(|t| {
        t.is_ascii()
            && !t.chars().all(|c| c.is_ascii_digit())
            && !QUESTION_WORDS.contains(&t.as_str())
    });
    let cjk = words(text).into_iter().filter(|w| {
        w.chars().all(crate::lang::is_cjk_ideograph) && !QUESTION_PAIRS.contains(&w.as_str())
    });
    let mut out: Vec<String> = Vec::new();
    for token in latin {
        let token = match token.strip_suffix('s') {
            Some(stem) if stem.len() >= 3 => stem.to_string(),
            _ => token,
        };
        if !out.contains(&token) {
            out.push(token);
        }
    }
    out.extend(cjk);
    out
}

/// Pairs of Chinese characters that every kind of question has.
pub(super) const QUESTION_PAIRS: &[&str] = &[
    "多少", "是多", "有多", "几个", "哪些", "为什", "什么", "怎么", "么样",
];

/// Question words the search's stop list keeps (it searches for them in documents).
const QUESTION_WORDS: &[&str] = &[
    "how", "many", "much", "what", "which", "when", "where", "who", "will", "should", "can",
    "like", "there",
];

/// The values the question holds of what a parameter lists (its `enum`, or the codes the tool's
/// text writes, which the question must write in capitals too: "US" is no "us"), one per
/// parameter.
pub(super) fn values(spec: &ToolSpec, question: &str) -> Vec<Evidence> {
    let lower = question.lower();
    let properties = properties(spec);
    let mut out: Vec<Evidence> = Vec::new();
    for (param, schema) in properties {
        let coded = enum_values(schema).next().is_none();
        let value = listed(spec, schema).into_iter().find(|v| {
            let counted = out
                .iter()
                .any(|e| matches!(e, Evidence::Value { value, .. } if value == v));
            let named = match coded {
                true => find_word(question, v).is_some(),
                false => find_word(&lower, &v.lower()).is_some(),
            };
            !counted && v.chars().count() >= 2 && named
        });
        if let Some(value) = value {
            out.push(Evidence::Value {
                param: param.clone(),
                value: value.to_string(),
            });
        }
    }
    out
}

/// The values a parameter lists: its `enum`, or for a string without one, the codes the
/// tool's text writes.
fn listed<'a>(spec: &'a ToolSpec, schema: &'a serde_json::Value) -> Vec<&'a str> {
    let values: Vec<&str> = enum_values(schema).collect();
    let free = schema.get("type").and_then(|t| t.as_str()) == Some("string");
    match values.is_empty() && free {
        true => codes(spec),
        false => values,
    }
}

/// The value a parameter lists that the model cut short or wrote in other words. Cut short:
/// `value` is the start of another listed value that the question names ("miles" for `mi`),
/// and the question names `value` itself nowhere; under a constraint, listed values that share
/// a start (`m`, `mi`) let a small model close the string early: the 0.5B model converted
/// "26.2 miles" as 26.2 `m`. In other words: the glossary's words for one term (RMB and
/// 人民币 for `CNY`, "yen" for `JPY`; the 0.5B model asked for USD/RMB).
pub(super) fn completed_value(
    spec: &ToolSpec,
    param: &str,
    value: &str,
    question: &str,
) -> Option<String> {
    let (_, schema) = properties(spec).find(|(name, _)| name.as_str() == param)?;
    let listed = listed(spec, schema);
    if !listed.contains(&value) {
        let lower = value.trim().lower();
        let same = |l: &&str| l.lower() == lower;
        return (!listed.iter().any(same))
            .then(|| super::glossary::synonyms(&lower))?
            .find_map(|word| listed.iter().find(|l| l.lower() == word))
            .map(|l| l.to_string());
    }
    // Loose: a value the question may name is no value cut short.
    let named: Vec<&str> = named_values(&listed, question, true)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    if named.contains(&value) {
        return None;
    }
    let longer: Vec<&str> = (named.into_iter())
        .filter(|v| v.len() > value.len() && v.lower().starts_with(&value.lower()))
        .collect();
    match longer[..] {
        [one, ..] if longer.iter().all(|v| *v == one) => Some(one.to_string()),
        _ => None,
    }
}

/// The values of `listed` the question names, each with where it first does, in the
/// question's order: a word that is the value or starts with it ("miles" for `mi`; unless
/// `loose`, a value of one letter only as a word of its own: "meters" may name `m`, but
/// "convert" names no `C`), or a Chinese word the glossary gives for it (华氏 is "fahrenheit",
/// `F`). The longest value a word starts with.
fn named_values<'a>(listed: &[&'a str], question: &str, loose: bool) -> Vec<(usize, &'a str)> {
    let lower = question.lower();
    let mut words: Vec<(usize, String, bool)> = (lower.char_indices())
        .filter(|&(at, c)| {
            c.is_ascii_alphanumeric()
                && !lower[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|b| b.is_ascii_alphanumeric())
        })
        .map(|(at, _)| {
            let word: String = lower[at..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            (at, word, false)
        })
        .collect();
    // A Chinese question names a unit in its own words: 英里 is "mile".
    words.extend(
        (super::glossary::glosses(&lower).into_iter())
            .filter(|(_, word)| word.is_ascii())
            .filter_map(|(term, word)| Some((lower.find(term)?, word.to_string(), true))),
    );
    crate::order::sort_by_key(&mut words, |(at, ..)| *at);
    let mut named: Vec<(usize, &str)> = Vec::new();
    for (at, word, glossed) in &words {
        let value = (listed.iter())
            .filter(|v| {
                let v = v.lower();
                *word == v
                    || (word.starts_with(&v) && (loose || *glossed || v.chars().count() >= 2))
            })
            .max_by_key(|v| v.len());
        if let Some(value) = value.filter(|v| !named.iter().any(|(_, n)| n == *v)) {
            named.push((*at, value));
        }
    }
    named
}

/// The codes a tool's text writes in capitals, which its string parameters without a list
/// take: "(USD, EUR, JPY, CNY)" of an exchange rate's `base` and `quote`. Three letters or more:
/// "US" of "in US dollars" is no ticker (it sent "How many US dollars are 250 euros" to the
/// share price).
fn codes(spec: &ToolSpec) -> Vec<&str> {
    let text = (spec
        .parameters
        .get("properties")
        .and_then(|p| p.as_object()))
    .into_iter()
    .flatten()
    .filter_map(|(_, schema)| schema.get("description")?.as_str());
    let mut out: Vec<&str> = Vec::new();
    for text in std::iter::once(spec.description.as_str()).chain(text) {
        let words = text.split(|c: char| !c.is_ascii_alphanumeric());
        for word in words.filter(|w| (3..=5).contains(&w.len())) {
            if word.chars().all(|c| c.is_ascii_uppercase()) && !out.contains(&word) {
                out.push(word);
            }
        }
    }
    out
}

/// Two parameters that list the same values (a converter's `from` and `to`; or two strings
/// that take the codes the tool's text writes, an exchange rate's `base` and `quote`) given
/// one and the same value, where the question names two of them: the 0.5B model wrote `C` for
/// both in "把 100 华氏度换算成摄氏度", and `USD` for both in "1 美元能换多少日元？". The value the question's number comes with ("100 华氏度",
/// "70 kg"), or else the one it names first, goes to the first of the two parameters (in the
/// order `required` lists them), the other to the second. `None` when nothing is to change.
pub(super) fn ordered_pair(
    spec: &ToolSpec,
    args: &serde_json::Map<String, serde_json::Value>,
    question: &str,
) -> Option<[(String, String); 2]> {
    let required: Vec<&str> = (spec.parameters.get("required").and_then(|r| r.as_array()))
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str())
        .collect();
    let mut listed: Vec<(&String, Vec<&str>)> = properties(spec)
        .map(|(name, schema)| (name, listed(spec, schema)))
        .filter(|(_, values)| values.len() >= 2)
        .collect();
    crate::order::sort_by_key(&mut listed, |(name, _)| {
        required
            .iter()
            .position(|r| r == name)
            .unwrap_or(usize::MAX)
    });
    let given = |name: &str| args.get(name).and_then(|v| v.as_str());
    let (first, second, values) = listed.iter().enumerate().find_map(|(i, (a, values))| {
        let (b, _) = listed[i + 1..]
            .iter()
            .find(|(b, other)| other == values && given(b).is_some() && given(b) == given(a))?;
        Some((*a, *b, values))
    })?;
    let [(at_a, a), (at_b, b)] = named_values(values, question, false)[..] else {
        return None;
    };
    let lower = question.lower();
    let with_number = |at: usize| {
        (lower.get(..at))
            .is_some_and(|before| before.trim_end().ends_with(|c: char| c.is_ascii_digit()))
    };
    let (source, target) = match (with_number(at_a), with_number(at_b)) {
        (false, true) => (b, a),
        _ => (a, b),
    };
    Some([
        (first.clone(), source.to_string()),
        (second.clone(), target.to_string()),
    ])
}

/// Whether a tool takes a number as a parameter (a value to convert, an amount).
pub(super) fn takes_number(spec: &ToolSpec) -> bool {
    let properties = properties(spec);
    properties.map(|(_, p)| p).any(|p| {
        matches!(
            p.get("type").and_then(|t| t.as_str()),
            Some("number" | "integer")
        )
    })
}

/// The first parameter a call must give that is a number: what the question has to supply.
pub(super) fn required_number(spec: &ToolSpec) -> Option<&str> {
    let required = spec.parameters.get("required").and_then(|r| r.as_array())?;
    properties(spec)
        .find(|(name, p)| {
            let numeric = matches!(
                p.get("type").and_then(|t| t.as_str()),
                Some("number" | "integer")
            );
            numeric && required.iter().any(|r| r.as_str() == Some(name.as_str()))
        })
        .map(|(name, _)| name.as_str())
}

/// Whether `number` follows `word` in the question, with at most a space, `#` or `:` between
/// them ("order 1042", "order #1042", 订单3310).
pub(super) fn follows(question: &str, word: &str, number: &str) -> bool {
    let lower = question.lower();
    lower.match_indices(number).any(|(at, _)| {
        let before = lower[..at].trim_end_matches([' ', '#', ':', '：', '＃']);
        before.ends_with(word)
            || (word.is_ascii()
                && (before.ends_with(&format!("{word}s"))
                    || before.ends_with(&format!("{word}'s"))))
    })
}
