//! Every kind a page names has its title from the core, in English and Chinese: each variant
//! serde knows of a guard, an outcome, a strategy, a constraint, a way of keeping older rounds,
//! an observation's source and a message's role. A variant added without a title fails here,
//! and so does a page list (www/index.html's selects) that drifts from the core's, or a page
//! table (www/i18n.js) that keeps a title of its own beside the core's.

mod common;

use common::variants;
use std::fs;
use std::path::Path;

use reactloop::lang::is_cjk_ideograph;
use reactloop::llm::{Constrained, Role};
use reactloop::sentences::titles;
use reactloop::strategy::{Compress, Strategy};
use reactloop::trace::{Guard, ObservationSource, Outcome};
use serde_json::json;

const UNKNOWN: &str = "no such variant";

/// Names that read the same in both languages.
const NAMES: &[&str] = &["ReAct", "JSON schema"];

#[test]
fn every_variant_has_a_title_in_both_languages() {
    let tagged = || json!({ "type": UNKNOWN });
    let kinds: [(&str, Vec<String>); 9] = [
        ("guard", variants::<Guard>(tagged())),
        ("outcome", variants::<Outcome>(tagged())),
        ("strategy", variants::<Strategy>(json!(UNKNOWN))),
        ("compare.strategy", variants::<Strategy>(json!(UNKNOWN))),
        ("constrained", variants::<Constrained>(json!(UNKNOWN))),
        (
            "compare.constrained",
            variants::<Constrained>(json!(UNKNOWN)),
        ),
        ("limits.compress", variants::<Compress>(json!(UNKNOWN))),
        ("source", variants::<ObservationSource>(json!(UNKNOWN))),
        ("role", variants::<Role>(json!(UNKNOWN))),
    ];
    let titles = titles();
    // The reader of serde's refusal read them all (a new guard needs no line here).
    assert!(kinds[0].1.len() >= 14, "the guard kinds: {:?}", kinds[0].1);
    let mut missing = Vec::new();
    for (group, names) in &kinds {
        assert!(!names.is_empty(), "{group}: no variants read");
        for name in names {
            let key = format!("{group}.{name}");
            match (titles.en.get(&key), titles.zh.get(&key)) {
                (Some(en), Some(zh)) if !en.trim().is_empty() => {
                    let chinese =
                        zh.chars().any(is_cjk_ideograph) || (en == zh && NAMES.contains(zh));
                    assert!(chinese, "{key}: the Chinese title {zh:?} is not Chinese");
                }
                _ => missing.push(key),
            }
        }
    }
    assert!(missing.is_empty(), "no title for: {missing:?}");
    // Nothing else: a title for a variant that is gone would be dead.
    let count: usize = kinds.iter().map(|(_, names)| names.len()).sum();
    assert_eq!(titles.en.len(), count, "{:?}", titles.en.keys());
}

#[test]
fn the_lists_of_choices_are_every_variant_in_order() {
    let titles = titles();
    assert_eq!(titles.strategy, variants::<Strategy>(json!(UNKNOWN)));
    assert_eq!(titles.constrained, variants::<Constrained>(json!(UNKNOWN)));
    assert_eq!(titles.compress, variants::<Compress>(json!(UNKNOWN)));
}

fn www(file: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("www").join(file))
        .expect("a page file")
}

/// The option values of `<select id="{id}">` in the page's markup.
fn options(html: &str, id: &str) -> Vec<String> {
    let start = html
        .find(&format!("<select id=\"{id}\""))
        .unwrap_or_else(|| panic!("no select #{id}"));
    let body = &html[start..];
    let body = &body[..body.find("</select>").expect("its end")];
    body.split("<option value=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

#[test]
fn the_page_offers_the_cores_choices() {
    let html = www("index.html");
    let titles = titles();
    assert_eq!(options(&html, "strategy"), titles.strategy);
    assert_eq!(options(&html, "constrained"), titles.constrained);
    assert_eq!(options(&html, "compress"), titles.compress);
}

#[test]
fn the_page_keeps_no_title_of_its_own() {
    let i18n = www("i18n.js");
    let titles = titles();
    let copies: Vec<&String> = titles
        .en
        .keys()
        .filter(|key| i18n.contains(&format!("'{key}'")))
        .collect();
    assert!(
        copies.is_empty(),
        "www/i18n.js repeats the core's titles: {copies:?}"
    );
}
