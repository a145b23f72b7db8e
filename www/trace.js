// Renders a run: one card per step, from the core's Step objects (the same code draws a
// live run, a paused one and an imported trace), and plays a recorded trace back (Replay);
// the playground and <react-loop> both use both. Card bodies that can be large — the parser
// X-ray and the prompt anatomy — are built only when opened, and long texts are capped.
// It needs no wasm: every sentence comes with the steps (their `view`), so a recording replays
// without the core.
import { h, cappedText, lazyDetails, formatMs, formatCount } from './dom.js';
import { strings, lang as pageLang } from './i18n.js';
import { traceSheet } from './trace-style.js';

const SPAN_KINDS = ['thought', 'action', 'input', 'answer'];

export class TraceView {
  /**
   * `options`, each optional: canRetry(step), retry(), testConnection(), canFork(step), fork(step)
   * back a card's buttons (a replay has none); idPrefix keeps ids unique among several views;
   * lang() is the language to draw in (default: the page's); tokens(text) counts a message's
   * tokens for the anatomy (the core's estimateTokens; none without it); reveal: false leaves
   * scrolling to the caller instead of bringing each new card into the page's view.
   */
  constructor(root, options = {}) {
    this.root = root;
    this.actions = options;
    root.classList.add('trace-view');
    // The document, or the shadow root of an embedded view, gets the one trace stylesheet.
    const scope = root.getRootNode();
    if (!scope.adoptedStyleSheets.includes(traceSheet)) scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, traceSheet];
    this.reset();
  }

  /** t() and say() in the view's language. */
  get tr() { return strings(this.actions.lang?.() ?? pageLang()); }

  /** Clears the view; `trace` (question, system prompt) heads it when given. */
  reset(trace = null) {
    this.trace = trace;
    this.cards = new Map(); // step index → {el, step, live}
    this.notices = new Map(); // step index → messages such as "the stream ended early"
    this.outcome = null;
    this.list = h('ol', { class: 'steps' });
    this.end = h('div', { class: 'outcome-slot' });
    this.root.replaceChildren(...(trace ? [this.head(trace)] : []), ...(this.shared ? [this.shared] : []), this.list, this.end);
  }

  head(trace) {
    const { t, say } = this.tr;
    // A recording made before the view named the model has only its name.
    const model = trace.view?.model ? say(trace.view.model) : trace.model;
    return h('div', { class: 'trace-head' },
      h('p', { class: 'question' }, h('strong', {}, t('trace.question')), ' ', trace.question),
      model ? h('p', { class: 'muted' }, t('trace.model', { model })) : null,
      trace.system_prompt ? lazyDetails(t('trace.systemPrompt'), () => cappedText(trace.system_prompt, { t })) : null);
  }

  /** Applies one event from agent.run / step / continueRun. */
  event(e) {
    switch (e.type) {
      case 'request': {
        const entry = this.cards.get(e.step);
        if (!entry) this.showStep({ index: e.step, request: e.request, guards: [] });
        else if (entry.live) entry.live.data = ''; // asked again: the new reply replaces the old
        else if (!entry.step.reply) this.showStep({ ...entry.step, request: e.request }); // as sent (a refused constraint changes it)
        break;
      }
      case 'delta': this.liveText(e.step).appendData(e.text); break;
      case 'tool_start': this.status(e.step, this.tr.t('card.runningTool', { tool: e.call.tool })); break;
      case 'step': this.showStep(e.step); break;
      case 'done': this.showOutcome(e); break;
      case 'notice':
        this.notices.set(e.step, [...(this.notices.get(e.step) ?? []), e.message]);
        this.cards.get(e.step)?.el.querySelector('.card-body').append(notice(e.message, this.tr));
        break;
      // 'guard' and 'error' are part of the step object, drawn by its 'step' event; 'next'
      // is for the controls.
    }
  }

  /** Draws (or redraws) the card of one step, keeping open sections open. */
  showStep(step) {
    const old = this.cards.get(step.index);
    // A step the page has seen comes without its request (see the core's Event::Step).
    if (!step.request) step = { ...step, request: old?.step.request };
    const open = new Set(old ? [...old.el.querySelectorAll('details[open]')].map((d) => d.className) : []);
    const el = this.card(step, open);
    if (old) old.el.replaceWith(el);
    else this.list.append(el);
    this.cards.set(step.index, { el, step });
    if (!old) this.reveal(step.index);
    // A tool that answered ticks the next item of the plan it carries out.
    if (step.observation?.source === 'tool') {
      const plan = [...this.cards.values()].filter((c) => c.step.plan && c.step.index < step.index).at(-1);
      if (plan) this.showStep(plan.step);
    }
  }

  /**
   * Which items of the plan on step `index` are done, as the core counts them (`view.plan` of
   * the last step it was the newest plan of), and the last one (the answer) once the run
   * answered with it.
   */
  planDone(index) {
    const cards = [...this.cards.values()];
    const at = cards.findLastIndex((c) => c.step.view?.plan?.step === index);
    if (at < 0) return { done: 0, answered: false };
    const answered = at === cards.length - 1 && this.outcome?.outcome.type === 'answer';
    return { done: cards[at].step.view.plan.done, answered };
  }

  /**
   * Brings the newest card into view, once a frame however many arrived in it (scrolling
   * forces a layout).
   */
  reveal(index) {
    if (this.actions.reveal === false) return;
    this.newest = index;
    this.revealFrame ||= requestAnimationFrame(() => {
      this.revealFrame = 0;
      this.cards.get(this.newest)?.el.scrollIntoView({ block: 'nearest' });
    });
  }

  /** `ended` is `{outcome, message}` (as a 'done' event has them) or null. */
  showOutcome(ended) {
    this.outcome = ended ?? null;
    if (!ended) return this.end.replaceChildren();
    const { outcome } = ended;
    // A step that will never get its reply (the run was stopped) stops saying "waiting".
    const last = [...this.cards.values()].at(-1);
    if (last && !last.step.reply && !last.step.error) this.showStep(last.step);
    // The answer ticks the plan's last item.
    const plan = [...this.cards.values()].filter((c) => c.step.plan).at(-1);
    if (plan && outcome.type === 'answer') this.showStep(plan.step);
    const { t, say } = this.tr;
    const sentence = say(ended.message);
    const body = outcome.type === 'answer'
      ? [h('h3', {}, t('card.answer')), h('p', { class: 'answer', 'data-testid': 'final-answer' }, outcome.answer)]
      : [h('h3', {}, t('outcome.title')), h('p', {}, sentence)];
    this.end.replaceChildren(h('section', { class: `outcome outcome-${outcome.type}`, role: 'status' }, ...body));
  }

  /**
   * Compared with a fork that parts at step `index`: the steps before it are folded into one
   * line, so both columns show the step where they part at the same height.
   */
  foldBefore(index) {
    this.partAt = index;
    this.shared = index > 1 ? h('p', { class: 'muted shared-note', 'data-testid': 'shared-steps' }, this.tr.t('fork.shared', { last: index - 1 })) : null;
    this.rerender();
  }

  /** Shows how `trace` ended, or nothing while it runs. */
  showEnd(trace) {
    this.showOutcome(trace?.outcome ? { outcome: trace.outcome, message: trace.view.outcome } : null);
  }

  /** Redraws everything in the current language. */
  rerender() {
    const steps = [...this.cards.values()].map((c) => c.step);
    const { outcome, notices } = this;
    this.reset(this.trace);
    this.notices = notices;
    steps.forEach((s) => this.showStep(s));
    this.showOutcome(outcome);
  }

  liveText(index) {
    const entry = this.cards.get(index);
    if (!entry.live) {
      entry.live = document.createTextNode('');
      entry.el.querySelector('.card-body').prepend(h('pre', { class: 'text live', 'aria-live': 'off' }, entry.live));
      this.status(index, '');
    }
    return entry.live;
  }

  status(index, text) {
    const el = this.cards.get(index)?.el.querySelector('.card-status');
    if (el) el.textContent = text;
  }

  card(step, open) {
    const { reply, parse, observation } = step;
    const tr = this.tr;
    const { t } = tr;
    const tokens = this.actions.tokens;
    const titleId = `${this.actions.idPrefix ?? ''}step-${step.index}-title`;
    const waiting = !reply && !step.error && !this.outcome;
    // Compared with a fork: the steps both runs share are folded, and the runs part at `partAt`.
    const shared = this.partAt && step.index < this.partAt ? ' shared' : '';
    return h('li', { class: `card${step.guards.length ? ' has-guard' : ''}${step.error ? ' has-error' : ''}${shared}`, 'data-testid': 'step-card', 'aria-labelledby': titleId },
      h('header', { class: 'card-head' },
        h('h3', { id: titleId }, t('card.step', { n: step.index })),
        step.index === this.partAt ? h('span', { class: 'badge parts', 'data-testid': 'parts-here' }, t('fork.partsHere')) : null,
        step.request?.summarizes ? h('span', { class: 'badge check', 'data-testid': 'summary-step' }, t('card.summary')) : null,
        step.request?.checks_answer != null ? h('span', { class: 'badge check', 'data-testid': 'self-check' }, t('card.selfCheck')) : null,
        reply?.edited ? h('span', { class: 'badge edited' }, t('card.replyEdited')) : null,
        h('span', { class: 'meta' }, meta(step, tr)),
        reply && this.actions.canFork?.(step) ? h('button', { type: 'button', class: 'link fork', 'data-testid': 'fork', onclick: () => this.actions.fork(step) }, t('fork.button')) : null),
      h('div', { class: 'card-body' },
        h('p', { class: 'card-status' }, waiting ? t('card.waiting') : ''),
        parse ? parsedRows(step, tr) : step.plan ? planRow(step.plan, this.planDone(step.index), tr)
          : step.summary != null ? row(t('card.summary'), 'summary', cappedText(step.summary, { className: 'prose', t }))
            : reply ? cutOffRow(reply, tr) : null,
        observation ? observationRow(step, tr) : null,
        step.guards.length ? guardList(step, tr) : null,
        (this.notices.get(step.index) ?? []).map((message) => notice(message, tr)),
        step.error ? this.errorBlock(step) : null,
        parse || step.plan ? lazyDetails(t('xray.title'), () => xray(step, tr), { className: 'xray', open: open.has('xray') }) : null,
        step.request ? lazyDetails(t('anatomy.title', { count: step.request.messages.length }),
          () => anatomy(step, tr, tokens), { className: 'anatomy', open: open.has('anatomy') }) : null));
  }

  errorBlock(step) {
    const { message, hint } = step.view.error;
    const { t } = this.tr;
    const retry = this.actions.canRetry?.(step)
      ? h('button', { type: 'button', onclick: () => this.actions.retry() }, t('error.retry')) : null;
    const test = this.actions.testConnection
      ? h('button', { type: 'button', onclick: () => this.actions.testConnection() }, t('connect.test')) : null;
    return doctor(t('error.title'), message, hint, { buttons: [retry, test], lang: this.tr.lang });
  }
}

