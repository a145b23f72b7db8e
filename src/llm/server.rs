//! Which server is behind an endpoint, and which constraint a request goes out with: the
//! mode a page picks and the strongest one each server is known to honour.

use crate::fields::units;
use serde_json::Value;

units! {
    /// How the server is made to keep the ReAct format. A plain string in JSON (`"grammar"`),
    /// since it is a setting picked from a list.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub enum Constrained {
        /// The agent picks one from what the server says it is ([`ServerKind`]); until then, and
        /// for a server it does not know, no constraint.
        #[default]
        Auto,
        Off,
        /// `response_format: {"type": "json_object", "schema": …}`: llama-cpp-python's form
        /// (it answers `json_schema` with HTTP 500).
        JsonObject,
        /// `response_format: {"type": "json_schema", …}`: OpenAI, Ollama, vLLM, LM Studio.
        JsonSchema,
        /// A GBNF `grammar` field forcing the text format: llama.cpp and llama-cpp-python only.
        Grammar,
    }
}

impl Constrained {
    /// A constraint goes out with the request (not `off`, not an unresolved `auto`).
    pub fn is_on(self) -> bool {
        !matches!(self, Constrained::Auto | Constrained::Off)
    }
}

units! {
    /// The server behind an endpoint, as far as its model list tells.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ServerKind {
        LlamaCpp,
        LlamaCppPython,
        Ollama,
        LmStudio,
        Vllm,
        OpenAi,
        /// llama.cpp compiled to wasm and run in the page's own Worker (`@wllama/wllama`, whose
        /// core is llama.cpp's server context): no server, no `GET /models`; the driver knows it.
        InPage,
        Unknown,
    }
}

impl ServerKind {
    /// Reads `GET {base}/models`: each server fills `owned_by` in its own way (llama.cpp
    /// `llamacpp`, llama-cpp-python `me`, vLLM `vllm`, LM Studio `organization_owner`, OpenAI
    /// `openai`/`system`); Ollama names the model's namespace (`library`), so its port is the
    /// other sign. `body` may be anything a server sent, or empty when the request failed.
    pub fn detect(models_body: &str, base_url: &str) -> ServerKind {
        let owners: Vec<String> = serde_json::from_str::<Value>(models_body)
            .ok()
            .and_then(|v| v.get("data").and_then(Value::as_array).cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|m| m.get("owned_by").and_then(Value::as_str))
            .map(str::to_ascii_lowercase)
            .collect();
        let owned = |names: &[&str]| owners.iter().any(|o| names.contains(&o.as_str()));
        let base = base_url.to_ascii_lowercase();
        if owned(&["llamacpp"]) {
            ServerKind::LlamaCpp
        } else if owned(&["me"]) {
            ServerKind::LlamaCppPython
        } else if owned(&["vllm"]) {
            ServerKind::Vllm
        } else if owned(&["organization_owner"]) {
            ServerKind::LmStudio
        } else if owned(&["library"]) || base.contains(":11434") {
            ServerKind::Ollama
        } else if owned(&["openai", "system", "openai-internal"])
            || base.contains("//api.openai.com")
        {
            ServerKind::OpenAi
        } else {
            ServerKind::Unknown
        }
    }

    /// The strongest constraint this server is known to honour.
    pub fn constrained(self) -> Constrained {
        match self {
            ServerKind::LlamaCpp | ServerKind::LlamaCppPython | ServerKind::InPage => {
                Constrained::Grammar
            }
            ServerKind::Ollama | ServerKind::LmStudio | ServerKind::Vllm | ServerKind::OpenAi => {
                Constrained::JsonSchema
            }
            ServerKind::Unknown => Constrained::Off,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ServerKind::LlamaCpp => "llama.cpp server",
            ServerKind::LlamaCppPython => "llama-cpp-python",
            ServerKind::Ollama => "Ollama",
            ServerKind::LmStudio => "LM Studio",
            ServerKind::Vllm => "vLLM",
            ServerKind::OpenAi => "OpenAI",
            ServerKind::InPage => "the in-page engine (llama.cpp in wasm)",
            ServerKind::Unknown => "an unknown server",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn servers_are_told_apart_by_their_model_list() {
        let list = |owner: &str| {
            format!(r#"{{"object":"list","data":[{{"id":"m","owned_by":"{owner}"}}]}}"#)
        };
        let cases = [
            (
                list("llamacpp"),
                "http://localhost:8080/v1",
                ServerKind::LlamaCpp,
            ),
            (
                list("me"),
                "http://127.0.0.1:8180/v1",
                ServerKind::LlamaCppPython,
            ),
            (
                list("library"),
                "http://example.test/v1",
                ServerKind::Ollama,
            ),
            (
                list("someone"),
                "http://localhost:11434/v1",
                ServerKind::Ollama,
            ),
            (list("vllm"), "http://gpu:8000/v1", ServerKind::Vllm),
            (
                list("organization_owner"),
                "http://localhost:1234/v1",
                ServerKind::LmStudio,
            ),
            (
                list("system"),
                "https://api.openai.com/v1",
                ServerKind::OpenAi,
            ),
            (
                String::new(),
                "https://api.openai.com/v1",
                ServerKind::OpenAi,
            ),
            (list("acme"), "https://llm.example/v1", ServerKind::Unknown),
            (
                "<html>".into(),
                "https://llm.example/v1",
                ServerKind::Unknown,
            ),
            (
                r#"{"data": 3}"#.into(),
                "https://llm.example/v1",
                ServerKind::Unknown,
            ),
        ];
        for (body, base, kind) in cases {
            assert_eq!(ServerKind::detect(&body, base), kind, "{body} at {base}");
        }
        assert_eq!(
            ServerKind::LlamaCppPython.constrained(),
            Constrained::Grammar
        );
        assert_eq!(ServerKind::Ollama.constrained(), Constrained::JsonSchema);
        assert_eq!(ServerKind::Unknown.constrained(), Constrained::Off);
    }

    #[test]
    fn the_in_page_engine_gets_the_grammar() {
        // It is llama.cpp (its server context, in wasm): the strongest constraint it offers.
        assert_eq!(ServerKind::InPage.constrained(), Constrained::Grammar);
        assert_eq!(
            serde_json::to_value(ServerKind::InPage).unwrap(),
            json!("in_page")
        );
    }
}
