// <react-loop> (www/embed): the example docs page, replay, live against the mock, live with
// fallback, several elements on one page, bad recordings, lazy loading, isolation and XSS.
// Test pages are files in a temporary folder next to links to www/'s contents, served by a
// static server of this spec's own: a page must come from a real 127.0.0.1 server, since
// Chromium refuses loopback requests (the mock) from a page it cannot place on the network.
import { mkdtemp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStatic } from '../../scripts/static-server.mjs';
import { EMBED_FILES } from '../../scripts/embed-size.mjs';
import { test, expect, mockUrl, mockRequests, screenshot } from './fixtures.mjs';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));
const recording = async (name) => JSON.parse(await readFile(join(WWW, 'recordings', name), 'utf8'));
const EN = 'calculator-en.json';
const ZH = 'search-zh.json'; // ends with a guard: the model repeats its search

let site;
let root;
let pages = 0;

test.beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'reactloop-embed-'));
  for (const name of await readdir(WWW)) await symlink(join(WWW, name), join(root, name));
  // These pages stand for anyone's docs page (inline scripts and styles included), so they get
  // no policy of ours; the example page, served with it, is tested first.
  site = await startStatic({ root, port: 0, csp: false });
});

test.afterAll(async () => {
  await site?.close();
  await rm(root, { recursive: true, force: true });
});

/** Writes `body` as a page (with the element's script tag) and `files` next to it, and opens it. */
async function embedPage(page, body, { files = {}, lang = 'en', head = '' } = {}) {
  const dir = `embed-test/${process.pid}-${++pages}`;
  await mkdir(join(root, dir), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(root, dir, name), text);
  await writeFile(join(root, dir, 'index.html'), `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
    <title>embed test</title><script type="module" src="/embed/react-loop.js"></script>${head}</head>
    <body>${body}</body></html>`);
  await page.goto(`${site.url}${dir}/`);
}

/** Every URL the page requests from then on, relative to the static server. */
function requests(page) {
  const seen = [];
  page.on('request', (r) => seen.push(r.url().replace(site.url, '/').replace(process.env.PAGE_URL, '/')));
  return seen;
}

const embed = (page, i = 0) => page.locator('react-loop').nth(i);
const frame = (el) => el.locator('.frame');
const answer = (el) => el.getByTestId('final-answer');
const cards = (el) => el.getByTestId('step-card');
const button = (el, name) => el.locator('.bar button', { hasText: name });