/**
 * The connection doctor: what failed, why it likely did, and the fix, in `lang` (default: the
 * page's). The newest one on the page carries data-testid="error", so "the error" always means
 * the current one.
 */
export function doctor(title, message, hint, { buttons = [], lang = pageLang() } = {}) {
  for (const old of document.querySelectorAll('[data-testid="error"]')) old.removeAttribute('data-testid');
  const { t, say } = strings(lang);
  // The core's message and fix come in every language ({en, zh}); the page's own are strings.
  const text = (x) => (x && typeof x === 'object' ? say(x) : x);
  return h('div', { class: 'doctor', role: 'alert', 'data-testid': 'error' },
    h('p', { class: 'doctor-title' }, h('strong', {}, title)),
    h('p', { class: 'doctor-message' }, text(message)),
    hint ? h('p', { class: 'doctor-hint' }, h('strong', {}, t('connect.fix')), ' ', text(hint)) : null,
    h('p', { class: 'buttons' }, ...buttons));
}

const notice = (message, { say }) => h('p', { class: 'notice' }, say(message));

function meta(step, { t }) {
  const parts = [];
  if (step.reply?.elapsed_ms != null) parts.push(formatMs(step.reply.elapsed_ms, t));
  const usage = step.reply?.usage;
  if (usage?.prompt_tokens != null || usage?.completion_tokens != null) {
    const counts = { prompt: usage.prompt_tokens ?? '?', completion: usage.completion_tokens ?? '?', cached: usage.cached_tokens };
    // How much of the prompt the server took from its cache, where it says: an append-only history at work.
    parts.push(usage.cached_tokens != null ? t('card.tokensCached', counts) : t('card.tokens', counts));
  }
  if (step.observation?.elapsed_ms != null) parts.push(t('card.toolTime', { ms: Math.round(step.observation.elapsed_ms) }));
  return parts.join(' · ');
}

