//! The settings object of `new Agent(settings)` (camelCase, as a page writes it) turned into
//! what a run needs: the agent's config, the client's config and the tool registry. The
//! browser driver only converts the object to JSON and calls [`configure`].

use serde::Deserialize;
use serde_json::Value;

use crate::agent::AgentConfig;
use crate::history::MessageStyle;
use crate::llm::{ClientConfig, ConfigError, Constrained, DEFAULT_TIMEOUT_MS};
use crate::prompt::{FewShot, Lang, PromptConfig};
use crate::tools::{Document, Registry};

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Settings {
    /// Use the scripted demo model instead of a server.
    demo: bool,
    /// Milliseconds between the demo model's streamed pieces (0 = at once).
    demo_delay_ms: u32,
    base_url: String,
    api_key: Option<String>,
    model: String,
    temperature: Option<f64>,
    max_tokens: Option<u32>,
    stream: bool,
    seed: Option<u64>,
    timeout_ms: Option<u32>,
    constrained: Constrained,
    act_first: Option<bool>,
    lang: Lang,
    template: Option<String>,
    system_prompt: Option<String>,
    few_shot: Vec<FewShot>,
    max_steps: Option<f64>,
    max_format_errors: Option<f64>,
    max_repeats: Option<f64>,
    observation_limit: Option<f64>,
    history_rounds: Option<f64>,
    restate_question: bool,
    style: MessageStyle,
    stop: Option<Vec<String>>,
    documents: Option<Vec<Document>>,
    disabled_tools: Vec<String>,
}

/// What a run is configured with.
#[derive(Debug)]
pub struct Configured {
    pub agent: AgentConfig,
    /// `None` for the demo model.
    pub client: Option<ClientConfig>,
    pub demo_delay_ms: u32,
    pub registry: Registry,
}

