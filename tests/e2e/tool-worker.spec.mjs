// Tools written in the Tools panel run in a dedicated Worker (www/worker-tool.js): a tool that
// never returns cannot freeze the page, its timeout terminates it and is recorded as a
// timeout, and its code cannot read the page's localStorage (where the API key is kept).
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startStatic } from '../../scripts/static-server.mjs';
import { test, expect, openPage, useServer, mockUrl, mockRequests, finalAnswer } from './fixtures.mjs';

let runs = 0;
const runId = (name) => `${name}-${process.pid}-${++runs}`;

/** Adds (or replaces) the tool js_tool with this body, the way a person does. */
async function addTool(page, body, { timeoutMs = 10000 } = {}) {
  const panel = page.locator('#tools-panel');
  if (!(await panel.evaluate((d) => d.open))) await panel.locator('> summary').click();
  await page.locator('#js-name').fill('js_tool');
  await page.locator('#js-description').fill('A test tool.');
  await page.locator('#js-parameters').fill('{"type": "object", "properties": {"x": {"type": "number"}}}');
  await page.locator('#js-body').fill(body);
  await page.locator('#js-timeout').fill(String(timeoutMs));
  await page.locator('#js-tool-status').evaluate((status) => { status.textContent = ''; });
  await page.locator('#js-tool-form button[type=submit]').click();
  await expect(page.locator('#js-tool-status')).toContainText('Tool js_tool is ready.');
}

async function ask(page, question = 'Call the tool.') {
  await page.getByTestId('question').fill(question);
  await page.getByTestId('run').click();
}

async function exportedTrace(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  return JSON.parse(await readFile(await download.path(), 'utf8'));
}

/** Milliseconds from a click to the next frame after it is handled. */
const clickLatency = (page, selector) => page.evaluate((sel) => new Promise((done) => {
  const start = performance.now();
  document.querySelector(sel).click();
  requestAnimationFrame(() => setTimeout(() => done(performance.now() - start)));
}), selector);

test('while (true) {} in a tool: the page stays responsive, Stop ends the worker, a new run works', async ({ page }) => {
  await openPage(page);
  await addTool(page, 'while (true) {}', { timeoutMs: 60000 });
  const started = page.waitForEvent('worker', (w) => w.url().endsWith('/tool-worker.js'));
  await useServer(page, mockUrl('js-hang', runId('forever')));
  await ask(page);
  const worker = await started;
  let closed = false;
  worker.once('close', () => { closed = true; });

  await expect(page.getByTestId('step-card').first().locator('.card-status')).toHaveText('Running js_tool …');
  expect(await clickLatency(page, '#prompt-panel > summary')).toBeLessThan(1000);

  await page.locator('#stop').click();
  await expect(page.locator('.outcome')).toContainText('Stopped by the user.', { timeout: 1000 });
  // Stop terminated the worker, long before its own 60 s limit (terminate() is called at once;
  // the browser reports the closed worker about a second later).
  await expect.poll(() => closed, { message: 'the worker was terminated', timeout: 5000 }).toBe(true);

  // A new run, against a server whose model does not call the tool, is not held up.
  await useServer(page, mockUrl('calc', runId('after')));
  await page.getByTestId('question').fill('What is 23 * 17 + 4?'); // the question the mock answers
  const clicked = Date.now();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('step-card').first()).toBeVisible({ timeout: 1000 });
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  expect(Date.now() - clicked).toBeLessThan(2000);
});

test('a 3 s busy loop with a 300 ms timeout is recorded as a timeout, not a success', async ({ page }) => {
  await openPage(page);
  await addTool(page, 'const end = Date.now() + 3000;\nwhile (Date.now() < end) {}\nreturn "finished";', { timeoutMs: 300 });
  await useServer(page, mockUrl('js-hang', runId('busy')));
  const clicked = Date.now();
  await ask(page);
  const message = 'js_tool timed out: its worker was stopped after 300 ms without an answer';
  await expect(finalAnswer(page)).toContainText(message);
  expect(Date.now() - clicked, 'the loop was stopped, not waited for').toBeLessThan(2500);
  await expect(page.getByTestId('step-card').first().locator('.observation')).toContainText(message);
  const [step] = (await exportedTrace(page)).steps;
  expect(step.observation.source).toBe('tool_error');
  expect(step.observation.text).not.toContain('finished');
  expect(step.observation.elapsed_ms).toBeLessThan(2500);
  expect(step.guards.map((g) => g.type)).toContain('tool_failed');
});

