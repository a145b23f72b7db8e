//! Why a reply may only be the final answer ([`MustAnswer`]), and the rule that decides it from
//! what the last step left ([`Left`]): the variant, its rule and its case in the table below
//! sit together, so a new one is written here, said in `sentences/must_answer.rs`, and, when
//! its rule reads something new, gathered by the agent.

use crate::fields::units;

units! {
    /// Why a reply may only be the final answer.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum MustAnswer {
        /// A call that had succeeded was repeated: its result is in hand.
        RepeatedCall,
        /// The step limit allows no further Observation.
        LastStep,
        /// Without a constraint: a call that had failed was repeated. The tools do not reach the
        /// answer (a question of general knowledge, an expression the calculator cannot read);
        /// the 0.5B model sent the same failing call until the repeat limit ended the run.
        RepeatedFailure,
        /// A calculation for a question without numbers: no tool is about the question (the
        /// 0.5B model, made to act first, computed `1 + 1` for "What is the capital of China?").
        NoToolFits,
        /// A calculation for a question without numbers after another tool found something: the
        /// answer is in that result (the 1.5B model found "Let's think step by step", computed
        /// `1 + 1`, and, told to answer from what it knows, answered 2).
        FoundBefore,
        /// A calculation applied the last one's final operation again to its result (`* 2` to
        /// the result of `… * 2`): that result is the answer. Of ten runs whose calculator ran a
        /// second time on its own result, none answered right.
        AppliedAgain,
    }
}

/// What the last step left that bears on whether the next reply may only be the answer, as
/// the agent gathers it for a request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Left {
    /// The request goes out under a constraint.
    pub constrained: bool,
    /// The last call repeated an earlier one with the same arguments: whether that succeeded.
    pub repeated: Option<bool>,
    /// The last call computed something for a question without numbers, and no tool is to be
    /// steered to next.
    pub unrelated: bool,
    /// A tool other than a calculation had found something before.
    pub found_before: bool,
    /// The last calculation applied the one before's final operation again (and was not run).
    pub applied_again: bool,
    /// The step is the last the limit allows, and not the first.
    pub last_step: bool,
    /// Without a constraint, the last request asked for the answer (this is why) and the reply
    /// broke the format: the request asks again.
    pub asked_again: Option<MustAnswer>,
}

impl MustAnswer {
    /// Whether the reply to this request may only be the answer, and why: the first rule that
    /// holds.
    pub fn from_left(left: &Left) -> Option<MustAnswer> {
        match left.repeated {
            // A successful call repeated with the same arguments: its result is in hand, and
            // the 0.5B model went on repeating it (or another tool) until the limit. Only the
            // answer is left to write.
            Some(true) => return Some(MustAnswer::RepeatedCall),
            // A failed one: a constraint leaves the failing tool out instead (`avoid`).
            Some(false) if !left.constrained => return Some(MustAnswer::RepeatedFailure),
            _ => {}
        }
        if left.unrelated {
            // Made to act first, the model computed something for a question without numbers;
            // the answer is to come from what it (or the tool before) found.
            return Some(if left.found_before {
                MustAnswer::FoundBefore
            } else {
                MustAnswer::NoToolFits
            });
        }
        if left.applied_again {
            return Some(MustAnswer::AppliedAgain);
        }
        // The last step the limit allows cannot use another Observation (after the first, so
        // that a tool can still run in a one-step run). A constraint allows nothing else;
        // without one, the request ends by asking for it.
        if left.last_step {
            return Some(MustAnswer::LastStep);
        }
        left.asked_again
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each case: what the last step left, and why the reply may only be the answer.
    #[test]
    fn the_first_rule_that_holds_decides() {
        let none = Left::default();
        let cases = [
            (none, None),
            (
                Left {
                    repeated: Some(true),
                    constrained: true,
                    last_step: true,
                    ..none
                },
                Some(MustAnswer::RepeatedCall),
            ),
            (
                Left {
                    repeated: Some(false),
                    last_step: true,
                    ..none
                },
                Some(MustAnswer::RepeatedFailure),
            ),
            // Under a constraint the failing tool is left out instead.
            (
                Left {
                    repeated: Some(false),
                    constrained: true,
                    ..none
                },
                None,
            ),
            (
                Left {
                    repeated: Some(false),
                    constrained: true,
                    last_step: true,
                    ..none
                },
                Some(MustAnswer::LastStep),
            ),
            (
                Left {
                    unrelated: true,
                    applied_again: true,
                    ..none
                },
                Some(MustAnswer::NoToolFits),
            ),
            (
                Left {
                    unrelated: true,
                    found_before: true,
                    ..none
                },
                Some(MustAnswer::FoundBefore),
            ),
            // Something found before, and no unrelated calculation: nothing to decide.
            (
                Left {
                    found_before: true,
                    ..none
                },
                None,
            ),
            (
                Left {
                    applied_again: true,
                    last_step: true,
                    ..none
                },
                Some(MustAnswer::AppliedAgain),
            ),
            (
                Left {
                    last_step: true,
                    asked_again: Some(MustAnswer::FoundBefore),
                    ..none
                },
                Some(MustAnswer::LastStep),
            ),
            (
                Left {
                    asked_again: Some(MustAnswer::FoundBefore),
                    ..none
                },
                Some(MustAnswer::FoundBefore),
            ),
        ];
        for (left, want) in cases {
            assert_eq!(MustAnswer::from_left(&left), want, "{left:?}");
        }
    }

    /// Every variant is what some case of the rule gives: a variant without a rule fails.
    #[test]
    fn every_variant_has_a_rule() {
        let mut given = Vec::new();
        for repeated in [None, Some(true), Some(false)] {
            for bits in 0..32 {
                let left = Left {
                    constrained: bits & 1 != 0,
                    repeated,
                    unrelated: bits & 2 != 0,
                    found_before: bits & 4 != 0,
                    applied_again: bits & 8 != 0,
                    last_step: bits & 16 != 0,
                    asked_again: None,
                };
                given.extend(MustAnswer::from_left(&left));
            }
        }
        for why in MustAnswer::ALL {
            assert!(given.contains(&why), "no rule gives {why:?}");
        }
    }
}
