// <react-loop>: a ReAct run inside any page, with one script tag. It replays a recorded
// trace (no model needed), runs live against an OpenAI-compatible endpoint, or tries live and
// falls back to the recording. Usage and attributes: www/embed/README.md.
//
// Importing this module only defines the element. The playground's card renderer (../trace.js,
// ../i18n.js) and the recording load when an element first comes near the viewport; a
// recording replays without the wasm (it carries its sentences: ../recording.js). The wasm and
// the live-run controller (../live.js) load only for a live run, once per page, shared by every
// element. Everything from models, tools and recordings becomes text nodes, never markup.
import { css } from './style.js';

const PROBE_TIMEOUT_MS = 1500;
const PLAYGROUND = new URL('../', import.meta.url).href;

// ---------------------------------------------------------------- loaded once per page

let renderer = null;
let core = null;

/** The card renderer, the strings and the recording reader: all a replay needs. */
function loadRenderer() {
  renderer ??= Promise.all(['../trace.js', '../i18n.js', '../comparison.js', '../recording.js', './strings.js'].map((m) => import(m)))
    .then(([trace, i18n, comparison, recording, { EMBED_STRINGS }]) => {
      i18n.addStrings(EMBED_STRINGS);
      return {
        TraceView: trace.TraceView, Replay: trace.Replay, doctor: trace.doctor, strings: i18n.strings,
        ComparisonPlayer: comparison.ComparisonPlayer, readRecording: recording.readRecording, fetchRecording: recording.fetchRecording,
      };
    });
  renderer.catch(() => { renderer = null; }); // a later element may try again
  return renderer;
}

/** The wasm (initialised once) and the live-run controller: for a live run, or a recording with no views. */
function loadCore() {
  core ??= Promise.all([import('../pkg/reactloop.js'), import('../live.js')]).then(async ([pkg, live]) => {
    await pkg.default();
    return { ...pkg, LiveRun: live.LiveRun };
  });
  core.catch(() => { core = null; });
  return core;
}

// ---------------------------------------------------------------- the element

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

class ReactLoop extends HTMLElement {
  static observedAttributes = ['lang', 'height'];

  #ui;
  #r = null; // the shared renderer, once loaded
  #core = null; // the shared wasm module, once a live run (or an old recording) needed it
  #views = []; // the TraceViews on show
  #live = null; // the LiveRun of live runs
  #replay = null;
  #trace = null; // the validated recording: one run, or a comparison ({kind, columns, question})
  #traceError = null; // why the recording could not be loaded
  #model = '';
  #mode = 'idle'; // idle, loading, offer, replay, fallback, live, error
  #note = ''; // a message that replaces the mode's own line until the next change
  #liveError = null; // why live did not work (fallback)
  #observer = null;
  #visible = false;
  #started = false;
  #tools = [];
  #documents = null;
  #playWhenReady = false;
  #offer = null; // model-src: {url, name, bytes} once its size is known
  #loading = null; // the in-page model loading: {controller, text, loaded, total}
  #inPage = null; // the in-page engine once its model is loaded
  #threads = 1; // the threads it runs on (one where the page is not cross-origin isolated)

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.adoptedStyleSheets = [styleSheet()];
    const ui = {
      mode: el('span', { className: 'mode' }),
      play: el('button', { type: 'button', className: 'primary' }),
      step: el('button', { type: 'button' }),
      restart: el('button', { type: 'button' }),
      note: el('div', { className: 'note' }),
      input: el('input', { type: 'text', name: 'question', spellcheck: false }),
      run: el('button', { type: 'submit', className: 'primary' }),
      stop: el('button', { type: 'button' }),
      trace: el('div', { className: 'trace' }),
      columns: el('div', { className: 'comparison' }), // a recorded comparison's columns
    };
    ui.note.setAttribute('role', 'status');
    ui.ask = el('form', { className: 'ask' }, ui.input, ui.run, ui.stop);
    ui.scroll = el('div', { className: 'scroll', tabIndex: 0 }, ui.trace, ui.columns);
    ui.columns.hidden = true;
    ui.frame = el('div', { className: 'frame' },
      el('div', { className: 'bar' }, ui.mode,
        el('span', { className: 'brand' }, el('a', { href: PLAYGROUND, target: '_blank', rel: 'noopener' }, 'reactloop')),
        el('span', { className: 'buttons' }, ui.play, ui.step, ui.restart)),
      ui.note, ui.ask, ui.scroll);
    ui.frame.setAttribute('part', 'frame');
    shadow.append(ui.frame);
    this.#ui = ui;

