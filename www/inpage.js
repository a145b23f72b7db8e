// The in-page engine from the page's side: a model that runs in this tab with no server.
// `engine()` talks to www/inpage-worker.js (llama.cpp in wasm, the model cache in OPFS);
// `engine().model` is the function an Agent takes with `useModel`, so the run is the same loop
// with the same trace as with a server. Used by the playground (initInPage, the Connect panel)
// and by <react-loop model-src="…">.

let shared = null;

/** The one engine of this page (one Worker, one model loaded at a time). */
export function engine() {
  shared ??= new InPageEngine();
  return shared;
}

export class InPageEngine {
  constructor() {
    this.worker = null;
    this.next = 1;
    this.calls = new Map(); // id -> {resolve, reject, onProgress, onDelta}
    this.loaded = null; // what the worker said about the model it loaded
    // The system prompt the engine's prompt cache starts with (the last request's), or null.
    this.cachedSystem = null;
    this.prefilling = null; // {system, stop, done} while a prefill is in flight
  }

  start() {
    if (this.worker) return this.worker;
    const url = new URL('./inpage-worker.js', import.meta.url);
    // A worker must come from the page's origin; <react-loop> on another site's page starts it
    // through a one-line module that imports it (the page's CSP must then allow worker-src blob:).
    const script = url.origin === location.origin ? url
      : URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' }));
    this.worker = new Worker(script, { type: 'module', name: 'reactloop-inpage' });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => {
      // The worker failed to start (e.g. a module that did not load): every call fails with it.
      event.preventDefault?.();
      const error = failure('engine', {}, event.message || null);
      for (const call of this.calls.values()) call.reject(error);
      this.calls.clear();
      this.worker = null;
    };
    return this.worker;
  }

  receive(data) {
    const call = this.calls.get(data.id);
    if (!call) return; // a late message of a call given up on (Stop)
    if (data.type === 'progress') return call.onProgress?.(data);
    if (data.type === 'delta') return call.onDelta?.(data.text);
    this.calls.delete(data.id);
    if (data.type === 'reply') call.resolve(data.value);
    else call.reject(failure(data.code, data.params, data.detail));
  }

  call(type, payload = {}, handlers = {}) {
    const id = this.next++;
    const worker = this.start();
    const done = new Promise((resolve, reject) => this.calls.set(id, { resolve, reject, ...handlers }));
    worker.postMessage({ type, id, ...payload });
    return { id, done };
  }

  /** What this browser offers: {jspi, memory64, threads, cores, opfs}. */
  features() {
    return this.call('features').done;
  }

  /** The models in the cache, newest first: [{key, name, size, source, savedAt}]. */
  cached() {
    return this.call('list').done;
  }

  /** Removes a model from the cache (and unloads it if it is the one loaded); resolves to the new list. */
  async forget(key) {
    if (this.loaded?.key === key) this.loaded = null;
    return this.call('forget', { key }).done;
  }

