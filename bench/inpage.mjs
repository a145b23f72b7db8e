#!/usr/bin/env node
// The in-page engine's figures (issue 13): llama.cpp in wasm (@wllama/wllama) in headless
// Chromium, next to the same model in llama.cpp's native server on the same machine.
//
//   node bench/inpage.mjs [--only speed,readahead,steps,tasks] [--models smollm,qwen] [--threads 1,2]
//                         [--hosts headers,sw,none] [--builds default,compat] [--tasks id,...]
//                         [--reps 2] [--no-native]
//
//   speed  per model, host and thread count: load time (a fresh browser profile: the file
//          copied from the local server into OPFS and llama.cpp started; then from the cache),
//          prompt and generation tokens/s of the same request (the Agent's first prompt plus a
//          story to write, 128 tokens, temperature 0, no prompt cache), and the time to the
//          answer of the page's first demo question (the Agent's defaults), in the page and in
//          scripts/local-llm's native llama.cpp server (the same thread count, port 8300,
//          started here and stopped after), each as its own llama.cpp reports them (the
//          reply's timings): the ratio. Hosts: `headers` sends COOP/COEP (scripts/serve),
//          `sw` sends none and the page isolates itself with its service worker (one reload),
//          `none` sends none and allows no service worker (one thread). Builds: wllama's
//          `default` one (JSPI, Memory64; `compat: false`, as `?compat=0` asks) and the
//          `compat` one (32-bit memory, Asyncify; `compat: true`, as `?compat=1` asks), which
//          the page takes on the CPU by itself.
//   readahead  per model and thread count (the `headers` host, the page's own build): the
//          first step of the demo question with one token to write (the Agent's in-page
//          request, grammar included), its prompt cold (another prompt in the cache) and after
//          `engine().prefill(agent.opening())`, which the page does while the question is
//          written: what reading ahead takes, and the first step's wait before and after.
//   steps  per model (the first of --threads): the demo question at temperature 0 in the page
//          and on the native server, and per step how much of the prompt came from the
//          prompt cache against what the last request and its reply left there (the tokens
//          evaluated again although they were sent before).
//   tasks  bench/tasks/tasks.json (or --tasks) through the page's Agent with the Agent
//          defaults (auto → the in-page engine → the grammar), bench/lib/tasks.mjs's settings
//          and fixed clock; per task next to the native run in bench/results/<--against>.
//          Writes bench/results/<date>-inpage-<model>-defaults[-subsetN]/summary.json.
//
// Needs scripts/build (www/pkg, www/vendor/wllama) and scripts/local-llm install. Measure on a
// quiet machine: `pgrep -af 'bench/run.mjs|llama_cpp.server'` should show nothing else.
process.env.TZ = 'UTC';

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startStatic } from '../scripts/static-server.mjs';
import { ROOT } from './lib/wasm.mjs';
import { spawnSync } from 'node:child_process';
import { modelPath, MODELS } from './lib/llm.mjs';
import { RUN_SETTINGS, loadTasks } from './lib/tasks.mjs';
import { checkAnswer } from './tasks/check.mjs';
import { median, table } from './lib/table.mjs';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'speed,tasks' },
    models: { type: 'string' },
    threads: { type: 'string', default: '1,2' },
    hosts: { type: 'string', default: 'headers' },
    builds: { type: 'string', default: 'default' },
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
const ANSWER_TOKENS = 128;
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

/**
 * A fresh profile (an empty OPFS) with the page open and `threads` asked for. On the `sw` host
 * the page registers its service worker and reloads through it, as opening the engine does.
 */
async function openPage(browser, site, threads, host = 'headers') {
  const context = await browser.newContext({ timezoneId: 'UTC', serviceWorkers: host === 'sw' ? 'allow' : 'block' });
  const page = await context.newPage();
  page.on('pageerror', (e) => log('pageerror:', e.message));
  page.on('crash', () => log('the page crashed'));
  page.on('console', (m) => m.type() === 'error' && log('console:', m.text()));
  await page.goto(`${site.url}?threads=${threads}&lang=en`);
  await page.waitForSelector('body[data-ready="1"]');
  if (host === 'sw') {
    const reloaded = page.waitForEvent('load');
    await page.evaluate(async () => (await import('./isolation.js')).isolate({}));
    await reloaded;
    await page.waitForSelector('body[data-ready="1"]');
  }
  const isolated = await page.evaluate(() => crossOriginIsolated);
  if (isolated !== (host !== 'none')) throw new Error(`the page on the ${host} host is ${isolated ? '' : 'not '}cross-origin isolated`);
  return { context, page };
}

