// Keep and share: a trace as Markdown, and the permalink that restores a setup from the URL.
export { traceToMarkdown } from './markdown.js';

// What a permalink carries. Never the API key, and never a JavaScript tool: a link that runs
// code in this page could read a remembered key.
const PARAMS = ['model-src', 'endpoint', 'model', 'question', 'lang', 'demo', 'autorun', 'tools', 'strategy', 'plang', 'template', 'fewshot'];

/** The URL parameters this page understands, as an object of strings. */
export function readParams(search = location.search) {
  const params = new URLSearchParams(search);
  return Object.fromEntries(PARAMS.filter((p) => params.has(p)).map((p) => [p, params.get(p)]));
}

/** A permalink for `state` (only the keys in PARAMS that are set). */
export function permalink(state) {
  const params = new URLSearchParams();
  for (const key of PARAMS) {
    const value = state[key];
    if (value != null && value !== '') params.set(key, value);
  }
  return `${location.origin}${location.pathname}?${params}`;
}
