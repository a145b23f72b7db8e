#!/usr/bin/env node
// Every benchmark in one command; prints markdown tables (not part of CI's pass/fail).
//
//   node bench/run.mjs [--only size,prompt,overhead,tasks] [--models qwen,smollm]
//                      [--modes qwen-plain,...] [--limit N] [--tasks id,...] [--jobs N] [--no-page]
//                      [--port-offset N] [--tag NAME] [--set tune|heldout]
//
//   size      gzip -9 bytes of every file under www/ (the page as served) and of the .wasm
//   prompt    tokens of the generated system prompt (en, zh, with few-shot) next to
//             LangChain's hwchase17/react prompt: estimateTokens and the models' tokenizers
//   overhead  time per step without the model: Node (wasm Agent + instant HTTP server, and
//             no network at all) and the playground page in headless Chromium when www/
//             has one (--no-page skips it)
//   tasks     bench/tasks/tasks.json through the wasm Agent against scripts/local-llm
//             servers (a fresh one per mode, on ports 8180/8181/8182, +10 per extra job with
//             --jobs N, which runs N modes side by side); qwen15 (1.1 GB, fetched on first
//             use) only when --models names it; failing traces and a
//             summary.json per mode go to bench/results/<date>-<mode>[-limitN][-tag]/;
//             --port-offset and --tag let a second process (e.g. with another build of
//             www/pkg, to compare two versions of the code under the same load) run beside
//             the first without sharing its servers or its results directory; --set heldout
//             runs bench/tasks/heldout.json (tasks only reported, never tuned on) instead of
//             the tune set, bench/tasks/tasks.json
//
// Needs: scripts/build (www/pkg), npm ci (Playwright for the page), and for prompt/tasks the
// local-llm cache (scripts/local-llm install; quick when it is there). Runs with TZ=UTC.
// Writes the tables and the machine description to bench/results/latest.md (+ latest.json);
// a run of only some sections, models, modes or tasks to latest-partial.md (+ .json).
process.env.TZ = 'UTC';

import { execFileSync } from 'node:child_process';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { cpus, totalmem, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, loadWasm } from './lib/wasm.mjs';

const SECTIONS = ['size', 'prompt', 'overhead', 'tasks'];
const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    models: { type: 'string' },
    modes: { type: 'string' },
    limit: { type: 'string' },
    tasks: { type: 'string' },
    jobs: { type: 'string' },
    'port-offset': { type: 'string' },
    tag: { type: 'string' },
    set: { type: 'string' },
    'no-page': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  const text = await readFile(new URL(import.meta.url), 'utf8');
  console.log(text.split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
  process.exit(0);
}
const list = (s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : null);
const only = list(args.only) ?? SECTIONS;
for (const s of only) if (!SECTIONS.includes(s)) throw new Error(`unknown section ${s} (want ${SECTIONS.join(',')})`);
const models = list(args.models) ?? ['qwen', 'smollm'];
const limit = args.limit ? Number(args.limit) : null;
if (limit != null && !(limit >= 1)) throw new Error('--limit needs a number ≥ 1');
const jobs = args.jobs ? Number(args.jobs) : 1;
if (!(jobs >= 1)) throw new Error('--jobs needs a number ≥ 1');

function sh(cmd, argv) {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

async function machine() {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  const model = cpuinfo.match(/^model name\s*:\s*(.*)$/m)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  return {
    nproc: Number(sh('nproc', [])) || cpus().length,
    cpu: model.trim(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: sh('sh', ['-c', '. /etc/os-release && echo "$PRETTY_NAME"']),
    node: process.version,
    commit: sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
    loadavgStart: loadavg().map((x) => x.toFixed(1)).join(' '),
  };
}

const started = performance.now();
const today = new Date().toISOString().slice(0, 10);
const info = await machine();
const command = `node bench/run.mjs${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`;
await loadWasm();

const results = { date: today, command, machine: info };
const out = [];
const print = (md) => {
  out.push(md);
  console.log(`\n${md}`);
};

if (only.includes('size')) {
  const { measureSize, renderSize } = await import('./lib/size.mjs');
  results.size = await measureSize();
  print(renderSize(results.size));
}
if (only.includes('prompt')) {
  const { measurePrompt, renderPrompt } = await import('./lib/prompt.mjs');
  results.prompt = await measurePrompt();
  print(renderPrompt(results.prompt));
}
if (only.includes('overhead')) {
  const { measureOverheadNode, renderOverhead } = await import('./lib/overhead.mjs');
  const r = { node: await measureOverheadNode() };
  if (args['no-page']) {
    r.pageSkipped = 'Page row skipped (--no-page).';
  } else {
    const { measureOverheadPage } = await import('./lib/page-overhead.mjs');
    const page = await measureOverheadPage();
    if (page.skipped) r.pageSkipped = page.skipped;
    else r.page = page;
  }
  results.overhead = r;
  print(renderOverhead(r));
}
if (only.includes('tasks')) {
  const { measureTasks, renderTasks } = await import('./lib/tasks.mjs');
  results.tasks = await measureTasks({
    models, modes: list(args.modes), limit, ids: list(args.tasks), jobs, date: today,
    portOffset: Number(args['port-offset'] ?? 0), tag: args.tag, set: args.set ?? 'tune',
  });
  print(renderTasks(results.tasks));
}

info.loadavgEnd = loadavg().map((x) => x.toFixed(1)).join(' ');
results.totalSeconds = Math.round((performance.now() - started) / 1000);
const header =
  `## Benchmarks (${today})\n\n` +
  `Machine: ${info.nproc} cores (\`nproc\`), ${info.cpu}, ${info.memoryGiB} GiB memory, ${info.os}, Node ${info.node}; ` +
  `commit ${info.commit}; load average ${info.loadavgStart} at the start, ${info.loadavgEnd} at the end.\n\n` +
  `Command: \`${command}\` (took ${results.totalSeconds} s)`;
console.log(`\n${header.split('\n\n').slice(1).join('\n')}`);
const dir = join(ROOT, 'bench/results');
await mkdir(dir, { recursive: true });
// Only a run of everything replaces latest.md, the README's reference; a part writes beside it.
// Adding a model (--models qwen,smollm,qwen15) is still a run of everything.
const partial = args.only || args.modes || args.tasks || args.set || !['qwen', 'smollm'].every((m) => models.includes(m));
const suffix = limit ? `-limit${limit}` : partial ? '-partial' : '';
await writeFile(join(dir, `latest${suffix}.md`), [header, ...out].join('\n\n') + '\n');
await writeFile(join(dir, `latest${suffix}.json`), JSON.stringify(results, null, 2) + '\n');
