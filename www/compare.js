// Compare: one question (or a list) under two to four configurations at once, side by side.
// Each column is its own LiveRun and TraceView with Pause / Step / Continue / Stop; a summary
// under its heading; a list of questions adds a grid with each column's success count.
import { estimateTokens, gradeText, limits, version } from './pkg/reactloop.js';
import { TraceView, Replay } from './trace.js';
import { LiveRun } from './live.js';
import { $, h, formatMs, formatCount, download } from './dom.js';
import { t, lang as uiLang, errorText } from './i18n.js';
import { comparisonJson, COMPARISON, ComparisonPlayer } from './comparison.js';
import { TITLES } from './titles.js';
import { columnsParam, readColumns } from './share.js';

const MAX_COLUMNS = 4;
const CHOICES = {
  strategy: TITLES.strategy,
  server: ['current', 'demo', 'inpage'],
  plang: ['auto', 'en', 'zh'],
  constrained: TITLES.constrained,
};
// What a new column starts as: the ReAct paper's comparison first.
const DEFAULTS = [{ strategy: 'react' }, { strategy: 'act' }, { strategy: 'cot' }, { strategy: 'plan' }];

const el = {
  panel: $('#compare-panel'), configs: $('#compare-configs'), add: $('#compare-add'),
  questions: $('#compare-questions'), run: $('#compare-run'), out: $('#compare'),
  tabs: $('#compare-tabs'), columns: $('#compare-columns'), grid: $('#compare-grid'),
  exportJson: $('#compare-export-json'), exportPage: $('#compare-export-page'), exportProblem: $('#compare-export-problem'),
  name: $('#compare-name'), saveList: $('#compare-save-list'), openList: $('#compare-open-list'),
};
let askedName = false; // an export asks once for the name to put in the file

let deps = null; // {buildAgent(overrides), question(), inPage(): the in-page engine's settings, or null while no model is loaded}
let configs = [];
let columns = [];
let imported = null; // the ComparisonPlayer of an imported comparison on show

/**
 * `buildAgent(overrides)` builds an Agent from the page's settings; `question()` is the page's
 * question; `inPage()` gives the in-page engine's settings once a model is loaded, else null.
 */
export function initCompare(dependencies) {
  deps = dependencies;
  configs = [{ ...base(), ...DEFAULTS[0] }, { ...base(), ...DEFAULTS[1] }];
  el.add.addEventListener('click', () => {
    if (configs.length < MAX_COLUMNS) configs.push({ ...base(), ...DEFAULTS[configs.length] });
    renderConfigs();
  });
  el.run.addEventListener('click', start);
  el.exportJson.addEventListener('click', () => exportAs('json'));
  el.exportPage.addEventListener('click', () => exportAs('page'));
  // A list too long for a link travels as a text file, one question a line.
  el.saveList.addEventListener('click', () => download('questions.txt', el.questions.value, 'text/plain'));
  el.openList.addEventListener('change', async () => {
    const [file] = el.openList.files;
    el.openList.value = '';
    // A list is text; one larger than a trace may be is no list of questions.
    if (file && file.size <= limits().traceBytes) el.questions.value = await file.text();
  });
  renderConfigs();
}

/** Whether a column's run is on (running or paused): the in-page engine holds its prompt cache. */
export const comparing = () => columns.some((c) => c.live?.busy || c.live?.waiting);

/** The exercise for a permalink: the question list and the columns, or nothing without a list. */
export function compareLinkParams() {
  const list = el.questions.value.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
  return list ? { compare: list, columns: columnsParam(configs) } : {};
}

/**
 * Opens Compare as a link set it: its question list and columns (not run: a class starts from
 * the same page, each person presses Compare). Returns the values it did not know.
 */
export function openCompareLink({ compare, columns }) {
  if (compare) el.questions.value = compare;
  let unknown = [];
  if (columns) {
    const read = readColumns(columns, CHOICES, DEFAULTS.map((d) => ({ ...base(), ...d })), MAX_COLUMNS);
    if (read.configs.length >= 2) configs = read.configs;
    unknown = read.unknown;
    renderConfigs();
  }
  el.panel.open = true;
  return unknown;
}

