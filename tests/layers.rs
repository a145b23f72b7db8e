//! The core's top-level modules form layers: each one uses (by a `crate::` path, outside its
//! tests and comments) only modules of the layers below it, so there is no cycle and a reader
//! can learn the crate from the bottom up. A new module, or a use that goes up or sideways,
//! fails here with the module, what it uses and where.
//!
//! And no source file grows past [`MAX_LINES`] lines, its tests included: past that, a file
//! holds more than one idea and is split (or its tests move to a file of their own). The page's
//! JavaScript (www/, not the build's www/pkg or the vendored www/vendor) is held to the same
//! cap. `scripts/lines` prints every file's count.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Bottom first. `bin` sits above all of them; the browser driver is a crate of its own
/// (`wasm/`), which Cargo keeps from being used by the core.
const LAYERS: &[&[&str]] = &[
    &["defaults", "fields", "lower", "math", "numbers"],
    &["lang", "limits", "strategy", "order"],
    &["tools", "parse", "grade", "llm"],
    &["ask", "told", "page"],
    &["prompt", "history"],
    &["reading", "demo", "config"],
    &["trace"],
    &["agent"],
    &["settings"],
    &["sentences"],
    &["view"],
    &["events"],
    &["step"],
    &["drive"],
];

/// Drivers: above every layer, never used by the core.
const DRIVERS: &[&str] = &["bin"];