test('the example page: every element renders, the replay reaches its answer, the live one falls back', async ({ page }) => {
  const seen = requests(page);
  await page.goto(`${process.env.PAGE_URL}examples/`);
  const all = page.locator('react-loop');
  await expect(all).toHaveCount(4);
  const en = await recording(EN);
  await expect(answer(all.first())).toHaveText(en.outcome.answer, { timeout: 30_000 });
  await screenshot(page, 'embed-example-top');
  for (let i = 0; i < 4; i++) {
    const el = all.nth(i);
    await el.scrollIntoViewIfNeeded();
    await expect(frame(el)).toHaveAttribute('data-mode', (await el.getAttribute('endpoint')) ? 'fallback' : 'replay');
    await expect(el.locator('.trace-head .question')).not.toBeEmpty();
  }
  // The Chinese element speaks Chinese; the fallback says why and how to run it live.
  await expect(page.locator('react-loop[lang=zh] .bar')).toContainText('播放');
  const live = page.locator('react-loop[endpoint]');
  await expect(live.locator('.note')).toContainText('no model answered at http://localhost:11434/v1');
  await expect(live.locator('.note .hint')).toContainText('OLLAMA_ORIGINS=');
  await screenshot(page, 'embed-example-fallback');
  // The run as an animated SVG, for places that run no script.
  const picture = page.locator('img.run-svg');
  await picture.scrollIntoViewIfNeeded();
  await expect.poll(() => picture.evaluate((img) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect(seen.filter((u) => u.endsWith('.wasm')), 'the wasm is fetched once').toHaveLength(1);
  // The playground links to the example page.
  await page.goto(process.env.PAGE_URL);
  await expect(page.locator('a[href="examples/"]')).toBeVisible();
});

test('replay: the reply types out, then the observation; Step goes one transition at a time', async ({ page }) => {
  const en = await recording(EN);
  await embedPage(page, `<react-loop trace-src="/recordings/${EN}" speed="20"></react-loop>`);
  const el = embed(page);
  await expect(frame(el)).toHaveAttribute('data-state', 'paused');
  await expect(el.locator('.placeholder')).toBeVisible();
  await expect(cards(el)).toHaveCount(0);
  const first = en.steps[0];
  await button(el, 'Step').click();
  await expect(cards(el)).toHaveCount(1);
  if (first.observation && first.reply) {
    // The model's part first: no observation yet.
    await expect(cards(el).first().locator('.row.observation')).toHaveCount(0);
    await button(el, 'Step').click();
    await expect(cards(el).first().locator('.row.observation')).toContainText(first.observation.text.slice(0, 20));
  }
  await button(el, 'Play').click();
  await expect(answer(el)).toHaveText(en.outcome.answer);
  await expect(cards(el)).toHaveCount(en.steps.length);
  await expect(frame(el)).toHaveAttribute('data-state', 'done');
  await expect(button(el, 'Step')).toBeDisabled();
  await button(el, 'Restart').click();
  await expect(cards(el)).toHaveCount(0);
  await expect(answer(el)).toHaveCount(0);
});

test('a recording that ends in a model error shows the error and its fix, and the parser\'s correction', async ({ page }) => {
  await embedPage(page, '<react-loop trace-src="/recordings/format-en.json" speed="20" autoplay></react-loop>');
  const el = embed(page);
  await expect(el.locator('.outcome')).toBeVisible();
  await expect(cards(el).first().locator('.notes')).toContainText("tool name 'calculator(expression)' read as 'calculator'");
  const doctor = cards(el).nth(1).locator('.doctor');
  // Issue 31: it says why the reply was empty (the model began with the stop sequence).
  await expect(doctor.locator('.doctor-message')).toHaveText('The model\'s reply came back empty. A server cuts a reply at its first stop sequence, so a reply that begins with one (such as "Observation:") arrives with nothing in it.');
  await expect(doctor.locator('.doctor-hint')).toContainText('stop sequence');
  await expect(doctor.locator('button')).toBeHidden();
});

test('live against the mock server: a streaming run with a custom JS tool set before the element upgraded', async ({ page }) => {
  const run = `embed-live-${process.pid}`;
  await embedPage(page, `<react-loop endpoint="${mockUrl('js-object', run)}" model="mock-model" question="Use the tool." autoplay>
    </react-loop>
    <script>
      // A classic script: it runs before the element's module, on the not yet upgraded element.
      document.querySelector('react-loop').tools = [{ name: 'js_tool', description: 'A test tool.',
        parameters: { type: 'object', properties: { x: { type: 'number' } } }, run: ({ x }) => 'forty-two from ' + x }];
    </script>`);
  const el = embed(page);
  await expect(frame(el)).toHaveAttribute('data-mode', 'live');
  await expect(el.locator('.mode')).toHaveText('Live');
  await expect(answer(el)).toHaveText('The tool returned: forty-two from 1');
  const sent = await mockRequests('js-object', run);
  expect(sent).toHaveLength(2);
  expect(sent[0].body.stream).toBe(true);
  expect(sent[0].body.messages[0].content).toContain('js_tool');
  // A second question from the reader.
  await el.locator('.ask input').fill('Again, please.');
  await el.locator('.ask button', { hasText: 'Run' }).click();
  await expect(el.locator('.trace-head .question')).toContainText('Again, please.');
  await expect(answer(el)).toHaveText('The tool returned: forty-two from 1');
});

test('live: the tools attribute picks built-ins, and search_docs searches the slotted documents', async ({ page }) => {
  const run = `embed-docs-${process.pid}`;
  await embedPage(page, `<react-loop endpoint="${mockUrl('docs', run)}" tools="search_docs" question="What is RAG?" autoplay>
      <script type="application/json" slot="documents">[{"title": "RAG", "text": "RAG stands for Really Awesome Gadget."}]</script>
    </react-loop>`);
  const el = embed(page);
  await expect(answer(el)).toBeVisible();
  await expect(cards(el).first().locator('.row.observation')).toContainText('RAG stands for Really Awesome Gadget.');
  await expect(el.locator('.note')).toContainText('Live: mock-model at');
  const [first] = await mockRequests('docs', run);
  expect(first.body.model).toBe('mock-model'); // the first model the server lists
  expect(first.body.messages[0].content).toContain('search_docs');
  expect(first.body.messages[0].content).not.toContain('calculator');
});

test('live: Stop aborts a streaming reply', async ({ page }) => {
  await embedPage(page, `<react-loop endpoint="${mockUrl('slow-stream', `embed-stop-${process.pid}`)}" question="What is 23 * 17 + 4?" autoplay></react-loop>`);
  const el = embed(page);
  await expect(frame(el)).toHaveAttribute('data-state', 'running');
  await expect(el.locator('pre.live')).toContainText('Thought');
  await el.locator('.ask button', { hasText: 'Stop' }).click();
  await expect(el.locator('.outcome')).toContainText(/stopped/i);
  await expect(frame(el)).toHaveAttribute('data-state', '');
  await expect(el.locator('.ask button', { hasText: 'Run' })).toBeEnabled();
});

test('live with a dead endpoint falls back to the recording and says how to run it live', async ({ page }) => {
  const en = await recording(EN);
  await embedPage(page, `<react-loop endpoint="http://127.0.0.1:9/v1" trace-src="/recordings/${EN}" speed="20" autoplay></react-loop>`);
  const el = embed(page);
  await expect(frame(el)).toHaveAttribute('data-mode', 'fallback');
  const origin = new URL(site.url).origin;
  await expect(el.locator('.note')).toContainText('Showing a recording: no model answered at http://127.0.0.1:9/v1.');
  // The core's hint, its commands set as code.
  await expect(el.locator('.note .hint code', { hasText: `OLLAMA_ORIGINS=${origin} ollama serve` })).toBeVisible();
  await expect(answer(el)).toHaveText(en.outcome.answer);
  await el.locator('.note summary').click();
  await expect(el.locator('.note .why')).toContainText('Could not reach http://127.0.0.1:9/v1');
  // "Try live again" probes again and stays on the recording.
  await el.locator('.note button', { hasText: 'Try live again' }).click();
  await expect(frame(el)).toHaveAttribute('data-mode', 'fallback');
  await expect(el.locator('.note .hint')).toBeVisible();
});

test("the fallback's hint is the core's, in the element's language", async ({ page }) => {
  await embedPage(page, `<react-loop endpoint="http://127.0.0.1:9/v1" trace-src="/recordings/${EN}" lang="zh" height="150"></react-loop>`);
  const el = embed(page);
  await expect(frame(el)).toHaveAttribute('data-mode', 'fallback');
  await expect(el.locator('.note .hint')).toContainText('请启动模型服务器');
  await expect(el.locator('.note .hint code', { hasText: 'OLLAMA_ORIGINS=' })).toBeVisible();
});

test('a live element loads the wasm and the live-run controller once, exactly the files scripts/embed-size.mjs lists', async ({ page }) => {
  const seen = requests(page);
  await embedPage(page, `<react-loop endpoint="${mockUrl('js-object', `embed-files-${process.pid}`)}" model="mock-model" question="What is 23 * 17 + 4?" autoplay></react-loop>`);
  await expect(answer(embed(page))).toBeVisible();
  expect(seen.filter((u) => /\.(js|wasm)$/.test(u)).sort()).toEqual(Object.values(EMBED_FILES).flat().map((f) => `/${f}`).sort());
});

test('a damaged recording that carries its views says which field, without loading the wasm', async ({ page }) => {
  const seen = requests(page);
  const en = await recording(EN);
  const damaged = structuredClone(en);
  damaged.steps[0].reply.text = 42;
  const noSentence = structuredClone(en);
  noSentence.view = { outcome: null }; // an answer with no sentence for it
  await embedPage(page, `
    <react-loop trace-src="damaged.json" height="150"></react-loop>
    <react-loop trace-src="no-sentence.json" height="150"></react-loop>`, {
    files: { 'damaged.json': JSON.stringify(damaged), 'no-sentence.json': JSON.stringify(noSentence) },
  });
  for (const [i, field] of ['steps[0].reply.text', 'view.outcome'].entries()) {
    const el = embed(page, i);
    await expect(frame(el)).toHaveAttribute('data-mode', 'error');
    await expect(el.locator('.doctor')).toContainText('This recording cannot be played');
    await expect(el.locator('.doctor')).toContainText(`Its field ${field} is missing or of the wrong type.`);
  }
  expect(seen.filter((u) => u.endsWith('.wasm') || u.includes('/pkg/'))).toEqual([]);
});

test('a recording with no views (an older file) plays through the core, which also says what is wrong with a bad one', async ({ page }) => {
  const seen = requests(page);
  const en = await recording(EN);
  const old = { ...en, view: undefined, steps: en.steps.map((step) => ({ ...step, view: undefined })) };
  await embedPage(page, `
    <react-loop trace-src="old.json" speed="50" autoplay></react-loop>
    <react-loop trace-src="not-object.json" height="150" lang="zh"></react-loop>`, {
    // A step that is not an object has no view: the core reads the file, and refuses it.
    files: { 'old.json': JSON.stringify(old), 'not-object.json': JSON.stringify({ ...en, steps: ['a step'] }) },
  });
  await expect(answer(embed(page))).toHaveText(en.outcome.answer);
  await expect(frame(embed(page, 1))).toHaveAttribute('data-mode', 'error');
  await expect(embed(page, 1).locator('.doctor')).toContainText('这份录制无法播放');
  await expect(embed(page, 1).locator('.doctor-message')).not.toBeEmpty();
  expect(seen.filter((u) => u.endsWith('/pkg/reactloop_bg.wasm'))).toHaveLength(1);
});

test('two elements on one page: separate languages, traces and controls; no wasm for a replay', async ({ page }) => {
  const seen = requests(page);
  const [en, zh] = [await recording(EN), await recording(ZH)];
  await embedPage(page, `
    <react-loop trace-src="/recordings/${EN}" height="220" speed="3"></react-loop>
    <react-loop trace-src="/recordings/${ZH}" lang="zh" height="220" speed="20"></react-loop>`);
  const [a, b] = [embed(page, 0), embed(page, 1)];
  await expect(button(a, 'Play')).toBeVisible();
  await expect(button(b, '播放')).toBeVisible();
  await button(a, 'Play').click();
  await b.locator('.placeholder button').click(); // the big Play button in the empty box
  await expect(cards(a)).not.toHaveCount(0);
  await button(a, 'Pause').click();
  await expect(frame(a)).toHaveAttribute('data-state', 'paused');
  const shown = await cards(a).count();
  // The other one plays on, in Chinese, to its own end (a guard stops the repeated search).
  await expect(b.locator('.outcome')).toContainText('已停止：模型不断以相同参数调用 search_docs');
  await expect(cards(b)).toHaveCount(zh.steps.length);
  await expect(cards(b).first()).toContainText('第 1 步');
  await expect(b.locator('.trace-head')).toContainText(zh.question);
  await page.waitForTimeout(500);
  await expect(frame(a)).toHaveAttribute('data-state', 'paused');
  expect(await cards(a).count()).toBe(shown);
  await expect(answer(a)).toHaveCount(0);
  await expect(cards(a).first()).toContainText('Step 1');
  await expect(a.locator('.trace-head')).toContainText(en.question);
  // Opening a card's X-ray in one element draws it in that element's language.
  await button(a, 'Step').click();
  await cards(b).first().locator('details.xray > summary').click();
  await expect(cards(b).first().locator('.xray-body')).toContainText('高亮');
  await cards(a).first().locator('details.xray > summary').click();
  await expect(cards(a).first().locator('.xray-body')).toContainText('Highlighted');
  await button(a, 'Play').click();
  await expect(answer(a)).toHaveText(en.outcome.answer);
  expect(seen.filter((u) => u.includes('/pkg/'))).toEqual([]);
  expect(seen.filter((u) => u.endsWith('/trace.js'))).toHaveLength(1);
});

test('a malformed, a newer-version and a missing recording each get a clear message inside the element', async ({ page }) => {
  const en = await recording(EN);
  await embedPage(page, `
    <react-loop trace-src="bad.json" height="150"></react-loop>
    <react-loop trace-src="newer.json" height="150"></react-loop>
    <react-loop trace-src="missing.json" height="150"></react-loop>
    <react-loop trace-src="not-a-trace.json" height="150"></react-loop>`, {
    files: {
      'bad.json': '{"version": 1, "question": ',
      'newer.json': JSON.stringify({ ...en, version: 99 }),
      'not-a-trace.json': '{"version": 1, "hello": "world"}',
    },
  });
  const messages = [
    /This file is not JSON/,
    /This trace has format version 99; this reactloop reads up to version 1/,
    /Could not load .*missing\.json: its host answered HTTP 404\..*trace-src.*relative to this page/,
    /This JSON is not a reactloop trace/,
  ];
  for (const [i, message] of messages.entries()) {
    const el = embed(page, i);
    await expect(frame(el)).toHaveAttribute('data-mode', 'error');
    await expect(el.locator('.doctor')).toContainText('This recording cannot be played');
    await expect(el.locator('.doctor')).toContainText(message);
    await expect(el.locator('.bar button:visible')).toHaveCount(0);
  }
});

test('a recording on another origin says why it cannot be fetched: no CORS header (and what the host must send), or no answer', async ({ page }) => {
  // A second origin that answers without CORS headers, as python3 -m http.server does.
  const bare = await startStatic({ root: join(WWW, 'recordings'), port: 0, cors: false });
  const dead = createServer();
  await new Promise((done) => dead.listen(0, '127.0.0.1', done));
  const deadUrl = `http://127.0.0.1:${dead.address().port}/gone.json`;
  await new Promise((done) => dead.close(done));
  try {
    await embedPage(page, `
      <react-loop trace-src="${bare.url}${EN}" height="150"></react-loop>
      <react-loop trace-src="${deadUrl}" height="150" lang="zh"></react-loop>`);
    const origin = new URL(site.url).origin;
    const refused = embed(page, 0).locator('.doctor');
    await expect(refused).toContainText('This recording cannot be played');
    await expect(refused).toContainText(`Could not load ${bare.url}${EN}: its host answered, but without the header Access-Control-Allow-Origin, so the browser keeps the file from this page (${origin}).`);
    await expect(refused.locator('.doctor-hint')).toContainText('must send `Access-Control-Allow-Origin: *`');
    await expect(refused.locator('.doctor-hint')).toContainText(`Access-Control-Allow-Origin: ${origin}`);
    const gone = embed(page, 1).locator('.doctor');
    await expect(gone).toContainText(`无法加载 ${deadUrl}：它的主机没有响应`);
    await expect(gone.locator('.doctor-hint')).toContainText('trace-src');
    await screenshot(page, 'embed-fetch-refused');
  } finally {
    await bare.close();
  }
});

test('a recording over 20 MB is refused while it downloads, with or without a declared length', async ({ page }) => {
  // A server that sends 1 MB pieces without a length until the reader stops (at most 80 MB).
  let sent = 0;
  let closed = null;
  const endless = createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.on('close', () => (closed = sent));
    const piece = Buffer.alloc(1 << 20, ' ');
    while (sent < 80 << 20 && !res.destroyed) {
      sent += piece.length;
      if (!res.write(piece)) await new Promise((done) => res.once('drain', done).once('close', done));
    }
    res.end();
  });
  await new Promise((done) => endless.listen(0, '127.0.0.1', done));
  try {
    const url = `http://127.0.0.1:${endless.address().port}/endless.json`;
    await embedPage(page, `
      <react-loop trace-src="declared.json" height="150"></react-loop>
      <react-loop trace-src="${url}" height="150"></react-loop>`, {
      files: { 'declared.json': ' '.repeat(20_000_001) },
    });
    for (const [i, name] of ['declared.json', 'endless.json'].entries()) {
      const el = embed(page, i);
      await expect(el.locator('.doctor')).toContainText('This recording cannot be played');
      await expect(el.locator('.doctor')).toContainText(new RegExp(`Could not load .*${name}: it is larger than 20 MB, the most a recording may be\\.`));
    }
    // The download stopped near the limit: nothing like the 80 MB on offer was taken (the
    // count includes what socket buffers held, several MB on a busy machine).
    await expect.poll(() => closed).not.toBeNull();
    expect(closed).toBeLessThan(50 << 20);
  } finally {
    endless.closeAllConnections();
    await new Promise((done) => endless.close(done));
  }
});

