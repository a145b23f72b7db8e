//! The functions a page calls without an agent: tools, traces, limits, the parser X-ray,
//! the demo's questions and the built-in templates.

use super::*;

/// Validates and loads a saved trace (the `exportTrace` format).
/// A `{name, description, parameters, run, timeoutMs}` object as a tool, or the reason not.
pub(super) fn js_tool(definition: JsValue) -> Result<JsTool, JsValue> {
    let run = Reflect::get(&definition, &"run".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| misused(Misuse::NoRunFunction))?;
    let def = from_js(definition, Given::ToolDefinition, ToolDefinition::read)?;
    Ok(JsTool {
        spec: ToolSpec {
            name: def.name.trim().to_string(),
            description: def.description,
            parameters: def.parameters,
            examples: def.examples,
            keywords: def.keywords,
            role: def.role,
        },
        run,
        timeout_ms: def.timeout_ms.unwrap_or(js_tools::DEFAULT_TIMEOUT_MS),
    })
}

/// Checks a tool definition as `registerTool` would beside the built-in tools, without an
/// agent: throws the same message.
#[wasm_bindgen(js_name = checkTool)]
pub fn check_tool(
    #[wasm_bindgen(unchecked_param_type = "ToolDefinition")] definition: JsValue,
) -> Result<(), JsValue> {
    let tool = js_tool(definition)?;
    Registry::with_builtins(Vec::new())
        .register_external(tool.spec)
        .map_err(|e| refused(reactloop::sentences::registry_error(&e), None))
}

/// The built-in tools' specs, as the model sees them, each with its description in every
/// interface language for the Tools panel (`view.description`).
#[wasm_bindgen(js_name = builtinTools, unchecked_return_type = "BuiltinTool[]")]
pub fn builtin_tools() -> Result<JsValue, JsValue> {
    let registry = Registry::with_builtins(Vec::new());
    let tools = registry
        .specs()
        .iter()
        .map(|spec| {
            let mut value = view::value_of(spec)?;
            value["view"] =
                serde_json::json!({ "description": reactloop::sentences::tool_description(spec) });
            Ok(value)
        })
        .collect::<Result<Vec<_>, serde_json::Error>>();
    tools
        .and_then(|t| to_js(&t))
        .map_err(|e| js_error(e, None, None))
}

#[wasm_bindgen(js_name = loadTrace, unchecked_return_type = "Trace")]
pub fn load_trace(json: &str) -> Result<JsValue, JsValue> {
    let trace = Trace::from_json(json)
        .map_err(|e| refused(reactloop::sentences::trace_error(&e), to_js(&e).ok()))?;
    trace_view(&trace)
}

/// A trace as the page draws it, with its sentences (`reactloop::view`).
pub(super) fn trace_view(trace: &Trace) -> Result<JsValue, JsValue> {
    view::trace(trace, &timer::page_origin())
        .and_then(|v| to_js(&v))
        .map_err(|e| js_error(e, None, None))
}

/// The size limits on model replies and trace files (`reactloop::limits`), so a page can check a
/// file's size before it reads it.
#[wasm_bindgen(unchecked_return_type = "Limits")]
pub fn limits() -> Result<JsValue, JsValue> {
    to_js(&reactloop::limits::for_page()).map_err(|e| js_error(e, None, None))
}

/// Every whole-number setting's default (`reactloop::defaults`): the page's Limits inputs start
/// from them.
#[wasm_bindgen(js_name = settingDefaults, unchecked_return_type = "SettingDefaults")]
pub fn setting_defaults() -> Result<JsValue, JsValue> {
    to_js(&reactloop::defaults::for_page()).map_err(|e| js_error(e, None, None))
}

/// Every text the loop sends the model besides the system prompt, as a named template
/// (`reactloop::told::ALL`): the Prompt panel lists them, and a run's `texts` replace them.
#[wasm_bindgen(unchecked_return_type = "TemplateText[]")]
pub fn templates() -> Result<JsValue, JsValue> {
    to_js(&reactloop::told::for_page()).map_err(|e| js_error(e, None, None))
}

/// What the playground says on load when it is not on the reader's computer, or `undefined`
/// on this computer (it then looks for local servers at once).
#[wasm_bindgen(js_name = hostedPage, unchecked_return_type = "Text | undefined")]
pub fn hosted_page() -> JsValue {
    reactloop::sentences::hosted_page(&timer::page_origin())
        .and_then(|note| to_js(&note).ok())
        .unwrap_or(JsValue::UNDEFINED)
}

/// This build's version (`0.2.0`), for a page's footer.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The server's model list for these settings (`GET {baseUrl}/models`).
#[wasm_bindgen(js_name = listModels, unchecked_return_type = "Promise<string[]>")]
pub fn list_models(
    #[wasm_bindgen(unchecked_param_type = "Settings")] settings: JsValue,
) -> Promise {
    future_to_promise(async move {
        let Model::Server(client) = configure(settings, Purpose::ListModels)?.model else {
            return Err(misused(Misuse::NoServer));
        };
        let abort = controller()?;
        let models = client::list_models(&client, &abort)
            .await
            .map_err(|e| llm_error(&e))?;
        to_js(&models).map_err(|e| js_error(e, None, None))
    })
}

/// Parses one reply as the agent would (the parser X-ray).
#[wasm_bindgen(js_name = parseReply, unchecked_return_type = "Parse")]
pub fn parse_reply(text: &str) -> Result<JsValue, JsValue> {
    to_js(&reactloop::parse::parse_reply(text)).map_err(|e| js_error(e, None, None))
}

/// The keys of the settings object the core reads (`reactloop::settings::SETTINGS_KEYS`): the
/// playground's permalink goes through this one list.
#[wasm_bindgen(js_name = settingsKeys)]
pub fn settings_keys() -> Vec<String> {
    reactloop::settings::SETTINGS_KEYS
        .iter()
        .map(|k| k.to_string())
        .collect()
}

/// The demo model's example questions in "en" or "zh".
#[wasm_bindgen(js_name = demoQuestions)]
pub fn demo_questions(lang: &str) -> Vec<String> {
    let lang = if lang == "zh" { Lang::Zh } else { Lang::En };
    reactloop::demo::QUESTIONS
        .iter()
        .filter(|(of, _)| *of == lang)
        .map(|(_, q)| q.to_string())
        .collect()
}

#[wasm_bindgen(js_name = defaultDocuments, unchecked_return_type = "Document[]")]
pub fn default_documents() -> Result<JsValue, JsValue> {
    to_js(&reactloop::tools::default_documents()).map_err(|e| js_error(e, None, None))
}

/// The built-in template for "en" or "zh" and a strategy (`react` when left out or unknown),
/// with its `{tools}` and `{tool_names}` slots.
#[wasm_bindgen(js_name = defaultTemplate)]
pub fn default_template(lang: &str, strategy: Option<String>) -> String {
    let lang = if lang == "zh" { Lang::Zh } else { Lang::En };
    let strategy = (reactloop::strategy::Strategy::ALL.into_iter())
        .find(|known| Some(known.label()) == strategy)
        .unwrap_or_default();
    reactloop::prompt::template(strategy, lang)
}

/// A rough token count (see `prompt::estimate_tokens` for the method).
#[wasm_bindgen(js_name = estimateTokens)]
pub fn estimate_tokens(text: &str) -> usize {
    reactloop::lang::estimate_tokens(text)
}
