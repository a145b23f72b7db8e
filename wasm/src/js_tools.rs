//! Tools written in JavaScript by the page. Whatever such a tool does — throw, reject, hang,
//! return an object, a circular object or nothing — becomes an observation.
//!
//! `run(args, {signal})` is called on the page's thread, so a synchronous hang there cannot be
//! interrupted; the signal aborts once the agent stops waiting (an answer, a timeout, Stop), so
//! a tool that runs elsewhere can be stopped. `www/worker-tool.js` runs tool code in a Worker
//! that it terminates on its own timeout or on that signal, and rejects with a `TimeoutError`.

use js_sys::{Array, Function, Object, Promise, Reflect, JSON};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortController;

use super::{client::js_message, timer, to_js};
use reactloop::tools::{ToolError, ToolSpec};

pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;
/// Results longer than this are cut before they reach the core, which truncates again to
/// the observation limit; this only bounds what crosses from JS.
pub const MAX_RESULT_CHARS: usize = 100_000;

pub struct JsTool {
    pub spec: ToolSpec,
    pub run: Function,
    pub timeout_ms: u32,
}

/// Calls the tool with its arguments and waits for its result, its timeout, or `abort`.
pub async fn call(
    tool: &JsTool,
    args: &serde_json::Value,
    abort: &Promise,
) -> Result<String, ToolError> {
    let tool_name = || tool.spec.name.clone();
    let args = to_js(args).map_err(|e| ToolError::ArgumentsNotPassed {
        tool: tool_name(),
        message: e.to_string(),
    })?;
    let done = StopWhenDone(AbortController::new().map_err(|e| ToolError::External {
        message: format!("{}: {}", tool.spec.name, js_message(&e)),
    })?);
    let options = Object::new();
    let _ = Reflect::set(&options, &"signal".into(), &done.0.signal());
    let returned = tool
        .run
        .call2(&JsValue::NULL, &args, &options)
        .map_err(|e| ToolError::ScriptThrew {
            tool: tool_name(),
            message: js_message(&e),
        })?;
    let timed_out = Object::new();
    let timer = timer::resolve_after(tool.timeout_ms, timed_out.clone().into());
    let race = Promise::race(&Array::of3(&Promise::resolve(&returned), &timer, abort));
    let value = JsFuture::from(race).await.map_err(|e| {
        let message = js_message(&e);
        match is_timeout(&e) {
            // The tool's own limit, e.g. worker-tool.js, which has stopped it.
            true => ToolError::ScriptTimedOut {
                tool: tool_name(),
                message,
            },
            false => ToolError::ScriptRejected {
                tool: tool_name(),
                message,
            },
        }
    })?;
    if value == JsValue::from(timed_out) {
        return Err(ToolError::NoAnswerWithin {
            tool: tool_name(),
            ms: tool.timeout_ms,
        });
    }
    let text = as_text(&value).map_err(|message| ToolError::NotText {
        tool: tool_name(),
        message,
    })?;
    Ok(cap(text))
}

/// Aborts the signal the tool was given once the agent no longer waits for it.
struct StopWhenDone(AbortController);

impl Drop for StopWhenDone {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn is_timeout(error: &JsValue) -> bool {
    error
        .dyn_ref::<js_sys::Error>()
        .is_some_and(|e| e.name() == "TimeoutError")
}

/// Strings pass as they are; other values are described or written as JSON (or why not).
fn as_text(value: &JsValue) -> Result<String, String> {
    if let Some(s) = value.as_string() {
        return Ok(s);
    }
    if value.is_undefined() || value.is_null() {
        // The core says so in the run's language.
        return Ok(String::new());
    }
    if let Some(n) = value.as_f64() {
        return Ok(reactloop::tools::format_number(n));
    }
    match JSON::stringify(value) {
        Ok(s) => Ok(s.as_string().unwrap_or_default()),
        Err(e) => Err(js_message(&e)),
    }
}

fn cap(text: String) -> String {
    let total = text.chars().count();
    if total > MAX_RESULT_CHARS {
        reactloop::agent::truncate_chars(&text, MAX_RESULT_CHARS, total)
    } else {
        text
    }
}