function row(label, className, ...content) {
  return h('div', { class: `row ${className}` }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, ...content));
}

function parsedRows({ parse, call, view }, { t, say }) {
  const rows = [];
  if (parse.thought) rows.push(row(t('card.thought'), 'thought', cappedText(parse.thought, { className: 'prose', t })));
  if (parse.kind === 'action') {
    const input = call?.args ?? parse.input;
    rows.push(row(t('card.action'), 'action',
      h('code', { class: 'tool' }, call?.tool ?? parse.tool),
      cappedText(typeof input === 'string' ? input : JSON.stringify(input, null, 2), { className: 'json', t }),
      view.notes.length ? h('p', { class: 'notes' }, t('card.notes'), ' ', view.notes.map(say).join('; ')) : null));
  } else if (parse.kind === 'final') {
    rows.push(row(t('card.answer'), 'final', cappedText(parse.answer, { className: 'prose', t })));
  } else if (parse.kind === 'error') {
    const message = say(view.format_error);
    rows.push(row(t('card.action'), 'format-error', h('p', {}, t('card.formatError', { message }))));
  }
  return rows;
}

/** A reply without a parse was cut off by Stop: the text that had streamed in by then. */
/** A plan as a checklist: an item is ticked once a tool has answered for it. */
function planRow(items, { done, answered }, { t }) {
  const ticked = (i) => i < done || (answered && i === items.length - 1);
  return row(t('card.plan'), 'plan', h('ol', { class: 'plan', 'data-testid': 'plan' }, items.map((item, i) =>
    h('li', { class: ticked(i) ? 'done' : '' },
      h('span', { class: 'tick', 'aria-hidden': 'true' }, ticked(i) ? '☑ ' : '☐ '),
      item,
      ticked(i) ? h('span', { class: 'visually-hidden' }, ` ${t('plan.done')}`) : null))));
}

