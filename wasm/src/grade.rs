//! The core's grader for Compare and the benchmark (`reactloop::grade`): conversions only.

use super::*;
use js_sys::JsString;
use reactloop::grade::{Expect, Grader, NoExpectation};

/// The browser's NFKC: its tables are already there.
const GRADER: Grader = Grader::new(|text| JsString::from(text).normalize("NFKC").into());

/// Whether `answer` holds `expected`, a person's text: null when nothing is expected.
#[wasm_bindgen(js_name = gradeText, unchecked_return_type = "boolean | null")]
pub fn grade_text(answer: Option<String>, expected: Option<String>) -> JsValue {
    GRADER
        .grade_text(&answer.unwrap_or_default(), &expected.unwrap_or_default())
        .map_or(JsValue::NULL, JsValue::from_bool)
}

/// Whether `answer` answers `task` (`{id, expect}`, a benchmark task); only a string is an
/// answer. Throws for a task that expects nothing.
#[wasm_bindgen(js_name = checkAnswer)]
pub fn check_answer(
    #[wasm_bindgen(unchecked_param_type = "{ id?: string, expect: Expect }")] task: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] answer: JsValue,
) -> Result<bool, JsValue> {
    let expect = Reflect::get(&task, &"expect".into()).unwrap_or(JsValue::UNDEFINED);
    let expect: Expect = if expect.is_undefined() || expect.is_null() {
        Expect::default()
    } else {
        from_js(expect, Given::Expectation, Expect::read)?
    };
    GRADER
        .check(&expect, &answer.as_string().unwrap_or_default())
        .map_err(|NoExpectation| {
            let id = Reflect::get(&task, &"id".into()).unwrap_or(JsValue::UNDEFINED);
            misused(Misuse::NoExpectation {
                task: id.as_string().unwrap_or_default(),
            })
        })
}

/// Text as the grader compares it (NFKC, lower case, no thousands separators, …).
#[wasm_bindgen(js_name = normalizeText)]
pub fn normalize_text(text: &str) -> String {
    GRADER.normalize(text)
}

/// Every number written in `text`, in order, as the grader reads them.
#[wasm_bindgen(js_name = findNumbers, unchecked_return_type = "number[]")]
pub fn find_numbers(text: &str) -> js_sys::Array {
    GRADER
        .find_numbers(text)
        .into_iter()
        .map(JsValue::from_f64)
        .collect()
}
