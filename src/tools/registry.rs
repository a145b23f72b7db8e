//! The registry: which tools a run may call (built-in and the host's own), the checks a host's
//! tool must pass to join, and the documents `search_docs` reads.

use super::names::fold;
use super::{args, Builtin, Document, Role, ToolSpec};
use crate::lower::Lower;
use serde::{Deserialize, Serialize};

/// Why a host's tool could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RegistryError {
    InvalidName {
        name: String,
    },
    ReservedName {
        name: String,
    },
    BuiltinName {
        name: String,
    },
    NameClash {
        name: String,
        existing: String,
    },
    InvalidSchema {
        name: String,
        message: String,
    },
    /// A role only a built-in tool has ([`Role::declarable`]).
    RoleNotDeclarable {
        name: String,
    },
    /// More keywords or examples than [`MAX_EVIDENCE`], or one longer than
    /// [`MAX_EVIDENCE_CHARS`].
    TooMuchEvidence {
        name: String,
    },
}

/// The most keywords, and the most examples, a host's tool may declare.
pub const MAX_EVIDENCE: usize = 32;
/// The longest keyword or example, in characters.
pub const MAX_EVIDENCE_CHARS: usize = 300;

// Its sentence for a person (`Display`, the English) is in `crate::sentences`, with the Chinese.
impl std::error::Error for RegistryError {}

/// The longest tool name a host may register.
pub const MAX_NAME_LEN: usize = 64;
/// Tool names as written longer than this many characters are not matched at all. Twice the
/// longest name a host may register leaves room for the separators and prefixes a model adds
/// ("Get Current Time"); a longer one is not a misspelt name but runaway output.
pub(super) const MAX_WRITTEN_NAME_LEN: usize = 2 * MAX_NAME_LEN;
/// Names the ReAct protocol uses for the final answer.
const RESERVED_NAMES: &[&str] = &["final_answer", "finish"];

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Entry {
    pub(super) spec: ToolSpec,
    pub(super) builtin: Option<Builtin>,
    pub(super) enabled: bool,
}

/// The tools the agent may call, in registration order, and the documents `search_docs` reads.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Registry {
    pub(super) entries: Vec<Entry>,
    pub(super) documents: Vec<Document>,
}

impl Registry {
    /// The listed value of `tool`'s `param` that the model cut short to `value`, when the
    /// question names it (`declared::completed_value`).
    pub fn completed_value(
        &self,
        tool: &str,
        param: &str,
        value: &str,
        question: &str,
    ) -> Option<String> {
        let spec = self.specs().into_iter().find(|s| s.name == tool)?;
        super::declared::completed_value(spec, param, value, question)
    }

    /// The two listed values for `tool`'s parameters that the model gave alike, in the order
    /// the question gives them (`declared::ordered_pair`).
    pub fn ordered_pair(
        &self,
        tool: &str,
        args: &serde_json::Map<String, serde_json::Value>,
        question: &str,
    ) -> Option<[(String, String); 2]> {
        let spec = self.specs().into_iter().find(|s| s.name == tool)?;
        super::declared::ordered_pair(spec, args, question)
    }

    /// The place the question names that `tool`'s `param` should be given instead of
    /// `value` (`places::question_place`).
    pub fn question_place(
        &self,
        tool: &str,
        param: &str,
        value: &str,
        question: &str,
        looked_up: &[&str],
        reasoned: bool,
    ) -> Option<String> {
        let spec = self.specs().into_iter().find(|s| s.name == tool)?;
        super::places::question_place(spec, param, value, question, looked_up, reasoned)
    }

    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// The three built-ins, enabled, searching `documents`.
    pub fn with_builtins(documents: Vec<Document>) -> Self {
        let entries = Builtin::ALL
            .iter()
            .map(|&b| Entry {
                spec: b.spec(),
                builtin: Some(b),
                enabled: true,
            })
            .collect();
        Registry { entries, documents }
    }

