// The page with the built-in demo model: no server at all.
import { readFile } from 'node:fs/promises';
import { test, expect, openPage, finalAnswer, screenshot, reloadPage } from './fixtures.mjs';

const Q = 'What is 23 * 17 + 4?';

/** Runs Q with the demo model: two steps, the calculator, then the answer; returns the cards. */
async function runQ(page) {
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const cards = page.getByTestId('step-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText('calculator');
  return cards;
}

test('the demo model is usable at once and runs to a final answer', async ({ page }) => {
  await openPage(page); // no parameters: the local probe runs, the demo stays selected
  await expect(page.locator('#preset')).toHaveValue('demo');
  const cards = await runQ(page);
  await expect(cards.first()).toContainText('395');
  await expect(page.locator('#probe-status')).toContainText('No local server answered');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'demo-finished');
});

test('the parser X-ray marks the spans of the raw reply and lists the repairs', async ({ page }) => {
  await openPage(page, { demo: '1', question: Q, autorun: '1' });
  await expect(finalAnswer(page)).toBeVisible();
  const first = page.getByTestId('step-card').first();
  await first.locator('details.xray > summary').click();
  const xray = first.locator('.xray-text');
  await expect(xray.locator('mark.span-thought')).toHaveText('I should use the calculator for 23 * 17 + 4.');
  await expect(xray.locator('mark.span-action')).toHaveText('Calculator');
  await expect(xray.locator('mark.span-input')).toContainText("'expr'");
  // The core's sentences, each with its code as a small tag.
  const repairs = first.locator('.repairs li');
  await expect(repairs.filter({ hasText: 'single quotes → double' }).locator('.repair-code')).toHaveText('single_quotes');
  await expect(repairs.filter({ hasText: 'trailing comma removed' }).locator('.repair-code')).toHaveText('trailing_comma');
  await first.locator('details.anatomy > summary').click();
  await expect(first.locator('.message')).toHaveCount(2);
  // Unconstrained: the system prompt ends with the worked examples.
  await expect(first.locator('.anatomy-body')).toContainText('I now know the answer.');
  await expect(first.locator('.anatomy-body')).toContainText('"Observation:"');
  await first.scrollIntoViewIfNeeded();
  await screenshot(page, 'xray-open');
});

test('the guard for a format error is marked and explained', async ({ page }) => {
  await openPage(page, { demo: '1', question: '计算 (2^10 - 24) / 8 的结果', autorun: '1' });
  await expect(finalAnswer(page)).toHaveText('结果是 125。');
  const guard = page.getByTestId('step-card').first().locator('.guard');
  await expect(guard).toContainText('Format feedback');
  await expect(guard).toContainText('the model was told how to fix it');
  const formatError = page.getByTestId('step-card').first().locator('.format-error');
  await expect(formatError).toContainText('Format error: no Action or Final Answer found');
  await expect(formatError).not.toContainText('no_action');
});

test('the interface switches between English and Chinese', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.locator('#ui-lang').selectOption('zh');
  await expect(page.getByTestId('run')).toHaveText('运行');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  // The prompt follows the interface unless chosen separately.
  await expect(page.locator('#template')).toHaveValue(/可用工具/);
  await page.getByTestId('question').fill('计算 (2^10 - 24) / 8 的结果');
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('结果是 125。');
  await expect(page.getByTestId('step-card').first().locator('.guard')).toContainText('格式反馈');
  // All in Chinese: no English sentence in brackets after it.
  await expect(page.getByTestId('step-card').first().locator('.format-error .value'))
    .toHaveText('格式错误：没有找到 Action 或 Final Answer');
  await expect(page.getByTestId('step-card').first()).toContainText('第 1 步');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'zh-ui');
  await page.locator('#ui-lang').selectOption('en');
  await expect(page.getByTestId('run')).toHaveText('Run');
  await expect(page.getByTestId('step-card').first()).toContainText('Step 1');
  await expect(page.locator('#template')).toHaveValue(/Tools:/);
  // A language given in the URL wins.
  await openPage(page, { demo: '1', lang: 'zh' });
  await expect(page.getByTestId('step')).toHaveText('单步');
});

