// The in-page engine (llama.cpp in wasm, in a Worker) in the playground, with SmolLM2-135M
// served by the suite's static server (global-setup.mjs). No model server runs: every
// reply comes from the tab itself.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { test, expect, LOCAL_SERVERS, reloadPage } from '../e2e/fixtures.mjs';
import { MODEL, open, loadSmollm } from './page.mjs';

const counts = async () => (await fetch(process.env.COUNTS_URL)).json();

// The plain host plays a static host in a browser that gives the page no service worker (a
// private window); the tests of the site's own isolation allow them.
test.use({ serviceWorkers: 'block' });

/**
 * Short, bounded runs: three steps of at most 120 tokens. Under the grammar the last step the
 * limit allows may only be the answer, and a Thought that ran on to the token limit is given
 * back closed, so the 135M model reaches a final answer (not necessarily a right one) within
 * the limit. The token limit bounds the time: on a slow CPU llama.cpp's wasm build writes
 * 3-4 tokens/s, and SmolLM2 may repeat one phrase until the limit.
 */
async function shortRuns(page, { maxTokens = 120 } = {}) {
  await page.locator('#connect-panel details.sub > summary').click();
  await page.locator('#max-steps').fill('3');
  await page.locator('#max-tokens').fill(String(maxTokens));
}

test('a live run in the page: grammar, streamed tokens, a responsive page, a final answer', async ({ page }) => {
  // The clock's text is in the prompt: a fixed one makes the model's replies the same on
  // every run (this time once made SmolLM2 repeat the date until the token limit).
  await page.clock.setFixedTime(new Date('2026-12-01T06:19:40Z'));
  await open(page);
  await loadSmollm(page);
  await expect(page.getByTestId('inpage-status')).toContainText("Chat template: the model's own");
  await expect(page.getByTestId('inpage-status')).toContainText(/of \d+ cores/); // cross-origin isolated
  await shortRuns(page);
  await page.getByTestId('question').fill('What time is it?');
  // How long a click waits for its handler, measured by the page (event.timeStamp is when the
  // browser created the event).
  await page.evaluate(() => {
    window.clickDelays = [];
    document.querySelector('#tools-panel > summary').addEventListener('click', (event) => {
      window.clickDelays.push(performance.now() - event.timeStamp);
    });
  });
  await page.getByTestId('run').click();
  // Tokens stream into the card while the model writes.
  await expect(page.locator('pre.live').first()).toContainText('Thought:');
  await page.locator('#tools-panel > summary').click();
  await page.locator('#tools-panel > summary').click();
  await expect(page.getByTestId('final-answer')).toBeVisible();
  const delays = await page.evaluate(() => window.clickDelays);
  expect(delays.length).toBe(2);
  for (const delay of delays) expect(delay).toBeLessThan(200);
  // The same trace as with a server: the grammar went out, the engine is named, the model's
  // raw text is in the X-ray.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const trace = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(trace.server).toEqual({ kind: 'in_page', constrained: 'grammar' });
  expect(trace.steps[0].request.constrained).toBe('grammar');
  expect(trace.steps[0].reply.text).toMatch(/^Thought: /);
  expect(trace.steps[0].reply.usage.completion_tokens).toBeGreaterThan(0);
  expect(trace.outcome.type).toBe('answer');
  // The second request reused the prompt cache: only the new tokens were evaluated.
  await expect(page.getByTestId('inpage-speed')).toContainText(/\(([1-9]\d*) reused from the cache\)/);
});

