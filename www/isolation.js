// Threads for the in-page engine where the host sends no isolation headers: the site's service
// worker (isolation-sw.js) adds them, and the page reloads once to be served through it. Asked
// for only when the person opens the engine, so a visit that never does registers nothing.
// One try a tab: a page still not isolated after that reload says why and stays on one thread.

const TRIED = 'reactloop.isolation.tried'; // sessionStorage: this tab reloaded to be isolated
const KEPT = 'reactloop.isolation.kept'; // what the page had before that reload, given back once
const READY_MS = 5000;

let failure = null; // why the worker could not be registered (the browser's words), when it could not
let late = false; // it was registered but not active in READY_MS
const LATE = Symbol('late');

// Storage may be refused (a sandboxed frame): then nothing is tried, and nothing is kept.
function session() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * Why the in-page engine gets one thread here: `null` (isolated: it may use threads),
 * `noWorker` (no service worker in this browser or context), `refused` (the reload through the
 * worker did not make the page isolated), `failed` (the worker could not be registered),
 * `late` (it was not active in 5 s), or `headers` (not isolated, not tried yet).
 */
export function oneThreadReason() {
  if (globalThis.crossOriginIsolated) return null;
  if (late) return 'late';
  if (failure) return 'failed';
  if (!globalThis.isSecureContext || !('serviceWorker' in navigator) || !session()) return 'noWorker';
  return session().getItem(TRIED) ? 'refused' : 'headers';
}

/** The detail of a failed registration (the browser's words), or ''. */
export const failureDetail = () => failure ?? '';

/**
 * Makes the page isolated if it is not and can be: registers the worker, keeps `kept` (plain
 * data) for after the reload, and reloads. Resolves to true while the page reloads, to false
 * when the page goes on as it is.
 */
export async function isolate(kept) {
  if (oneThreadReason() !== 'headers') return false;
  try {
    const coep = 'credentialless' in HTMLIFrameElement.prototype ? 'credentialless' : 'require-corp';
    const active = navigator.serviceWorker
      .register(new URL(`isolation-sw.js?coep=${coep}`, import.meta.url))
      .then(() => navigator.serviceWorker.ready);
    let timer;
    const late = new Promise((_, fail) => {
      timer = setTimeout(() => fail(LATE), READY_MS);
    });
    await Promise.race([active, late]).finally(() => clearTimeout(timer));
  } catch (error) {
    late = error === LATE;
    failure = late ? '' : String(error?.message ?? error);
    return false;
  }
  session().setItem(TRIED, '1');
  session().setItem(KEPT, JSON.stringify(kept ?? {}));
  location.reload();
  return true;
}

/** What the page kept before reloading itself isolated, once; null on any other load. */
export function resumed() {
  try {
    const text = session()?.getItem(KEPT) ?? null;
    session()?.removeItem(KEPT);
    const kept = JSON.parse(text);
    return kept && typeof kept === 'object' ? kept : null;
  } catch {
    return null;
  }
}
