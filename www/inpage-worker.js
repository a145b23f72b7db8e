// The in-page engine's Worker: llama.cpp compiled to wasm (@wllama/wllama, vendored into
// www/vendor/wllama/ by scripts/vendor-wllama), the model cache in the origin private file
// system (OPFS), and the download or copy that fills it. The page talks to it through
// www/inpage.js; nothing here touches the DOM, so the page stays responsive while the model
// loads and generates.
//
// Messages in:  {type: 'features'} · {type: 'list'} · {type: 'forget', key}
//               {type: 'load', id, source: {file} | {url} | {key}, threads, nCtx, gpu} · {type: 'cancel', id}
//               {type: 'complete', id, body} · {type: 'abort', id}
// Messages out: {type: 'reply', id, value} · {type: 'progress', id, phase, loaded, total}
//               {type: 'delta', id, text} · {type: 'error', id, code, params, detail}
//
// wllama runs llama.cpp's own server context in a second Worker (a blob: module worker, and
// more for threads); this one creates it, so the page's CSP keeps `worker-src 'self'`.
import { Wllama } from './vendor/wllama/index.js';

const DIR = 'reactloop-models';
const WASM = new URL('./vendor/wllama/wllama.wasm', import.meta.url).href;
// wllama's build for browsers without JSPI or Memory64 (Safari), from this origin.
const COMPAT = {
  worker: new URL('./vendor/wllama/compat/wllama.js', import.meta.url).href,
  wasm: new URL('./vendor/wllama/compat/wllama.wasm', import.meta.url).href,
};
const PROGRESS_EVERY_MS = 100;
const GGUF_MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"

/** @type {Wllama | null} */
let engine = null; // the Wllama instance with a model loaded
let current = null; // {key, name, size} of that model
let loading = null; // {id, controller}
const generations = new Map(); // id -> AbortController
/** @type {Promise<unknown>} */
let queue = Promise.resolve(); // one generation at a time, also after an abort
// JSPI as this browser has it: wllama takes its compat build where JSPI is missing, so a start
// that wants that build hides it from wllama, and a start that does not shows it again.
const SUSPENDING = /** @type {any} */ (WebAssembly).Suspending;

// A failure is a code and the values its sentence needs; the page words it (the panel's
// strings, or the core's for a model call), so nothing here is English for the reader.
class Failure extends Error {
  constructor(code, params = {}, detail = null) {
    super(code);
    this.code = code;
    this.params = params;
    this.detail = detail;
  }
}

// ---------------------------------------------------------------- what this browser can do

function features() {
  let memory64 = false;
  try {
    // Memory64's descriptor and JSPI's Suspending are newer than TypeScript's lib.
    new WebAssembly.Memory(/** @type {any} */ ({ address: 'i64', initial: 1n }));
    memory64 = true;
  } catch {
    memory64 = false;
  }
  return {
    jspi: typeof SUSPENDING === 'function',
    memory64,
    threads: Boolean(self.crossOriginIsolated),
    cores: navigator.hardwareConcurrency || 1,
    opfs: Boolean(navigator.storage?.getDirectory),
  };
}

/**
 * The GPU llama.cpp's WebGPU backend may use: `{name}` when the browser offers an adapter with
 * what the backend needs (a hardware adapter with 16-bit floats in shaders), else `{refused}`,
 * a code the page words (`gpu.refused.*`), and the adapter's name when there is one. A
 * software adapter (SwiftShader) is slower than the CPU build on the same cores. `any`: any
 * adapter is tried (`?gpu=1`, for measuring and testing where no hardware adapter is).
 */
async function pickGpu(any) {
  const gpu = /** @type {any} */ (navigator).gpu;
  if (!gpu?.requestAdapter) return { refused: 'no_webgpu' };
  let adapter = null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    adapter = null;
  }
  if (!adapter) return { refused: 'no_adapter' };
  const info = adapter.info ?? {};
  const name = info.description || [info.vendor, info.architecture].filter(Boolean).join(' ') || 'WebGPU';
  if (any) return { name };
  if (info.isFallbackAdapter || adapter.isFallbackAdapter) return { refused: 'software', name };
  if (!adapter.features?.has('shader-f16')) return { refused: 'no_f16', name };
  return { name };
}

/**
 * Whether wllama sees JSPI, so that it takes its compat build (32-bit memory, Asyncify) or
 * its default one (Memory64, JSPI) where both run; a browser without JSPI keeps without it.
 */
