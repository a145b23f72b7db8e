//! The values a trace's named fields take (a guard's `type`, why a request must be answered,
//! …) are listed in docs/trace-format.md's "Values" section, written here from the core: each
//! enum's variants in the order declared, with the English sentence or title a reader sees
//! for it where one needs no other field. A new variant is documented by running
//! `UPDATE_GOLDEN=1 cargo test --test trace_values` (and reviewing the diff), not by hand: the
//! test fails on a section that differs from what the core says. The paths each list names
//! are checked against an exported trace: a field renamed or moved fails too.

mod common;

use common::{full_trace, ORIGIN};
use reactloop::ask::{Avoid, AvoidWhy, MustAnswer, Steer, SteerWhy, Unsteered};
use reactloop::llm::{Constrained, LlmError, ServerKind};
use reactloop::sentences::{self, titles};
use reactloop::strategy::{Compress, Strategy};
use reactloop::tools::{Evidence, Role};
use reactloop::trace::{Guard, ObservationSource, Outcome};
use reactloop::view;
use serde_json::Value;

const DOC: &str = "docs/trace-format.md";
const BEGIN: &str = "<!-- values: written by `UPDATE_GOLDEN=1 cargo test --test trace_values` -->";
const END: &str = "<!-- end of values -->";

/// Where a sentence names the tool it is about.
const TOOL: &str = "the tool";

/// One field's values: where it is (its paths in a trace, `[]` for each item of a list),
/// and each value with what it means (if said without another field).
struct Field {
    paths: &'static [&'static str],
    values: Vec<(String, Option<String>)>,
}

fn named(names: impl IntoIterator<Item = String>) -> Vec<(String, Option<String>)> {
    names.into_iter().map(|name| (name, None)).collect()
}

fn meant(pairs: impl IntoIterator<Item = (String, String)>) -> Vec<(String, Option<String>)> {
    (pairs.into_iter())
        .map(|(name, meaning)| (name, Some(meaning)))
        .collect()
}

/// `text` with its first letter upper case: a sentence may begin with [`TOOL`].
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    (chars.next())
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn fields() -> Vec<Field> {
    let titles = titles().en;
    let title = |key: String| titles.get(&key).map(|t| t.to_string());
    let titled = |prefix: &str, names: &[String]| -> Vec<(String, Option<String>)> {
        (names.iter().cloned())
            .map(|name| {
                let meaning = title(format!("{prefix}.{name}"));
                (name, meaning)
            })
            .collect()
    };
    let tags = |all: &[&str]| all.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    vec![
        Field {
            paths: &[
                "config.constrained",
                "steps[].request.constrained",
                "server.constrained",
            ],
            values: titled("constrained", &Constrained::ALL.map(|c| c.label())),
        },
        Field {
            paths: &["config.strategy"],
            values: titled("strategy", &Strategy::ALL.map(|s| s.label())),
        },
        Field {
            paths: &["config.compress"],
            values: titled("limits.compress", &Compress::ALL.map(|c| c.label())),
        },
        Field {
            paths: &["server.kind"],
            values: named(ServerKind::ALL.map(|k| k.label())),
        },
        Field {
            paths: &["tools[].role", "steps[].request.fits[].role"],
            values: named(Role::ALL.map(|r| r.label())),
        },
        Field {
            paths: &["steps[].request.avoid.why"],
            values: meant(AvoidWhy::ALL.map(|why| {
                let avoid = Avoid {
                    tool: TOOL.to_string(),
                    why,
                };
                (why.label(), capitalised(&sentences::avoid(&avoid).en))
            })),
        },
        Field {
            paths: &["steps[].request.must_answer"],
            values: meant(MustAnswer::ALL.map(|why| (why.label(), sentences::must_answer(why).en))),
        },
        Field {
            paths: &["steps[].request.steer.why"],
            values: meant(SteerWhy::ALL.map(|why| {
                let steer = Steer {
                    tool: TOOL.to_string(),
                    why,
                    uses: Box::default(),
                    seen: Box::default(),
                    args: None,
                };
                (why.label(), capitalised(&sentences::steer(&steer).en))
            })),
        },
        Field {
            paths: &["steps[].request.unsteered.why"],
            values: named(tags(Unsteered::TAGS)),
        },
        Field {
            paths: &["steps[].request.fits[].evidence[].kind"],
            values: named(tags(Evidence::TAGS)),
        },
        Field {
            paths: &["steps[].observation.source"],
            values: titled("source", &ObservationSource::ALL.map(|s| s.label())),
        },
        Field {
            paths: &["steps[].guards[].type"],
            values: titled("guard", &tags(Guard::TAGS)),
        },
        Field {
            paths: &["steps[].error.type", "outcome.error.type"],
            values: named(tags(LlmError::TAGS)),
        },
        Field {
            paths: &["outcome.type"],
            values: titled("outcome", &tags(Outcome::TAGS)),
        },
    ]
}