test("the page's own limits (512 tokens, 8 steps) reach an answer: an argument cannot run away", async ({ page }) => {
  // Issue 23: the calculator's expression was any string, and SmolLM2 wrote
  // `} + 7 + 12 = 12 * 7 = 84. 84 is 12 * 7. …` to the token limit, step after step. The
  // grammar now lets an argument hold only what its tool reads.
  await page.clock.setFixedTime(new Date('2026-12-01T06:19:40Z'));
  await open(page);
  await loadSmollm(page);
  await expect(page.locator('#max-tokens')).toHaveValue('512');
  await expect(page.locator('#max-steps')).toHaveValue('8');
  await page.getByTestId('question').fill('What is 12 * 7?');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('final-answer')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const trace = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(trace.config.max_steps).toBe(8);
  expect(trace.outcome.type).toBe('answer');
  for (const step of trace.steps) {
    if (step.call?.tool !== 'calculator') continue;
    expect(step.call.args.expression).toMatch(/^[0-9 .,+*\/%^()a-z-]+$/);
  }
});

test('Compare runs the in-page model in a column beside the demo model', async ({ page }) => {
  await page.clock.setFixedTime(new Date('2026-12-01T06:19:40Z'));
  await open(page);
  await loadSmollm(page);
  await shortRuns(page, { maxTokens: 60 });
  await page.getByTestId('question').fill('What is 12 * 7?');
  await page.locator('#compare-panel > summary').click();
  // Chain of thought: one request to the engine, then the column's summary.
  const configs = page.locator('.compare-config');
  await configs.nth(0).getByTestId('compare-server').selectOption('inpage');
  await configs.nth(0).getByTestId('compare-strategy').selectOption('cot');
  await configs.nth(1).getByTestId('compare-server').selectOption('demo');
  await page.getByTestId('compare').click();
  const [inPage, demo] = [0, 1].map((i) => page.getByTestId('compare-column').nth(i));
  await expect(demo.getByTestId('final-answer')).toHaveText('The result is 84.');
  await expect(inPage).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(inPage.getByTestId('compare-summary')).toContainText('1 step');
  const card = inPage.getByTestId('step-card').first();
  // The engine's own counts, with its prompt cache's share.
  await expect(card).toContainText(/\d+ \(\d+ from the prompt cache\) → \d+ tokens/, { timeout: 5000 });
  await expect(card).toContainText('Thought', { timeout: 5000 });
  await expect(inPage.getByTestId('error')).toHaveCount(0);
});

