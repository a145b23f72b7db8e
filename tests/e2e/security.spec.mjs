// A link is not consent: an endpoint named by a permalink gets nothing (no model list, no
// question, no key) until the person agrees, and a remembered key only ever goes to the origin
// it was saved for. The "attacker" is the mock server under another origin (localhost instead
// of 127.0.0.1), which logs every request it receives.
import { readFile } from 'node:fs/promises';
import { test, expect, openPage, mockUrl, finalAnswer, LOCAL_SERVERS, reloadPage } from './fixtures.mjs';

const Q = 'What is 23 * 17 + 4?';
const KEY = 'sk-saved-for-server-a';
let runs = 0;
const runId = (name) => `${name}-${process.pid}-${++runs}`;

/** The same mock under a second origin. */
const otherOrigin = (url) => url.replace('//127.0.0.1:', '//localhost:');

/** Every request the mock logged for this scenario and run (GET /models and OPTIONS too). */
async function received(scenario, run) {
  const query = new URLSearchParams({ scenario, run });
  return (await fetch(`${process.env.MOCK_URL}/__requests?${query}`)).json();
}

/** Remembers KEY for `url` the way a person does: pick the server, type the key, tick the box. */
async function rememberKeyFor(page, url) {
  await page.locator('#preset').selectOption('custom');
  await page.locator('#base-url').fill(url);
  await page.locator('#model').fill('mock-model');
  await page.locator('#api-key').fill(KEY);
  await page.locator('#remember-key').check();
}

test('a link to another server sends nothing before consent, and never the saved key', async ({ page }) => {
  const home = mockUrl('calc', runId('home'));
  const run = runId('attacker');
  const attacker = otherOrigin(mockUrl('calc', run));
  const probes = [];
  // Registered after the fixture's route, so it sees the probe's requests first.
  await page.route(LOCAL_SERVERS, (route) => {
    probes.push(route.request().headers().authorization ?? '');
    return route.abort('connectionrefused');
  });
  await openPage(page);
  await rememberKeyFor(page, home);

  await openPage(page, { endpoint: attacker, model: 'mock-model', question: Q, autorun: '1' });
  const confirm = page.getByTestId('confirm-endpoint');
  await expect(confirm).toBeVisible();
  await expect(page.locator('#endpoint-confirm')).toContainText(`This link wants to connect to ${new URL(attacker).host}. Connect?`);
  await expect(page.locator('#api-key')).toHaveValue('');
  // Run and Test connection before agreeing go nowhere either.
  await page.getByTestId('run').click();
  await page.locator('#test-connection').click();
  await page.waitForTimeout(500);
  expect(await received('calc', run)).toEqual([]);
  await expect(page.getByTestId('step-card')).toHaveCount(0);

  await confirm.click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const sent = await received('calc', run);
  expect(sent.filter((r) => r.method === 'POST')).toHaveLength(2);
  expect(sent.filter((r) => JSON.stringify(r).includes(KEY))).toEqual([]);
  expect(probes.length).toBeGreaterThan(0);
  expect(probes.filter((auth) => auth !== '')).toEqual([]);
  await expect(page.locator('#endpoint-confirm')).toBeHidden();
});

test('declining a link keeps the demo model and contacts nobody', async ({ page }) => {
  const run = runId('declined');
  const attacker = otherOrigin(mockUrl('calc', run));
  await openPage(page, { endpoint: attacker, model: 'mock-model', question: Q, autorun: '1' });
  await page.getByRole('button', { name: 'No, use the demo model' }).click();
  await expect(page.locator('#preset')).toHaveValue('demo');
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  expect(await received('calc', run)).toEqual([]);
});

test('a key saved for server A goes to A and is never sent to server B', async ({ page }) => {
  const runA = runId('server-a');
  const runB = runId('server-b');
  const serverA = mockUrl('calc', runA);
  const serverB = otherOrigin(mockUrl('calc', runB));
  await openPage(page);
  await rememberKeyFor(page, serverA);
  await reloadPage(page);

  await page.locator('#preset').selectOption('custom');
  await page.locator('#base-url').fill(serverB);
  await expect(page.locator('#api-key')).toHaveValue('');
  await page.locator('#model').fill('mock-model');
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const toB = await received('calc', runB);
  expect(toB.filter((r) => r.method === 'POST')).toHaveLength(2);
  expect(toB.filter((r) => JSON.stringify(r).includes(KEY))).toEqual([]);

  await page.locator('#base-url').fill(serverA);
  await expect(page.locator('#api-key')).toHaveValue(KEY);
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const toA = (await received('calc', runA)).filter((r) => r.method === 'POST');
  expect(toA).toHaveLength(2);
  for (const request of toA) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('reactloop.apiKeys'))))).toEqual([new URL(serverA).origin]);
  // The run that used the key: its exports and its permalink carry no trace of it.
  for (const button of ['#export-json', '#export-md']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
    const text = await readFile(await download.path(), 'utf8');
    expect(text).toContain('The result is 395.');
    expect(text).not.toContain(KEY);
  }
  await page.locator('#permalink').click();
  expect(await page.locator('#permalink-url').inputValue()).not.toContain(KEY);
});

test('a key typed before the URL goes to the server typed after it, and is remembered for it', async ({ page }) => {
  const run = runId('key-first');
  const server = mockUrl('calc', run);
  await openPage(page);
  await page.locator('#preset').selectOption('custom');
  await page.locator('#base-url').fill('');
  await page.locator('#api-key').fill(KEY);
  await page.locator('#remember-key').check();
  await page.locator('#base-url').fill(server);
  await page.locator('#base-url').press('Tab');
  await page.locator('#model').fill('mock-model');
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('run').click();
  await expect(finalAnswer(page)).toHaveText('The result is 395.');
  const sent = (await received('calc', run)).filter((r) => r.method === 'POST');
  for (const request of sent) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('reactloop.apiKeys'))))).toEqual([new URL(server).origin]);
});
