// The Tools panel: built-in tools on/off, the documents search_docs searches, and tools the
// person writes in JavaScript. Only the person's own code is run, and only in a Worker
// (worker-tool.js): the page compiles nothing, a hanging tool is stopped at its timeout, and
// tool code cannot reach the DOM or localStorage. Nothing the model writes is ever run.
import { builtinTools, checkTool, defaultDocuments } from './pkg/reactloop.js';
import { $, h } from './dom.js';
import { t, errorText, strings, lang } from './i18n.js';
import { workerTool, checkToolSource } from './worker-tool.js';

const el = {
  builtins: $('#builtin-tools'), documents: $('#documents'), documentsStatus: $('#documents-status'),
  documentsReset: $('#documents-reset'), jsForm: $('#js-tool-form'), jsStatus: $('#js-tool-status'),
  jsList: $('#js-tools'),
};
const jsTools = new Map(); // name → {definition, enabled}
let onChange = () => {};

let specs = []; // the built-in tools' specs, in the order of their boxes
const describe = (spec) => strings(lang()).say(spec.view.description);

export function initTools(changed) {
  onChange = changed;
  specs = builtinTools();
  el.builtins.replaceChildren(...specs.map((spec) => h('label', { class: 'check tool' },
    h('input', { type: 'checkbox', name: 'builtin', value: spec.name, checked: true, onchange: onChange }),
    h('span', {}, h('code', {}, spec.name), h('small', { class: 'muted tool-description' }, describe(spec))))));
  el.documents.value = documentsToText(defaultDocuments());
  el.documents.addEventListener('input', () => { documentsStatus(); onChange(); });
  el.documentsReset.addEventListener('click', () => {
    el.documents.value = documentsToText(defaultDocuments());
    documentsStatus();
    onChange();
  });
  el.jsForm.addEventListener('submit', (event) => {
    event.preventDefault();
    addJsTool();
  });
  documentsStatus();
}

/** "# Title" starts a document; the lines up to the next one are its text. */
function parseDocuments(text) {
  const docs = [];
  for (const line of text.split('\n')) {
    const heading = /^#\s+(.+)$/.exec(line);
    if (heading) docs.push({ title: heading[1].trim(), text: '' });
    else if (docs.length) docs[docs.length - 1].text += `${line}\n`;
  }
  return docs.map((d) => ({ title: d.title, text: d.text.trim() }));
}

const documentsToText = (docs) => docs.map((d) => `# ${d.title}\n${d.text}`).join('\n\n');

function documentsStatus() {
  const docs = parseDocuments(el.documents.value);
  const bad = !docs.length && el.documents.value.trim() !== '';
  el.documentsStatus.textContent = bad ? t('tools.documentsError') : t('tools.documentsCount', { count: docs.length });
  el.documentsStatus.classList.toggle('problem', bad);
}

const builtinBoxes = () => [...el.builtins.querySelectorAll('input[name=builtin]')];
/** A link's tool settings: the built-in tools switched off, and the documents. */
export function restoreTools({ disabledTools = [], documents }) {
  for (const box of builtinBoxes()) box.checked = !disabledTools.includes(box.value);
  if (documents) {
    el.documents.value = documentsToText(documents.map((d) => ({ title: String(d?.title ?? ''), text: String(d?.text ?? '') })));
    documentsStatus();
  }
}

/** The tool part of the Agent settings. */
export function toolSettings() {
  return {
    documents: parseDocuments(el.documents.value),
    disabledTools: builtinBoxes().filter((b) => !b.checked).map((b) => b.value),
  };
}

/** Gives `agent` the page's JavaScript tools. */
export function registerJsTools(agent) {
  for (const { definition, enabled } of jsTools.values()) {
    agent.registerTool(definition);
    if (!enabled) agent.setToolEnabled(definition.name, false);
  }
}

async function addJsTool() {
  const form = new FormData(el.jsForm);
  const say = (text, problem = false) => {
    el.jsStatus.textContent = text;
    el.jsStatus.classList.toggle('problem', problem);
  };
  let parameters;
  try {
    parameters = JSON.parse(/** @type {string} */ (form.get('parameters')) || '{}'); // a textarea's, never a File
  } catch (error) {
    return say(t('tools.jsBadJson', { message: error.message }), true);
  }
  const body = String(form.get('body'));
  const compileError = await checkToolSource(body);
  if (compileError) return say(t('tools.jsBadBody', { message: compileError }), true);
  const timeoutMs = Number(form.get('timeout')) || 10_000;
  const list = (field, separator) =>
    String(form.get(field) ?? '').split(separator).map((s) => s.trim()).filter(Boolean);
  const definition = {
    name: String(form.get('name')).trim(),
    description: String(form.get('description')),
    keywords: list('keywords', /[,，、]/),
    examples: list('examples', /\n/),
    parameters,
    // The worker's own timer stops the tool; the agent's, with the same limit, is a backstop.
    run: workerTool(body, { timeoutMs }),
    timeoutMs,
  };
  try {
    // The core checks the name and schema, as registerTool will.
    checkTool(definition);
  } catch (error) {
    return say(errorText(error), true);
  }
  jsTools.set(definition.name, { definition, enabled: true });
  renderJsTools();
  say(t('tools.jsAdded', { name: definition.name }));
  onChange();
}

function renderJsTools() {
  el.jsList.replaceChildren(...[...jsTools.values()].map((tool) => {
    const { name, description } = tool.definition;
    return h('li', {},
      h('label', { class: 'check tool' },
        h('input', { type: 'checkbox', checked: tool.enabled, onchange: (e) => { tool.enabled = e.target.checked; onChange(); } }),
        h('span', {}, h('code', {}, name), h('small', { class: 'muted' }, description))),
      h('button', { type: 'button', class: 'link', 'aria-label': t('tools.jsRemove', { name }),
        onclick: () => { jsTools.delete(name); renderJsTools(); onChange(); } }, '✕'));
  }));
}

export function rerenderTools() {
  el.builtins.querySelectorAll('.tool-description').forEach((small, i) => { small.textContent = describe(specs[i]); });
  documentsStatus();
  renderJsTools();
}
