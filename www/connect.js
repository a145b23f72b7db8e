// The Connect panel: server presets (and the demo model), the model list, the API key, the
// local-server probe on load and the connection doctor's "Test connection".
import { listModels } from './pkg/reactloop.js';
import { $, h } from './dom.js';
import { t } from './i18n.js';
import { doctor } from './trace.js';

const PRESETS = {
  ollama: 'http://localhost:11434/v1',
  llamacpp: 'http://localhost:8080/v1',
  lmstudio: 'http://localhost:1234/v1',
};
const PROBE_TIMEOUT_MS = 1500;
// A model list comes back at once, unless the server is busy generating for someone.
const TEST_TIMEOUT_MS = 15_000;
const KEY_STORE = 'reactloop.apiKey';

const el = {
  preset: $('#preset'), baseUrl: $('#base-url'), model: $('#model'), models: $('#model-list'),
  apiKey: $('#api-key'), remember: $('#remember-key'), temperature: $('#temperature'),
  maxTokens: $('#max-tokens'), stream: $('#stream'), constrained: $('#constrained'),
  server: $('#server-fields'), demoNote: $('#demo-note'), probe: $('#probe-status'),
  test: $('#test-connection'), result: $('#connect-result'),
};
// Set once the person picks a server, so a late probe result never overrides their choice.
let touched = false;
let probed; // the presets that answered the probe; null while it runs, undefined if never run

export function initConnect() {
  const saved = localStorage.getItem(KEY_STORE);
  if (saved) {
    el.apiKey.value = saved;
    el.remember.checked = true;
  }
  el.preset.addEventListener('change', () => {
    touched = true;
    usePreset(el.preset.value);
    if (PRESETS[el.preset.value]) loadModels({ pick: true });
  });
  el.baseUrl.addEventListener('input', () => {
    touched = true;
    el.preset.value = presetOf(el.baseUrl.value);
  });
  el.apiKey.addEventListener('input', rememberKey);
  el.remember.addEventListener('change', rememberKey);
  el.test.addEventListener('click', testConnection);
  usePreset('demo');
}

function rememberKey() {
  if (el.remember.checked && el.apiKey.value) localStorage.setItem(KEY_STORE, el.apiKey.value);
  else localStorage.removeItem(KEY_STORE);
}

function presetOf(url) {
  const found = Object.entries(PRESETS).find(([, u]) => u === url.trim().replace(/\/+$/, ''));
  return found ? found[0] : 'custom';
}

function usePreset(id) {
  el.preset.value = id;
  if (PRESETS[id]) el.baseUrl.value = PRESETS[id];
  const demo = id === 'demo';
  el.server.hidden = demo;
  el.demoNote.hidden = !demo;
  el.result.replaceChildren();
}

/** Points the page at `url` (from a permalink), or at the demo model. */
export function setEndpoint(url, model) {
  touched = true;
  if (!url) return usePreset('demo');
  el.baseUrl.value = url;
  usePreset(presetOf(url));
  if (model) el.model.value = model;
  loadModels({ pick: !model });
}

/** A run started: from now on the probe must not switch servers under the person. */
export const keepChoice = () => { touched = true; };

/** The connection part of the Agent settings. */
export function connectSettings() {
  const number = (input) => (input.value === '' ? undefined : Number(input.value));
  return {
    demo: el.preset.value === 'demo',
    baseUrl: el.baseUrl.value.trim(),
    apiKey: el.apiKey.value || undefined,
    model: el.model.value.trim(),
    temperature: number(el.temperature),
    maxTokens: number(el.maxTokens),
    stream: el.stream.checked,
    constrained: el.constrained.value,
  };
}

function modelsQuery(baseUrl, timeoutMs) {
  return { baseUrl, apiKey: el.apiKey.value || undefined, timeoutMs };
}

/** Offers the server's models; `pick` selects the first unless the model is one of them. */
function showModels(models, pick) {
  el.models.replaceChildren(...models.map((m) => h('option', { value: m })));
  if (pick && models.length && !models.includes(el.model.value.trim())) el.model.value = models[0];
}

/** Fills the model list and resolves to null, or to the error (shown only when asked for). */
async function loadModels({ pick = false, timeoutMs } = {}) {
  try {
    showModels(await listModels(modelsQuery(el.baseUrl.value.trim(), timeoutMs)), pick);
    return null;
  } catch (error) {
    return error;
  }
}

/** The "Test connection" button, also offered on an error card. */
export async function testConnection() {
  const panel = $('#connect-panel');
  panel.open = true;
  el.result.replaceChildren(h('p', {}, t('connect.testing', { url: el.baseUrl.value })));
  el.result.scrollIntoView({ block: 'nearest' });
  const error = await loadModels({ timeoutMs: TEST_TIMEOUT_MS });
  el.result.replaceChildren(error
    ? doctor(t('connect.failed'), error.message, error.hint)
    : h('p', { class: 'ok' }, t('connect.ok', { count: el.models.childElementCount, url: el.baseUrl.value })));
}

/**
 * Asks the local presets for their models, all at once with a short timeout. The demo model
 * stays selected meanwhile, so the page works from the first second; the first server that
 * answers is selected unless the person has already chosen.
 */
export async function probeLocal() {
  probed = null;
  renderProbe();
  const answers = await Promise.all(Object.entries(PRESETS).map(([id, url]) =>
    listModels(modelsQuery(url, PROBE_TIMEOUT_MS)).then((models) => ({ id, models }), () => null)));
  probed = answers.filter(Boolean);
  renderProbe();
  if (probed.length && !touched) {
    usePreset(probed[0].id);
    showModels(probed[0].models, true);
  }
}

/** The probe's line, in the current language. */
export function renderProbe() {
  if (probed === undefined) return;
  const names = (probed ?? []).map((f) => t('probe.models', { name: t(`preset.${f.id}`), count: f.models.length }));
  el.probe.textContent = !probed ? t('probe.running') : names.length ? t('probe.found', { list: names.join(', ') }) : t('probe.none');
}
