//! The elementary functions the tools use (the calculator's, and the logarithm of the document
//! search's scores). In the browser they are the JavaScript engine's `Math`: V8's and
//! SpiderMonkey's are fdlibm ports, as std's are of musl's libm, and the wasm then carries no
//! second copy of them (6 KB gzipped). Natively std's. `clippy.toml` keeps std's out of the
//! rest of the crate.
#![allow(clippy::disallowed_methods)]

#[cfg(target_arch = "wasm32")]
pub(crate) use js_sys::Math::{cos, exp, log as ln, log10, pow, sin, tan};

#[cfg(not(target_arch = "wasm32"))]
mod native {
    pub(crate) fn sin(x: f64) -> f64 {
        x.sin()
    }
    pub(crate) fn cos(x: f64) -> f64 {
        x.cos()
    }
    pub(crate) fn tan(x: f64) -> f64 {
        x.tan()
    }
    pub(crate) fn exp(x: f64) -> f64 {
        x.exp()
    }
    pub(crate) fn ln(x: f64) -> f64 {
        x.ln()
    }
    pub(crate) fn log10(x: f64) -> f64 {
        x.log10()
    }
    pub(crate) fn pow(base: f64, exponent: f64) -> f64 {
        base.powf(exponent)
    }
}
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use native::*;