/// Why settings were refused.
#[derive(Debug, Clone, PartialEq)]
pub enum SettingsError {
    /// A value of the wrong type, or an unknown choice (the JSON reader's message).
    Invalid { message: String },
    /// A limit that is not a whole number of at least 1.
    Limit { name: &'static str, got: f64 },
    /// The server settings cannot work.
    Client(ConfigError),
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Invalid { message } => write!(f, "Invalid settings: {message}"),
            Self::Limit { name, got } => {
                write!(
                    f,
                    "{name} must be a whole number of at least 1 (got {got})."
                )
            }
            Self::Client(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for SettingsError {}

/// What the settings are for: a run, or only listing the server's models (which needs no
/// model name and no agent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Run,
    ListModels,
}

/// The settings object (`null` means the demo model with every default) → the configuration.
pub fn configure(settings: Value, purpose: Purpose) -> Result<Configured, SettingsError> {
    let settings: Settings = if settings.is_null() {
        Settings {
            demo: purpose == Purpose::Run,
            ..Settings::default()
        }
    } else {
        serde_json::from_value(settings).map_err(|e| SettingsError::Invalid {
            message: e.to_string(),
        })?
    };
    let defaults = AgentConfig::default();
    let agent = AgentConfig {
        max_steps: limit("maxSteps", settings.max_steps, defaults.max_steps)?,
        max_format_errors: limit(
            "maxFormatErrors",
            settings.max_format_errors,
            defaults.max_format_errors,
        )?,
        max_repeats: limit("maxRepeats", settings.max_repeats, defaults.max_repeats)?,
        observation_limit: limit(
            "observationLimit",
            settings.observation_limit,
            defaults.observation_limit,
        )?,
        history_rounds: limit(
            "historyRounds",
            settings.history_rounds,
            defaults.history_rounds,
        )?,
        restate_question: settings.restate_question,
        style: settings.style,
        stop: settings.stop.unwrap_or(defaults.stop),
        prompt: PromptConfig {
            lang: settings.lang,
            template: settings.template.filter(|t| !t.trim().is_empty()),
            few_shot: settings.few_shot,
        },
        system_prompt: settings.system_prompt.filter(|p| !p.trim().is_empty()),
        constrained: settings.constrained,
        act_first: settings.act_first.unwrap_or(defaults.act_first),
    };
    let client = if settings.demo && purpose == Purpose::Run {
        None
    } else {
        let client = ClientConfig {
            base_url: settings.base_url.trim().to_string(),
            api_key: settings.api_key.filter(|k| !k.trim().is_empty()),
            model: settings.model.trim().to_string(),
            temperature: settings.temperature,
            max_tokens: settings.max_tokens,
            stream: settings.stream,
            seed: settings.seed,
            timeout_ms: settings.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
        };
        client
            .check(purpose == Purpose::Run)
            .map_err(SettingsError::Client)?;
        Some(client)
    };
    let documents = settings
        .documents
        .unwrap_or_else(crate::tools::default_documents);
    let mut registry = Registry::with_builtins(documents);
    for name in &settings.disabled_tools {
        registry.set_enabled(name, false);
    }
    Ok(Configured {
        agent,
        client,
        demo_delay_ms: settings.demo_delay_ms,
        registry,
    })
}

/// A limit: a whole number of at least 1.
fn limit(name: &'static str, value: Option<f64>, default: usize) -> Result<usize, SettingsError> {
    match value {
        None => Ok(default),
        Some(v) if v >= 1.0 && v.fract() == 0.0 && v <= 1e9 => Ok(v as usize),
        Some(got) => Err(SettingsError::Limit { name, got }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(settings: Value) -> Result<Configured, String> {
        configure(settings, Purpose::Run).map_err(|e| e.to_string())
    }

    #[test]
    fn null_is_the_demo_with_every_default() {
        let c = run(Value::Null).unwrap();
        assert!(c.client.is_none());
        assert_eq!(c.agent, AgentConfig::default());
        assert_eq!(c.registry.specs().len(), 3);
    }

    #[test]
    fn values_are_trimmed_and_blank_texts_mean_unset() {
        let c = run(json!({
            "baseUrl": " http://localhost:8080/v1 ", "model": " m ", "apiKey": "  ",
            "template": " ", "systemPrompt": "\n", "maxSteps": 3, "lang": "zh",
            "disabledTools": ["current_time"], "stop": [],
        }))
        .unwrap();
        let client = c.client.unwrap();
        assert_eq!(
            (client.base_url.as_str(), client.model.as_str()),
            ("http://localhost:8080/v1", "m")
        );
        assert_eq!(client.api_key, None);
        assert_eq!(client.timeout_ms, DEFAULT_TIMEOUT_MS);
        assert_eq!(c.agent.prompt.template, None);
        assert_eq!(c.agent.system_prompt, None);
        assert_eq!(c.agent.max_steps, 3);
        assert_eq!(c.agent.prompt.lang, Lang::Zh);
        assert!(c.agent.stop.is_empty());
        assert_eq!(c.registry.specs().len(), 2);
    }

    #[test]
    fn each_refusal_says_which_setting_and_why() {
        let url = "http://localhost:8080/v1";
        let cases = [
            (
                json!({"demo": true, "maxSteps": 0}),
                "maxSteps must be a whole number of at least 1 (got 0).",
            ),
            (
                json!({"demo": true, "historyRounds": 1.5}),
                "historyRounds must be a whole number of at least 1 (got 1.5).",
            ),
            (
                json!({"demo": true, "stream": "yes"}),
                "Invalid settings: invalid type: string \"yes\", expected a boolean",
            ),
            (
                json!({"demo": true, "lang": "fr"}),
                "Invalid settings: unknown variant `fr`, expected `en` or `zh`",
            ),
            (
                json!({"baseUrl": url}),
                &ConfigError::EmptyModel.to_string(),
            ),
            (json!({}), &ConfigError::EmptyBaseUrl.to_string()),
        ];
        for (settings, want) in cases {
            assert_eq!(run(settings.clone()).unwrap_err(), want, "{settings}");
        }
    }

    #[test]
    fn listing_models_needs_a_server_but_no_model() {
        let list = |s: Value| configure(s, Purpose::ListModels).map(|c| c.client);
        let client = list(json!({"baseUrl": "http://localhost:8080/v1"})).unwrap();
        assert_eq!(client.unwrap().model, "");
        // Even with `demo` set, a listing asks the server it names.
        assert_eq!(
            list(json!({"demo": true})).unwrap_err(),
            SettingsError::Client(ConfigError::EmptyBaseUrl)
        );
    }
}
