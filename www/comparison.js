// A comparison as one file, and its player. Compare and "Fork from here" write it; the
// playground's import, <react-loop trace-src> and "Export page" show it:
//   {"kind": "reactloop-comparison", "version": 1, "generator": "reactloop 0.2.0",
//    "columns": [{"label": "ReAct · Demo model · …", "runs": [<trace>, …]}, …]}
// Each run is a trace in the trace format (docs/trace-format.md), the n-th run of every column
// answering the same question. Labels are shown as text, and every trace goes through the
// reader of a single recorded run (www/recording.js).
import { h } from './dom.js';
import { t as pageT, errorText } from './i18n.js';

export const COMPARISON = 'reactloop-comparison';
const MAX_COLUMNS = 4;

/**
 * The file of `columns`: [{label, runs: [trace JSON text as exportTrace writes it]}];
 * `generator` names what wrote it, as each trace does; `name`, who ran it (a student's name
 * for a class's scoreboard), and `questions`, the list with its expected answers
 * ([{question, expected}]), when there are.
 */
export function comparisonJson(columns, generator, { name = '', questions = null } = {}) {
  return JSON.stringify({
    kind: COMPARISON,
    version: 1,
    generator,
    ...(name ? { name } : {}),
    ...(questions ? { questions } : {}),
    columns: columns.map(({ label, runs }) => ({ label, runs: runs.map((text) => JSON.parse(text)) })),
  }, null, 1);
}

/**
 * The comparison in the parsed file `value`, each run read by `readRun(run)` (which throws on a
 * bad trace), or null when `value` is not a comparison (a single run: the caller reads it as
 * one). Throws with the column and run that are wrong, in the language of `t`.
 */
export function readComparison(value, readRun, t = pageT) {
  if (value?.kind !== COMPARISON) return null;
  const columns = value.columns;
  if (!Array.isArray(columns) || columns.length < 1 || columns.length > MAX_COLUMNS) throw new Error(t('comparison.columns', { max: MAX_COLUMNS }));
  const runs = columns[0]?.runs?.length;
  const read = columns.map((column, i) => {
    if (!Array.isArray(column?.runs) || !column.runs.length || column.runs.length !== runs) throw new Error(t('comparison.runs', { n: i + 1 }));
    return {
      label: typeof column.label === 'string' ? column.label : '',
      runs: column.runs.map((run, j) => {
        try {
          return readRun(run);
        } catch (error) {
          throw new Error(t('comparison.badRun', { n: i + 1, run: j + 1, message: errorText(error) }));
        }
      }),
    };
  });
  return { kind: COMPARISON, columns: read, question: read[0].runs[0].question };
}

/**
 * A comparison's columns side by side in `root`, each replaying its run of the question on show
 * (a select picks the question when there are several). `makeView(element)` gives a TraceView
 * over a column; `makeReplay(trace, view, first)` its Replay (`first`: the column that holds
 * the big Play button). Play, Step, Restart and Show all move every column.
 */
export class ComparisonPlayer {
  /**
   * @param {HTMLElement} root
   * @param {{ columns: { label: string, runs: import('./pkg/reactloop.js').Trace[] }[] }} comparison
   * @param {{
   *   makeView: (element: HTMLElement) => import('./trace.js').TraceView,
   *   makeReplay: (trace: import('./pkg/reactloop.js').Trace, view: import('./trace.js').TraceView, first: boolean) => import('./trace.js').Replay,
   *   t?: (key: string, vars?: object) => string,
   * }} options
   */
  constructor(root, comparison, { makeView, makeReplay, t = pageT }) {
    this.root = root;
    this.comparison = comparison;
    this.makeView = makeView;
    this.makeReplay = makeReplay;
    this.t = t;
    /** @type {import('./trace.js').TraceView[]} */
    this.views = [];
    /** @type {import('./trace.js').Replay[]} */
    this.replays = [];
    this.shown = 0;
    this.show(0);
  }

  show(n) {
    for (const replay of this.replays) replay.pause();
    this.shown = n;
    const { columns } = this.comparison;
    const bodies = columns.map(() => h('div', { class: 'trace' }));
    const count = columns[0].runs.length;
    const picker = count < 2 ? null : h('p', { class: 'pick' },
      h('select', { 'aria-label': this.t('comparison.question'), 'data-testid': 'comparison-question', onchange: (e) => this.show(Number(e.target.value)) },
        columns[0].runs.map((run, i) => h('option', { value: i, selected: i === n }, `${i + 1}. ${run.question}`))));
    this.root.replaceChildren(picker ?? '', h('div', { class: 'columns' }, columns.map((column, i) =>
      h('section', { class: 'column', 'data-testid': 'comparison-column' }, h('h3', {}, column.label), bodies[i]))));
    this.views = bodies.map((body) => this.makeView(body));
    this.replays = columns.map((column, i) => this.makeReplay(column.runs[n], this.views[i], i === 0));
  }

  get playing() { return this.replays.some((r) => r.playing); }

  get done() { return this.replays.every((r) => r.done); }

  /** Plays the columns still running (all of them again once every one is done). */
  play() {
    const again = this.done;
    return Promise.all(this.replays.filter((r) => again || !r.done).map((r) => r.play()));
  }

  pause() { for (const r of this.replays) r.pause(); }

  step() { for (const r of this.replays) if (!r.done) r.step(); }

  finish() { for (const r of this.replays) r.finish(); }

  restart() { for (const r of this.replays) r.restart(); }

  rerender() { for (const view of this.views) view.rerender(); }
}