/**
 * The comparison as a file: the questions every column has finished, each column's runs as
 * traces (JSON for <react-loop trace-src>, or one HTML page that replays them side by side).
 */
async function exportAs(kind) {
  el.exportProblem.textContent = '';
  const ended = columns.map((c) => c.endedRuns());
  const count = Math.min(...ended.map((agents) => agents.length));
  if (!columns.length || !count) {
    el.exportProblem.textContent = t('compare.nothingToExport');
    return;
  }
  const each = (read) => columns.map((c, i) => ({ label: c.label(), runs: ended[i].slice(0, count).map(read) }));
  const name = el.name.value.trim();
  if (kind === 'json' && !name && !askedName) {
    askedName = true;
    el.exportProblem.textContent = t('compare.askName');
    return el.name.focus();
  }
  try {
    if (kind === 'json') {
      const list = columns[0].list.slice(0, count);
      const questions = list.length ? list : null;
      return download('reactloop-comparison.json', comparisonJson(each((a) => a.exportTrace()), `reactloop ${version()}`, { name, questions }), 'application/json');
    }
    const { exportPage } = await import('./export-page.js');
    const record = { kind: COMPARISON, columns: each((a) => a.trace()) };
    download('reactloop-comparison.html', await exportPage(record, { lang: uiLang() }), 'text/html');
  } catch (error) {
    el.exportProblem.textContent = t('share.exportPageFailed', { message: error.message });
  }
}

const base = () => ({ strategy: 'react', server: 'current', plang: 'auto', constrained: 'auto' });

/** Redraws what depends on the interface language. */
export function rerenderCompare() {
  renderConfigs();
  imported?.rerender();
  for (const column of columns) column.rerender();
  renderGrid();
}

function renderConfigs() {
  el.configs.replaceChildren(...configs.map((config, i) => h('fieldset', { class: 'compare-config' },
    h('legend', {}, t('compare.column', { n: i + 1 })),
    Object.keys(CHOICES).map((key) => {
      const id = `compare-${i}-${key}`;
      return h('div', { class: 'field' },
        h('label', { for: id }, t(`compare.${key}`)),
        h('select', { id, 'data-testid': `compare-${key}`, onchange: (e) => { config[key] = e.target.value; } },
          CHOICES[key].map((value) => h('option', { value, selected: config[key] === value }, t(`compare.${key}.${value}`)))));
    }),
    configs.length > 2 ? h('button', { type: 'button', class: 'link', onclick: () => { configs.splice(i, 1); renderConfigs(); } }, t('compare.remove')) : null)));
  el.add.hidden = configs.length >= MAX_COLUMNS;
}

/** The questions to run: the list's lines (`question => expected`), or the page's question. */
function questions() {
  const lines = el.questions.value.split('\n').map((l) => l.trim()).filter(Boolean);
  const list = lines.length ? lines : [deps.question().trim()].filter(Boolean);
  return list.map((line) => {
    const [question, expected] = line.split('=>').map((s) => s.trim());
    return { question, expected: expected || null };
  });
}

/**
 * "Fork from here" on a step card of the playground's run: an editor for that step's reply or
 * Observation, then the original and the fork side by side, folded to the step where they part.
 */
