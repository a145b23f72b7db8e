// The viewer inside a page written by "Export page" (www/export-page.js). That page holds this
// module, the card renderer (trace.js) and its helpers inlined as one script, and the run as
// JSON; this draws the player's bar (Play, Step, Show all, Restart, the language) and replays
// the run with trace.js's Replay, so the cards, the X-ray and the prompt anatomy are the
// playground's own. Nothing here loads anything, and the run only ever becomes text (h()).
import { h } from './dom.js';
import { t, lang, setLang } from './i18n.js';
import { ComparisonPlayer } from './comparison.js';

// The prompt anatomy's token counts, made by the exporting page's wasm: content → tokens.
const counts = new Map();

/** The prompt anatomy's token estimate in an exported page, where there is no wasm: the count made at export, else about 4 characters a token. */
const estimateTokens = (text) => counts.get(text) ?? Math.ceil(text.length / 4);

/**
 * Shows the exported run `{lang, trace, tokens}` (or comparison `{lang, comparison, tokens}`:
 * its columns side by side) in `root`, ready to play, with trace.js's `TraceView` and `Replay`.
 */
export function showExport(root, { lang: wanted, trace, comparison = null, tokens = [] }, { TraceView, Replay }) {
  const traces = comparison ? comparison.columns.flatMap((c) => c.runs) : [trace];
  const perTrace = comparison ? tokens.flat() : [tokens];
  traces.forEach((run, k) => run.steps.forEach((step, i) => step.request?.messages.forEach((m, j) => {
    const count = perTrace[k]?.[i]?.[j];
    if (count != null) counts.set(m.content, count);
  })));
  const button = (key, action, className = '') =>
    h('button', { type: 'button', class: className, 'data-i18n': key, onclick: action });
  let player = null;
  const ui = {
    play: button('share.page.play', () => (player.playing ? player.pause() : player.play()), 'primary'),
    step: button('run.step', () => player.step()),
    all: button('share.page.all', () => player.finish()),
    restart: button('share.page.restart', () => player.restart()),
    lang: h('select', { 'data-i18n-title': 'lang.label', onchange: () => switchLang(ui.lang.value) },
      h('option', { value: 'en' }, 'English'), h('option', { value: 'zh' }, '中文')),
    trace: h('div', { class: 'trace' }),
  };
  ui.play.dataset.testid = 'play';
  ui.step.dataset.testid = 'step';
  const placeholder = h('div', { class: 'placeholder' },
    button('share.page.play', () => player.play(), 'primary big'),
    h('p', { 'data-i18n': 'share.page.start' }));
  root.replaceChildren(h('div', { class: 'frame', 'data-mode': 'replay' },
    h('div', { class: 'bar' },
      h('span', { class: 'mode', 'data-i18n': 'share.page.recording' }),
      h('span', { class: 'brand' }, 'reactloop'),
      h('span', { class: 'buttons' }, ui.lang, ui.play, ui.step, ui.all, ui.restart)),
    h('p', { class: 'note', 'data-i18n': comparison ? 'share.page.noteComparison' : 'share.page.note' }),
    h('div', { class: 'scroll' }, ui.trace)));

  const changed = () => {
    if (!player) return;
    ui.play.dataset.i18n = player.playing ? 'share.page.pause' : 'share.page.play';
    ui.play.textContent = t(ui.play.dataset.i18n);
    ui.step.disabled = ui.all.disabled = player.done;
  };
  const makeView = (element) => new TraceView(element, { tokens: estimateTokens });
  // At the pace the playground replays an imported trace.
  const makeReplay = (run, view, first) => new Replay(run, view, {
    speed: Replay.browsingSpeed(run), changed, placeholder: first ? placeholder : null,
  });
  let views;
  if (comparison) {
    player = new ComparisonPlayer(ui.trace, comparison, { makeView, makeReplay });
    views = () => player.views;
  } else {
    const view = makeView(ui.trace);
    player = makeReplay(trace, view, true);
    views = () => [view];
  }
  changed();

  function switchLang(next) {
    const waiting = placeholder.isConnected;
    setLang(next); // fills every data-i18n of the page in the new language
    document.title = `${traces[0].question} · reactloop`;
    for (const view of views()) view.rerender();
    if (waiting) views()[0].end.replaceChildren(placeholder);
    changed();
  }
  switchLang(wanted);
  ui.lang.value = lang();
}
