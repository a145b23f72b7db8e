//! The lexer: characters to tokens, including the loose spellings models write (`×`, `÷`, `π`,
//! `math.`, thousands separators, a percent sign).

use super::functions::finite;
use super::CalcError;
use crate::numbers::parse_f64;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
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
pub(super) struct Token {
    pub(super) kind: Kind,
    /// Char indices into the input, end exclusive.
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Token {
    /// 1-based position for messages.
    pub(super) fn pos(&self) -> usize {
        self.start + 1
    }
}

pub(super) fn tokenize(chars: &[char]) -> Result<Vec<Token>, CalcError> {
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
    let value = parse_f64(&text).ok_or(CalcError::UnexpectedChar {
        ch: chars.get(i).copied().unwrap_or('?'),
        pos: i + 1,
    })?;
    Ok((finite(value, "number")?, end))
}

/// End of a name: letters, digits, `_`, and a `.` between letters (for `math.sqrt`).
pub(super) fn name_end(chars: &[char], mut i: usize) -> usize {
    while let Some(&c) = chars.get(i) {
        let dotted = c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_alphabetic);
        if !(c.is_ascii_alphanumeric() || c == '_' || dotted) {
            break;
        }
        i += 1;
    }
    i
}