function showJspi(show) {
  if (typeof SUSPENDING !== 'function') return;
  const wasm = /** @type {any} */ (WebAssembly);
  if (show) wasm.Suspending = SUSPENDING;
  else delete wasm.Suspending;
}

/** Why the loaded engine runs wllama's compat build (see `load`), or null. */
function compatWhy(wllama, f, compat) {
  if (!wllama.getWorkerResources().compat) return null;
  if (!f.jspi || !f.memory64) return 'needed';
  return compat ? 'forced' : 'cpu';
}

// ---------------------------------------------------------------- the cache (OPFS)

async function cacheDir() {
  if (!navigator.storage?.getDirectory) throw new Failure('no_cache');
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(DIR, { create: true });
}

async function keyOf(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The cached models: [{key, name, size, source, savedAt}], newest first. */
async function list() {
  const dir = await cacheDir();
  const models = [];
  for await (const [name, handle] of dir.entries()) {
    if (!name.endsWith('.json') || handle.kind !== 'file') continue;
    try {
      const meta = JSON.parse(await (await handle.getFile()).text());
      const file = await (await dir.getFileHandle(`${meta.key}.gguf`)).getFile();
      if (file.size === meta.size) models.push(meta);
    } catch {
      // a half-written entry: its .json is written last, so this is a damaged one; skip it
    }
  }
  return models.sort((a, b) => b.savedAt - a.savedAt);
}

async function forget(key) {
  if (!/^[0-9a-f]{24}$/.test(String(key))) throw new Failure('not_cached');
  if (current?.key === key) await unload();
  const dir = await cacheDir();
  for (const name of [`${key}.json`, `${key}.gguf`]) {
    await dir.removeEntry(name).catch(() => {});
  }
  return list();
}

async function findCached(key) {
  const dir = await cacheDir();
  try {
    const meta = JSON.parse(await (await (await dir.getFileHandle(`${key}.json`)).getFile()).text());
    const file = await (await dir.getFileHandle(`${key}.gguf`)).getFile();
    return file.size === meta.size ? { meta, file } : null;
  } catch {
    return null;
  }
}

const isGguf = (bytes) => GGUF_MAGIC.every((b, i) => bytes[i] === b);

function notGguf(name, bytes) {
  const start = [...bytes.slice(0, 16)].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
  return new Failure('not_gguf', { name, start });
}

/**
 * Copies a stream into the cache as `${key}.gguf`, checking the first bytes, reporting
 * progress, and writing `${key}.json` only once the whole file is in (so a cancelled or
 * failed copy never looks cached).
 */
async function save(reader, { key, name, total, source, signal, progress }) {
  const dir = await cacheDir();
  const handle = await dir.getFileHandle(`${key}.gguf`, { create: true });
  const access = await handle.createSyncAccessHandle();
  let loaded = 0;
  let last = 0;
  let head = new Uint8Array(0);
  try {
    access.truncate(0);
    for (;;) {
      if (signal.aborted) throw new Failure('cancelled');
      const { done, value } = await reader.read();
      if (done) break;
      if (head.length < 4) {
        head = new Uint8Array([...head, ...value.subarray(0, 16)]);
        if (head.length >= 4 && !isGguf(head)) throw notGguf(name, head);
      }
      access.write(value, { at: loaded });
      loaded += value.byteLength;
      const now = performance.now();
      if (now - last > PROGRESS_EVERY_MS) {
        last = now;
        progress(loaded, total);
      }
    }
    if (head.length < 4) throw notGguf(name, head);
    access.flush();
  } catch (error) {
    reader.cancel().catch(() => {});
    access.close();
    await dir.removeEntry(`${key}.gguf`).catch(() => {});
    if (error?.name === 'QuotaExceededError') {
      throw new Failure('quota', { mb: (loaded / 1e6).toFixed(0) });
    }
    throw error;
  }
  access.close();
  progress(loaded, loaded);
  const meta = { key, name, size: loaded, source, savedAt: Date.now() };
  const json = await dir.getFileHandle(`${key}.json`, { create: true });
  const writer = await json.createSyncAccessHandle();
  const bytes = new TextEncoder().encode(JSON.stringify(meta));
  writer.truncate(0);
  writer.write(bytes, { at: 0 });
  writer.flush();
  writer.close();
  return meta;
}

/** The model as a File in the cache: from the cache, or read (a picked file) or downloaded (a URL) into it. */
async function fetchIntoCache(source, signal, progress) {
  if (source.key) {
    const hit = await findCached(source.key);
    if (!hit) throw new Failure('not_cached');
    return { ...hit, fromCache: true };
  }
  if (source.file) {
    const file = source.file;
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    if (!isGguf(head)) throw notGguf(file.name, head);
    const key = await keyOf(`file:${file.name}:${file.size}:${file.lastModified}`);
    const hit = await findCached(key);
    if (hit) return { ...hit, fromCache: true };
    progress(0, file.size, 'read');
    const meta = await save(file.stream().getReader(), { key, name: file.name, total: file.size, source: 'file', signal, progress: (l, t) => progress(l, t, 'read') });
    return { meta, file: await (await (await cacheDir()).getFileHandle(`${key}.gguf`)).getFile(), fromCache: false };
  }
  const url = new URL(source.url, self.location.href).href;
  const key = await keyOf(`url:${url}`);
  const hit = await findCached(key);
  if (hit) return { ...hit, fromCache: true };
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
  let response;
  try {
    response = await fetch(url, { signal, credentials: 'same-origin' });
  } catch (error) {
    if (signal.aborted) throw new Failure('cancelled');
    throw new Failure('network', { url }, String(error?.message ?? error));
  }
  if (!response.ok) throw new Failure('http', { url, status: `${response.status} ${response.statusText}`.trim() });
  const total = Number(response.headers.get('content-length')) || 0;
  progress(0, total, 'download');
  const meta = await save(response.body.getReader(), { key, name, total, source: url, signal, progress: (l, t) => progress(l, t, 'download') });
  return { meta, file: await (await (await cacheDir()).getFileHandle(`${key}.gguf`)).getFile(), fromCache: false };
}

// ---------------------------------------------------------------- the engine

async function unload() {
  const old = engine;
  engine = null;
  current = null;
  await old?.exit().catch(() => {});
}

async function load(id, { source, threads, nCtx, gpu: gpuWanted, compat }, post) {
  const f = features();
  loading?.controller.abort();
  const controller = new AbortController();
  loading = { id, controller };
  const started = performance.now();
  try {
    const progress = (loaded, total, phase) => post({ type: 'progress', id, phase, loaded, total });
    const { meta, file, fromCache } = await fetchIntoCache(source, controller.signal, progress);
    const cachedMs = performance.now() - started;
    if (controller.signal.aborted) throw new Failure('cancelled');
    await unload();
    await queue; // a generation still winding down after Stop
    progress(0, meta.size, 'load');
    // Threads need cross-origin isolation (SharedArrayBuffer); without it one thread. By
    // default half the cores (wllama's own choice), so the page and the rest of the machine
    // keep some: two llama.cpp threads on two busy cores run several times slower than one.
    const wanted = Math.max(1, Math.floor(Number(threads) || f.cores / 2));
    const nThreads = f.threads ? wanted : 1;
    // Quiet: llama.cpp's own log and wllama's debug lines stay out of the page's console.
    const logger = { debug() {}, log() {}, warn: console.warn, error: console.error };
    const start = async (gpuLayers) => {
      // wllama takes the compat build where the default one cannot run (Safari; not Firefox,
      // whose default build runs without JSPI on the CPU, as wllama chooses), and this worker
      // asks for it on the CPU unless `compat` is false: 32-bit memory needs no bounds checks,
      // and it ran faster than Memory64 on every figure measured (bench/README.md); both
      // builds hold at most 4 GB. On the GPU the default build, unless `compat` is true, as
      // wllama advises for WebGPU.
      showJspi(!(compat ?? gpuLayers === 0));
      const wllama = new Wllama({ default: WASM }, { suppressNativeLog: true, allowOffline: true, logger });
      wllama.setCompat(COMPAT);
      try {
        // Every layer that fits on the GPU (wllama's default), or none: the CPU build alone.
        await wllama.loadModel([file], { n_ctx: nCtx || 4096, n_threads: nThreads, n_gpu_layers: gpuLayers, n_parallel: 1, jinja: true });
        return wllama;
      } catch (error) {
        await wllama.exit().catch(() => {});
        throw error;
      }
    };
    const engineStarted = performance.now();
    const gpu = gpuWanted === false ? { refused: 'off' } : await pickGpu(gpuWanted === true);
    let gpuFailed = null; // what the GPU said when it failed and the CPU took over
    let wllama;
    try {
      try {
        wllama = await start(gpu.refused ? 0 : 99999);
      } catch (error) {
        if (gpu.refused || controller.signal.aborted) throw error;
        // A shader that does not compile, a lost device, too little GPU memory: the CPU, once.
        gpuFailed = String(error?.message ?? error);
        wllama = await start(0);
      }
    } catch (error) {
      const text = String(error?.message ?? error);
      if (/memory|OOM|allocat/i.test(text)) throw new Failure('memory', { mb: (meta.size / 1e6).toFixed(0) }, text);
      throw new Failure('load', { name: meta.name }, text);
    }
    if (controller.signal.aborted) {
      await wllama.exit().catch(() => {});
      throw new Failure('cancelled');
    }
    engine = wllama;
    current = { key: meta.key, name: meta.name, size: meta.size };
    progress(meta.size, meta.size, 'load');
    const info = wllama.getLoadedContextInfo();
    return {
      ...current,
      fromCache,
      source: meta.source,
      threads: wllama.getNumThreads(),
      // The device: the GPU's name, or null (the CPU) with why not (gpuRefused, gpuFailed).
      gpu: gpu.refused || gpuFailed ? null : gpu.name,
      gpuName: gpu.name ?? null,
      gpuRefused: gpu.refused ?? null,
      gpuFailed,
      isolated: f.threads,
      cores: f.cores,
      multithread: wllama.isMultithread(),
      // wllama's compat build: null, 'needed' (the browser lacks `missing`), 'forced' (asked
      // for) or 'cpu' (the faster build on the CPU).
      compat: compatWhy(wllama, f, compat),
      missing: [!f.jspi && 'JSPI', !f.memory64 && 'Memory64'].filter(Boolean),
      chatTemplate: Boolean(wllama.getChatTemplate()),
      nCtx: info.n_ctx,
      architecture: info.metadata?.['general.architecture'] ?? null,
      modelName: info.metadata?.['general.name'] ?? null,
      cacheMs: Math.round(cachedMs),
      engineMs: Math.round(performance.now() - engineStarted),
      loadMs: Math.round(performance.now() - started),
      version: Wllama.getLibllamaVersion?.() ?? null,
    };
  } finally {
    if (loading?.id === id) loading = null;
  }
}

/** One chat completion, streamed as `delta` messages; one at a time. */
function complete(id, body, post) {
  const controller = new AbortController();
  generations.set(id, controller);
  const run = queue.then(async () => {
    if (!engine) throw new Failure('not_loaded');
    if (controller.signal.aborted) throw new Failure('aborted');
    let text = '';
    let usage = null;
    let timings = null;
    const started = performance.now();
    try {
      await engine.createChatCompletion({
        ...body,
        stream: true,
        abortSignal: controller.signal,
        onData: (chunk) => {
          const piece = chunk?.choices?.[0]?.delta?.content;
          if (piece) {
            text += piece;
            post({ type: 'delta', id, text: piece });
          }
          if (chunk?.usage) usage = chunk.usage;
          if (chunk?.timings) timings = chunk.timings;
        },
      });
    } catch (error) {
      if (controller.signal.aborted || error?.name === 'AbortError') throw new Failure('aborted');
      const message = String(error?.message ?? error);
      if (error?.type === 'kv_cache_full' || /context|kv cache/i.test(message)) {
        throw new Failure('context', {}, message);
      }
      throw new Failure('engine', {}, message);
    }
    return { text, usage, timings, elapsedMs: performance.now() - started };
  });
  queue = run.catch(() => {});
  return run.finally(() => generations.delete(id));
}

// ---------------------------------------------------------------- messages

self.onmessage = async ({ data }) => {
  const { type, id } = data ?? {};
  const post = (message) => self.postMessage(message);
  const answer = (work) => Promise.resolve()
    .then(work)
    .then((value) => post({ type: 'reply', id, value }), (error) => post({
      type: 'error', id,
      // Only our own failures carry a code the page words; anything else (a DOMException
      // has a numeric `code` of its own) is the engine's, in its own words.
      ...(error instanceof Failure
        ? { code: error.code, params: error.params, detail: error.detail }
        : { code: 'engine', params: {}, detail: String(error?.message ?? error) }),
    }));
  switch (type) {
    case 'features': return answer(() => features());
    case 'list': return answer(() => list());
    case 'forget': return answer(() => forget(data.key));
    case 'load': return answer(() => load(id, data, post));
    case 'cancel': if (loading?.id === data.target) loading.controller.abort(); return undefined;
    case 'complete': return answer(() => complete(id, data.body, post));
    case 'abort': generations.get(data.target)?.abort(); return undefined;
    case 'unload': return answer(() => unload());
    default: return answer(() => { throw new Failure('engine', {}, `unknown message ${type}`); });
  }
};
