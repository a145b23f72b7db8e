//! A stable-Rust fuzz generator for everything that reads outside input: the reply parser, the
//! lenient JSON repair, the calculator (through the registry, as the agent calls it), the SSE
//! decoder and trace loading. No cargo-fuzz, no new dependency: a seeded splitmix64 builds
//! structured inputs (mutated corpus replies and recordings, protocol labels, JSON and SSE
//! fragments, multi-byte and control characters, long runs) and each one runs under
//! `catch_unwind`. Besides "does not panic", a few cheap invariants are checked: parse spans
//! lie on char boundaries inside the reply, and a trace that loads saves and loads again.
//!
//! ```sh
//! cargo run --release --features cli --bin fuzz -- --iterations 10000000 [--seed S] [--target T]
//! ```
//!
//! Prints one line per target (inputs, panics, slowest input, time) and exits 1 on any panic,
//! with the first failing input of each target saved under `target/fuzz/`.
//!
//! Here: the command line, the loop that runs each input under `catch_unwind`, and the report.
//! Beside it: `rng` (the seeded PRNG), `seeds` (corpus replies and recordings), `fragments`
//! (the pieces and mutations inputs are built from), one generator per target (`replies`,
//! `json`, `calc`, `sse`, `trace`) and `check` (what each target runs and asserts).

mod calc;
mod check;
mod fragments;
mod json;
mod replies;
mod rng;
mod seeds;
mod sse;
mod trace;

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use calc::{calc_call, gen_calc};
use check::run;
use json::gen_json;
use replies::gen_reply;
use rng::Rng;
use seeds::Seeds;
use sse::gen_sse;
use trace::gen_trace;

const USAGE: &str = "usage: fuzz [--iterations N] [--seed S] [--target parse|json|calc|sse|trace]
  --iterations N   inputs in all, split evenly across the targets (default 100000)
  --seed S         the PRNG seed (default 1); the same seed gives the same inputs
  --target T       run one target only";

const TARGETS: &[&str] = &["parse", "json", "calc", "sse", "trace"];

/// One generated input, kept as what is needed to reproduce it.
enum Input {
    Text(String),
    /// An SSE body and the sizes it is cut into; `as_text` feeds through `push` instead.
    Stream {
        body: Vec<u8>,
        cuts: Vec<usize>,
        as_text: bool,
    },
}

impl Input {
    fn save(&self) -> Vec<u8> {
        match self {
            Input::Text(t) => t.as_bytes().to_vec(),
            Input::Stream {
                body,
                cuts,
                as_text,
            } => {
                let mut out =
                    format!("# SSE body; chunk sizes {cuts:?}; as_text {as_text}\n").into_bytes();
                out.extend_from_slice(body);
                out
            }
        }
    }
}

thread_local! {
    /// Set while a target runs, so the panic hook can tell a finding from a generator bug.
    static IN_RUN: Cell<bool> = const { Cell::new(false) };
    /// The message of the last panic on this thread.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

struct Report {
    inputs: u64,
    panics: u64,
    first: Option<(PathBuf, String)>,
    slowest: Duration,
    elapsed: Duration,
}

fn fuzz(target: &str, iterations: u64, seed: u64, seeds: &Seeds) -> Report {
    // Each target has its own stream, so `--target` reproduces what the full run did.
    let target_no = TARGETS.iter().position(|t| *t == target).unwrap_or(0) as u64;
    let rng = Rng(Cell::new(
        seed ^ (target_no + 1).wrapping_mul(0xA076_1D64_78BD_642F),
    ));
    let mut report = Report {
        inputs: 0,
        panics: 0,
        first: None,
        slowest: Duration::ZERO,
        elapsed: Duration::ZERO,
    };
    let start = Instant::now();
    for i in 0..iterations {
        let input = match target {
            "parse" => Input::Text(gen_reply(&rng, seeds)),
            "json" => Input::Text(gen_json(&rng, seeds)),
            "calc" => Input::Text(gen_calc(&rng)),
            "sse" => gen_sse(&rng),
            _ => Input::Text(gen_trace(&rng, seeds)),
        };
        let call = match (&input, target) {
            (Input::Text(expr), "calc") => Some(calc_call(&rng, expr)),
            _ => None,
        };
        let one = Instant::now();
        IN_RUN.with(|r| r.set(true));
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            run(target, &input, call.as_ref(), seeds)
        }));
        IN_RUN.with(|r| r.set(false));
        report.slowest = report.slowest.max(one.elapsed());
        report.inputs += 1;
        if outcome.is_err() {
            report.panics += 1;
            if report.first.is_none() {
                let message = LAST_PANIC
                    .with(|m| m.borrow_mut().take())
                    .unwrap_or_default();
                let path = PathBuf::from(format!("target/fuzz/{target}-seed{seed}-input{i}.txt"));
                let saved = std::fs::create_dir_all("target/fuzz")
                    .and_then(|()| std::fs::write(&path, input.save()));
                if let Err(e) = saved {
                    eprintln!(
                        "could not save the failing input to {}: {e}",
                        path.display()
                    );
                }
                report.first = Some((path, message));
            }
        }
    }
    report.elapsed = start.elapsed();
    report
}

fn main() -> ExitCode {
    let mut iterations: u64 = 100_000;
    let mut seed: u64 = 1;
    let mut only: Option<String> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next();
        let ok = match (flag.as_str(), value) {
            ("--iterations", Some(v)) => v.replace('_', "").parse().map(|n| iterations = n).is_ok(),
            ("--seed", Some(v)) => v.parse().map(|n| seed = n).is_ok(),
            ("--target", Some(v)) if TARGETS.contains(&v.as_str()) => {
                only = Some(v.clone());
                true
            }
            _ => false,
        };
        if !ok {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    let targets: Vec<&str> = TARGETS
        .iter()
        .copied()
        .filter(|t| only.as_deref().is_none_or(|o| o == *t))
        .collect();
    let per_target = iterations / targets.len() as u64;
    let seeds = Seeds::load();

    // Keep the default hook quiet: a panic is counted and its message kept, not printed.
    panic::set_hook(Box::new(|info| {
        if !IN_RUN.with(Cell::get) {
            eprintln!("fuzz: the generator itself panicked: {info}");
        }
        LAST_PANIC.with(|m| *m.borrow_mut() = Some(info.to_string()));
    }));

    println!("fuzz: seed {seed}, {per_target} inputs per target");
    let start = Instant::now();
    let mut total = 0;
    let mut panics = 0;
    // One thread per target: each has its own PRNG stream, so the inputs do not depend on
    // the scheduling, and the run takes what the machine's cores allow.
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let seeds = &seeds;
        let handles: Vec<_> = targets
            .iter()
            .map(|&target| scope.spawn(move || fuzz(target, per_target, seed, seeds)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a fuzz thread panicked outside an input"))
            .collect()
    });
    for (target, r) in targets.iter().zip(reports) {
        total += r.inputs;
        panics += r.panics;
        println!(
            "{target:>6}: {} inputs, {} panics, slowest input {:.1} ms, {:.1} s",
            r.inputs,
            r.panics,
            r.slowest.as_secs_f64() * 1000.0,
            r.elapsed.as_secs_f64()
        );
        if let Some((path, message)) = r.first {
            println!(
                "        first panic: {message}\n        input saved to {}",
                path.display()
            );
        }
    }
    println!(
        "total: {total} inputs, {panics} panics, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if panics == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
