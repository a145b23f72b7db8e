// Serves www/ three times for the in-page engine's tests: as scripts/serve does (cross-origin
// isolated, so llama.cpp may use threads), without the isolation headers (one thread, as on a
// static host that sends no headers), and so under a subpath. The model files come from scripts/local-llm's cache, mounted at
// /models/ (never copied into www/), and every request for them is counted, so a test can
// tell that a run after a reload did not read the model again. scripts/test-inpage installs
// the models first (scripts/local-llm install).
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStatic } from '../../scripts/static-server.mjs';

const script = fileURLToPath(new URL('../../scripts/local-llm', import.meta.url));

function modelPath(name) {
  const r = spawnSync(script, ['path', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`scripts/local-llm path ${name} failed; run scripts/local-llm install`);
  return r.stdout.trim();
}

export default async function globalSetup() {
  const smollm = modelPath('smollm');
  // A file named .gguf that is not one: an HTML page, as a wrong link would give.
  const fixtures = await mkdtemp(join(tmpdir(), 'reactloop-inpage-'));
  await writeFile(join(fixtures, 'not-a-model.gguf'), '<!doctype html><title>Sign in</title><p>Please sign in.</p>\n');
  // A docs page with <react-loop model-src>: the recording plays, the model waits for a click.
  await writeFile(join(fixtures, 'docs.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<script type="module" src="/embed/react-loop.js"></script></head><body>
<react-loop model-src="/models/${basename(smollm)}" trace-src="/recordings/calculator-en.json" question="What time is it?" height="400"></react-loop>
</body></html>
`);
  const counts = {};
  const onRequest = (pathname) => {
    if (pathname.endsWith('.gguf')) counts[pathname] = (counts[pathname] ?? 0) + 1;
  };
  const root = fileURLToPath(new URL('../../www/', import.meta.url));
  const mounts = { '/models/': dirname(smollm), '/fixtures/': fixtures };
  const isolated = await startStatic({ root, port: 0, isolate: true, mounts, onRequest });
  const plain = await startStatic({ root, port: 0, isolate: false, mounts, onRequest });
  // A course's static host: the site under a subpath, no isolation headers (the page's service
  // worker adds them once the engine is opened).
  const course = await startStatic({ root: fixtures, port: 0, isolate: false, mounts: { ...mounts, '/course/reactloop/': root }, onRequest });
  // The counts, for the tests (which run in other processes).
  const counter = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(counts));
  });
  await new Promise((ok) => counter.listen(0, '127.0.0.1', ok));
  process.env.PAGE_URL = isolated.url;
  process.env.PLAIN_PAGE_URL = plain.url;
  process.env.COURSE_PAGE_URL = `${course.url}course/reactloop/`;
  process.env.COUNTS_URL = `http://127.0.0.1:${counter.address().port}/`;
  process.env.SMOLLM_PATH = `/models/${basename(smollm)}`;
  process.env.SMOLLM_FILE = smollm;
  return async () => {
    await isolated.close();
    await plain.close();
    await course.close();
    await new Promise((done) => counter.close(done));
  };
}
