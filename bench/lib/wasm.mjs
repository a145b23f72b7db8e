// Loads the wasm module built by scripts/build (www/pkg) into Node.
import { readFile, access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = new URL('../../www/pkg/', import.meta.url);

let loaded;

/** The wasm module's exports ({Agent, estimateTokens, ...}), initialised once. */
export async function loadWasm() {
  if (loaded) return loaded;
  try {
    await access(new URL('reactloop_bg.wasm', PKG));
  } catch {
    throw new Error('www/pkg/reactloop_bg.wasm is missing: run scripts/build first');
  }
  // Results are tagged with a commit: a build older than the sources measures another one.
  const built = (await stat(new URL('reactloop_bg.wasm', PKG))).mtimeMs;
  // The core's sources and the browser driver's.
  const sources = await Promise.all(['../../src/', '../../wasm/src/']
    .map((dir) => newestSource(fileURLToPath(new URL(dir, import.meta.url)))));
  const newer = sources.filter(Boolean).sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  if (newer && newer.mtimeMs > built) {
    throw new Error(`www/pkg is older than ${newer.path}: run scripts/build first`);
  }
  const mod = await import(new URL('reactloop.js', PKG).href);
  await mod.default({ module_or_path: await readFile(new URL('reactloop_bg.wasm', PKG)) });
  loaded = mod;
  return mod;
}

/** The most recently changed file under `dir`, with its path and mtime. */
async function newestSource(dir) {
  let newest = null;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const { mtimeMs } = await stat(path);
    if (!newest || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  }
  return newest;
}
