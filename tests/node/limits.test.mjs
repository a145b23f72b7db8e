// The page's size limits are the core's: a page reads them from limits() in the wasm, or, to
// check a recording before the wasm loads, from www/limits.js, which scripts/build writes from
// limits(). No source file of the page may hold a copy of one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url);

/** www's own JavaScript and HTML: not the build's output (pkg/, limits.js) or vendored code. */
async function pageSources() {
  const entries = await readdir(new URL('www/', root), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(js|html)$/.test(e.name))
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .filter((path) => !/\/www\/(pkg|vendor)\/|\/www\/limits\.js$/.test(path));
}

test("no page source copies one of the core's byte limits", async () => {
  const core = await readFile(new URL('src/limits.rs', root), 'utf8');
  const limits = [...core.matchAll(/pub const MAX_\w+_BYTES: usize = ([\d_]+);/g)].map((m) => m[1].replaceAll('_', ''));
  assert.deepEqual(limits.length, 3, 'the reply, stream line and trace limits are found');
  const sources = await pageSources();
  assert.ok(sources.some((path) => path.endsWith('/www/recording.js')), 'the page sources are found');
  for (const path of sources) {
    const digits = (await readFile(path, 'utf8')).replace(/(\d)_(?=\d)/g, '$1');
    for (const limit of limits) assert.ok(!new RegExp(`\\b${limit}\\b`).test(digits), `${path} holds ${limit}, a limit of src/limits.rs`);
  }
});
