// The Connect panel's "In this page (no server)" choice: pick a .gguf file or give a URL, see
// the progress (bytes, an estimate, Cancel), keep models in the cache (and forget them), and
// the state of the engine. The engine itself is www/inpage.js.
import { $, h } from './dom.js';
import { t, addStrings, applyI18n, lang } from './i18n.js';
import { engine, sameOrigin, size, estimate } from './inpage.js';
import { oneThreadReason, failureDetail } from './isolation.js';

export { engine };

// Small GGUF models people run, from their publishers' or a well-known quantizer's Hugging Face
// repositories. The sizes are approximate (as listed there); the download shows the real one.
// Picking one is a download from another origin: it asks first, as a link's model-src does.
export const CATALOG = [
  {
    name: 'SmolLM2-135M-Instruct Q4_K_M', about: '~100 MB',
    url: 'https://huggingface.co/bartowski/SmolLM2-135M-Instruct-GGUF/resolve/main/SmolLM2-135M-Instruct-Q4_K_M.gguf',
  },
  {
    name: 'Qwen2.5-0.5B-Instruct Q4_K_M', about: '~400 MB',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
  },
  {
    name: 'Qwen2.5-1.5B-Instruct Q4_K_M', about: '~1 GB',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
  },
];

addStrings({
  en: {
    'inpage.note': 'llama.cpp runs inside this tab (WebAssembly, in a Worker): pick a GGUF model file and the loop runs offline. Nothing leaves this computer.',
    'inpage.file': 'A GGUF file from this computer',
    'inpage.url': 'Or the URL of a GGUF file',
    'inpage.load': 'Load',
    'inpage.forget': 'Forget',
    'inpage.use': 'Use',
    'inpage.cached': 'Kept in this browser:',
    'inpage.none': 'No model loaded yet.',
    'inpage.read': 'Reading {name} into the cache: {loaded} of {total}',
    'inpage.download': 'Downloading {name}: {loaded} of {total}',
    'inpage.starting': 'Starting llama.cpp with {name} ({total}) …',
    'inpage.eta': ', about {seconds} s left',
    'inpage.loaded': '{name} is loaded ({size}, {how} in {seconds} s). {threads}',
    'inpage.fromCache': 'from the cache',
    'inpage.fresh': 'now kept in this browser',
    'inpage.gpu': 'On the GPU: {name}.',
    'inpage.cpu': 'On the CPU ({why}).',
    'inpage.gpu.refused.no_webgpu': 'this browser has no WebGPU',
    'inpage.gpu.refused.no_adapter': 'the browser offers no GPU adapter',
    'inpage.gpu.refused.software': '{name} is a software adapter, slower than the CPU',
    'inpage.gpu.refused.no_f16': '{name} lacks 16-bit floats in shaders (shader-f16), which the GPU backend needs',
    'inpage.gpu.refused.off': 'the GPU is turned off by the link (gpu=0)',
    'inpage.gpu.failed': 'The GPU ({name}) failed while the model loaded, so it runs on the CPU: {detail}',
    'inpage.oneThread.headers': 'One thread: this page is not cross-origin isolated (its host sends no COOP/COEP headers).',
    'inpage.oneThread.noWorker': 'One thread: this host sends no cross-origin isolation headers, and this browser gives the page no service worker to add them (a private window, or a page not on https or localhost).',
    'inpage.oneThread.refused': 'One thread: the page reloaded through its service worker and is still not cross-origin isolated; a host that sends the COOP/COEP headers gives threads (README, "A model inside the page").',
    'inpage.oneThread.failed': 'One thread: the service worker that adds the isolation headers could not start ({detail}).',
    'inpage.oneThread.late': 'One thread: the service worker that adds the isolation headers did not start within 5 s.',
    'inpage.threads': '{count} thread(s) of {cores} cores (cross-origin isolated).',
    'inpage.compat': 'wllama\'s compat build (32-bit memory, Asyncify), from this site: this browser lacks {missing}.',
    'inpage.compat.forced': 'wllama\'s compat build (32-bit memory, Asyncify), as the link asks (compat=1).',
    'inpage.compat.cpu': 'wllama\'s compat build (32-bit memory, Asyncify): on the CPU it runs faster than the default build (compat=0 in the link asks for that one).',
    'inpage.model': '{name} (in the page, {where})',
    'inpage.model.cpu': 'CPU, {count} thread(s)',
    'inpage.model.compat': '{where}, compat build',
    'inpage.noTemplate': 'This GGUF carries no chat template; llama.cpp uses its default (ChatML).',
    'inpage.template': 'Chat template: the model\'s own, from the GGUF.',
    'inpage.speed': 'Last reply: {prompt} new prompt tokens at {pps} tokens/s ({cached} reused from the cache), {gen} generated at {gps} tokens/s.',
    'inpage.prefill.busy': 'Reading the system prompt into the prompt cache ahead of the question…',
    'inpage.prefill.done': 'System prompt read ahead into the prompt cache: {prompt} tokens at {pps} tokens/s ({seconds} s). The next run\'s first step starts after it.',
    'inpage.failed': 'The model could not be loaded',
    'inpage.cancelled': 'Loading was cancelled.',
    'inpage.confirm': 'This link wants to load a model from {host} into this page. Download it?',
    'inpage.why': 'Nothing is downloaded until you agree. The model runs here; your questions are not sent anywhere.',
    'inpage.agree': 'Download and load',
    'inpage.decline': 'Use the demo model',
    'inpage.catalog': 'Small models people use (downloaded from Hugging Face once you agree):',
    'inpage.pick': 'Download',
    'inpage.confirmPick': 'Download {name} ({about}) from {host} into this page?',

    'inpage.error.no_cache': 'This browser gives the page no private file system (OPFS) to keep the model in.',
    'inpage.error.not_cached': 'That model is no longer in the cache; pick the file again.',
    'inpage.error.not_gguf': '{name} is not a GGUF model file: a GGUF file begins with the bytes "GGUF", this one with "{start}". Pick a .gguf file (llama.cpp\'s format).',
    'inpage.error.quota': 'There is not enough storage for the model ({mb} MB written before the browser refused more). Free some disk space or forget other cached models.',
    'inpage.error.network': 'Could not download {url}: the server could not be reached, or it is on another origin and does not allow this page (CORS: it must send Access-Control-Allow-Origin).',
    'inpage.error.http': 'Could not download {url}: the server answered HTTP {status}.',
    'inpage.error.memory': 'The model did not fit in this tab\'s memory ({mb} MB file): pick a smaller model or quantisation.',
    'inpage.error.load': 'llama.cpp could not load {name}.',
    'inpage.error.engine': 'The in-page engine failed.',
    'inpage.error.notUrl': '{src} is not a URL.',
    'inpage.detail': 'It said: {detail}',
  },
  zh: {
    'inpage.note': 'llama.cpp 在这个标签页里运行（WebAssembly，在 Worker 中）：选择一个 GGUF 模型文件，循环即可离线运行。任何内容都不会离开这台电脑。',
    'inpage.file': '本机上的 GGUF 文件',
    'inpage.url': '或 GGUF 文件的地址',
    'inpage.load': '加载',
    'inpage.forget': '删除',
    'inpage.use': '使用',
    'inpage.cached': '保存在本浏览器中：',
    'inpage.none': '尚未加载模型。',
    'inpage.read': '正在把 {name} 读入缓存：{loaded} / {total}',
    'inpage.download': '正在下载 {name}：{loaded} / {total}',
    'inpage.starting': '正在用 {name}（{total}）启动 llama.cpp……',
    'inpage.eta': '，大约还需 {seconds} 秒',
    'inpage.loaded': '{name} 已加载（{size}，{how}，用时 {seconds} 秒）。{threads}',
    'inpage.fromCache': '来自缓存',
    'inpage.fresh': '已保存在本浏览器中',
    'inpage.gpu': '在 GPU 上运行：{name}。',
    'inpage.cpu': '在 CPU 上运行（{why}）。',
    'inpage.gpu.refused.no_webgpu': '这个浏览器没有 WebGPU',
    'inpage.gpu.refused.no_adapter': '浏览器没有提供 GPU 适配器',
    'inpage.gpu.refused.software': '{name} 是软件适配器，比 CPU 还慢',
    'inpage.gpu.refused.no_f16': '{name} 的着色器不支持 16 位浮点数（shader-f16），而 GPU 后端需要它',
    'inpage.gpu.refused.off': '链接关闭了 GPU（gpu=0）',
    'inpage.gpu.failed': 'GPU（{name}）在加载模型时出错，所以模型改在 CPU 上运行：{detail}',
    'inpage.oneThread.headers': '单线程：本页没有跨源隔离（它的主机没有发送 COOP/COEP 头）。',
    'inpage.oneThread.noWorker': '单线程：这个主机没有发送跨源隔离头，而这个浏览器不给本页可以补上它们的 service worker（无痕窗口，或者页面不在 https 或 localhost 上）。',
    'inpage.oneThread.refused': '单线程：页面经由它的 service worker 重新加载后仍然没有跨源隔离；发送 COOP/COEP 头的主机可以提供多线程（见 README“A model inside the page”）。',
    'inpage.oneThread.failed': '单线程：添加隔离头的 service worker 无法启动（{detail}）。',
    'inpage.oneThread.late': '单线程：添加隔离头的 service worker 在 5 秒内没有启动。',
    'inpage.threads': '{count} 个线程，共 {cores} 个核心（已跨源隔离）。',
    'inpage.compat': '使用 wllama 的兼容版本（32 位内存、Asyncify，由本站提供）：这个浏览器缺少 {missing}。',
    'inpage.compat.forced': '按链接的要求（compat=1）使用 wllama 的兼容版本（32 位内存、Asyncify）。',
    'inpage.compat.cpu': '使用 wllama 的兼容版本（32 位内存、Asyncify）：在 CPU 上它比默认版本快（链接里加 compat=0 可改用默认版本）。',
    'inpage.model': '{name}（页面内，{where}）',
    'inpage.model.cpu': 'CPU，{count} 个线程',
    'inpage.model.compat': '{where}，兼容版本',
    'inpage.noTemplate': '这个 GGUF 没有聊天模板；llama.cpp 使用默认模板（ChatML）。',
    'inpage.template': '聊天模板：模型自带的，来自 GGUF。',
    'inpage.speed': '上一次回复：{prompt} 个新提示词元，每秒 {pps} 个（{cached} 个来自缓存），生成 {gen} 个，每秒 {gps} 个。',
    'inpage.prefill.busy': '正在提问之前把系统提示词预先读入提示缓存…',
    'inpage.prefill.done': '系统提示词已预先读入提示缓存：{prompt} 个词元，每秒 {pps} 个（{seconds} 秒）。下一次运行的第一步从它之后开始。',
    'inpage.failed': '无法加载模型',
    'inpage.cancelled': '已取消加载。',
    'inpage.confirm': '这个链接想从 {host} 把一个模型加载到本页。要下载吗？',
    'inpage.why': '在你同意之前不会下载任何内容。模型在这里运行；你的问题不会发送到任何地方。',
    'inpage.agree': '下载并加载',
    'inpage.decline': '使用演示模型',
    'inpage.catalog': '常用的小模型（你同意后从 Hugging Face 下载）：',
    'inpage.pick': '下载',
    'inpage.confirmPick': '要从 {host} 把 {name}（{about}）下载到本页吗？',

    'inpage.error.no_cache': '这个浏览器没有给本页提供用来保存模型的私有文件系统（OPFS）。',
    'inpage.error.not_cached': '这个模型已经不在缓存里了；请重新选择文件。',
    'inpage.error.not_gguf': '{name} 不是 GGUF 模型文件：GGUF 文件以字节 "GGUF" 开头，这个文件以 "{start}" 开头。请选择 .gguf 文件（llama.cpp 的格式）。',
    'inpage.error.quota': '存储空间不够放下这个模型（浏览器拒绝前已写入 {mb} MB）。请清理磁盘空间，或删除其他缓存的模型。',
    'inpage.error.network': '无法下载 {url}：连不上服务器，或者它在另一个源上且不允许本页访问（CORS：它必须发送 Access-Control-Allow-Origin）。',
    'inpage.error.http': '无法下载 {url}：服务器返回了 HTTP {status}。',
    'inpage.error.memory': '这个模型放不进本标签页的内存（文件 {mb} MB）：请选择更小的模型或量化版本。',
    'inpage.error.load': 'llama.cpp 无法加载 {name}。',
    'inpage.error.engine': '页内引擎出错了。',
    'inpage.error.notUrl': '{src} 不是一个网址。',
    'inpage.detail': '它的原话：{detail}',
  },
});

