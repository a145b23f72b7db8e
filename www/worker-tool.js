// Runs JavaScript tool code in a dedicated Worker with a hard timeout: the playground's Tools
// panel uses it, and a page that embeds the module can too:
//
//   import { workerTool } from './worker-tool.js';
//   agent.registerTool({ name: 'shout', parameters: {…}, timeoutMs: 2000,
//     run: workerTool('return String(args.text).toUpperCase();', { timeoutMs: 2000 }) });
//
// The source is the body of an `async function (args)`. Each call starts a fresh worker from
// the static file tool-worker.js, posts it the source and the arguments, and terminates it
// when it answers, when the time is up (then the call rejects with a TimeoutError that says
// so), or when the signal the agent passes aborts (Stop). A `while (true) {}` therefore
// costs one worker thread for at most `timeoutMs`, never the page. Tool code sees no DOM and
// no localStorage; it can still use fetch, timers and the other worker APIs.

const WORKER_URL = new URL('./tool-worker.js', import.meta.url);
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_TIMEOUT_MS = 2 ** 31 - 1; // setTimeout fires at once above this

const named = (name, message) => Object.assign(new Error(message), { name });

/**
 * A tool's `run(args, {signal})` that executes `source` in a worker. `timeoutMs` (10 000 by
 * default) is the hard limit; give the agent the same `timeoutMs`.
 * @returns {(args: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>}
 */
export function workerTool(source, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
  const code = String(source);
  const limit = Math.min(Math.max(Number(timeoutMs) || DEFAULT_TIMEOUT_MS, 1), MAX_TIMEOUT_MS);
  return (args, { signal } = {}) => inWorker({ source: code, args }, limit, signal);
}

/** Compiles `source` in a worker: resolves to null, or to the compiler's message. */
export function checkToolSource(source, { timeoutMs = 5000 } = {}) {
  return inWorker({ source: String(source), check: true }, timeoutMs).then(() => null, (error) => error.message);
}

function inWorker(message, timeoutMs, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(named('AbortError', 'was stopped before it started'));
    const worker = new Worker(WORKER_URL, { name: 'reactloop tool' });
    const finish = (settle, value) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stopped);
      worker.terminate();
      settle(value);
    };
    const stopped = () => finish(reject, named('AbortError', 'was stopped'));
    const timer = setTimeout(
      () => finish(reject, named('TimeoutError', `its worker was stopped after ${timeoutMs} ms without an answer`)),
      timeoutMs,
    );
    signal?.addEventListener('abort', stopped, { once: true });
    // The first message is the answer (tool code could post its own; it only fools itself).
    worker.onmessage = ({ data }) => {
      if (data?.error !== undefined) finish(reject, new Error(String(data.error)));
      else finish(resolve, data?.value);
    };
    // An error thrown outside the awaited call (in a timer, say), or a worker that failed to load.
    worker.onerror = (event) => {
      event.preventDefault();
      finish(reject, new Error(event.message || 'its worker could not start'));
    };
    worker.onmessageerror = () => finish(reject, new Error('its result could not be passed back'));
    try {
      worker.postMessage(message);
    } catch (error) {
      finish(reject, new Error(`its arguments could not be passed to the worker: ${error.message}`));
    }
  });
}
