// Scoreboard: a class's exported comparisons and traces in one table, questions down and each
// file's configurations across, graded by the core against the list's expected answers. A cell
// opens that run's cards beside the table; the table exports as one HTML page with no script.
// Reading the files is www/scoreboard-read.js's.
import { gradeText, limits, loadTrace, version } from './pkg/reactloop.js';
import { TraceView } from './trace.js';
import { $, h, download, formatCount, megabytes } from './dom.js';
import { t, lang as uiLang, strings } from './i18n.js';
import { readComparison } from './comparison.js';
import { readScoreboard, counts, rank } from './scoreboard-read.js';

const el = {
  files: $('#scoreboard-files'), folder: $('#scoreboard-folder'), drop: $('#scoreboard-drop'),
  problems: $('#scoreboard-problems'), table: $('#scoreboard-table'), run: $('#scoreboard-run'),
  exportPage: $('#scoreboard-export'),
};

let board = null; // what readScoreboard gave
let order = { rows: [], columns: [] }; // question and column indices as shown
let sorted = null; // {by: 'column' | 'question', index, down}
let opened = null; // [column, question] of the run on show

export function initScoreboard() {
  const read = (list) => load([...list].filter((f) => /\.json$/i.test(f.name) || f.type === 'application/json'));
  el.files.addEventListener('change', () => read(el.files.files));
  el.folder.addEventListener('change', () => read(el.folder.files));
  el.drop.addEventListener('dragover', (e) => { e.preventDefault(); el.drop.classList.add('over'); });
  el.drop.addEventListener('dragleave', () => el.drop.classList.remove('over'));
  el.drop.addEventListener('drop', (e) => {
    e.preventDefault();
    el.drop.classList.remove('over');
    read(e.dataTransfer?.files ?? []);
  });
  el.exportPage.addEventListener('click', exportPage);
}

/** Reads `files` (File objects) into the board; each one that cannot join is said. */
async function load(files) {
  const { traceBytes } = limits();
  const name = (file) => file.webkitRelativePath || file.name;
  // Checked before reading: file.text() would hold all of a huge file first.
  const large = files.filter((f) => f.size > traceBytes);
  const texts = await Promise.all(files.filter((f) => f.size <= traceBytes).map(async (file) => ({ name: name(file), text: await file.text() })));
  const readFile = (text) => {
    const value = JSON.parse(text);
    return readComparison(value, (run) => loadTrace(JSON.stringify(run))) ?? loadTrace(text);
  };
  board = readScoreboard(texts, { load: readFile, grade: gradeText });
  board.problems.push(...large.map((f) => ({ file: name(f), kind: 'damaged', detail: t('share.tooLarge', { size: megabytes(f.size), limit: megabytes(traceBytes) }) })));
  order = { rows: board.questions.map((_, i) => i), columns: board.columns.map((_, i) => i) };
  sorted = null;
  opened = null;
  render();
}

/** Redraws in the interface's language. */
export function rerenderScoreboard() {
  if (board) render();
}

function render() {
  el.problems.replaceChildren(...board.problems.map((p) => h('li', {}, t(`scoreboard.${p.kind}`, { file: p.file, detail: p.detail }))));
  el.table.replaceChildren(...table({ interactive: true }));
  el.exportPage.hidden = !board.columns.length;
  showRun();
}

/** A cell's text: right, wrong, answered (nothing expected) or no answer, then steps and tokens. */
function cellText(cell) {
  if (!cell) return t('scoreboard.notRun');
  const mark = !cell.answered ? t('scoreboard.none') : cell.right ? t('scoreboard.right') : cell.right == null ? t('scoreboard.answered') : t('scoreboard.wrong');
  const steps = t(cell.steps === 1 ? 'scoreboard.step' : 'scoreboard.steps', { n: cell.steps });
  return [mark, steps, cell.tokens == null ? null : t('scoreboard.tokens', { n: formatCount(cell.tokens) })].filter(Boolean).join(' · ');
}

const cellClass = (cell) => (!cell || !cell.answered ? 'none' : cell.right === false ? 'wrong' : cell.right ? 'right' : '');

