// What the in-page engine's specs share: opening the playground and loading SmolLM2 from the
// suite's static server (global-setup.mjs).
import { expect } from '../e2e/fixtures.mjs';

export const MODEL = () => process.env.SMOLLM_PATH;

/** Opens the playground at `base` in English, with `params` in the query. */
export async function open(page, base = process.env.PAGE_URL, params = {}) {
  await page.goto(`${base}?${new URLSearchParams({ lang: 'en', ...params })}`);
  await expect(page.locator('body[data-ready="1"]')).toBeAttached();
}

/** Chooses the in-page engine and loads SmolLM2 from the local static server by its URL. */
export async function loadSmollm(page) {
  await page.locator('#preset').selectOption('inpage');
  await page.locator('#model-url').fill(MODEL());
  await page.locator('#model-url-load').click();
  await expect(page.getByTestId('inpage-status')).toContainText('is loaded');
}

/** One short step of the run, and the trace's model line (it names the device and the build), found by its prefix in the page's language. */
export async function oneStep(page, modelLine = 'Model: ') {
  await page.locator('#connect-panel details.sub > summary').click();
  await page.locator('#max-steps').fill('1');
  await page.locator('#max-tokens').fill('40');
  await page.getByTestId('question').fill('What is 2 + 2?');
  await page.getByTestId('run').click();
  await expect(page.locator('.outcome')).toBeVisible();
  await expect(page.getByTestId('error')).toHaveCount(0);
  return page.locator('.trace p.muted', { hasText: modelLine }).first().textContent();
}
