//! The languages of the interface and of the prompts, and what the other modules need to know
//! about Chinese text. Near the bottom: it imports only the JSON readers (`fields`).

use crate::fields::units;
use serde::Serialize;

units! {
    /// The language of the prompt, the model's feedback and the sentences a reader sees.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub enum Lang {
        #[default]
        En,
        Zh,
    }
}

/// One sentence in each interface language (what a reader is shown: `crate::sentences`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

/// A rough token count, the same method for every prompt we compare: each CJK character
/// counts as one token, and other text as one token per 4 characters (rounded up per run
/// of non-CJK text). Real tokenizers differ by model; this is for comparing sizes.
pub fn estimate_tokens(text: &str) -> usize {
    let mut tokens = 0;
    let mut run: usize = 0;
    for c in text.chars() {
        if is_cjk(c) {
            tokens += 1 + run.div_ceil(4);
            run = 0;
        } else {
            run += 1;
        }
    }
    tokens + run.div_ceil(4)
}

/// A Chinese character (not CJK punctuation or full-width forms).
pub fn is_cjk_ideograph(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_counts_cjk_per_char_and_latin_per_four() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("中文"), 2);
        assert_eq!(estimate_tokens("ab中"), 2);
    }
}
