// The files the npm package needs: every file its entry points reach through imports, dynamic
// imports, workers and `new URL(…, import.meta.url)`, found by following the relative paths
// written in each module (a string that names an existing file next to it). Following the
// code, not a hand-kept list, means a module added to the element cannot be left out.
// Usage: node scripts/package-files.mjs ENTRY… (paths under www/) → one path a line.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WWW = fileURLToPath(new URL('../www/', import.meta.url));
// A relative path in quotes that ends in a file type the page loads, and any name resolved
// against the module itself (wasm-bindgen's glue writes `new URL('reactloop_bg.wasm', …)`).
const PATHS = [
  /['"`](\.{1,2}\/[\w@.\/-]+\.(?:js|mjs|wasm|json))['"`]/g,
  /new URL\(['"`]([\w@.\/-]+)['"`],\s*import\.meta\.url\)/g,
];

/** Every file under `root` reached from `entries`, relative to `root`, sorted. */
export function reach(entries, root = WWW) {
  const seen = new Set();
  const todo = entries.map((e) => normalize(join(root, e)));
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.m?js$/.test(file)) continue;
    const code = readFileSync(file, 'utf8');
    for (const [, path] of PATHS.flatMap((re) => [...code.matchAll(re)])) {
      const target = normalize(join(dirname(file), path));
      if (target.startsWith(root) && existsSync(target) && statSync(target).isFile()) todo.push(target);
    }
  }
  return [...seen].map((f) => relative(root, f)).sort();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of reach(process.argv.slice(2))) console.log(file);
}
