// The playground: builds an Agent from the panels' settings and drives it through a LiveRun
// (run, step, pause, stop, edit a reply or an observation), and keeps, shares and replays traces.
import init, { Agent, demoQuestions, loadTrace, limits, estimateTokens, settingDefaults, settingsKeys, version } from './pkg/reactloop.js';
import { $, h, download, choose, megabytes } from './dom.js';
import { t, lang, setLang, initialLang, isLang, errorText } from './i18n.js';
import { TraceView, Replay, doctor } from './trace.js';
import { LiveRun } from './live.js';
import { initConnect, connectSettings, restoreConnect, setEndpoint, endpointAgreed, lookForServers, renderProbe, testConnection, keepChoice, useInPage, inPagePanel, loadInPagePanel } from './connect.js';
import { initTools, toolSettings, restoreTools, registerJsTools, rerenderTools } from './tools.js';
import { initPrompt, promptSettings, showPreview, chosenLang, restorePrompt, followLang, rerenderPrompt, isPromptLang, isStrategy } from './prompt.js';
import { traceToMarkdown, readParams, permalink, settingsParams, linkSettings, MAX_LINK } from './share.js';
import { initCompare, rerenderCompare, openFork, openComparison, compareLinkParams, openCompareLink, comparing } from './compare.js';
import { initScoreboard, rerenderScoreboard } from './scoreboard.js';
import { readComparison } from './comparison.js';
import { resumed } from './isolation.js';

await init();
$('#version').textContent = `reactloop ${version()}`;

const DEMO_DELAY_MS = 15; // the demo model "types", so streaming can be seen offline

const ui = {
  ask: $('#ask'), question: $('#question'), examples: $('#examples'), uiLang: $('#ui-lang'),
  run: $('#run'), step: $('#step'), cont: $('#continue'), pause: $('#pause'), stop: $('#stop'), skip: $('#skip'),
  debugger: $('#debugger'), next: $('#debug-next'), editLabel: $('#edit-label'), edit: $('#edit-text'),
  modelActions: $('#model-actions'), askModel: $('#ask-model'), useReply: $('#use-reply'),
  status: $('#status'), problem: $('#problem'), importFile: $('#import-file'), permalinkUrl: $('#permalink-url'),
  linkNotice: $('#link-notice'),
};

let loaded = null; // an imported trace on show
let asking = false; // the step debugger is asking the model (busy too)
let asked = null; // the model's reply {text, usage, elapsed_ms} from Ask, not fed in yet
let replaying = null; // the Replay of an imported trace while it plays

const view = new TraceView($('#trace'), {
  canRetry: (step) => Boolean(live.agent && step.view.can_retry),
  retry: () => live.retry(),
  testConnection,
  // A live run's steps can be forked (an imported trace has no agent), once nothing is in flight.
  canFork: () => Boolean(live.agent && !loaded),
  fork: (step) => { if (live.agent && !live.busy && !loaded) openFork(live.agent, step); },
  tokens: estimateTokens,
});
// The live run: its agent, what it waits for (`pending`: the latest 'next' event) and `busy`.
const live = new LiveRun(view, {
  // On every transition: the in-page engine reads the next run's opening once the run is over.
  changed: () => {
    refresh();
    readAheadSoon();
  },
  problem: (error) => (error ? showProblem(error) : ui.problem.replaceChildren()),
  event: (event) => { if (event.type === 'step') inPagePanel()?.showSpeed(); },
});

// ---------------------------------------------------------------- settings → Agent

// The Limits panel's whole-number settings and their inputs.
const LIMIT_INPUTS = { maxSteps: '#max-steps', observationLimit: '#observation-limit', historyRounds: '#history-rounds' };
// They start from the core's defaults (src/defaults.rs): the page keeps no copy to drift.
const CORE_DEFAULTS = settingDefaults();
for (const [key, id] of Object.entries(LIMIT_INPUTS)) $(id).value = String(CORE_DEFAULTS[key]);
$('#timeout').value = String(CORE_DEFAULTS.timeoutMs / 1000);

