// Size: gzip -9 bytes of every file under www/ as the static server serves it.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { ROOT } from './wasm.mjs';
import { table, fmt } from './table.mjs';

// Files in www/ that a browser never loads (type declarations from wasm-bindgen).
const NOT_LOADED = [/\.d\.ts$/, /(^|\/)package\.json$/, /(^|\/)\.gitignore$/, /README/i];

// GNU gzip -9 (as scripts/build reports it; -n leaves the name and time out of the header).
// Node's zlib at level 9 gives about 1% more on the wasm, so it is only the fallback.
let method = 'gzip -9 -n';
export function gzipBytes(body) {
  if (method === 'gzip -9 -n') {
    try {
      return execFileSync('gzip', ['-9', '-n', '-c'], { input: body, maxBuffer: 1 << 28 }).length;
    } catch {
      method = 'node zlib level 9';
    }
  }
  return gzipSync(body, { level: 9 }).length;
}

async function walk(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export async function measureSize() {
  const www = join(ROOT, 'www');
  const files = [];
  for (const path of (await walk(www)).sort()) {
    const name = relative(www, path);
    const body = await readFile(path);
    files.push({
      file: `www/${name}`,
      bytes: body.length,
      gzip: gzipBytes(body),
      loaded: !NOT_LOADED.some((re) => re.test(name)),
    });
  }
  const wasm = files.find((f) => f.file.endsWith('.wasm'));
  if (!wasm) throw new Error('no .wasm under www/: run scripts/build first');
  const loaded = files.filter((f) => f.loaded);
  const total = {
    bytes: loaded.reduce((s, f) => s + f.bytes, 0),
    gzip: loaded.reduce((s, f) => s + f.gzip, 0),
  };
  return { method, files, wasm: { file: wasm.file, bytes: wasm.bytes, gzip: wasm.gzip }, total };
}

export function renderSize(r) {
  const rows = r.files.map((f) => [
    f.loaded ? f.file : `${f.file} (not loaded by the page)`,
    fmt.int(f.bytes),
    fmt.int(f.gzip),
  ]);
  rows.push(['**page total** (loaded files)', `**${fmt.int(r.total.bytes)}**`, `**${fmt.int(r.total.gzip)}**`]);
  const pageNote = r.files.some((f) => /\.html$/.test(f.file))
    ? ''
    : '\nNote: www/ holds no HTML yet (the page is not merged); the total is the wasm and its JS glue only.';
  return (
    `### Size (each file as served, compressed with ${r.method})\n\n` +
    table(['file', 'bytes', 'gzip -9 bytes'], rows, 'lrr') +
    `\n\nThe .wasm alone: ${fmt.int(r.wasm.bytes)} bytes, ${fmt.int(r.wasm.gzip)} gzipped (${fmt.kb(r.wasm.gzip)}).` +
    pageNote
  );
}
