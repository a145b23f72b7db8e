//! A calculation that must use given numbers. After a fact was found (a year, a count), the
//! 0.5B model sent the calculator the fact alone (`2024`), or the question's other number alone
//! (`3`), and answered with it; it never wrote `2024 * 3`. Steered to the computation, its
//! expression must hold each number the question gives and no call has used yet, as a whole
//! number, and an operator: the constraint leaves the model only the computation.

use super::constrain::EXPRESSION_CHARS;
use crate::tools::calculator;
use serde_json::{json, Value};

/// Characters that end a number: the expression's characters but digits and the point.
const BOUNDARY: &str = " ,+*/%^()-";
/// Characters that join two values.
const OPERATOR: &str = "+*/%^,-";
/// At most this many numbers are required (their orders multiply the alternatives).
pub const MAX_USES: usize = 2;

/// The pieces of an expression, as a pattern or as GBNF.
struct Pieces {
    /// Any run of expression characters and names.
    any: String,
    boundary: String,
    operator: String,
    literal: fn(&str) -> String,
    /// What goes between two pieces: nothing in a pattern, a space in GBNF.
    join: &'static str,
}

impl Pieces {
    fn regex() -> Pieces {
        let names = calculator::names().join("|");
        Pieces {
            any: format!("([{EXPRESSION_CHARS}]|{names})*"),
            boundary: format!("[{BOUNDARY}]"),
            operator: format!("[{OPERATOR}]"),
            literal: |n| n.replace('.', "[.]"),
            join: "",
        }
    }

    fn gbnf() -> Pieces {
        Pieces {
            any: "xi*".into(),
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

/// The pattern of an expression that uses `numbers` (at most [`MAX_USES`]) and an operator.
pub fn pattern(numbers: &[String]) -> String {
    let alternatives = Pieces::regex().alternatives(&numbers[..numbers.len().min(MAX_USES)]);
    format!("^({})$", alternatives.join("|"))
}

/// The GBNF rules of `exprstr`, the same expression as [`pattern`], quotes included.
pub fn gbnf_rules(numbers: &[String]) -> String {
    let alternatives = Pieces::gbnf().alternatives(&numbers[..numbers.len().min(MAX_USES)]);
    let names: Vec<String> = calculator::names()
        .into_iter()
        .map(|n| format!("\"{n}\""))
        .collect();
    format!(
        "exprstr ::= \"\\\"\" ( {} ) \"\\\"\"\nxi ::= [{EXPRESSION_CHARS}] | {}\nxb ::= [{BOUNDARY}]\nxo ::= [{OPERATOR}]",
        alternatives.join(" | "),
        names.join(" | ")
    )
}

/// A step's schema with the calculator's `expression` required to use `numbers`.
pub fn into_schema(schema: &mut Value, tool: &str, numbers: &[String]) {
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
            expression.insert("pattern".into(), json!(pattern(numbers)));
        }
    }
}

/// A step's grammar with the calculator's `expression` required to use `numbers`.
pub fn into_grammar(grammar: &str, numbers: &[String]) -> String {
    grammar
        .lines()
        .map(|line| match line.starts_with("exprstr ::=") {
            true => gbnf_rules(numbers),
            false => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
