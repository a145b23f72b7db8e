//! How one tool's evidence reads beside the others': the question's subject outranks generic
//! evidence, a computation on one number waits for the fact it needs, and "now" alone
//! qualifies what a page's tool gives. `fit` weighs what is left.

use super::declared::{follows, required_number, takes_number};
use super::fit::{about_dates, asks_computation, mentions_number, Evidence, ToolFit, UNARY};
use super::{Registry, Role};
use crate::lower::Lower;

impl Registry {
    /// The question's subject outranks generic evidence. When a tool that gives facts (no
    /// role) has the question's subject (a keyword or an example), the clock's "now" words
    /// qualify that subject; a word of that tool is not the calculator's operation ("convert");
    /// and a number is that tool's argument, not one to compute with, when the tool takes a
    /// number or the number follows one of its words ("order 1042", 订单3310).
    pub(super) fn outrank(&self, question: &str, fits: &mut [ToolFit]) {
        let subjects: Vec<(String, Vec<String>, bool)> = (fits.iter())
            .filter_map(|f| {
                let spec = self.spec(&f.tool).filter(|s| s.role.is_none())?;
                let words: Vec<String> = (f.evidence.iter())
                    .filter_map(|e| match e {
                        Evidence::Keyword { word } => Some(word.clone()),
                        _ => None,
                    })
                    .collect();
                let example = f
                    .evidence
                    .iter()
                    .any(|e| matches!(e, Evidence::Example { .. }));
                (example || !words.is_empty()).then(|| (f.tool.clone(), words, takes_number(spec)))
            })
            .collect();
        let Some((first, _, _)) = subjects.first() else {
            self.qualify_now(question, fits);
            return;
        };
        let claims = |number: &str| -> Option<&str> {
            subjects.iter().find_map(|(tool, words, numeric)| {
                (*numeric || words.iter().any(|w| follows(question, w, number)))
                    .then_some(tool.as_str())
            })
        };
        for fit in fits.iter_mut() {
            let role = self.spec(&fit.tool).and_then(|s| s.role);
            for e in fit.evidence.iter_mut() {
                let outranked = match (role, &*e) {
                    (Some(Role::Clock), Evidence::Time { word, now: true }) => {
                        Some((word.clone(), first.as_str()))
                    }
                    (Some(Role::Computes), Evidence::Number { number }) => {
                        claims(number).map(|by| (number.clone(), by))
                    }
                    (Some(Role::Computes), Evidence::Operation { word }) => (subjects.iter())
                        .find(|(_, words, _)| {
                            words
                                .iter()
                                .any(|w| w.contains(word.as_str()) || word.contains(w.as_str()))
                        })
                        .map(|(by, _, _)| (word.clone(), by.as_str())),
                    _ => None,
                };
                if let Some((word, by)) = outranked {
                    *e = Evidence::Outranked {
                        word,
                        by: by.to_string(),
                    };
                }
            }
        }
    }

    /// A tool that needs a number (a converter's `value`) is no tool for a question that gives
    /// none: its words in the question, with nothing of its subject, count for nothing. The
    /// 0.5B model was left to choose between a weather tool and a converter that both spoke
    /// of temperature, for "开罗的气温比奥斯陆高多少度？".
    pub(super) fn unfilled(&self, question: &str, fits: &mut [ToolFit]) {
        if mentions_number(question) {
            return;
        }
        for fit in fits.iter_mut().filter(|f| f.role.is_none()) {
            let Some(param) = self.spec(&fit.tool).and_then(required_number) else {
                continue;
            };
            let subject = (fit.evidence.iter())
                .any(|e| matches!(e, Evidence::Keyword { .. } | Evidence::Example { .. }));
            for e in fit.evidence.iter_mut().filter(|_| !subject) {
                if let Evidence::Described { word } = e {
                    *e = Evidence::Unfilled {
                        word: word.clone(),
                        param: param.to_string(),
                    };
                }
            }
        }
    }

    /// A computation on one number the question gives, with no operation of one number
    /// ("square root"), waits for its other operand: with a tool that gives facts pointed to,
    /// the calculator's evidence is that tool's. "How much do 40 shares of ACME cost in total?"
    /// needs the price first; the 0.5B model, steered to the calculator, wrote `40 * 1000`.
    pub(super) fn await_operand(&self, fits: &mut [ToolFit]) {
        let facts = (fits.iter())
            .filter(|f| f.role.is_none())
            .map(|f| {
                (
                    f.tool.clone(),
                    f.evidence.iter().map(Evidence::weight).sum::<u32>(),
                )
            })
            .filter(|(_, score)| *score > 0)
            .max_by_key(|(_, score)| *score);
        let Some((by, _)) = facts else { return };
        for fit in fits.iter_mut().filter(|f| f.role == Some(Role::Computes)) {
            let count =
                |p: &dyn Fn(&Evidence) -> bool| fit.evidence.iter().filter(|e| p(e)).count();
            let numbers = count(&|e| matches!(e, Evidence::Number { .. }));
            let unary = count(
                &|e| matches!(e, Evidence::Operation { word } if UNARY.contains(&word.as_str())),
            );
            if numbers != 1 || unary > 0 || !asks_computation(fit) {
                continue;
            }
            // One unit of what the fact gives ("1 美元能换多少日元？") is the fact itself: nothing
            // is left to compute (the 0.5B model, steered on, wrote `1 * 149.2 / 100`).
            let one = (fit.evidence.iter())
                .any(|e| matches!(e, Evidence::Number { number } if number == "1"));
            for e in fit.evidence.iter_mut() {
                let (word, number) = match &*e {
                    Evidence::Number { number } => (number.clone(), true),
                    Evidence::Operation { word } | Evidence::Quantity { word } => {
                        (word.clone(), false)
                    }
                    _ => continue,
                };
                let by = by.clone();
                *e = match (one, number) {
                    (true, true) => Evidence::Outranked { word, by },
                    (true, false) => continue,
                    (false, _) => Evidence::Awaits { word, by },
                };
            }
        }
    }

    /// With tools that give facts registered and none named by the question, a word for now
    /// alone is no sign that the question asks the time: "GLOBX 的股价现在是多少" asks for a
    /// price now, whatever tool gives it.
    fn qualify_now(&self, question: &str, fits: &mut [ToolFit]) {
        if self.enabled().all(|e| e.spec.role.is_some()) || about_dates(&question.lower()) {
            return;
        }
        for fit in fits.iter_mut().filter(|f| f.role == Some(Role::Clock)) {
            let about_time = (fit.evidence.iter())
                .any(|e| matches!(e, Evidence::Time { now: false, .. } | Evidence::Day { .. }));
            if about_time {
                continue;
            }
            let mut qualified = Vec::new();
            for e in fit.evidence.iter_mut() {
                if let Evidence::Time { word, now: true } = e {
                    qualified.push(word.clone());
                    *e = Evidence::Qualifier { word: word.clone() };
                }
            }
            // Its description's word for now ("返回今天的日期") is the same word, not more.
            fit.evidence
                .retain(|e| !matches!(e, Evidence::Described { word } if qualified.contains(word)));
        }
    }
}