test('tool code cannot read localStorage, the DOM or the saved key', async ({ page }) => {
  await openPage(page);
  await page.evaluate(() => localStorage.setItem('reactloop.test-secret', 'sk-not-for-tools'));
  await addTool(page, 'return [typeof localStorage, typeof document, typeof window, typeof sessionStorage].join(" ");');
  await useServer(page, mockUrl('js-object', runId('typeof')));
  await ask(page);
  await expect(finalAnswer(page)).toHaveText('The tool returned: undefined undefined undefined undefined');

  await addTool(page, 'return localStorage.getItem("reactloop.test-secret");');
  await useServer(page, mockUrl('js-object', runId('read')));
  await ask(page);
  await expect(finalAnswer(page)).toContainText('localStorage is not defined');
  await expect(page.getByTestId('step-card').first().locator('.observation')).not.toContainText('sk-not-for-tools');
});

test('results come back as before: JSON for objects, errors as observations, capped size', async ({ page }) => {
  await openPage(page);
  const cases = [
    ['js-object', 'return {a: 1, list: [2, 3]};', 'The tool returned: {"a":1,"list":[2,3]}'],
    ['js-object', 'return 41 + args.x;', 'The tool returned: 42'],
    ['js-undefined', 'return undefined;', 'The tool returned: (The tool returned nothing.)'],
    ['js-throw', 'throw new Error("boom");', 'failed (its promise was rejected): boom'],
    ['js-circular', 'const o = {}; o.self = o; return o;', 'cannot be written as text'],
  ];
  for (const [scenario, body, expected] of cases) {
    await addTool(page, body);
    await useServer(page, mockUrl(scenario, runId(scenario)));
    await ask(page);
    await expect(finalAnswer(page)).toContainText(expected);
  }
  await addTool(page, "return 'x'.repeat(300000);");
  await page.locator('#connect-panel details.sub > summary').click();
  await page.locator('#observation-limit').fill('2000000');
  await useServer(page, mockUrl('big-observation', runId('big')));
  await ask(page);
  // 100,000 characters and the truncation note: the runtime's cap, as for any JS tool.
  await expect(finalAnswer(page)).toHaveText(/^Received 1000\d\d characters\.$/);
  const [step] = (await exportedTrace(page)).steps;
  expect(step.observation.text).toContain('[truncated: showing 100000 of 300000 characters]');
});

test('a body that does not compile is refused when it is added', async ({ page }) => {
  await openPage(page);
  await page.locator('#tools-panel > summary').click();
  await page.locator('#js-name').fill('broken');
  await page.locator('#js-body').fill('return (;');
  await page.locator('#js-tool-form button[type=submit]').click();
  await expect(page.locator('#js-tool-status')).toContainText('The body does not compile:');
  await expect(page.locator('#js-tools li')).toHaveCount(0);
});

test('a tool named like a built-in is refused with the core\'s message, and the built-ins are listed', async ({ page }) => {
  await openPage(page);
  await page.locator('#tools-panel > summary').click();
  await expect(page.locator('input[name=builtin]')).toHaveCount(3);
  await page.locator('#js-name').fill('calculator');
  await page.locator('#js-body').fill('return 1;');
  await page.locator('#js-tool-form button[type=submit]').click();
  await expect(page.locator('#js-tool-status')).toContainText('calculator');
  await expect(page.locator('#js-tools li')).toHaveCount(0);
});