const el = {
  fields: $('#inpage-fields'), file: $('#model-file'), url: $('#model-url'), loadUrl: $('#model-url-load'),
  confirm: $('#inpage-confirm'), progress: $('#inpage-progress'), bar: $('#inpage-bar'), progressText: $('#inpage-progress-text'),
  cancel: $('#inpage-cancel'), status: $('#inpage-status'), problem: $('#inpage-problem'), cached: $('#inpage-cached'),
  speed: $('#inpage-speed'), catalog: $('#inpage-catalog'),
};

let loading = null; // the AbortController of the load in progress
let shownOnce = false;
let onDecline = () => {};
let opening = () => null; // the next run's opening (`agent.opening()`), or null while a run is on
let speedLine = null; // what the speed line says, [key, params], to say again in another language
let readAheads = 0; // read-aheads started: only the latest says how it ended

/**
 * @param {{ decline?: () => void, opening?: () => ({ role: string, content: string }[] | null) }} [options]
 */
export function initInPage({ decline, opening: nextOpening } = {}) {
  onDecline = decline ?? onDecline;
  opening = nextOpening ?? opening;
  applyI18n(el.fields); // the page drew the panel's static text before these strings were here
  const takeFile = () => {
    const [file] = el.file.files;
    if (file) load({ file });
    el.file.value = '';
  };
  el.file.addEventListener('change', takeFile);
  // A file picked while this module was still loading fired its change event before the listener.
  takeFile();
  el.loadUrl.addEventListener('click', () => {
    const url = el.url.value.trim();
    if (url) load({ url });
  });
  el.url.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      el.loadUrl.click();
    }
  });
  el.cancel.addEventListener('click', () => loading?.abort());
  // Disabled in the page until now: a click before this module was loaded would do nothing.
  el.loadUrl.disabled = false;
  renderCatalog();
}