/// The section as the core writes it, markers included.
fn section() -> String {
    let mut out = format!("{BEGIN}\n");
    for field in fields() {
        let paths: Vec<String> = field.paths.iter().map(|p| format!("`{p}`")).collect();
        out.push_str(&format!("\n{}:\n\n", paths.join(", ")));
        for (value, meaning) in field.values {
            match meaning {
                Some(meaning) => out.push_str(&format!("- `{value}`: {meaning}\n")),
                None => out.push_str(&format!("- `{value}`\n")),
            }
        }
    }
    out.push_str(&format!("\n{END}"));
    out
}

#[test]
fn the_trace_format_lists_every_value_the_core_writes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC);
    let doc = std::fs::read_to_string(&path).expect("docs/trace-format.md");
    let (Some(begin), Some(end)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("{DOC} has no values section: a line `{BEGIN}` and, after it, `{END}`");
    };
    assert!(begin < end, "{DOC}: `{END}` comes before `{BEGIN}`");
    let written = &doc[begin..end + END.len()];
    let wanted = section();
    if written == wanted {
        return;
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let updated = format!("{}{wanted}{}", &doc[..begin], &doc[end + END.len()..]);
        std::fs::write(&path, updated).expect("write docs/trace-format.md");
        return;
    }
    let first = (written.lines().zip(wanted.lines()))
        .find(|(w, c)| w != c)
        .map(|(w, c)| format!("\n  written: {w}\n  the core: {c}"))
        .unwrap_or_else(|| "\n  (one ends before the other)".to_string());
    panic!("{DOC}'s values differ from the core's; run `UPDATE_GOLDEN=1 cargo test --test trace_values` and review the diff. First difference:{first}");
}

/// What a trace holds at `path` (`a.b[].c`: every item of the list `b`).
fn at<'a>(value: &'a Value, path: &str) -> Vec<&'a Value> {
    let mut here = vec![value];
    for key in path.split('.') {
        let (key, list) = key.strip_suffix("[]").map_or((key, false), |k| (k, true));
        here = (here.into_iter())
            .filter_map(|v| v.get(key))
            .flat_map(|v| match (list, v) {
                (true, Value::Array(items)) => items.iter().collect(),
                (true, _) => vec![],
                (false, v) => vec![v],
            })
            .collect();
    }
    here
}

/// Each field's paths are where a trace writes it: in a trace with every field set (and its
/// run ended by a model error, for the outcome's), each path holds a value, one of those
/// listed.
#[test]
fn each_listed_field_is_where_a_trace_writes_it() {
    let full = full_trace();
    let mut failed = full.clone();
    let error = (full.steps.iter())
        .find_map(|s| s.error.clone())
        .expect("the full trace's step has a model error");
    failed.outcome = Some(Outcome::ModelError { error });
    let traces: Vec<Value> = [full, failed]
        .iter()
        .map(|t| view::trace(t, ORIGIN).expect("a trace in view form"))
        .collect();
    for field in fields() {
        let listed: Vec<&str> = field.values.iter().map(|(v, _)| v.as_str()).collect();
        for path in field.paths {
            let found: Vec<&Value> = traces.iter().flat_map(|t| at(t, path)).collect();
            assert!(!found.is_empty(), "no trace writes {path}");
            for value in found {
                let name = value.as_str().unwrap_or_default();
                assert!(
                    listed.contains(&name),
                    "{path} is {value}, not one of {listed:?}"
                );
            }
        }
    }
}