    ui.play.addEventListener('click', () => (this.#replay?.playing ? this.#replay.pause() : this.#replay?.play()));
    ui.step.addEventListener('click', () => this.#replay?.step());
    ui.restart.addEventListener('click', () => this.#replay?.restart());
    ui.ask.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#runLive();
    });
    ui.stop.addEventListener('click', () => this.#live?.stop());
    // The run area keeps its end in view while the reader is there (the views never scroll the
    // page). Whether they are is read when they scroll: measuring after each streamed piece
    // would force a layout for each.
    let pinned = true;
    ui.scroll.addEventListener('scroll', () => {
      pinned = ui.scroll.scrollHeight - ui.scroll.scrollTop - ui.scroll.clientHeight < 48;
    }, { passive: true });
    const follow = new ResizeObserver(() => { if (pinned) ui.scroll.scrollTop = ui.scroll.scrollHeight; });
    follow.observe(ui.trace);
    follow.observe(ui.columns);
    this.#applyHeight();
    this.#refresh();
    // Properties a page set before this module loaded would hide the accessors below.
    for (const name of ['tools', 'documents']) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
  }

  // ------------------------------------------------------------ properties and methods

  /** The interface and prompt language: the attribute, else the page's, else English. */
  get lang() {
    const wanted = this.getAttribute('lang') || this.parentElement?.closest('[lang]')?.getAttribute('lang') || 'en';
    return wanted.toLowerCase().startsWith('zh') ? 'zh' : 'en';
  }

  set lang(value) { this.setAttribute('lang', value); }

  /** Custom JavaScript tools for live runs: [{name, description, parameters, run, timeoutMs}]. */
  get tools() { return this.#tools; }

  set tools(list) { this.#tools = Array.isArray(list) ? list : []; }

  /** Documents search_docs searches in live runs, [{title, text}]; or a child <script slot="documents">. */
  get documents() {
    if (this.#documents) return this.#documents;
    const script = this.querySelector(':scope > script[type="application/json"][slot="documents"]');
    try {
      return script ? JSON.parse(script.textContent) : null;
    } catch {
      return null;
    }
  }

  set documents(list) { this.#documents = Array.isArray(list) ? list : null; }

  /** The loaded recording (validated), or null. */
  get trace() { return this.#trace; }

  /** Plays the recording; called before it has loaded, plays it once it has. */
  play() {
    if (this.#replay) this.#replay.play();
    else this.#playWhenReady = true;
  }

  pause() { this.#replay?.pause(); }

  step() { this.#replay?.step(); }

  restart() { this.#replay?.restart(); }

  // ------------------------------------------------------------ lifecycle

  connectedCallback() {
    if (this.#observer) return;
    // Nothing loads until the element is about to be seen; a replay moves only while seen.
    this.#observer = new IntersectionObserver((entries) => {
      this.#visible = entries.at(-1).isIntersecting;
      if (this.#visible && !this.#started) this.#start();
    }, { rootMargin: '100px 0px' });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#observer = null;
    this.#visible = false;
    this.#replay?.pause();
    this.#live?.agent?.abort();
  }

  attributeChangedCallback(name) {
    if (name === 'height') return this.#applyHeight();
    for (const view of this.#views) view.rerender(); // each draws in this.lang
    return this.#refresh();
  }

  #applyHeight() {
    const height = this.getAttribute('height');
    this.#ui.scroll.style.height = !height ? '' : /^\d+(\.\d+)?$/.test(height) ? `${height}px` : height;
  }

  /** The strings in this element's language (once the renderer has loaded). */
  get #tr() { return this.#r.strings(this.lang); }

  /** One of the core's sentences ({en, zh}) in this element's language; the page's own errors say a string. */
  #say(text) { return text && typeof text === 'object' ? this.#tr.say(text) : text; }

  /** What failed and how to fix it, in one line, as the core says it. */
  #problemLine(error) { return [this.#say(error.text) ?? error.message, this.#say(error.hint)].filter(Boolean).join(' '); }

  /** A view of the run drawn in this element's language, scrolling only the element's box. */
  #makeView(root, actions = {}) {
    return new this.#r.TraceView(root, { ...actions, lang: () => this.lang, reveal: false });
  }

  /** The wasm module, loaded for this element the first time it needs it. */
  async #loadCore() {
    this.#core ??= await loadCore();
    return this.#core;
  }

  // ------------------------------------------------------------ start-up and modes

  async #start() {
    this.#started = true;
    this.#setMode('loading');
    try {
      this.#r = await loadRenderer();
    } catch (error) {
      return this.#fail(error.message);
    }
    const endpoint = this.#endpoint();
    const src = this.getAttribute('trace-src')?.trim();
    const modelSrc = this.#modelSrc();
    const { t } = this.#tr;
    if (!endpoint && !src && !modelSrc) return this.#fail(t('embed.nothing'));
    this.#refresh();
    if (endpoint) this.#loadCore().catch(() => {}); // compiles while the recording downloads
    if (src) {
      try {
        const text = await this.#r.fetchRecording(new URL(src, document.baseURI).href, t);
        this.#trace = await this.#r.readRecording(text, { t, core: () => this.#loadCore() });
      } catch (error) {
        this.#traceError = error;
      }
    }
    if (modelSrc) return this.#offerInPage(src);
    return endpoint ? this.#tryLive() : this.#startReplay('replay');
  }

  // ------------------------------------------------------------ the in-page engine

  #modelSrc() {
    const src = this.getAttribute('model-src')?.trim();
    return src ? new URL(src, document.baseURI).href : '';
  }

  /**
   * model-src: the recording plays as usual (if there is one), and a button offers to run live
   * in the page, saying the model's size first (model-size, else a HEAD request). Nothing is
   * downloaded, and the engine does not start, before the reader clicks.
   */
  async #offerInPage(src) {
    if (src && this.#trace) this.#startReplay('replay');
    else this.#setMode('offer');
    const url = this.#modelSrc();
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
    let bytes = Number(this.getAttribute('model-size'));
    if (!bytes) {
      try {
        const head = await fetch(url, { method: 'HEAD' });
        bytes = head.ok ? Number(head.headers.get('content-length')) : NaN;
      } catch {
        bytes = NaN;
      }
    }
    this.#offer = { url, name, bytes };
    this.#refresh();
  }

  async #loadInPage() {
    const { url, name } = this.#offer;
    const { t } = this.#tr;
    const controller = new AbortController();
    this.#loading = { controller, text: t('embed.inPageStarting'), loaded: 0, total: 0 };
    this.#replay?.pause();
    this.#refresh();
    try {
      const [{ engine, size }] = await Promise.all([import('../inpage.js'), this.#loadCore()]);
      const info = await engine().load({ url }, {
        signal: controller.signal,
        onProgress: (p) => {
          Object.assign(this.#loading, {
            loaded: p.loaded, total: p.total,
            text: p.phase === 'load' ? t('embed.inPageStarting') : t('embed.inPageLoading', { name, loaded: size(p.loaded), total: size(p.total) }),
          });
          this.#refresh();
        },
      });
      this.#loading = null;
      this.#inPage = engine();
      this.#threads = info.isolated ? info.threads : 1;
      this.#startLive(info.modelName || info.name);
    } catch (error) {
      this.#loading = null;
      if (error.code === 'cancelled') return this.#refresh();
      this.#liveError = error;
      const message = t('embed.inPageFailed', { message: error.message });
      if (!this.#trace) return this.#fail(message);
      this.#startReplay('replay');
      return this.#setNote(message);
    }
  }

  #endpoint() {
    return this.getAttribute('endpoint')?.trim() || '';
  }

  /** The endpoint's models (a short probe), or a rejection with the core's hint. */
  async #probe() {
    const { listModels } = await this.#loadCore();
    return listModels({ baseUrl: this.#endpoint(), timeoutMs: PROBE_TIMEOUT_MS });
  }

  /** Live if the endpoint answers; else the recording, with the core's hint on running it live. */
  async #tryLive() {
    const endpoint = this.#endpoint();
    this.#setNote(this.#tr.t('embed.probing', { endpoint }));
    try {
      const models = await this.#probe();
      const model = this.getAttribute('model') || models[0];
      if (!model) throw new Error(this.#tr.t('embed.noModel', { endpoint }));
      return this.#startLive(model);
    } catch (error) {
      this.#note = '';
      this.#liveError = error;
      if (this.#mode === 'fallback') return this.#refresh();
      return this.#startReplay('fallback');
    }
  }

  #startReplay(mode) {
    if (!this.#trace) {
      const error = this.#traceError;
      if (error) return this.#fail(this.#say(error.text) ?? error.message, error.hint ?? null, 'embed.badTrace');
      return this.#fail(this.#say(this.#liveError.text) ?? this.#liveError.message, this.#liveError.hint, 'embed.unreachable');
    }
    const options = (first) => ({
      speed: Math.min(50, Math.max(0.1, Number(this.getAttribute('speed')) || 1)),
      visible: () => this.#visible,
      changed: () => this.#refresh(),
      placeholder: first ? this.#placeholder() : null,
    });
    const { Replay, ComparisonPlayer } = this.#r;
    const comparison = Boolean(this.#trace.columns);
    this.#ui.trace.hidden = comparison;
    this.#ui.columns.hidden = !comparison;
    // A comparison's columns replay side by side: Play, Step and Restart move them all.
    if (comparison) {
      this.#replay = new ComparisonPlayer(this.#ui.columns, this.#trace, {
        makeView: (element) => this.#makeView(element),
        makeReplay: (trace, view, first) => new Replay(trace, view, options(first)),
        t: (key, vars) => this.#tr.t(key, vars),
      });
      this.#views = this.#replay.views;
    } else {
      this.#views = [this.#makeView(this.#ui.trace)];
      this.#replay = new Replay(this.#trace, this.#views[0], options(true));
    }
    this.#setMode(mode);
    if (this.hasAttribute('autoplay') || this.#playWhenReady) this.#replay.play();
    return null;
  }

  /** The empty box before a replay starts: a big Play button. */
  #placeholder() {
    const { t } = this.#tr;
    const play = el('button', { type: 'button', className: 'primary big' }, t('share.page.play'));
    play.addEventListener('click', () => this.#replay?.play());
    return el('div', { className: 'placeholder' }, play, el('p', {}, t('share.page.start')));
  }

  #startLive(model) {
    this.#replay?.pause();
    this.#replay = null;
    this.#ui.trace.hidden = false;
    this.#ui.columns.hidden = true;
    this.#model = model;
    this.#ui.input.value ||= this.getAttribute('question') || this.#trace?.question || '';
    const view = this.#makeView(this.#ui.trace, {
      canRetry: (step) => Boolean(!this.#live.busy && step.view.can_retry),
      retry: () => this.#live.retry(),
      testConnection: this.#inPage ? undefined : () => this.#testConnection(),
      tokens: this.#core.estimateTokens,
    });
    this.#views = [view];
    this.#live = new this.#core.LiveRun(view, {
      changed: () => this.#refresh(),
      problem: (error) => this.#setNote(error ? this.#problemLine(error) : ''),
    });
    this.#setMode('live');
    if (this.hasAttribute('autoplay') && this.#ui.input.value) this.#runLive();
    else if (this.#inPage) this.#readAhead();
  }

  /** The model in the page reads the system prompt while the reader looks at the question. */
  #readAhead() {
    try {
      this.#inPage.prefill(this.#buildAgent().opening());
    } catch {
      // tools the core refused: Run says why
    }
  }

  // ------------------------------------------------------------ live runs

  #buildAgent() {
    const documents = this.documents;
    const server = this.#inPage ? { inPage: true } : { baseUrl: this.#endpoint(), stream: true };
    const agent = new this.#core.Agent({
      ...server, model: this.#model, lang: this.lang, ...(documents ? { documents } : {}),
    });
    if (this.#inPage) agent.useModel(this.#inPage.model);
    const wanted = this.getAttribute('tools');
    if (wanted != null) {
      const keep = wanted.split(',').map((name) => name.trim());
      for (const { name } of agent.tools()) if (!keep.includes(name)) agent.setToolEnabled(name, false);
    }
    for (const tool of this.#tools) agent.registerTool(tool);
    return agent;
  }

  #runLive() {
    if (this.#mode !== 'live' || this.#live.busy) return null;
    const question = this.#ui.input.value.trim();
    if (!question) return this.#ui.input.focus();
    try {
      this.#live.start(this.#buildAgent(), question);
    } catch (error) {
      return this.#setNote(error.message);
    }
    return this.#live.run();
  }

  async #testConnection() {
    const endpoint = this.#endpoint();
    const { t } = this.#tr;
    this.#setNote(t('embed.probing', { endpoint }));
    try {
      await this.#probe();
      this.#setNote(t('embed.connected', { model: this.#model, endpoint }));
    } catch (error) {
      this.#setNote(this.#problemLine(error));
    }
  }

  // ------------------------------------------------------------ drawing

  /** A problem shown inside the element, never thrown at the page. */
  #fail(message, hint = null, title = null) {
    this.#setMode('error');
    this.#views = [];
    if (!this.#r) return this.#ui.trace.replaceChildren(el('p', { className: 'doctor' }, message));
    const { t } = this.#tr;
    const { lang } = this;
    const doctor = title ? this.#r.doctor(t(title), message, hint, { lang }) : this.#r.doctor(message, '', hint, { lang });
    return this.#ui.trace.replaceChildren(doctor);
  }

  #setMode(mode) {
    this.#mode = mode;
    this.#note = '';
    this.#refresh();
  }

  #setNote(text) {
    this.#note = text;
    this.#refresh();
  }

  /** Redraws the bar, the note and the buttons for the current mode and state. */
  #refresh() {
    const ui = this.#ui;
    const mode = this.#mode;
    const live = mode === 'live';
    const busy = Boolean(this.#live?.busy);
    const replay = mode === 'replay' || mode === 'fallback' ? this.#replay : null;
    ui.frame.dataset.mode = mode;
    ui.frame.dataset.state = replay ? (replay.playing ? 'playing' : replay.done ? 'done' : 'paused') : live && busy ? 'running' : '';
    ui.frame.setAttribute('aria-busy', String(mode === 'loading'));
    ui.mode.hidden = !live && !replay;
    for (const button of [ui.play, ui.step, ui.restart]) button.hidden = !replay;
    ui.ask.hidden = !live;
    ui.run.disabled = busy;
    ui.stop.disabled = !busy;
    ui.note.className = `note${mode === 'fallback' && !this.#note ? ' fallback' : ''}`;
    if (!this.#r) return ui.note.replaceChildren(); // nothing to say before the strings load
    const { t } = this.#tr;
    ui.mode.textContent = t(live ? 'embed.live' : 'share.page.recording');
    ui.mode.className = `mode${live ? ' live' : ''}`;
    if (replay) {
      ui.play.textContent = t(replay.playing ? 'share.page.pause' : 'share.page.play');
      ui.step.textContent = t('run.step');
      ui.step.disabled = replay.done;
      ui.restart.textContent = t('share.page.restart');
    }
    ui.input.setAttribute('aria-label', t('comparison.question'));
    ui.run.textContent = t('run.run');
    ui.stop.textContent = t('run.stop');
    return ui.note.replaceChildren(...this.#noteContent(mode, t));
  }

  #offerButton(t) {
    const { name, bytes } = this.#offer;
    const button = el('button', { type: 'button', className: 'primary inpage' }, t('embed.inPageOffer', { name, size: megabytes(bytes) }));
    button.setAttribute('data-testid', 'inpage-offer');
    button.title = t('embed.inPageWhy');
    button.addEventListener('click', () => this.#loadInPage());
    return [' ', button, ' ', el('span', { className: 'muted' }, t('embed.inPageWhy'))];
  }

  #noteContent(mode, t) {
    const endpoint = this.#endpoint();
    if (this.#loading) {
      const bar = el('progress', { className: 'load' });
      if (this.#loading.total) Object.assign(bar, { max: this.#loading.total, value: this.#loading.loaded });
      bar.setAttribute('aria-label', this.#loading.text);
      const cancel = el('button', { type: 'button', className: 'link' }, t('inpage.cancel'));
      cancel.addEventListener('click', () => this.#loading?.controller.abort());
      return [bar, ' ', this.#loading.text, ' ', cancel];
    }
    const offer = this.#offer && !this.#inPage ? this.#offerButton(t) : [];
    if (this.#note) return [this.#note, ...offer];
    switch (mode) {
      case 'loading': return [t('embed.loading')];
      case 'replay': return [t('embed.replaying'), ...offer];
      case 'offer': return offer;
      case 'live': {
        if (!this.#inPage) return [t('embed.connected', { model: this.#model, endpoint })];
        const threads = this.#threads > 1 ? t('embed.inPageThreads', { count: this.#threads }) : t('embed.inPageOneThread');
        return [`${t('embed.inPageLive', { model: this.#model })} ${threads}`];
      }
      case 'fallback': {
        const error = this.#liveError;
        const again = el('button', { type: 'button', className: 'link' }, t('embed.tryLive'));
        again.addEventListener('click', () => this.#tryLive());
        return [
          `${t('embed.fallback', { endpoint })} `,
          el('span', { className: 'hint' }, ...withCode(this.#say(error?.hint) ?? '')),
          ' ',
          again,
          el('details', { className: 'why' }, el('summary', {}, t('embed.why')), el('p', {}, this.#say(error?.text) ?? error?.message ?? '')),
        ];
      }
      default: return [];
    }
  }
}

/** "98 MB": the in-page model's size before it is downloaded. */
function megabytes(bytes) {
  if (!Number.isFinite(bytes) || bytes <= 0) return '? MB';
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1e6))} MB`;
}

/** The core's hint with its commands (between backticks) set as code. */
const withCode = (hint) => hint.split('`').map((part, i) => (i % 2 ? el('code', {}, part) : part));

let sheet = null;

/** One stylesheet object, shared by every element's shadow root. */
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  return sheet;
}

if (!customElements.get('react-loop')) customElements.define('react-loop', ReactLoop);
export { ReactLoop };
