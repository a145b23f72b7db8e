// The Connect panel: server presets (and the demo model), the model list, the API key, the
// local-server probe on load and the connection doctor's "Test connection". The in-page
// engine's panel (www/inpage-panel.js, www/inpage.js) is imported only once it is chosen.
import { listModels, hostedPage } from './pkg/reactloop.js';
import { $, h, choose } from './dom.js';
import { t, lang, strings } from './i18n.js';
import { doctor } from './trace.js';
import { isolate } from './isolation.js';

const PRESETS = {
  ollama: 'http://localhost:11434/v1',
  llamacpp: 'http://localhost:8080/v1',
  lmstudio: 'http://localhost:1234/v1',
};
const PROBE_TIMEOUT_MS = 1500;
// A model list comes back at once, unless the server is busy generating for someone.
const TEST_TIMEOUT_MS = 15_000;
// Remembered keys, by the origin each was typed for: {"https://api.example": "sk-…"}. The
// earlier store held one key for any server; it is dropped, since nothing says whose it was.
const KEY_STORE = 'reactloop.apiKeys';
const OLD_KEY_STORE = 'reactloop.apiKey';

const el = {
  preset: $('#preset'), baseUrl: $('#base-url'), model: $('#model'), models: $('#model-list'),
  apiKey: $('#api-key'), remember: $('#remember-key'), temperature: $('#temperature'),
  maxTokens: $('#max-tokens'), stream: $('#stream'), constrained: $('#constrained'),
  server: $('#server-fields'), sampling: $('#sampling-fields'), demoNote: $('#demo-note'), probe: $('#probe-status'),
  test: $('#test-connection'), result: $('#connect-result'), confirm: $('#endpoint-confirm'),
  inPage: $('#inpage-fields'),
};
// Set once the person picks a server, so a late probe result never overrides their choice.
let touched = false;
let probed; // the presets that answered the probe; null while it runs, undefined if never run
let hosted; // what a page that is not on this computer says instead of probing on load
// The origin the key in the field was typed (or remembered) for: the key goes nowhere else.
let keyOrigin = null;
// An endpoint a link named, shown but not contacted until the person agrees:
// {resolve} while the question is on screen, else null.
let asking = null;
let panel = null; // www/inpage-panel.js once imported (the in-page engine was chosen)
let importing = null; // the promise of it
let keep = () => ({}); // what the page keeps over its isolating reload
let opening = () => null; // the next run's opening for the in-page engine to read ahead

/**
 * The in-page panel's module, imported and set up the first time the engine is chosen. On a
 * page that is not cross-origin isolated the site's service worker is registered first and the
 * page reloads through it (www/isolation.js): the promise then never settles.
 */
export function loadInPagePanel() {
  importing ??= isolate(keep()).then((reloading) => (reloading ? new Promise(() => {}) : import('./inpage-panel.js'))).then((module) => {
    module.initInPage({ decline: () => usePreset('demo'), opening });
    panel = module;
    return module;
  });
  return importing;
}

/** The in-page panel's module, or null before the engine was ever chosen (no model is loaded then). */
export const inPagePanel = () => panel;

/**
 * @param {{ keep?: () => object, opening?: () => (object[] | null) }} [options] `keep`: what to
 * restore after an isolating reload; `opening`: the next run's opening (www/inpage-panel.js)
 */
export function initConnect(options = {}) {
  keep = options.keep ?? keep;
  opening = options.opening ?? opening;
  localStorage.removeItem(OLD_KEY_STORE);
  el.preset.addEventListener('change', () => {
    touched = true;
    settle(false);
    usePreset(el.preset.value);
    if (PRESETS[el.preset.value]) loadModels({ pick: true });
  });
  el.baseUrl.addEventListener('input', () => {
    touched = true;
    settle(false);
    el.preset.value = presetOf(el.baseUrl.value);
    followKey();
  });
  // Once the URL is typed (not at each keystroke), a key kept before it belongs to it.
  el.baseUrl.addEventListener('change', () => {
    if (keyOrigin === null && el.apiKey.value && el.remember.checked) rememberKey();
  });
  el.apiKey.addEventListener('input', () => {
    keyOrigin = originOf(el.baseUrl.value);
    rememberKey();
  });
  el.remember.addEventListener('change', rememberKey);
  el.test.addEventListener('click', testConnection);
  usePreset('demo');
}

