// <react-loop>: a ReAct run inside any page, with one script tag. It replays a recorded
// trace (no model needed), runs live against an OpenAI-compatible endpoint, or tries live and
// falls back to the recording. Usage and attributes: www/embed/README.md.
//
// Importing this module only defines the element. The wasm, the playground's card renderer
// (../trace.js) and the recording load when an element first comes near the viewport; the
// wasm is loaded once and shared by every element on the page. Everything from models, tools
// and recordings becomes text nodes (through ../dom.js's h()), never markup.
import { css } from './style.js';

const PROBE_TIMEOUT_MS = 1500;
// The most a recording may be: the core's MAX_TRACE_BYTES (src/limits.rs), checked here while
// it downloads (before the wasm has loaded), so a huge file is never held whole.
export const MAX_RECORDING_BYTES = 20_000_000;
const PLAYGROUND = new URL('../', import.meta.url).href;

const STRINGS = {
  en: {
    recording: 'Recording', live: 'Live', play: '▶ Play', pause: '❚❚ Pause', step: 'Step ›', restart: '↺ Restart',
    run: 'Run', stop: 'Stop', question: 'Question',
    idle: 'Loads when scrolled into view.', loading: 'Loading …',
    replaying: 'A recorded run, replayed: no model is called.',
    probing: 'Looking for a model at {endpoint} …',
    connected: 'Live: {model} at {endpoint}. Ask anything.',
    fallback: 'Showing a recording: no model answered at {endpoint}.',
    start: 'Watch the run, or go through it with Step.',
    tryLive: 'Try live again', why: 'Why, and what to do',
    badTrace: 'This recording cannot be played', unreachable: 'The model could not be reached', loadFailed: 'Could not load {url} ({reason}).',
    tooLarge: 'Could not load {url}: it is larger than {limit} MB, the most a recording may be.',
    nothing: 'Nothing to show: give <react-loop> a trace-src, an endpoint, or both.',
    noModel: 'The server at {endpoint} lists no models: set the model attribute.',
    hintMixed: 'To run it live, open this page over http or serve the model over https: an https page may not call an http server.',
    hintPrivate: 'To run it live, open this page from http://localhost: Chrome keeps https pages from calling your own machine or network (Private Network Access).',
    hintNetwork: 'To run it live, start one that allows this page: OLLAMA_ORIGINS={origin} ollama serve',
    inPageOffer: 'Run it live in this page ({name}, {size})',
    inPageWhy: 'The model runs inside this tab, with no server; nothing is downloaded until you click.',
    inPageLoading: 'Loading {name}: {loaded} of {total}',
    inPageStarting: 'Starting the model in this page …',
    inPageLive: 'Live in this page: {model}. Ask anything.',
    inPageFailed: 'The model could not run in this page: {message}',
    cancel: 'Cancel',
  },
  zh: {
    recording: '录制回放', live: '实时', play: '▶ 播放', pause: '❚❚ 暂停', step: '单步 ›', restart: '↺ 重新开始',
    run: '运行', stop: '停止', question: '问题',
    idle: '滚动到这里时加载。', loading: '加载中……',
    replaying: '这是一次录制的运行，正在回放：不会调用模型。',
    probing: '正在查找 {endpoint} 上的模型……',
    connected: '实时：{endpoint} 上的 {model}。可以随意提问。',
    fallback: '正在播放录制：{endpoint} 上没有模型响应。',
    start: '观看这次运行，或用“单步”逐步查看。',
    tryLive: '再试一次实时运行', why: '原因与解决方法',
    badTrace: '这份录制无法播放', unreachable: '无法连接模型', loadFailed: '无法加载 {url}（{reason}）。',
    tooLarge: '无法加载 {url}：它超过了录制文件的上限 {limit} MB。',
    nothing: '没有可显示的内容：请给 <react-loop> 设置 trace-src、endpoint，或两者都设置。',
    noModel: '{endpoint} 上的服务器没有列出模型：请设置 model 属性。',
    hintMixed: '要实时运行，请通过 http 打开本页，或用 https 提供模型服务：https 页面不能调用 http 服务。',
    hintPrivate: '要实时运行，请从 http://localhost 打开本页：Chrome 不允许 https 页面访问你自己的电脑或局域网（Private Network Access）。',
    hintNetwork: '要实时运行，请启动允许本页访问的模型服务：OLLAMA_ORIGINS={origin} ollama serve',
    inPageOffer: '在本页实时运行（{name}，{size}）',
    inPageWhy: '模型在这个标签页里运行，无需服务器；点击之前不会下载任何内容。',
    inPageLoading: '正在加载 {name}：{loaded} / {total}',
    inPageStarting: '正在本页启动模型……',
    inPageLive: '在本页实时运行：{model}。可以随意提问。',
    inPageFailed: '模型无法在本页运行：{message}',
    cancel: '取消',
  },
};

