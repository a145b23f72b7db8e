// Shared helpers: open the page with URL parameters, point it at a mock scenario, read what
// the mock received, save screenshots, and fail any test whose page throws.
import { test as base, expect } from '@playwright/test';

export { expect };

// The page probes these on load; whatever runs on this machine must not change the tests.
export const LOCAL_SERVERS = /^http:\/\/localhost:(11434|8080|1234)\//;

export const test = base.extend({
  page: async ({ page }, use) => {
    await page.route(LOCAL_SERVERS, (route) => route.abort('connectionrefused'));
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (msg) => {
      // A refused fetch is logged by the browser itself; that is the scenario, not a bug.
      if (msg.type() === 'error' && !/Failed to load resource|net::ERR_|CORS policy/.test(msg.text())) errors.push(msg.text());
    });
    await use(page);
    expect(errors, 'errors in the page').toEqual([]);
  },
});

/** The mock's base URL for a scenario; `run` keeps parallel tests' requests apart. */
export const mockUrl = (scenario, run) => `${process.env.MOCK_URL}/s/${scenario}${run ? `@${run}` : ''}/v1`;

export async function mockRequests(scenario, run) {
  const query = new URLSearchParams({ scenario, ...(run ? { run } : {}) });
  const response = await fetch(`${process.env.MOCK_URL}/__requests?${query}`);
  return (await response.json()).filter((r) => r.method === 'POST' && r.path.includes('/chat/completions'));
}

export async function openPage(page, params = {}) {
  await page.goto(`${process.env.PAGE_URL}?${new URLSearchParams(params)}`);
  await expect(page.locator('body[data-ready="1"]')).toBeAttached();
}

/** Reloads and waits for the page's start-up (a link's settings are applied then, after any early click). */
export async function reloadPage(page) {
  await page.reload();
  await expect(page.locator('body[data-ready="1"]')).toBeAttached();
}

export async function screenshot(page, name) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

/** Picks the custom-URL server and a model (so the local probe cannot switch it). */
export async function useServer(page, url, { stream = true } = {}) {
  await page.locator('#preset').selectOption('custom');
  await page.locator('#base-url').fill(url);
  await page.locator('#model').fill('mock-model');
  await page.locator('#stream').setChecked(stream);
}

export const finalAnswer = (page) => page.getByTestId('final-answer');
