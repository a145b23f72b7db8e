// Compare: one question or a list under two to four configurations at once, side by side.
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { test, expect, openPage, useServer, mockUrl, mockRequests, screenshot } from './fixtures.mjs';

const Q = 'What is 23 * 17 + 4?';
let runs = 0;
const runId = (name) => `${name}-${process.pid}-${++runs}`;

/** Opens the Compare panel and sets column `n` (0-based) to `choices` ({strategy, server, …}). */
async function configure(page, n, choices) {
  const panel = page.locator('#compare-panel');
  if (!(await panel.evaluate((d) => d.open))) await panel.locator('summary').click();
  const column = page.locator('.compare-config').nth(n);
  for (const [key, value] of Object.entries(choices)) await column.getByTestId(`compare-${key}`).selectOption(value);
}

test('two columns run at once: one pauses and steps while the other runs to its answer', async ({ page }) => {
  const run = runId('compare');
  await openPage(page);
  await useServer(page, mockUrl('calc', run));
  await page.getByTestId('question').fill(Q);
  // The server column's first reply is held until Pause has been clicked, so that column
  // cannot finish first on a loaded machine (the demo's typing alone was not slow enough).
  let release = () => {};
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(`**/s/calc@${run}/v1/chat/completions`, async (route) => {
    await held;
    await route.continue();
  });
  await configure(page, 0, { strategy: 'react', server: 'current' });
  await configure(page, 1, { strategy: 'react', server: 'demo' });
  await page.getByTestId('compare').click();
  const [slow, fast] = [0, 1].map((i) => page.getByTestId('compare-column').nth(i));
  await slow.getByTestId('compare-pause').click();
  release();
  await expect(fast.getByTestId('final-answer')).toHaveText('The result is 395.');
  // The demo reports no usage, so its summary gives no token count (not "0 tokens").
  await expect(fast.getByTestId('compare-summary')).toContainText('The result is 395. · 2 steps, ');
  await expect(fast.getByTestId('compare-summary')).not.toContainText('tokens');
  // The paused column waits after its first reply: no answer, Step and Continue offered.
  await expect(slow).toHaveAttribute('data-state', 'paused');
  expect(await mockRequests('calc', run)).toHaveLength(1);
  await expect(slow.getByTestId('final-answer')).toHaveCount(0);
  await expect(slow.getByTestId('compare-continue')).toHaveAttribute('aria-disabled', 'false');
  const before = await slow.getByTestId('step-card').count();
  await slow.getByTestId('compare-step').click();
  await expect(slow).toHaveAttribute('data-state', 'paused');
  await expect.poll(() => slow.getByTestId('step-card').count()).toBeGreaterThanOrEqual(before);
  await slow.getByTestId('compare-continue').click();
  await expect(slow.getByTestId('final-answer')).toHaveText('The result is 395.');
  await expect(slow).toHaveAttribute('data-state', 'done');
  await expect(slow.getByTestId('compare-summary')).toContainText(' · 2 steps, 941 tokens, ');
  expect(await mockRequests('calc', run)).toHaveLength(2);
  // Each column is labelled with its configuration, and ids stay unique across the views.
  await expect(page.locator('#compare-col-1-title')).toContainText('ReAct · Demo model');
  const duplicates = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
  expect(duplicates).toEqual([]);
  await screenshot(page, 'compare-two-columns');
});

test('a list of questions gives a grid with each column\'s success count', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await configure(page, 0, { strategy: 'react', server: 'demo' });
  await configure(page, 1, { strategy: 'cot', server: 'demo' });
  await page.getByTestId('compare-questions').fill(`${Q} => 395\nWhat is RAG? => retrieval`);
  await page.getByTestId('compare').click();
  const counts = page.getByTestId('compare-count');
  // ReAct searches the documents; chain of thought has no tools and cannot look RAG up.
  await expect(counts).toHaveText(['2/2', '1/2']);
  const rows = page.locator('#compare-grid tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).locator('td').nth(1)).toContainText('✗');
  await expect(page.locator('#compare-grid thead th').nth(2)).toContainText('Chain of thought');
  // Chain of thought answers in one step, and says so in the singular.
  await expect(page.getByTestId('compare-summary').nth(1)).toContainText(' · 1 step, ');
});

test('an in-page column with no model loaded says what to do; the other column runs', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.getByTestId('question').fill(Q);
  await configure(page, 0, { server: 'inpage' });
  await configure(page, 1, { server: 'demo' });
  await page.getByTestId('compare').click();
  const [inPage, demo] = [0, 1].map((i) => page.getByTestId('compare-column').nth(i));
  await expect(inPage.getByTestId('compare-summary')).toHaveText('Load a model first: pick a GGUF file under Connect, "In this page".');
  await expect(page.locator('#compare-col-0-title')).toContainText('In-page model');
  await expect(demo.getByTestId('final-answer')).toHaveText('The result is 395.');
});

