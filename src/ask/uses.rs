//! A calculation steered to after a fact was found. The 0.5B model sent the calculator the
//! fact alone (`2024`), or the question's other number alone (`3`), and answered with it; it
//! never wrote `2024 * 3`. Or it ran on to the token limit: `123.45 * 2025 - 1200 * …` from a
//! price's timestamp, `58.40 * 0.20 * 100 / 10000000…`. Steered to the computation, its
//! expression must hold each number the question gives and no call has used yet, as a whole
//! number, and an operator; and every number in it is one the run has seen (the question's,
//! the results') or a short one (three digits, or a digit and two decimals: a percentage, a
//! factor), in at most [`MAX_PIECES`] pieces. The constraint leaves the model only the
//! computation.

use crate::tools::calculator;
use serde_json::{json, Value};

/// Characters that end a number: the expression's characters but digits and the point.
const BOUNDARY: &str = " ,+*/%^()-";
/// Characters that join two values.
const OPERATOR: &str = "+*/%^,-";
/// At most this many numbers are required (their orders multiply the alternatives).
pub const MAX_USES: usize = 2;
/// At most this many pieces (a character, a name, or a number and the character after it)
/// between two required numbers: a computation of a found fact is short.
const MAX_PIECES: usize = 12;

/// A number that may be written: one the run has seen, its decimals with trailing zeros
/// ("58.40" for 58.4), or a short one.
fn regex_number(seen: &[String]) -> String {
    let mut alternatives: Vec<String> = (seen.iter())
        .map(|n| match n.contains('.') {
            true => format!("{}0*", n.replace('.', "[.]")),
            false => n.clone(),
        })
        .collect();
    alternatives.push("[0-9]{1,3}|[0-9]?[.][0-9]{1,2}".into());
    format!("({})", alternatives.join("|"))
}

fn gbnf_number(seen: &[String]) -> String {
    let mut alternatives: Vec<String> = (seen.iter())
        .map(|n| match n.contains('.') {
            true => format!("\"{n}\" \"0\"*"),
            false => format!("\"{n}\""),
        })
        .collect();
    alternatives.push("[0-9] ([0-9] [0-9]?)? | [0-9]? \".\" [0-9] [0-9]?".into());
    alternatives.join(" | ")
}

/// The pieces of an expression, as a pattern or as GBNF.
struct Pieces {
    /// Any run of pieces, each a character, a name or a number written as allowed.
    any: String,
    boundary: String,
    operator: String,
    literal: fn(&str) -> String,
    /// What goes between two pieces: nothing in a pattern, a space in GBNF.
    join: &'static str,
}

impl Pieces {
    fn regex(seen: &[String]) -> Pieces {
        let names = calculator::names().join("|");
        let piece = format!("([{BOUNDARY}]|{names}|{}[{BOUNDARY}])", regex_number(seen));
        Pieces {
            any: format!("{piece}{{0,{MAX_PIECES}}}{}?", regex_number(seen)),
            boundary: format!("[{BOUNDARY}]"),
            operator: format!("[{OPERATOR}]"),
            literal: |n| n.replace('.', "[.]"),
            join: "",
        }
    }

    fn gbnf() -> Pieces {
        Pieces {
            any: "xa".into(),
            boundary: "xb".into(),
            operator: "xo".into(),
            literal: |n| format!("\"{n}\""),
            join: " ",
        }
    }

    /// The text before the first number, between two, or after the last; `joins` when it
    /// holds the operator. Each starts and ends on a boundary where it meets a number.
    fn gap(&self, at: usize, of: usize, joins: bool) -> String {
        let Pieces {
            any: x,
            boundary: b,
            operator: o,
            join: j,
            ..
        } = self;
        match (at, at == of, joins) {
            (0, _, false) => format!("({x}{j}{b})?"),
            (0, _, true) => format!("{x}{j}{o}{j}({x}{j}{b})?"),
            (_, true, false) => format!("({b}{j}{x})?"),
            (_, true, true) => format!("({b}{j}{x})?{j}{o}{j}{x}"),
            (_, false, false) => format!("{b}{j}({x}{j}{b})?"),
            (_, false, true) => format!("({b}{j}{x})?{j}{o}{j}({x}{j}{b})?"),
        }
    }

    /// Every order of the numbers, with the operator in any one gap.
    fn alternatives(&self, numbers: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        for order in orders(numbers) {
            for joins in 0..=order.len() {
                let mut parts = vec![self.gap(0, order.len(), joins == 0)];
                for (i, n) in order.iter().enumerate() {
                    parts.push((self.literal)(n));
                    parts.push(self.gap(i + 1, order.len(), joins == i + 1));
                }
                out.push(parts.join(self.join));
            }
        }
        out
    }
}

fn orders(numbers: &[String]) -> Vec<Vec<&String>> {
    match numbers {
        [] => vec![Vec::new()],
        [a] => vec![vec![a]],
        [a, b, ..] => vec![vec![a, b], vec![b, a]],
    }
}

/// The pattern of an expression that uses `numbers` (at most [`MAX_USES`]) and an operator,
/// with no number but those `seen` and short ones.
pub fn pattern(numbers: &[String], seen: &[String]) -> String {
    let pieces = Pieces::regex(seen);
    let alternatives = match numbers {
        [] => vec![pieces.any.clone()],
        _ => pieces.alternatives(&numbers[..numbers.len().min(MAX_USES)]),
    };
    format!("^({})$", alternatives.join("|"))
}

/// The GBNF rules of `exprstr`, the same expression as [`pattern`], quotes included.
pub fn gbnf_rules(numbers: &[String], seen: &[String]) -> String {
    let pieces = Pieces::gbnf();
    let alternatives = match numbers {
        [] => vec![pieces.any.clone()],
        _ => pieces.alternatives(&numbers[..numbers.len().min(MAX_USES)]),
    };
    let names: Vec<String> = calculator::names()
        .into_iter()
        .map(|n| format!("\"{n}\""))
        .collect();
    // Nested, not `{0,N}`: every llama.cpp a page may meet reads it.
    let mut run = String::new();
    for _ in 0..MAX_PIECES {
        run = format!("(xp {run})?");
    }
    format!(
        "exprstr ::= \"\\\"\" ( {} ) \"\\\"\"\nxa ::= {run} xn?\nxp ::= xc | xn xb\nxc ::= xb | {}\nxn ::= {}\nxb ::= [{BOUNDARY}]\nxo ::= [{OPERATOR}]",
        alternatives.join(" | "),
        names.join(" | "),
        gbnf_number(seen),
    )
}

/// A step's schema with the calculator's `expression` required to use `numbers` and no
/// number but those `seen` and short ones.
pub fn into_schema(schema: &mut Value, tool: &str, numbers: &[String], seen: &[String]) {
    let branches = match schema.get_mut("anyOf").and_then(Value::as_array_mut) {
        Some(branches) => branches.iter_mut().collect(),
        None => vec![schema],
    };
    for branch in branches {
        if branch.pointer("/properties/action/const") != Some(&json!(tool)) {
            continue;
        }
        if let Some(Value::Object(expression)) =
            branch.pointer_mut("/properties/action_input/properties/expression")
        {
            expression.insert("pattern".into(), json!(pattern(numbers, seen)));
        }
    }
}

/// A step's grammar with the calculator's `expression` as in [`into_schema`].
pub fn into_grammar(grammar: &str, numbers: &[String], seen: &[String]) -> String {
    grammar
        .lines()
        .map(|line| match line.starts_with("exprstr ::=") {
            true => gbnf_rules(numbers, seen),
            false => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
