// Small DOM helpers. Data only ever becomes text nodes: `append` turns strings into Text
// nodes, so model output, observations and imported traces can never become markup.
import { t as pageT } from './i18n.js';

/** h('p', {class: 'x', onclick: f}, 'text', child) → element. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  el.append(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Selects `value` in a select that offers it; a value from a link that it does not offer is ignored. */
export function choose(select, value) {
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

// How much of a long text is shown at first, and how much each "show more" adds: a 1 MB
// observation must not become one huge layout on every render.
const FIRST = 2_000;
const MORE = 50_000;

/** A <pre> with at most `first` characters shown, and buttons for the rest (labelled by `t`). */
export function cappedText(text, { first = FIRST, className = '', t = pageT } = {}) {
  const shown = document.createTextNode('');
  const pre = h('pre', { class: `text ${className}` }, shown);
  const more = h('button', { type: 'button', class: 'link' });
  const all = h('button', { type: 'button', class: 'link' }, t('showAll'));
  const controls = h('p', { class: 'more' }, more, ' ', all);
  const show = (count) => {
    const end = Math.min(text.length, count);
    shown.data = text.slice(0, end) + (end < text.length ? ' …' : '');
    controls.hidden = end >= text.length;
    if (controls.hidden) return;
    more.textContent = t('showMore', { count: formatCount(text.length - end) });
    more.onclick = () => show(end + MORE);
  };
  all.onclick = () => show(text.length);
  show(first);
  return h('div', { class: 'capped' }, pre, controls);
}

/** A <details> whose body is built only when first opened (the X-ray, the prompt anatomy). */
export function lazyDetails(summary, build, { className = '', open = false } = {}) {
  const details = h('details', { class: className }, h('summary', {}, summary));
  const fill = () => {
    if (details.open && details.childElementCount === 1) details.append(build());
  };
  details.addEventListener('toggle', fill);
  details.open = open;
  fill();
  return details;
}

/** Offers `text` as a file download. */
export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// One formatter: Number.toLocaleString builds a new one on every call (a millisecond each).
const COUNT = new Intl.NumberFormat();

/** A count as the reader's locale writes it ("1,234"). */
export const formatCount = (n) => COUNT.format(n);

/** Bytes as decimal megabytes, one decimal, rounded up, as the size limits' messages give them. */
export const megabytes = (bytes) => String(Math.ceil(bytes / 1e5) / 10);

/** "12.3 s" / "850 ms" (`t`: in a view's language). */
export function formatMs(ms, t = pageT) {
  return ms >= 1000 ? t('card.s', { s: (ms / 1000).toFixed(1) }) : t('card.ms', { ms: Math.round(ms) });
}
