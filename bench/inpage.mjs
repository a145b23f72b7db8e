#!/usr/bin/env node
// The in-page engine's figures (issue 13): llama.cpp in wasm (@wllama/wllama) in headless
// Chromium, next to the same model in llama.cpp's native server on the same machine.
//
//   node bench/inpage.mjs [--only speed,tasks] [--models smollm,qwen] [--threads 1,2]
//                         [--tasks id,...] [--reps 2] [--no-native]
//
//   speed  per model and thread count: load time (a fresh browser profile: the file copied from
//          the local server into OPFS and llama.cpp started; then from the cache), and prompt
//          and generation tokens/s of the same request (the Agent's first prompt plus a story
//          to write, 128 tokens, temperature 0, no prompt cache) in the page and in
//          scripts/local-llm's native server (llama-cpp-python, the same thread count, port
//          8300, started here and stopped after), each as its own llama.cpp reports them (the
//          page: the reply's timings; the server: llama_perf lines in its log): the ratio.
//   tasks  bench/tasks/tasks.json (or --tasks) through the page's Agent with the Agent
//          defaults (auto → the in-page engine → the grammar), bench/lib/tasks.mjs's settings
//          and fixed clock; per task next to the native run in bench/results/<--against>.
//          Writes bench/results/<date>-inpage-<model>-defaults[-subsetN]/summary.json.
//
// Needs scripts/build (www/pkg, www/vendor/wllama) and scripts/local-llm install. Measure on a
// quiet machine: `pgrep -af 'bench/run.mjs|llama_cpp.server'` should show nothing else.
process.env.TZ = 'UTC';

import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startStatic } from '../scripts/static-server.mjs';
import { ROOT } from './lib/wasm.mjs';
import { spawnSync } from 'node:child_process';
import { CACHE, modelPath, MODELS } from './lib/llm.mjs';
import { RUN_SETTINGS, loadTasks } from './lib/tasks.mjs';
import { checkAnswer } from './tasks/check.mjs';
import { median, table } from './lib/table.mjs';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'speed,tasks' },
    models: { type: 'string' },
    threads: { type: 'string', default: '1,2' },
    tasks: { type: 'string' },
    reps: { type: 'string', default: '2' },
    against: { type: 'string', default: '2026-12-01-qwen-defaults-55fad9a' },
    'no-native': { type: 'boolean' },
  },
});
const list = (s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : []);
const only = list(args.only);
const reps = Number(args.reps);
const NATIVE_PORT = 8300; // not the bench's 8180-8199 nor the tests' 8280
const GEN_TOKENS = 128;
const log = (...a) => console.error(new Date().toISOString().slice(11, 19), ...a);

/**
 * A fresh native server with `threads` llama.cpp threads on NATIVE_PORT (bench/lib/llm.mjs
 * fixes the thread count when it is imported, so this calls scripts/local-llm itself).
 */
function nativeServer(name, threads) {
  const run = (...argv) => {
    const r = spawnSync(join(ROOT, 'scripts/local-llm'), argv, {
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, REACTLOOP_THREADS: String(threads) },
    });
    if (r.status !== 0) throw new Error(`scripts/local-llm ${argv.join(' ')} failed (exit ${r.status})`);
    return r.stdout.trim();
  };
  run('stop', '--port', String(NATIVE_PORT));
  const url = run('start', name, '--port', String(NATIVE_PORT));
  return { url, alias: MODELS[name].alias, stop: () => run('stop', '--port', String(NATIVE_PORT)) };
}

// ---------------------------------------------------------------- the page

async function openBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A fresh profile (an empty OPFS) with the page open and `threads` asked for. */
async function openPage(browser, site, threads) {
  const context = await browser.newContext({ timezoneId: 'UTC' });
  const page = await context.newPage();
  page.on('pageerror', (e) => log('pageerror:', e.message));
  await page.goto(`${site.url}?threads=${threads}&lang=en`);
  await page.waitForSelector('body[data-ready="1"]');
  return { context, page };
}

async function loadInPage(page, url, threads) {
  return page.evaluate(async ({ src, threads }) => {
    const { engine } = await import('./inpage.js');
    const t0 = performance.now();
    const info = await engine().load({ url: src }, { threads });
    return { ...info, wallMs: performance.now() - t0 };
  }, { src: url, threads });
}

/**
 * The request the speed figures use: the Agent's own first request for a bench question
 * (system prompt with the tools, the question), as plain chat, with a nonce in front so no
 * prompt cache can help, and a story to write so the reply runs to the token limit.
 */
async function speedMessages(page) {
  return page.evaluate(async () => {
    const { Agent } = await import('./pkg/reactloop.js');
    const agent = new Agent({ demo: true });
    agent.start('Compute (128 + 256) * 3 - 7^2.');
    // The first step's request is frozen when the run starts.
    return agent.trace().steps[0].request.messages;
  });
}

function withNonce(messages, nonce) {
  return [{ role: messages[0].role, content: `(run ${nonce})\n${messages[0].content}` }, ...messages.slice(1),
    { role: 'assistant', content: 'Thought: Before the tool, a long story.' }, { role: 'user', content: 'Write a long story about a lighthouse keeper, at least 300 words.' }];
}