  /**
   * Loads a model: `source` is {file} (a File), {url} or {key} (a cached one). Progress comes as
   * onProgress({phase: 'read'|'download'|'load', loaded, total}); `signal` cancels. `gpu`:
   * unset, a hardware GPU when the browser offers one; true, any adapter; false, the CPU.
   * `compat`: unset, wllama's compat build on the CPU (faster there) and its default one on
   * the GPU; true, the compat build; false, the default one where the browser runs it.
   * @param {{ file: File } | { url: string } | { key: string }} source
   * @param {{ onProgress?: (progress: { phase: string, loaded: number, total: number }) => void, signal?: AbortSignal, threads?: number, nCtx?: number, gpu?: boolean, compat?: boolean }} [options]
   */
  async load(source, { onProgress, signal, threads, nCtx, gpu, compat } = {}) {
    this.cachedSystem = null;
    this.prefilling?.stop();
    this.prefilling = null;
    const { id, done } = this.call('load', { source, threads, nCtx, gpu, compat }, { onProgress });
    const cancel = () => {
      this.worker?.postMessage({ type: 'cancel', target: id });
    };
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      this.loaded = await done;
      return this.loaded;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /**
   * The Agent's model (`agent.useModel(engine().model)`): `body` is the core's request (the
   * messages, which the engine renders with the model's own chat template, stop sequences,
   * token limit and grammar). Stop settles the call at once; the engine stops at its next
   * token and the next request waits for it.
   * @param {Parameters<import('./pkg/reactloop.js').ModelFunction>[0]} body
   * @param {Partial<Parameters<import('./pkg/reactloop.js').ModelFunction>[1]>} [options]
   * @returns {ReturnType<import('./pkg/reactloop.js').ModelFunction>}
   */
  model = (body, { signal, onDelta } = {}) => {
    if (!this.loaded) return Promise.reject(failure('not_loaded'));
    const system = body.messages?.[0]?.content ?? null;
    // A prefill of the same system prompt does this request's first part; another is in the way.
    if (this.prefilling && this.prefilling.system !== system) this.prefilling.stop();
    this.cachedSystem = null;
    const emit = (text) => {
      if (signal?.aborted) return;
      try {
        onDelta?.(text);
      } catch {
        // the run has moved on; the piece is not wanted any more
      }
    };
    const { id, done } = this.call('complete', { body }, { onDelta: emit });
    const stopped = new Promise((_, reject) => {
      const abort = () => {
        this.worker?.postMessage({ type: 'abort', target: id });
        reject(failure('aborted'));
      };
      if (signal?.aborted) abort();
      signal?.addEventListener('abort', abort, { once: true });
    });
    return Promise.race([done, stopped]).then((reply) => {
      this.last = reply; // timings of the last reply, for the status line and the bench
      if (body.cache_prompt !== false) this.cachedSystem = system;
      // The stream's last chunk has llama.cpp's timings: prompt tokens evaluated now (prompt_n)
      // and reused from the prompt cache (cache_n), tokens generated (predicted_n).
      const timings = reply.timings ?? {};
      const prompt = timings.prompt_n == null ? null : timings.prompt_n + (timings.cache_n ?? 0);
      return {
        text: reply.text,
        usage: {
          prompt_tokens: reply.usage?.prompt_tokens ?? prompt,
          completion_tokens: reply.usage?.completion_tokens ?? timings.predicted_n ?? null,
          cached_tokens: timings.cache_n ?? null,
        },
      };
    });
  };

  /**
   * Reads the opening of the next run (`agent.opening()`: the system prompt and the start of
   * the first user message) into llama.cpp's prompt cache while nobody waits, so the run's
   * first step evaluates little more than its question. Returns null when there is nothing to
   * do (no model, or the cache already starts with this system prompt), else a promise of
   * llama.cpp's timings, or of null when a newer prefill or a request of another system prompt
   * stopped it. A request of the same system prompt waits for it and starts where it ends.
   * @param {{ role: string, content: string }[]} messages
   * @returns {Promise<Record<string, number> | null> | null}
   */
  prefill(messages) {
    const system = messages?.[0]?.content;
    if (!this.loaded || system == null || system === this.cachedSystem) return null;
    if (this.prefilling?.system === system) return this.prefilling.done;
    this.prefilling?.stop();
    this.cachedSystem = null;
    // One token: llama.cpp evaluates the whole prompt before it writes anything.
    const { id, done } = this.call('complete', { body: { messages, max_tokens: 1, temperature: 0 } });
    const mine = {
      system,
      stop: () => this.worker?.postMessage({ type: 'abort', target: id }),
      // What a newer prefill or a load took over from says nothing of the cache.
      done: done.then((reply) => {
        if (this.prefilling !== mine) return null;
        this.cachedSystem = system;
        return reply.timings ?? {};
      }, () => null).finally(() => {
        if (this.prefilling === mine) this.prefilling = null;
      }),
    };
    this.prefilling = mine;
    return mine.done;
  }

  /** Stops the worker and frees its memory; the cache stays. */
  terminate() {
    this.worker?.terminate();
    this.worker = null;
    this.loaded = null;
    this.cachedSystem = null;
    for (const call of this.calls.values()) call.reject(failure('aborted'));
    this.calls.clear();
  }
}

/**
 * An engine failure: its `code` and the `params` its sentence needs; the panel's strings word a
 * failed load, the core a failed model call (`LlmError::PageModel`). `detail` is the engine's
 * own words.
 */
function failure(code, params = {}, detail = null) {
  /** @type {Error & { code?: string, params?: object, detail?: string }} */
  const error = new Error(detail ?? code);
  error.code = code;
  error.params = params ?? {};
  if (detail) error.detail = detail;
  return error;
}

/** Whether a model URL is on this page's origin (nothing leaves the machine for it). */
export function sameOrigin(url, base = location.href) {
  try {
    return new URL(url, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

/** "98 MB", "1.1 GB". */
export function size(bytes) {
  if (!Number.isFinite(bytes) || bytes <= 0) return '?';
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1e6))} MB`;
}

/** Seconds left, from the bytes so far and the time taken, or null early on. */
export function estimate(loaded, total, elapsedMs) {
  if (!total || loaded <= 0 || elapsedMs < 300) return null;
  return Math.max(0, Math.round(((total - loaded) * elapsedMs) / loaded / 1000));
}
