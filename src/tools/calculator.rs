//! The `calculator` tool: a small arithmetic language with its own tokenizer and a
//! recursive-descent evaluator. It never evaluates code; only the grammar below is understood.
//!
//! ```text
//! expr    := term (('+' | '-') term)*
//! term    := unary (('*' | '/' | '%') unary)*
//! unary   := ('-' | '+') unary | power
//! power   := primary (('^' | '**') unary)?        right-associative: 2^3^2 = 2^9
//! primary := number | constant | function '(' expr (',' expr)* ')' | '(' expr ')'
//! ```
//!
//! Conventions (chosen to match the usual mathematical reading and Python):
//! - `-2^2` is `-(2^2)` = -4: unary minus binds looser than power; `2^-1` = 0.5 is allowed.
//! - `%` is the remainder, its sign follows the dividend (as in JavaScript): `-7 % 3` = -1;
//!   a `%` with no operand after it is a percent sign: `17.5% * 2480` = 434, `200 * 15%` = 30.
//! - `log(x)` is base 10 (as on pocket calculators), `log(x, b)` is base b, `ln(x)` natural.
//! - Trigonometric functions use radians. `round(x, n)` rounds half away from zero to n decimals.
//! - Thousands separators such as `1,234,567.5` are accepted where no function argument list
//!   could be meant: strictly groups of three digits, no spaces, outside a function's parentheses
//!   (`max(1,234)` is max of 1 and 234).
//! - No implicit multiplication: write `2 * pi`, not `2pi`.
//! - Also accepted: `×`, `÷`, `−` (Unicode minus), `π`, a `math.` prefix (`math.sqrt(2)`, as
//!   models often write Python), case-insensitive names, and one trailing `=`.
//! - Positions in error messages count characters from 1.

use crate::fields::tagged;
use serde::Serialize;
use serde_json::json;
use std::f64::consts::{E, PI};
use std::fmt;

use super::ToolSpec;

/// Longest accepted input, in characters.
pub const MAX_LEN: usize = 500;
/// Deepest accepted nesting (parentheses, unary signs and exponents all count), so that no input
/// can exhaust the stack, which is small in wasm.
pub const MAX_DEPTH: usize = 64;
/// `round(x, n)` accepts |n| up to this; beyond it f64 has no digits left to round.
const MAX_ROUND_DIGITS: f64 = 15.0;

tagged! {
    /// Why an expression could not be evaluated. Messages are written for the model and for a
    /// workshop attendee reading the trace.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum CalcError in "kind" {
        Empty = "empty",
        TooLong {
            len: usize,
            max: usize,
        } = "too_long",
        TooDeep {
            max: usize,
        } = "too_deep",
        UnexpectedChar {
            ch: char,
            pos: usize,
        } = "unexpected_char",
        UnexpectedToken {
            token: String,
            pos: usize,
        } = "unexpected_token",
        UnexpectedEnd = "unexpected_end",
        UnclosedParen {
            pos: usize,
        } = "unclosed_paren",
        UnexpectedCloseParen {
            pos: usize,
        } = "unexpected_close_paren",
        UnknownName {
            name: String,
            pos: usize,
        } = "unknown_name",
        MissingParens {
            name: String,
        } = "missing_parens",
        /// `pi(3)`: a constant written like a function, meaning a product.
        ConstantCalled {
            name: String,
            pos: usize,
        } = "constant_called",
        WrongArgCount {
            function: String,
            expected: String,
            got: usize,
        } = "wrong_arg_count",
        DivisionByZero = "division_by_zero",
        Overflow = "overflow",
        InvalidArgument {
            function: String,
            reason: String,
        } = "invalid_argument",
    }
}

impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CalcError::Empty => write!(f, "the expression is empty"),
            CalcError::TooLong { len, max } => write!(
                f,
                "the expression is too long ({len} characters; the limit is {max})"
            ),
            CalcError::TooDeep { max } => write!(
                f,
                "the expression is nested too deeply (more than {max} levels)"
            ),
            CalcError::UnexpectedChar { ch, pos } => {
                write!(f, "unexpected character '{ch}' at position {pos}")
            }
            CalcError::UnexpectedToken { token, pos } => {
                write!(f, "unexpected '{token}' at position {pos}")
            }
            CalcError::UnexpectedEnd => write!(f, "the expression ends too early"),
            CalcError::UnclosedParen { pos } => write!(
                f,
                "unbalanced parenthesis: the '(' at position {pos} is never closed"
            ),
            CalcError::UnexpectedCloseParen { pos } => write!(
                f,
                "unbalanced parenthesis: the ')' at position {pos} has no matching '('"
            ),
            // No list of every function: the 0.5B model searched the documents for each name
            // of it in turn after writing `year()`.
            CalcError::UnknownName { name, pos } => match self.near_name() {
                Some(near) => write!(
                    f,
                    "unknown name '{name}' at position {pos}; did you mean {near}?"
                ),
                None => write!(
                    f,
                    "unknown name '{name}' at position {pos}; the calculator knows numbers, \
                     arithmetic and math functions such as sqrt and round, nothing else"
                ),
            },
            CalcError::MissingParens { name } => write!(
                f,
                "'{name}' is a function and needs parentheses, e.g. {name}(2)"
            ),
            CalcError::ConstantCalled { name, pos } => write!(
                f,
                "'{name}' at position {pos} is a number, not a function; multiply: {name} * (…)"
            ),
            CalcError::WrongArgCount {
                function,
                expected,
                got,
            } => write!(f, "{function}() takes {expected} argument(s), got {got}"),
            CalcError::DivisionByZero => write!(f, "division by zero"),
            CalcError::Overflow => write!(f, "the result is too large to represent"),
            CalcError::InvalidArgument { function, reason } => write!(f, "{function}: {reason}"),
        }
    }
}

impl std::error::Error for CalcError {}

impl CalcError {
    /// The message and the hint in Chinese, for a run whose prompt is Chinese.
    pub fn zh(&self) -> (String, &'static str) {
        let message = match self {
            CalcError::Empty => "表达式为空".to_string(),
            CalcError::TooLong { len, max } => format!("表达式太长（{len} 个字符，上限 {max}）"),
            CalcError::TooDeep { max } => format!("表达式嵌套太深（超过 {max} 层）"),
            CalcError::UnexpectedChar { ch, pos } => format!("第 {pos} 个位置有意外的字符 '{ch}'"),
            CalcError::UnexpectedToken { token, pos } => {
                format!("第 {pos} 个位置有意外的 '{token}'")
            }
            CalcError::UnexpectedEnd => "表达式提前结束".to_string(),
            CalcError::UnclosedParen { pos } => {
                format!("括号不配对：第 {pos} 个位置的 '(' 没有闭合")
            }
            CalcError::UnexpectedCloseParen { pos } => {
                format!("括号不配对：第 {pos} 个位置的 ')' 没有对应的 '('")
            }
            CalcError::UnknownName { name, pos } => match self.near_name() {
                Some(near) => format!("第 {pos} 个位置有未知的名称 '{name}'；你是指 {near} 吗？"),
                None => format!(
                    "第 {pos} 个位置有未知的名称 '{name}'；计算器只认识数字、算术运算和 sqrt、round \
                     等数学函数"
                ),
            },
            CalcError::MissingParens { name } => format!("'{name}' 是函数，需要括号，例如 {name}(2)"),
            CalcError::ConstantCalled { name, pos } => {
                format!("第 {pos} 个位置的 '{name}' 是数，不是函数；请写乘号：{name} * (…)")
            }
            CalcError::WrongArgCount {
                function,
                expected,
                got,
            } => format!("{function}() 需要 {expected} 个参数，实际有 {got} 个"),
            CalcError::DivisionByZero => "除数为零".to_string(),
            CalcError::Overflow => "结果太大，无法表示".to_string(),
            CalcError::InvalidArgument { function, reason } => format!("{function}：{reason}"),
        };
        let hint = match self {
            CalcError::Empty => "给出一个算术表达式，例如 2 * (3 + 4)",
            CalcError::TooLong { .. } | CalcError::TooDeep { .. } => "把计算拆成更小的几步",
            CalcError::UnexpectedChar { .. } => {
                "只用数字、+ - * / % ^、括号和已知函数；计算器不懂文字或单位"
            }
            CalcError::UnexpectedToken { .. } => {
                "检查是否缺了运算符（写 2 * pi，不要写 2pi）或缺了数字"
            }
            CalcError::UnexpectedEnd => "表达式不完整，请写完",
            CalcError::UnclosedParen { .. } | CalcError::UnexpectedCloseParen { .. } => {
                "让每个 '(' 都有对应的 ')'"
            }
            CalcError::UnknownName { .. } => "请写数字；像今年的年份这样的值要先用别的工具得到",
            CalcError::MissingParens { .. } => "把函数的参数写在括号里",
            CalcError::ConstantCalled { .. } => "写出乘号",
            CalcError::WrongArgCount { .. } => "给函数正确个数的参数",
            CalcError::DivisionByZero => "除数是 0，请检查数字",
            CalcError::Overflow => "数字太大，请检查表达式",
            CalcError::InvalidArgument { .. } => "函数对这个输入没有定义",
        };
        (message, hint)
    }