/** Loads the model in the page: `build` 'default' or 'compat', or unset for the page's own choice. */
async function loadInPage(page, url, threads, build) {
  return page.evaluate(async ({ src, threads, compat }) => {
    const { engine } = await import('./inpage.js');
    const t0 = performance.now();
    const info = await engine().load({ url: src }, { threads, compat });
    return { ...info, wallMs: performance.now() - t0 };
  }, { src: url, threads, compat: { default: false, compat: true }[build] });
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

/** The same request to the native server (llama.cpp's server: the reply has the same timings). */
async function nativeSpeed(url, alias, messages, nonce) {
  const reply = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: alias, messages: withNonce(messages, nonce), max_tokens: GEN_TOKENS, temperature: 0, stream: false, cache_prompt: false }),
  }).then((r) => r.json());
  const t = reply.timings ?? {};
  return { prompt: t.prompt_per_second ?? NaN, gen: t.predicted_per_second ?? NaN, promptTokens: t.prompt_n ?? null, genTokens: t.predicted_n ?? null };
}

/**
 * The wall time to the answer of the page's first demo question, with the Agent's defaults
 * but temperature 0, seed 42 and ANSWER_TOKENS a step:
 * in the page's engine, or (`server`) from the native server, asked by the same page.
 */
async function timeToAnswer(page, server = null) {
  return page.evaluate(async ({ server, ANSWER_TOKENS }) => {
    const { Agent, demoQuestions } = await import('./pkg/reactloop.js');
    const { engine } = await import('./inpage.js');
    // The page's defaults but greedy decoding, so both sides write the same kind of run, and
    // 128 tokens a step: greedy SmolLM2 repeats a phrase to the limit, 8 steps of 512 tokens.
    const settings = { temperature: 0, seed: 42, maxTokens: ANSWER_TOKENS };
    const agent = new Agent(server ? { ...settings, baseUrl: server.url, model: server.alias } : { ...settings, inPage: true, model: 'in-page' });
    if (!server) agent.useModel(engine().model);
    const t0 = performance.now();
    const trace = await agent.run(demoQuestions('en')[0], null);
    return {
      ms: performance.now() - t0, outcome: trace.outcome?.type, answer: trace.outcome?.answer ?? null, steps: trace.steps.length,
      usage: trace.steps.map((s) => s.reply?.usage ?? {}),
    };
  }, { server, ANSWER_TOKENS });
}

async function measureSpeed(models, threadsList, hosts, builds) {
  const rows = [];
  const browser = await openBrowser();
  for (const name of models) {
    const file = modelPath(name);
    const url = `/models/${file.split('/').pop()}`;
    const sites = {};
    for (const host of hosts) sites[host] = await startStatic({ root: join(ROOT, 'www'), port: 0, isolate: host === 'headers', mounts: { '/models/': dirname(file) } });
    for (const threads of threadsList) {
      let messages = null;
      for (const host of hosts) for (const build of builds) {
        // Without isolation the engine has one thread whatever is asked.
        if (host === 'none' && threads > 1) continue;
        log(`${name}, ${threads} thread(s), ${host} host, ${build} build: in the page`);
        const { context, page } = await openPage(browser, sites[host], threads, host);
        const fresh = await loadInPage(page, url, threads, build);
        if (Boolean(fresh.compat) !== (build === 'compat')) throw new Error(`asked for the ${build} build, got ${fresh.compat ?? 'the default'}`);
        // From the cache: a reload in the same profile.
        await page.reload();
        await page.waitForSelector('body[data-ready="1"]');
        const cached = await loadInPage(page, url, threads, build);
        messages ??= await speedMessages(page);
        const inPage = [];
        for (let r = 0; r < reps; r++) inPage.push(await pageSpeed(page, messages, `p${host}${build}${threads}${r}`));
        log('the demo question');
        const answer = await timeToAnswer(page);
        await context.close();
        rows.push({ model: name, host, build, threads, fresh, cached, inPage, answer, isolated: fresh.isolated, engineThreads: fresh.threads });
      }
      if (!args['no-native']) {
        log(`${name}, ${threads} thread(s): native server on :${NATIVE_PORT}`);
        const server = nativeServer(name, threads);
        const { context, page } = await openPage(browser, sites[hosts[0]], threads, hosts[0]);
        try {
          const runs = [];
          await nativeSpeed(server.url, server.alias, messages, 'warm'); // the first request loads lazily
          for (let r = 0; r < reps; r++) runs.push(await nativeSpeed(server.url, server.alias, messages, `n${threads}${r}`));
          const answer = await timeToAnswer(page, { url: server.url, alias: server.alias });
          for (const row of rows) if (row.model === name && row.threads === threads) Object.assign(row, { native: runs, nativeAnswer: answer });
          rows.push({ model: name, host: 'native', threads, inPage: runs, answer, engineThreads: threads });
        } finally {
          await context.close();
          server.stop();
        }
      }
    }
    for (const site of Object.values(sites)) await site.close();
  }
  await browser.close();
  return rows;
}

