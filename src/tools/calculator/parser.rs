//! The parser: tokens evaluated by recursive descent as they are read, with a depth limit so
//! that no input can exhaust the stack (small in wasm).

use super::functions::{arity, finite, CONSTANTS, FUNCTIONS};
use super::lexer::{Kind, Token};
use super::{CalcError, MAX_DEPTH};
use crate::lower::Lower;

pub(super) struct Parser<'a> {
    pub(super) chars: &'a [char],
    pub(super) tokens: &'a [Token],
    pub(super) next: usize,
    pub(super) depth: usize,
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> Option<Token> {
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

    pub(super) fn unexpected(&self, t: Token) -> CalcError {
        CalcError::UnexpectedToken {
            token: self.text(t),
            pos: t.pos(),
        }
    }

    pub(super) fn expr(&mut self) -> Result<f64, CalcError> {
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
        finite(crate::math::pow(base, exponent), "^")
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
        let lower = written.lower();
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
