//! reactloop: a ReAct agent loop with a pure core (no I/O) and a browser driver.
//!
//! The core modules never touch the network, the clock or wasm types: the agent is a state
//! machine that asks its driver to call the model or run a tool, and is fed the results.

pub mod parse;
pub mod tools;
