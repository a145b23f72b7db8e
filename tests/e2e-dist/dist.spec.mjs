// The release as each of its users meets it, from what scripts/dist wrote into dist/: a teacher
// hosting dist/site under a subpath, a docs author loading the element from that host on
// another origin, someone serving the downloaded site with python3 -m http.server, and a page
// that installs the npm package and imports it from node_modules.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStatic } from '../../scripts/static-server.mjs';
import { test, expect, screenshot } from '../e2e/fixtures.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const VERSION = (await readFile(join(ROOT, 'Cargo.toml'), 'utf8')).match(/^version = "(.+)"$/m)[1];
const Q = 'What is 23 * 17 + 4?';
const ANSWER = 'The result is 395.';

const temp = () => mkdtemp(join(tmpdir(), 'reactloop-dist-'));
const ready = (page) => expect(page.locator('body[data-ready="1"]')).toBeAttached();

/** Runs Q with the demo model in a playground that is open. */
async function runDemo(page) {
  await expect(page.locator('#preset')).toHaveValue('demo');
  await page.getByTestId('question').fill(Q);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('final-answer')).toHaveText(ANSWER);
}

async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return readFile(await file.path(), 'utf8');
}

/** A port nothing listens on yet. */
async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

test('dist/site under a subpath of a plain static host (CORS, no isolation or CSP headers) runs the demo, and every export names its version', async ({ page }) => {
  const root = await temp();
  await symlink(join(DIST, 'site'), join(root, 'reactloop'));
  // A static host like GitHub Pages: CORS on every file, no headers of ours.
  const host = await startStatic({ root, port: 0, csp: false, isolate: false, cors: true });
  try {
    const paths = [];
    page.on('request', (r) => r.url().startsWith(host.url) && paths.push(new URL(r.url()).pathname));
    await page.goto(`${host.url}reactloop/`);
    await ready(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await expect(page.locator('#version')).toHaveText(`reactloop ${VERSION}`);
    await runDemo(page);
    await screenshot(page, 'dist-site-subpath');
    // Nothing is asked of the host outside the subpath (the browser's own favicon request aside).
    expect(paths.filter((p) => !p.startsWith('/reactloop/') && p !== '/favicon.ico')).toEqual([]);
    // The policy is in the page's meta tag, since the host sends none.
    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /script-src 'self' 'wasm-unsafe-eval'/);
    // The in-page engine ships with the site.
    expect((await fetch(`${host.url}reactloop/vendor/wllama/wllama.wasm`, { method: 'HEAD' })).status).toBe(200);

    expect(JSON.parse(await download(page, '#export-json')).generator).toBe(`reactloop ${VERSION}`);
    expect(await download(page, '#export-md')).toContain(`*Recorded with reactloop ${VERSION}.*`);
    expect(await download(page, '[data-testid="export-page"]')).toContain(`<meta name="generator" content="reactloop ${VERSION}">`);
  } finally {
    await host.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('dist/site under a subpath of a host that sends no isolation headers: opening the in-page engine makes it cross-origin isolated with one reload; a visit that never opens it registers no service worker', async ({ page }) => {
  const root = await temp();
  await symlink(join(DIST, 'site'), join(root, 'course'));
  const host = await startStatic({ root, port: 0, csp: false, isolate: false, cors: true });
  const registrations = () => page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.map((x) => x.scope)));
  try {
    await page.goto(`${host.url}course/?lang=en`);
    await ready(page);
    await runDemo(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    expect(await registrations()).toEqual([]);

    await page.getByTestId('question').fill('A question typed before the reload');
    const loads = [];
    page.on('load', () => loads.push(page.url()));
    await page.locator('#preset').selectOption('inpage');
    await expect.poll(() => page.evaluate(() => crossOriginIsolated).catch(() => false)).toBe(true);
    await ready(page);
    expect(loads).toHaveLength(1); // one reload, no loop
    expect(await registrations()).toEqual([`${host.url}course/`]);
    // The page comes back where the person was: the engine chosen, the question kept.
    await expect(page.locator('#preset')).toHaveValue('inpage');
    await expect(page.locator('#inpage-fields')).toBeVisible();
    await expect(page.getByTestId('question')).toHaveValue('A question typed before the reload');
    // The engine's worker is isolated too (its script came through the service worker): threads.
    const features = await page.evaluate(async () => (await import(new URL('inpage.js', location.href).href)).engine().features());
    expect(features.threads).toBe(true);
    // Later visits are isolated from the start, and the demo still runs.
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(loads).toHaveLength(2);
    await runDemo(page);
  } finally {
    await host.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('a docs page on another origin loads <react-loop> and a recording from the site host and replays it', async ({ page }) => {
  const siteRoot = await temp();
  await symlink(join(DIST, 'site'), join(siteRoot, 'reactloop'));
  const host = await startStatic({ root: siteRoot, port: 0, csp: false, isolate: false, cors: true });
  const docsRoot = await temp();
  const base = `${host.url}reactloop/`;
  await writeFile(join(docsRoot, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
    <title>Some docs</title><script type="module" src="${base}embed/react-loop.js"></script></head>
    <body><h1>Our docs</h1><react-loop trace-src="${base}recordings/calculator-en.json" autoplay speed="20"></react-loop></body></html>`);
  const docs = await startStatic({ root: docsRoot, port: 0, csp: false, cors: false });
  try {
    expect(new URL(docs.url).origin).not.toBe(new URL(host.url).origin);
    const recording = JSON.parse(await readFile(join(DIST, 'site', 'recordings', 'calculator-en.json'), 'utf8'));
    await page.goto(docs.url);
    const el = page.locator('react-loop');
    await expect(el.getByTestId('final-answer')).toHaveText(recording.outcome.answer, { timeout: 30_000 });
    await expect(el.getByTestId('step-card')).toHaveCount(recording.steps.length);
    await screenshot(page, 'dist-embed-other-origin');
  } finally {
    await docs.close();
    await host.close();
    await rm(siteRoot, { recursive: true, force: true });
    await rm(docsRoot, { recursive: true, force: true });
  }
});

test('the downloaded site, unpacked and served by python3 -m http.server, runs the demo (on one thread: no isolation)', async ({ page }) => {
  const root = await temp();
  execFileSync('tar', ['-xzf', join(DIST, `reactloop-site-${VERSION}.tar.gz`), '-C', root]);
  const port = await freePort();
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', join(root, `reactloop-site-${VERSION}`)], { stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}/`;
    await expect.poll(() => fetch(url).then((r) => r.status, () => 0), { timeout: 10_000 }).toBe(200);
    await page.goto(url);
    await ready(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await runDemo(page);
  } finally {
    server.kill();
    await rm(root, { recursive: true, force: true });
  }
});

test('the npm package installed into an empty folder: a page imports the Agent by its node_modules path and runs the demo; the element replays a packaged recording; Node resolves its exports', async ({ page }) => {
  const root = await temp();
  try {
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'docs-site', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-update-notifier', join(DIST, `reactloop-${VERSION}.tgz`)], { cwd: root, stdio: 'pipe', timeout: 120_000 });
    const resolved = execFileSync('node', ['--input-type=module', '-e',
      "for (const s of ['reactloop', 'reactloop/embed', 'reactloop/worker-tool', 'reactloop/svg', 'reactloop/recordings/calculator-en.json']) console.log(import.meta.resolve(s))"], { cwd: root, encoding: 'utf8' });
    expect(resolved.trim().split('\n').map((u) => u.replace(/^.*node_modules\/reactloop\//, ''))).toEqual([
      'pkg/reactloop.js', 'embed/react-loop.js', 'worker-tool.js', 'svg.js', 'recordings/calculator-en.json',
    ]);
    await mkdir(join(root, 'site'));
    await writeFile(join(root, 'main.js'), `
      import init, { Agent, version } from './node_modules/reactloop/pkg/reactloop.js';
      await init();
      const trace = await new Agent({ demo: true }).run(${JSON.stringify(Q)}, () => {});
      document.querySelector('#answer').textContent = trace.outcome.answer;
      document.querySelector('#version').textContent = version();`);
    await writeFile(join(root, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>npm</title>
      <script type="module" src="./main.js"></script>
      <script type="module" src="./node_modules/reactloop/embed/react-loop.js"></script></head>
      <body><output id="answer"></output> <output id="version"></output>
      <react-loop trace-src="./node_modules/reactloop/recordings/calculator-en.json" autoplay speed="20"></react-loop></body></html>`);
    const site = await startStatic({ root, port: 0, csp: false });
    try {
      await page.goto(site.url);
      await expect(page.locator('#answer')).toHaveText(ANSWER);
      await expect(page.locator('#version')).toHaveText(VERSION);
      const recording = JSON.parse(await readFile(join(root, 'node_modules/reactloop/recordings/calculator-en.json'), 'utf8'));
      await expect(page.locator('react-loop').getByTestId('final-answer')).toHaveText(recording.outcome.answer, { timeout: 30_000 });
    } finally {
      await site.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
