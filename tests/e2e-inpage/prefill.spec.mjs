// The in-page engine reads the next run's opening (the system prompt and what the question
// follows) into llama.cpp's prompt cache while nobody waits, so a run's first step evaluates
// little more than its question.
import { readFile } from 'node:fs/promises';
import { test, expect } from '../e2e/fixtures.mjs';
import { open, loadSmollm, oneStep } from './page.mjs';

test.use({ serviceWorkers: 'block' });

const speed = (page) => page.getByTestId('inpage-speed');

/** The numbers of the speed line, in order. */
const numbers = async (page) => (await speed(page).textContent()).match(/\d+(\.\d+)?/g).map(Number);

/** The system prompt the engine's prompt cache starts with, or null. */
const cachedSystem = (page) => page.evaluate(async () => (await import('./inpage.js')).engine().cachedSystem);

test('after a load the system prompt is read ahead, and the first step evaluates only the question', async ({ page }) => {
  await open(page);
  await loadSmollm(page);
  await expect(speed(page)).toContainText('System prompt read ahead into the prompt cache: ');
  const [read] = await numbers(page);
  expect(read).toBeGreaterThan(200); // the whole system prompt with its tools
  // What was read is the system prompt of the run the settings make.
  const system = await cachedSystem(page);
  expect(system).toContain('Tools:');
  await oneStep(page);
  await expect(speed(page)).toContainText('Last reply: ');
  const [fresh, , cached] = await numbers(page);
  // The cache held everything up to the question; the step read the question and the template's few tokens.
  expect(cached).toBeGreaterThanOrEqual(read - 10);
  expect(fresh).toBeLessThan(40);
  expect(await cachedSystem(page)).toBe(system);
  // The step card says it too, and the trace keeps it.
  await expect(page.getByTestId('step-card').first().locator('.meta')).toContainText(`(${cached} from the prompt cache)`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const trace = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(trace.steps[0].reply.usage.cached_tokens).toBe(cached);
});

test('a new prompt language is read ahead again once no run is on, and the line follows the interface language', async ({ page }) => {
  await open(page);
  await loadSmollm(page);
  await expect(speed(page)).toContainText('System prompt read ahead');
  const english = await cachedSystem(page);
  // Paused before its first request, a run keeps the cache: a changed setting reads nothing.
  await page.getByTestId('question').fill('What is 2 + 2?');
  await page.locator('#step').click();
  await page.locator('#prompt-panel > summary').click();
  await page.locator('#prompt-lang').selectOption('zh');
  await page.waitForTimeout(2000);
  expect(await cachedSystem(page)).toBe(english);
  await page.locator('#stop').click();
  // Stopped: the Chinese opening is read.
  await expect.poll(() => cachedSystem(page)).toContain('工具');
  await page.locator('#ui-lang').selectOption('zh');
  await expect(speed(page)).toContainText('系统提示词已预先读入提示缓存：');
});
