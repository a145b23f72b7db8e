//! Values across the boundary: Rust to JS and back through JSON, and the one place errors
//! become JS values ([`js_error`]).

use super::*;
use reactloop::lang::Text;
use reactloop::sentences;

/// Rust → JS through JSON text and `JSON.parse`. serde_json's text writer is the one serde
/// format the wasm builds each type's `Serialize` for: where the core needs a `Value` it reads
/// one back from that text ([`reactloop::view::value_of`]), so no second format doubles the code.
pub(super) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, serde_json::Error> {
    let text = serde_json::to_string(value)?;
    // serde_json writes valid JSON, so this cannot fail.
    Ok(JSON::parse(&text).unwrap_or(JsValue::NULL))
}

/// The one place errors become JS values: an `Error` with the message, plus `hint` (the fix,
/// `{en, zh}`) and the typed `detail` when there are any.
pub(super) fn js_error(
    message: impl Display,
    hint: Option<JsValue>,
    detail: Option<JsValue>,
) -> JsValue {
    let error = js_sys::Error::new(&message.to_string());
    if let Some(hint) = hint {
        let _ = Reflect::set(&error, &"hint".into(), &hint);
    }
    if let Some(detail) = detail {
        let _ = Reflect::set(&error, &"detail".into(), &detail);
    }
    error.into()
}

pub(super) fn llm_error(error: &LlmError) -> JsValue {
    let origin = timer::page_origin();
    let js = refused(sentences::llm_error(error), to_js(error).ok());
    if let Some(hint) = sentences::hint(error, &origin).and_then(|hint| to_js(&hint).ok()) {
        let _ = Reflect::set(&js, &"hint".into(), &hint);
    }
    if error.private_network(&origin) {
        let _ = Reflect::set(&js, &"privateNetwork".into(), &true.into());
    }
    js
}

/// JS → Rust through `JSON.stringify` and serde_json's `Value`, read by the core's reader of
/// the type (`reactloop::page`), as a trace is read. Numbers JSON cannot hold (NaN,
/// ±Infinity) are refused by name instead of silently becoming null; a BigInt that is a safe
/// integer passes as a number.
pub(super) fn from_js<T>(
    value: JsValue,
    what: Given,
    read: fn(serde_json::Value) -> Result<T, serde_json::Error>,
) -> Result<T, JsValue> {
    read(json_of(value, what)?).map_err(|e| invalid(what, &e))
}

/// A refusal of a value the page passed, in both languages.
fn invalid(what: Given, message: &dyn Display) -> JsValue {
    misused(Misuse::Invalid {
        what,
        message: message.to_string(),
    })
}

/// A JS value as JSON (see [`from_js`]).
pub(super) fn json_of(value: JsValue, what: Given) -> Result<serde_json::Value, JsValue> {
    let invalid = |message: &dyn Display| invalid(what, message);
    // The replacer throws to stop `JSON.stringify`; the number it stopped at is kept here, so
    // that the refusal is said in both languages.
    let bad = Rc::new(Cell::new(None));
    let found = Rc::clone(&bad);
    let replacer = Closure::<dyn FnMut(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
        move |key: JsValue, value: JsValue| {
            json_number(value).map_err(|got| {
                found.set(Some(got));
                key
            })
        },
    );
    let text = JSON::stringify_with_replacer(&value, replacer.as_ref()).map_err(|e| {
        match bad.get() {
            Some(got) => misused(Misuse::NotJsonNumber {
                what,
                // `JSON.stringify` calls the replacer with the key "" for the value itself.
                key: e.as_string().filter(|key| !key.is_empty()),
                got,
            }),
            None => invalid(&client::js_message(&e)),
        }
    })?;
    // `undefined`, a function or a symbol has no JSON text; it reads as null.
    let text = text.as_string().unwrap_or_else(|| "null".to_string());
    serde_json::from_str(&text).map_err(|e| invalid(&e))
}

/// The value `JSON.stringify` is to write for `value`: a BigInt that is a safe integer as a
/// number; a number JSON cannot hold (NaN, ±Infinity, a larger BigInt) refused.
fn json_number(value: JsValue) -> Result<JsValue, BadNumber> {
    if value.is_bigint() {
        return match i64::try_from(value.unchecked_into::<js_sys::BigInt>()) {
            Ok(n) if n.unsigned_abs() < 1 << 53 => Ok((n as f64).into()),
            _ => Err(BadNumber::BigInt),
        };
    }
    match value.as_f64() {
        Some(n) if n.is_nan() => Err(BadNumber::NaN),
        Some(f64::INFINITY) => Err(BadNumber::Infinity),
        Some(f64::NEG_INFINITY) => Err(BadNumber::NegativeInfinity),
        _ => Ok(value),
    }
}

/// The settings object through the core's [`settings::configure`].
pub(super) fn configure(settings: JsValue, purpose: Purpose) -> Result<Configured, JsValue> {
    let settings = if settings.is_undefined() {
        serde_json::Value::Null
    } else {
        json_of(settings, Given::Settings)?
    };
    settings::configure(settings, purpose).map_err(|e| {
        let detail = match &e {
            SettingsError::Client(e) => to_js(e).ok(),
            _ => None,
        };
        refused(sentences::settings_error(&e), detail)
    })
}

/// A call the API refuses at this moment, said in every language of the page.
pub(super) fn misused(misuse: Misuse) -> JsValue {
    refused(sentences::misuse(&misuse), None)
}

/// A refusal of what the page gave (settings, a tool, a trace file): the English message, and
/// `text` with it in every language of the page.
pub(super) fn refused(said: Text, detail: Option<JsValue>) -> JsValue {
    let js = js_error(&said.en, None, detail);
    if let Ok(text) = to_js(&said) {
        let _ = Reflect::set(&js, &"text".into(), &text);
    }
    js
}
