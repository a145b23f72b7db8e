// Loop overhead: time per step that is not the model's, over 200-step runs.
//   node:  the wasm Agent in Node against an instant OpenAI-compatible server in this process
//          (fetch over loopback included; the server's own handler time subtracted), and the
//          same loop with no network at all (replies fed through step(onEvent, {reply})).
//   page:  the real playground in headless Chromium (see page-overhead.mjs).
import { createServer } from 'node:http';
import { loadWasm } from './wasm.mjs';
import { median, percentile, table, fmt } from './table.mjs';

const STEPS = 200;
const RUNS = 5;
const LONG_STEPS = 400;
const LONG_WINDOW = 50;

/** The reply for request number n: a calculator call that differs every step. */
export const instantReply = (n) =>
  `Thought: Step ${n}: keep computing.\nAction: calculator\nAction Input: {"expression": "${n} * 3 + 1"}`;

/**
 * An instant OpenAI-compatible server: every chat completion calls the calculator with a new
 * expression. `handlerMs` collects the time each request spent in the handler (after its body
 * arrived). CORS is open so the page can use it too.
 */
export function startInstantServer({ port = 0 } = {}) {
  let n = 0;
  const handlerMs = [];
  const server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': req.headers.origin || '*',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const t0 = performance.now();
      if (req.url.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json', ...cors });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'instant', object: 'model' }] }));
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      n += 1;
      if (request.stream) {
        // One content chunk, the finish chunk, a usage chunk, [DONE].
        const chunk = (delta, finish = null, usage) =>
          `data: ${JSON.stringify({ id: `instant-${n}`, object: 'chat.completion.chunk', model: 'instant', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...cors });
        res.end(
          chunk({ role: 'assistant', content: instantReply(n) }) +
            chunk({}, 'stop') +
            chunk(null, null, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }) +
            'data: [DONE]\n\n',
        );
        handlerMs.push(performance.now() - t0);
        return;
      }
      const body = JSON.stringify({
        id: `instant-${n}`,
        object: 'chat.completion',
        model: 'instant',
        choices: [{ index: 0, message: { role: 'assistant', content: instantReply(n) }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      });
      res.writeHead(200, { 'content-type': 'application/json', ...cors });
      res.end(body);
      handlerMs.push(performance.now() - t0);
    });
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () =>
      ok({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        handlerMs,
        close: () => new Promise((done) => { server.closeAllConnections?.(); server.close(done); }),
      }),
    );
  });
}

const SETTINGS = { maxSteps: STEPS, historyRounds: 6, maxRepeats: 3, temperature: 0 };

/** Per-step times of one run: the gaps between consecutive `request` events, and the end. */
function stepTimes(requestTimes, endTime) {
  const out = [];
  for (let i = 0; i < requestTimes.length; i++) out.push((requestTimes[i + 1] ?? endTime) - requestTimes[i]);
  return out;
}

async function httpRun(Agent, server) {
  const agent = new Agent({ ...SETTINGS, demo: false, baseUrl: server.url, model: 'instant' });
  const requestTimes = [];
  const before = server.handlerMs.length;
  const t0 = performance.now();
  const trace = await agent.run('Keep calling the calculator.', (e) => {
    if (e.type === 'request') requestTimes.push(performance.now());
  });
  const total = performance.now() - t0;
  const handler = server.handlerMs.slice(before);
  const steps = stepTimes(requestTimes, performance.now()).map((ms, i) => ms - (handler[i] ?? 0));
  return { trace, total, steps, handlerTotal: handler.reduce((a, b) => a + b, 0) };
}

async function directRun(Agent, maxSteps = STEPS) {
  const agent = new Agent({ ...SETTINGS, maxSteps, demo: true });
  const onEvent = () => {};
  const steps = [];
  const t0 = performance.now();
  let next = agent.start('Keep calling the calculator.');
  let n = 0;
  while (next.type !== 'done') {
    const s0 = performance.now();
    n += 1;
    next = await agent.step(onEvent, { reply: instantReply(n) });
    if (next.type === 'run_tool') next = await agent.step(onEvent);
    steps.push(performance.now() - s0);
  }
  return { trace: agent.trace(), total: performance.now() - t0, steps, handlerTotal: 0 };
}

/**
 * One long run fed directly: whether a step costs the same late in a run as early (a run once
 * kept a copy of the whole agent before every step, for Fork), and the memory it ends with.
 */
async function longRun(Agent) {
  const rssBefore = process.memoryUsage().rss;
  const run = await directRun(Agent, LONG_STEPS);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const result = {
    steps: run.trace.steps.length,
    firstMs: mean(run.steps.slice(0, LONG_WINDOW)),
    lastMs: mean(run.steps.slice(-LONG_WINDOW)),
    rssMB: process.memoryUsage().rss / 1e6,
    rssGrowthMB: (process.memoryUsage().rss - rssBefore) / 1e6,
  };
  if (result.steps !== LONG_STEPS) throw new Error(`the long run ended after ${result.steps} steps`);
  return result;
}

function summarise(runs) {
  const steps = runs.flatMap((r) => r.steps);
  const outcome = runs[0].trace.outcome;
  return {
    runs: runs.length,
    stepsPerRun: runs[0].trace.steps.length,
    outcome: outcome.type,
    medianStepMs: median(steps),
    p90StepMs: percentile(steps, 90),
    wallPerStepMs: median(runs.map((r) => r.total / r.trace.steps.length)),
    handlerPerStepMs: median(runs.map((r) => r.handlerTotal / r.trace.steps.length)),
  };
}

export async function measureOverheadNode() {
  const { Agent } = await loadWasm();
  const server = await startInstantServer();
  try {
    await httpRun(Agent, server); // warm-up
    const http = [];
    for (let i = 0; i < RUNS; i++) http.push(await httpRun(Agent, server));
    await directRun(Agent);
    const direct = [];
    for (let i = 0; i < RUNS; i++) direct.push(await directRun(Agent));
    const result = { http: summarise(http), direct: summarise(direct), long: await longRun(Agent) };
    for (const r of [result.http, result.direct]) {
      if (r.outcome !== 'step_limit' || r.stepsPerRun !== STEPS) {
        throw new Error(`overhead run ended early: ${r.outcome} after ${r.stepsPerRun} steps`);
      }
    }
    return result;
  } finally {
    await server.close();
  }
}

export function renderOverhead(r) {
  const rows = [];
  if (r.node) {
    rows.push([
      'Node, wasm Agent → instant HTTP server (loopback fetch)',
      fmt.dec(r.node.http.medianStepMs, 2),
      fmt.dec(r.node.http.p90StepMs, 2),
      fmt.dec(r.node.http.wallPerStepMs, 2),
    ]);
    rows.push([
      'Node, wasm Agent, replies fed with step(…, {reply}) (no network)',
      fmt.dec(r.node.direct.medianStepMs, 2),
      fmt.dec(r.node.direct.p90StepMs, 2),
      fmt.dec(r.node.direct.wallPerStepMs, 2),
    ]);
  }
  if (r.node?.long) {
    const l = r.node.long;
    rows.push([
      `Node, wasm Agent, replies fed, one ${l.steps}-step run: steps 1–${LONG_WINDOW} / the last ${LONG_WINDOW}`,
      `${fmt.dec(l.firstMs, 2)} / ${fmt.dec(l.lastMs, 2)}`,
      '',
      '',
    ]);
  }
  for (const [key, what] of [['plain', 'no streaming'], ['stream', 'streaming (the page\'s default)']]) {
    const p = r.page?.[key];
    if (!p) continue;
    rows.push([
      `Chromium, the playground page → instant HTTP server, ${what}, step cards rendered`,
      fmt.dec(p.medianStepMs, 2),
      fmt.dec(p.p90StepMs, 2),
      fmt.dec(p.wallPerStepMs, 2),
    ]);
  }
  const notes = [
    `${STEPS}-step runs (maxSteps ${STEPS}, historyRounds 6; every reply calls the calculator with a new expression, so only the step limit ends a run), ${RUNS} runs after a warm-up run.`,
    'A step = one model request + one calculator call, with an `onEvent` listener attached (events are serialised to JS as on the page).',
    `HTTP rows: step time = time between consecutive \`request\` events minus the mock handler's own time (${fmt.dec(r.node?.http.handlerPerStepMs ?? NaN, 2)} ms per request); the fetch over loopback and the JSON encoding and parsing stay in. "wall" = a whole run's time / 200.`,
  ];
  if (r.node?.long) {
    notes.push(
      `The ${r.node.long.steps}-step run: mean ms per step of its first and last ${LONG_WINDOW} steps (the same column), and the Node process's resident memory after it: ${fmt.dec(r.node.long.rssMB, 0)} MB (${fmt.dec(r.node.long.rssGrowthMB, 0)} MB more than before it).`,
    );
  }
  if (r.page) {
    notes.push(
      'Page rows: the real page (www/index.html) opened with `?endpoint=…&model=instant&question=…`, the connection the link asks for confirmed, Max steps set to 200 and History rounds to 6 in the Limits panel, Run clicked; a step = the time between two step cards appearing in the DOM (a card opens when its request goes out), the last one up to the outcome plus one animation frame; 3 runs after a warm-up run, each on a fresh trace view.',
    );
  }
  if (r.pageSkipped) notes.push(r.pageSkipped);
  return (
    '### Loop overhead per step (the model excluded)\n\n' +
    table(['where', 'median ms/step', 'p90 ms/step', 'wall ms/step'], rows, 'lrrr') +
    '\n\n' +
    notes.map((n) => `- ${n}`).join('\n')
  );
}
