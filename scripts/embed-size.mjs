#!/usr/bin/env node
// What a docs page downloads for <react-loop>: the files of its module graph, raw, gzip -9
// and brotli, then the recordings. Run after scripts/build:  node scripts/embed-size.mjs
// The embed tests check that the element requests exactly these code files: a replaying
// element 'at import' and 'in view', a live one all three.
import { readFile, readdir } from 'node:fs/promises';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { pathToFileURL } from 'node:url';

const WWW = new URL('../www/', import.meta.url);

/**
 * At import: the element and its styles. When it comes into view: the renderer and the
 * recording reader (all a replay needs). For a live run (or a recording with no views): the
 * wasm and the live-run controller.
 */
export const EMBED_FILES = {
  'at import': ['embed/react-loop.js', 'embed/style.js'],
  'in view': ['embed/strings.js', 'trace.js', 'trace-style.js', 'dom.js', 'i18n.js', 'titles.js', 'comparison.js', 'recording.js', 'limits.js'],
  live: ['live.js', 'pkg/reactloop.js', 'pkg/reactloop_bg.wasm'],
};

async function sizes(path) {
  const data = await readFile(new URL(path, WWW));
  return {
    raw: data.length,
    gzip: gzipSync(data, { level: 9 }).length,
    brotli: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  const rows = [];
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const [when, files] of Object.entries(EMBED_FILES)) {
    for (const file of files) {
      const s = await sizes(file);
      for (const k of Object.keys(total)) total[k] += s[k];
      rows.push([file, when, kb(s.raw), kb(s.gzip), kb(s.brotli)]);
    }
  }
  rows.push(['total (code)', '', kb(total.raw), kb(total.gzip), kb(total.brotli)]);
  for (const name of (await readdir(new URL('recordings/', WWW))).filter((n) => n.endsWith('.json')).sort()) {
    const s = await sizes(`recordings/${name}`);
    rows.push([`recordings/${name}`, 'trace-src', kb(s.raw), kb(s.gzip), kb(s.brotli)]);
  }
  const head = ['file', 'loaded', 'raw', 'gzip -9', 'brotli'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log([line(head), `|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
