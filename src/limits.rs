//! Size limits on what reactloop reads from outside: model replies and trace files.
//!
//! Each is far above anything a real run produces, and low enough that a broken or hostile
//! server, or a damaged file, cannot make the page buffer without end or freeze while it
//! loads. Going over one is an error that names the limit (see [`crate::llm::LlmError`] and
//! [`crate::trace::Trace::from_json`]); nothing is cut silently. The README lists them.

/// The most bytes read from one reply: a non-streamed body, a model list, a JSON body sent
/// instead of a stream, and the text of a streamed reply. A chat reply is a few kilobytes;
/// 4 MB is about a million tokens.
pub const MAX_REPLY_BYTES: usize = 4_000_000;

/// The longest line, and the largest event, of an event stream. A stream chunk is a few
/// hundred bytes; a "line" of a megabyte is a server (or a proxy) that never ends it.
pub const MAX_STREAM_LINE_BYTES: usize = 1_000_000;

/// The largest trace file `loadTrace` reads. A step of a real run is a few kilobytes (the
/// request holds the history): the shipped recordings are 5–26 KB.
pub const MAX_TRACE_BYTES: usize = 20_000_000;

/// The most steps a loaded trace may have. The agent's step limit defaults to 8; a trace with
/// thousands of steps is not a recording of a run, and loading it would freeze the page.
pub const MAX_TRACE_STEPS: usize = 2_000;

/// The limits as `limits()` gives them to a page (`interface Limits` of
/// `wasm/src/types.d.ts`).
pub fn for_page() -> serde_json::Value {
    serde_json::json!({
        "replyBytes": MAX_REPLY_BYTES,
        "streamLineBytes": MAX_STREAM_LINE_BYTES,
        "traceBytes": MAX_TRACE_BYTES,
        "traceSteps": MAX_TRACE_STEPS,
    })
}

/// `4_000_000` → "4 MB", `1_500_000` → "1.5 MB" (decimal megabytes, as the limits are set).
pub fn megabytes(bytes: usize) -> String {
    format!(
        "{} MB",
        crate::numbers::tenths((bytes as u64 + 50_000) / 100_000)
    )
}

/// Why a trace file of `bytes` bytes is refused, or `None` when its size is fine.
pub fn trace_size_problem(bytes: usize) -> Option<String> {
    (bytes > MAX_TRACE_BYTES).then(|| {
        let limit = megabytes(MAX_TRACE_BYTES);
        // Just over the limit, megabytes round to the limit itself.
        let size = match megabytes(bytes) {
            size if size == limit => format!("{bytes} bytes"),
            size => size,
        };
        format!("the file is {size}, more than the {limit} a trace may be (a real run is a few dozen KB)")
    })
}

/// Why a trace of `steps` steps is refused, or `None` when that many is fine.
pub fn trace_steps_problem(steps: usize) -> Option<String> {
    (steps > MAX_TRACE_STEPS).then(|| {
        let default = crate::defaults::MAX_STEPS.default;
        format!(
            "it has {steps} steps, and a trace may have at most {MAX_TRACE_STEPS} (a run stops \
             at its step limit, {default} by default)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn megabytes_are_written_short() {
        assert_eq!(megabytes(MAX_REPLY_BYTES), "4 MB");
        assert_eq!(megabytes(MAX_STREAM_LINE_BYTES), "1 MB");
        assert_eq!(megabytes(MAX_TRACE_BYTES), "20 MB");
        assert_eq!(megabytes(25_340_000), "25.3 MB");
        assert_eq!(megabytes(0), "0 MB");
    }

    #[test]
    fn trace_limits_name_the_limit_and_what_was_found() {
        assert_eq!(trace_size_problem(MAX_TRACE_BYTES), None);
        let size = trace_size_problem(25_340_000).unwrap();
        assert!(size.contains("25.3 MB, more than the 20 MB"), "{size}");
        let just = trace_size_problem(MAX_TRACE_BYTES + 1).unwrap();
        assert!(
            just.starts_with("the file is 20000001 bytes, more than"),
            "{just}"
        );
        assert_eq!(trace_steps_problem(MAX_TRACE_STEPS), None);
        let steps = trace_steps_problem(100_000).unwrap();
        assert!(
            steps.contains("100000 steps") && steps.contains("at most 2000"),
            "{steps}"
        );
    }
}