// The page's own policy (a header on the HTML only, as a <meta> tag would be): no eval on the
// page. The worker file is fetched on its own and may compile tool code; that is its job.
test.describe('under a Content-Security-Policy without unsafe-eval', () => {
  const csp = "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";
  let site;
  test.beforeAll(async () => {
    const root = fileURLToPath(new URL('../../www/', import.meta.url));
    site = await startStatic({ root, headers: (file) => (file.endsWith('.html') ? { 'content-security-policy': csp } : {}) });
  });
  test.afterAll(() => site.close());

  test('no script the page loads compiles code from strings; only the worker does', async () => {
    const www = new URL('../../www/', import.meta.url);
    const scripts = (await readdir(www, { recursive: true })).filter((f) => f.endsWith('.js'));
    expect(scripts).toContain('pkg/reactloop.js');
    const compiling = [];
    for (const file of scripts) {
      const text = await readFile(new URL(file, www), 'utf8');
      // \b before AsyncFunction: the vendored engine (www/vendor/wllama) has makeAsyncFunction, which compiles nothing.
      if (/\bnew Function\b|\beval\(|\bAsyncFunction/.test(text)) compiling.push(file);
    }
    expect(compiling).toEqual(['tool-worker.js']);
  });

  test('the page compiles nothing itself and tools still run', async ({ page }) => {
    const violations = [];
    page.on('console', (msg) => { if (/Content.Security.Policy/i.test(msg.text())) violations.push(msg.text()); });
    const response = await page.goto(site.url);
    expect(response.headers()['content-security-policy']).toBe(csp);
    await expect(page.locator('body[data-ready="1"]')).toBeAttached();
    await addTool(page, 'return 41 + args.x;');
    await useServer(page, mockUrl('js-object', runId('csp')));
    await ask(page);
    await expect(finalAnswer(page)).toHaveText('The tool returned: 42');
    expect(violations).toEqual([]);
  });
});

// The README's weather tool, added in the Tools panel (no keywords; `examples`, one a line),
// and the Ollama stand-in as the server.
async function addWeatherTool(page, run, lang, examples) {
  await page.locator('#tools-panel > summary').click();
  await page.locator('#js-name').fill('weather');
  await page.locator('#js-description').fill('Current weather for a city.');
  await page.locator('#js-keywords').fill('');
  await page.locator('#js-examples').fill(examples);
  await page.locator('#js-parameters').fill('{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}');
  await page.locator('#js-body').fill('return `Sunny, 21 °C in ${args.city}`;');
  await page.locator('#js-tool-form button[type=submit]').click();
  await expect(page.locator('#js-tool-status')).toContainText(lang === 'en' ? 'Tool weather is ready.' : '工具 weather 已就绪。');
  await useServer(page, mockUrl('ollama', run));
  await page.locator('#model').fill('qwen2.5-coder:0.5b');
}

// A page's own tool is steered to like a built-in (issue 42): the README's weather tool, added
// in the Tools panel, is the one the first reply may call for a weather question, though
// "right now" is a word for the clock; the anatomy's tool fit says why, in both languages.
for (const [lang, subject, outranked] of [
  ['en', 'the question asks about “weather”, its subject', '“now” counts for weather, what the question asks about'],
  ['zh', '问题问的是“weather”，正是它的主题', '“now”属于问题所问的 weather'],
]) {
  test(`a tool added in the Tools panel is steered to for its question, and the fit shows why (${lang})`, async ({ page }) => {
    const run = runId(`page-tool-${lang}`);
    await openPage(page, { lang });
    await addWeatherTool(page, run, lang, 'Will it rain in Paris today?');
    await ask(page, 'What is the weather like in Lisbon right now?');
    await expect(finalAnswer(page)).toHaveText('The answer is Sunny, 21 °C in Lisbon.');
    const [first] = await mockRequests('ollama', run);
    expect(first.body.response_format.json_schema.schema.properties.action.const).toBe('weather');
    const card = page.getByTestId('step-card').first();
    await expect(card).toContainText('weather');
    await card.locator('details.anatomy > summary').click();
    const anatomy = card.locator('.anatomy-body');
    await expect(anatomy).toContainText(subject);
    await expect(anatomy).toContainText(outranked);
    await anatomy.locator('ul.fits').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/page-tool-fit-${lang}.png` });
  });
}

// A question in Chinese finds the same tool, declared in English: 天气 is read as "weather"
// through the core's glossary, 东京 as a city (the gazetteer), and the anatomy says so. The
// stand-in writes "x" for the city (no capitalised word in the question): the call gets the
// question's city, in English for a tool declared in English.
test('a question in Chinese is steered to a tool declared in English, and the fit shows the word read', async ({ page }) => {
  const run = runId('page-tool-glossary');
  await openPage(page, { lang: 'zh' });
  await addWeatherTool(page, run, 'zh', '');
  await ask(page, '东京现在的天气怎么样？');
  await expect(finalAnswer(page)).toContainText('Sunny, 21 °C in Tokyo');
  const [first] = await mockRequests('ollama', run);
  expect(first.body.response_format.json_schema.schema.properties.action.const).toBe('weather');
  const card = page.getByTestId('step-card').first();
  await card.locator('details.xray > summary').click();
  await expect(card.locator('.xray-body')).toContainText('地名参数改为问题所说的地方');
  await card.locator('details.anatomy > summary').click();
  await expect(card.locator('.anatomy-body')).toContainText('问题问的是“天气 (weather)”，正是它的主题');
  await expect(card.locator('.anatomy-body')).toContainText('“东京”是地名，可作它的参数 city');
  await card.locator('.anatomy-body ul.fits').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/page-tool-glossary-zh.png' });
});