test('on a phone the columns are tabs, switched from the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPage(page, { demo: '1' });
  await page.getByTestId('question').fill(Q);
  await configure(page, 0, { server: 'demo' });
  await configure(page, 1, { server: 'demo', strategy: 'act' });
  await page.getByTestId('compare').click();
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(2);
  const columns = page.getByTestId('compare-column');
  await expect(columns.nth(0)).toBeVisible();
  await expect(columns.nth(1)).toBeHidden();
  await tabs.nth(0).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(columns.nth(1)).toBeVisible();
  await expect(columns.nth(0)).toBeHidden();
  await expect(columns.nth(1).getByTestId('final-answer')).toHaveText('The result is 395.');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
});

test('fork from a step: the edited reply or Observation runs on beside the original, folded to where they part', async ({ page }) => {
  const run = runId('fork');
  await openPage(page);
  await useServer(page, mockUrl('calc', run));
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('run').click();
  const main = page.locator('#trace');
  await expect(main.getByTestId('final-answer')).toHaveText('The result is 395.');
  // Step 2's reply, edited.
  await main.getByTestId('step-card').nth(1).getByTestId('fork').click();
  await expect(page.getByTestId('fork-text')).toHaveValue(/Action: final_answer/);
  await page.getByTestId('fork-text').fill('Thought: I check it once more.\nAction: final_answer\nAction Input: It is 395, checked.');
  await page.getByTestId('fork-run').click();
  const [original, fork] = [0, 1].map((i) => page.getByTestId('compare-column').nth(i));
  await expect(fork.getByTestId('final-answer')).toHaveText('It is 395, checked.');
  await expect(original.getByTestId('final-answer')).toHaveText('The result is 395.');
  for (const column of [original, fork]) {
    await expect(column.getByTestId('shared-steps')).toHaveText('Steps 1 to 1 are the same in both runs.');
    await expect(column.getByTestId('step-card').nth(0)).toBeHidden();
    await expect(column.getByTestId('step-card').nth(1).getByTestId('parts-here')).toBeVisible();
  }
  await expect(fork.getByTestId('step-card').nth(1).locator('.badge.edited')).toBeVisible();
  expect(await mockRequests('calc', run), 'the fork asked the model nothing: its reply was given').toHaveLength(2);
  // Step 1's Observation, edited: the model reads the new result and answers from it.
  await main.getByTestId('step-card').nth(0).getByTestId('fork').click();
  await page.getByTestId('fork-part-observation').check();
  await expect(page.getByTestId('fork-text')).toHaveValue('395');
  await page.getByTestId('fork-text').fill('400');
  await page.getByTestId('fork-run').click();
  await expect(fork.getByTestId('final-answer')).toHaveText('The result is 400.');
  await expect(fork.getByTestId('step-card').nth(0).getByTestId('parts-here')).toBeVisible();
  await expect(original.getByTestId('final-answer')).toHaveText('The result is 395.');
  const sent = await mockRequests('calc', run);
  expect(sent).toHaveLength(3);
  expect(sent[2].body.messages.at(-1).content).toContain('Observation: 400');
  await screenshot(page, 'fork');
});