function cutOffRow({ text }, { t }) {
  return row(t('card.reply'), 'cut-off', h('span', { class: 'badge cut-off' }, t('card.cutOff')), cappedText(text, { t }));
}

function observationRow({ observation: o, guards }, { t }) {
  // The text sent holds a note after the cut, so the cut's own numbers say what was kept.
  const cut = guards.find((g) => g.type === 'observation_truncated');
  return row(t('card.observation'), `observation source-${o.source}`,
    h('span', { class: `badge source-${o.source}` }, t(`source.${o.source}`)),
    o.edited ? [' ', h('span', { class: 'badge edited' }, t('card.observationEdited'))] : null,
    cappedText(o.text, { t }),
    cut ? h('p', { class: 'muted', 'data-testid': 'truncated' }, t('card.truncated', { from: formatCount(cut.from_chars), to: formatCount(cut.to_chars) })) : null);
}

function guardList({ guards, view }, { t, say }) {
  return h('ul', { class: 'guards' }, guards.map((g, i) => h('li', { class: `guard guard-${g.type}` },
    h('strong', {}, t(`guard.${g.type}`)), ' ', say(view.guards[i]))));
}

/** The raw reply with the parsed spans marked (the core gives them as string indices). */
function xray({ reply, parse, view }, { t, say }) {
  const text = reply.text;
  // A plan is read by its own reader: its raw text, with no spans.
  const spans = SPAN_KINDS.map((kind) => ({ kind, span: view?.spans?.[kind] })).filter((s) => s.span);
  const pre = h('pre', { class: 'text xray-text' });
  let pos = 0;
  for (const { kind, span } of spans.sort((a, b) => a.span.start - b.span.start)) {
    const start = Math.max(pos, span.start);
    const end = span.end;
    if (end <= start) continue; // overlapping spans: the earlier one wins
    pre.append(text.slice(pos, start), h('mark', { class: `span-${kind}`, title: t(`span.${kind}`) }, text.slice(start, end)));
    pos = end;
  }
  pre.append(text.slice(pos));
  const repairs = parse?.repairs ?? [];
  return h('div', { class: 'xray-body' },
    h('p', { class: 'legend' }, t('xray.legend'), ' ', SPAN_KINDS.map((k) => [h('mark', { class: `span-${k}` }, t(`span.${k}`)), ' '])),
    pre,
    h('p', {}, repairs.length ? t('xray.repairs') : t('xray.noRepairs')),
    repairs.length ? h('ul', { class: 'repairs' }, repairs.map((r, i) => h('li', {},
      say(view.repairs[i]), ' ', h('code', { class: 'repair-code' }, r)))) : null);
}

