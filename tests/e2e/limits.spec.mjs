// The size limits (src/limits.rs, README "Limits") and links the page cannot honour: a trace
// over a limit is refused with a sentence that names it, one at the limit still loads; a
// reply over 4 MB ends the run with the limit in the trace; a link's unknown language falls
// back to the default with a notice instead of breaking every run.
import { readFile } from 'node:fs/promises';
import { test, expect, openPage, useServer, mockUrl, finalAnswer } from './fixtures.mjs';

const Q = 'What is 23 * 17 + 4?';

/** A demo run's trace, exported by the page. */
async function demoTrace(page) {
  await openPage(page, { demo: '1', question: Q, autorun: '1' });
  await expect(finalAnswer(page)).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  return JSON.parse(await readFile(await download.path(), 'utf8'));
}

/** The trace with `count` steps: copies of its first, then its last. */
function withSteps(trace, count) {
  const [action, final] = trace.steps;
  const steps = Array.from({ length: count - 1 }, (_, i) => ({ ...structuredClone(action), index: i + 1 }));
  return { ...trace, steps: [...steps, { ...final, index: count }] };
}

/** Milliseconds from a click to the next frame after it is handled. */
const clickLatency = (page, selector) => page.evaluate((sel) => new Promise((done) => {
  const start = performance.now();
  document.querySelector(sel).click();
  requestAnimationFrame(() => setTimeout(() => done(performance.now() - start)));
}), selector);

const file = (name, text) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

test('a trace over the step limit is refused by name; one at the limit loads', async ({ page }) => {
  test.setTimeout(120_000); // Locators are slow over 2,000 cards, the page is not
  const trace = await demoTrace(page);
  await page.locator('#import-file').setInputFiles(file('long.json', JSON.stringify(withSteps(trace, 2001))));
  const error = page.getByTestId('error');
  await expect(error).toContainText('Could not import');
  await expect(error).toContainText('it has 2001 steps, and a trace may have at most 2000');

  // Loads; with the animation skipped, every card is drawn and the page still answers a click.
  const started = Date.now();
  await page.locator('#import-file').setInputFiles(file('longest.json', JSON.stringify(withSteps(trace, 2000))));
  await expect(page.locator('#skip')).toBeVisible();
  await expect(error).toHaveCount(0);
  const loaded = Date.now() - started;
  await page.locator('#skip').press('Enter'); // not a click: the replay scrolls the page under the pointer
  await expect(page.getByTestId('step-card')).toHaveCount(2000);
  // The click is answered (a timing goal would be a benchmark's: under load it took 1.1 s).
  const latency = await clickLatency(page, '#tools-panel > summary');
  await expect(page.locator('#tools-panel')).toHaveAttribute('open', '');
  await expect(finalAnswer(page)).toHaveText('The result is 395.', { timeout: 60_000 });
  console.log(`2000 steps: the replay started after ${loaded} ms; a click was drawn after ${Math.round(latency)} ms`);
});

test('a file over 20 MB is refused before it is read', async ({ page }) => {
  await openPage(page, { demo: '1' });
  await page.locator('#import-file').setInputFiles(file('huge.json', ' '.repeat(20_000_001)));
  await expect(page.getByTestId('error')).toContainText('The file is 20.1 MB, more than the 20 MB a trace may be, so it was not read.');
});

test('a reply over 4 MB ends the run with the limit and the fix on its card', async ({ page }) => {
  await openPage(page);
  await useServer(page, mockUrl('huge-body', `huge-${process.pid}`), { stream: false });
  await page.getByTestId('question').fill(Q);
  await page.locator('#run').click();
  const card = page.getByTestId('step-card').first();
  await expect(card.locator('.doctor')).toContainText("The server's reply is larger than 4 MB, far more than any chat reply, so reading stopped there.");
  await expect(card.locator('.doctor-hint')).toContainText('base URL');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const trace = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(trace.steps[0].error).toEqual({ type: 'too_large', part: 'body', limit_bytes: 4_000_000 });
  expect(trace.outcome.type).toBe('model_error');
});

test("a link's unknown languages fall back to the defaults with a notice, and the run works", async ({ page }) => {
  for (const [lang, plang] of [['fr', 'klingon'], ['constructor', '__proto__']]) {
    await openPage(page, { lang, plang, demo: '1', question: Q, autorun: '1' });
    const notice = page.getByTestId('link-notice');
    await expect(notice).toContainText(`the interface language “${lang}”, which this page does not have`);
    await expect(notice).toContainText(`the prompt language “${plang}”, which reactloop does not have`);
    await expect(finalAnswer(page)).toHaveText('The result is 395.');
    await expect(page.getByTestId('error')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await expect(page.locator('#prompt-lang')).toHaveValue('auto');
  }
  // A known interface language with an unknown prompt language: the notice in that language.
  await openPage(page, { lang: 'zh', plang: 'x'.repeat(100), demo: '1', question: Q, autorun: '1' });
  await expect(page.getByTestId('link-notice')).toHaveText(`此链接要求的提示词语言“${'x'.repeat(40)}…” reactloop 不支持，因此提示词跟随界面语言。`);
  await expect(finalAnswer(page)).toBeVisible();
  await page.locator('#ui-lang').selectOption('en');
  await expect(page.getByTestId('link-notice')).toContainText('which reactloop does not have');
  // A link with nothing wrong shows no notice.
  await openPage(page, { lang: 'zh', plang: 'en', demo: '1' });
  await expect(page.getByTestId('link-notice')).toBeHidden();
});

// Why a request allows only the answer is the core's sentence (`step.view.must_answer`), in the
// page's language: at a step limit of 2, the second request is the last.
for (const [lang, said] of [['en', 'This is the last step the limit allows'], ['zh', '这是步数上限允许的最后一步']]) {
  test(`the anatomy says why the last step may only answer, from the core (${lang})`, async ({ page }) => {
    await openPage(page, { demo: '1', lang, question: Q, maxSteps: '2', autorun: '1' });
    await expect(page.locator('.outcome')).toBeVisible();
    const card = page.getByTestId('step-card').nth(1);
    await card.locator('details.anatomy > summary').click();
    await expect(card.locator('.anatomy-body')).toContainText(said);
  });
}