    /// The known function or constant an unknown name is a likely misspelling of. Stricter
    /// than tool names ("foo" is not a misspelt "floor"): at most a third of the letters
    /// differ.
    fn near_name(&self) -> Option<&'static str> {
        let CalcError::UnknownName { name, .. } = self else {
            return None;
        };
        let known: Vec<&'static str> = FUNCTIONS
            .iter()
            .map(|g| g.name)
            .chain(CONSTANTS.iter().map(|c| c.0))
            .collect();
        super::nearest(name, &known).filter(|near| {
            let longest = name.chars().count().max(near.len());
            3 * super::edit_distance(&name.to_lowercase(), near) <= longest
        })
    }

    /// The input was words, not arithmetic (`year()`, `H2O`, a Chinese sentence): no fix of
    /// the expression helps, another tool or the answer does. A misspelt function is not.
    pub fn is_words(&self) -> bool {
        match self {
            CalcError::UnknownName { .. } => self.near_name().is_none(),
            CalcError::UnexpectedChar { ch, .. } => ch.is_alphabetic(),
            _ => false,
        }
    }

    /// What the model should do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            CalcError::Empty => "give an arithmetic expression such as 2 * (3 + 4)",
            CalcError::TooLong { .. } | CalcError::TooDeep { .. } => {
                "split the calculation into smaller steps"
            }
            CalcError::UnexpectedChar { .. } => {
                "use only numbers, + - * / % ^, parentheses, and the known functions; \
                 the calculator does not understand words or units"
            }
            CalcError::UnexpectedToken { .. } => {
                "check for a missing operator (write 2 * pi, not 2pi) or a missing number"
            }
            CalcError::UnexpectedEnd => "the expression is incomplete; finish it",
            CalcError::UnclosedParen { .. } | CalcError::UnexpectedCloseParen { .. } => {
                "make every '(' have a matching ')'"
            }
            CalcError::UnknownName { .. } => {
                "write numbers; a value such as today's year comes from another tool first"
            }
            CalcError::MissingParens { .. } => "put the function's argument in parentheses",
            CalcError::ConstantCalled { .. } => "write the multiplication sign",
            CalcError::WrongArgCount { .. } => "give the function the right number of arguments",
            CalcError::DivisionByZero => "the divisor is 0; check the numbers",
            CalcError::Overflow => "the numbers are too large; check the expression",
            CalcError::InvalidArgument { .. } => "the function is not defined for that input",
        }
    }
}

