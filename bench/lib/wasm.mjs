// Loads the wasm module built by scripts/build (www/pkg) into Node.
import { readFile, access } from 'node:fs/promises';
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
  const mod = await import(new URL('reactloop.js', PKG).href);
  await mod.default({ module_or_path: await readFile(new URL('reactloop_bg.wasm', PKG)) });
  loaded = mod;
  return mod;
}
