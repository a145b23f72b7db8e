// The page against the mock OpenAI-compatible server: real requests, streaming, the step
// debugger, keep-and-share, the connection doctor and untrusted text.
import { readFile } from 'node:fs/promises';
import { XSS_PAYLOADS } from '../mock/server.mjs';
import { test, expect, openPage, useServer, mockUrl, mockRequests, finalAnswer, screenshot } from './fixtures.mjs';

const Q = 'What is 23 * 17 + 4?';
let runs = 0;
/** A run id of its own for each test, so parallel tests' requests stay apart. */
const runId = (name) => `${name}-${process.pid}-${++runs}`;

async function ask(page, question = Q) {
  await page.getByTestId('question').fill(question);
  await page.getByTestId('run').click();
}

for (const stream of [true, false]) {
  test(`a run against the mock server (calc), streaming ${stream ? 'on' : 'off'}`, async ({ page }) => {
    const run = runId('calc');
    await openPage(page);
    await useServer(page, mockUrl('calc', run), { stream });
    await ask(page);
    await expect(finalAnswer(page)).toHaveText('The result is 395.');
    await expect(page.getByTestId('step-card')).toHaveCount(2);
    const sent = await mockRequests('calc', run);
    expect(sent).toHaveLength(2);
    for (const request of sent) expect(Boolean(request.body.stream)).toBe(stream);
    expect(sent[1].body.messages.at(-1).content).toContain('Observation: 395');
  });
}

test('step through with an edited reply: the edit is shown and drives the next step', async ({ page }) => {
  const run = runId('step');
  await openPage(page);
  await useServer(page, mockUrl('calc', run));
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('step').click(); // arms the debugger before the first request
  await expect(page.locator('#debug-next')).toContainText('ask the model (step 1)');
  // The edit keeps the question's numbers: an answer that left one unused would be sent back.
  const edited = 'Thought: Let me try 4 + 17 * 23 instead.\nAction: calculator\nAction Input: {"expression": "4 + 17 * 23"}';
  await page.getByTestId('edit').fill(edited);
  await screenshot(page, 'step-debugger');
  await page.getByTestId('step').click();
  const first = page.getByTestId('step-card').first();
  await expect(first).toContainText('Let me try 4 + 17 * 23 instead.');
  await expect(first.locator('.badge.edited')).toBeVisible();
  await expect(page.locator('#debug-next')).toContainText('run calculator with {"expression":"4 + 17 * 23"}');
  expect(await mockRequests('calc', run), 'the edited reply replaced the model call').toHaveLength(0);
  await page.getByTestId('step').click();
  await expect(first.locator('.observation')).toContainText('395');
  await page.locator('#continue').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const sent = await mockRequests('calc', run);
  expect(sent).toHaveLength(1);
  expect(sent[0].body.messages.at(-1).content).toContain('Observation: 395');
  expect(JSON.stringify(sent[0].body.messages)).toContain('Let me try 4 + 17 * 23 instead.');
});

test('ask the model, edit its reply, continue: one request, and the edit drives the next step', async ({ page }) => {
  const run = runId('ask');
  await openPage(page);
  await useServer(page, mockUrl('calc', run));
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('step').click();
  await page.getByTestId('ask-model').click();
  const box = page.getByTestId('edit');
  await expect(box).toHaveValue('Thought: I need to compute 23 * 17 + 4.\nAction: calculator\nAction Input: {"expression": "23 * 17 + 4"}');
  await expect(page.getByTestId('use-reply')).toHaveAttribute('aria-disabled', 'false');
  expect(await mockRequests('calc', run), 'Ask sent exactly one request').toHaveLength(1);
  await box.fill((await box.inputValue()).replace('"23 * 17 + 4"', '"4 + 17 * 23"'));
  await screenshot(page, 'ask-then-edit');
  await page.getByTestId('use-reply').click();
  const first = page.getByTestId('step-card').first();
  await expect(first.locator('.badge.edited')).toBeVisible();
  await expect(first.locator('.meta')).toContainText('tokens'); // the asked request's usage is kept
  await expect(page.locator('#debug-next')).toContainText('run calculator with {"expression":"4 + 17 * 23"}');
  expect(await mockRequests('calc', run), 'continuing did not ask again').toHaveLength(1);
  await page.getByTestId('step').click();
  await expect(first.locator('.observation')).toContainText('395');
  // Asked and continued unchanged: not marked as edited.
  await page.getByTestId('ask-model').click();
  await expect(box).toHaveValue(/The result is 395\.$/);
  await page.getByTestId('use-reply').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  await expect(page.getByTestId('step-card').nth(1).locator('.badge.edited')).toHaveCount(0);
  const sent = await mockRequests('calc', run);
  expect(sent).toHaveLength(2);
  expect(sent[1].body.messages.at(-1).content).toContain('Observation: 395');
});

