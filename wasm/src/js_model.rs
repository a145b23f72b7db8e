//! A model that the page supplies as a JavaScript function (`agent.useModel(fn)`): the
//! in-page engine of `www/inpage.js` (llama.cpp in wasm, in a Worker), or anything else that
//! answers a chat request. This file only converts: the request body is the core's
//! ([`reactloop::ask::in_page_body`]: messages, stop sequences, token limit, the grammar the agent
//! chose), and what comes back becomes a [`Completion`] or an [`LlmError`].
//!
//! `fn(body, {signal, onDelta})` returns a promise of `{text, usage}`; it calls `onDelta(text)`
//! for each streamed piece and should stop when `signal` aborts. Stop does not wait for it:
//! the call is abandoned at once and its late pieces are dropped.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortController;

use super::client::{js_message, Completion};
use super::convert::json_of;
use super::to_js;
use reactloop::limits::MAX_REPLY_BYTES;
use reactloop::llm::{LlmError, Oversized, PageModelCode};
use reactloop::page::FunctionReply;
use reactloop::sentences::Given;

/// The pieces streamed so far, and the resolver of the promise the driver waits on, which
/// it resolves with `woken`, so the driver can tell it from the model's answer.
struct Pipe {
    pieces: Vec<String>,
    wake: Option<Function>,
    woken: JsValue,
}

/// Asks the page's model function and streams its pieces into `on_delta`.
pub async fn complete(
    model: &Function,
    body: &serde_json::Value,
    abort: &AbortController,
    stopped: &Promise,
    on_delta: &dyn Fn(&str),
) -> Result<Completion, LlmError> {
    let failed = |detail: String| LlmError::PageModel {
        code: PageModelCode::Other,
        detail,
    };
    let woken: JsValue = Object::new().into();
    let pipe = Rc::new(RefCell::new(Pipe {
        pieces: Vec::new(),
        wake: None,
        woken: woken.clone(),
    }));
    let sink = pipe.clone();
    let on_piece = Closure::<dyn FnMut(JsValue)>::new(move |text: JsValue| {
        if let Some(text) = text.as_string() {
            let mut pipe = sink.borrow_mut();
            pipe.pieces.push(text);
            if let Some(wake) = pipe.wake.take() {
                let _ = wake.call1(&JsValue::NULL, &pipe.woken);
            }
        }
    });
    let options = Object::new();
    let _ = Reflect::set(&options, &"signal".into(), &abort.signal());
    let _ = Reflect::set(&options, &"onDelta".into(), on_piece.as_ref());
    let body = to_js(body).map_err(|e| failed(e.to_string()))?;
    let returned = model
        .call2(&JsValue::NULL, &body, &options)
        .map_err(|e| thrown(&e))?;
    let result = Promise::resolve(&returned);
    let mut text = String::new();
    // Hands the pieces that came in (also before the first wait) to `on_delta`.
    let drain = |text: &mut String| -> Result<(), LlmError> {
        for piece in std::mem::take(&mut pipe.borrow_mut().pieces) {
            if text.len() + piece.len() > MAX_REPLY_BYTES {
                abort.abort();
                return Err(LlmError::TooLarge {
                    part: Oversized::StreamedText,
                    limit_bytes: MAX_REPLY_BYTES,
                });
            }
            on_delta(&piece);
            text.push_str(&piece);
        }
        Ok(())
    };
    let reply = loop {
        drain(&mut text)?;
        // After Stop the text so far has been handed on (the trace keeps it); the call is left.
        if abort.signal().aborted() {
            return Err(LlmError::Aborted);
        }
        let wake = Promise::new(&mut |resolve, _| pipe.borrow_mut().wake = Some(resolve));
        let race = Promise::race(&Array::of3(&result, &wake, stopped));
        match JsFuture::from(race).await {
            Ok(value) if value == woken => continue,
            Ok(_) if abort.signal().aborted() => continue,
            Ok(value) => {
                drain(&mut text)?;
                break value;
            }
            Err(_) if abort.signal().aborted() => continue,
            Err(error) => return Err(thrown(&error)),
        }
    };
    // The pieces are what the person saw; a function that streamed nothing gives its text.
    // A reply of the wrong shape is said in serde's words; the core says what failed around it.
    let reply = json_of(reply, Given::ModelReply).map_err(|e| failed(js_message(&e)))?;
    let reply = FunctionReply::read(reply).map_err(|e| failed(e.to_string()))?;
    if text.is_empty() {
        text = reply.text.unwrap_or_default();
        if text.len() > MAX_REPLY_BYTES {
            return Err(LlmError::TooLarge {
                part: Oversized::StreamedText,
                limit_bytes: MAX_REPLY_BYTES,
            });
        }
        if !text.is_empty() {
            on_delta(&text);
        }
    }
    Ok(Completion {
        text,
        usage: reply.usage,
        unfinished: false,
    })
}

/// What the page's function threw or rejected with: its `code` (the in-page engine sets one,
/// and the core words it), and its `detail`, or its message when it gave no known code.
fn thrown(error: &JsValue) -> LlmError {
    let field = |name: &str| {
        Reflect::get(error, &name.into())
            .ok()
            .and_then(|v| v.as_string())
    };
    let code = field("code");
    if code.as_deref() == Some("aborted") {
        return LlmError::Aborted;
    }
    let code = code.map_or(PageModelCode::Other, |c| PageModelCode::from_code(&c));
    let detail = match (field("detail"), code) {
        (Some(detail), _) => detail,
        (None, PageModelCode::Other) => js_message(error),
        (None, _) => String::new(),
    };
    LlmError::PageModel { code, detail }
}