function renderCatalog() {
  el.catalog.replaceChildren(...CATALOG.map((model) => h('li', { 'data-testid': 'catalog-model' },
    h('span', {}, `${model.name} (${model.about})`),
    h('button', {
      type: 'button', 'data-testid': 'catalog-pick', 'aria-label': `${t('inpage.pick')} ${model.name}`,
      onclick: () => pickFromCatalog(model),
    }, t('inpage.pick')))));
}

/** A catalog model: asked first, then loaded (and kept in the cache like any other). */
async function pickFromCatalog(model) {
  const question = t('inpage.confirmPick', { name: model.name, about: model.about, host: new URL(model.url).host });
  if (await agree(question, { decline: t('inpage.cancel') })) return load({ url: model.url });
  return false;
}

/**
 * The choice was made (www/connect.js shows the fields): show what the cache holds (the worker
 * starts now, not at page load). With `auto`, the model kept last is loaded from the cache, so
 * after a reload the next run needs no file.
 */
export function showInPage({ auto = true } = {}) {
  if (!shownOnce) {
    shownOnce = true;
    renderCached().then((models) => {
      if (auto && models.length && !engine().loaded && !loading) load({ key: models[0].key });
    });
  }
  renderStatus();
}

/** Whether a model is loaded and ready to answer. */
export const inPageLoaded = () => Boolean(engine().loaded);

