// The playground as a hosted page (GitHub Pages): an https origin that is not the reader's
// computer. A stand-in plays that host: Playwright answers https://reactloop.example/ with the
// files of the local static server, so the page's origin is https and a secure context. The
// local presets are refused by the fixtures, as when no server runs.
import { test, expect, LOCAL_SERVERS, screenshot } from './fixtures.mjs';

const HOST = 'https://reactloop.example';

async function openHosted(page, search = '') {
  await page.route(`${HOST}/**`, async (route) => {
    const url = new URL(route.request().url());
    route.fulfill({ response: await route.fetch({ url: `${process.env.PAGE_URL}${url.pathname.slice(1)}${url.search}` }) });
  });
  const asked = [];
  page.on('request', (r) => LOCAL_SERVERS.test(r.url()) && asked.push(r.url()));
  await page.goto(`${HOST}/${search}`);
  await expect(page.locator('body[data-ready="1"]')).toBeAttached();
  return asked;
}

test('a hosted page asks nothing of this computer on load, says what a local server needs for its origin, and looks when asked', async ({ page }) => {
  const asked = await openHosted(page);
  const note = page.getByTestId('hosted-note');
  await expect(note).toBeVisible();
  await expect(note).toContainText(`OLLAMA_ORIGINS=${HOST} ollama serve`);
  await expect(note).toContainText('lms server start --cors');
  await expect(note).toContainText("llama.cpp's server allows every origin");
  await expect(note).toContainText('reach devices on your local network');
  await expect(page.locator('#preset')).toHaveValue('demo');
  await page.waitForTimeout(300);
  expect(asked).toEqual([]);
  await screenshot(page, 'hosted-note');

  await page.locator('#ui-lang').selectOption('zh');
  await expect(note).toContainText(`OLLAMA_ORIGINS=${HOST} ollama serve`);
  await expect(note).toContainText('本地网络');
  await expect(note.locator('button')).toHaveText('查找本机服务器');
  await page.locator('#ui-lang').selectOption('en');

  await note.locator('button').click();
  await expect(page.locator('#probe-status')).toContainText('No local server answered');
  expect(asked.length).toBeGreaterThanOrEqual(3);
});

test("a hosted page's connection doctor gives the fix for its own origin and the browser's question", async ({ page }) => {
  await openHosted(page);
  await page.locator('#preset').selectOption('ollama');
  await page.locator('#test-connection').click();
  const doctor = page.locator('#connect-panel .doctor');
  await expect(doctor).toContainText('Could not reach http://localhost:11434/v1/models');
  const hint = doctor.locator('.doctor-hint');
  await expect(hint).toContainText(`OLLAMA_ORIGINS=${HOST} ollama serve`);
  await expect(hint).toContainText('An https page may call http://localhost, but recent Chrome first asks you');
});

test('a page on this computer looks for local servers on load and shows no hosted note', async ({ page }) => {
  const asked = [];
  page.on('request', (r) => LOCAL_SERVERS.test(r.url()) && asked.push(r.url()));
  await page.goto(process.env.PAGE_URL);
  await expect(page.locator('#probe-status')).toContainText('No local server answered');
  await expect(page.getByTestId('hosted-note')).toBeHidden();
  expect(asked.length).toBeGreaterThanOrEqual(3);
});
