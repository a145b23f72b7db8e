#!/usr/bin/env node
// Script time per step on the playground in headless Chromium (Chrome's own ScriptDuration
// counter, so the replay's pauses and the network wait do not count), after scripts/build:
//   node scripts/step-cost.mjs
// - a live 50-step run against the instant mock server (bench/lib/overhead.mjs), five times;
// - a 200-step trace (recorded from the same server by the wasm Agent in Node) imported with
//   "Import JSON trace" and replayed to its end.
// Issue 11 asks for both to stay under 2 ms per step, whatever the run's length. Last, the
// bytes of event JSON a live run hands the page, which does not depend on the machine's speed.
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { loadWasm, ROOT } from '../bench/lib/wasm.mjs';
import { startInstantServer } from '../bench/lib/overhead.mjs';
import { CHROMIUM_ARGS } from '../bench/lib/page-overhead.mjs';
import { startStatic } from './static-server.mjs';

const LIVE_STEPS = 50;
const TRACE_STEPS = 200;
// The page probes these on load; nothing on this machine may answer.
const LOCAL_SERVERS = /^http:\/\/localhost:(11434|8080|1234)\//;

const server = await startInstantServer();
const site = await startStatic({ root: join(ROOT, 'www'), port: 0 });
const { Agent } = await loadWasm();
const recorder = new Agent({ baseUrl: server.url, model: 'instant', maxSteps: TRACE_STEPS, historyRounds: 6, constrained: 'off' });
await recorder.run('Keep calling the calculator.');
const recording = recorder.exportTrace();
// What the core hands the page: the JSON of every event of a 50-step live run.
const eventBytes = {};
for (const rounds of [6, 50]) {
  const agent = new Agent({ baseUrl: server.url, model: 'instant', maxSteps: LIVE_STEPS, historyRounds: rounds, constrained: 'off' });
  let bytes = 0;
  await agent.run('Keep calling the calculator.', (event) => { bytes += JSON.stringify(event).length; });
  eventBytes[rounds] = bytes;
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.route(LOCAL_SERVERS, (route) => route.abort('connectionrefused'));
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.url}?${new URLSearchParams({ question: 'Keep calling the calculator.' })}`);
  await page.locator('body[data-ready="1"]').waitFor({ state: 'attached' });
  // A server typed in by hand (one from a link would wait for the reader's consent).
  await page.locator('#preset').selectOption('custom');
  await page.locator('#base-url').fill(server.url);
  await page.locator('#model').fill('instant');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const scriptMs = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'ScriptDuration').value * 1000;
  };
  /** Script ms per step of `action`, which ends when the outcome is drawn. */
  const measure = async (steps, action) => {
    await page.evaluate(() => document.querySelector('.outcome')?.remove());
    const before = await scriptMs();
    await action();
    // A plain querySelector ten times a second: a locator's wait or count runs Playwright's
    // selector engine over the whole page, in the page, and that counted as its script.
    await page.evaluate(() => new Promise((done, fail) => {
      const start = Date.now();
      const poll = setInterval(() => {
        if (document.querySelector('.outcome')) done(clearInterval(poll));
        else if (Date.now() - start > 120_000) fail(new Error('no outcome after 120 s'), clearInterval(poll));
      }, 100);
    }));
    const cards = await page.getByTestId('step-card').count();
    if (cards !== steps) throw new Error(`${cards} step cards, expected ${steps}`);
    return ((await scriptMs()) - before) / steps;
  };

  await page.evaluate((steps) => {
    document.querySelector('#max-steps').value = String(steps);
    document.querySelector('#history-rounds').value = '6';
  }, LIVE_STEPS);
  // Five runs, the median: one run's figure varies by a fifth from run to run here.
  const lives = [];
  for (let i = 0; i < 5; i++) lives.push(await measure(LIVE_STEPS, () => page.getByTestId('run').click()));
  const live = [...lives].sort((a, b) => a - b)[2];
  const imported = await measure(TRACE_STEPS, () =>
    page.locator('#import-file').setInputFiles({ name: 'trace.json', mimeType: 'application/json', buffer: Buffer.from(recording) }));
  if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);
  console.log(`live run, ${LIVE_STEPS} steps, instant mock: ${live.toFixed(2)} ms of script per step (median of ${lives.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`imported trace, ${TRACE_STEPS} steps, replayed: ${imported.toFixed(2)} ms of script per step`);
  const kb = (rounds) => `${(eventBytes[rounds] / 1000).toFixed(0)} KB with historyRounds ${rounds}`;
  console.log(`event JSON of a live run, ${LIVE_STEPS} steps (wasm Agent in Node): ${kb(6)}, ${kb(50)}`);
} finally {
  await browser.close();
  await Promise.all([server.close(), site.close()]);
}
