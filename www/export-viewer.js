// The viewer inside a page written by "Export page" (www/export-page.js). That page holds this
// module, the card renderer (trace.js) and its helpers inlined as one script, and the run as
// JSON; this draws the player's bar (Play, Step, Show all, Restart, the language) and replays
// the run with trace.js's Replay, so the cards, the X-ray and the prompt anatomy are the
// playground's own. Nothing here loads anything, and the run only ever becomes text (h()).
import { h } from './dom.js';
import { t, lang, setLang } from './i18n.js';

// The prompt anatomy's token counts, made by the exporting page's wasm: content → tokens.
const counts = new Map();

/**
 * trace.js's estimateTokens in an exported page, where there is no wasm (the bundler gives it
 * in place of ./pkg/reactloop.js): the count made at export, else about 4 characters a token.
 */
export const estimateTokens = (text) => counts.get(text) ?? Math.ceil(text.length / 4);

/**
 * Shows the exported run `{lang, trace, tokens}` in `root`, ready to play; `TraceView` and
 * `Replay` are trace.js's (passed in: trace.js imports this module's estimateTokens).
 */
export function showExport(root, { lang: wanted, trace, tokens = [] }, { TraceView, Replay }) {
  trace.steps.forEach((step, i) => step.request?.messages.forEach((m, j) => {
    if (tokens[i]?.[j] != null) counts.set(m.content, tokens[i][j]);
  }));
  const button = (key, action, className = '') =>
    h('button', { type: 'button', class: className, 'data-i18n': key, onclick: action });
  let replay = null;
  const ui = {
    play: button('share.page.play', () => (replay.playing ? replay.pause() : replay.play()), 'primary'),
    step: button('run.step', () => replay.step()),
    all: button('share.page.all', () => replay.finish()),
    restart: button('share.page.restart', () => replay.restart()),
    lang: h('select', { 'data-i18n-title': 'lang.label', onchange: () => switchLang(ui.lang.value) },
      h('option', { value: 'en' }, 'English'), h('option', { value: 'zh' }, '中文')),
    trace: h('div', { class: 'trace' }),
  };
  ui.play.dataset.testid = 'play';
  ui.step.dataset.testid = 'step';
  const placeholder = h('div', { class: 'placeholder' },
    button('share.page.play', () => replay.play(), 'primary big'),
    h('p', { 'data-i18n': 'share.page.start' }));
  root.replaceChildren(h('div', { class: 'frame', 'data-mode': 'replay' },
    h('div', { class: 'bar' },
      h('span', { class: 'mode', 'data-i18n': 'share.page.recording' }),
      h('span', { class: 'brand' }, 'reactloop'),
      h('span', { class: 'buttons' }, ui.lang, ui.play, ui.step, ui.all, ui.restart)),
    h('p', { class: 'note', 'data-i18n': 'share.page.note' }),
    h('div', { class: 'scroll' }, ui.trace)));

  const view = new TraceView(ui.trace, { canRetry: () => false, retry() {}, testConnection() {} });
  const changed = () => {
    if (!replay) return;
    ui.play.dataset.i18n = replay.playing ? 'share.page.pause' : 'share.page.play';
    ui.play.textContent = t(ui.play.dataset.i18n);
    ui.step.disabled = ui.all.disabled = replay.done;
  };
  // At most 0.7 s a step, and the whole run in about 12 s however many steps it has (as the
  // playground replays an imported trace).
  const speed = Replay.speedFor(trace, Math.min(12_000, 700 * Math.max(1, trace.steps.length)));
  replay = new Replay(trace, view, { speed, changed, placeholder });

  function switchLang(next) {
    const waiting = placeholder.isConnected;
    setLang(next); // fills every data-i18n of the page in the new language
    document.title = `${trace.question} · reactloop`;
    view.rerender();
    if (waiting) view.end.replaceChildren(placeholder);
    changed();
  }
  switchLang(wanted);
  ui.lang.value = lang();
}
