// "Export page" (www/export-page.js): a run as one HTML file. Opened from file:// it replays
// with the playground's cards, X-ray and anatomy, sends no request, runs exactly one script (its
// own viewer, let in by its hash) and shows every text of the run as text: the model's, the
// tool's and the question, hostile markup included.
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { test, expect, openPage, mockUrl, useServer, finalAnswer, screenshot } from './fixtures.mjs';
import { XSS_PAYLOADS } from '../mock/server.mjs';

const IMG = '<img src=x onerror=window.__xss=1>';
const BREAKOUT = '</script><script>window.__xss=2</script><!--';
const MAX_BYTES = 150_000; // issue 24: a 10-step run is at most 150 KB

/** Clicks Export page; the file is saved under this test's output folder. */
async function exportPage(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-page').click()]);
  expect(download.suggestedFilename()).toBe('reactloop-run.html');
  const html = await readFile(await download.path(), 'utf8');
  const file = test.info().outputPath('reactloop-run.html');
  await writeFile(file, html);
  return { html, url: pathToFileURL(file).href };
}

/**
 * Opens an exported file in a page of its own, recording every request, dialog, error and
 * script the browser compiles for it.
 */
async function openExported(page, url) {
  const viewer = await page.context().newPage();
  const seen = { requests: [], dialogs: [], errors: [], scripts: [] };
  viewer.on('request', (r) => seen.requests.push(r.url()));
  viewer.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    d.dismiss();
  });
  viewer.on('pageerror', (e) => seen.errors.push(e.message));
  viewer.on('console', (m) => m.type() === 'error' && seen.errors.push(m.text()));
  const cdp = await page.context().newCDPSession(viewer);
  cdp.on('Debugger.scriptParsed', (s) => s.url === url && seen.scripts.push(s.scriptId));
  await cdp.send('Debugger.enable');
  await viewer.goto(url);
  return { viewer, seen };
}

/**
 * What becomes of markup that a bug let into the page: an inline script is refused (by its
 * missing hash, or as a string no Trusted Types policy made), and an HTML string cannot be
 * assigned at all. Resolves to what refused each.
 */
const injectMarkup = (page) => page.evaluate(() => new Promise((done) => {
  const html = (() => {
    try {
      document.createElement('div').innerHTML = '<img src=x onerror="window.__inline = 1">';
      return 'assigned';
    } catch (error) {
      return error.name;
    }
  })();
  document.addEventListener('securitypolicyviolation', (e) => done({ html, script: e.effectiveDirective }), { once: true });
  document.addEventListener('inline-ran', () => done({ html, script: 'ran' }), { once: true });
  const script = document.createElement('script');
  script.append('window.__inline = 1; document.dispatchEvent(new Event("inline-ran"));');
  document.head.append(script);
}));

test('an exported run replays from file:// with no request, one script, and its text as text', async ({ page }) => {
  await openPage(page);
  await page.locator('#tools-panel > summary').click();
  await page.locator('#js-name').fill('js_tool');
  await page.locator('#js-description').fill('Returns HTML, to test rendering.');
  await page.locator('#js-parameters').fill('{"type": "object", "properties": {"html": {"type": "string"}, "x": {"type": "number"}}}');
  await page.locator('#js-body').fill(`return ${JSON.stringify(`${IMG} ${BREAKOUT}`)};`);
  await page.locator('#js-tool-form button[type=submit]').click();
  await expect(page.locator('#js-tool-status')).toContainText('js_tool is ready');
  await useServer(page, mockUrl('xss'));
  const question = `Show me the payloads. ${BREAKOUT}`;
  await page.getByTestId('question').fill(question);
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText(`Payloads: ${XSS_PAYLOADS.join(' ')}`);

  // The prompt anatomy's estimate as the page's wasm makes it, for the file to show the same.
  await page.getByTestId('step-card').nth(1).locator('details.anatomy > summary').click();
  const total = await page.getByTestId('step-card').nth(1).locator('.anatomy-body > p.muted').first().textContent();

  const { html, url } = await exportPage(page);
  // The run's text is inside the JSON only, with every "<" escaped: two script elements, no more.
  expect(html.match(/<script/gi)).toHaveLength(2);
  expect(html.match(/<\/script/gi)).toHaveLength(2);
  expect(html).toContain('window.__xss=2');
  expect(html).not.toContain('<img');

  const { viewer, seen } = await openExported(page, url);
  const cards = viewer.getByTestId('step-card');
  await expect(viewer.getByTestId('play').first()).toBeVisible();
  await expect(cards).toHaveCount(0);
  await expect(viewer).toHaveTitle(`${question} · reactloop`);
  await expect(viewer.locator('.trace-head .question')).toContainText(question);
  // Step draws the first card; Play goes on to the end.
  await viewer.getByTestId('step').click();
  await expect(cards).toHaveCount(1);
  await viewer.locator('.bar').getByTestId('play').click();
  await expect(viewer.getByTestId('final-answer')).toHaveText(`Payloads: ${XSS_PAYLOADS.join(' ')}`, { timeout: 20_000 });
  await expect(cards).toHaveCount(2);
  const first = cards.first();
  await expect(first.locator('.observation')).toContainText(`${IMG} ${BREAKOUT}`);
  for (const card of await cards.all()) {
    await card.locator('details.xray > summary').click();
    await card.locator('details.anatomy > summary').click();
  }
  await expect(first.locator('.xray-text mark.span-thought')).toContainText('<script>window.__xss=1</script>');
  // The anatomy's token counts came with the file (the wasm's), not from a wasm here.
  await expect(cards.nth(1).locator('.anatomy-body > p.muted').first()).toHaveText(total);
  // The cards have the playground's stylesheet (constructed, under the file's policy).
  expect(await first.evaluate((e) => getComputedStyle(e).borderLeftWidth)).toBe('5px');
  await expect(cards.nth(1).locator('.anatomy-body')).toContainText(BREAKOUT);
  await viewer.evaluate(() => window.scrollTo(0, 0));
  await screenshot(viewer, 'export-page');

  expect(await viewer.evaluate(() => window.__xss)).toBeUndefined();
  await expect(viewer.locator('img')).toHaveCount(0);
  await expect(viewer.locator('script')).toHaveCount(2);
  expect(seen.scripts, 'scripts compiled from the file: its viewer only').toHaveLength(1);
  expect(seen.requests, 'requests of the file page').toEqual([url]);
  expect(seen.dialogs).toEqual([]);
  expect(seen.errors).toEqual([]);
  // Markup that did become a script would not run either: the policy lets in the viewer only.
  expect(await injectMarkup(viewer)).toEqual({ html: 'TypeError', script: expect.stringMatching(/^(script-src-elem|require-trusted-types-for)$/) });
  expect(await viewer.evaluate(() => window.__inline)).toBeUndefined();

  // The other language, from the file alone: the bar and the cards, the core's sentences too.
  await viewer.locator('.bar select').selectOption('zh');
  await expect(viewer.getByTestId('step')).toHaveText('单步');
  await expect(cards.first()).toContainText('第 1 步');
  await expect(viewer.getByTestId('final-answer')).toHaveText(`Payloads: ${XSS_PAYLOADS.join(' ')}`);
  expect(seen.requests).toEqual([url]);
});

