//! What a final answer was sent back for, once a run each: the same answer a second time is
//! one the model stands by, and stands. One record, so a new check of this kind is a field
//! here and the error that sets it, not a flag of the agent's.

use crate::parse::{FormatError, Parsed};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SentBack {
    /// For leaving out a number or a name of the question.
    pub number: bool,
    /// For leaving out the calculator's result.
    pub result: bool,
    /// For giving the question's words back, or an amount for yes or no.
    pub question: bool,
}

impl SentBack {
    /// This record with what `parsed` sends an answer back for.
    pub fn after(self, parsed: &Parsed) -> SentBack {
        let Parsed::Error { error } = parsed else {
            return self;
        };
        SentBack {
            number: self.number
                || matches!(
                    error,
                    FormatError::NumberUnused { .. } | FormatError::NameUnused { .. }
                ),
            result: self.result || matches!(error, FormatError::ResultMissed { .. }),
            question: self.question
                || matches!(
                    error,
                    FormatError::QuestionRepeated | FormatError::YesNoAsked
                ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_that_sends_an_answer_back_is_kept_once() {
        let error = |error| Parsed::Error { error };
        let none = SentBack::default();
        let cases = [
            (error(FormatError::YesNoAsked), (false, false, true)),
            (error(FormatError::QuestionRepeated), (false, false, true)),
            (
                error(FormatError::ResultMissed { result: "2".into() }),
                (false, true, false),
            ),
            (
                error(FormatError::NumberUnused { number: "3".into() }),
                (true, false, false),
            ),
            (error(FormatError::NoAction), (false, false, false)),
            (Parsed::Final { answer: "4".into() }, (false, false, false)),
        ];
        for (parsed, (number, result, question)) in cases {
            let after = none.after(&parsed);
            assert_eq!(
                after,
                SentBack {
                    number,
                    result,
                    question
                },
                "{parsed:?}"
            );
            // Kept: a later reply does not undo it.
            assert_eq!(after.after(&Parsed::Final { answer: "5".into() }), after);
        }
    }
}
