//! Argument normalisation: turns what a model wrote as Action Input into the JSON object the
//! tool's schema asks for, recording each correction in the call's notes.

use serde_json::{Map, Value};

use super::names::{close_match, fold, unique};
use super::registry::MAX_WRITTEN_NAME_LEN;
use super::{DispatchError, Note, ToolSpec};
use crate::numbers::parse_f64;

/// Keys (folded) that models wrap around the real arguments: `{"input": {...}}`, `{"args": ...}`.
const WRAPPER_KEYS: &[&str] = &[
    "input",
    "args",
    "arguments",
    "parameters",
    "params",
    "kwargs",
    "actioninput",
    "toolinput",
];

/// Other names (folded) that models give to common parameters.
const ALIASES: &[(&str, &[&str])] = &[
    (
        "expression",
        &[
            "expr",
            "exp",
            "formula",
            "input",
            "math",
            "equation",
            "calculation",
        ],
    ),
    (
        "query",
        &[
            "q",
            "input",
            "text",
            "search",
            "keywords",
            "keyword",
            "question",
            "searchquery",
        ],
    ),
];

/// How much of a wrong value an error message quotes.
const QUOTE_CHARS: usize = 60;

/// Normalises `input` for `spec`; see [`super::Registry::dispatch`].
pub(super) fn normalize(
    spec: &ToolSpec,
    input: &Value,
    notes: &mut Vec<Note>,
) -> Result<Value, DispatchError> {
    let params = spec.params();
    let names: Vec<&str> = params.iter().map(|(p, _)| p.as_str()).collect();
    // A schema without "properties" accepts any object: pass it through.
    let declared = spec.parameters.get("properties").is_some();
    let bad = |message: String| DispatchError::BadArguments {
        tool: spec.name.clone(),
        message,
        expected: spec.example_input(),
    };

    let mut value = json_text_as_object(input.clone());
    while let Some(inner) = wrapped(&value, &names).filter(|_| declared).cloned() {
        value = json_text_as_object(inner);
    }
    let given = match value {
        Value::Null => Map::new(),
        Value::Object(map) => map,
        bare if !declared => Map::from_iter([("input".to_string(), bare)]),
        bare => match single_target(&params) {
            // A bare value for a tool that needs none ("today" to the clock, whose `days` is
            // optional) means nothing to it, as for a tool without parameters.
            Some(name) if !fits_optional(spec, name, &bare) => {
                notes.push(Note::InputIgnored {
                    tool: spec.name.clone(),
                });
                Map::new()
            }
            Some(name) => Map::from_iter([(name.to_string(), bare)]),
            None if params.is_empty() => {
                notes.push(Note::InputIgnored {
                    tool: spec.name.clone(),
                });
                Map::new()
            }
            None => {
                return Err(bad(format!(
                    "{} takes several arguments; give them as a JSON object",
                    spec.name
                )))
            }
        },
    };
    if !declared {
        return Ok(Value::Object(given));
    }

    // Exact keys first, so that a fuzzy key never takes a parameter given exactly.
    let (exact, rest): (Vec<_>, Vec<_>) = given
        .into_iter()
        .partition(|(k, _)| names.contains(&k.as_str()));
    let mut args: Map<String, Value> = exact.into_iter().collect();
    let extra_allowed = spec
        .parameters
        .get("additionalProperties")
        .is_some_and(|a| a != &Value::Bool(false));
    for (key, v) in rest {
        let free: Vec<&str> = names
            .iter()
            .copied()
            .filter(|p| !args.contains_key(*p))
            .collect();
        match match_key(&key, &free) {
            Some(p) => {
                notes.push(Note::KeyRenamed {
                    key: key.clone(),
                    param: p.to_string(),
                });
                args.insert(p.to_string(), v);
            }
            None if extra_allowed => {
                args.insert(key, v);
            }
            None => notes.push(Note::ExtraKeyIgnored { key }),
        }
    }

    // A null for a parameter that cannot be null means "not given".
    args.retain(|k, v| !v.is_null() || schema_type(spec.property(k)).1);
    let missing: Vec<String> = params
        .iter()
        .filter(|(p, required)| *required && !args.contains_key(p))
        .map(|(p, _)| p.clone())
        .collect();
    if !missing.is_empty() {
        return Err(DispatchError::MissingArgument {
            tool: spec.name.clone(),
            missing,
            expected: spec.example_input(),
        });
    }
    for (name, v) in args.iter_mut() {
        let Some(ty) = schema_type(spec.property(name)).0 else {
            continue;
        };
        *v = coerce(v, ty).ok_or_else(|| {
            let shown: String = crate::fields::json_text(v)
                .chars()
                .take(QUOTE_CHARS)
                .collect();
            bad(format!(
                "'{name}' should be {}, got {shown}",
                type_phrase(ty)
            ))
        })?;
    }
    Ok(Value::Object(args))
}

