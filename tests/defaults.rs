//! A setting's default is written once, in `src/defaults.rs`: the core's configuration, the
//! page's Limits inputs (filled from `settingDefaults()`) and the README's settings table
//! agree with it, and no other source writes one of those defaults next to its setting.

use std::fs;
use std::path::Path;

use reactloop::config::AgentConfig;
use reactloop::defaults::{self, WHOLE};

fn read(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect(path)
}

#[test]
fn the_core_starts_from_the_defaults() {
    let config = AgentConfig::default();
    let pairs = [
        (defaults::MAX_STEPS, config.max_steps),
        (defaults::MAX_FORMAT_ERRORS, config.max_format_errors),
        (defaults::MAX_REPEATS, config.max_repeats),
        (defaults::OBSERVATION_LIMIT, config.observation_limit),
        (defaults::HISTORY_ROUNDS, config.history_rounds),
    ];
    for (whole, value) in pairs {
        assert_eq!(whole.default as usize, value, "{}", whole.key);
    }
    let settings = serde_json::json!({"baseUrl": "http://x/v1", "model": "m"});
    let configured = reactloop::settings::configure(settings, reactloop::settings::Purpose::Run)
        .expect("settings");
    let client = configured.model.client().expect("a server");
    assert_eq!(client.timeout_ms, defaults::TIMEOUT_MS.default);
    assert_eq!(defaults::for_page()["maxSteps"], 8);
}

/// The number the README's settings table gives after `key`: "`maxSteps` (8)", "(120 000)".
fn readme_default(readme: &str, key: &str) -> Option<u32> {
    let at = readme.find(&format!("`{key}` ("))? + key.len() + 4;
    let digits: String = readme[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ' ')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[test]
fn the_readme_table_gives_each_default_as_the_core_has_it() {
    let readme = read("README.md");
    for whole in WHOLE {
        assert_eq!(
            readme_default(&readme, whole.key),
            Some(whole.default),
            "README.md's settings table on `{}`",
            whole.key
        );
    }
    assert_eq!(readme_default("`a` (120 000)", "a"), Some(120_000));
    assert_eq!(readme_default("`a` (none)", "a"), None);
}

/// The page's inputs for the settings, with what they must not hold.
#[test]
fn the_page_keeps_no_copy_of_a_default() {
    let html = read("www/index.html");
    for id in [
        "max-steps",
        "history-rounds",
        "observation-limit",
        "timeout",
    ] {
        let at = html.find(&format!("<input id=\"{id}\"")).expect(id);
        let tag = &html[at..at + html[at..].find('>').unwrap()];
        assert!(
            !tag.contains("value="),
            "www/index.html writes a default into #{id}: {tag}"
        );
    }
    let app = read("www/app.js");
    assert!(
        app.contains("settingDefaults()"),
        "the page reads the core's defaults"
    );
}

/// `field: 8`, `"maxSteps": 8`, or `maxSteps = 8` outside `src/defaults.rs` and outside tests:
/// a default written a second time.
fn copies(text: &str, names: &[&str], value: u32) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    // 120000 also as 120_000.
    let plain = value.to_string();
    let mut grouped = String::new();
    for (i, c) in plain.chars().enumerate() {
        if i > 0 && (plain.len() - i) % 3 == 0 {
            grouped.push('_');
        }
        grouped.push(c);
    }
    let mut written = vec![plain];
    if grouped != written[0] {
        written.push(grouped);
    }
    let mut found = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for name in names {
            for number in &written {
                for sep in [": ", " = ", "\": "] {
                    let pattern = format!("{name}{sep}{number}");
                    if let Some(at) = line.find(&pattern) {
                        let after = line[at + pattern.len()..].chars().next();
                        if !after.is_some_and(|c| c.is_ascii_digit() || c == '_') {
                            found.push(line.trim().to_string());
                        }
                    }
                }
            }
        }
    }
    found
}

#[test]
fn no_source_writes_a_default_twice() {
    let snake = |key: &str| {
        key.chars().fold(String::new(), |mut s, c| {
            if c.is_ascii_uppercase() {
                s.push('_');
            }
            s.push(c.to_ascii_lowercase());
            s
        })
    };
    let mut found = Vec::new();
    for dir in ["src", "wasm/src", "www"] {
        for entry in walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)) {
            let path = entry.to_string_lossy().to_string();
            let generated = [
                "/www/pkg/",
                "/www/vendor/",
                "/www/limits.js",
                "/www/titles.js",
            ];
            if path.ends_with("src/defaults.rs") || generated.iter().any(|g| path.contains(g)) {
                continue;
            }
            let Ok(text) = fs::read_to_string(&entry) else {
                continue;
            };
            for whole in WHOLE {
                let names = [whole.key.to_string(), snake(whole.key)];
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                found.extend(
                    copies(&text, &names, whole.default)
                        .into_iter()
                        .map(|l| format!("{path}: {l}")),
                );
            }
        }
    }
    assert!(
        found.is_empty(),
        "defaults written outside src/defaults.rs:\n{}",
        found.join("\n")
    );
    // The reader finds one.
    assert_eq!(copies("max_steps: 8,\nx: 80", &["max_steps"], 8).len(), 1);
    assert!(copies("max_steps: 80,", &["max_steps"], 8).is_empty());
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path
            .extension()
            .is_some_and(|e| e == "rs" || e == "js" || e == "html")
        {
            out.push(path);
        }
    }
    out
}