/** What the constraint asked of this reply: its mode, a left-out action and fixed openings. */
function constraintLines({ request, view }, { t, say }) {
  const quote = (text) => h('code', {}, JSON.stringify(text));
  return [
    h('p', {}, t('anatomy.constrained'), ' ', h('code', {}, request.constrained ?? 'off')),
    view?.must_answer ? h('p', {}, say(view.must_answer)) : view?.avoid ? h('p', {}, say(view.avoid)) : null,
    view?.steer ? h('p', {}, say(view.steer)) : null,
    view?.unsteered ? h('p', {}, say(view.unsteered)) : null,
    view?.left_out ? h('p', {}, say(view.left_out)) : null,
    request.thought_prefix ? h('p', {}, t(request.thought_closed ? 'anatomy.thoughtClosed' : 'anatomy.thoughtPrefix'), ' ', quote(request.thought_prefix)) : null,
    request.answer_prefix ? h('p', {}, t('anatomy.answerPrefix'), ' ', quote(request.answer_prefix)) : null,
    request.checks_answer != null ? h('p', {}, t('anatomy.checksAnswer'), ' ', quote(request.checks_answer)) : null,
  ];
}

/** The exact messages, stop sequences and constraint of one request; token counts when `estimate` is given. */
function anatomy(step, tr, estimate) {
  const { t } = tr;
  const { request } = step;
  const tokens = estimate ? request.messages.map((m) => estimate(m.content)) : null;
  return h('div', { class: 'anatomy-body' },
    tokens ? h('p', { class: 'muted' }, t('anatomy.total', { tokens: tokens.reduce((a, b) => a + b, 0) })) : null,
    h('ol', { class: 'messages' }, request.messages.map((m, i) => h('li', { class: `message role-${m.role}` },
      h('p', { class: 'message-head' }, h('span', { class: 'role' }, t(`role.${m.role}`)), tokens ? [' ', h('span', { class: 'muted' }, t('anatomy.tokens', { tokens: tokens[i] }))] : null),
      cappedText(m.content, { t })))),
    h('p', {}, t('anatomy.stop'), ' ', request.stop.length
      ? request.stop.map((s) => [h('code', {}, JSON.stringify(s)), ' '])
      : t('anatomy.noStop')),
    constraintLines(step, tr),
    fitLines(step, tr));
}

/** How well each tool fits the question, and why: what the first request chose its tool from. */
function fitLines({ view }, { t, say }) {
  if (!view?.fits?.length) return null;
  return [h('p', {}, t('anatomy.fits')), h('ul', { class: 'fits' }, view.fits.map((fit) => h('li', {}, say(fit))))];
}

// ---------------------------------------------------------------- the replay

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const modelPart = (step) => ({ ...step, observation: null, guards: [] });
// A reply types itself out in about 90 pieces of at least 2 characters.
const pieceSize = (chars) => Math.max(2, Math.ceil(chars / 90));
// A timer waits at least a few ms (and nothing is drawn faster than a frame), so a fast replay
// types more per tick instead of waiting less: a 200-step trace at speed 80 would otherwise
// take six times its 12 s.
const FRAME_MS = 16;

/**
 * Plays a trace into a view, one transition at a time: the reply types itself out, the
 * parsed Thought/Action appear, then the observation. `step()` does one transition at once,
 * `finish()` all the rest. `visible()` holds the animation while the view is out of sight,
 * `changed()` hears of every state change, `placeholder` fills the view until the first step.
 */