test('Stop aborts the generation at once, and the next run works', async ({ page }) => {
  await open(page, process.env.PLAIN_PAGE_URL);
  await loadSmollm(page);
  // No isolation headers, and the service worker that would add them never starts (Playwright
  // blocks its registration): one thread, and the panel says why.
  await expect(page.getByTestId('inpage-status')).toContainText('One thread: the service worker that adds the isolation headers did not start within 5 s.');
  await page.locator('#ui-lang').selectOption('zh');
  await expect(page.getByTestId('inpage-status')).toContainText('单线程：添加隔离头的 service worker 在 5 秒内没有启动。');
  await page.locator('#ui-lang').selectOption('en');
  await shortRuns(page, { maxTokens: 400 });
  await page.getByTestId('question').fill('What is 23 * 17 + 4?');
  await page.getByTestId('run').click();
  await expect(page.locator('pre.live').first()).toContainText('Thought: ');
  const stopped = Date.now();
  await page.locator('#stop').click();
  await expect(page.locator('.outcome')).toContainText('Stopped by the user.', { timeout: 1000 });
  expect(Date.now() - stopped).toBeLessThan(1000);
  await expect(page.locator('.row.cut-off pre')).toContainText('Thought: ');
  // The engine finishes the aborted token and takes the next request.
  await page.locator('#max-tokens').fill('120');
  await page.getByTestId('run').click();
  await expect(page.locator('.outcome')).toBeVisible();
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test.describe('with service workers', () => {
  test.use({ serviceWorkers: 'allow' });

  test('under a subpath of a host that sends no isolation headers, opening the engine makes the page isolated with one reload, and SmolLM2 loads on more than one thread', async ({ page }) => {
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const threads = Math.min(2, cores);
    await open(page, process.env.COURSE_PAGE_URL, { threads: String(threads) });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    let loads = 0;
    page.on('load', () => loads++);
    await page.locator('#preset').selectOption('inpage');
    await expect.poll(() => page.evaluate(() => crossOriginIsolated).catch(() => false)).toBe(true);
    await expect(page.locator('body[data-ready="1"]')).toBeAttached();
    expect(loads).toBe(1);
    await expect(page.locator('#preset')).toHaveValue('inpage');
    await page.locator('#model-url').fill(MODEL());
    await page.locator('#model-url-load').click();
    await expect(page.getByTestId('inpage-status')).toContainText(`${threads} thread(s) of ${cores} cores (cross-origin isolated)`);
    expect(threads).toBeGreaterThan(1); // a machine with one core gets one thread, isolated or not
  });
});

test('after a reload the model comes from the cache, and a link runs it with autorun', async ({ page }) => {
  await open(page);
  const before = (await counts())[MODEL()] ?? 0;
  await loadSmollm(page);
  expect((await counts())[MODEL()]).toBe(before + 1);
  await expect(page.getByTestId('cached-model')).toContainText('SmolLM2-135M-Instruct.Q4_1.gguf (98 MB)');
  // A same-origin model-src loads without asking, and autorun starts once it is loaded.
  await open(page, process.env.PAGE_URL, { 'model-src': MODEL(), question: 'What is 2 + 3?', autorun: '1' });
  await expect(page.locator('#preset')).toHaveValue('inpage');
  await expect(page.getByTestId('inpage-status')).toContainText('from the cache');
  await expect(page.getByTestId('step-card').first()).toBeVisible();
  await page.locator('#stop').click();
  // Choosing the engine again after a reload loads the cached model by itself.
  await reloadPage(page);
  await page.locator('#preset').selectOption('inpage');
  await expect(page.getByTestId('inpage-status')).toContainText('from the cache');
  expect((await counts())[MODEL()]).toBe(before + 1); // never read again
  // Forget removes it from the cache.
  await page.getByTestId('forget-model').click();
  await expect(page.getByTestId('cached-model')).toHaveCount(0);
});

test('a file that is not a GGUF, a missing one and a foreign model-src each say what is wrong', async ({ page }) => {
  await open(page, process.env.PLAIN_PAGE_URL);
  await page.locator('#preset').selectOption('inpage');
  await page.getByTestId('model-file').setInputFiles({ name: 'notes.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from('just some notes, not a model\n') });
  await expect(page.getByTestId('inpage-problem')).toContainText('notes.gguf is not a GGUF model file');
  await page.locator('#model-url').fill('/fixtures/not-a-model.gguf');
  await page.locator('#model-url-load').click();
  await expect(page.getByTestId('inpage-problem')).toContainText('not-a-model.gguf is not a GGUF model file');
  await expect(page.getByTestId('inpage-problem')).toContainText('<!doctype');
  await page.locator('#model-url').fill('/models/missing.gguf');
  await page.locator('#model-url-load').click();
  await expect(page.getByTestId('inpage-problem')).toContainText('HTTP 404');
  // A host on another origin that does not allow this page (no CORS headers).
  await page.locator('#model-url').fill(`${process.env.PAGE_URL}models/missing-too.gguf`);
  await page.locator('#model-url-load').click();
  await expect(page.getByTestId('inpage-problem')).toContainText('does not allow this page (CORS');
  // Nothing was kept, and a run says to load a model first.
  await expect(page.getByTestId('cached-model')).toHaveCount(0);
  await page.getByTestId('question').fill('What is 2 + 3?');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('error')).toContainText('Load a model first');
  // A model on another origin is not downloaded before the person agrees.
  await open(page, process.env.PLAIN_PAGE_URL, { 'model-src': `${process.env.PAGE_URL}models/elsewhere.gguf`, autorun: '1', question: 'q' });
  await expect(page.locator('#inpage-confirm')).toContainText('wants to load a model from');
  await expect(page.getByTestId('confirm-model-src')).toBeVisible();
  expect((await counts())['/models/elsewhere.gguf'] ?? 0).toBe(0); // not even a HEAD
});

test('<react-loop model-src> says the size, downloads nothing before the click, then runs live in the page', async ({ page }) => {
  await page.route(LOCAL_SERVERS, (route) => route.abort('connectionrefused'));
  const before = (await counts())[MODEL()] ?? 0;
  await page.goto(`${process.env.PAGE_URL}fixtures/docs.html`);
  const loop = page.locator('react-loop');
  const offer = loop.getByTestId('inpage-offer');
  await expect(offer).toHaveText('Run it live in this page (SmolLM2-135M-Instruct.Q4_1.gguf, 98 MB)');
  await expect(loop.locator('.mode')).toHaveText('Recording'); // the recording plays meanwhile
  await page.waitForTimeout(500);
  // Only the HEAD request for the size reached the server.
  expect((await counts())[MODEL()] ?? 0).toBeLessThanOrEqual(before + 1);
  await offer.click();
  await expect(loop.locator('.mode')).toHaveText('Live');
  await expect(loop.locator('.note')).toContainText('Live in this page');
  // The engine reads the element's system prompt while the reader looks at the question.
  await expect.poll(() => page.evaluate(async () => (await import('/inpage.js')).engine().cachedSystem)).toContain('Tools:');
  await loop.locator('input[name="question"]').fill('What time is it?');
  await loop.locator('button[type="submit"]').click();
  await expect(loop.locator('pre.live').first()).toContainText('Thought:');
  await loop.getByRole('button', { name: 'Stop' }).click();
  await expect(loop.locator('.outcome')).toContainText('Stopped by the user.');
});

test('a model from the list downloads only once the person agrees, then loads', async ({ page }) => {
  // A stand-in for Hugging Face: a host of its own on this machine serves the local SmolLM2 file
  // with CORS headers, and the list's URL redirects there (as huggingface.co redirects to its
  // file store); the 98 MB do not pass through Playwright.
  const host = createServer((req, res) => {
    const headers = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
    stat(process.env.SMOLLM_FILE).then(({ size }) => {
      res.writeHead(200, { ...headers, 'content-type': 'application/octet-stream', 'content-length': size });
      createReadStream(process.env.SMOLLM_FILE).pipe(res);
    });
  });
  await new Promise((done) => host.listen(0, '127.0.0.1', done));
  const asked = [];
  await page.context().route(/^https:\/\/huggingface\.co\//, (route) => {
    asked.push(route.request().url());
    return route.fulfill({
      status: 302,
      headers: { location: `http://127.0.0.1:${host.address().port}/model.gguf`, 'access-control-allow-origin': '*' },
    });
  });
  try {
    await open(page);
    await page.locator('#preset').selectOption('inpage');
    await expect(page.getByTestId('catalog-model')).toHaveCount(3);
    await expect(page.getByTestId('catalog-model').nth(1)).toContainText('Qwen2.5-0.5B-Instruct Q4_K_M (~400 MB)');
    const smollm = page.getByTestId('catalog-pick').first();
    await expect(smollm).toHaveAccessibleName('Download SmolLM2-135M-Instruct Q4_K_M');
    await smollm.click();
    await expect(page.locator('#inpage-confirm')).toContainText('Download SmolLM2-135M-Instruct Q4_K_M (~100 MB) from huggingface.co into this page?');
    await page.getByTestId('decline-model-src').click();
    await expect(page.locator('#inpage-confirm')).toBeHidden();
    await page.waitForTimeout(300);
    expect(asked, 'nothing is asked of the host before the person agrees').toEqual([]);
    await smollm.click();
    await page.getByTestId('confirm-model-src').click();
    await expect(page.getByTestId('inpage-status')).toContainText('is loaded');
    expect(asked).toEqual(['https://huggingface.co/bartowski/SmolLM2-135M-Instruct-GGUF/resolve/main/SmolLM2-135M-Instruct-Q4_K_M.gguf']);
    await expect(page.getByTestId('cached-model')).toHaveCount(1);
  } finally {
    host.close();
    host.closeAllConnections();
  }
});