/** One request in the page; the engine's own timings (llama.cpp's, as the server's log has them). */
async function pageSpeed(page, messages, nonce) {
  const t = await page.evaluate(async ({ messages, gen }) => {
    const { engine } = await import('./inpage.js');
    await engine().model({ messages, max_tokens: gen, temperature: 0, cache_prompt: false });
    return engine().last.timings;
  }, { messages: withNonce(messages, nonce), gen: GEN_TOKENS });
  return { prompt: t.prompt_per_second, gen: t.predicted_per_second, promptTokens: t.prompt_n, genTokens: t.predicted_n };
}

/** The same request to the native server; its speed from the llama_perf lines it logs. */
async function nativeSpeed(url, alias, messages, nonce, port) {
  const logFile = join(CACHE, 'logs', `server-${port}.log`);
  const from = (await stat(logFile)).size;
  await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: alias, messages: withNonce(messages, nonce), max_tokens: GEN_TOKENS, temperature: 0, stream: false }),
  }).then((r) => r.json());
  await new Promise((done) => setTimeout(done, 300)); // the log line follows the reply
  const log = (await readFile(logFile, 'utf8')).slice(from);
  const prompt = /prompt eval time =\s*([\d.]+) ms \/\s*(\d+) tokens/.exec(log);
  const gen = /\beval time =\s*([\d.]+) ms \/\s*(\d+) runs/.exec(log.replace(/prompt eval time/g, ''));
  return {
    prompt: prompt ? Number(prompt[2]) / (Number(prompt[1]) / 1000) : NaN,
    gen: gen ? Number(gen[2]) / (Number(gen[1]) / 1000) : NaN,
    promptTokens: prompt ? Number(prompt[2]) : null,
    genTokens: gen ? Number(gen[2]) : null,
  };
}

async function measureSpeed(models, threadsList) {
  const rows = [];
  const browser = await openBrowser();
  for (const name of models) {
    const file = modelPath(name);
    const site = await startStatic({ root: join(ROOT, 'www'), port: 0, isolate: true, mounts: { '/models/': dirname(file) } });
    const url = `/models/${file.split('/').pop()}`;
    for (const threads of threadsList) {
      log(`${name}, ${threads} thread(s): in the page`);
      const { context, page } = await openPage(browser, site, threads);
      const fresh = await loadInPage(page, url, threads);
      // From the cache: a reload in the same profile.
      await page.reload();
      await page.waitForSelector('body[data-ready="1"]');
      const cached = await loadInPage(page, url, threads);
      const messages = await speedMessages(page);
      const inPage = [];
      for (let r = 0; r < reps; r++) inPage.push(await pageSpeed(page, messages, `p${threads}${r}`));
      await context.close();
      let native = null;
      if (!args['no-native']) {
        log(`${name}, ${threads} thread(s): native server on :${NATIVE_PORT}`);
        const server = nativeServer(name, threads);
        try {
          const runs = [];
          await nativeSpeed(server.url, server.alias, messages, 'warm', NATIVE_PORT); // the first request loads lazily
          for (let r = 0; r < reps; r++) runs.push(await nativeSpeed(server.url, server.alias, messages, `n${threads}${r}`, NATIVE_PORT));
          native = runs;
        } finally {
          server.stop();
        }
      }
      rows.push({ model: name, threads, fresh, cached, inPage, native, isolated: fresh.isolated, engineThreads: fresh.threads });
    }
    await site.close();
  }
  await browser.close();
  return rows;
}

function renderSpeed(rows) {
  const med = (runs, key) => (runs?.length ? median(runs.map((r) => r[key])) : NaN);
  const n = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
  return table(
    ['model', 'threads', 'load, first time (copy to OPFS + start)', 'load from the cache', 'prompt tok/s: in the page / native server (ratio)', 'generation tok/s: in the page / native server (ratio)', 'tokens (prompt / generated)'],
    rows.map((r) => {
      const pp = med(r.inPage, 'prompt');
      const pg = med(r.inPage, 'gen');
      const np = med(r.native, 'prompt');
      const ng = med(r.native, 'gen');
      return [
        MODELS[r.model].label, `${r.engineThreads}${r.engineThreads === r.threads ? '' : ` (asked ${r.threads})`}`,
        `${n(r.fresh.wallMs / 1000)} s (${n(r.fresh.cacheMs / 1000)} + ${n(r.fresh.engineMs / 1000)})`,
        `${n(r.cached.wallMs / 1000)} s`,
        `${n(pp)} / ${n(np)} (${n(pp / np, 2)})`,
        `${n(pg)} / ${n(ng)} (${n(pg / ng, 2)})`,
        `${r.inPage[0]?.promptTokens} / ${r.inPage[0]?.genTokens}`,
      ];
    }),
    'lrrrrrr',
  );
}

// ---------------------------------------------------------------- task success in the page