export class Replay {
  /**
   * @param {import('./pkg/reactloop.js').Trace} trace
   * @param {TraceView} view
   * @param {{ speed?: number, visible?: () => boolean, changed?: () => void, placeholder?: Element | null }} [options]
   */
  constructor(trace, view, { speed = 1, visible = () => true, changed = () => {}, placeholder = null } = {}) {
    this.trace = trace;
    this.view = view;
    this.speed = speed;
    this.visible = visible;
    this.changed = changed;
    this.placeholder = placeholder;
    this.playing = false;
    this.run = 0;
    this.restart();
  }

  /** The pace of a file a person opens: at most 0.7 s a step, the whole under ~12 s. */
  static browsingSpeed(trace) {
    return Replay.speedFor(trace, Math.min(12_000, 700 * Math.max(1, trace.steps.length)));
  }

  /** The speed at which the whole trace plays in about `ms` (never slower than 1). */
  static speedFor(trace, ms) {
    // The pauses of tick() and transition() at speed 1.
    const total = trace.steps.reduce((sum, step) => {
      const chars = [...(step.reply?.text ?? '')].length;
      return sum + 250 + Math.ceil(chars / pieceSize(chars)) * 30 + (step.observation ? 900 : 0) + 1100;
    }, 0);
    return Math.max(1, total / ms);
  }

  get done() { return this.pos > this.trace.steps.length; }

  restart() {
    this.stopLoop();
    this.pos = 0;
    this.phase = 0;
    this.typed = 0;
    this.view.reset(this.trace);
    if (this.placeholder) this.view.end.replaceChildren(this.placeholder);
    this.changed();
  }

  /** Plays to the end, or until paused; resolves then. */
  async play() {
    if (this.playing) return;
    if (this.done) this.restart();
    this.playing = true;
    this.changed();
    const run = ++this.run;
    while (run === this.run && !this.done) {
      await sleep(this.tick() / this.speed);
      while (run === this.run && !this.visible()) await sleep(200);
    }
    if (run === this.run) this.pause();
  }

  pause() {
    this.stopLoop();
    this.changed();
  }

  stopLoop() {
    this.playing = false;
    this.run++;
  }

  step() {
    this.stopLoop();
    if (!this.done) this.transition();
    this.changed();
  }

  /** Draws everything left at once. */
  finish() {
    this.stopLoop();
    while (!this.done) this.transition();
    this.changed();
  }

  /** One small piece of the animation; returns how long to wait before the next. */
  tick() {
    const step = this.trace.steps[this.pos];
    if (!step) return this.transition();
    if (this.phase === 0) {
      this.open(step);
      return 250;
    }
    const chars = this.chars;
    if (this.phase === 1 && this.typed < chars.length) {
      const pieces = Math.max(1, Math.ceil((FRAME_MS * this.speed) / 30));
      const size = pieceSize(chars.length) * pieces;
      this.view.event({ type: 'delta', step: step.index, text: chars.slice(this.typed, this.typed + size).join('') });
      this.typed += size;
      return 30 * pieces;
    }
    return this.transition();
  }

  open(step) {
    this.placeholder?.remove();
    this.view.event({ type: 'request', step: step.index, request: step.request });
    this.chars = [...(step.reply?.text ?? '')];
    Object.assign(this, { phase: 1, typed: 0 });
  }

  /** The model's part of the step (its parsed reply), then the tool's (the observation). */
  transition() {
    const { steps } = this.trace;
    const step = steps[this.pos];
    if (!step) {
      this.view.showEnd(this.trace);
      this.pos++;
      return 0;
    }
    this.placeholder?.remove();
    if (this.phase < 2 && step.observation && step.reply) {
      if (this.phase === 0) this.open(step);
      this.view.showStep(modelPart(step));
      if (step.call) this.view.event({ type: 'tool_start', step: step.index, call: step.call });
      this.phase = 2;
      return 900;
    }
    this.view.showStep(step);
    Object.assign(this, { pos: this.pos + 1, phase: 0 });
    if (this.pos === steps.length) return this.transition(); // the outcome comes with the last step
    return 1100;
  }
}