function settings() {
  const number = (id) => ($(id).value === '' ? undefined : Number($(id).value));
  const seconds = number('#timeout');
  return {
    ...connectSettings(),
    ...promptSettings(),
    ...toolSettings(),
    demoDelayMs: DEMO_DELAY_MS,
    ...Object.fromEntries(Object.entries(LIMIT_INPUTS).map(([key, id]) => [key, number(id)])),
    compress: $('#compress').value,
    timeoutMs: seconds && Math.round(seconds * 1000),
  };
}

/** The settings as a link carries them: the prompt language as chosen (unset: the interface's). */
const linkedSettings = () => ({ ...settings(), lang: chosenLang() });

/** A link's settings into the panels (each ignores what it does not offer). */
function restoreSettings(link) {
  restoreConnect(link);
  restorePrompt(link);
  restoreTools(link);
  for (const [key, id] of Object.entries(LIMIT_INPUTS)) if (link[key] !== undefined) $(id).value = String(link[key]);
  if (link.compress !== undefined) choose($('#compress'), link.compress);
  if (link.timeoutMs !== undefined) $('#timeout').value = String(link.timeoutMs / 1000);
}

function buildAgent(overrides = {}) {
  const wanted = { ...settings(), ...overrides };
  const built = new Agent(wanted);
  registerJsTools(built);
  // The in-page engine answers instead of a server: the same loop, the same trace.
  if (wanted.inPage && !wanted.demo) built.useModel(inPagePanel().engine().model);
  return built;
}

let previewTimer;
/** Any panel changed: refresh the system prompt preview (debounced while typing). */
function settingsChanged() {
  readAheadSoon();
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => {
    try {
      // The demo settings always build; the prompt depends on the server only through the
      // worked examples, which the preview shows unless a constraint is chosen by hand.
      showPreview(buildAgent({ demo: true }).systemPrompt());
    } catch (error) {
      showPreview(errorText(error));
    }
  }, 150);
}

const READ_AHEAD_DELAY_MS = 1000; // settings at rest (typing in the prompt editor is not)
let readAheadTimer;
/** The in-page engine reads the next run's opening into its prompt cache once things rest. */
function readAheadSoon() {
  clearTimeout(readAheadTimer);
  readAheadTimer = setTimeout(() => inPagePanel()?.readAhead(), READ_AHEAD_DELAY_MS);
}

/** The next run's opening for the in-page engine, or null while a run (or Compare's) is on. */
function nextOpening() {
  if (live.busy || live.waiting || comparing() || !connectSettings().inPage) return null;
  return buildAgent().opening();
}

// ---------------------------------------------------------------- running

/** Starts a fresh run of the question; false when it cannot (the reason is shown). */
function begin() {
  if (live.busy || !endpointAgreed()) return false;
  if (connectSettings().inPage && !inPagePanel()?.inPageLoaded()) {
    showProblem({ message: t('inpage.notLoaded') });
    return false;
  }
  replaying?.pause();
  replaying = null;
  try {
    live.start(buildAgent(), ui.question.value);
  } catch (error) {
    showProblem(error);
    return false;
  }
  loaded = null;
  keepChoice();
  ui.edit.value = '';
  asked = null;
  ui.problem.replaceChildren();
  return true;
}

async function run() {
  if (begin()) await live.run();
}

/** One transition; with no run in progress, starts one and stops before the first request. */
async function step() {
  if (live.busy) return;
  if (!live.waiting) {
    if (begin()) view.showStep(live.agent.trace().steps[0]);
    return refresh();
  }
  await live.step(takeEdit());
}

async function resume() {
  if (live.waiting) await live.resume(takeEdit());
}

/**
 * The step debugger's "Ask the model": the reply streams into the edit box (and the card)
 * but is not fed in, so a person can read and change it before continuing with it.
 */