test('Ask streams into the edit box, and Stop ends it without a problem', async ({ page }) => {
  await openPage(page);
  await useServer(page, mockUrl('slow-stream', runId('ask-slow')));
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('step').click();
  await page.getByTestId('ask-model').click();
  await expect(page.getByTestId('edit')).toHaveValue(/^Th/); // one character per 200 ms
  await expect(page.getByTestId('use-reply')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.locator('#status')).toContainText('Asking the model');
  await page.locator('#stop').click();
  await expect(page.locator('.outcome')).toContainText('Stopped by the user.', { timeout: 2000 });
  await expect(page.locator('#debugger')).toBeHidden();
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('an edited observation replaces the tool result', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('step').click();
  await page.getByTestId('step').click(); // the demo model asks for the calculator
  await expect(page.locator('#debug-next')).toContainText('run calculator');
  await page.getByTestId('edit').fill('1000');
  await page.getByTestId('step').click();
  await page.locator('#continue').click();
  await expect(finalAnswer(page)).toHaveText('The result is 1000.');
});

test('export a trace and replay it without any model', async ({ page }) => {
  const run = runId('export');
  await openPage(page);
  await useServer(page, mockUrl('calc', run));
  await ask(page);
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const saved = await json.path();
  const [md] = await Promise.all([page.waitForEvent('download'), page.locator('#export-md').click()]);
  const markdown = await readFile(await md.path(), 'utf8');
  expect(markdown).toContain('## Step 1');
  expect(markdown).toContain('**Action:** `calculator`');
  expect(markdown).toContain('Final answer: The result is 395.');
  const before = (await mockRequests('calc', run)).length;

  await openPage(page, { demo: '1' });
  await page.locator('#import-file').setInputFiles(saved);
  await expect(page.getByTestId('question')).toHaveValue(Q);
  await expect(page.locator('#skip')).toBeVisible(); // the step animation is playing
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  await expect(page.getByTestId('step-card')).toHaveCount(2);
  expect((await mockRequests('calc', run)).length, 'no request during the replay').toBe(before);

  // A file that is not a trace is refused with a clear message.
  await page.locator('#import-file').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 99}') });
  await expect(page.getByTestId('error')).toContainText('version 99');
});

// Ollama cannot be installed here: a stand-in answers as it does (tests/mock/server.mjs,
// scenario `ollama`): its model list, the JSON its schema decoding makes a model write, and
// a prompt past its context cut without an error.
test('an Ollama server gets the JSON schema under auto, and the run reaches its answer', async ({ page }) => {
  const run = runId('ollama');
  await openPage(page);
  await useServer(page, mockUrl('ollama', run));
  await page.locator('#model').fill('qwen2.5-coder:0.5b');
  await expect(page.locator('#constrained')).toHaveValue('auto');
  await ask(page);
  await expect(finalAnswer(page)).toHaveText('The answer is 395.');
  const sent = await mockRequests('ollama', run);
  expect(sent).toHaveLength(2);
  for (const request of sent) {
    expect(request.body.response_format.type).toBe('json_schema');
    expect(request.body.grammar).toBeUndefined();
  }
  // The question's numbers and operation point at the calculator, so the first reply's schema
  // allows that one action (no anyOf); after it ran, one branch per action, and the answer is
  // text, never a tool's argument object.
  const firstSchema = sent[0].body.response_format.json_schema.schema;
  expect(firstSchema.anyOf).toBeUndefined();
  expect(firstSchema.properties.action.const).toBe('calculator');
  const branches = sent[1].body.response_format.json_schema.schema.anyOf;
  expect(branches.map((b) => b.properties.action.const)).toEqual(['calculator', 'search_docs', 'current_time', 'final_answer']);
  expect(branches.at(-1).properties.action_input.type).toBe('string');
  const first = page.getByTestId('step-card').first();
  await first.locator('details.anatomy > summary').click();
  await expect(first.locator('.anatomy-body')).toContainText('Constrained output: json_schema');
  await expect(first.locator('.anatomy-body')).toContainText('allows only calculator in this reply');
  await expect(page.locator('.guard-prompt_cut')).toHaveCount(0);
});

