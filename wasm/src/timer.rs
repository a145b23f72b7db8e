//! Timers and page facts from the JS global scope, so the module works in a window, a
//! worker or Node alike.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortController;

fn global_fn(name: &str) -> Option<Function> {
    Reflect::get(&js_sys::global(), &name.into())
        .ok()?
        .dyn_into::<Function>()
        .ok()
}

fn set_timeout(callback: &Function, ms: u32) -> JsValue {
    global_fn("setTimeout")
        .and_then(|f| f.call2(&JsValue::NULL, callback, &ms.into()).ok())
        .unwrap_or(JsValue::NULL)
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: u32) {
    let promise = Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

/// A promise that resolves after `ms` milliseconds with `value`.
pub fn resolve_after(ms: u32, value: JsValue) -> Promise {
    Promise::new(&mut |resolve, _| {
        let value = value.clone();
        let callback = Closure::once_into_js(move || {
            let _ = resolve.call1(&JsValue::NULL, &value);
        });
        set_timeout(callback.unchecked_ref(), ms);
    })
}

/// Aborts a controller when it fires; cleared when dropped.
pub struct Timeout {
    handle: JsValue,
    fired: Rc<Cell<bool>>,
    _callback: Closure<dyn FnMut()>,
}

impl Timeout {
    pub fn start(ms: u32, abort: &AbortController) -> Timeout {
        let fired = Rc::new(Cell::new(false));
        let (flag, controller) = (fired.clone(), abort.clone());
        let callback = Closure::<dyn FnMut()>::new(move || {
            flag.set(true);
            controller.abort();
        });
        let handle = set_timeout(callback.as_ref().unchecked_ref(), ms);
        Timeout {
            handle,
            fired,
            _callback: callback,
        }
    }

    pub fn fired(&self) -> bool {
        self.fired.get()
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        if let Some(clear) = global_fn("clearTimeout") {
            let _ = clear.call1(&JsValue::NULL, &self.handle);
        }
    }
}

/// This page's origin (`location.origin`), or "" where there is none (Node).
pub fn page_origin() -> String {
    Reflect::get(&js_sys::global(), &"location".into())
        .and_then(|l| Reflect::get(&l, &"origin".into()))
        .ok()
        .and_then(|o| o.as_string())
        .unwrap_or_default()
}

pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Minutes east of UTC, as the built-in current_time tool expects.
pub fn utc_offset_minutes() -> i32 {
    -(js_sys::Date::new_0().get_timezone_offset() as i32)
}