/// A string holding a JSON object (`"{\"expression\": \"1+1\"}"`) becomes that object; an empty
/// string means no input.
fn json_text_as_object(v: Value) -> Value {
    let Value::String(s) = &v else { return v };
    let t = s.trim();
    if t.is_empty() {
        return Value::Null;
    }
    if t.starts_with('{') && t.ends_with('}') {
        if let Ok(object @ Value::Object(_)) = serde_json::from_str(t) {
            return object;
        }
    }
    v
}

/// The value inside a one-key wrapper object, unless the tool has a parameter of that name.
fn wrapped<'a>(value: &'a Value, names: &[&str]) -> Option<&'a Value> {
    let map = value.as_object().filter(|m| m.len() == 1)?;
    let (key, inner) = map.iter().next()?;
    let short = key.chars().nth(MAX_WRITTEN_NAME_LEN).is_none();
    let is_wrapper =
        short && WRAPPER_KEYS.contains(&fold(key).as_str()) && !names.contains(&key.as_str());
    is_wrapper.then_some(inner)
}

/// Whether a bare value can be `name`'s: always when `name` is required, else when it has that
/// parameter's type.
fn fits_optional(spec: &ToolSpec, name: &str, bare: &Value) -> bool {
    let required = spec.params().iter().any(|(p, r)| p == name && *r);
    required
        || schema_type(spec.property(name))
            .0
            .is_none_or(|ty| coerce(bare, ty).is_some())
}

/// The parameter a bare value (a string or number, not an object) is meant for: the only
/// parameter, or else the only required one.
fn single_target(params: &[(String, bool)]) -> Option<&str> {
    match params {
        [(only, _)] => Some(only),
        _ => {
            let required: Vec<&str> = params
                .iter()
                .filter(|(_, r)| *r)
                .map(|(p, _)| p.as_str())
                .collect();
            match required[..] {
                [only] => Some(only),
                _ => None,
            }
        }
    }
}

/// The parameter among `free` that `key` most likely means: same name ignoring case and
/// separators, a known alias, a unique prefix either way (`expr_str`, `quer`), or a close spelling.
fn match_key<'a>(key: &str, free: &[&'a str]) -> Option<&'a str> {
    // A key longer than any name it could mean is no parameter: not even worth folding.
    if key.chars().nth(MAX_WRITTEN_NAME_LEN).is_some() {
        return None;
    }
    let k = fold(key);
    let prefix = |p: &str| {
        let p = fold(p);
        let (short, long) = if p.len() < k.len() {
            (&p, &k)
        } else {
            (&k, &p)
        };
        short.len() >= 2 && long.starts_with(short.as_str())
    };
    unique(free, |p| fold(p) == k)
        .or_else(|| {
            unique(free, |p| {
                ALIASES
                    .iter()
                    .any(|(param, aliases)| fold(p) == *param && aliases.contains(&k.as_str()))
            })
        })
        .or_else(|| unique(free, prefix))
        .or_else(|| close_match(key, free))
}