/// Each source file's code with its tests and comments left out.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("a source file");
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a file's code names: `crate::x` and each `x` in `crate::{x, …}`.
fn used(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            // The names at the list's top level, before any nested braces close it.
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in list.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && depth == 0 && (c.is_alphanumeric() || c == '_') => {
                        item_start = false;
                        out.push(ident(&list[i..]));
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out
}

fn ident(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// module → (module it uses → the files that use it).
fn graph() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let mut graph: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    let src = stack[0].clone();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("src/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            // A test module of its own file (`mod tests;`) is tests, as one at a file's bottom.
            if path.extension() != Some("rs".as_ref()) || path.ends_with("tests.rs") {
                continue;
            }
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .to_string();
            let module = rel.split(['/', '.']).next().unwrap().to_string();
            if module == "lib" {
                continue;
            }
            let uses = graph.entry(module.clone()).or_default();
            for used in used(&code(&path)) {
                if used != module && !used.is_empty() {
                    uses.entry(used).or_default().push(rel.clone());
                }
            }
        }
    }
    graph
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let graph = graph();
    let mut problems = Vec::new();
    for (module, uses) in &graph {
        if DRIVERS.contains(&module.as_str()) {
            continue;
        }
        let Some(at) = layer(module) else {
            problems.push(format!("`{module}` is in no layer: add it to LAYERS"));
            continue;
        };
        for (used, files) in uses {
            match layer(used) {
                Some(below) if below < at => {}
                _ => problems.push(format!(
                    "`{module}` (layer {at}) uses `{used}` (layer {}) in {}",
                    layer(used).map_or("none".to_string(), |l| l.to_string()),
                    files.join(", ")
                )),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The list names no module that is gone, and the bottom imports nothing of the crate.
    for name in LAYERS.iter().flat_map(|l| l.iter()) {
        assert!(
            graph.contains_key(*name),
            "LAYERS names `{name}`, not in src/"
        );
    }
    for bottom in LAYERS[0] {
        let uses = &graph[*bottom];
        assert!(uses.is_empty(), "{bottom} uses {uses:?}");
    }
    // The client knows no tool and no decision of the loop: it puts a request on the wire.
    for above in ["tools", "ask", "agent"] {
        assert!(
            !graph["llm"].contains_key(above),
            "llm uses `{above}` in {:?}",
            graph["llm"].get(above)
        );
    }
}

#[test]
fn the_reader_of_paths_finds_lists_nested_lists_and_plain_paths() {
    let text = "use crate::{agent::{self, Next}, llm::X,\n tools};\nlet x = crate::view::step();";
    assert_eq!(used(text), ["agent", "llm", "tools", "view"]);
    // Comments and tests are left out.
    let dir = std::env::temp_dir().join(format!("layers-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("m.rs");
    fs::write(
        &file,
        "use crate::a; // crate::b\n#[cfg(test)]\nmod tests { use crate::c; }",
    )
    .unwrap();
    assert_eq!(used(&code(&file)), ["a"]);
    fs::remove_dir_all(&dir).unwrap();
}

/// The most lines a source file may have, its tests included: a Rust file whose tests would
/// take it past this moves them to a file of their own (`#[cfg(test)] mod tests;`).
const MAX_LINES: usize = 600;

/// Every file under `dir` with one of the `extensions`, outside the folders `skip` (relative to
/// `dir`), as (path relative to `dir`, text).
fn source_files(dir: &Path, extensions: &[&str], skip: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in fs::read_dir(&at).expect("a directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                if !skip.iter().any(|s| path == dir.join(s)) {
                    stack.push(path);
                }
            } else if path
                .extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
            {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                let text = fs::read_to_string(&path).expect("a source file");
                out.push((rel.replace('\\', "/"), text));
            }
        }
    }
    out.sort();
    out
}

/// Each source file under `root` and its lines: the core's `src/**/*.rs`, the browser driver's
/// `wasm/src/**/*.rs`, and the page's own `www/**/*.js` and `*.mjs` (not www/pkg, the build's,
/// or www/vendor, a library's).
fn line_counts(root: &Path) -> Vec<(String, usize)> {
    let rust = ["src", "wasm/src"].into_iter().flat_map(|dir| {
        source_files(&root.join(dir), &["rs"], &[])
            .into_iter()
            .map(move |(rel, text)| (format!("{dir}/{rel}"), text.lines().count()))
    });
    let js = source_files(&root.join("www"), &["js", "mjs"], &["pkg", "vendor"])
        .into_iter()
        .map(|(rel, text)| (format!("www/{rel}"), text.lines().count()));
    rust.chain(js).collect()
}

/// "path: N lines" for each file over [`MAX_LINES`].
fn over_the_cap(counts: &[(String, usize)]) -> Vec<String> {
    counts
        .iter()
        .filter(|(_, lines)| *lines > MAX_LINES)
        .map(|(path, lines)| format!("{path}: {lines} lines"))
        .collect()
}

#[test]
fn no_source_file_is_over_600_lines() {
    let over = over_the_cap(&line_counts(Path::new(env!("CARGO_MANIFEST_DIR"))));
    assert!(
        over.is_empty(),
        "over {MAX_LINES} lines, tests included; split them by idea, or move a file's tests \
         to a file of their own (scripts/lines shows every file):\n{}",
        over.join("\n")
    );
}

/// The README is for users: what it is, how to connect, how to teach with it, the API and the
/// current numbers. Every benchmark table goes to bench/README.md, history to bench/HISTORY.md.
const README_MAX_LINES: usize = 300;

#[test]
fn the_readme_is_at_most_300_lines() {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, over {README_MAX_LINES}: move tables and history to \
         bench/README.md, bench/HISTORY.md or docs/"
    );
}

#[test]
fn the_cap_counts_the_page_scripts_but_not_the_build_or_the_vendored_engine() {
    let dir = std::env::temp_dir().join(format!("reactloop-lines-{}", std::process::id()));
    let long = "x;\n".repeat(MAX_LINES + 1);
    // Its tests count: 598 lines of code and a test module of three.
    let tested = "x;\n".repeat(MAX_LINES - 2) + "#[cfg(test)]\nmod tests {\n}\n";
    for (path, text) in [
        ("src/lib.rs", tested.as_str()),
        ("wasm/src/lib.rs", long.as_str()),
        ("www/app.js", "a\n"),
        ("www/embed/long.js", long.as_str()),
        ("www/long.mjs", long.as_str()),
        ("www/style.css", long.as_str()),
        ("www/pkg/reactloop.js", long.as_str()),
        ("www/vendor/wllama/index.js", long.as_str()),
    ] {
        fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        fs::write(dir.join(path), text).unwrap();
    }
    let mut counts = line_counts(&dir);
    counts.sort();
    let names: Vec<&str> = counts.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(
        names,
        [
            "src/lib.rs",
            "wasm/src/lib.rs",
            "www/app.js",
            "www/embed/long.js",
            "www/long.mjs"
        ]
    );
    assert_eq!(
        over_the_cap(&counts),
        [
            "src/lib.rs: 601 lines",
            "wasm/src/lib.rs: 601 lines",
            "www/embed/long.js: 601 lines",
            "www/long.mjs: 601 lines"
        ]
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// The lines of `text` that name the `Builtin` type.
fn names_builtin(text: &str) -> Vec<(usize, String)> {
    (text.lines().enumerate())
        .filter(|(_, line)| {
            let line = line.split("//").next().unwrap_or_default();
            line.contains("Builtin::") || line.contains("Builtin,") || line.contains("Builtin}")
        })
        .map(|(n, line)| (n + 1, line.trim().to_string()))
        .collect()
}

/// Where a rule of the loop names a built-in tool, a page's own tool cannot take part: the
/// loop's decisions go through what a tool declares (`ToolSpec::role`, its keywords and
/// examples), never through `Builtin`. Their tests too, so that they speak the same way.
#[test]
fn the_loop_names_no_builtin_tool() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for dir in ["agent", "reading", "llm"] {
        for (file, text) in source_files(&src.join(dir), &["rs"], &[]) {
            for (n, line) in names_builtin(&text) {
                found.push(format!("src/{dir}/{file}:{n}: {line}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the loop names a built-in tool:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_builtin_reader_finds_a_variant_an_import_and_not_a_comment() {
    let text = "use crate::tools::{Builtin, Registry};\n// Builtin::Calculator was here\nlet c = Some(Builtin::Calculator);\nlet r = Role::Computes;";
    assert_eq!(
        names_builtin(text)
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>(),
        [1, 3]
    );
}

/// What the page says about a core variant comes from the core (`step.view`), never from the
/// page's chrome: `www/i18n.js` holds no key named after a `MustAnswer` variant, and the core
/// has a sentence for each, in both languages.
#[test]
fn the_page_explains_no_core_variant_itself() {
    use reactloop::ask::MustAnswer;
    // Every variant serde knows: a new one is checked without a line here.
    let names = common::variants::<MustAnswer>(serde_json::json!("no such"));
    assert!(names.len() >= 6, "{names:?}");
    let i18n = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("www/i18n.js"))
        .expect("www/i18n.js");
    let mut said = Vec::new();
    for name in names {
        let variant: MustAnswer = serde_json::from_value(serde_json::json!(name)).expect(&name);
        let text = reactloop::sentences::must_answer(variant);
        assert!(!text.en.is_empty() && !text.zh.is_empty(), "{name}");
        assert!(
            !said.contains(&text.en),
            "{name} says what another variant says"
        );
        said.push(text.en);
        let key = format!(".{name}'");
        assert!(
            !i18n.lines().any(|l| l.trim_start().starts_with('\'')
                && l.contains(&key)
                && l.contains("ustAnswer")),
            "www/i18n.js explains the core's MustAnswer::{name} itself"
        );
    }
}