test('an autorun permalink runs the question on load', async ({ page }) => {
  await openPage(page, { demo: '1', question: 'What is RAG?', autorun: '1' });
  await expect(page.getByTestId('question')).toHaveValue('What is RAG?');
  await expect(finalAnswer(page)).toContainText(/retriev/i);
  await expect(page.getByTestId('step-card').first()).toContainText('search_docs');
});

test('a permalink reproduces every setting of the run, and carries only what differs from the defaults', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.locator('#permalink').click();
  // A fresh page's link holds no setting.
  expect(new URL(await page.locator('#permalink-url').inputValue()).search).toBe('?lang=en&demo=1');
  // Issue 31: these seven came back at their defaults.
  const seven = { '#temperature': '0.7', '#max-tokens': '300', '#max-steps': '4', '#history-rounds': '3', '#observation-limit': '400' };
  await page.locator('#preset').selectOption('custom');
  await page.locator('#connect-panel details.sub > summary').click();
  for (const [id, value] of Object.entries(seven)) await page.locator(id).fill(value);
  await page.locator('#constrained').selectOption('json_schema');
  await page.getByTestId('compress').selectOption('summary');
  await page.locator('#stream').uncheck();
  await page.locator('#timeout').fill('30');
  await page.locator('#preset').selectOption('demo');
  await page.locator('#tools-panel > summary').click();
  await page.locator('input[name=builtin][value=current_time]').uncheck();
  await page.locator('#documents').fill('# Tea\nGreen tea is steamed.');
  await page.locator('#prompt-panel > summary').click();
  await page.getByTestId('strategy').selectOption('plan');
  await page.locator('#prompt-lang').selectOption('zh');
  await page.locator('#few-shot-add').click();
  await page.locator('.shot [name=question]').fill('What is 1 + 1?');
  await page.locator('.shot [name=transcript]').fill('Action: final_answer\nAction Input: 2');
  await page.locator('#permalink').click();
  const link = await page.locator('#permalink-url').inputValue();
  await page.goto(link);
  await expect(page.locator('body[data-ready="1"]')).toBeAttached();
  for (const [id, value] of Object.entries(seven)) await expect(page.locator(id)).toHaveValue(value);
  await expect(page.locator('#constrained')).toHaveValue('json_schema');
  await expect(page.getByTestId('compress')).toHaveValue('summary');
  await expect(page.locator('#stream')).not.toBeChecked();
  await expect(page.locator('#timeout')).toHaveValue('30');
  await expect(page.locator('input[name=builtin][value=current_time]')).not.toBeChecked();
  await expect(page.locator('#documents')).toHaveValue('# Tea\nGreen tea is steamed.');
  await expect(page.getByTestId('strategy')).toHaveValue('plan');
  await expect(page.locator('#prompt-lang')).toHaveValue('zh');
  await expect(page.locator('.shot [name=question]')).toHaveValue('What is 1 + 1?');
  // The round trip over every setting: the opened link's own link is the same link.
  await page.locator('#permalink').click();
  await expect(page.locator('#permalink-url')).toHaveValue(link);
});

test('a cut observation: the card and its guard give the same numbers, and say what they count', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.locator('#connect-panel details.sub > summary').click();
  await page.locator('#observation-limit').fill('40');
  await page.getByTestId('question').fill('What is RAG?');
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toBeVisible();
  const card = page.getByTestId('step-card').first();
  const line = await card.getByTestId('truncated').textContent();
  const guard = await card.locator('.guard-observation_truncated').textContent();
  const [, to, from] = /the first (\d+) of ([\d,]+) characters, then a note that the rest was cut/.exec(line);
  expect(to).toBe('40');
  expect(guard).toContain(`The observation had ${from} characters; only the first ${to} were sent to the model.`);
});

