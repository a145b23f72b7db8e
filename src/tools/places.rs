//! Places a question names, read with a gazetteer of countries and large cities in English
//! and Chinese (`places.txt`), for a tool whose parameter is a city, a country or a place: a
//! place the question names is evidence for that tool ("开罗今天多少度？" asks a weather tool, not
//! the clock), and the place a call gives it is the question's ("冰岛" was looked up as 中国;
//! Oslo was looked up again while the question also named Cairo), written as the tool writes
//! places (Cairo for a tool declared in English).

use super::declared::{params_text, properties};
use super::{Evidence, ToolSpec};
use crate::lang::is_cjk_ideograph;
use crate::lower::Lower;

const GAZETTEER: &str = include_str!("places.txt");

/// A place of the gazetteer: its line, `kind|English names|Chinese names`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place(&'static str);

impl Place {
    fn field(&self, i: usize) -> &'static str {
        self.0.split('|').nth(i).unwrap_or("")
    }

    /// What a parameter that wants `wants` may be given.
    fn fits(&self, wants: Wants) -> bool {
        match (wants, self.field(0)) {
            (Wants::Any, _) | (_, "b") => true,
            (Wants::City, kind) => kind == "c",
            (Wants::Country, kind) => kind == "n",
        }
    }

    /// The name a tool declared in English is given.
    fn english(&self) -> &'static str {
        let first = self.field(1).split('/').next().unwrap_or("");
        first.trim_start_matches('=')
    }

    /// Its names, each with whether it matches only as written.
    fn names(&self) -> impl Iterator<Item = (&'static str, bool)> {
        (self.field(1).split('/').chain(self.field(2).split('/')))
            .filter(|n| !n.is_empty())
            .map(|n| match n.strip_prefix('=') {
                Some(exact) => (exact, true),
                None => (n, false),
            })
    }
}

fn gazetteer() -> impl Iterator<Item = Place> {
    super::data_lines(GAZETTEER).map(Place)
}

/// The places `text` names, in its order, each once, with the words it writes them in: the
/// longest name at any place (New York City, not York; 索马里, not 马里).
fn named(text: &str) -> Vec<(&str, Place)> {
    // ASCII case only, so that offsets stay those of `text`.
    let lower = text.to_ascii_lowercase();
    let mut found: Vec<(usize, usize, Place)> = Vec::new();
    for place in gazetteer() {
        for (name, exact) in place.names() {
            let (haystack, needle) = match exact || !name.is_ascii() {
                true => (text, name.to_string()),
                false => (lower.as_str(), name.to_ascii_lowercase()),
            };
            let cjk = name.chars().any(is_cjk_ideograph);
            // Every place it is written: the first may be inside a longer name.
            let at = (haystack.match_indices(needle.as_str()))
                .map(|(at, _)| at)
                .filter(|&at| cjk || bounded(text, at, needle.len()));
            found.extend(at.map(|at| (at, needle.len(), place)));
        }
    }
    crate::order::sort_by_key(&mut found, |&(at, len, _)| (std::cmp::Reverse(len), at));
    let mut kept: Vec<(usize, usize, Place)> = Vec::new();
    for (at, len, place) in found {
        let overlaps = kept.iter().any(|&(a, l, _)| at < a + l && a < at + len);
        if !overlaps && !kept.iter().any(|&(.., p)| p == place) {
            kept.push((at, len, place));
        }
    }
    crate::order::sort_by_key(&mut kept, |&(at, ..)| at);
    kept.into_iter()
        .map(|(at, len, place)| (&text[at..at + len], place))
        .collect()
}

/// Whether a Latin name at `at` stands as words of its own: "Oslo" in "在Oslo的", not "Iran"
/// in "Irani".
fn bounded(text: &str, at: usize, len: usize) -> bool {
    let letter = |c: char| c.is_alphanumeric() && !is_cjk_ideograph(c);
    !text[..at].chars().next_back().is_some_and(letter)
        && !text[at + len..].chars().next().is_some_and(letter)
}

/// What places a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wants {
    City,
    Country,
    Any,
}

/// What places a parameter takes, from its name, or else its description: `city`, `country`,
/// `location` ("The city, e.g. Paris"; 城市).
fn wants(name: &str, schema: &serde_json::Value) -> Option<Wants> {
    let description = schema.get("description").and_then(|d| d.as_str());
    let read = |text: &str| {
        let text = text.lower();
        let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
        let city = has(&["city", "town", "城市"]);
        let country = has(&["country", "nation", "国家"]);
        let any = has(&[
            "location",
            "place",
            "region",
            "destination",
            "地点",
            "地方",
            "位置",
        ]);
        match (city, country) {
            (true, false) => Some(Wants::City),
            (false, true) => Some(Wants::Country),
            (true, true) => Some(Wants::Any),
            (false, false) => any.then_some(Wants::Any),
        }
    };
    read(&name.replace('_', " ")).or_else(|| description.and_then(read))
}