test('nothing loads before the element scrolls into view', async ({ page }) => {
  const seen = requests(page);
  await embedPage(page, `<p style="height: 4000px">Long text above the element.</p>
    <react-loop trace-src="/recordings/${EN}" speed="20" autoplay></react-loop>`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const code = (u) => /\.(js|wasm)$/.test(u);
  expect(seen.filter(code).sort(), 'only the element before scrolling').toEqual(EMBED_FILES['at import'].map((f) => `/${f}`).sort());
  expect(seen.filter((u) => u.includes('/recordings/'))).toEqual([]);
  await expect(frame(embed(page))).toHaveAttribute('data-mode', 'idle');
  await embed(page).scrollIntoViewIfNeeded();
  await expect(answer(embed(page))).toBeVisible();
  expect(seen.filter((u) => u.includes('/recordings/'))).toHaveLength(1);
  // Exactly the files scripts/embed-size.mjs measures for a replay, each once: no wasm, nothing of pkg/.
  expect(seen.filter(code).sort()).toEqual([...EMBED_FILES['at import'], ...EMBED_FILES['in view']].map((f) => `/${f}`).sort());
  expect(seen.filter((u) => u.endsWith('.wasm') || u.includes('/pkg/'))).toEqual([]);
});

test('a recording with markup in it shows the markup as text', async ({ page }) => {
  const payload = '<img src=x onerror=window.__xss=1>';
  const trace = await recording(EN);
  const [first] = trace.steps;
  first.reply.text = `Thought: ${payload}\n${first.reply.text}`;
  first.parse.thought = payload;
  if (first.observation) first.observation.text = payload;
  const last = trace.steps.at(-1);
  if (last.parse?.kind === 'final') last.parse.answer = payload;
  trace.outcome = { type: 'answer', answer: payload };
  trace.question = payload;
  await embedPage(page, `<react-loop trace-src="xss.json" speed="50" autoplay></react-loop>`, {
    files: { 'xss.json': JSON.stringify(trace) },
  });
  const el = embed(page);
  await expect(answer(el)).toHaveText(payload);
  await expect(cards(el).first().locator('.row.thought')).toContainText(payload);
  await expect(el.locator('.trace-head .question')).toContainText(payload);
  if (first.observation) await expect(cards(el).first().locator('.row.observation')).toContainText(payload);
  await cards(el).first().locator('details.xray > summary').click();
  await expect(cards(el).first().locator('.xray-text')).toContainText(payload);
  expect(await el.locator('img').count()).toBe(0);
  expect(await page.evaluate(() => window.__xss)).toBeUndefined();
});

test('no global side effects: no window globals, no document listeners, no styles outside', async ({ page }) => {
  // Which script added each listener on window and document.
  const cdp = await page.context().newCDPSession(page);
  const scripts = new Map();
  cdp.on('Debugger.scriptParsed', (s) => scripts.set(s.scriptId, s.url));
  await cdp.send('Debugger.enable');
  await embedPage(page, '<p id="outside">Outside text</p>');
  const ours = async () => {
    const found = [];
    for (const target of ['window', 'document']) {
      const { result } = await cdp.send('Runtime.evaluate', { expression: target });
      const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
      for (const l of listeners) if (scripts.get(l.scriptId)?.startsWith(site.url)) found.push(`${target} ${l.type} ${scripts.get(l.scriptId)}`);
    }
    return found;
  };
  const keys = () => page.evaluate(() => Object.keys(window).sort());
  const color = () => page.locator('#outside').evaluate((e) => getComputedStyle(e).color);
  const before = { keys: await keys(), color: await color() };
  await page.evaluate((src) => {
    const el = document.createElement('react-loop');
    el.setAttribute('trace-src', src);
    el.setAttribute('speed', '50');
    el.setAttribute('autoplay', '');
    document.body.append(el);
  }, `/recordings/${EN}`);
  await expect(answer(embed(page))).toBeVisible();
  await cards(embed(page)).first().locator('details.xray > summary').click();
  expect(await keys()).toEqual(before.keys);
  expect(await ours()).toEqual([]);
  expect(await color()).toBe(before.color);
  expect(await page.evaluate(() => document.styleSheets.length + document.adoptedStyleSheets.length)).toBe(0);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
});

test('themes: dark, light and the --rl-* custom properties', async ({ page }) => {
  await embedPage(page, `
    <react-loop trace-src="/recordings/${EN}" theme="dark" height="120"></react-loop>
    <react-loop trace-src="/recordings/${EN}" theme="light" height="120" style="--rl-accent: rgb(200, 0, 0); --rl-radius: 0px"></react-loop>`);
  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = (el) => frame(el).evaluate((e) => getComputedStyle(e).backgroundColor);
  await expect(button(embed(page, 1), 'Play')).toBeVisible();
  expect(await bg(embed(page, 0))).toBe('rgb(22, 23, 27)');
  expect(await bg(embed(page, 1))).toBe('rgb(255, 255, 255)');
  expect(await button(embed(page, 1), 'Play').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(200, 0, 0)');
  expect(await frame(embed(page, 1)).evaluate((e) => getComputedStyle(e).borderTopLeftRadius)).toBe('0px');
});

test('a recorded comparison plays its columns side by side; its labels stay text; a broken one says why', async ({ page }) => {
  const en = await recording(EN);
  const format = await recording('format-en.json'); // a run with format feedback
  const label = 'Act only <img src=x onerror=window.__xss=1>';
  const comparison = { kind: 'reactloop-comparison', version: 1, columns: [{ label: 'ReAct', runs: [en] }, { label, runs: [format] }] };
  const uneven = { ...comparison, columns: [...comparison.columns, { label: 'C', runs: [] }] };
  await embedPage(page, `
    <react-loop trace-src="comparison.json" speed="20"></react-loop>
    <react-loop trace-src="uneven.json" height="150"></react-loop>`, {
    files: { 'comparison.json': JSON.stringify(comparison), 'uneven.json': JSON.stringify(uneven) },
  });
  const el = embed(page);
  const columns = el.getByTestId('comparison-column');
  await expect(columns).toHaveCount(2);
  await expect(columns.nth(1).locator('h3')).toHaveText(label);
  await button(el, 'Play').click();
  await expect(answer(columns.nth(0))).toHaveText(en.outcome.answer);
  await expect(columns.nth(1).locator('.outcome')).toBeVisible();
  await expect(frame(el)).toHaveAttribute('data-state', 'done');
  expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  await expect(el.locator('img')).toHaveCount(0);
  const broken = embed(page, 1);
  await expect(frame(broken)).toHaveAttribute('data-mode', 'error');
  await expect(broken.locator('.doctor')).toContainText('Column 3 of this comparison has no runs');
});