/** The table's parts; `interactive`: headers sort and cells open their run (the page), or plain text (the export). */
function table({ interactive }) {
  const { questions, columns } = board;
  const total = counts(board);
  const button = (label, props) => (interactive ? h('button', { type: 'button', class: 'link', ...props }, label) : label);
  const ariaSort = (by, index) => (sorted?.by === by && sorted.index === index ? (sorted.down ? 'descending' : 'ascending') : null);
  const head = h('tr', {}, h('th', { scope: 'col' }, t('scoreboard.question')),
    order.columns.map((c) => {
      const col = columns[c];
      const model = col.model && strings(uiLang()).say(col.model);
      const config = [model, t(`compare.strategy.${col.strategy}`), t(`compare.constrained.${col.constrained}`), col.lang].filter(Boolean).join(' · ');
      return h('th', { scope: 'col', 'aria-sort': ariaSort('column', c), 'data-testid': 'scoreboard-column' },
        button(col.who, { 'data-testid': 'sort-column', title: t('scoreboard.sortColumn'), onclick: () => sortBy('column', c) }),
        h('span', { class: 'muted config' }, config));
    }),
    h('th', { scope: 'col' }, t('scoreboard.right.count')));
  const rows = order.rows.map((q) => h('tr', { 'data-testid': 'scoreboard-row' },
    h('th', { scope: 'row', 'aria-sort': ariaSort('question', q) },
      button(questions[q].question, { 'data-testid': 'sort-question', title: t('scoreboard.sortQuestion'), onclick: () => sortBy('question', q) })),
    order.columns.map((c) => {
      const cell = columns[c].cells[q];
      const text = cellText(cell);
      return h('td', { class: cellClass(cell), 'data-testid': 'scoreboard-cell' },
        cell && interactive ? button(text, { onclick: () => { opened = [c, q]; showRun(); }, 'aria-pressed': String(opened?.[0] === c && opened?.[1] === q) }) : text);
    }),
    h('td', { 'data-testid': 'question-count' }, t('compare.countOf', { right: total.questions[q], total: columns.length }))));
  const foot = h('tr', {}, h('th', { scope: 'row' }, t('scoreboard.right.count')),
    order.columns.map((c) => h('td', { 'data-testid': 'column-count' }, t('compare.countOf', { right: total.columns[c], total: questions.length }))),
    h('td', {}));
  return [h('caption', {}, t('scoreboard.caption', { files: new Set(columns.map((c) => c.file)).size, columns: columns.length })),
    h('thead', {}, head), h('tbody', {}, rows), h('tfoot', {}, foot)];
}

/** Sorts the questions by a column's results, or the columns by a question's; again: the other way. */
function sortBy(by, index) {
  const down = sorted?.by === by && sorted.index === index ? !sorted.down : false;
  sorted = { by, index, down };
  const sign = down ? -1 : 1;
  const { columns } = board;
  if (by === 'column') order.rows.sort((a, b) => sign * (rank(columns[index].cells[a]) - rank(columns[index].cells[b])) || a - b);
  else order.columns.sort((a, b) => sign * (rank(columns[a].cells[index]) - rank(columns[b].cells[index])) || a - b);
  render();
}

/** The opened cell's run, as the playground's cards, beside the table. */
function showRun() {
  const cell = opened && board.columns[opened[0]].cells[opened[1]];
  el.run.hidden = !cell;
  if (!cell) return el.run.replaceChildren();
  const col = board.columns[opened[0]];
  const cards = h('div');
  el.run.replaceChildren(
    h('h3', {}, t('scoreboard.runOf', { who: col.who, n: opened[1] + 1 })),
    h('button', { type: 'button', 'data-testid': 'scoreboard-close', onclick: () => { opened = null; render(); } }, t('scoreboard.close')),
    cards);
  const view = new TraceView(cards, { idPrefix: 'scoreboard-run-', reveal: false });
  view.reset(cell.trace);
  for (const step of cell.trace.steps) view.showStep(step);
  view.showEnd(cell.trace);
  el.run.scrollIntoView?.({ block: 'nearest' });
}

/** The scoreboard as one HTML page: the table and the problems as text, no script, nothing loaded. */
function exportPage() {
  if (!board?.columns.length) return;
  const lang = uiLang();
  const style = 'body{font:15px/1.45 system-ui,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;margin:1rem;color:#1f2328;background:#fff}'
    + 'table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}'
    + '.config{display:block;font-weight:400;color:#57606a;font-size:.85em}.right{color:#116329}.wrong{color:#9a3412}.none{color:#57606a}'
    + '@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}th,td{border-color:#30363d}.config,.none{color:#8b949e}.right{color:#56d364}.wrong{color:#f0883e}}';
  const body = h('body', {},
    h('h1', {}, t('scoreboard.title')),
    h('table', {}, ...table({ interactive: false })),
    board.problems.length ? h('ul', {}, board.problems.map((p) => h('li', {}, t(`scoreboard.${p.kind}`, { file: p.file, detail: p.detail })))) : null,
    h('p', {}, t('scoreboard.made', { version: version() })));
  const html = `<!doctype html>
<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h('span', {}, t('scoreboard.title')).innerHTML}</title>
<style>${style}</style>
</head>
${body.outerHTML}
</html>
`;
  download('reactloop-scoreboard.html', html, 'text/html');
}