const HOSTS = {
  headers: 'the page, isolated by headers',
  sw: 'the page, isolated by its service worker (no headers)',
  none: 'the page, not isolated (no headers, no service worker)',
  native: 'native llama.cpp server',
};

function renderSpeed(rows) {
  const med = (runs, key) => (runs?.length ? median(runs.map((r) => r[key])) : NaN);
  const n = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
  const ratio = (x, y) => (Number.isFinite(x / y) ? ` (${n(x / y, 2)})` : '');
  return table(
    ['model', 'where', 'threads', 'load, first time (copy to OPFS + start)', 'load from the cache', 'prompt tok/s (× native)', 'generation tok/s (× native)', 'demo answer (× native time)'],
    rows.map((r) => {
      const native = r.host !== 'native';
      const pp = med(r.inPage, 'prompt');
      const pg = med(r.inPage, 'gen');
      return [
        MODELS[r.model].label, `${HOSTS[r.host]}${r.build === 'compat' ? ', compat build' : ''}`, `${r.engineThreads}${r.engineThreads === r.threads ? '' : ` (asked ${r.threads})`}`,
        r.fresh ? `${n(r.fresh.wallMs / 1000)} s (${n(r.fresh.cacheMs / 1000)} + ${n(r.fresh.engineMs / 1000)})` : '–',
        r.cached ? `${n(r.cached.wallMs / 1000)} s` : '–',
        `${n(pp)}${native ? ratio(pp, med(r.native, 'prompt')) : ''}`,
        `${n(pg)}${native ? ratio(pg, med(r.native, 'gen')) : ''}`,
        `${n(r.answer.ms / 1000)} s, ${r.answer.steps} step(s), ${r.answer.outcome}${native && r.nativeAnswer ? ` (${n(r.answer.ms / r.nativeAnswer.ms, 1)}×)` : ''}`,
      ];
    }),
    'llrrrrrr',
  );
}

// ---------------------------------------------------------------- reading the opening ahead

/**
 * The first step of `question` in the page, one token written, on an engine just loaded from
 * the cache (llama.cpp's server keeps earlier prompts' states and restores the closest: a
 * fresh engine is the only cold one): the wall time of its model call and llama.cpp's
 * timings; with `readAhead`, after the engine read the run's opening.
 */
async function firstStep(page, url, threads, question, readAhead) {
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  await loadInPage(page, url, threads);
  return page.evaluate(async ({ question, readAhead }) => {
    const { engine } = await import('./inpage.js');
    const { Agent } = await import('./pkg/reactloop.js');
    const agent = new Agent({ inPage: true, model: 'in-page', temperature: 0, seed: 42, maxTokens: 1 });
    let first = null;
    // Set before opening(): the run's constraint (and so its system prompt) is the in-page one.
    agent.useModel(async (body, options) => {
      const t0 = performance.now();
      const reply = await engine().model(body, options);
      first ??= { ms: performance.now() - t0, timings: engine().last.timings };
      agent.abort();
      return reply;
    });
    const read = readAhead ? await engine().prefill(agent.opening()) : null;
    await agent.run(question, null).catch(() => null);
    return { read, first };
  }, { question, readAhead });
}

