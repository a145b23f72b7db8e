#!/usr/bin/env node
// The three transfer sizes issue 11 sets limits for, gzip -9 (as scripts/build and
// bench/lib/size.mjs count), after scripts/build:
//   node scripts/size.mjs
// - the wasm module;
// - the playground as served: index.html, what it links and the module graph of its script
//   (static imports followed from file to file), the wasm included;
// - <react-loop> once in view: the files scripts/embed-size.mjs lists (the tests check that the
//   element requests exactly those).
import { readFile } from 'node:fs/promises';
import { EMBED_FILES } from './embed-size.mjs';
import { gzipBytes } from '../bench/lib/size.mjs';

const WWW = new URL('../www/', import.meta.url);
const WASM = 'pkg/reactloop_bg.wasm';
const LIMITS = { wasm: 150, playground: 200, embed: 170 };

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
  embed: await total([...EMBED_FILES['at import'], ...EMBED_FILES['in view']]),
};
const names = {
  wasm: WASM,
  playground: 'the playground as served',
  embed: '<react-loop> once in view',
};
for (const [key, bytes] of Object.entries(sizes)) {
  const kb = (bytes / 1000).toFixed(1);
  console.log(`${names[key].padEnd(26)} ${kb.padStart(6)} KB gzip -9 (limit ${LIMITS[key]} KB)`);
}
