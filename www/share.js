// Keep and share: a trace as Markdown, and the permalink that restores a setup from the URL.
// Pure (no wasm import), so Node tests it: the page passes the core's settingsKeys().
export { traceToMarkdown } from './markdown.js';

// The page's own parameters: who answers (a link's endpoint or model is only shown until the
// person agrees), the question, the interface language and whether to run at once.
// A class's exercise: Compare's question list and its columns.
const PAGE_PARAMS = ['model-src', 'endpoint', 'model', 'question', 'lang', 'demo', 'autorun', 'compare', 'columns'];
/** Longer than this, a link is cut by chat apps and mail: the exercise travels as a file. */
export const MAX_LINK = 2000;
/** What a Compare column is set by, in a link's `columns` (each column's values joined by `.`). */
export const COLUMN_KEYS = ['strategy', 'server', 'plang', 'constrained'];

/** Compare's columns as a link's `columns` parameter: `react.current.auto.auto,act.demo.zh.grammar`. */
export function columnsParam(configs) {
  return configs.map((c) => COLUMN_KEYS.map((k) => c[k]).join('.')).join(',');
}

/**
 * Compare's columns from a link's `columns`, each value one of `choices[key]` (else the
 * column's default, and the value goes to `unknown`); at most `max` columns.
 */
export function readColumns(text, choices, defaults, max) {
  const unknown = [];
  const configs = String(text ?? '').split(',').filter(Boolean).slice(0, max).map((column, i) => {
    const values = column.split('.');
    return Object.fromEntries(COLUMN_KEYS.map((key, j) => {
      const value = values[j];
      if (choices[key].includes(value)) return [key, value];
      if (value !== undefined) unknown.push(value);
      return [key, defaults[i % defaults.length][key]];
    }));
  });
  return { configs, unknown };
}

// Settings of a run that a link does not carry as settings: the API key never travels; who
// answers travels as the page parameters above; the demo's typing pace is the page's own.
// JavaScript tools are no setting: a link that runs code in this page could read a remembered key.
export const NOT_CARRIED = ['apiKey', 'baseUrl', 'model', 'demo', 'inPage', 'demoDelayMs'];

// Settings whose parameter has the name links gave it before every setting travelled.
const NAMES = { lang: 'plang', fewShot: 'fewshot' };
const paramOf = (key) => NAMES[key] ?? key;

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The link's parameters for `settings` (the settings object of a run, camelCase): each key of
 * `keys` that a link carries and whose value differs from `defaults`, so a link stays short.
 * Text goes as it is, anything else as JSON.
 */
export function settingsParams(settings, defaults, keys) {
  const params = new URLSearchParams();
  for (const key of keys) {
    const value = settings[key];
    if (NOT_CARRIED.includes(key) || value === undefined || same(value, defaults[key])) continue;
    params.set(paramOf(key), typeof value === 'string' ? value : JSON.stringify(value));
  }
  return params;
}

/**
 * The settings a link carries, read back as `settingsParams` wrote them: a key whose default is
 * text (or unset) is text, any other is JSON. A damaged value is left out, the rest still apply.
 */
export function linkSettings(search, defaults, keys) {
  const params = new URLSearchParams(search);
  const settings = {};
  for (const key of keys) {
    const text = params.get(paramOf(key));
    if (text === null || NOT_CARRIED.includes(key)) continue;
    const kind = typeof defaults[key];
    if (kind === 'string' || kind === 'undefined') settings[key] = text;
    else {
      try {
        const value = JSON.parse(text);
        if (typeof value === kind && Array.isArray(value) === Array.isArray(defaults[key])) settings[key] = value;
      } catch { /* a damaged link loses this setting, nothing else */ }
    }
  }
  return settings;
}

/** The page's own URL parameters, as an object of strings. */
export function readParams(search = location.search) {
  const params = new URLSearchParams(search);
  return Object.fromEntries(PAGE_PARAMS.filter((p) => params.has(p)).map((p) => [p, params.get(p)]));
}

/** A permalink: the page parameters in `page` that are set, then the settings' parameters. */
export function permalink(page, settings) {
  const params = new URLSearchParams();
  for (const key of PAGE_PARAMS) {
    const value = page[key];
    if (value != null && value !== '') params.set(key, value);
  }
  for (const [key, value] of settings) params.set(key, value);
  return `${location.origin}${location.pathname}?${params}`;
}