export function openFork(original, step) {
  el.out.hidden = false;
  const parts = ['reply', ...(step.call && step.observation ? ['observation'] : [])];
  const text = (part) => (part === 'reply' ? step.reply?.text ?? '' : step.observation?.text ?? '');
  const box = h('textarea', { id: 'fork-text', rows: 5, spellcheck: 'false', 'data-testid': 'fork-text' }, text('reply'));
  let part = 'reply';
  const choose = (value) => { part = value; box.value = text(value); };
  const editor = h('form', { class: 'fork-editor', 'data-testid': 'fork-editor', onsubmit: (e) => { e.preventDefault(); runFork(original, step, part, box.value); } },
    h('h3', {}, t('fork.title', { n: step.index })),
    h('fieldset', {}, h('legend', {}, t('fork.part')),
      parts.map((value) => h('label', { class: 'check' },
        h('input', { type: 'radio', name: 'fork-part', value, checked: value === 'reply', 'data-testid': `fork-part-${value}`, onchange: () => choose(value) }),
        ' ', t(`fork.part.${value}`)))),
    h('label', { for: 'fork-text' }, t('fork.text')), box,
    h('div', { class: 'controls' },
      h('button', { type: 'submit', class: 'primary', 'data-testid': 'fork-run' }, t('fork.run')),
      h('button', { type: 'button', onclick: () => editor.remove() }, t('fork.cancel'))));
  el.out.querySelector('.fork-editor')?.remove();
  el.tabs.before(editor);
  editor.scrollIntoView({ block: 'nearest' });
  box.focus();
}

function runFork(original, step, part, text) {
  el.out.querySelector('.fork-editor')?.remove();
  let forked;
  try {
    forked = original.fork(step.index, part);
  } catch (error) {
    return el.grid.replaceChildren(h('caption', { class: 'problem' }, error.message));
  }
  clear();
  const titles = [t('fork.original'), t('fork.forked', { n: step.index })];
  columns = titles.map((title, i) => new Column(i, { title }, []));
  el.tabs.replaceChildren(...columns.map((c) => c.tab));
  el.columns.replaceChildren(...columns.map((c) => c.root));
  el.columns.style.setProperty('--columns', '2');
  for (const column of columns) column.attach();
  select(1);
  renderGrid();
  columns[0].adopt(original, { partAt: step.index });
  columns[1].adopt(forked, { partAt: step.index, edit: part === 'reply' ? { reply: text } : { observation: text } });
}

function start() {
  const list = questions();
  if (!list.length) return;
  clear();
  el.out.hidden = false;
  columns = configs.map((config, i) => new Column(i, { ...config }, list));
  el.tabs.replaceChildren(...columns.map((c) => c.tab));
  el.columns.replaceChildren(...columns.map((c) => c.root));
  for (const column of columns) column.attach();
  el.columns.style.setProperty('--columns', String(columns.length));
  select(0);
  renderGrid();
  for (const column of columns) column.runAll();
}

/** The live columns stop, and an imported comparison stops playing, before others take their place. */
function clear() {
  for (const column of columns) column.stop();
  columns = [];
  imported?.pause();
  imported = null;
}

/**
 * An imported comparison (what Export comparison wrote): its columns replay side by side, at the
 * pace of an imported trace. Returns the player (play, pause, finish).
 */
export function openComparison(comparison) {
  clear();
  el.out.hidden = false;
  el.tabs.replaceChildren();
  el.grid.replaceChildren();
  el.exportProblem.textContent = '';
  let views = 0;
  imported = new ComparisonPlayer(el.columns, comparison, {
    makeView: (element) => new TraceView(element, { idPrefix: `compare-imported-${views++}-`, tokens: estimateTokens }),
    makeReplay: (run, view) => new Replay(run, view, { speed: Replay.browsingSpeed(run) }),
  });
  return imported;
}

/** On a narrow screen the columns are tabs: one shows at a time. */
function select(index) {
  columns.forEach((c, i) => {
    c.tab.setAttribute('aria-selected', String(i === index));
    c.tab.tabIndex = i === index ? 0 : -1;
    c.root.classList.toggle('selected', i === index);
  });
}

function onTabKey(event, index) {
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (!step) return;
  const next = (index + step + columns.length) % columns.length;
  select(next);
  columns[next].tab.focus();
}

