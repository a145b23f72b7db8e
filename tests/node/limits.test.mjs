// The embed checks a recording's size while it downloads, before the wasm (and its limits())
// has loaded, so it keeps its own copy of the core's trace limit: the two must agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const read = (path) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');
const number = (text) => Number(text.replaceAll('_', ''));

test("the embed's recording limit is the core's trace limit", async () => {
  const core = /pub const MAX_TRACE_BYTES: usize = ([\d_]+);/.exec(await read('src/limits.rs'));
  const embed = /export const MAX_RECORDING_BYTES = ([\d_]+);/.exec(await read('www/embed/react-loop.js'));
  assert.ok(core && embed, 'both constants are found');
  assert.equal(number(embed[1]), number(core[1]));
  assert.equal(number(core[1]), 20_000_000);
});