// A day counted from today is the clock's to count (issue 33): the first reply's schema calls
// current_time with the question's days, and the anatomy says why, in the page's language.
for (const [lang, question, phrase, fixed] of [
  ['en', 'What will the date be 30 days from today?', '“30 days from today” is a day counted from today (+30 days)', 'The question fixes its input: {"days":30}.'],
  ['zh', '从今天算起 45 天以后是几月几日？', '“45 天以后”是从今天算起的某一天（+45 天）', '问题决定了它的输入：{"days":45}。'],
]) {
  test(`a day counted from today goes to the clock as its days, and the anatomy says why (${lang})`, async ({ page }) => {
    const run = runId(`days-${lang}`);
    await openPage(page, { lang });
    await useServer(page, mockUrl('ollama', run));
    await page.locator('#model').fill('qwen2.5-coder:0.5b');
    await ask(page, question);
    // The stand-in echoes each Observation as its answer, feedback included, which the loop
    // sends back (`note_copied`): only the first step matters here.
    // The card shows while the request is still being read by the stand-in: wait for its log.
    await expect.poll(async () => (await mockRequests('ollama', run)).length).toBeGreaterThan(0);
    const [first] = await mockRequests('ollama', run);
    const schema = first.body.response_format.json_schema.schema;
    expect(schema.properties.action.const).toBe('current_time');
    expect(schema.properties.action_input.properties.days.enum).toEqual([lang === 'en' ? 30 : 45]);
    const card = page.getByTestId('step-card').first();
    await card.locator('details.anatomy > summary').click();
    await expect(card.locator('.anatomy-body')).toContainText(phrase);
    await expect(card.locator('.anatomy-body')).toContainText(fixed);
    await card.locator('.anatomy-body').getByText(phrase).scrollIntoViewIfNeeded();
    await screenshot(page, `days-anatomy-${lang}`);
  });
}

test('a prompt longer than the server\'s context is named in the trace with the setting to change', async ({ page }) => {
  const run = runId('ollama-ctx');
  await openPage(page);
  await useServer(page, mockUrl('ollama', run));
  // A pasted text of about 5,000 tokens, past Ollama's 2,048 (the stand-in counts at most that).
  const text = 'The quarterly report lists revenue, costs and margins for each region. '.repeat(300);
  await ask(page, `${text}\n\n${Q}`);
  await expect(finalAnswer(page)).toHaveText('The answer is 395.');
  const guard = page.locator('.guard-prompt_cut');
  await expect(guard).toHaveCount(1);
  await expect(guard).toContainText('2048 prompt tokens');
  await expect(guard).toContainText('OLLAMA_CONTEXT_LENGTH=8192');
});

for (const [name, url] of [
  ['a refused port', () => 'http://127.0.0.1:9/v1'],
  ['a CORS refusal', () => mockUrl('cors-refuse')],
]) {
  test(`the connection doctor explains ${name}`, async ({ page }) => {
    await openPage(page);
    const origin = new URL(process.env.PAGE_URL).origin;
    await useServer(page, url());
    await ask(page);
    const error = page.getByTestId('error');
    await expect(error).toContainText(`OLLAMA_ORIGINS=${origin}`);
    await expect(error.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByTestId('step-card')).toHaveCount(1);
    if (name === 'a refused port') {
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'error-doctor');
    }
    // "Test connection" asks again and shows the doctor in the Connect panel.
    await error.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.locator('#connect-result [data-testid="error"]')).toContainText(`OLLAMA_ORIGINS=${origin}`);
  });
}

test('a model error can be retried', async ({ page }) => {
  await openPage(page);
  await useServer(page, mockUrl('http500'));
  await ask(page);
  await expect(page.getByTestId('error')).toContainText('internal failure');
  await useServer(page, mockUrl('calc')); // the agent keeps its settings: retry asks the same server
  await page.getByTestId('error').getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('step-card')).toHaveCount(2);
  await expect(page.getByTestId('error')).toContainText('internal failure');
  // The core says what failed and how to fix it in the page's language, too.
  await page.locator('#ui-lang').selectOption('zh');
  await expect(page.getByTestId('error')).toContainText('服务器在回答时出错（HTTP 500）');
  await expect(page.getByTestId('error')).toContainText('请在服务器的控制台中查看原因');
});

