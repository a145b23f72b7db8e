#!/usr/bin/env node
// A scripted OpenAI-compatible mock server that misbehaves on request. Node standard library only.
//
//   node tests/mock/server.mjs [--port N]      (default 0 = any free port; binds 127.0.0.1 only)
//   -> prints exactly one stdout line:  MOCK_READY http://127.0.0.1:PORT
//   SIGTERM / SIGINT close every socket (hanging requests included) and exit 0.
//   In-process: import { startMock } from './server.mjs'; const { url, close } = await startMock({ port: 0 });
//
// Base URL for a client: http://127.0.0.1:PORT/s/<scenario>@<runid>/v1   (`@<runid>` optional;
// plain /v1 = scenario `default`). Answers POST …/chat/completions and GET …/models.
// The run id keys per-run state (only flaky503 has any); it may also come as `?run=ID` or an
// `x-mock-run` header. Every reply is stateless otherwise: it depends on the scenario and on
// the STEP = number of lines opening with `Observation:` outside the system prompt: one per user
// message in chat style, all in one user message (scratchpad) or in the trailing assistant
// message (transcript style). OBS below = the text after the last
// `Observation:` in the request (up to a following `Thought:` line or a "(Reminder" line).
// `"stream": true` → SSE chunks, a finish chunk, a usage chunk if stream_options.include_usage,
// then `data: [DONE]`. `stop` strings cut the scripted reply (except in `hallucinate`).
// Test hooks: GET /__requests[?scenario=S&run=R] → last 200 requests {method, path, scenario,
// run, headers: {authorization, origin, content-type, x-mock-run}, body}; POST /__reset clears
// them and the counters. CORS: Origin echoed, Authorization/Content-Type/X-Mock-Run allowed,
// Retry-After exposed, OPTIONS → 204 (everywhere except `cors-refuse`).
//
// | scenario          | script (calc = calculator {"expression": "23 * 17 + 4"})     | a client should see                                   |
// |-------------------|---------------------------------------------------------------|-------------------------------------------------------|
// | default, calc     | 0: calc; 1+: final "The result is OBS."                       | answer "The result is 395." (with a real calculator)  |
// | docs              | 0: search_docs {"query": "RAG"}; 1+: final = OBS's first line | one search, answer = first line of the tool result    |
// | messy             | 0: `Action：Calculator` (full-width colon), input               | repairs applied, calculator gets 2+2; answer          |
// |                   |    `{'expr': '2+2',}`; 1+: final "The answer is OBS."         |   "The answer is 4."                                  |
// | format-error      | 0: bare prose; 1: calc; 2+: final "The result is OBS."         | one format error fed back, then a normal run          |
// | always-prose      | every step bare prose                                         | stops after 3 consecutive format errors               |
// | loop              | every step the same calc call                                 | repeated-call guard fires                             |
// | hallucinate       | 0: calc + self-written "Observation: 999" + fake final;       | the client cuts at its own "Observation:" and runs    |
// |                   |    IGNORES stop strings; 1+: final "The result is OBS."       |   the real tool: "The result is 395.", never 999      |
// | js-throw, js-reject, js-hang, js-object, js-circular, js-undefined                 | the test's JS tool misbehaves; the error/value shows  |
// |                   | 0: js_tool {"x": 1}; 1+: final "The tool returned: OBS"       |   up as the observation and in the final answer       |
// | big-observation   | 0: js_tool {"x": 1}; 1+: final "Received N characters."       | N = length of OBS as sent (shows truncation)          |
// | xss               | 0: Thought + js_tool input carrying XSS_PAYLOADS; 1+: final   | payloads shown as text; window.__xss stays undefined  |
// |                   |    "Payloads: " + XSS_PAYLOADS joined with spaces              |                                                       |
// | slow-stream       | calc script; SSE one character per 200 ms; non-stream: 10 s   | for aborting mid-stream / timeouts                    |
// | awkward-chunks    | calc script with 中文 and 😀 in each Thought; SSE with \r\n,  | exactly the same text as the non-stream reply         |
// |                   |   comments, `event: message`, pieces cut inside `data:`, inside|                                                       |
// |                   |   UTF-8 chars and between \r and \n, several events per write |                                                       |
// | no-done           | calc script; the stream ends after the finish chunk, no [DONE]| a complete reply (no error)                           |
// | error-midstream   | calc script; SSE: half the text, then data: {"error": {"message": "model crashed", "type": "server_error"}}; non-stream: 500 same error | a server error |
// | cut-midstream     | calc script; SSE: half the text, then the socket is destroyed | a stream error ("broke off"), the text so far kept    |
// |                   |   (no error event, no chunk terminator); non-stream: the calc script |                                                |
// | http401           | 401 {"error": {"message": "Incorrect API key provided.", code "invalid_api_key"}} | auth error (bad key)                |
// | http403           | 403, empty body (like Ollama refusing an Origin)               | forbidden; hint about OLLAMA_ORIGINS / CORS           |
// | http404           | 404 {"error": {"message": "model '<body.model or x>' not found"}} | model-not-found error                              |
// | http500           | 500 {"error": {"message": "internal failure"}}                | server error                                          |
// | http429           | 429 + Retry-After: 1, always                                  | rate limited; retries give up                         |
// | flaky503          | first 2 chat requests per run id: 503 + Retry-After: 0; then calc script | succeeds after 2 retries                   |
// | not-json          | 200 text/html "<html>proxy login</html>"                       | "not JSON"/bad-response error                         |
// | hang              | never answers (socket kept open)                              | the client's timeout/abort fires                      |
// | cors-refuse       | calc script but no Access-Control-Allow-* headers; OPTIONS→405| the browser fetch fails (TypeError)                   |
// | zh                | 0: calc, Thought in Chinese; 1+: final "结果是 OBS。"          | a Chinese run                                         |
// | echo-prompt       | every step: final "<N> messages; system: <system first line>" | shows what was sent                                   |
// | huge-body         | 200 JSON, a completion of HUGE_BYTES (5 MB), stream or not   | too_large (part body): over the 4 MB reply limit      |
// | endless-line      | calc script; SSE: `data: ` then 3 MB of x in 64 KB writes,    | too_large (part stream_line): over the 1 MB line limit|
// |                   |   never a line end; non-stream: the calc script               |                                                       |
// | ollama            | a stand-in for Ollama (issue 23: Ollama cannot be installed here): /models as   |
// |                   |   Ollama's /v1/models (owned_by "library", ids qwen2.5-coder:0.5b, llama3.2:1b); | auto picks the JSON schema; the schema path's |
// |                   |   with response_format 0: a JSON calc step (the one tool a schema allows, if   |                                              |
// |                   |   another), 1+: a JSON final "The answer is OBS.";                             | replies; a prompt past the context is named |
// |                   |   without it the calc script; usage.prompt_tokens at most OLLAMA_CTX (2048), as  |   in the trace (a prompt_cut guard)          |
// |                   |   Ollama cuts a longer prompt from the front without an error                  |                                              |
// Faults (http*, not-json, huge-body, hang, cors-refuse) apply to /models too; otherwise /models lists
// mock-model and mock-small. Unknown scenario → 404 naming the known ones; bad JSON → 400.