/// The tool's spec, as the model sees it.
pub(crate) fn spec() -> ToolSpec {
    ToolSpec {
        name: "calculator".into(),
        description: "Arithmetic: + - * / % ^, parentheses, sqrt, abs, round, min, max, log, \
            pi, e."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "expression": {
                    "type": "string",
                    "description": "the expression to evaluate, e.g. 2 * (3 + 4)"
                }
            },
            "required": ["expression"],
            "examples": [{ "expression": "<arithmetic from the question>" }]
        }),
    }
}

/// Evaluates `expr`; the result is always finite.
pub fn evaluate(expr: &str) -> Result<f64, CalcError> {
    calculate(expr, false).map(|values| values[0])
}

/// Evaluates `expr`, or each of several expressions separated by commas ("17 * 3, 8 * 6, 100
/// / 2"): small models ask for the values they compare in one call. A comma between two
/// digits (`1,000`) is not a separator.
pub fn evaluate_list(expr: &str) -> Result<Vec<f64>, CalcError> {
    calculate(expr, true)
}

fn calculate(expr: &str, list: bool) -> Result<Vec<f64>, CalcError> {
    // "2 + 2 =" is how people (and models) often write a question. Only the end is trimmed,
    // so that positions in error messages count from the start of the input as given.
    let trimmed = expr.trim_end();
    let trimmed = trimmed.strip_suffix('=').unwrap_or(trimmed);
    let len = trimmed.chars().count();
    if len > MAX_LEN {
        return Err(CalcError::TooLong { len, max: MAX_LEN });
    }
    let chars: Vec<char> = trimmed.chars().collect();
    parse_and_evaluate(&chars, list).map_err(|error| match error {
        // A syntax error after a word (`current_time['year']`, `sky_color = …`) is about the
        // word: the calculator was the wrong tool, which the name's message says.
        CalcError::UnexpectedChar { .. } | CalcError::UnexpectedToken { .. } => {
            unknown_word(&chars).unwrap_or(error)
        }
        error => error,
    })
}

/// The first name of two letters or more that is not a function or constant, nor a
/// misspelling of one (a single letter is often a variable or a written `x` for times).
fn unknown_word(chars: &[char]) -> Option<CalcError> {
    let mut i = 0;
    while i < chars.len() {
        let starts_name = (chars[i].is_ascii_alphabetic() || chars[i] == '_')
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '.'));
        if !starts_name {
            i += 1;
            continue;
        }
        let end = name_end(chars, i);
        let name: String = chars[i..end].iter().collect();
        let lower = name.to_lowercase();
        let bare = lower.strip_prefix("math.").unwrap_or(&lower);
        let known =
            FUNCTIONS.iter().any(|g| g.name == bare) || CONSTANTS.iter().any(|c| c.0 == bare);
        let error = CalcError::UnknownName { name, pos: i + 1 };
        if end - i >= 2 && !known && error.near_name().is_none() {
            return Some(error);
        }
        i = end;
    }
    None
}

fn parse_and_evaluate(chars: &[char], list: bool) -> Result<Vec<f64>, CalcError> {
    let tokens = tokenize(chars)?;
    if tokens.is_empty() {
        return Err(CalcError::Empty);
    }
    let mut parser = Parser {
        chars,
        tokens: &tokens,
        next: 0,
        depth: 0,
    };
    let mut values = vec![parser.expr()?];
    loop {
        match parser.peek() {
            None => return Ok(values),
            Some(t) if t.kind == Kind::RParen => {
                return Err(CalcError::UnexpectedCloseParen { pos: t.pos() })
            }
            Some(t) if list && t.kind == Kind::Comma && !between_digits(chars, t.start) => {
                parser.next += 1;
                values.push(parser.expr()?);
            }
            Some(t) => return Err(parser.unexpected(t)),
        }
    }
}