/** The Agent settings for the in-page engine. */
export function inPageSettings() {
  const info = engine().loaded;
  const name = info?.modelName || info?.name || 'in-page model';
  if (!info) return { inPage: true, model: name };
  // The trace's model names the device too, for whoever reads the run later, in the
  // language the page is in when the run starts (the trace keeps it as written).
  const device = info.gpu ? `GPU ${info.gpu}` : t('inpage.model.cpu', { count: info.threads ?? 1 });
  const where = info.compat ? t('inpage.model.compat', { where: device }) : device;
  return { inPage: true, model: t('inpage.model', { name, where }) };
}

/** A reply came in: show its speed (prompt tokens, the ones reused from the prompt cache, generation). */
export function showSpeed() {
  const timings = engine().last?.timings;
  if (!timings) return;
  say('inpage.speed', {
    prompt: timings.prompt_n ?? '?', pps: fixed(timings.prompt_per_second), cached: timings.cache_n ?? 0,
    gen: timings.predicted_n ?? '?', gps: fixed(timings.predicted_per_second),
  });
}

const fixed = (n) => (Number.isFinite(n) ? n.toFixed(1) : '?');

function say(key, params = {}) {
  speedLine = [key, params];
  el.speed.textContent = t(key, params);
}

/**
 * With a model loaded and no run on, the engine reads the next run's opening into its prompt
 * cache (`engine().prefill`), so the first step does not start by evaluating the whole system
 * prompt: after a load, and when the settings change or a run ends. The speed line says so.
 */