test('model output, observations and JS tool results are shown as text, never run', async ({ page }) => {
  const payload = '<img src=x onerror=window.__xss=1>';
  await openPage(page);
  await page.locator('#tools-panel > summary').click();
  await page.locator('#js-name').fill('js_tool');
  await page.locator('#js-description').fill('Returns HTML, to test rendering.');
  await page.locator('#js-parameters').fill('{"type": "object", "properties": {"html": {"type": "string"}, "x": {"type": "number"}}}');
  await page.locator('#js-body').fill(`return ${JSON.stringify(payload)};`);
  await page.locator('#js-tool-form button[type=submit]').click();
  await expect(page.locator('#js-tool-status')).toContainText('js_tool is ready');
  await useServer(page, mockUrl('xss'));
  await ask(page, 'Show me the payloads.');
  await expect(finalAnswer(page)).toHaveText(`Payloads: ${XSS_PAYLOADS.join(' ')}`);
  const first = page.getByTestId('step-card').first();
  await expect(first.locator('.observation')).toContainText(payload);
  for (const card of await page.getByTestId('step-card').all()) {
    await card.locator('details.xray > summary').click();
    await card.locator('details.anatomy > summary').click();
  }
  await expect(first.locator('.xray-text')).toContainText('<script>window.__xss=1</script>');
  expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  await expect(page.locator('#trace img, #trace script')).toHaveCount(0);
});

/** Milliseconds from a click to the next frame after it is handled. */
const clickLatency = (page, selector) => page.evaluate((sel) => new Promise((done) => {
  const start = performance.now();
  document.querySelector(sel).click();
  requestAnimationFrame(() => setTimeout(() => done(performance.now() - start)));
}), selector);

test('a 1 MB observation keeps the page responsive', async ({ page }) => {
  const run = runId('big');
  await openPage(page);
  await page.locator('#tools-panel > summary').click();
  await page.locator('#js-name').fill('js_tool');
  await page.locator('#js-parameters').fill('{"type": "object", "properties": {"x": {"type": "number"}}}');
  await page.locator('#js-body').fill("return 'x'.repeat(1000000);");
  await page.locator('#js-tool-form button[type=submit]').click();
  await expect(page.locator('#js-tool-status')).toContainText('js_tool is ready'); // compiled in a worker first
  await page.locator('#connect-panel details.sub > summary').click();
  await page.locator('#observation-limit').fill('2000000');
  await useServer(page, mockUrl('big-observation', run));
  await page.getByTestId('question').fill('Give me a big result.');
  await page.getByTestId('step').click();
  await page.getByTestId('step').click();
  await expect(page.locator('#debug-next')).toContainText('run js_tool');
  // The tool's own result is capped at 100,000 characters by the runtime; an observation
  // typed in the debugger is not, so this is a full megabyte.
  await page.getByTestId('edit').evaluate((box) => { box.value = 'y'.repeat(1_000_000); });
  await page.getByTestId('step').click();
  const observation = page.getByTestId('step-card').first().locator('.observation');
  await expect(observation.locator('.more')).toBeVisible();
  await observation.scrollIntoViewIfNeeded();
  await screenshot(page, 'big-observation');
  expect(await clickLatency(page, '#tools-panel > summary')).toBeLessThan(1000);
  expect(await clickLatency(page, '.observation .more button')).toBeLessThan(2000); // +50,000 characters
  await page.locator('#continue').click();
  await expect(finalAnswer(page)).toHaveText('Received 1000000 characters.');
  const second = page.getByTestId('step-card').nth(1);
  await second.locator('details.anatomy > summary').click();
  // Unconstrained: the reply and its Observation grow one assistant message.
  await expect(second.locator('.message')).toHaveCount(3);
  expect(await clickLatency(page, '#prompt-panel > summary')).toBeLessThan(1000);
});

test('a 200-step imported trace replays and stays responsive', async ({ page }) => {
  await openPage(page, { demo: '1', question: Q, autorun: '1' });
  await expect(finalAnswer(page)).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const trace = JSON.parse(await readFile(await download.path(), 'utf8'));
  const [action, final] = trace.steps;
  const steps = Array.from({ length: 199 }, (_, i) => ({ ...structuredClone(action), index: i + 1 }));
  steps[10].observation.text = 'z'.repeat(1_000_000);
  trace.steps = [...steps, { ...final, index: 200 }];
  await page.locator('#import-file').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
  await expect(page.locator('#skip')).toBeVisible();
  expect(await clickLatency(page, '#tools-panel > summary')).toBeLessThan(1000);
  await page.locator('#skip').press('Enter'); // not a click: the replay scrolls the page under the pointer
  await expect(page.getByTestId('step-card')).toHaveCount(200);
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  expect(await clickLatency(page, '#prompt-panel > summary')).toBeLessThan(1000);
});