fn between_digits(chars: &[char], at: usize) -> bool {
    let digit = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(char::is_ascii_digit)
    };
    digit(at.checked_sub(1)) && digit(Some(at + 1))
}

/// Formats a result for people: integers without `.0`, otherwise up to 12 significant digits
/// (so 0.1 + 0.2 shows as 0.3), scientific notation for very large or small magnitudes, never `-0`.
pub fn format_number(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "inf"
        } else {
            "-inf"
        }
        .into();
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        // Exact; `+ 0.0` turns -0 into 0.
        return format!("{}", x + 0.0);
    }
    // 12 significant digits, but never fewer than the integer part has: 1234567890123.25 shows
    // as 1234567890123, not 1234567890120.
    let magnitude = x.abs().log10().floor();
    let precision = if (11.0..15.0).contains(&magnitude) {
        magnitude as usize
    } else {
        11
    };
    let sci = format!("{:.*e}", precision, x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    if digits.is_empty() {
        return "0".into();
    }
    let sign = if negative { "-" } else { "" };
    let body = if (-7..15).contains(&exp) {
        if exp < 0 {
            format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
        } else {
            let point = exp as usize + 1;
            if digits.len() <= point {
                format!("{}{}", digits, "0".repeat(point - digits.len()))
            } else {
                format!("{}.{}", &digits[..point], &digits[point..])
            }
        }
    } else {
        let (first, rest) = digits.split_at(1);
        if rest.is_empty() {
            format!("{first}e{exp}")
        } else {
            format!("{first}.{rest}e{exp}")
        }
    };
    format!("{sign}{body}")
}

struct Function {
    name: &'static str,
    min_args: usize,
    /// `usize::MAX` for variadic functions.
    max_args: usize,
    eval: fn(&[f64]) -> Result<f64, CalcError>,
}

const fn func(
    name: &'static str,
    min_args: usize,
    max_args: usize,
    eval: fn(&[f64]) -> Result<f64, CalcError>,
) -> Function {
    Function {
        name,
        min_args,
        max_args,
        eval,
    }
}

// One table is the single source of truth for names, arity and behaviour; error messages list
// the known names from it. `eval` may index the arguments the arity guarantees.
const FUNCTIONS: &[Function] = &[
    func("sqrt", 1, 1, |a| match a[0] {
        x if x < 0.0 => Err(invalid("sqrt", "needs a number ≥ 0", x)),
        x => Ok(x.sqrt()),
    }),
    func("abs", 1, 1, |a| Ok(a[0].abs())),
    func("round", 1, 2, round),
    func("floor", 1, 1, |a| Ok(a[0].floor())),
    func("ceil", 1, 1, |a| Ok(a[0].ceil())),
    func("min", 1, usize::MAX, |a| {
        Ok(a.iter().copied().fold(f64::INFINITY, f64::min))
    }),
    func("max", 1, usize::MAX, |a| {
        Ok(a.iter().copied().fold(f64::NEG_INFINITY, f64::max))
    }),
    func("ln", 1, 1, |a| positive("ln", a[0]).map(f64::ln)),
    func("log10", 1, 1, |a| positive("log10", a[0]).map(f64::log10)),
    func("log", 1, 2, |a| {
        let x = positive("log", a[0])?;
        match a.get(1) {
            None => Ok(x.log10()),
            Some(&b) if b > 0.0 && b != 1.0 => Ok(x.ln() / b.ln()),
            Some(&b) => Err(invalid("log", "the base must be > 0 and not 1", b)),
        }
    }),
    func("exp", 1, 1, |a| Ok(a[0].exp())),
    func("sin", 1, 1, |a| Ok(a[0].sin())),
    func("cos", 1, 1, |a| Ok(a[0].cos())),
    func("tan", 1, 1, |a| Ok(a[0].tan())),
];

const CONSTANTS: &[(&str, f64)] = &[("pi", PI), ("e", E)];