function say(lang, key, vars = {}) {
  const text = (STRINGS[lang] ?? STRINGS.en)[key] ?? STRINGS.en[key];
  return text.replace(/\{(\w+)\}/g, (slot, name) => (name in vars ? String(vars[name]) : slot));
}

// ---------------------------------------------------------------- loaded once per page

let core = null;

/** The wasm (initialised once) and the playground's renderer, for every element. */
function loadCore() {
  core ??= Promise.all([import('../pkg/reactloop.js'), import('../trace.js'), import('../i18n.js'), import('../comparison.js')])
    .then(async ([pkg, trace, i18n, comparison]) => {
      await pkg.default();
      return {
        pkg, doctor: trace.doctor, Replay: trace.Replay, useLang: i18n.useLang, View: embedView(trace.TraceView, i18n.useLang),
        readComparison: comparison.readComparison, ComparisonPlayer: comparison.ComparisonPlayer,
      };
    });
  core.catch(() => { core = null; }); // a later element may try again
  return core;
}

/**
 * The page's TraceView, drawing in one element's language and scrolling only the element's
 * own box (the page's version scrolls the window to each new card).
 */
function embedView(TraceView, useLang) {
  return class EmbedView extends TraceView {
    constructor(root, actions, scroller, lang) {
      super(root, actions);
      Object.assign(this, { scroller, lang, pinned: true, followFrame: 0 });
      // Whether the reader follows the end is read when they scroll, not on every change:
      // measuring a box after each change would force a layout for each streamed piece.
      scroller.addEventListener('scroll', () => {
        this.pinned = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 48;
      }, { passive: true });
      for (const name of ['reset', 'event', 'showStep', 'showOutcome', 'showEnd', 'rerender']) {
        const method = this[name];
        this[name] = (...args) => {
          useLang(this.lang);
          const result = method.apply(this, args);
          this.follow();
          return result;
        };
      }
    }

    /** Keeps the end in view while the reader follows it, once a frame. */
    follow() {
      if (!this.pinned || this.followFrame) return;
      this.followFrame = requestAnimationFrame(() => {
        this.followFrame = 0;
        this.scroller.scrollTop = this.scroller.scrollHeight;
      });
    }

    reveal() {} // follow() keeps the newest card in view while the reader follows
  };
}

// ---------------------------------------------------------------- one-line hints

/**
 * One line that says how to run it live, from a listModels error: the mixed-content case,
 * Chrome's Private Network Access case (the core decides it: `error.privateNetwork`), a server
 * that is not running, hangs or refuses this origin, or else the core's own hint.
 */
export function liveHint(error, { endpoint, page = location.href, lang = 'en' }) {
  const vars = { endpoint, origin: new URL(page).origin };
  const kind = error?.detail?.type;
  if (kind === 'mixed_content') return say(lang, 'hintMixed', vars);
  if (error?.privateNetwork) return say(lang, 'hintPrivate', vars);
  if (kind === 'network' || kind === 'timeout') return say(lang, 'hintNetwork', vars);
  return inLang(error?.hint, lang) ?? error?.message ?? String(error);
}

/** The core's sentences come in every language ({en, zh}); other errors say a string. */
const inLang = (text, lang) => (text && typeof text === 'object' ? text[lang] ?? text.en : text);

// ---------------------------------------------------------------- the element

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function textOf(value) {
  return document.createTextNode(value);
}

class ReactLoop extends HTMLElement {
  static observedAttributes = ['lang', 'height'];

