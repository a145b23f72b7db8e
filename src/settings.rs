//! The settings object of `new Agent(settings)` (camelCase, as a page writes it) turned into
//! what a run needs: the agent's config, the client's config and the tool registry. The
//! browser driver only converts the object to JSON and calls [`configure`].

use crate::lang::Lang;
use serde_json::Value;

use crate::config::AgentConfig;
use crate::fields::{Fields, Read};
use crate::history::MessageStyle;
use crate::llm::{ClientConfig, ConfigError, Constrained, ServerKind, DEFAULT_TIMEOUT_MS};
use crate::prompt::{FewShot, PromptConfig};
use crate::strategy::{Compress, Strategy};
use crate::told::Templates;
use crate::tools::{default_documents, Document, Registry};

/// Every key of the settings object, as a page writes it. The reader reads under these names
/// only (a debug build panics on another), the tests below check it reads each, and
/// `tests/types.rs` checks that `interface Settings` of `wasm/src/types.d.ts` declares each
/// and nothing else.
pub const SETTINGS_KEYS: &[&str] = &[
    "demo",
    "demoDelayMs",
    "inPage",
    "baseUrl",
    "apiKey",
    "model",
    "temperature",
    "maxTokens",
    "stream",
    "seed",
    "timeoutMs",
    "constrained",
    "actFirst",
    "strategy",
    "compress",
    "lang",
    "template",
    "systemPrompt",
    "fewShot",
    "texts",
    "workedExamples",
    "restateQuestion",
    "stop",
    "maxSteps",
    "maxFormatErrors",
    "maxRepeats",
    "observationLimit",
    "historyRounds",
    "style",
    "documents",
    "disabledTools",
];

/// What a run is configured with.
#[derive(Debug)]
pub struct Configured {
    pub agent: AgentConfig,
    pub model: Model,
    pub registry: Registry,
}

/// The name a trace records for the demo model (a page names it in its language:
/// `crate::sentences::model`).
pub const DEMO_MODEL: &str = "demo (scripted)";

/// Who answers a run.
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    /// The scripted demo ([`crate::demo`]), its reply streamed in pieces `delay_ms` apart.
    Demo { delay_ms: u32 },
    /// An OpenAI-compatible server.
    Server(ClientConfig),
    /// The page's own model function (`useModel`: the in-page engine), sent the request
    /// with these sampling settings.
    InPage(ClientConfig),
}

impl Model {
    /// The server's kind when it is known without asking ([`crate::agent::Next::DetectServer`]).
    pub fn known_server(&self) -> Option<ServerKind> {
        match self {
            Model::Demo { .. } => Some(ServerKind::Unknown),
            Model::InPage(_) => Some(ServerKind::InPage),
            Model::Server(_) => None,
        }
    }

    /// The name a trace records for the model.
    pub fn label(&self) -> &str {
        match self {
            Model::Demo { .. } => DEMO_MODEL,
            Model::Server(client) | Model::InPage(client) => &client.model,
        }
    }

    pub fn client(&self) -> Option<&ClientConfig> {
        match self {
            Model::Demo { .. } => None,
            Model::Server(client) | Model::InPage(client) => Some(client),
        }
    }
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
    /// `texts` names no template the loop sends.
    UnknownTemplate { name: String },
}

// Its sentence for a person (`Display`, the English) is in `crate::sentences`, with the Chinese.
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
    read(settings, purpose).map_err(|e| match e {
        Refused::Json(e) => SettingsError::Invalid {
            message: e.to_string(),
        },
        Refused::Settings(e) => e,
    })
}

/// What [`read`] stops on: a field the JSON reader refuses, or a value the settings refuse.
enum Refused {
    Json(serde_json::Error),
    Settings(SettingsError),
}

impl From<serde_json::Error> for Refused {
    fn from(e: serde_json::Error) -> Self {
        Refused::Json(e)
    }
}

impl From<SettingsError> for Refused {
    fn from(e: SettingsError) -> Self {
        Refused::Settings(e)
    }
}

/// The settings object's fields, read under the names of [`SETTINGS_KEYS`] only.
struct Settings(Fields);

impl Settings {
    fn opt<T: Read>(&mut self, name: &'static str) -> Result<Option<T>, Refused> {
        Ok(self.0.opt(listed(name))?)
    }

    fn or<T: Read>(&mut self, name: &'static str, default: T) -> Result<T, Refused> {
        Ok(self.0.or(listed(name), default)?)
    }
}

