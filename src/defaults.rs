//! Every whole-number setting's default, in one place: the core's configuration starts from
//! them, the page fills its Limits inputs from them (`settingDefaults()` in the wasm), and
//! tests check the page and the README's settings table against them (`tests/defaults.rs`).
//! Each is at least 1 (`settings::limit` refuses less).

/// A whole-number setting of `new Agent(settings)`: its key and default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Whole {
    pub key: &'static str,
    pub default: u32,
}

pub const MAX_STEPS: Whole = Whole {
    key: "maxSteps",
    default: 8,
};
pub const MAX_FORMAT_ERRORS: Whole = Whole {
    key: "maxFormatErrors",
    default: 3,
};
pub const MAX_REPEATS: Whole = Whole {
    key: "maxRepeats",
    default: 3,
};
/// Characters of one Observation the model is sent.
pub const OBSERVATION_LIMIT: Whole = Whole {
    key: "observationLimit",
    default: 500,
};
pub const HISTORY_ROUNDS: Whole = Whole {
    key: "historyRounds",
    default: 6,
};
/// One model request: a small model on a busy CPU takes its time over a long prompt.
pub const TIMEOUT_MS: Whole = Whole {
    key: "timeoutMs",
    default: 120_000,
};

pub const WHOLE: [Whole; 6] = [
    MAX_STEPS,
    MAX_FORMAT_ERRORS,
    MAX_REPEATS,
    OBSERVATION_LIMIT,
    HISTORY_ROUNDS,
    TIMEOUT_MS,
];

/// The defaults as `settingDefaults()` gives them to a page: `{maxSteps: 8, …}`.
pub fn for_page() -> serde_json::Value {
    let map: serde_json::Map<String, serde_json::Value> = (WHOLE.iter())
        .map(|w| (w.key.to_string(), w.default.into()))
        .collect();
    map.into()
}