  #ui;
  #core = null; // the shared wasm and renderer, once loaded
  #view = null;
  #replay = null;
  #trace = null; // the validated recording: one run, or a comparison ({kind, columns, question})
  #traceError = null; // why the recording could not be loaded
  #agent = null; // the live run's agent
  #model = '';
  #busy = false;
  #mode = 'idle'; // idle, loading, replay, fallback, live, error
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
    ui.stop.addEventListener('click', () => this.#agent?.abort());
    // Card parts built on demand (the X-ray, "show more") draw in this element's language.
    for (const type of ['toggle', 'click']) shadow.addEventListener(type, () => this.#core?.useLang(this.lang), true);
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

  /** The loaded recording (validated by the core), or null. */
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
    this.#agent?.abort();
  }

  attributeChangedCallback(name) {
    if (name === 'height') return this.#applyHeight();
    for (const view of [this.#view, ...(this.#replay?.views ?? [])]) {
      if (!view) continue;
      view.lang = this.lang;
      view.rerender();
    }
    return this.#refresh();
  }

  #applyHeight() {
    const height = this.getAttribute('height');
    this.#ui.scroll.style.height = !height ? '' : /^\d+(\.\d+)?$/.test(height) ? `${height}px` : height;
  }

  // ------------------------------------------------------------ start-up and modes

  async #start() {
    this.#started = true;
    const endpoint = this.#endpoint();
    const src = this.getAttribute('trace-src')?.trim();
    const modelSrc = this.#modelSrc();
    if (!endpoint && !src && !modelSrc) return this.#fail(say(this.lang, 'nothing'));
    this.#setMode('loading');
    // The recording downloads while the wasm compiles.
    const text = src ? fetchText(new URL(src, document.baseURI).href, this.lang) : null;
    text?.catch(() => {});
    try {
      this.#core = await loadCore();
    } catch (error) {
      return this.#fail(error.message);
    }
    this.#view = new this.#core.View(this.#ui.trace, {
      canRetry: (step) => Boolean(this.#agent && !this.#busy && step.view.can_retry),
      retry: () => this.#retry(),
      testConnection: () => this.#testConnection(),
    }, this.#ui.scroll, this.lang);
    if (text) {
      try {
        const body = await text;
        const { pkg, readComparison, useLang } = this.#core;
        useLang(this.lang); // a comparison's messages come in the element's language
        this.#trace = readComparison(body, pkg.loadTrace) ?? pkg.loadTrace(body);
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
    const { engine, size } = await import('../inpage.js');
    const controller = new AbortController();
    this.#loading = { controller, text: say(this.lang, 'inPageStarting'), loaded: 0, total: 0 };
    this.#replay?.pause();
    this.#refresh();
    try {
      const info = await engine().load({ url }, {
        signal: controller.signal,
        onProgress: (p) => {
          Object.assign(this.#loading, {
            loaded: p.loaded, total: p.total,
            text: p.phase === 'load' ? say(this.lang, 'inPageStarting') : say(this.lang, 'inPageLoading', { name, loaded: size(p.loaded), total: size(p.total) }),
          });
          this.#refresh();
        },
      });
      this.#loading = null;
      this.#inPage = engine();
      this.#startLive(info.modelName || info.name);
    } catch (error) {
      this.#loading = null;
      if (error.code === 'cancelled') return this.#refresh();
      this.#liveError = error;
      if (this.#trace) {
        this.#startReplay('replay');
        return this.#setNote(say(this.lang, 'inPageFailed', { message: error.message }));
      }
      return this.#fail(say(this.lang, 'inPageFailed', { message: error.message }));
    }
  }

  #endpoint() {
    return this.getAttribute('endpoint')?.trim() || '';
  }