test('a 10-step run exports to at most 150 KB and replays every step', async ({ page }) => {
  await openPage(page, { demo: '1' });
  // A run of ten steps from a scripted model, as a small model's would be: the built-in prompt
  // with its worked examples, nine searches (observations at the 500-character limit, the
  // history at its 6 rounds) and a long answer.
  const trace = await page.evaluate(async () => {
    const { Agent } = await import('./pkg/reactloop.js'); // initialised by the page
    const topics = ['ReAct', 'RAG', 'MCP', 'FAISS', 'embeddings', 'tokenization', 'prompt engineering', 'few-shot prompting', 'function calling'];
    const replies = topics.map((topic) => `Thought: To compare the techniques I still need what the documents say about ${topic}, so I search for it before I answer.\nAction: search_docs\nAction Input: {"query": "${topic}"}`);
    replies.push(`Thought: I now know what each of the nine techniques does.\nFinal Answer: ${topics.map((topic) => `${topic} is one way to make a model more useful`).join('; ')}.`);
    const agent = new Agent({ inPage: true, workedExamples: true, maxSteps: 12 });
    let i = 0;
    agent.useModel(async () => ({ text: replies[i++], usage: { prompt_tokens: 400 + 160 * i, completion_tokens: 40 } }));
    await agent.run('What do ReAct, RAG, MCP, FAISS, embeddings, tokenization, prompt engineering, few-shot prompting and function calling each do?', () => {});
    return agent.exportTrace();
  });
  expect(JSON.parse(trace).steps).toHaveLength(10);
  await page.locator('#import-file').setInputFiles({ name: 'ten.json', mimeType: 'application/json', buffer: Buffer.from(trace) });
  await page.locator('#skip').press('Enter'); // not a click: the replay scrolls the page under the pointer
  await expect(finalAnswer(page)).toContainText('function calling is one way');

  await page.locator('#ui-lang').selectOption('zh'); // the file starts in the page's language
  const { html, url } = await exportPage(page);
  expect(html).toContain('<html lang="zh-CN">');
  const bytes = Buffer.byteLength(html);
  test.info().annotations.push({ type: 'size', description: `a 10-step run: ${bytes} bytes` });
  expect(bytes).toBeLessThanOrEqual(MAX_BYTES);

  const { viewer, seen } = await openExported(page, url);
  await expect(viewer.getByTestId('step')).toHaveText('单步');
  await viewer.locator('.bar').getByRole('button', { name: '全部显示' }).click();
  await expect(viewer.getByTestId('step-card')).toHaveCount(10);
  await expect(viewer.getByTestId('final-answer')).toContainText('function calling is one way');
  await expect(viewer.getByTestId('step-card').nth(8).locator('.row.action')).toContainText('function calling');
  expect(seen.requests).toEqual([url]);
  expect(seen.errors).toEqual([]);
});
