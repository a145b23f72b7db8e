//! reactloop: a ReAct agent loop with a pure core (no I/O) and a browser driver.
//!
//! The core modules never touch the network, the clock or wasm types: the agent is a state
//! machine that asks its driver ([`agent::Next`]) to find out what the server is, call the
//! model or run a tool, and is fed the results. The modules form layers, each using only the
//! ones above it in this list (`tests/layers.rs` keeps it so):
//!
//! - [`lang`] (languages, the `{en, zh}` text, CJK helpers), `fields` (hand-written readers),
//!   [`limits`], [`strategy`] (ReAct, Act only, chain of thought, plan, reflect).
//! - [`tools`] (the registry, dispatch and the built-in tools), [`parse`] (a reply → an
//!   action, an answer or a format error).
//! - [`llm`] (requests, replies, streaming and errors, without I/O), [`told`] (everything the
//!   model is told, in English and Chinese).
//! - [`prompt`] (the system prompt), [`history`] (each request's messages).
//! - [`reading`] (what a reply means in its run), [`demo`] (a scripted model), [`config`].
//! - [`trace`] (the record of a run and its reader).
//! - [`agent`] (the state machine).
//! - [`settings`] (the page's settings → config, model, tools).
//! - [`sentences`] (everything a reader is shown, in English and Chinese).
//! - [`view`] (a step or a trace ready to draw), then [`events`] (a run's transitions as events).
//! - [`step`] (one transition, the same for every driver: the [`step::Driver`] trait), then
//!   [`drive`] (the synchronous native driver).
//!
//! The browser driver and the JS API are a crate of their own (`wasm/`, `reactloop-wasm`), so
//! Cargo keeps the direction: the glue uses the core, never the reverse.

pub mod agent;
pub mod ask;
pub mod config;
pub mod defaults;
pub mod demo;
pub mod drive;
pub mod events;
mod fields;
pub mod grade;
pub mod history;
pub mod lang;
pub mod limits;
pub mod llm;
mod lower;
mod math;
pub mod numbers;
mod order;
pub mod page;
pub mod parse;
pub mod prompt;
pub mod reading;
pub mod sentences;
pub mod settings;
pub mod step;
pub mod strategy;
pub mod told;
pub mod tools;
pub mod trace;
pub mod view;