  /** The endpoint's models (a short probe), or a rejection with the core's hint. */
  #probe() {
    return this.#core.pkg.listModels({ baseUrl: this.#endpoint(), timeoutMs: PROBE_TIMEOUT_MS });
  }

  /** Live if the endpoint answers; else the recording, with a line saying how to run it live. */
  async #tryLive() {
    const endpoint = this.#endpoint();
    this.#setNote(say(this.lang, 'probing', { endpoint }));
    try {
      const models = await this.#probe();
      const model = this.getAttribute('model') || models[0];
      if (!model) throw new Error(say(this.lang, 'noModel', { endpoint }));
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
      if (this.#traceError) return this.#fail(this.#traceError.message, null, 'badTrace');
      return this.#fail(this.#liveError.message, this.#liveError.hint, 'unreachable');
    }
    const options = (first) => ({
      speed: Math.min(50, Math.max(0.1, Number(this.getAttribute('speed')) || 1)),
      visible: () => this.#visible,
      changed: () => this.#refresh(),
      placeholder: first ? this.#placeholder() : null,
    });
    const { Replay, View, ComparisonPlayer } = this.#core;
    const comparison = Boolean(this.#trace.columns);
    this.#ui.trace.hidden = comparison;
    this.#ui.columns.hidden = !comparison;
    // A comparison's columns replay side by side: Play, Step and Restart move them all.
    this.#replay = comparison
      ? new ComparisonPlayer(this.#ui.columns, this.#trace, {
        makeView: (element) => new View(element, {}, this.#ui.scroll, this.lang),
        makeReplay: (trace, view, first) => new Replay(trace, view, options(first)),
      })
      : new Replay(this.#trace, this.#view, options(true));
    this.#setMode(mode);
    if (this.hasAttribute('autoplay') || this.#playWhenReady) this.#replay.play();
    return null;
  }

  /** The empty box before a replay starts: a big Play button. */
  #placeholder() {
    const play = el('button', { type: 'button', className: 'primary big' }, say(this.lang, 'play'));
    play.addEventListener('click', () => this.#replay?.play());
    return el('div', { className: 'placeholder' }, play, el('p', {}, say(this.lang, 'start')));
  }

  #startLive(model) {
    this.#replay?.pause();
    this.#replay = null;
    this.#ui.trace.hidden = false;
    this.#ui.columns.hidden = true;
    this.#model = model;
    this.#ui.input.value ||= this.getAttribute('question') || this.#trace?.question || '';
    this.#view.reset();
    this.#setMode('live');
    if (this.hasAttribute('autoplay') && this.#ui.input.value) this.#runLive();
  }

  // ------------------------------------------------------------ live runs

  #buildAgent() {
    const documents = this.documents;
    const server = this.#inPage ? { inPage: true } : { baseUrl: this.#endpoint(), stream: true };
    const agent = new this.#core.pkg.Agent({
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

  async #runLive() {
    if (this.#busy || this.#mode !== 'live') return;
    const question = this.#ui.input.value.trim();
    if (!question) return this.#ui.input.focus();
    let agent;
    try {
      agent = this.#buildAgent();
      agent.start(question);
    } catch (error) {
      return this.#setNote(error.message);
    }
    this.#agent = agent;
    this.#view.reset(agent.trace());
    await this.#drive(agent);
  }

  async #retry() {
    const agent = this.#agent;
    try {
      this.#view.showOutcome(null);
      agent.retry((event) => this.#view.event(event)); // redraws the failed step without its Retry button
    } catch (error) {
      return this.#setNote(error.message);
    }
    return this.#drive(agent);
  }

  async #drive(agent) {
    this.#busy = true;
    this.#setNote('');
    try {
      await agent.continueRun((event) => this.#agent === agent && this.#view.event(event));
    } catch (error) {
      this.#note = error.message;
    } finally {
      this.#busy = false;
      this.#refresh();
    }
  }

  async #testConnection() {
    const endpoint = this.#endpoint();
    this.#setNote(say(this.lang, 'probing', { endpoint }));
    try {
      await this.#probe();
      this.#setNote(say(this.lang, 'connected', { model: this.#model, endpoint }));
    } catch (error) {
      this.#setNote(`${inLang(error.text, this.lang) ?? error.message} ${inLang(error.hint, this.lang) ?? ''}`);
    }
  }

  // ------------------------------------------------------------ drawing

  /** A problem shown inside the element, never thrown at the page. */
  #fail(message, hint = null, title = null) {
    this.#setMode('error');
    const heading = title ? say(this.lang, title) : null;
    if (!this.#core) return this.#ui.trace.replaceChildren(el('p', { className: 'doctor' }, [heading, message].filter(Boolean).join(': ')));
    this.#core.useLang(this.lang);
    return this.#ui.trace.replaceChildren(this.#core.doctor(heading ?? message, heading ? message : '', hint));
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
    const lang = this.lang;
    const mode = this.#mode;
    const live = mode === 'live';
    const replay = mode === 'replay' || mode === 'fallback' ? this.#replay : null;
    ui.frame.dataset.mode = mode;
    ui.frame.dataset.state = replay ? (replay.playing ? 'playing' : replay.done ? 'done' : 'paused') : live && this.#busy ? 'running' : '';
    ui.mode.textContent = say(lang, live ? 'live' : 'recording');
    ui.mode.className = `mode${live ? ' live' : ''}`;
    ui.mode.hidden = !live && !replay;
    for (const button of [ui.play, ui.step, ui.restart]) button.hidden = !replay;
    if (replay) {
      ui.play.textContent = say(lang, replay.playing ? 'pause' : 'play');
      ui.step.textContent = say(lang, 'step');
      ui.step.disabled = replay.done;
      ui.restart.textContent = say(lang, 'restart');
    }
    ui.ask.hidden = !live;
    ui.input.setAttribute('aria-label', say(lang, 'question'));
    ui.run.textContent = say(lang, 'run');
    ui.stop.textContent = say(lang, 'stop');
    ui.run.disabled = this.#busy;
    ui.stop.disabled = !this.#busy;
    ui.note.className = `note${mode === 'fallback' && !this.#note ? ' fallback' : ''}`;
    ui.note.replaceChildren(...this.#noteContent(mode, lang));
  }

  #offerButton(lang) {
    const { name, bytes } = this.#offer;
    const button = el('button', { type: 'button', className: 'primary inpage' }, say(lang, 'inPageOffer', { name, size: megabytes(bytes) }));
    button.setAttribute('data-testid', 'inpage-offer');
    button.title = say(lang, 'inPageWhy');
    button.addEventListener('click', () => this.#loadInPage());
    return [' ', button, ' ', el('span', { className: 'muted' }, say(lang, 'inPageWhy'))];
  }

  #noteContent(mode, lang) {
    const endpoint = this.#endpoint();
    if (this.#loading) {
      const bar = el('progress', { className: 'load' });
      if (this.#loading.total) Object.assign(bar, { max: this.#loading.total, value: this.#loading.loaded });
      bar.setAttribute('aria-label', this.#loading.text);
      const cancel = el('button', { type: 'button', className: 'link' }, say(lang, 'cancel'));
      cancel.addEventListener('click', () => this.#loading?.controller.abort());
      return [bar, ' ', textOf(this.#loading.text), ' ', cancel];
    }
    const offer = this.#offer && !this.#inPage ? this.#offerButton(lang) : [];
    if (this.#note) return [textOf(this.#note), ...offer];
    switch (mode) {
      case 'idle': return [textOf(say(lang, 'idle'))];
      case 'loading': return [textOf(say(lang, 'loading'))];
      case 'replay': return [textOf(say(lang, 'replaying')), ...offer];
      case 'offer': return offer;
      case 'live': return [textOf(say(lang, this.#inPage ? 'inPageLive' : 'connected', { model: this.#model, endpoint }))];
      case 'fallback': {
        const error = this.#liveError;
        const again = el('button', { type: 'button', className: 'link' }, say(lang, 'tryLive'));
        again.addEventListener('click', () => this.#tryLive());
        return [
          `${say(lang, 'fallback', { endpoint })} `,
          el('span', { className: 'hint' }, ...withCode(liveHint(error, { endpoint, lang }))),
          ' ',
          again,
          el('details', { className: 'why' }, el('summary', {}, say(lang, 'why')),
            el('p', {}, inLang(error?.text, lang) ?? error?.message ?? ''),
            error?.hint ? el('p', {}, inLang(error.hint, lang)) : ''),
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

/** A hint's shell command (the part from OLLAMA_ORIGINS=) set as code. */
function withCode(hint) {
  const at = hint.indexOf('OLLAMA_ORIGINS=');
  return at < 0 ? [hint] : [hint.slice(0, at), el('code', {}, hint.slice(at))];
}

let sheet = null;

/** One stylesheet object, shared by every element's shadow root. */
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  return sheet;
}

const texts = new Map(); // url → promise of its text: a recording used twice loads once

function fetchText(url, lang) {
  if (!texts.has(url)) {
    const text = download(url, lang);
    texts.set(url, text);
    text.catch(() => texts.delete(url));
  }
  return texts.get(url);
}

async function download(url, lang) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(say(lang, 'loadFailed', { url, reason: error.message }));
  }
  if (!response.ok) throw new Error(say(lang, 'loadFailed', { url, reason: `HTTP ${response.status}` }));
  const tooLarge = () => new Error(say(lang, 'tooLarge', { url, limit: MAX_RECORDING_BYTES / 1e6 }));
  // A declared length says it at once; the count below holds when there is none (or a wrong one).
  if (Number(response.headers.get('content-length')) > MAX_RECORDING_BYTES) {
    response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    let read;
    try {
      read = await reader.read();
    } catch (error) {
      throw new Error(say(lang, 'loadFailed', { url, reason: error.message }));
    }
    if (read.done) break;
    size += read.value.byteLength;
    if (size > MAX_RECORDING_BYTES) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

if (!customElements.get('react-loop')) customElements.define('react-loop', ReactLoop);
export { ReactLoop };