export async function readAhead() {
  let messages = null;
  try {
    messages = engine().loaded ? opening() : null;
  } catch {
    return; // settings that do not build an Agent: Run will say why
  }
  const pending = messages && engine().prefill(messages);
  if (!pending) return;
  const mine = ++readAheads;
  say('inpage.prefill.busy');
  const timings = await pending;
  // A newer read-ahead speaks for itself; a reply's speed shown meanwhile stays (a run took
  // the engine over).
  if (mine !== readAheads || speedLine?.[0] !== 'inpage.prefill.busy') return;
  if (!timings) {
    speedLine = null;
    el.speed.textContent = '';
    return;
  }
  say('inpage.prefill.done', {
    prompt: timings.prompt_n ?? '?', pps: fixed(timings.prompt_per_second), seconds: fixed((timings.prompt_ms ?? NaN) / 1000),
  });
}

/**
 * A link's `model-src`: a same-origin file loads at once (nothing leaves the machine); one on
 * another origin is shown with its host and size and loads only once the person agrees.
 * Resolves to true once the model is loaded, false otherwise.
 */
export async function loadFromLink(src) {
  if (sameOrigin(src)) return load({ url: src });
  let host;
  try {
    host = new URL(src).host;
  } catch {
    problem(t('inpage.failed'), t('inpage.error.notUrl', { src }));
    return false;
  }
  // Not even a HEAD for the size before the person agrees: a link must not make the page
  // contact a host it names (the size shows in the progress once the download starts).
  if (!(await agree(t('inpage.confirm', { host }), { decline: t('inpage.decline') }))) {
    onDecline();
    return false;
  }
  return load({ url: src });
}

let pendingAgree = null; // the resolver of the question on show: a new one answers it "no"

/** Asks before a download from another origin; resolves to whether the person agreed. */
async function agree(question, { decline }) {
  pendingAgree?.(false);
  let mine;
  const agreed = await new Promise((resolve) => {
    mine = resolve;
    pendingAgree = resolve;
    const yes = h('button', { type: 'button', 'data-testid': 'confirm-model-src', onclick: () => resolve(true) }, t('inpage.agree'));
    const no = h('button', { type: 'button', 'data-testid': 'decline-model-src', onclick: () => resolve(false) }, decline);
    el.confirm.replaceChildren(h('p', {}, question), h('p', { class: 'muted' }, t('inpage.why')), h('p', { class: 'actions' }, yes, ' ', no));
    el.confirm.hidden = false;
    yes.focus();
  });
  if (pendingAgree === mine) {
    pendingAgree = null;
    el.confirm.hidden = true;
    el.confirm.replaceChildren();
  }
  return agreed;
}

/** Loads a model ({file}, {url} or {key}); resolves to true when it is ready. */
export async function load(source) {
  loading?.abort();
  const controller = new AbortController();
  loading = controller;
  el.problem.replaceChildren();
  el.progress.hidden = false;
  el.bar.removeAttribute('value');
  const name = source.file?.name ?? source.url ?? '';
  el.progressText.textContent = t('inpage.starting', { name, total: size(source.file?.size) });
  el.status.textContent = '';
  let phaseStarted = performance.now();
  let phase = null;
  try {
    await engine().load(source, {
      signal: controller.signal,
      // ?threads=N (at most the cores; more than 1 only when cross-origin isolated), for measuring.
      threads: Number(new URLSearchParams(location.search).get('threads')) || undefined,
      // ?gpu=0: the CPU; ?gpu=1: any GPU adapter, a software one too (for measuring).
      gpu: { 0: false, 1: true }[new URLSearchParams(location.search).get('gpu') ?? ''],
      // ?compat=1: wllama's compat build, on the GPU too; ?compat=0: its default build, on the
      // CPU too (for measuring; a browser without JSPI or Memory64 has the compat one only).
      compat: { 0: false, 1: true }[new URLSearchParams(location.search).get('compat') ?? ''],
      onProgress: (p) => {
        if (p.phase !== phase) {
          phase = p.phase;
          phaseStarted = performance.now();
        }
        if (p.phase === 'load') {
          el.bar.removeAttribute('value'); // llama.cpp says nothing while it starts
          el.progressText.textContent = t('inpage.starting', { name, total: size(p.total) });
          return;
        }
        if (p.total) {
          el.bar.max = p.total;
          el.bar.value = p.loaded;
        }
        const left = estimate(p.loaded, p.total, performance.now() - phaseStarted);
        el.progressText.textContent = t(`inpage.${p.phase}`, { name, loaded: size(p.loaded), total: size(p.total) })
          + (left == null ? '' : t('inpage.eta', { seconds: left }));
      },
    });
    renderStatus();
    renderCached();
    readAhead();
    return true;
  } catch (error) {
    if (error.code === 'cancelled') el.status.textContent = t('inpage.cancelled');
    else problem(t('inpage.failed'), failureText(error));
    renderStatus();
    return false;
  } finally {
    if (loading === controller) {
      loading = null;
      el.progress.hidden = true;
    }
  }
}

