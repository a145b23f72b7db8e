// The static server (scripts/static-server.mjs): nothing outside its root is served, not even a
// sibling folder whose name starts with the root's, and its headers carry the pages' policy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStatic, CONTENT_SECURITY_POLICY, fileFor } from '../../scripts/static-server.mjs';

let dir;
let site;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reactloop-static-'));
  await mkdir(join(dir, 'www', 'sub'), { recursive: true });
  await mkdir(join(dir, 'www-secret'));
  await writeFile(join(dir, 'www', 'index.html'), '<!doctype html><p>home</p>');
  await writeFile(join(dir, 'www', 'sub', 'app.js'), 'export {};');
  await writeFile(join(dir, 'www-secret', 'x'), 'secret');
  await writeFile(join(dir, 'outside.txt'), 'secret');
  site = await startStatic({ root: join(dir, 'www'), port: 0 });
});
after(async () => {
  await site.close();
  await rm(dir, { recursive: true, force: true });
});

// The path as written: encoded dots and slashes are not segments to fetch(), so they reach
// the server as they are.
const get = (path) => fetch(`${site.url.replace(/\/$/, '')}${path}`);

test('a sibling folder that starts with the root name is not served', async () => {
  for (const path of ['/..%2fwww-secret/x', '/..%2Fwww-secret%2Fx', '/%2e%2e%2fwww-secret/x', '/sub/..%2f..%2fwww-secret/x', '/..%2foutside.txt', '/..%5c..%5coutside.txt']) {
    const res = await get(path);
    const body = await res.text();
    assert.ok([403, 404].includes(res.status), `${path}: HTTP ${res.status}`);
    assert.notEqual(body, 'secret', path);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
  }
});

test('fileFor compares against the root and a separator, not a bare prefix', () => {
  const base = join(dir, 'www');
  assert.equal(fileFor(base, '/../www-secret/x'), null);
  assert.equal(fileFor(base, '/../outside.txt'), null);
  assert.equal(fileFor(base, '/'), `${base}/`);
  assert.equal(fileFor(base, '/sub/app.js'), join(base, 'sub', 'app.js'));
  assert.equal(fileFor(base, '/sub/../index.html'), join(base, 'index.html'));
});

test('files inside are served with nosniff; HTML also with the Content-Security-Policy', async () => {
  const page = await get('/');
  assert.equal(page.status, 200);
  assert.equal(await page.text(), '<!doctype html><p>home</p>');
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(page.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
  const script = await get('/sub/app.js');
  assert.equal(script.status, 200);
  assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(script.headers.get('x-content-type-options'), 'nosniff');
  // A worker takes the policy of its own response: the tool worker compiles tool code.
  assert.equal(script.headers.get('content-security-policy'), null);
  assert.equal((await get('/missing.js')).status, 404);
  assert.equal((await get('/%E0%A4%A')).status, 400);
});

test('every file carries CORS headers, so a docs page on another origin can use this copy; cors: false leaves them out', async () => {
  for (const path of ['/', '/sub/app.js']) {
    const res = await get(path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin', path);
  }
  const bare = await startStatic({ root: join(dir, 'www'), port: 0, cors: false });
  try {
    const res = await fetch(`${bare.url}sub/app.js`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  } finally {
    await bare.close();
  }
});

test('the policy allows wasm and any model server, and no inline script', () => {
  const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
  assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives['worker-src'], ["'self'"]);
  assert.deepEqual(directives['connect-src'], ['*']);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.ok(!CONTENT_SECURITY_POLICY.includes("'unsafe-inline'"));
});

test('isolation headers on request, mounted model folders, lengths, HEAD and the request hook', async () => {
  const models = join(dir, 'models');
  await mkdir(models, { recursive: true });
  await writeFile(join(models, 'm.gguf'), 'GGUF....');
  const seen = [];
  const isolated = await startStatic({ root: join(dir, 'www'), port: 0, isolate: true, mounts: { '/models/': models }, onRequest: (p) => seen.push(p) });
  try {
    const base = isolated.url.replace(/\/$/, '');
    const page = await fetch(`${base}/`);
    assert.equal(page.headers.get('cross-origin-opener-policy'), 'same-origin');
    assert.equal(page.headers.get('cross-origin-embedder-policy'), 'require-corp');
    const model = await fetch(`${base}/models/m.gguf`);
    assert.equal(model.status, 200);
    assert.equal(model.headers.get('content-length'), '8');
    assert.equal(await model.text(), 'GGUF....');
    const head = await fetch(`${base}/models/m.gguf`, { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), '8');
    assert.equal(await head.text(), '');
    // The mount is a root of its own: nothing beside it, and not the page's root through it.
    for (const path of ['/models/..%2fwww/index.html', '/models/..%2foutside.txt']) {
      const res = await fetch(`${base}${path}`);
      assert.ok([403, 404].includes(res.status), `${path}: HTTP ${res.status}`);
    }
    assert.ok(seen.includes('/models/m.gguf'));
  } finally {
    await isolated.close();
  }
  // Off by default (the tests' own server): no isolation headers.
  assert.equal((await get('/')).headers.get('cross-origin-opener-policy'), null);
});