/// A tool's parameters that take places, with what they take.
fn place_params(spec: &ToolSpec) -> impl Iterator<Item = (&String, Wants)> {
    properties(spec).filter_map(|(name, schema)| Some((name, wants(name, schema)?)))
}

/// A place the question names for each parameter of the tool that takes one.
pub(super) fn evidence(spec: &ToolSpec, question: &str) -> Vec<Evidence> {
    let places = named(question);
    place_params(spec)
        .filter_map(|(param, wants)| {
            let (written, _) = places.iter().find(|(_, p)| p.fits(wants))?;
            Some(Evidence::Place {
                param: param.clone(),
                place: written.to_string(),
            })
        })
        .collect()
}

/// The place `param` of `spec` should be given instead of `value`, `None` to keep it. The
/// question names places for the parameter; `looked_up` are the values earlier calls of the
/// tool gave it and got a result for; `reasoned`: the reply or an earlier Observation writes
/// `value` besides the call (a place a model worked out, "the capital of Norway": Oslo).
/// - `value` names a place of the question that was looked up: the first one that was not.
/// - `value` names none of them, unreasoned: the first one not looked up.
/// - `value` names one in Chinese for a tool declared in English: its English name.
pub(super) fn question_place(
    spec: &ToolSpec,
    param: &str,
    value: &str,
    question: &str,
    looked_up: &[&str],
    reasoned: bool,
) -> Option<String> {
    let (_, wants) = place_params(spec).find(|(name, _)| name.as_str() == param)?;
    let places: Vec<(&str, Place)> = (named(question).into_iter())
        .filter(|(_, p)| p.fits(wants))
        .collect();
    let english = !format!("{} {}", spec.description, params_text(spec))
        .chars()
        .any(is_cjk_ideograph);
    let written = |(written, place): &(&str, Place)| match english {
        true => place.english().to_string(),
        false => written.to_string(),
    };
    let done = |place: Place| (looked_up.iter()).any(|v| named(v).iter().any(|&(_, p)| p == place));
    let next = places.iter().find(|(_, p)| !done(*p));
    let given = named(value);
    match places
        .iter()
        .find(|(_, p)| given.iter().any(|(_, g)| g == p))
    {
        Some((_, place)) if done(*place) => next.map(written),
        Some(named) => (english && !value.is_ascii()).then(|| written(named)),
        None if reasoned && !value.trim().is_empty() => None,
        None => next.map(written),
    }
}

/// The places `text` names, as it writes them.
pub fn places(text: &str) -> Vec<&str> {
    named(text)
        .into_iter()
        .map(|(written, _)| written)
        .collect()
}

/// Whether `text` names the place `name` names, in any language or form: "Cairo" and 开罗.
pub fn names_place(text: &str, name: &str) -> bool {
    let [(_, place)] = named(name)[..] else {
        return false;
    };
    named(text).iter().any(|&(_, p)| p == place)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_a_question_names() {
        let cases: &[(&str, &[&str])] = &[
            ("开罗的气温比奥斯陆高多少度？", &["开罗", "奥斯陆"]),
            ("What is the weather in new york city?", &["new york city"]),
            ("索马里和马里", &["索马里", "马里"]),
            ("冰岛人口的两倍是多少？", &["冰岛"]),
            ("在Oslo的天气", &["Oslo"]),
            // A name written as a common word counts only as written.
            ("Tell us about turkey and chad", &[]),
            ("Is Turkey bigger than the US?", &["Turkey", "US"]),
            ("The Iranian and Parisian press", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(places(text), *want, "{text}");
        }
        assert!(names_place("Cairo, Egypt", "开罗"));
        assert!(!names_place("Oslo", "开罗"));
    }

    #[test]
    fn every_line_of_the_gazetteer_is_read() {
        for place in gazetteer() {
            assert!(matches!(place.field(0), "c" | "n" | "b"), "{}", place.0);
            assert!(!place.english().is_empty(), "{}", place.0);
            let all: Vec<_> = place.names().collect();
            assert!(
                all.iter()
                    .all(|(n, _)| n.trim() == *n && named(n).first().map(|x| x.1) == Some(place)),
                "{}",
                place.0
            );
        }
    }
}