test('a long replay types in pieces a timer can keep up with', async ({ page }) => {
  await openPage(page, { demo: '1', question: Q, autorun: '1' });
  await expect(finalAnswer(page)).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const trace = JSON.parse(await readFile(await download.path(), 'utf8'));
  const ticks = await page.evaluate(async (recorded) => {
    const { Replay } = await import('./trace.js');
    const [action] = recorded.steps;
    const trace = { ...recorded, steps: Array.from({ length: 200 }, (_, i) => ({ ...action, index: i + 1 })) };
    const view = { reset() {}, event() {}, showStep() {}, showEnd() {}, end: { replaceChildren() {} } };
    // The playground's pace for an imported trace: all of it in about 12 s.
    const replay = new Replay(trace, view, { speed: Replay.speedFor(trace, 12_000) });
    let count = 0;
    for (; !replay.done; count++) replay.tick();
    return count;
  }, trace);
  // A browser timer waits at least 4 ms: more ticks than 12 s / 4 ms cannot play in 12 s.
  expect(ticks).toBeLessThanOrEqual(12_000 / 4);
});

test('a permalink restores endpoint, model, question, tools and prompt, never the key', async ({ page }) => {
  const run = runId('link');
  await openPage(page);
  await useServer(page, mockUrl('calc', run));
  await page.locator('#api-key').fill('sk-secret-123');
  await page.getByTestId('question').fill(Q);
  await page.locator('#tools-panel > summary').click();
  await page.locator('input[name=builtin][value=current_time]').uncheck();
  await page.locator('#prompt-panel > summary').click();
  await page.locator('#template').fill('You are terse.\nTools:\n{tools}\nUse: {tool_names}');
  await page.locator('#permalink').click();
  const link = await page.locator('#permalink-url').inputValue();
  expect(link).not.toContain('sk-secret');
  await page.goto(`${link}&autorun=1`);
  await page.getByTestId('confirm-endpoint').click();
  await expect(page.locator('#base-url')).toHaveValue(mockUrl('calc', run));
  await expect(page.locator('#model')).toHaveValue('mock-model');
  await expect(page.locator('#api-key')).toHaveValue('');
  await expect(page.locator('input[name=builtin][value=current_time]')).not.toBeChecked();
  await expect(page.locator('#template')).toHaveValue(/You are terse/);
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const sent = await mockRequests('calc', run);
  expect(sent[0].body.messages[0].content).toMatch(/^You are terse/);
  expect(sent[0].body.messages[0].content).not.toContain('current_time');
  expect(sent[0].headers.authorization ?? '').not.toContain('sk-secret');
});

test('pause stops after the transition in progress', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.getByTestId('question').fill('What is RAG?');
  // Pause in the same task as Run, so it lands during the first transition however fast it is.
  await page.evaluate(() => {
    document.querySelector('[data-testid=run]').click();
    document.querySelector('#pause').click();
  });
  await expect(page.locator('#debug-next')).toContainText('run search_docs');
  await expect(page.locator('#status')).toContainText('Paused');
  await page.locator('#continue').click();
  await expect(finalAnswer(page)).toBeVisible();
});

test('stop ends a paused run: the page no longer says paused, and nothing continues it', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.getByTestId('question').fill('What is RAG?');
  await page.getByTestId('step').click();
  await expect(page.locator('#status')).toContainText('Paused');
  await page.locator('#stop').click();
  await expect(page.locator('.outcome')).toContainText('Stopped by the user.');
  await expect(page.locator('#status')).toHaveText('');
  await expect(page.locator('#continue')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.locator('#debugger')).toBeHidden();
});

