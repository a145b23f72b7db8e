// The loop on the real playground page in headless Chromium: 200-step runs against the
// instant server (overhead.mjs), DOM rendering of every step card included. Skipped while
// www/ has no page.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './wasm.mjs';
import { startInstantServer } from './overhead.mjs';
import { startStatic } from '../../scripts/static-server.mjs';
import { median, percentile } from './table.mjs';

const STEPS = 200;
const RUNS = 3;
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
// The page probes these on load; nothing running on this machine may answer.
const LOCAL_SERVERS = /^http:\/\/localhost:(11434|8080|1234)\//;

async function oneRun(page, handlerMs) {
  const before = handlerMs.length;
  // Time each step card's arrival: a card opens when its request goes out.
  await page.evaluate(() => {
    window.__cards = [];
    window.__seen = new Set();
    window.__observer?.disconnect();
    window.__observer = new MutationObserver((records) => {
      for (const r of records) {
        for (const node of r.addedNodes) {
          // A card is redrawn (replaced) as its step progresses; count its first appearance.
          const id = node.nodeType === 1 && node.matches?.('[data-testid="step-card"]') && node.getAttribute('aria-labelledby');
          if (id && !window.__seen.has(id)) {
            window.__seen.add(id);
            window.__cards.push(performance.now());
          }
        }
      }
    });
    window.__observer.observe(document.querySelector('#trace'), { childList: true, subtree: true });
    window.__t0 = performance.now();
  });
  await page.getByTestId('run').click();
  await page.locator('.outcome').waitFor({ state: 'attached', timeout: 600_000 });
  const { cards, t0, end, outcome, count } = await page.evaluate(
    () =>
      new Promise((ok) =>
        requestAnimationFrame(() =>
          ok({
            cards: window.__cards,
            t0: window.__t0,
            end: performance.now(),
            outcome: document.querySelector('.outcome').className,
            count: document.querySelectorAll('[data-testid="step-card"]').length,
          }),
        ),
      ),
  );
  const handler = handlerMs.slice(before);
  const steps = cards.map((t, i) => (cards[i + 1] ?? end) - t - (handler[i] ?? 0));
  return { steps, total: end - t0, count, outcome, cards: cards.length };
}

export async function measureOverheadPage() {
  try {
    await access(join(ROOT, 'www/index.html'));
  } catch {
    return { skipped: 'Page row: TODO, www/index.html does not exist on this branch yet (the playground is not merged).' };
  }
  const { chromium } = await import('@playwright/test');
  const site = await startStatic({ root: join(ROOT, 'www'), port: 0 });
  const server = await startInstantServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const result = {};
    for (const stream of [false, true]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.route(LOCAL_SERVERS, (route) => route.abort('connectionrefused'));
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const params = new URLSearchParams({ endpoint: server.url, model: 'instant', question: 'Keep calling the calculator.' });
      await page.goto(`${site.url}?${params}`);
      await page.locator('body[data-ready="1"]').waitFor({ state: 'attached' });
      // A link's endpoint is used only once the person agrees (the permalink rule).
      await page.getByTestId('confirm-endpoint').click();
      // The Limits panel is folded; the page reads these inputs when a run starts.
      await page.evaluate(({ steps, stream }) => {
        document.querySelector('#max-steps').value = String(steps);
        document.querySelector('#history-rounds').value = '6';
        document.querySelector('#stream').checked = stream;
      }, { steps: STEPS, stream });
      const runs = [];
      await oneRun(page, server.handlerMs); // warm-up
      for (let i = 0; i < RUNS; i++) runs.push(await oneRun(page, server.handlerMs));
      if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);
      for (const r of runs) {
        if (r.count !== STEPS || r.cards !== STEPS || !/outcome-step_limit/.test(r.outcome)) {
          throw new Error(`page run ended early: ${r.count} cards, ${r.outcome}`);
        }
      }
      const steps = runs.flatMap((r) => r.steps);
      result[stream ? 'stream' : 'plain'] = {
        runs: RUNS,
        medianStepMs: median(steps),
        p90StepMs: percentile(steps, 90),
        wallPerStepMs: median(runs.map((r) => r.total / STEPS)),
        // Does a step get slower as the trace grows? Medians of the first and last 50 steps.
        firstStepsMs: median(runs.flatMap((r) => r.steps.slice(0, 50))),
        lastStepsMs: median(runs.flatMap((r) => r.steps.slice(-50))),
      };
      await page.close();
    }
    return result;
  } finally {
    await browser.close();
    await server.close();
    await site.close();
  }
}