    /// Adds a tool the host runs, or replaces the external tool of the same name.
    pub fn register_external(&mut self, spec: ToolSpec) -> Result<(), RegistryError> {
        let name = spec.name.clone();
        let mut chars = name.chars();
        let valid = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name.len() <= MAX_NAME_LEN;
        if !valid {
            return Err(RegistryError::InvalidName { name });
        }
        if RESERVED_NAMES.iter().any(|r| fold(r) == fold(&name)) {
            return Err(RegistryError::ReservedName { name });
        }
        if spec.role.is_some_and(|r| !r.declarable()) {
            return Err(RegistryError::RoleNotDeclarable { name });
        }
        let lists = [&spec.keywords, &spec.examples];
        if lists.iter().any(|l| {
            l.len() > MAX_EVIDENCE || l.iter().any(|s| s.chars().count() > MAX_EVIDENCE_CHARS)
        }) {
            return Err(RegistryError::TooMuchEvidence { name });
        }
        args::check_schema(&spec.parameters).map_err(|message| RegistryError::InvalidSchema {
            name: name.clone(),
            message,
        })?;
        if let Some(i) = self.entries.iter().position(|e| e.spec.name == name) {
            if self.entries[i].builtin.is_some() {
                return Err(RegistryError::BuiltinName { name });
            }
            self.entries[i].spec = spec;
            return Ok(());
        }
        // Dispatch matches names loosely; two names that fold alike could not be told apart.
        if let Some(e) = self
            .entries
            .iter()
            .find(|e| fold(&e.spec.name) == fold(&name))
        {
            return Err(match e.builtin {
                Some(_) => RegistryError::BuiltinName { name },
                None => RegistryError::NameClash {
                    name,
                    existing: e.spec.name.clone(),
                },
            });
        }
        self.entries.push(Entry {
            spec,
            builtin: None,
            enabled: true,
        });
        Ok(())
    }

    /// Removes the tool named exactly `name`; false if there is none.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.spec.name != name);
        self.entries.len() != before
    }

    /// Enables or disables the tool named exactly `name`; false if there is none. Disabled
    /// tools are left out of [`Registry::specs`] and cannot be dispatched to.
    pub fn set_enabled(&mut self, name: &str, enabled: bool) -> bool {
        match self.entries.iter_mut().find(|e| e.spec.name == name) {
            Some(e) => {
                e.enabled = enabled;
                true
            }
            None => false,
        }
    }

    pub fn set_documents(&mut self, docs: Vec<Document>) {
        self.documents = docs;
    }

    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// The role the enabled tool named exactly `name` declares.
    pub fn role(&self, name: &str) -> Option<Role> {
        self.enabled().find(|e| e.spec.name == name)?.spec.role
    }

    /// The enabled tools, in registration order.
    pub fn specs(&self) -> Vec<&ToolSpec> {
        self.enabled().map(|e| &e.spec).collect()
    }

    pub(super) fn enabled(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.enabled)
    }
}

/// The words of a text that can tell tools apart: Latin words of four letters or more (no
/// plural `s`, no `'s`) that are not function words, and each pair of adjacent CJK characters.
pub(super) fn words(text: &str) -> Vec<String> {
    const COMMON: [&str; 24] = [
        "what", "which", "when", "with", "from", "that", "this", "have", "does", "many", "much",
        "using", "give", "tell", "about", "into", "your", "then", "than", "will", "there", "they",
        "some", "other",
    ];
    let mut out: Vec<String> = Vec::new();
    let lower = text.lower();
    for word in lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '\'')) {
        let word = word.trim_end_matches("'s").trim_matches('\'');
        let word = match word.strip_suffix('s') {
            Some(stem) if stem.len() >= 4 && !stem.ends_with('s') => stem,
            _ => word,
        };
        if word.len() >= 4 && !COMMON.contains(&word) && !out.iter().any(|w| w == word) {
            out.push(word.to_string());
        }
    }
    let chars: Vec<char> = text.chars().collect();
    for pair in chars.windows(2) {
        if pair.iter().all(|&c| crate::lang::is_cjk_ideograph(c)) {
            let bigram: String = pair.iter().collect();
            if !out.contains(&bigram) {
                out.push(bigram);
            }
        }
    }
    out
}