test('the strategy select runs Act only, chain of thought, Reflect and Plan, and a link carries it', async ({ page }) => {
  await openPage(page, { demo: '1' });
  const strategy = page.getByTestId('strategy');
  await expect(strategy).toHaveValue('react');
  // Act only: the template follows the strategy, and no reply has a Thought.
  await page.locator('#prompt-panel > summary').click();
  await strategy.selectOption('act');
  await expect(page.locator('#template')).not.toHaveValue(/Thought:/);
  await expect(page.locator('#prompt-preview')).toContainText('Start every reply with "Action:"');
  const cards = await runQ(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const trace = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(trace.config.strategy).toBe('act');
  for (const step of trace.steps) expect(step.reply.text).not.toContain('Thought:');
  // Chain of thought: one request, no tools offered, its Thought and its answer.
  await strategy.selectOption('cot');
  await expect(page.locator('#prompt-preview')).toContainText('There are no tools');
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('I work out 23 * 17 + 4 step by step');
  // Reflect: the answer is checked once, on a card of its own, and kept.
  await strategy.selectOption('reflect');
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(2).getByTestId('self-check')).toHaveText('Self-check');
  await expect(cards.nth(1).locator('.observation')).toContainText('Before this answer is final, check it.');
  await expect(cards.nth(2)).toContainText('The self-check kept the answer.');
  // Plan and execute: a checklist whose items tick as tools answer.
  await strategy.selectOption('plan');
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  await expect(cards).toHaveCount(3);
  const plan = cards.first().getByTestId('plan').locator('li');
  // Issue 31: the answer ticks the last item, and the plan card has its X-ray (the raw reply).
  await expect(plan).toHaveText(['☑ Use calculator to get what the question needs. (done)', '☑ Answer from its result. (done)']);
  await cards.first().locator('details.xray > summary').click();
  await expect(cards.first().locator('.xray-text')).toHaveText(/^Plan:\n1\. Use calculator/);
  await strategy.selectOption('cot');
  // The permalink carries the strategy; a strategy the page does not have is named.
  await page.locator('#permalink').click();
  await expect(page.locator('#permalink-url')).toHaveValue(/strategy=cot/);
  await openPage(page, { demo: '1', strategy: 'cot' });
  await expect(page.getByTestId('strategy')).toHaveValue('cot');
  await openPage(page, { demo: '1', strategy: 'reflexion' });
  await expect(page.getByTestId('strategy')).toHaveValue('react');
  await expect(page.getByTestId('link-notice')).toContainText('the strategy “reflexion”');
});

test.describe('small screens and dark scheme', () => {
  test('phone width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, { demo: '1', question: Q, autorun: '1' });
    await expect(finalAnswer(page)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    await page.getByTestId('step-card').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'phone');
  });

  test('dark scheme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openPage(page, { demo: '1', question: Q, autorun: '1' });
    await expect(finalAnswer(page)).toBeVisible();
    const first = page.getByTestId('step-card').first();
    await first.locator('details.xray > summary').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'demo-dark');
    await first.screenshot({ path: 'test-results/screenshots/xray-dark.png' });
  });
});

test('the probe selects a local server that answers', async ({ page }) => {
  await page.route('http://localhost:8080/v1/models', (route) => route.fulfill({
    json: { object: 'list', data: [{ id: 'qwen-small', object: 'model' }] },
    headers: { 'access-control-allow-origin': '*' },
  }));
  await openPage(page);
  await expect(page.locator('#preset')).toHaveValue('llamacpp');
  await expect(page.locator('#base-url')).toHaveValue('http://localhost:8080/v1');
  await expect(page.locator('#model')).toHaveValue('qwen-small');
  await expect(page.locator('#probe-status')).toContainText('llama.cpp server (localhost:8080) — models: 1');
});

test('every control is labelled and the page works from the keyboard', async ({ page }) => {
  await openPage(page, { demo: '1' });
  for (const panel of ['#tools-panel', '#prompt-panel']) await page.locator(`${panel} > summary`).click();
  await page.locator('#prompt-panel #few-shot-add').click();
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((el) => el.offsetParent !== null)
    .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || (el.tagName === 'BUTTON' && el.textContent.trim())))
    .map((el) => el.outerHTML.slice(0, 80)));
  expect(unlabelled).toEqual([]);

  await page.getByTestId('question').focus();
  await page.keyboard.type('What is 23 * 17 + 4?');
  await page.keyboard.press('Control+Enter');
  await expect(finalAnswer(page)).toBeVisible();
  // Step keeps the focus between presses, so a class can be stepped with the keyboard.
  await page.getByTestId('step').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step')).toBeFocused();
  await expect(page.getByTestId('step-card').first()).toContainText('calculator');
  const outline = await page.getByTestId('step').evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
});