async function askModel() {
  if (!live.waiting) return;
  const current = live.agent;
  asking = true;
  asked = null;
  ui.edit.value = '';
  await live.drive(async (agent, show) => {
    try {
      asked = await agent.ask((event) => {
        show(event);
        if (event.type === 'delta' && current === live.agent) ui.edit.value += event.text;
      });
      ui.edit.value = asked.text;
    } catch (error) {
      if (live.pending?.type !== 'done') throw error; // after Stop there is no problem to show
    } finally {
      asking = false;
      if (current === live.agent && live.pending.type !== 'done') view.status(live.pending.step, asked ? t('card.asked') : '');
    }
  });
  if (asked) ui.edit.focus();
}

function stop() {
  replaying?.finish();
  live.stop();
  refresh();
}

/**
 * The step debugger's edit box becomes the reply or the observation it stands for. After
 * Ask it is the model's reply, changed or not, with the request's timing and tokens.
 */
function takeEdit() {
  const text = ui.edit.value;
  const fetched = asked;
  ui.edit.value = '';
  asked = null;
  if (fetched) return { reply: text, usage: fetched.usage, elapsedMs: fetched.elapsed_ms, edited: text !== fetched.text };
  if (!text) return undefined;
  return live.pending.type === 'run_tool' ? { observation: text } : { reply: text };
}

// ---------------------------------------------------------------- controls and status

function enable(button, on) {
  // aria-disabled instead of disabled keeps keyboard focus on Step between presses.
  button.setAttribute('aria-disabled', String(!on));
}

function refresh() {
  const { busy } = live;
  const next = live.waiting ? live.pending : null;
  const shown = asking && live.agent ? live.pending : next; // the debugger stays open while the model answers
  enable(ui.run, !busy);
  enable(ui.step, !busy);
  enable(ui.cont, Boolean(next));
  enable(ui.pause, busy && !asking);
  enable(ui.stop, busy || Boolean(next) || Boolean(replaying));
  ui.skip.hidden = !replaying;
  ui.debugger.hidden = !shown;
  ui.modelActions.hidden = shown?.type !== 'call_model';
  enable(ui.askModel, next?.type === 'call_model');
  enable(ui.useReply, Boolean(next && asked));
  ui.edit.readOnly = asking;
  if (shown?.type === 'call_model') {
    ui.next.textContent = t('debug.callModel', { step: shown.step });
    ui.editLabel.textContent = t(asking || asked ? 'debug.editAsked' : 'debug.editReply');
  } else if (shown?.type === 'run_tool') {
    ui.next.textContent = t('debug.runTool', { tool: shown.call.tool, args: JSON.stringify(shown.call.args) });
    ui.editLabel.textContent = t('debug.editObservation');
  }
  const state = asking ? 'run.asking' : busy ? 'run.running' : replaying ? 'run.replaying' : next ? 'run.paused' : null;
  ui.status.textContent = state ? t(state) : '';
}

function showProblem(error) {
  ui.problem.replaceChildren(doctor(t('problem.title'), error.text ?? error.message ?? String(error), error.hint));
}

/** Clicks on a button marked aria-disabled do nothing. */
function on(button, action) {
  button.addEventListener('click', (event) => {
    if (button.getAttribute('aria-disabled') !== 'true') action(event);
  });
}

// ---------------------------------------------------------------- keep and share

/** An imported trace is exported as it was read: in its view form, as exportTrace writes a run. */
function exportText(format) {
  const { agent } = live;
  const trace = agent ? agent.trace() : loaded;
  if (!trace) return (ui.status.textContent = t('share.nothing'));
  if (format === 'json') {
    download('reactloop-trace.json', agent ? agent.exportTrace() : JSON.stringify(loaded, null, 2), 'application/json');
  } else {
    download('reactloop-trace.md', traceToMarkdown(trace), 'text/markdown');
  }
}

/** The run as one animated SVG, for a README or a slide (www/svg.js, loaded on use). */
async function exportSvgFile() {
  const trace = live.agent ? live.agent.trace() : loaded;
  if (!trace) return (ui.status.textContent = t('share.nothing'));
  const { traceToSvg } = await import('./svg.js');
  download('reactloop-run.svg', traceToSvg(trace, { lang: lang() }), 'image/svg+xml');
}

