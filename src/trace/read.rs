//! Loading a saved trace: its version and size checked first, then each struct read field by
//! field (a struct literal, so a new field does not compile without its line here).

use serde_json::{Error, Value};

use super::{ModelReply, Observation, Step, Trace, TraceError, TRACE_VERSION};
use crate::fields::{via_value, Fields, Read};

impl Trace {
    /// Loads a saved trace, checking its version first so a newer file gets a clear message.
    /// A file over [`crate::limits::MAX_TRACE_BYTES`] or with more than
    /// [`crate::limits::MAX_TRACE_STEPS`] steps is refused, with a sentence naming the limit,
    /// before it is turned into a trace (100,000 steps took 28 s and 2.7 GB in a browser).
    pub fn from_json(text: &str) -> Result<Trace, TraceError> {
        if let Some(message) = crate::limits::trace_size_problem(text.len()) {
            return Err(TraceError::Invalid { message });
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| TraceError::NotJson {
                message: e.to_string(),
            })?;
        let version = value.get("version").ok_or_else(|| TraceError::Invalid {
            message: "the \"version\" field is missing".to_string(),
        })?;
        // Versions start at 1 (no trace was ever written with 0); a string, a fraction or an
        // exponent is no version either. Say what was found, cut short: it may be a whole file.
        let version = version.as_u64().filter(|&v| v >= 1).ok_or_else(|| {
            let mut found = crate::fields::json_text(version);
            if let Some((end, _)) = found.char_indices().nth(40) {
                found.replace_range(end.., "…");
            }
            TraceError::Invalid {
                message: format!(
                    "the \"version\" field must be a positive whole number written in digits, \
                     like 1; found {found}"
                ),
            }
        })?;
        if version > u64::from(TRACE_VERSION) {
            return Err(TraceError::NewerVersion {
                found: u32::try_from(version).unwrap_or(u32::MAX),
                supported: TRACE_VERSION,
            });
        }
        let steps = value.get("steps").and_then(serde_json::Value::as_array);
        if let Some(message) = steps.and_then(|s| crate::limits::trace_steps_problem(s.len())) {
            return Err(TraceError::Invalid { message });
        }
        Read::read(value).map_err(|e| TraceError::Invalid {
            message: e.to_string(),
        })
    }
}

via_value! {
    Trace => trace,
    Step => step,
    ModelReply => model_reply,
    Observation => observation,
}

fn trace(value: Value) -> Result<Trace, Error> {
    let mut f = Fields::object(value)?;
    Ok(Trace {
        version: f.get("version")?,
        generator: f.opt("generator")?,
        model: f.opt("model")?,
        question: f.get("question")?,
        server: f.opt("server")?,
        system_prompt: f.get("system_prompt")?,
        tools: f.get("tools")?,
        config: f.get("config")?,
        steps: f.get("steps")?,
        outcome: f.opt("outcome")?,
    })
}

fn step(value: Value) -> Result<Step, Error> {
    let mut f = Fields::object(value)?;
    Ok(Step {
        index: f.get("index")?,
        request: f.get("request")?,
        reply: f.opt("reply")?,
        parse: f.opt("parse")?,
        call: f.opt("call")?,
        observation: f.opt("observation")?,
        guards: f.get("guards")?,
        error: f.opt("error")?,
        plan: f.opt("plan")?,
        summary: f.opt("summary")?,
    })
}

fn model_reply(value: Value) -> Result<ModelReply, Error> {
    let mut f = Fields::object(value)?;
    Ok(ModelReply {
        text: f.or("text", String::new())?,
        usage: f.or("usage", Default::default())?,
        elapsed_ms: f.opt("elapsed_ms")?,
        edited: f.or("edited", false)?,
    })
}

fn observation(value: Value) -> Result<Observation, Error> {
    let mut f = Fields::object(value)?;
    Ok(Observation {
        text: f.get("text")?,
        source: f.get("source")?,
        full_chars: f.get("full_chars")?,
        elapsed_ms: f.opt("elapsed_ms")?,
        edited: f.get("edited")?,
    })
}