test('a comparison exports as JSON and as one page that replays its columns side by side from file://', async ({ page }) => {
  test.setTimeout(60_000); // two replays of two runs, then the import's
  await openPage(page, { demo: '1' });
  await configure(page, 0, { strategy: 'react', server: 'demo' });
  await configure(page, 1, { strategy: 'act', server: 'demo' });
  await page.getByTestId('compare-questions').fill(`${Q} => 395\nWhat is RAG? => retrieval`);
  await page.getByTestId('compare').click();
  await expect(page.getByTestId('compare-count')).toHaveText(['2/2', '2/2']);
  // The first export asks for a name, once, for a class's scoreboard.
  await page.getByTestId('compare-export-json').click();
  await expect(page.locator('#compare-export-problem')).toContainText('Type your name');
  await expect(page.getByTestId('compare-name')).toBeFocused();
  await page.getByTestId('compare-name').fill('Ada <b>L</b>');
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-export-json').click()]);
  const file = JSON.parse(await readFile(await json.path(), 'utf8'));
  expect(file.kind).toBe('reactloop-comparison');
  expect(file.name).toBe('Ada <b>L</b>');
  expect(file.questions).toEqual([{ question: Q, expected: '395' }, { question: 'What is RAG?', expected: 'retrieval' }]);
  expect(file.generator).toMatch(/^reactloop \d+\.\d+\.\d+$/);
  expect(file.columns.map((c) => c.label)).toEqual([expect.stringContaining('ReAct'), expect.stringContaining('Act only')]);
  expect(file.columns.map((c) => c.runs.map((r) => r.question))).toEqual([[Q, 'What is RAG?'], [Q, 'What is RAG?']]);
  expect(file.columns[1].runs[0].config.strategy).toBe('act');

  const [html] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-export-page').click()]);
  const path = test.info().outputPath('reactloop-comparison.html');
  await writeFile(path, await readFile(await html.path(), 'utf8'));
  const url = pathToFileURL(path).href;
  const viewer = await page.context().newPage();
  const requests = [];
  const errors = [];
  viewer.on('request', (r) => requests.push(r.url()));
  viewer.on('pageerror', (e) => errors.push(e.message));
  await viewer.goto(url);
  const columns = viewer.getByTestId('comparison-column');
  await expect(columns).toHaveCount(2);
  await expect(columns.nth(1).locator('h3')).toContainText('Act only');
  await viewer.locator('.bar').getByTestId('play').click();
  for (const i of [0, 1]) await expect(columns.nth(i).getByTestId('final-answer')).toHaveText('The result is 395.', { timeout: 20_000 });
  await viewer.getByTestId('comparison-question').selectOption('1');
  await viewer.locator('.bar').getByTestId('play').click();
  for (const i of [0, 1]) await expect(columns.nth(i).getByTestId('final-answer')).toContainText('Retrieval-augmented generation', { timeout: 20_000 });
  expect(requests).toEqual([url]);
  expect(errors).toEqual([]);
  // Issue 31: Import JSON trace reads the same file where it was made: Compare columns that replay.
  await openPage(page, { demo: '1' });
  await page.locator('#import-file').setInputFiles(await json.path());
  const imported = page.locator('#compare').getByTestId('comparison-column');
  await expect(imported).toHaveCount(2);
  await expect(imported.nth(1).locator(':scope > h3')).toContainText('Act only');
  for (const i of [0, 1]) await expect(imported.nth(i).getByTestId('final-answer')).toHaveText('The result is 395.', { timeout: 20_000 });
  await expect(page.locator('#problem')).toBeEmpty();
  await expect(page.getByTestId('question')).toHaveValue(Q);
});

const values = (selects) => selects.evaluateAll((all) => all.map((s) => s.value));

// Issue 44: one link opens every student's page on the same exercise: Compare's list and
// columns, not run; a list too long for a link is said, and travels as a file.
test('a permalink carries Compare\'s question list and columns; a longer list goes as a file', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await configure(page, 0, { strategy: 'cot', server: 'demo' });
  await configure(page, 1, { strategy: 'act', plang: 'zh' });
  const list = `${Q} => 395\n什么是 RAG？ => 检索`;
  await page.getByTestId('compare-questions').fill(list);
  await page.locator('#permalink').click();
  const url = await page.locator('#permalink-url').inputValue();
  expect(new URL(url).searchParams.get('columns')).toBe('cot.demo.auto.auto,act.current.zh.auto');

  const student = await page.context().newPage();
  await student.goto(url);
  await expect(student.locator('body[data-ready="1"]')).toBeAttached();
  await expect(student.locator('#compare-panel')).toHaveAttribute('open', '');
  await expect(student.getByTestId('compare-questions')).toHaveValue(list);
  expect(await values(student.getByTestId('compare-strategy'))).toEqual(['cot', 'act']);
  expect(await values(student.getByTestId('compare-server'))).toEqual(['demo', 'current']);
  expect(await values(student.getByTestId('compare-plang'))).toEqual(['auto', 'zh']);
  await expect(student.getByTestId('compare-summary')).toHaveCount(0); // nothing ran
  // A value this page lacks keeps that column's default, and the notice says so.
  await student.goto(`${url.replace(/columns=[^&]*/, 'columns=cot.demo.auto.auto%2Cbogus.current.zh.auto')}`);
  await expect(student.getByTestId('link-notice')).toContainText('“bogus”');
  expect(await values(student.getByTestId('compare-strategy'))).toEqual(['cot', 'act']);
  await student.close();

  // A list longer than a link should be: left out and said; saved and opened as a file instead.
  const long = Array.from({ length: 80 }, (_, i) => `What is ${i} * 17 + 4? => ${i * 17 + 4}`).join('\n');
  await page.getByTestId('compare-questions').fill(long);
  await page.locator('#permalink').click();
  await expect(page.locator('#status')).toContainText('leaves out Compare’s question list');
  expect(new URL(await page.locator('#permalink-url').inputValue()).searchParams.has('compare')).toBe(false);
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-save-list').click()]);
  expect(saved.suggestedFilename()).toBe('questions.txt');
  await page.getByTestId('compare-questions').fill('');
  await page.getByTestId('compare-open-list').setInputFiles(await saved.path());
  await expect(page.getByTestId('compare-questions')).toHaveValue(long);
});