/** The run as one HTML file that replays it with no network (www/export-page.js, loaded on use). */
async function exportPageFile() {
  const trace = live.agent ? live.agent.trace() : loaded;
  if (!trace) return (ui.status.textContent = t('share.nothing'));
  try {
    const { exportPage } = await import('./export-page.js');
    download('reactloop-run.html', await exportPage(trace, { lang: lang() }), 'text/html');
  } catch (error) {
    showProblem({ message: t('share.exportPageFailed', { message: error.message }) });
  }
}

// Rounded up, so a file just over the limit does not read as the limit itself.

/** A trace file's text: one run, or a comparison that Compare exported (`kind` set). */
function readTraceFile(text) {
  let value = null;
  try {
    value = JSON.parse(text);
  } catch { /* the core's reader says what is wrong with it */ }
  return readComparison(value, (run) => loadTrace(JSON.stringify(run))) ?? loadTrace(text);
}

async function importTrace(file) {
  let trace;
  try {
    // Checked before reading: file.text() would hold all of a huge file first.
    const { traceBytes } = limits();
    if (file.size > traceBytes) {
      throw new Error(t('share.tooLarge', { size: megabytes(file.size), limit: megabytes(traceBytes) }));
    }
    trace = readTraceFile(await file.text());
  } catch (error) {
    return showProblem({ message: t('share.importFailed', { message: errorText(error) }) });
  }
  live.forget();
  ui.question.value = trace.question;
  ui.problem.replaceChildren();
  replaying?.pause();
  // A comparison opens as Compare's columns; the playground's own trace is left empty.
  loaded = trace.kind ? null : trace;
  if (trace.kind) view.reset();
  const replay = trace.kind ? openComparison(trace) : new Replay(trace, view, { speed: Replay.browsingSpeed(trace) });
  replaying = replay;
  refresh();
  await replay.play();
  if (replaying === replay) replaying = null; // not if another import or a run took over
  refresh();
}

function copyPermalink() {
  const c = connectSettings();
  const source = c.inPage ? inPagePanel()?.engine().loaded?.source : '';
  const page = {
    // A model picked from disk cannot travel in a link; one from a URL can.
    'model-src': source && source !== 'file' ? source : '',
    endpoint: c.demo || c.inPage ? '' : c.baseUrl,
    model: c.demo || c.inPage ? '' : c.model,
    demo: c.demo ? '1' : '',
    question: ui.question.value.trim(),
    lang: lang(),
  };
  const settings = settingsParams(linkedSettings(), DEFAULTS, settingsKeys());
  let url = permalink({ ...page, ...compareLinkParams() }, settings);
  // Compare's list travels while the link stays short enough to paste anywhere.
  const tooLong = url.length > MAX_LINK && Boolean(compareLinkParams().compare);
  if (tooLong) url = permalink(page, settings);
  ui.permalinkUrl.hidden = false;
  ui.permalinkUrl.value = url;
  ui.permalinkUrl.select();
  const copied = () => (ui.status.textContent = tooLong ? t('compare.linkTooLong', { max: MAX_LINK }) : t('share.copied'));
  if (tooLong) copied();
  navigator.clipboard?.writeText(url).then(copied, () => {});
}

// ---------------------------------------------------------------- language

function renderExamples() {
  ui.examples.replaceChildren(...demoQuestions(lang()).map((q) => h('button', { type: 'button', class: 'chip', onclick: () => {
    ui.question.value = q;
    ui.question.focus();
  } }, q)));
}

// What a link asked for that this page does not have: [{key, value}], said in a notice.
const linkNotices = [];

function renderLinkNotices() {
  const shown = (value) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);
  ui.linkNotice.replaceChildren(...linkNotices.map(({ key, value }) => h('span', {}, t(key, { value: shown(value) }), ' ')));
  ui.linkNotice.hidden = linkNotices.length === 0;
}