test('search_docs searches the documents edited in the page', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.locator('#tools-panel > summary').click();
  await page.locator('#documents').fill('# RAG\nRAG stands for Really Awesome Guacamole in this workshop.\n\n# Other\nNothing here.');
  await expect(page.locator('#documents-status')).toHaveText('2 documents.');
  await page.getByTestId('question').fill('What is RAG?');
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toContainText('Really Awesome Guacamole');
});

test('the API key stays in memory unless remembered on this device', async ({ page }) => {
  // Three page loads, each compiling the wasm: on a loaded 2-core machine that passed 30 s.
  test.setTimeout(60_000);
  const server = 'https://api.example.test/v1';
  const custom = async () => {
    await page.locator('#preset').selectOption('custom');
    await page.locator('#base-url').fill(server);
  };
  await page.route('https://api.example.test/**', (route) => route.abort('connectionrefused'));
  await openPage(page, { demo: '1' });
  await custom();
  await page.locator('#api-key').fill('sk-memory-only');
  await reloadPage(page);
  await custom();
  await expect(page.locator('#api-key')).toHaveValue('');
  await page.locator('#api-key').fill('sk-remembered');
  await page.locator('#remember-key').check();
  await reloadPage(page);
  await custom();
  await expect(page.locator('#api-key')).toHaveValue('sk-remembered');
  await page.locator('#remember-key').uncheck();
  expect(await page.evaluate(() => localStorage.getItem('reactloop.apiKeys'))).toBeNull();
});

test('the in-page engine is no part of start-up: its modules load once it is chosen', async ({ page }) => {
  const seen = [];
  page.on('request', (r) => seen.push(new URL(r.url()).pathname));
  const inPage = () => seen.filter((path) => /\/inpage(-panel|-worker)?\.js$/.test(path));
  await openPage(page);
  await runQ(page);
  expect(inPage()).toEqual([]);
  await page.locator('#preset').selectOption('inpage');
  await expect(page.getByTestId('catalog-model')).toHaveCount(3);
  await expect(page.locator('#inpage-fields')).toContainText('llama.cpp runs inside this tab'); // its strings came with it
  expect(inPage()).toEqual(expect.arrayContaining([expect.stringMatching(/\/inpage-panel\.js$/), expect.stringMatching(/\/inpage\.js$/)]));
  // No model loaded yet: a run says what to do.
  await page.getByTestId('run').click();
  await expect(page.getByTestId('error')).toContainText('Load a model first');
});

test('the in-page Load button acts on a click made at once after choosing the engine', async ({ page }) => {
  // Issue 31: the panel's module arrives late on a slow machine; a click before it did nothing.
  await page.route(/\/inpage-panel\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await openPage(page);
  await page.locator('#preset').selectOption('inpage');
  await page.locator('#model-url').fill('/models/missing.gguf');
  await page.locator('#model-url-load').click();
  await expect(page.getByTestId('inpage-problem')).toContainText('HTTP 404');
});

test('the in-page engine says what is wrong in the page\'s language: the worker sends a code, not English', async ({ page }) => {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await openPage(page, { lang: 'zh' });
    // A phone's layout folds the panels away.
    await page.locator('#connect-panel').evaluate((details) => { details.open = true; });
    await page.locator('#preset').selectOption('inpage');
    await page.getByTestId('model-file').setInputFiles({ name: 'notes.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from('just some notes\n') });
    const problem = page.getByTestId('inpage-problem');
    await expect(problem).toContainText('notes.gguf 不是 GGUF 模型文件');
    await expect(problem).toContainText('无法加载模型');
    await expect(problem).not.toContainText('is not a GGUF');
    await page.locator('#model-url').fill('/models/missing.gguf');
    await page.locator('#model-url-load').click();
    await expect(problem).toContainText('服务器返回了 HTTP 404');
    await problem.scrollIntoViewIfNeeded();
    await screenshot(page, `inpage-problem-zh-${viewport.width}`);
  }
});