function originOf(url) {
  try {
    const { origin } = new URL(String(url).trim());
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

function savedKeys() {
  try {
    const keys = JSON.parse(localStorage.getItem(KEY_STORE));
    return keys && typeof keys === 'object' && !Array.isArray(keys) ? keys : {};
  } catch {
    return {};
  }
}

function rememberKey() {
  // A key typed before any server was chosen belongs to the one in the field when it is kept.
  keyOrigin ??= originOf(el.baseUrl.value);
  if (!keyOrigin) return;
  const keys = savedKeys();
  if (el.remember.checked && el.apiKey.value) keys[keyOrigin] = el.apiKey.value;
  else delete keys[keyOrigin];
  if (Object.keys(keys).length) localStorage.setItem(KEY_STORE, JSON.stringify(keys));
  else localStorage.removeItem(KEY_STORE);
}

/**
 * The endpoint changed: the key field shows the key remembered for its origin, or nothing.
 * A key typed before any server was chosen stays, and belongs to the first server it is
 * sent to. `chosen: false` (a link or the probe picked the server, not the person): nothing
 * remembered is filled in.
 */
function followKey({ chosen = true } = {}) {
  const origin = originOf(el.baseUrl.value);
  if (chosen && (origin === keyOrigin || (keyOrigin === null && el.apiKey.value))) return;
  const saved = chosen && origin ? savedKeys()[origin] : undefined;
  el.apiKey.value = saved ?? '';
  el.remember.checked = Boolean(saved);
  keyOrigin = saved ? origin : null;
}

/** The key for a request to `url`: only the one typed or remembered for that origin. */
function keyFor(url) {
  const origin = originOf(url);
  if (!origin || !el.apiKey.value) return undefined;
  // An unbound key (typed before any server was chosen) goes to the server in the field.
  return origin === (keyOrigin ?? originOf(el.baseUrl.value)) ? el.apiKey.value : undefined;
}

function presetOf(url) {
  const found = Object.entries(PRESETS).find(([, u]) => u === url.trim().replace(/\/+$/, ''));
  return found ? found[0] : 'custom';
}

function usePreset(id, keyOptions, inPageOptions) {
  el.preset.value = id;
  if (PRESETS[id]) el.baseUrl.value = PRESETS[id];
  const demo = id === 'demo';
  const inPage = id === 'inpage';
  el.server.hidden = demo || inPage;
  el.sampling.hidden = demo;
  el.demoNote.hidden = !demo;
  el.inPage.hidden = !inPage;
  if (inPage) loadInPagePanel().then((module) => module.showInPage(inPageOptions));
  el.result.replaceChildren();
  if (!demo && !inPage) followKey(keyOptions);
}

/** The in-page engine is chosen (by a link's model-src: no model is loaded from the cache meanwhile). */
export function useInPage({ auto = true } = {}) {
  touched = true;
  settle(false);
  usePreset('inpage', undefined, { auto });
}

/**
 * Points the page at the endpoint a permalink names, or at the demo model. A link is not
 * consent: the endpoint is shown, and nothing is sent there (no model list, no question, never
 * a remembered key) until the person presses Connect. Resolves to true once they do, to false
 * if they choose otherwise.
 */
export function setEndpoint(url, model) {
  touched = true;
  settle(false);
  if (!url) {
    usePreset('demo');
    return Promise.resolve(true);
  }
  el.baseUrl.value = url;
  usePreset(presetOf(url), { chosen: false });
  if (model) el.model.value = model;
  let host;
  try {
    host = new URL(url).host || url;
  } catch {
    host = url;
  }
  const decided = new Promise((resolve) => (asking = { resolve }));
  const connect = h('button', { type: 'button', 'data-testid': 'confirm-endpoint', onclick: () => {
    settle(true);
    loadModels({ pick: !model });
  } }, t('link.connect'));
  const demo = h('button', { type: 'button', onclick: () => {
    settle(false);
    usePreset('demo');
  } }, t('link.useDemo'));
  el.confirm.replaceChildren(h('p', {}, t('link.confirm', { host })), h('p', { class: 'muted' }, t('link.why')), h('p', { class: 'actions' }, connect, ' ', demo));
  el.confirm.hidden = false;
  return decided;
}

/** Ends the question about a link's endpoint (if one is on screen) with the person's answer. */
function settle(agreed) {
  if (!asking) return;
  const { resolve } = asking;
  asking = null;
  el.confirm.hidden = true;
  el.confirm.replaceChildren();
  resolve(agreed);
}

/**
 * False while the page waits for the person to agree to a link's endpoint; the question is
 * then brought into view, so a Run or a test goes nowhere without consent.
 */
export function endpointAgreed() {
  if (!asking) return true;
  $('#connect-panel').open = true;
  el.confirm.scrollIntoView({ block: 'nearest' });
  el.confirm.querySelector('button')?.focus();
  return false;
}

/** A run started: from now on the probe must not switch servers under the person. */
export const keepChoice = () => { touched = true; };

/** A link's sampling and constraint settings (what it carries of the connection part). */
export function restoreConnect({ temperature, maxTokens, stream, constrained }) {
  if (temperature !== undefined) el.temperature.value = String(temperature);
  if (maxTokens !== undefined) el.maxTokens.value = String(maxTokens);
  if (stream !== undefined) el.stream.checked = stream;
  if (constrained !== undefined) choose(el.constrained, constrained);
}

/** The connection part of the Agent settings. */
export function connectSettings() {
  const number = (input) => (input.value === '' ? undefined : Number(input.value));
  if (el.preset.value === 'inpage') {
    return { ...(panel?.inPageSettings() ?? { inPage: true }), temperature: number(el.temperature), maxTokens: number(el.maxTokens), constrained: el.constrained.value };
  }
  return {
    demo: el.preset.value === 'demo',
    baseUrl: el.baseUrl.value.trim(),
    apiKey: keyFor(el.baseUrl.value),
    model: el.model.value.trim(),
    temperature: number(el.temperature),
    maxTokens: number(el.maxTokens),
    stream: el.stream.checked,
    constrained: el.constrained.value,
  };
}

/** A model-list request; the local probe passes no key (it asks servers nobody chose). */
function modelsQuery(baseUrl, timeoutMs, apiKey) {
  return { baseUrl, apiKey, timeoutMs };
}

/** Offers the server's models; `pick` selects the first unless the model is one of them. */
function showModels(models, pick) {
  el.models.replaceChildren(...models.map((m) => h('option', { value: m })));
  if (pick && models.length && !models.includes(el.model.value.trim())) el.model.value = models[0];
}

/**
 * Fills the model list and resolves to null, or to the error (shown only when asked for).
 * @param {{ pick?: boolean, timeoutMs?: number }} [options]
 */
async function loadModels({ pick = false, timeoutMs } = {}) {
  try {
    const url = el.baseUrl.value.trim();
    showModels(await listModels(modelsQuery(url, timeoutMs, keyFor(url))), pick);
    return null;
  } catch (error) {
    return error;
  }
}

/** The "Test connection" button, also offered on an error card. */
export async function testConnection() {
  if (!endpointAgreed()) return;
  const panel = $('#connect-panel');
  panel.open = true;
  el.result.replaceChildren(h('p', {}, t('connect.testing', { url: el.baseUrl.value })));
  el.result.scrollIntoView({ block: 'nearest' });
  const error = await loadModels({ timeoutMs: TEST_TIMEOUT_MS });
  el.result.replaceChildren(error
    ? doctor(t('connect.failed'), error.text ?? error.message, error.hint)
    : h('p', { class: 'ok' }, t('connect.ok', { count: el.models.childElementCount, url: el.baseUrl.value })));
}

/**
 * Asks the local presets for their models, all at once with a short timeout. The demo model
 * stays selected meanwhile, so the page works from the first second; the first server that
 * answers is selected unless the person has already chosen.
 */
async function probeLocal() {
  probed = null;
  renderProbe();
  const answers = await Promise.all(Object.entries(PRESETS).map(([id, url]) =>
    listModels(modelsQuery(url, PROBE_TIMEOUT_MS)).then((models) => ({ id, models }), () => null)));
  probed = answers.filter(Boolean);
  renderProbe();
  if (probed.length && !touched) {
    usePreset(probed[0].id, { chosen: false });
    showModels(probed[0].models, true);
  }
}

/**
 * On load: asks the local presets at once, or, on a page that is not on this computer (a
 * hosted copy), says what a local server needs and asks only when the person presses the
 * button: a public site calling localhost makes Chrome ask the person, which nobody expects
 * from opening a page.
 */
export function lookForServers() {
  hosted = hostedPage();
  if (!hosted) return probeLocal();
  $('#probe-local').addEventListener('click', () => probeLocal());
  renderProbe();
}

/** The probe's line, in the current language. */
export function renderProbe() {
  const note = $('#hosted-note');
  note.hidden = !hosted;
  if (hosted) $('#hosted-text').textContent = strings(lang()).say(hosted);
  if (probed === undefined) return;
  const names = (probed ?? []).map((f) => t('probe.models', { name: t(`preset.${f.id}`), count: f.models.length }));
  el.probe.textContent = !probed ? t('probe.running') : names.length ? t('probe.found', { list: names.join(', ') }) : t('probe.none');
}