test('stop aborts a streaming reply and keeps its text, also after export and import', async ({ page }) => {
  await openPage(page);
  await useServer(page, mockUrl('slow-stream', runId('slow')));
  await ask(page);
  await expect(page.locator('pre.live')).toContainText('Th'); // one character per 200 ms
  await page.locator('#stop').click();
  await expect(page.locator('.outcome')).toContainText('Stopped by the user.', { timeout: 2000 });
  await expect(page.getByTestId('error')).toHaveCount(0);
  const cutOff = page.getByTestId('step-card').first().locator('.row.cut-off');
  await expect(cutOff.locator('.badge')).toHaveText('cut off by Stop');
  await screenshot(page, 'cut-off-reply');

  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const saved = await json.path();
  const { reply, parse } = JSON.parse(await readFile(saved, 'utf8')).steps[0];
  expect(parse ?? null).toBeNull();
  expect(reply.text).toMatch(/^Th/);
  expect('Thought: I need to compute 23 * 17 + 4.').toContain(reply.text.split('\n')[0]);
  await expect(cutOff.locator('pre')).toHaveText(reply.text);
  const [md] = await Promise.all([page.waitForEvent('download'), page.locator('#export-md').click()]);
  expect(await readFile(await md.path(), 'utf8')).toContain(`**Reply (cut off by Stop):**\n\n\`\`\`text\n${reply.text}\n`);

  await openPage(page, { demo: '1' });
  await page.locator('#import-file').setInputFiles(saved);
  // No Skip: a one-step replay can end before a click reaches the button, which then hides.
  await expect(page.locator('.outcome')).toContainText('Stopped by the user.');
  await expect(page.locator('.row.cut-off pre')).toHaveText(reply.text);
  await expect(page.locator('.row.cut-off .badge')).toHaveText('cut off by Stop');
});

test('older rounds summarised first: a summary step, its card, and the summary after the question', async ({ page }) => {
  const run = runId('summary');
  await openPage(page);
  await useServer(page, mockUrl('loop', run));
  await page.locator('#connect-panel details.sub > summary').click();
  await page.locator('#history-rounds').fill('1');
  await page.getByTestId('compress').selectOption('summary');
  await ask(page);
  await expect(page.locator('.outcome')).toBeVisible();
  // One summary each time older rounds leave the one-round window.
  const cards = page.getByTestId('step-card').filter({ has: page.getByTestId('summary-step') });
  await expect(cards.first().locator('.row.summary')).toContainText('I need to compute 23 * 17 + 4.');
  const sent = await mockRequests('loop', run);
  const asked = sent.findIndex((r) => r.body.messages.at(-1).content.includes('summarise the steps so far'));
  expect(asked).toBeGreaterThan(0);
  const question = sent[asked + 1].body.messages.find((m) => m.content.startsWith('Question:'));
  expect(question.content).toContain('Summary of the omitted steps:');
});

test('the texts the loop sends: an edited one is what the model gets, the panel says where it went, a link carries it', async ({ page }) => {
  const run = runId('texts');
  await openPage(page);
  await useServer(page, mockUrl('format-error', run));
  await page.locator('#prompt-panel > summary').click();
  await page.locator('#text-name').selectOption('format.no_action');
  await expect(page.locator('#text-body')).toHaveValue(/^No 'Action:' found/);
  await expect(page.locator('#text-sent')).toHaveText('Placeholders: {format}. Not sent in the run on show.');
  await page.locator('#text-body').fill('Write an Action line, please.\n{format}');
  await expect(page.locator('#text-name option:checked')).toHaveText('format.no_action (edited)');
  await ask(page);
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const sent = await mockRequests('format-error', run);
  const second = sent[1].body.messages.map((m) => m.content).join('\n');
  expect(second).toContain('Write an Action line, please.\nThought: <your reasoning>');
  expect(second).not.toContain("No 'Action:' found");
  // Chosen again, the text says where the run on show sent it.
  await page.locator('#text-name').selectOption('format.no_action');
  await expect(page.locator('#text-sent')).toHaveText('Placeholders: {format}. In the run on show, first sent in the request of step 2.');
  await page.locator('#permalink').click();
  const link = await page.locator('#permalink-url').inputValue();
  expect(new URL(link).searchParams.get('texts')).toBe(JSON.stringify({ 'format.no_action': 'Write an Action line, please.\n{format}' }));
  await page.goto(link);
  await page.locator('#prompt-panel > summary').click();
  await page.locator('#text-name').selectOption('format.no_action');
  await expect(page.locator('#text-body')).toHaveValue('Write an Action line, please.\n{format}');
  // Reset: the built-in words again, and the link no longer carries it.
  await page.locator('#text-reset').click();
  await expect(page.locator('#text-body')).toHaveValue(/^No 'Action:' found/);
  await expect(page.locator('#text-name option:checked')).toHaveText('format.no_action');
});