class Column {
  constructor(index, config, list) {
    this.index = index;
    this.config = config;
    this.list = list;
    this.results = [];
    const id = `compare-col-${index}`;
    this.tab = h('button', { type: 'button', role: 'tab', id: `${id}-tab`, 'aria-controls': id, class: 'compare-tab',
      onclick: () => select(index), onkeydown: (e) => onTabKey(e, index) });
    this.heading = h('h3', { id: `${id}-title` });
    this.summary = h('p', { class: 'compare-summary', 'data-testid': 'compare-summary', 'aria-live': 'polite' });
    this.buttons = {
      pause: h('button', { type: 'button', 'data-testid': 'compare-pause', onclick: () => this.live?.pause() }),
      step: h('button', { type: 'button', 'data-testid': 'compare-step', onclick: () => this.go((live) => live.step()) }),
      cont: h('button', { type: 'button', 'data-testid': 'compare-continue', onclick: () => this.go() }),
      stop: h('button', { type: 'button', 'data-testid': 'compare-stop', onclick: () => this.stop() }),
    };
    this.traceEl = h('div');
    this.root = h('section', { class: 'compare-column', id, role: 'tabpanel', 'aria-labelledby': `${id}-title`, 'data-testid': 'compare-column' },
      this.heading, h('div', { class: 'controls' }, Object.values(this.buttons)), this.summary, this.traceEl);
    this.rerender();
  }

  /** Once in the document: a view adopts the document's trace stylesheet. */
  attach() {
    this.view = new TraceView(this.traceEl, { idPrefix: `${this.root.id}-`, tokens: estimateTokens });
    this.live = new LiveRun(this.view, {
      changed: () => this.refresh(),
      problem: (error) => { if (error) this.summary.textContent = errorText(error); },
    });
  }

  label() {
    const c = this.config;
    if (c.title) return c.title;
    return ['strategy', 'server', 'plang', 'constrained'].map((key) => t(`compare.${key}.${c[key]}`)).join(' · ');
  }

  rerender() {
    const label = `${this.index + 1}. ${this.label()}`;
    this.heading.textContent = label;
    this.tab.textContent = label;
    this.buttons.pause.textContent = t('run.pause');
    this.buttons.step.textContent = t('run.step');
    this.buttons.cont.textContent = t('run.continue');
    this.buttons.stop.textContent = t('run.stop');
    this.view?.rerender();
    this.showSummary();
    this.refresh();
  }

  overrides() {
    const c = this.config;
    return {
      strategy: c.strategy,
      ...(c.server === 'demo' ? { demo: true, inPage: false } : {}),
      // The engine runs one generation at a time: in-page columns take turns, each its own loop.
      ...(c.server === 'inpage' ? { ...deps.inPage(), demo: false } : {}),
      ...(c.plang === 'auto' ? { lang: uiLang() } : { lang: c.plang }),
      ...(c.constrained === 'auto' ? {} : { constrained: c.constrained }),
      template: undefined, // a template edited for one strategy is not every column's
    };
  }

  /** Runs the column's questions one after another; a paused run waits for Continue. */
  async runAll() {
    for (const [i, item] of this.list.entries()) {
      if (this.stopped) break;
      this.current = i;
      const result = await this.runOne(item.question);
      this.results[i] = { ...result, right: gradeText(result.answer, item.expected) };
      this.showSummary();
      renderGrid();
    }
  }

  runOne(question) {
    return new Promise((resolve) => {
      this.finished = resolve;
      this.started = performance.now();
      try {
        if (this.config.server === 'inpage' && !deps.inPage()) throw new Error(t('inpage.notLoaded'));
        this.live.start(deps.buildAgent(this.overrides()), question);
      } catch (error) {
        this.summary.textContent = errorText(error);
        return resolve({ answer: null, error: errorText(error) });
      }
      this.go();
    });
  }

  /** Runs on (or does `work` with the LiveRun) if the run waits; once it has ended, its result. */
  async go(work = (live) => live.run()) {
    if (!this.live.waiting) return;
    await work(this.live);
    if (this.live.pending?.type === 'done') this.done();
  }

  stop() {
    this.stopped = true;
    const waiting = this.live?.waiting;
    this.live?.stop();
    if (waiting) this.done();
  }