async function measureTasks(name, ids) {
  const data = await loadTasks();
  const tasks = ids.length ? data.tasks.filter((t) => ids.includes(t.id)) : data.tasks;
  const file = modelPath(name);
  const site = await startStatic({ root: join(ROOT, 'www'), port: 0, isolate: true, mounts: { '/models/': dirname(file) } });
  const browser = await openBrowser();
  const { page } = await openPage(browser, site, 1);
  await loadInPage(page, `/models/${file.split('/').pop()}`, 1);
  const records = [];
  const started = performance.now();
  for (const task of tasks) {
    const result = await page.evaluate(async ({ task, settings, now }) => {
      const { engine } = await import('./inpage.js');
      const { Agent } = await import('./pkg/reactloop.js');
      const realNow = Date.now;
      Date.now = () => now; // current_time reads the bench's fixed clock
      try {
        const agent = new Agent({ ...settings, inPage: true, model: 'in-page', lang: task.lang });
        agent.useModel(engine().model);
        const t0 = performance.now();
        const trace = await agent.run(task.question, null);
        return { trace, wallMs: performance.now() - t0, exported: agent.exportTrace() };
      } finally {
        Date.now = realNow;
      }
    }, { task, settings: { ...RUN_SETTINGS, stream: true }, now: data.now_unix_ms });
    const { trace } = result;
    const answer = trace.outcome?.type === 'answer' ? trace.outcome.answer : null;
    const record = {
      id: task.id, lang: task.lang, category: task.category, ok: answer != null && checkAnswer(task, answer),
      outcome: trace.outcome?.type, answer, steps: trace.steps.length, server: trace.server, wallMs: Math.round(result.wallMs),
      promptTokens: trace.steps.reduce((s, st) => s + (st.reply?.usage?.prompt_tokens ?? 0), 0),
      completionTokens: trace.steps.reduce((s, st) => s + (st.reply?.usage?.completion_tokens ?? 0), 0),
    };
    records.push({ record, exported: result.exported });
    log(`${task.id}: ${record.ok ? 'ok' : 'FAIL'} (${record.outcome}, ${record.steps} steps, ${(record.wallMs / 1000).toFixed(0)} s)`);
  }
  await browser.close();
  await site.close();
  return { records, wallMs: performance.now() - started, tasks };
}

async function compareWithNative(records) {
  try {
    const summary = JSON.parse(await readFile(join(ROOT, 'bench/results', args.against, 'summary.json'), 'utf8'));
    const byId = new Map(summary.records.map((r) => [r.id, r]));
    return records.map(({ record }) => ({ id: record.id, inPage: record.ok, native: byId.get(record.id)?.ok ?? null }));
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- main

const out = { date: new Date().toISOString(), loadavgStart: loadavg().map((x) => x.toFixed(1)).join(' ') };
let markdown = '';
if (only.includes('speed')) {
  const models = list(args.models).length ? list(args.models) : ['smollm', 'qwen'];
  out.speed = await measureSpeed(models, list(args.threads).map(Number));
  markdown += `### In-page engine speed\n\n${renderSpeed(out.speed)}\n\n`;
}
if (only.includes('tasks')) {
  const name = list(args.models)[0] ?? 'qwen';
  const ids = list(args.tasks);
  const { records, wallMs, tasks } = await measureTasks(name, ids);
  const date = new Date().toISOString().slice(0, 10);
  const dir = join(ROOT, 'bench/results', `${date}-inpage-${name}-defaults${ids.length ? `-subset${tasks.length}` : ''}`);
  await mkdir(dir, { recursive: true });
  for (const { record, exported } of records) if (!record.ok) await writeFile(join(dir, `${record.id}.json`), exported);
  const compared = await compareWithNative(records);
  const success = records.filter((r) => r.record.ok).length;
  const nativeSuccess = compared?.filter((c) => c.native).length;
  const summary = { model: MODELS[name].label, tasks: tasks.length, success, wallMs: Math.round(wallMs), settings: RUN_SETTINGS, against: args.against, nativeSuccess, compared, records: records.map((r) => r.record) };
  await writeFile(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  out.tasks = summary;
  const differ = compared?.filter((c) => c.native !== null && c.native !== c.inPage) ?? [];
  markdown += `### In-page task success (${MODELS[name].label}, Agent defaults)\n\n`
    + `in the page: **${success}/${tasks.length}**; the native server on the same tasks (${args.against}): **${nativeSuccess ?? '–'}/${tasks.length}**; `
    + `tasks that differ: ${differ.map((c) => `${c.id} (${c.inPage ? 'page ok' : 'native ok'})`).join(', ') || 'none'}; wall ${(wallMs / 1000).toFixed(0)} s → ${dir.slice(ROOT.length)}\n\n`;
}
out.loadavgEnd = loadavg().map((x) => x.toFixed(1)).join(' ');
markdown += `Load average at start / end: ${out.loadavgStart} / ${out.loadavgEnd}.\n`;
await mkdir(join(ROOT, 'bench/results'), { recursive: true });
await writeFile(join(ROOT, 'bench/results/latest-inpage.json'), `${JSON.stringify(out, null, 2)}\n`);
await writeFile(join(ROOT, 'bench/results/latest-inpage.md'), markdown);
console.log(markdown);
