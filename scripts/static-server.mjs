// A static file server for www/ on 127.0.0.1 with the right content types (wasm needs
// application/wasm for streaming compilation). Used by scripts/serve and the browser tests.
// Every file is sent with CORS headers, so a docs page on another origin can use this copy:
// `<react-loop>`'s script and its modules are CORS requests, and so are its recordings.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.gguf': 'application/octet-stream',
};

// Cross-origin isolation, which the in-page engine needs for threads (SharedArrayBuffer):
// the page may then load only same-origin resources or ones that opt in (CORS or CORP); its
// fetches to model servers are CORS requests and are not affected.
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

// The pages' policy, also in their <meta http-equiv> for static hosts that send no headers
// (README.md, "Content-Security-Policy"): scripts and workers only from this origin, wasm
// compiled from this origin ('wasm-unsafe-eval'), requests to any model server the person
// picks (connect-src *), no plugins, no <base> or form posts elsewhere. It goes on HTML
// documents only: a worker gets the policy of its own response, and the tool worker must
// compile the person's tool code.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  'connect-src *',
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

// What a host must send for a page on another origin to import the element and fetch its
// recordings and the wasm (GitHub Pages and npm CDNs send the first line on every file).
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  // A docs page that is itself cross-origin isolated (COEP require-corp) may then load them too.
  'cross-origin-resource-policy': 'cross-origin',
};

/** The file under `base` that a request path names, or null when it is outside `base`. */
export function fileFor(base, pathname) {
  const file = normalize(join(base, pathname));
  // `base + sep`, not `base`: /srv/www must not admit /srv/www-secret.
  return file === base || file.startsWith(base.endsWith(sep) ? base : base + sep) ? file : null;
}

/**
 * `csp: false` serves pages that stand for someone else's (the embed tests' docs pages);
 * `cors: false` plays a host that sends no CORS headers (python3 -m http.server);
 * `headers(file)` adds response headers for a file, and wins over the policy. `isolate` sends
 * the cross-origin isolation headers; `mounts` serves other folders under a path prefix
 * (`{'/models/': dir}`: the model files for the in-page engine, which never live in www/);
 * `onRequest(pathname)` sees every request (the tests count model downloads).
 */
export function startStatic({ root, port = 0, host = '127.0.0.1', csp = true, cors = true, isolate = false, mounts = {}, onRequest = () => {}, headers = () => ({}) }) {
  const base = resolve(root);
  const mounted = Object.entries(mounts).map(([prefix, dir]) => [prefix, resolve(dir)]);
  const server = createServer(async (req, res) => {
    const fail = (status, text) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
      res.end(text);
    };
    let file;
    try {
      const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      onRequest(pathname);
      const mount = mounted.find(([prefix]) => pathname.startsWith(prefix));
      file = mount ? fileFor(mount[1], pathname.slice(mount[0].length)) : fileFor(base, pathname);
    } catch {
      return fail(400, 'bad request');
    }
    if (!file) return fail(403, 'forbidden');
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      // Streamed, with its length: a model file is hundreds of MB, and the page shows progress.
      const { size } = await stat(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, {
        'content-type': type,
        'content-length': size,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        ...(csp && type.startsWith('text/html') ? { 'content-security-policy': CONTENT_SECURITY_POLICY } : {}),
        ...(isolate ? ISOLATION_HEADERS : {}),
        ...(cors ? CORS_HEADERS : {}),
        ...headers(file),
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
    } catch {
      fail(404, 'not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const url = `http://${host}:${server.address().port}/`;
      // close() waits for every open connection, and a browser may keep one busy (a request
      // it has not finished reading) long after a test is done with the page: end them all.
      ok({ url, close: () => new Promise((done) => { server.close(done); server.closeAllConnections(); }) });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Usage: node scripts/static-server.mjs [--port 8000] [--root DIR] [--models DIR] [--no-isolate] [--no-cors]
  const args = process.argv.slice(2);
  const value = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const port = Number(value('--port') || 8000);
  const root = value('--root') ?? fileURLToPath(new URL('../www/', import.meta.url));
  const models = value('--models');
  const { url } = await startStatic({
    root, port, isolate: !args.includes('--no-isolate'), cors: !args.includes('--no-cors'), mounts: models ? { '/models/': models } : {},
  });
  console.log(`reactloop playground: ${url}`);
  if (models) console.log(`model files from ${models} at ${url}models/`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
}
