//! reactloop: a ReAct agent loop with a pure core (no I/O) and a browser driver.
//!
//! The core modules never touch the network, the clock or wasm types: the agent is a state
//! machine that asks its driver to call the model or run a tool, and is fed the results.
//!
//! - [`lang`]: the languages, and what the other modules need to know about Chinese text.
//! - [`parse`]: one model reply → an action, a final answer or format feedback.
//! - [`tools`]: the registry, argument normalisation and the built-in tools.
//! - [`told`]: what the model is told when a reply or a call goes wrong, in English and Chinese.
//! - [`prompt`]: the system prompt generated from the registry.
//! - [`history`]: the messages of each request, append-only between block trims.
//! - [`reading`]: what a parsed reply means in its run (an answer, a call or a mistake).
//! - [`agent`]: the state machine, its guards and the trace.
//! - [`strategy`]: the loop variants (ReAct, Act-only, chain of thought).
//! - [`settings`]: the page's settings object → the agent's config, the client's and the tools.
//! - [`sentences`]: the sentences a page shows, in English and Chinese.
//! - [`view`]: a step or a trace with those sentences and UTF-16 spans, ready to draw.
//! - [`llm`]: OpenAI-compatible requests, responses, streaming and errors, without I/O.
//! - [`demo`]: a scripted model for offline use.
//! - [`drive`]: a synchronous driver for native callers.
//! - [`events`]: a run whose transitions return the events they caused, ready to draw.
//! - [`limits`]: the size limits on model replies and trace files.
//! - `wasm` (wasm32 only): the browser driver and the JS API.

pub mod agent;
pub mod config;
pub mod demo;
pub mod drive;
pub mod events;
mod fields;
pub mod history;
pub mod lang;
pub mod limits;
pub mod llm;
pub mod parse;
pub mod prompt;
pub mod reading;
pub mod sentences;
pub mod settings;
pub mod strategy;
pub mod told;
pub mod tools;
pub mod trace;
pub mod view;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