/// The names an expression may use (functions and constants), longest first: `log10` is
/// found before `log`, `exp` before `e`.
pub(crate) fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = FUNCTIONS
        .iter()
        .map(|f| f.name)
        .chain(CONSTANTS.iter().map(|c| c.0))
        .collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names
}

fn invalid(function: &str, what: &str, got: f64) -> CalcError {
    CalcError::InvalidArgument {
        function: function.into(),
        reason: format!("{what}, got {}", format_number(got)),
    }
}

fn positive(function: &str, x: f64) -> Result<f64, CalcError> {
    if x > 0.0 {
        Ok(x)
    } else {
        Err(invalid(function, "needs a number > 0", x))
    }
}

fn round(a: &[f64]) -> Result<f64, CalcError> {
    let Some(&digits) = a.get(1) else {
        return Ok(a[0].round());
    };
    if digits.fract() != 0.0 || digits.abs() > MAX_ROUND_DIGITS {
        return Err(invalid(
            "round",
            "the number of decimals must be a whole number from -15 to 15",
            digits,
        ));
    }
    let scale = 10f64.powi(digits as i32);
    let scaled = a[0] * scale;
    // Scaling a huge number can overflow although the number needs no rounding at all.
    Ok(if scaled.is_finite() {
        scaled.round() / scale
    } else {
        a[0]
    })
}

/// Turns infinities and NaN from an operation into the matching error.
fn finite(x: f64, operation: &str) -> Result<f64, CalcError> {
    if x.is_nan() {
        Err(CalcError::InvalidArgument {
            function: operation.into(),
            reason: "the result is not a real number".into(),
        })
    } else if x.is_infinite() {
        Err(CalcError::Overflow)
    } else {
        Ok(x)
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Num(f64),
    Name,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    LParen,
    RParen,
    Comma,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    /// Char indices into the input, end exclusive.
    start: usize,
    end: usize,
}

impl Token {
    /// 1-based position for messages.
    fn pos(&self) -> usize {
        self.start + 1
    }
}

fn tokenize(chars: &[char]) -> Result<Vec<Token>, CalcError> {
    let mut tokens: Vec<Token> = Vec::new();
    // For each open parenthesis: does it start a function's argument list? Inside one, a comma
    // separates arguments and cannot be a thousands separator.
    let mut paren_is_call: Vec<bool> = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let start = i;
        let kind = match c {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            c if c.is_ascii_digit() || (c == '.' && next_is_digit(chars, i + 1)) => {
                let grouping = paren_is_call.last() != Some(&true);
                let (value, end) = number(chars, i, grouping)?;
                i = end;
                tokens.push(Token {
                    kind: Kind::Num(value),
                    start,
                    end,
                });
                continue;
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                i = name_end(chars, i);
                tokens.push(Token {
                    kind: Kind::Name,
                    start,
                    end: i,
                });
                continue;
            }
            'π' => Kind::Name,
            '+' => Kind::Plus,
            '-' | '−' | '–' => Kind::Minus,
            '*' if chars.get(i + 1) == Some(&'*') => {
                i += 1;
                Kind::Caret
            }
            '*' | '×' => Kind::Star,
            '/' | '÷' => Kind::Slash,
            '%' => Kind::Percent,
            '^' => Kind::Caret,
            '(' => {
                let after_name = tokens.last().is_some_and(|t| t.kind == Kind::Name);
                paren_is_call.push(after_name);
                Kind::LParen
            }
            ')' => {
                paren_is_call.pop();
                Kind::RParen
            }
            ',' => Kind::Comma,
            ch => return Err(CalcError::UnexpectedChar { ch, pos: i + 1 }),
        };
        i += 1;
        tokens.push(Token {
            kind,
            start,
            end: i,
        });
    }
    Ok(tokens)
}

fn next_is_digit(chars: &[char], i: usize) -> bool {
    chars.get(i).is_some_and(char::is_ascii_digit)
}

fn digits_end(chars: &[char], mut i: usize) -> usize {
    while next_is_digit(chars, i) {
        i += 1;
    }
    i
}

