// The Prompt panel: the template (English or Chinese) the system prompt is generated from,
// few-shot examples, every other text the loop sends the model (the core's named templates),
// and a preview of the exact system prompt with its estimated size.
import { defaultTemplate, estimateTokens, templates } from './pkg/reactloop.js';
import { $, h } from './dom.js';
import { t, lang as uiLang } from './i18n.js';

const el = {
  strategy: $('#strategy'), lang: $('#prompt-lang'), template: $('#template'), reset: $('#template-reset'),
  shots: $('#few-shots'), addShot: $('#few-shot-add'), preview: $('#prompt-preview'), tokens: $('#prompt-tokens'),
  textName: $('#text-name'), textBody: $('#text-body'), textReset: $('#text-reset'), textSent: $('#text-sent'),
};
let onChange = () => {};
// The loop's texts ({name, en, zh, placeholders}), the run's own words for some (name → text),
// and the trace on show (whose step views say which texts each request sent first).
let TEXTS = [];
let edits = {};
let traceOnShow = () => null;
// The language and strategy the template box was filled for, to tell an edited template from
// a default.
let filledFor = { lang: 'en', strategy: 'react' };

export function initPrompt(changed, trace) {
  onChange = changed;
  traceOnShow = trace;
  TEXTS = templates();
  el.textName.addEventListener('change', showText);
  el.textBody.addEventListener('input', editText);
  el.textBody.addEventListener('focus', showSent);
  el.textReset.addEventListener('click', () => { delete edits[el.textName.value]; showText(); nameTexts(); onChange(); });
  $('#prompt-panel').addEventListener('toggle', showSent);
  nameTexts();
  el.lang.addEventListener('change', followLang);
  el.strategy.addEventListener('change', followLang);
  el.template.addEventListener('input', onChange);
  el.reset.addEventListener('click', () => fill(promptLang()));
  el.addShot.addEventListener('click', () => { addShot(); onChange(); });
  fill(promptLang());
}

/** The prompt's language: chosen, or the interface's. */
const promptLang = () => (el.lang.value === 'auto' ? uiLang() : el.lang.value);

const edited = () => el.template.value !== defaultTemplate(filledFor.lang, filledFor.strategy);

function fill(lang) {
  filledFor = { lang, strategy: el.strategy.value };
  el.template.value = defaultTemplate(lang, el.strategy.value);
  showText();
  onChange();
}

/** The text chosen in the list. */
const chosenText = () => TEXTS.find((x) => x.name === el.textName.value) ?? TEXTS[0];

/** The list of texts, an edited one marked. */
function nameTexts() {
  const at = el.textName.value || TEXTS[0].name;
  el.textName.replaceChildren(...TEXTS.map((x) =>
    h('option', { value: x.name }, x.name in edits ? t('prompt.textEdited', { name: x.name }) : x.name)));
  el.textName.value = at;
}

function showText() {
  const x = chosenText();
  el.textBody.value = edits[x.name] ?? x[promptLang()];
  showSent();
}

function editText() {
  const x = chosenText();
  const was = x.name in edits;
  if (el.textBody.value === x[promptLang()]) delete edits[x.name];
  else edits[x.name] = el.textBody.value;
  if (was !== x.name in edits) nameTexts();
  onChange();
}

/** The chosen text's placeholders, and the steps of the run on show whose request sent it first. */
function showSent() {
  const x = chosenText();
  const steps = (traceOnShow()?.steps ?? []).flatMap((s, i) => (s.view?.texts?.includes(x.name) ? [i + 1] : []));
  const placeholders = x.placeholders.map((p) => `{${p}}`).join(', ') || t('prompt.noPlaceholders');
  el.textSent.textContent = steps.length
    ? t('prompt.textSent', { placeholders, steps: steps.join(uiLang() === 'zh' ? '、' : ', ') })
    : t('prompt.textNotSent', { placeholders });
}

/** Called when either language or the strategy changes: an unedited template follows. */
export function followLang() {
  if (!edited()) fill(promptLang());
  else onChange();
}

function addShot(question = '', transcript = '') {
  const item = h('li', { class: 'shot' },
    h('label', {}, t('prompt.fewShotQuestion'), h('input', { type: 'text', name: 'question', value: question, oninput: onChange })),
    h('label', {}, t('prompt.fewShotTranscript'), h('textarea', { name: 'transcript', rows: 4, oninput: onChange }, transcript)),
    h('button', { type: 'button', class: 'link', onclick: () => { item.remove(); onChange(); } }, t('prompt.fewShotRemove')));
  el.shots.append(item);
}

const allShots = () => [...el.shots.querySelectorAll('.shot')]
  .map((li) => ({ question: li.querySelector('[name=question]').value, transcript: li.querySelector('[name=transcript]').value }));
const shots = () => allShots().filter((s) => s.question.trim() && s.transcript.trim());

/** The prompt part of the Agent settings; a default template is left to the core. */
export function promptSettings() {
  return {
    strategy: el.strategy.value, lang: promptLang(),
    template: edited() ? el.template.value : undefined, fewShot: shots(), texts: { ...edits },
  };
}

export function showPreview(systemPrompt) {
  el.preview.textContent = systemPrompt;
  el.tokens.textContent = t('prompt.tokens', { count: estimateTokens(systemPrompt) });
}

/** The prompt language as chosen, for a link: unset while it follows the interface's. */
export const chosenLang = () => (el.lang.value === 'auto' ? undefined : el.lang.value);

/** Whether `value` names a strategy (a link may carry anything). */
export const isStrategy = (value) => [...el.strategy.options].some((o) => o.value === value);

/** Whether the prompt can be written in `value` (a link may carry anything). */
export const isPromptLang = (value) => [...el.lang.options].some((o) => o.value === value);

/** A link's prompt settings (as share.js's linkSettings reads them). */
export function restorePrompt({ strategy, lang, template, fewShot = [], texts = {} }) {
  // An unknown language or strategy would leave the select empty and every run refused: keep
  // the default.
  if (lang && isPromptLang(lang)) el.lang.value = lang;
  if (strategy && isStrategy(strategy)) el.strategy.value = strategy;
  fill(promptLang());
  if (template) el.template.value = template;
  // A link's texts: only names the loop has, only text (a link may carry anything).
  edits = Object.fromEntries(Object.entries(texts ?? {})
    .filter(([name, text]) => TEXTS.some((x) => x.name === name) && typeof text === 'string'));
  nameTexts();
  showText();
  for (const s of fewShot) addShot(String(s?.question ?? ''), String(s?.transcript ?? ''));
  onChange();
}

/** Few-shot labels are built here, so they are rebuilt for a new language. */
export function rerenderPrompt() {
  nameTexts();
  showSent();
  const kept = allShots();
  el.shots.replaceChildren();
  kept.forEach((s) => addShot(s.question, s.transcript));
}
