#!/usr/bin/env node
// Transfer sizes, gzip -9 (as scripts/build and bench/lib/size.mjs count), after scripts/build:
//   node scripts/size.mjs
// - the wasm module;
// - the playground at start-up: index.html, what it links and the module graph of its script
//   (static imports followed from file to file; a dynamic import() loads later), the wasm included;
// - <react-loop> running live, and a docs page with one element replaying a recording: the
//   files scripts/embed-size.mjs lists (the tests check that the element requests exactly
//   those), the replay with www/recordings/calculator-en.json.
import { readFile } from 'node:fs/promises';
import { EMBED_FILES } from './embed-size.mjs';
import { gzipBytes } from '../bench/lib/size.mjs';

const WWW = new URL('../www/', import.meta.url);
const WASM = 'pkg/reactloop_bg.wasm';

const gzip = async (file) => gzipBytes(await readFile(new URL(file, WWW)));

/** index.html, its stylesheet and script, and every module they import, by path under www/. */
async function playgroundFiles() {
  const html = await readFile(new URL('index.html', WWW), 'utf8');
  const linked = [...html.matchAll(/<(?:link[^>]+href|script[^>]+src)="([^"]+)"/g)].map((m) => m[1]);
  const files = new Set(['index.html', WASM]);
  const queue = [...linked];
  while (queue.length) {
    const file = new URL(queue.shift(), WWW).pathname.slice(WWW.pathname.length);
    if (files.has(file)) continue;
    files.add(file);
    if (!file.endsWith('.js')) continue;
    const code = await readFile(new URL(file, WWW), 'utf8');
    const base = new URL(file, WWW);
    for (const [, spec] of code.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)) {
      queue.push(new URL(spec, base).href);
    }
  }
  return [...files];
}

async function total(files) {
  let sum = 0;
  for (const file of files) sum += await gzip(file);
  return sum;
}

const sizes = {
  wasm: await gzip(WASM),
  playground: await total(await playgroundFiles()),
  embed: await total(Object.values(EMBED_FILES).flat()),
  replay: await total([...EMBED_FILES['at import'], ...EMBED_FILES['in view'], 'recordings/calculator-en.json']),
};
const names = {
  wasm: WASM,
  playground: 'the playground at start-up',
  embed: '<react-loop> running live',
  replay: 'a page replaying one run',
};
for (const [key, bytes] of Object.entries(sizes)) {
  const kb = (bytes / 1000).toFixed(1);
  console.log(`${names[key].padEnd(28)} ${kb.padStart(6)} KB gzip -9`);
}