import http from 'node:http';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

// ---------------------------------------------------------------- scripted replies
export const CALC_INPUT = { expression: '23 * 17 + 4' };
export const XSS_PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=1</script>',
  '[link](javascript:window.__xss=1)',
  '**bold**',
];
const PROSE = 'Well, 23 times 17 is 391, and adding 4 gives 395. I am fairly sure about that.';
// Over the client's 4 MB reply limit (src/limits.rs); built on first use.
export const HUGE_BYTES = 5_000_000;
let huge = null;
const hugeBody = () =>
  (huge ??= JSON.stringify({
    object: 'chat.completion', model: 'mock-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(HUGE_BYTES) }, finish_reason: 'length' }],
  }));

// Flat objects written as models usually do: {"key": "value", "n": 1}
const json = (o) => `{${Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;
const act = (thought, tool, input) => `Thought: ${thought}\nAction: ${tool}\nAction Input: ${json(input)}`;
const fin = (answer, thought = 'I now know the final answer.') =>
  `Thought: ${thought}\nAction: final_answer\nAction Input: ${answer}`;
const firstLine = (s) => String(s ?? '').trim().split(/\r?\n/)[0];

const calcStep = (thought = 'I need to compute 23 * 17 + 4.') => act(thought, 'calculator', CALC_INPUT);
const calc = (step, c) => (step === 0 ? calcStep() : fin(`The result is ${c.obs}.`));
// One ReAct step as the JSON object a server's schema decoding makes a model write.
const jsonStep = (thought, action, input) => JSON.stringify({ thought, action, action_input: input });
export const OLLAMA_CTX = 2048;
const jsTool = (final) => (step, c) =>
  step === 0 ? act('I will call the JS test tool.', 'js_tool', { x: 1 }) : fin(final(c.obs));

// Each scenario: reply(step, ctx) → text, plus optional behaviour flags.
const err = (message, type, code = null) => JSON.stringify({ error: { message, type, param: null, code } });
const fault = (status, body = '', headers = {}) => ({ fault: { status, body, headers } });
const SCENARIOS = {
  default: { reply: calc },
  calc: { reply: calc },
  docs: {
    reply: (step, c) =>
      step === 0 ? act('I should look this up in the docs.', 'search_docs', { query: 'RAG' }) : fin(firstLine(c.obs)),
  },
  messy: {
    reply: (step, c) =>
      step === 0
        ? "Thought: I should use the calculator\nAction：Calculator\nAction Input: {'expr': '2+2',}"
        : fin(`The answer is ${c.obs}.`),
  },
  'format-error': {
    reply: (step, c) => (step === 0 ? PROSE : step === 1 ? calcStep() : fin(`The result is ${c.obs}.`)),
  },
  'always-prose': { reply: () => PROSE },
  loop: { reply: () => calcStep() },
  hallucinate: {
    ignoreStop: true,
    reply: (step, c) =>
      step === 0 ? `${calcStep()}\nObservation: 999\n${fin('The result is 999.')}` : fin(`The result is ${c.obs}.`),
  },
  ...Object.fromEntries(
    ['js-throw', 'js-reject', 'js-hang', 'js-object', 'js-circular', 'js-undefined'].map((n) => [
      n,
      { reply: jsTool((obs) => `The tool returned: ${obs}`) },
    ]),
  ),
  'big-observation': { reply: jsTool((obs) => `Received ${obs.length} characters.`) },
  xss: {
    reply: (step) =>
      step === 0
        ? act(`Testing rendering: ${XSS_PAYLOADS.join(' ')}`, 'js_tool', { html: XSS_PAYLOADS.join(' '), x: 1 })
        : fin(`Payloads: ${XSS_PAYLOADS.join(' ')}`, `Done: ${XSS_PAYLOADS.join(' ')}`),
  },
  'slow-stream': { reply: calc, stream: 'slow' },
  'awkward-chunks': {
    stream: 'awkward',
    reply: (step, c) =>
      step === 0 ? calcStep('我需要计算 23 * 17 + 4 (中文) 😀') : fin(`The result is ${c.obs}.`, '完成了 中文 😀 done'),
  },
  'no-done': { reply: calc, stream: 'no-done' },
  'error-midstream': { reply: calc, stream: 'error' },
  'cut-midstream': { reply: calc, stream: 'cut' },
  http401: fault(401, err('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')),
  http403: fault(403),
  http404: fault(404, (body) => err(`model '${body?.model ?? 'x'}' not found`, 'invalid_request_error', 'model_not_found')),
  http500: fault(500, err('internal failure', 'server_error')),
  http429: fault(429, err('Rate limit reached, try again in 1s.', 'requests', 'rate_limit_exceeded'), { 'retry-after': '1' }),
  flaky503: { reply: calc, flaky: 2 },
  'not-json': fault(200, '<html>proxy login</html>', { 'content-type': 'text/html; charset=utf-8' }),
  'huge-body': fault(200, hugeBody),
  'endless-line': { reply: calc, stream: 'endless' },
  hang: { hang: true },
  'cors-refuse': { reply: calc, noCors: true },
  ollama: {
    models: () => ['qwen2.5-coder:0.5b', 'llama3.2:1b'].map((id) => ({ id, object: 'model', created: 1733000000, owned_by: 'library' })),
    contextTokens: OLLAMA_CTX,
    reply: (step, c) => {
      if (!c.responseFormat) return calc(step, c);
      // A schema that allows one tool other than the calculator is followed, as a model under
      // it would: its string parameters get the question's last capitalised word.
      const only = c.responseFormat.json_schema?.schema?.properties?.action?.const;
      if (step === 0 && only && only !== 'calculator' && only !== 'final_answer') {
        const schema = c.responseFormat.json_schema.schema.properties.action_input;
        const question = textOf(c.messages.find((m) => m?.role === 'user')?.content);
        const name = question.match(/[A-Z][a-z]+(?=[^A-Z]*$)/)?.[0] ?? 'x';
        const input = Object.fromEntries(Object.keys(schema?.properties ?? {}).map((k) => [k, name]));
        return jsonStep(`I need ${only}.`, only, input);
      }
      return step === 0
        ? jsonStep('I need to compute 23 * 17 + 4.', 'calculator', CALC_INPUT)
        : jsonStep(`The Observation shows ${c.obs}.`, 'final_answer', `The answer is ${c.obs}.`);
    },
  },
  zh: {
    reply: (step, c) =>
      step === 0
        ? calcStep('我需要先计算 23 * 17 + 4。')
        : fin(`结果是 ${c.obs}。`, '我现在知道最终答案了。'),
  },
  'echo-prompt': {
    reply: (step, c) => {
      const sys = c.messages.find((m) => m?.role === 'system');
      return fin(`${c.messages.length} messages; system: ${sys ? firstLine(textOf(sys.content)) : '(none)'}`);
    },
  },
};
export const SCENARIO_NAMES = Object.keys(SCENARIOS);

// ---------------------------------------------------------------- request reading helpers
const textOf = (c) =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p === 'string' ? p : p?.text ?? '')).join('') : '';

function stepOf(messages) {
  return messages
    .filter((m) => m?.role !== 'system')
    .reduce((n, m) => n + (textOf(m.content).match(/^Observation:/gm)?.length ?? 0), 0);
}

function lastObservation(messages) {
  for (const m of [...messages].reverse()) {
    if (!m || m.role === 'system') continue;
    const text = textOf(m.content);
    const at = text.lastIndexOf('Observation:');
    if (at < 0 && m.role !== 'tool') continue;
    const rest = at < 0 ? text : text.slice(at + 'Observation:'.length);
    return rest.split(/\r?\n(?=Thought:|\(Reminder|（提醒)/)[0].trim();
  }
  return '';
}

function cutAtStop(text, stop) {
  const stops = (Array.isArray(stop) ? stop : stop == null ? [] : [stop]).filter((s) => typeof s === 'string' && s);
  const at = Math.min(...stops.map((s) => text.indexOf(s)).filter((i) => i >= 0));
  return Number.isFinite(at) ? text.slice(0, at) : text;
}

const tokens = (s) => Math.max(1, Math.ceil(s.length / 4));

// ---------------------------------------------------------------- responses
const corsHeaders = (req) => ({
  'access-control-allow-origin': req.headers.origin ?? '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Mock-Run',
  'access-control-expose-headers': 'Retry-After',
  'access-control-max-age': '600',
  ...(req.headers['access-control-request-private-network'] ? { 'access-control-allow-private-network': 'true' } : {}),
  vary: 'Origin',
});

function send(res, status, body, headers = {}) {
  const text = body === undefined || body === '' ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type = text ? { 'content-type': 'application/json' } : {};
  res.writeHead(status, { ...type, ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const chunk = (c, delta, finish = null) => ({
  id: c.id, object: 'chat.completion.chunk', created: c.created, model: c.model,
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});
const usage = (c, text) => {
  const completion_tokens = tokens(text);
  return { prompt_tokens: c.promptTokens, completion_tokens, total_tokens: c.promptTokens + completion_tokens };
};

// SSE event strings for `pieces` of content (without [DONE]).
function events(c, text, pieces, eol = '\n') {
  const objs = [chunk(c, { role: 'assistant', content: '' }), ...pieces.map((p) => chunk(c, { content: p })), chunk(c, {}, 'stop')];
  if (c.includeUsage) objs.push({ ...chunk(c, {}), choices: [], usage: usage(c, text) });
  return objs.map((o) => `data: ${JSON.stringify(o)}${eol}${eol}`);
}
const words = (text) => text.split(/(?<=\s)/).filter(Boolean);

async function stream(res, c, sc, text, headers) {
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  const wait = (ms) => delay(ms, undefined, { signal: c.signal }).then(() => true, () => false);
  if (sc.stream === 'slow') {
    const [first, ...rest] = events(c, text, Array.from(text));
    res.write(first);
    for (const ev of rest) {
      if (!(await wait(200))) return;
      res.write(ev);
    }
    return res.end('data: [DONE]\n\n');
  }
  if (sc.stream === 'error') {
    const half = words(text).slice(0, Math.ceil(words(text).length / 2));
    const evs = events(c, text, half).slice(0, half.length + 1);
    for (const ev of evs) res.write(ev);
    await wait(5);
    return res.end(`data: ${err('model crashed', 'server_error')}\n\n`);
  }
  if (sc.stream === 'cut') {
    // The connection drops mid-reply: no error event, no [DONE], no chunked-encoding end.
    const half = words(text).slice(0, Math.ceil(words(text).length / 2));
    for (const ev of events(c, text, half).slice(0, half.length + 1)) res.write(ev);
    await wait(20);
    return res.socket?.destroy();
  }
  if (sc.stream === 'awkward') return awkward(res, c, text, wait);
  if (sc.stream === 'endless') {
    // One line that never ends: the client must stop reading at its limit, not buffer it all.
    res.write('data: ');
    const piece = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 48; i++) {
      if (!(await wait(1))) return;
      res.write(piece);
    }
    return res.end();
  }
  for (const ev of events(c, text, words(text))) res.write(ev);
  res.end(sc.stream === 'no-done' ? '' : 'data: [DONE]\n\n');
}

// One SSE body full of legal-but-awkward framing, written in pieces cut at nasty byte offsets.
async function awkward(res, c, text, wait) {
  const cps = Array.from(text);
  const pieces = [];
  for (let i = 0; i < cps.length; i += 7) pieces.push(cps.slice(i, i + 7).join(''));
  const evs = events(c, text, pieces, '\r\n');
  evs[0] = `event: message\r\n${evs[0]}`;
  evs.splice(Math.ceil(evs.length / 2), 0, ': keep-alive\r\n\r\n');
  const buf = Buffer.from([': keep-alive\r\n\r\n', ...evs, 'data: [DONE]\r\n\r\n'].join(''));
  const at = (s, from = 0) => buf.indexOf(Buffer.from(s), from);
  const emoji = at('😀');
  const cuts = [
    at('data:') + 2, // inside "data:"
    at('中') + 1, // inside a 3-byte character
    at('文') + 2,
    emoji + 2, // inside a 4-byte character
    at('\r\n\r\n', emoji) + 1, // between \r and \n
  ].filter((n) => n > 0 && n < buf.length);
  // The last piece (everything after the cuts) holds several events in one write.
  const bounds = [...new Set([0, ...cuts.sort((a, b) => a - b), buf.length])];
  for (let i = 0; i + 1 < bounds.length; i++) {
    if (i > 0 && !(await wait(5))) return;
    res.write(buf.subarray(bounds[i], bounds[i + 1]));
  }
  res.end();
}

// ---------------------------------------------------------------- routing
const ROUTE = /^\/(?:s\/([^/@]+)(?:@([^/]+))?\/)?v1\/(chat\/completions|models)\/?$/;
const MAX_BODY = 64 << 20;
const decode = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

function readBody(req) {
  return new Promise((resolve) => {
    const parts = [];
    let size = 0;
    req.on('data', (d) => {
      size += d.length;
      if (size <= MAX_BODY) parts.push(d);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(parts).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

export async function startMock({ port = 0 } = {}) {
  let log = [];
  const counters = new Map();
  const sockets = new Set();
  let seq = 0;

  async function handle(req, res) {
    const url = new URL(req.url, 'http://127.0.0.1');
    const path = url.pathname.replace(/\/{2,}/g, '/');
    const raw = await readBody(req);
    const m = ROUTE.exec(path);
    const name = m ? decode(m[1] ?? 'default') : null;
    const sc = name === null ? null : Object.hasOwn(SCENARIOS, name) ? SCENARIOS[name] : undefined;
    const cors = sc?.noCors ? {} : corsHeaders(req);

    if (path === '/__requests' && req.method === 'GET') {
      const [s, r] = ['scenario', 'run'].map((k) => url.searchParams.get(k));
      return send(res, 200, log.filter((e) => (s === null || e.scenario === s) && (r === null || e.run === r)), cors);
    }
    if (path === '/__reset' && req.method === 'POST') {
      log = [];
      counters.clear();
      return send(res, 200, { ok: true }, cors);
    }
    const run = m?.[2] !== undefined ? decode(m[2]) : url.searchParams.get('run') ?? req.headers['x-mock-run'] ?? '';
    let body;
    let bad = null;
    if (raw === null) bad = 'request body too large';
    else if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch (e) {
        bad = `invalid JSON body: ${e.message}`;
      }
    }
    const pick = ['authorization', 'origin', 'content-type', 'x-mock-run'].filter((h) => req.headers[h] !== undefined);
    log.push({
      method: req.method, path: req.url, scenario: name, run, time: Date.now(),
      headers: Object.fromEntries(pick.map((h) => [h, req.headers[h]])),
      body: body ?? (raw ? raw.slice(0, 10000) : null),
    });
    if (log.length > 200) log = log.slice(-200);

    if (req.method === 'OPTIONS') {
      if (sc?.noCors) return send(res, 405, err('Method Not Allowed', 'invalid_request_error'), { allow: 'GET, POST' });
      res.writeHead(204, cors);
      return res.end();
    }

    if (!m) return send(res, 404, err(`no route for ${req.method} ${path}`, 'invalid_request_error'), cors);
    if (!sc) {
      const known = SCENARIO_NAMES.join(', ');
      return send(res, 404, err(`unknown mock scenario '${name}'; known scenarios: ${known}`, 'invalid_request_error', 'unknown_scenario'), cors);
    }
    if (sc.hang) return; // never answer; close() destroys the socket
    if (sc.fault) {
      const { status, body: b, headers } = sc.fault;
      return send(res, status, typeof b === 'function' ? b(body) : b, { ...cors, ...headers });
    }
    if (m[3] === 'models') {
      if (req.method !== 'GET') return send(res, 405, err('use GET', 'invalid_request_error'), cors);
      const data = sc.models?.() ?? ['mock-model', 'mock-small'].map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock' }));
      return send(res, 200, { object: 'list', data }, cors);
    }
    if (req.method !== 'POST') return send(res, 405, err('use POST', 'invalid_request_error'), cors);
    if (bad) return send(res, raw === null ? 413 : 400, err(bad, 'invalid_request_error'), cors);
    if (!body || typeof body !== 'object' || !Array.isArray(body.messages)) {
      return send(res, 400, err("'messages' must be an array", 'invalid_request_error'), cors);
    }
    if (sc.flaky) {
      const key = `${name}@${run}`;
      const n = (counters.get(key) ?? 0) + 1;
      counters.set(key, n);
      if (n <= sc.flaky) {
        return send(res, 503, err(`temporarily overloaded (attempt ${n})`, 'server_error'), { ...cors, 'retry-after': '0' });
      }
    }

    const messages = body.messages;
    const step = stepOf(messages);
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const c = {
      id: `chatcmpl-mock-${++seq}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'mock-model',
      messages, obs: lastObservation(messages), signal: ac.signal,
      promptTokens: Math.min(tokens(JSON.stringify(messages)), sc.contextTokens ?? Infinity),
      includeUsage: body.stream_options?.include_usage === true, responseFormat: body.response_format,
    };
    let text = sc.reply(step, c);
    if (!sc.ignoreStop) text = cutAtStop(text, body.stop);

    if (body.stream === true) return stream(res, c, sc, text, cors);
    if (sc.stream === 'slow' && !(await delay(10_000, true, { signal: ac.signal }).catch(() => false))) return;
    if (sc.stream === 'error') return send(res, 500, err('model crashed', 'server_error'), cors);
    send(res, 200, {
      id: c.id, object: 'chat.completion', created: c.created, model: c.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }],
      usage: usage(c, text),
    }, cors);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) send(res, 500, err(`mock server bug: ${e?.message ?? e}`, 'server_error'));
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_e, s) => s.destroy());
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  let closing;
  const close = () =>
    (closing ??= new Promise((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }));
  return { url, port: server.address().port, close };
}

// ---------------------------------------------------------------- CLI
const isMain = (() => {
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
})();
if (isMain) {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === '--port' || a.startsWith('--port='));
  const port = i < 0 ? 0 : Number(args[i].includes('=') ? args[i].split('=')[1] : args[i + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('usage: node tests/mock/server.mjs [--port N]\n');
    process.exit(2);
  }
  const { url, close } = await startMock({ port }).catch((e) => {
    process.stderr.write(`mock server: ${e.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`MOCK_READY ${url}\n`);
  const stop = () => close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