  done() {
    const trace = this.live.agent.trace();
    const steps = trace.steps;
    // The demo and some servers report no usage: their count is unknown, not 0.
    const usages = steps.map((s) => s.reply?.usage).filter((u) => u?.prompt_tokens != null || u?.completion_tokens != null);
    const tokens = usages.length ? usages.reduce((sum, u) => sum + (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0), 0) : null;
    const result = {
      answer: trace.outcome?.type === 'answer' ? trace.outcome.answer : null,
      outcome: trace.outcome?.type ?? 'aborted',
      steps: steps.length, tokens, ms: performance.now() - this.started, agent: this.live.agent,
    };
    const resolve = this.finished;
    this.finished = null;
    if (resolve) resolve(result);
    else {
      this.results[0] = { ...result, right: null };
      this.showSummary();
    }
  }

  /** Shows `agent`'s run so far; a live fork goes on from its `edit`, the original stays as it is. */
  async adopt(agent, { partAt, edit = null }) {
    this.started = performance.now();
    // The original stays as it is: its agent is the playground's, which this column never moves.
    this.live.show(agent, edit ? agent.pending() : { type: 'done' });
    this.view.foldBefore(partAt);
    if (!edit) {
      this.view.showEnd(agent.trace());
      return this.done();
    }
    await this.go((live) => live.step(edit));
    this.go();
  }

  /** The agents of the runs that have ended, from the first question on. */
  endedRuns() {
    const agents = [];
    for (const result of this.results) {
      if (!result?.agent) break; // not run yet, or it could not start
      agents.push(result.agent);
    }
    return agents;
  }

  showSummary() {
    const r = this.results[this.current ?? 0];
    if (!r) return;
    if (r.error) {
      this.summary.textContent = r.error;
      return;
    }
    const right = r.right == null ? '' : r.right ? ` ${t('compare.right')}` : ` ${t('compare.wrong')}`;
    const answer = r.answer ?? ended(r.outcome);
    const key = `compare.stats${r.steps === 1 ? '.one' : ''}${r.tokens == null ? '.untold' : ''}`;
    this.summary.textContent = `${answer}${right} · ${t(key, { steps: r.steps ?? 0, tokens: formatCount(r.tokens ?? 0), time: formatMs(r.ms ?? 0) })}`;
  }

  refresh() {
    const running = Boolean(this.live?.busy);
    const waiting = Boolean(this.live?.waiting);
    const enable = (button, on) => button.setAttribute('aria-disabled', String(!on));
    enable(this.buttons.pause, running);
    enable(this.buttons.step, waiting);
    enable(this.buttons.cont, waiting);
    enable(this.buttons.stop, running || waiting);
    this.root.dataset.state = running ? 'running' : waiting ? 'paused' : 'done';
  }
}

/** How a run without an answer ended, in brackets; "(not run)" when it never started. */
const ended = (outcome) => (outcome ? t('compare.outcome', { outcome: t(`outcome.${outcome}`) }) : t('compare.outcome.error'));

/** With more than one question: a row per question, a cell per column, and each column's count. */
function renderGrid() {
  const list = columns[0]?.list ?? [];
  if (list.length < 2) return el.grid.replaceChildren();
  const checked = list.some((q) => q.expected);
  el.grid.replaceChildren(
    h('caption', {}, t('compare.gridCaption')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('compare.question')), columns.map((c) => h('th', { scope: 'col' }, c.label())))),
    h('tbody', {}, list.map((item, i) => h('tr', {},
      h('th', { scope: 'row' }, item.question),
      columns.map((c) => {
        const r = c.results[i];
        const mark = !r ? '…' : r.right == null ? '' : r.right ? '✓ ' : '✗ ';
        return h('td', { class: r?.right === false ? 'wrong' : '' }, mark, r ? (r.answer ?? r.error ?? ended(r.outcome)) : '');
      })))),
    checked ? h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, t('compare.count')),
      columns.map((c) => h('td', { 'data-testid': 'compare-count' },
        t('compare.countOf', { right: c.results.filter((r) => r?.right).length, total: list.length }))))) : null);
}