function switchLang(next) {
  setLang(next);
  ui.uiLang.value = lang();
  localStorage.setItem('reactloop.lang', lang());
  renderLinkNotices();
  renderExamples();
  renderProbe();
  rerenderTools();
  rerenderPrompt();
  inPagePanel()?.rerenderInPage();
  followLang();
  view.rerender();
  rerenderCompare();
  rerenderScoreboard();
  refresh();
}

// ---------------------------------------------------------------- start-up

function wire() {
  ui.ask.addEventListener('submit', (event) => {
    event.preventDefault();
    if (ui.run.getAttribute('aria-disabled') !== 'true') run();
  });
  ui.question.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) ui.ask.requestSubmit();
  });
  on(ui.step, step);
  on(ui.cont, resume);
  on(ui.askModel, askModel);
  on(ui.useReply, step);
  on(ui.pause, () => live.pause());
  on(ui.stop, stop);
  on(ui.skip, () => replaying?.finish());
  on($('#export-json'), () => exportText('json'));
  on($('#export-md'), () => exportText('md'));
  on($('#export-page'), exportPageFile);
  on($('#export-svg'), exportSvgFile);
  on($('#import'), () => ui.importFile.click());
  ui.importFile.addEventListener('change', () => {
    const [file] = ui.importFile.files;
    ui.importFile.value = '';
    if (file) importTrace(file);
  });
  on($('#permalink'), copyPermalink);
  ui.uiLang.addEventListener('change', () => switchLang(ui.uiLang.value));
}

const params = readParams();
// A language the page does not have falls back to the default, and a notice says so.
if (params.lang && !isLang(params.lang)) linkNotices.push({ key: 'link.unknownLang', value: params.lang });
setLang(initialLang(params.lang));
ui.uiLang.value = lang();
initConnect({ keep: () => ({ question: ui.question.value }), opening: nextOpening });
initTools(settingsChanged);
initPrompt(settingsChanged, () => (live.agent ? live.agent.trace() : loaded));
initScoreboard();
initCompare({ buildAgent, question: () => ui.question.value, inPage: () => (inPagePanel()?.inPageLoaded() ? inPagePanel().inPageSettings() : null) });
// What a fresh page runs with: a permalink carries only the settings that differ from it.
const DEFAULTS = linkedSettings();
const link = linkSettings(location.search, DEFAULTS, settingsKeys());
if (link.lang && !isPromptLang(link.lang)) linkNotices.push({ key: 'link.unknownPromptLang', value: link.lang });
if (link.strategy && !isStrategy(link.strategy)) linkNotices.push({ key: 'link.unknownStrategy', value: link.strategy });
if (params.compare || params.columns) {
  for (const value of openCompareLink({ compare: params.compare, columns: params.columns })) linkNotices.push({ key: 'link.unknownColumn', value });
}
renderLinkNotices();
restoreSettings(link);
if (params.question) ui.question.value = params.question;
// The page reloaded itself cross-origin isolated as the in-page engine was opened: open it again.
const kept = resumed();
if (typeof kept?.question === 'string') ui.question.value = kept.question;
renderExamples();
wire();
refresh();
// The demo model is selected from the start, so the page works before (or without) probes.
// An endpoint from a link waits for the person's consent, and so does its autorun.
let agreed = Promise.resolve(true);
if (params.demo === '1') setEndpoint(null);
else if (params['model-src']) {
  // A same-origin model loads at once; another origin's waits for the person's consent.
  useInPage({ auto: false });
  agreed = loadInPagePanel().then((panel) => panel.loadFromLink(params['model-src']));
} else if (params.endpoint) agreed = setEndpoint(params.endpoint, params.model);
else if (kept) useInPage();
else lookForServers();
// On a phone the open Connect panel pushed the run below the first screen; a link that names
// a server or a model keeps it open, for the consent it asks.
if (matchMedia('(max-width: 860px)').matches && !params.endpoint && !params['model-src']) $('#connect-panel').open = false;
document.body.dataset.ready = '1';
if (params.autorun === '1') agreed.then((yes) => yes && run());