/// Scans a number starting at `i`; returns its value and the index after it.
fn number(chars: &[char], i: usize, grouping: bool) -> Result<(f64, usize), CalcError> {
    let mut text = String::new();
    let mut end = digits_end(chars, i);
    text.extend(&chars[i..end]);
    let first_group_ok = (1..=3).contains(&(end - i)) && chars.get(i) != Some(&'0');
    if grouping && first_group_ok {
        // ",ddd" groups, each exactly three digits and not followed by a fourth.
        while chars.get(end) == Some(&',') && digits_end(chars, end + 1) == end + 4 {
            text.extend(&chars[end + 1..end + 4]);
            end += 4;
        }
    }
    if chars.get(end) == Some(&'.') {
        let frac_end = digits_end(chars, end + 1);
        text.extend(&chars[end..frac_end]);
        end = frac_end;
    }
    // An exponent only if digits follow: "2e" is 2 followed by the constant e (an error later).
    if matches!(chars.get(end), Some('e' | 'E')) {
        let sign = usize::from(matches!(chars.get(end + 1), Some('+' | '-')));
        if next_is_digit(chars, end + 1 + sign) {
            let exp_end = digits_end(chars, end + 1 + sign);
            text.extend(&chars[end..exp_end]);
            end = exp_end;
        }
    }
    let value: f64 = text.parse().map_err(|_| CalcError::UnexpectedChar {
        ch: chars.get(i).copied().unwrap_or('?'),
        pos: i + 1,
    })?;
    Ok((finite(value, "number")?, end))
}

/// End of a name: letters, digits, `_`, and a `.` between letters (for `math.sqrt`).
fn name_end(chars: &[char], mut i: usize) -> usize {
    while let Some(&c) = chars.get(i) {
        let dotted = c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_alphabetic);
        if !(c.is_ascii_alphanumeric() || c == '_' || dotted) {
            break;
        }
        i += 1;
    }
    i
}

