// A recording for <react-loop trace-src>: downloaded under the core's size limit, and read
// without the wasm when it carries its views (exportTrace writes them: every sentence a card
// shows). A run without views (an older file) goes through the core's loadTrace, and so does
// one of another format version, so the core says why it cannot be read. A recording is
// untrusted: each field the cards read is checked for its type first, so a damaged file gets
// a message naming the field, and the cards only ever make text of it.
import { LIMITS } from './limits.js';
import { readComparison, COMPARISON } from './comparison.js';

// The trace format version whose view form this reader draws (docs/trace-format.md).
const VIEW_VERSION = 1;

// What the cards read of a run, and of which type ('string', 'number', a list of one kind, an
// object of named fields); a name ending in '?' may be missing or null: the core leaves it out
// (or a view exported before it existed lacks it: `fits`). tests/trace_shape.rs holds this to
// what the core writes.
const SENTENCE = { en: 'string', zh: 'string' };
const SPAN = { start: 'number', end: 'number' };
const RUN = {
  version: 'number', question: 'string', 'model?': 'string', system_prompt: 'string',
  'outcome?': { type: 'string', 'answer?': 'string' },
  view: { 'outcome?': SENTENCE },
  steps: [{
    index: 'number',
    guards: [{ type: 'string' }],
    request: { messages: [{ role: 'string', content: 'string' }], stop: ['string'] },
    'reply?': { text: 'string', 'elapsed_ms?': 'number' },
    'parse?': { kind: 'string', 'thought?': 'string', 'answer?': 'string', repairs: ['string'] },
    'call?': { tool: 'string' },
    'observation?': { text: 'string', source: 'string', full_chars: 'number', 'elapsed_ms?': 'number' },
    'plan?': ['string'],
    'summary?': 'string',
    view: {
      guards: [SENTENCE], repairs: [SENTENCE], notes: [SENTENCE],
      'format_error?': SENTENCE, 'avoid?': SENTENCE, 'steer?': SENTENCE, 'unsteered?': SENTENCE, 'left_out?': SENTENCE, 'fits?': [SENTENCE],
      'error?': { message: SENTENCE, 'hint?': SENTENCE },
      'spans?': { 'thought?': SPAN, 'action?': SPAN, 'input?': SPAN, 'answer?': SPAN },
    },
  }],
};

/** Throws the path of the first field of `value` that does not fit `schema`. */
function check(value, schema, path) {
  if (typeof schema === 'string') {
    if (typeof value !== schema) throw path;
  } else if (Array.isArray(schema)) {
    if (!Array.isArray(value)) throw path;
    value.forEach((item, i) => check(item, schema[0], `${path}[${i}]`));
  } else {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw path;
    for (const [key, inner] of Object.entries(schema)) {
      const name = key.replace(/\?$/, '');
      if (value[name] == null && key.endsWith('?')) continue;
      check(value[name], inner, path ? `${path}.${name}` : name);
    }
  }
}

/** A run the cards can draw as it is: views that belong to its fields. Throws the bad field's path. */
function checkRun(run) {
  check(run, RUN, '');
  if (run.outcome && !run.view.outcome) throw 'view.outcome';
  run.steps.forEach((step, i) => {
    const at = `steps[${i}].view`;
    if (step.view.guards.length !== step.guards.length) throw `${at}.guards`;
    if (step.view.repairs.length !== (step.parse?.repairs?.length ?? 0)) throw `${at}.repairs`;
    if (step.parse?.kind === 'error' && !step.view.format_error) throw `${at}.format_error`;
    if (step.error && !step.view.error) throw `${at}.error`;
  });
  return run;
}

/** In view form, of the version and size this reader draws; else the core reads it (or says why not). */
const hasViews = (run) => run?.version === VIEW_VERSION && typeof run.view === 'object' && Array.isArray(run.steps)
  && run.steps.length <= LIMITS.traceSteps && run.steps.every((step) => typeof step?.view === 'object');

/**
 * The recording in `text`: one run, or a comparison ({kind, columns, question}), every run in
 * its view form. `core()` resolves to the wasm module; it is asked for only when a run has no
 * views. Throws what is wrong, in the language of `t`.
 */
export async function readRecording(text, { t, core }) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    value = null; // the core's reader says what is wrong with it
  }
  const runs = value?.kind === COMPARISON ? [value.columns].flat().flatMap((c) => c?.runs ?? []) : [value];
  const { loadTrace } = runs.every(hasViews) ? {} : await core();
  const read = (run, json = JSON.stringify(run)) => {
    if (!hasViews(run)) return loadTrace(json);
    try {
      return checkRun(run);
    } catch (path) {
      throw new Error(t('embed.badField', { path }));
    }
  };
  return readComparison(value, read, t) ?? read(value, text);
}

const texts = new Map(); // url → promise of its text: a recording used twice loads once

/** The text at `url`, refused (in the language of `t`) once it passes the core's limit. */
export function fetchRecording(url, t) {
  if (!texts.has(url)) {
    const text = download(url, t);
    texts.set(url, text);
    text.catch(() => texts.delete(url));
  }
  return texts.get(url);
}

async function download(url, t) {
  const limit = LIMITS.traceBytes;
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw await unreachable(url, error, t);
  }
  if (!response.ok) {
    throw problem(t('embed.loadStatus', { url, status: response.status }), t('embed.loadStatusHint', { page: document.baseURI }));
  }
  const tooLarge = new Error(t('embed.tooLarge', { url, limit: limit / 1e6 }));
  // A declared length says it at once; the count below holds when there is none (or a wrong one).
  if (Number(response.headers.get('content-length')) > limit) {
    response.body?.cancel().catch(() => {});
    throw tooLarge;
  }
  let size = 0;
  // Throwing here errors the stream, and the pipe cancels the download: a huge file is never held whole.
  const counted = new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) throw tooLarge;
      controller.enqueue(chunk);
    },
  });
  try {
    return await new Response(response.body?.pipeThrough(counted)).text();
  } catch (error) {
    // Response.text() reports a failed stream as its own TypeError, not as what the stream threw.
    throw size > limit ? tooLarge : new Error(t('embed.loadCut', { url, reason: error.message }));
  }
}

/** An error with its fix for the element's doctor card. */
function problem(message, hint) {
  return Object.assign(new Error(message), { hint });
}

/**
 * Why a fetch of `url` failed, as far as a page can tell: the browser reports a refused CORS
 * response and an unreachable host alike, so a no-cors request (which reaches the host but
 * shows nothing of the answer) tells them apart.
 */
async function unreachable(url, error, t) {
  const origin = location.origin;
  if (new URL(url).origin !== origin) {
    const answered = await fetch(url, { mode: 'no-cors', cache: 'no-store' }).then(() => true, () => false);
    if (answered) {
      return problem(t('embed.corsRefused', { url, origin }), t('embed.corsHint', { origin }));
    }
  }
  return problem(t('embed.loadFailed', { url, reason: error.message }), t('embed.loadFailedHint'));
}