async function measureReadAhead(models, threadsList) {
  const rows = [];
  const browser = await openBrowser();
  for (const name of models) {
    const file = modelPath(name);
    const url = `/models/${file.split('/').pop()}`;
    const site = await startStatic({ root: join(ROOT, 'www'), port: 0, isolate: true, mounts: { '/models/': dirname(file) } });
    for (const threads of threadsList) {
      log(`${name}, ${threads} thread(s): the first step, cold and read ahead`);
      const { context, page } = await openPage(browser, site, threads);
      const info = await loadInPage(page, url, threads); // into the cache
      const question = await page.evaluate(async () => (await import('./pkg/reactloop.js')).demoQuestions('en')[0]);
      const cold = [];
      const warm = [];
      for (let r = 0; r < reps; r++) {
        cold.push(await firstStep(page, url, threads, question, false));
        warm.push(await firstStep(page, url, threads, question, true));
      }
      await context.close();
      rows.push({ model: name, threads, engineThreads: info.threads, build: info.compat ? 'compat' : 'default', question, cold, warm });
    }
    await site.close();
  }
  await browser.close();
  return rows;
}

function renderReadAhead(rows) {
  const n = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
  const med = (runs, pick) => median(runs.map(pick));
  return table(
    ['model', 'threads', 'read ahead: tokens, time', 'first step cold: prompt tokens, time', 'first step after it: new tokens (cached), time'],
    rows.map((r) => [
      MODELS[r.model].label, `${r.engineThreads}${r.build === 'compat' ? ', compat build' : ''}`,
      `${med(r.warm, (w) => w.read?.prompt_n)}, ${n(med(r.warm, (w) => w.read?.prompt_ms) / 1000)} s`,
      `${med(r.cold, (c) => c.first.timings.prompt_n)}, ${n(med(r.cold, (c) => c.first.ms) / 1000)} s`,
      `${med(r.warm, (w) => w.first.timings.prompt_n)} (${med(r.warm, (w) => w.first.timings.cache_n)}), ${n(med(r.warm, (w) => w.first.ms) / 1000)} s`,
    ]),
    'lrrrr',
  );
}

// ---------------------------------------------------------------- what each step reuses

async function measureSteps(models, threads) {
  const rows = [];
  const browser = await openBrowser();
  for (const name of models) {
    const file = modelPath(name);
    const site = await startStatic({ root: join(ROOT, 'www'), port: 0, isolate: true, mounts: { '/models/': dirname(file) } });
    log(`${name}, ${threads} thread(s): the demo question's steps, in the page and native`);
    const { context, page } = await openPage(browser, site, threads);
    await loadInPage(page, `/models/${file.split('/').pop()}`, threads);
    rows.push({ model: name, where: 'page', steps: (await timeToAnswer(page)).usage });
    const server = nativeServer(name, threads);
    try {
      rows.push({ model: name, where: 'native', steps: (await timeToAnswer(page, { url: server.url, alias: server.alias })).usage });
    } finally {
      server.stop();
      await context.close();
      await site.close();
    }
  }
  await browser.close();
  return rows;
}

/** Per step: prompt tokens, from the cache, and evaluated again (in the last request or its reply, not reused). */
function renderSteps(rows) {
  return table(
    ['model', 'where', 'step: prompt tokens / from the cache / sent before but evaluated again'],
    rows.map((r) => [MODELS[r.model].label, r.where === 'page' ? 'the page' : 'native server', r.steps.map((u, i) => {
      const before = i ? (r.steps[i - 1].prompt_tokens ?? 0) + (r.steps[i - 1].completion_tokens ?? 0) : 0;
      return `${i + 1}: ${u.prompt_tokens ?? '?'} / ${u.cached_tokens ?? '?'} / ${u.cached_tokens == null ? '?' : Math.max(0, before - u.cached_tokens)}`;
    }).join('; ')]),
    'lll',
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
  out.speed = await measureSpeed(models, list(args.threads).map(Number), list(args.hosts), list(args.builds));
  markdown += `### In-page engine speed\n\n${renderSpeed(out.speed)}\n\n`;
}
if (only.includes('readahead')) {
  const models = list(args.models).length ? list(args.models) : ['smollm', 'qwen'];
  out.readAhead = await measureReadAhead(models, list(args.threads).map(Number));
  markdown += `### Reading the opening ahead (the demo question's first step, one token written; medians of ${reps})\n\n${renderReadAhead(out.readAhead)}\n\n`;
}
if (only.includes('steps')) {
  const models = list(args.models).length ? list(args.models) : ['smollm', 'qwen'];
  out.steps = await measureSteps(models, Number(list(args.threads)[0] ?? 1));
  markdown += `### What each step of the demo question reuses from the prompt cache\n\n${renderSteps(out.steps)}\n\n`;
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