fn listed(name: &'static str) -> &'static str {
    debug_assert!(
        SETTINGS_KEYS.contains(&name),
        "the setting {name} is missing from SETTINGS_KEYS"
    );
    name
}

/// Every field may be left out: then it has its default.
fn read(settings: Value, purpose: Purpose) -> Result<Configured, Refused> {
    let mut f = Settings(match settings {
        Value::Null => Fields::object(serde_json::json!({"demo": purpose == Purpose::Run}))?,
        settings => Fields::object(settings)?,
    });
    let defaults = AgentConfig::default();
    let mut limit = |name: &'static str, default: usize| -> Result<usize, Refused> {
        Ok(limit(name, f.opt(name)?, default)?)
    };
    let agent = AgentConfig {
        max_steps: limit("maxSteps", defaults.max_steps)?,
        max_format_errors: limit("maxFormatErrors", defaults.max_format_errors)?,
        max_repeats: limit("maxRepeats", defaults.max_repeats)?,
        observation_limit: limit("observationLimit", defaults.observation_limit)?,
        history_rounds: limit("historyRounds", defaults.history_rounds)?,
        restate_question: f.or("restateQuestion", false)?,
        style: f.or("style", MessageStyle::default())?,
        stop: f.opt("stop")?.unwrap_or(defaults.stop),
        prompt: PromptConfig {
            lang: f.or("lang", Lang::default())?,
            template: text(f.opt("template")?),
            few_shot: f.or::<Vec<FewShot>>("fewShot", Vec::new())?,
            texts: f.or("texts", Templates::default())?,
        },
        system_prompt: text(f.opt("systemPrompt")?),
        constrained: f.or("constrained", Constrained::default())?,
        act_first: f.opt("actFirst")?.unwrap_or(defaults.act_first),
        worked_examples: f.opt("workedExamples")?.unwrap_or(defaults.worked_examples),
        strategy: f.or("strategy", Strategy::default())?,
        compress: f.or("compress", Compress::default())?,
    };
    if let Some(name) = agent.prompt.texts.unknown().first() {
        let name = name.to_string();
        return Err(SettingsError::UnknownTemplate { name }.into());
    }
    // Every field is read, so a wrong one is refused whether it is used or not.
    let demo: bool = f.or("demo", false)?;
    let in_page: bool = f.or("inPage", false)?;
    let client = ClientConfig {
        base_url: f.or("baseUrl", String::new())?.trim().to_string(),
        api_key: text(f.opt("apiKey")?),
        model: f.or("model", String::new())?.trim().to_string(),
        temperature: f.opt("temperature")?,
        max_tokens: f.opt("maxTokens")?,
        stream: f.or("stream", false)?,
        seed: f.opt("seed")?,
        timeout_ms: f.opt("timeoutMs")?.unwrap_or(DEFAULT_TIMEOUT_MS),
    };
    let delay_ms = f.or("demoDelayMs", 0)?;
    let model = if demo && purpose == Purpose::Run {
        Model::Demo { delay_ms }
    } else if in_page {
        // No server: the request goes to the page's own function (`useModel`).
        Model::InPage(ClientConfig {
            base_url: String::new(),
            ..client
        })
    } else {
        client
            .check(purpose == Purpose::Run)
            .map_err(SettingsError::Client)?;
        Model::Server(client)
    };
    let documents: Option<Vec<Document>> = f.opt("documents")?;
    let mut registry = Registry::with_builtins(documents.unwrap_or_else(default_documents));
    for name in f.or::<Vec<String>>("disabledTools", Vec::new())? {
        registry.set_enabled(&name, false);
    }
    Ok(Configured {
        agent,
        model,
        registry,
    })
}

/// A text setting: blank means unset.
fn text(value: Option<String>) -> Option<String> {
    value.filter(|t| !t.trim().is_empty())
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
        assert_eq!(c.model, Model::Demo { delay_ms: 0 });
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
        let Model::Server(client) = c.model else {
            panic!("a server")
        };
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
    fn every_listed_key_is_read() {
        // Read with every default, the reader asked for each key it knows (a key missing
        // from the list panics in `listed`); a value no setting accepts shows each is read.
        run(Value::Null).unwrap();
        for key in SETTINGS_KEYS {
            let mut settings = json!({"demo": true});
            settings[key] = json!([{"not": "a setting"}]);
            let refused = run(settings).map(|_| ()).unwrap_err();
            assert!(refused.starts_with("Invalid settings"), "{key}: {refused}");
        }
    }

    #[test]
    fn listing_models_needs_a_server_but_no_model() {
        let list = |s: Value| configure(s, Purpose::ListModels).map(|c| c.model);
        let model = list(json!({"baseUrl": "http://localhost:8080/v1"})).unwrap();
        assert_eq!(model.client().unwrap().model, "");
        // Even with `demo` set, a listing asks the server it names.
        assert_eq!(
            list(json!({"demo": true})).unwrap_err(),
            SettingsError::Client(ConfigError::EmptyBaseUrl)
        );
    }

    #[test]
    fn the_model_says_whether_the_server_must_be_asked_what_it_is() {
        let server = json!({"baseUrl": "http://localhost:8080/v1", "model": "m"});
        let mut in_page = server.clone();
        in_page["inPage"] = json!(true);
        let cases = [
            (
                json!({"demo": true}),
                Some(ServerKind::Unknown),
                "demo (scripted)",
            ),
            (in_page, Some(ServerKind::InPage), "m"),
            (server, None, "m"),
        ];
        for (settings, known, label) in cases {
            let model = run(settings.clone()).unwrap().model;
            assert_eq!(
                (model.known_server(), model.label()),
                (known, label),
                "{settings}"
            );
        }
    }
}