/** A failed load in the page's language: the engine sends a code and its values, not a sentence. */
function failureText(error) {
  const key = `inpage.error.${error.code}`;
  const said = t(key, error.params ?? {});
  const sentence = said === key ? t('inpage.error.engine') : said;
  // A page-side error without a code (a worker the page's policy refused) keeps its words.
  const detail = error.detail ?? (error.code ? null : error.message);
  return detail ? `${sentence} ${t('inpage.detail', { detail })}` : sentence;
}

function problem(title, message) {
  el.problem.replaceChildren(h('div', { class: 'doctor', role: 'alert', 'data-testid': 'inpage-problem' },
    h('p', { class: 'doctor-title' }, h('strong', {}, title)), h('p', { class: 'doctor-message' }, message)));
}

function renderStatus() {
  const info = engine().loaded;
  if (!info) {
    if (!el.status.textContent) el.status.textContent = t('inpage.none');
    return;
  }
  el.status.textContent = t('inpage.loaded', {
    name: info.name, size: size(info.size), how: t(info.fromCache ? 'inpage.fromCache' : 'inpage.fresh'),
    seconds: (info.loadMs / 1000).toFixed(1),
    // Chinese sentences end in 。 and follow each other without a space.
    threads: [device(info), build(info), info.isolated ? t('inpage.threads', { count: info.threads, cores: info.cores }) : oneThread(),
      t(info.chatTemplate ? 'inpage.template' : 'inpage.noTemplate')].filter(Boolean).join(lang() === 'zh' ? '' : ' '),
  });
}

/** The compat build, and why; nothing for the default build. */
function build(info) {
  if (!info.compat) return '';
  if (info.compat === 'needed') return t('inpage.compat', { missing: info.missing.join(', ') });
  return t(`inpage.compat.${info.compat}`);
}

/** Where the model runs: the GPU, or the CPU and why not the GPU. */
function device(info) {
  if (info.gpu) return t('inpage.gpu', { name: info.gpu });
  if (info.gpuFailed) return t('inpage.gpu.failed', { name: info.gpuName, detail: info.gpuFailed });
  return t('inpage.cpu', { why: t(`inpage.gpu.refused.${info.gpuRefused ?? 'no_adapter'}`, { name: info.gpuName }) });
}

/** Why the engine runs on one thread, in the page's language. */
function oneThread() {
  return t(`inpage.oneThread.${oneThreadReason() ?? 'headers'}`, { detail: failureDetail() });
}

async function renderCached() {
  let models;
  try {
    models = await engine().cached();
  } catch {
    models = [];
  }
  const loadedKey = engine().loaded?.key;
  el.cached.replaceChildren(...(models.length ? [h('li', { class: 'muted' }, t('inpage.cached'))] : []), ...models.map((m) => h('li', { 'data-testid': 'cached-model' },
    h('span', {}, `${m.name} (${size(m.size)})`),
    h('span', {},
      m.key === loadedKey ? null : h('button', { type: 'button', onclick: () => load({ key: m.key }) }, t('inpage.use')), ' ',
      h('button', { type: 'button', 'data-testid': 'forget-model', onclick: async () => {
        await engine().forget(m.key).catch(() => {});
        if (m.key === loadedKey) el.status.textContent = '';
        renderStatus();
        renderCached();
      } }, t('inpage.forget'))))));
  return models;
}

/** The language changed: re-render what was written from code. */
export function rerenderInPage() {
  renderCatalog();
  if (!el.fields.hidden) {
    renderStatus();
    renderCached();
    if (speedLine) say(...speedLine);
  }
}