struct Parser<'a> {
    chars: &'a [char],
    tokens: &'a [Token],
    next: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<Token> {
        self.tokens.get(self.next).copied()
    }

    fn eat(&mut self, kind: Kind) -> bool {
        let hit = self.peek().is_some_and(|t| t.kind == kind);
        if hit {
            self.next += 1;
        }
        hit
    }

    fn text(&self, t: Token) -> String {
        self.chars
            .get(t.start..t.end)
            .unwrap_or_default()
            .iter()
            .collect()
    }

    fn unexpected(&self, t: Token) -> CalcError {
        CalcError::UnexpectedToken {
            token: self.text(t),
            pos: t.pos(),
        }
    }

    fn expr(&mut self) -> Result<f64, CalcError> {
        let mut value = self.term()?;
        loop {
            if self.eat(Kind::Plus) {
                value = finite(value + self.term()?, "+")?;
            } else if self.eat(Kind::Minus) {
                value = finite(value - self.term()?, "-")?;
            } else {
                return Ok(value);
            }
        }
    }

    fn term(&mut self) -> Result<f64, CalcError> {
        let mut value = self.unary()?;
        loop {
            if self.eat(Kind::Star) {
                value = finite(value * self.unary()?, "*")?;
            } else if self.eat(Kind::Slash) {
                value = finite(value / nonzero(self.unary()?)?, "/")?;
            } else if self.eat(Kind::Percent) {
                value = finite(value % nonzero(self.unary()?)?, "%")?;
            } else {
                return Ok(value);
            }
        }
    }

    /// Every recursive path goes through here, so the depth limit is checked in one place.
    fn unary(&mut self) -> Result<f64, CalcError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(CalcError::TooDeep { max: MAX_DEPTH });
        }
        let value = if self.eat(Kind::Minus) {
            -self.unary()?
        } else if self.eat(Kind::Plus) {
            self.unary()?
        } else {
            self.power()?
        };
        self.depth -= 1;
        Ok(value)
    }

    fn power(&mut self) -> Result<f64, CalcError> {
        let mut base = self.primary()?;
        if self.percent_sign() {
            self.next += 1;
            base /= 100.0;
        }
        if !self.eat(Kind::Caret) {
            return Ok(base);
        }
        let exponent = self.unary()?;
        if base == 0.0 && exponent < 0.0 {
            return Err(CalcError::DivisionByZero);
        }
        finite(base.powf(exponent), "^")
    }

    /// A `%` that no operand follows is a percent sign: models write `17.5% * 2480` for
    /// "17.5% of 2480"; `7 % 3` and `7 % -3` stay remainders.
    fn percent_sign(&self) -> bool {
        let operand = |t: &Token| {
            matches!(
                t.kind,
                Kind::Num(_) | Kind::Name | Kind::LParen | Kind::Minus | Kind::Plus
            )
        };
        self.peek().is_some_and(|t| t.kind == Kind::Percent)
            && !self.tokens.get(self.next + 1).is_some_and(operand)
    }

    fn primary(&mut self) -> Result<f64, CalcError> {
        let t = self.peek().ok_or(CalcError::UnexpectedEnd)?;
        self.next += 1;
        match t.kind {
            Kind::Num(v) => Ok(v),
            Kind::LParen => {
                let value = self.expr()?;
                self.close(t)?;
                Ok(value)
            }
            Kind::Name => self.name(t),
            _ => Err(self.unexpected(t)),
        }
    }

    /// Expects the ')' matching the '(' token `open`.
    fn close(&mut self, open: Token) -> Result<(), CalcError> {
        match self.peek() {
            Some(t) if t.kind == Kind::RParen => {
                self.next += 1;
                Ok(())
            }
            Some(t) => Err(self.unexpected(t)),
            None => Err(CalcError::UnclosedParen { pos: open.pos() }),
        }
    }

    fn name(&mut self, t: Token) -> Result<f64, CalcError> {
        let written = self.text(t);
        let lower = written.to_lowercase();
        let name = match lower.as_str() {
            "π" => "pi",
            w => w.strip_prefix("math.").unwrap_or(w),
        };
        let function = FUNCTIONS.iter().find(|g| g.name == name);
        let Some(open) = self.peek().filter(|p| p.kind == Kind::LParen) else {
            if let Some(&(_, value)) = CONSTANTS.iter().find(|c| c.0 == name) {
                return Ok(value);
            }
            return Err(match function {
                Some(g) => CalcError::MissingParens {
                    name: g.name.into(),
                },
                None => CalcError::UnknownName {
                    name: written,
                    pos: t.pos(),
                },
            });
        };
        let Some(function) = function else {
            if CONSTANTS.iter().any(|c| c.0 == name) {
                return Err(CalcError::ConstantCalled {
                    name: written,
                    pos: t.pos(),
                });
            }
            return Err(CalcError::UnknownName {
                name: written,
                pos: t.pos(),
            });
        };
        self.next += 1;
        let mut args = Vec::new();
        if !self.eat(Kind::RParen) {
            loop {
                args.push(self.expr()?);
                if !self.eat(Kind::Comma) {
                    break;
                }
            }
            self.close(open)?;
        }
        if args.len() < function.min_args || args.len() > function.max_args {
            return Err(CalcError::WrongArgCount {
                function: function.name.into(),
                expected: arity(function),
                got: args.len(),
            });
        }
        finite((function.eval)(&args)?, function.name)
    }
}

fn nonzero(x: f64) -> Result<f64, CalcError> {
    if x == 0.0 {
        Err(CalcError::DivisionByZero)
    } else {
        Ok(x)
    }
}

fn arity(g: &Function) -> String {
    match (g.min_args, g.max_args) {
        (min, usize::MAX) => format!("at least {min}"),
        (min, max) if min == max => min.to_string(),
        (min, max) => format!("{min} or {max}"),
    }
}