/// A parameter's declared type (the first one other than "null") and whether null is allowed.
fn schema_type(schema: Option<&Value>) -> (Option<&str>, bool) {
    match schema.and_then(|s| s.get("type")) {
        Some(Value::String(t)) => (Some(t.as_str()), t == "null"),
        Some(Value::Array(types)) => {
            let mut names = types.iter().filter_map(Value::as_str);
            let first = names.clone().find(|t| *t != "null");
            (first, names.any(|t| t == "null"))
        }
        _ => (None, false),
    }
}

/// `v` converted to the JSON-schema type `ty` where the intent is clear ("3" for a number,
/// 42 for a string); `None` when it cannot be. Types this does not know pass unchecked.
fn coerce(v: &Value, ty: &str) -> Option<Value> {
    match (ty, v) {
        ("string", Value::String(_))
        | ("number", Value::Number(_))
        | ("boolean", Value::Bool(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => Some(v.clone()),
        ("string", Value::Number(_) | Value::Bool(_)) => {
            Some(Value::String(crate::fields::json_text(v)))
        }
        ("integer", Value::Number(n)) if n.is_i64() || n.is_u64() => Some(v.clone()),
        ("integer", Value::Number(n)) => {
            let f = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15)?;
            Some(Value::from(f as i64))
        }
        ("number" | "integer", Value::String(s)) => {
            let f = parse_f64(s.trim()).filter(|f| f.is_finite())?;
            coerce(&serde_json::Number::from_f64(f)?.into(), ty)
        }
        ("boolean", Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        ("object", Value::String(_)) => {
            Some(json_text_as_object(v.clone())).filter(Value::is_object)
        }
        ("string" | "number" | "integer" | "boolean" | "array" | "object", _) => None,
        _ => Some(v.clone()),
    }
}

fn type_phrase(ty: &str) -> &str {
    match ty {
        "string" => "text",
        "number" => "a number",
        "integer" => "a whole number",
        "boolean" => "true or false",
        "array" => "a list",
        "object" => "an object",
        other => other,
    }
}

/// An example value for one parameter (see [`ToolSpec::example_input`]).
pub(super) fn example_value(name: &str, schema: Option<&Value>) -> Value {
    let given = schema.and_then(|s| {
        s.get("examples")
            .and_then(|e| e.get(0))
            .or_else(|| s.get("example"))
            .or_else(|| s.get("default"))
            .or_else(|| s.get("enum").and_then(|e| e.get(0)))
    });
    if let Some(v) = given {
        return v.clone();
    }
    match schema_type(schema).0 {
        Some("number" | "integer") => Value::from(1),
        Some("boolean") => Value::Bool(true),
        Some("array") => Value::Array(Vec::new()),
        Some("object") => Value::Object(Map::new()),
        _ => Value::String(format!("<{name}>")),
    }
}

/// Checks that a host's `parameters` is an object schema this module can work with.
pub(super) fn check_schema(parameters: &Value) -> Result<(), String> {
    let Some(schema) = parameters.as_object() else {
        return Err(
            "it must be a JSON object like {\"type\": \"object\", \"properties\": {…}}".into(),
        );
    };
    if let Some(ty) = schema.get("type").filter(|t| t.as_str() != Some("object")) {
        return Err(format!(
            "\"type\" must be \"object\", not {}",
            crate::fields::json_text(ty)
        ));
    }
    let properties = match schema.get("properties") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(_) => return Err("\"properties\" must be an object".into()),
    };
    let Some(required) = schema.get("required") else {
        return Ok(());
    };
    let required = required
        .as_array()
        .ok_or("\"required\" must be a list of parameter names")?;
    for r in required {
        let name = r
            .as_str()
            .ok_or("\"required\" must list names as strings")?;
        if properties.is_some_and(|p| !p.contains_key(name)) {
            return Err(format!(
                "required parameter '{name}' is not in \"properties\""
            ));
        }
    }
    Ok(())
}
