// Tests of the mock server itself: node --test tests/mock/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMock, SCENARIO_NAMES, XSS_PAYLOADS, HUGE_BYTES } from './server.mjs';

let mock;
before(async () => {
  mock = await startMock({ port: 0 });
});
after(() => mock.close());

const base = (scenario, run) => `${mock.url}/s/${scenario}${run ? `@${run}` : ''}/v1`;
const Q = { role: 'user', content: 'Question: What is 23 * 17 + 4?' };
const STEP1 = [Q, { role: 'assistant', content: 'Thought: …\nAction: calculator' }, { role: 'user', content: 'Observation: 395' }];
const CALC0 = 'Thought: I need to compute 23 * 17 + 4.\nAction: calculator\nAction Input: {"expression": "23 * 17 + 4"}';

const post = (url, body, init = {}) =>
  fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
const complete = async (url, body) => {
  const res = await post(url, { model: 'mock-model', ...body });
  assert.equal(res.status, 200);
  return (await res.json()).choices[0].message.content;
};

// A small incremental SSE reader: decodes UTF-8 across chunks, accepts \n, \r\n and \r line ends.
async function readSse(res) {
  const decoder = new TextDecoder();
  const out = { content: '', data: [], chunks: 0, raw: '', done: false, finish: null, usage: null, error: null };
  let buf = '';
  let data = [];
  const line = (l) => {
    if (l === '') {
      if (data.length) event(data.join('\n'));
      data = [];
    } else if (l.startsWith('data:')) data.push(l.slice(5).replace(/^ /, ''));
  };
  const event = (d) => {
    out.data.push(d);
    if (d === '[DONE]') return void (out.done = true);
    const j = JSON.parse(d);
    if (j.error) out.error = j.error;
    if (j.usage) out.usage = j.usage;
    for (const ch of j.choices ?? []) {
      out.content += ch.delta?.content ?? '';
      if (ch.finish_reason) out.finish = ch.finish_reason;
    }
  };
  for await (const bytes of res.body) {
    out.chunks++;
    const text = decoder.decode(bytes, { stream: true });
    out.raw += text;
    buf += text;
    let m;
    // Hold a trailing \r: it may be the first half of a \r\n split across chunks.
    while ((m = /\r\n|\r(?!$)|\n/.exec(buf))) {
      line(buf.slice(0, m.index));
      buf = buf.slice(m.index + m[0].length);
    }
  }
  buf += decoder.decode();
  for (const l of buf.split(/\r\n|\r|\n/)) line(l);
  line('');
  return out;
}

test('calc: non-stream script by step, usage, echoes the observation', async () => {
  const res = await post(base('calc'), { model: 'mock-model', messages: [Q] });
  assert.equal(res.status, 200);
  const j = await res.json();
  assert.equal(j.object, 'chat.completion');
  assert.equal(j.choices[0].message.content, CALC0);
  assert.equal(j.choices[0].finish_reason, 'stop');
  assert.ok(j.usage.prompt_tokens > 0 && j.usage.total_tokens === j.usage.prompt_tokens + j.usage.completion_tokens);
  assert.match(await complete(base('calc'), { messages: STEP1 }), /Action: final_answer\nAction Input: The result is 395\.$/);
  // plain /v1 is `default`, the same script
  assert.equal(await complete(`${mock.url}/v1`, { messages: [Q] }), CALC0);
});

test('scratchpad style: step = Observations in the last user message', async () => {
  const pad = { role: 'user', content: `${Q.content}\nThought: hm\nObservation: bad format\n${CALC0}\nObservation: 395\nThought:` };
  assert.match(await complete(base('format-error'), { messages: [{ role: 'system', content: 'sys' }, pad] }), /Action Input: The result is 395\.$/);
  assert.doesNotMatch(await complete(base('format-error'), { messages: [Q] }), /Action:/);
});

test('transcript style: step = Observation lines in the trailing assistant message', async () => {
  const said = { role: 'assistant', content: `Thought: hm\nObservation: bad format\n${CALC0}\nObservation: 395` };
  assert.match(await complete(base('format-error'), { messages: [Q, said] }), /Action Input: The result is 395\.$/);
  const once = { role: 'assistant', content: 'Thought: hm\nObservation: never write \'Observation:\' yourself' };
  assert.equal(await complete(base('format-error'), { messages: [Q, once] }), CALC0);
});

test('calc: streaming reassembles to the same text, with usage and [DONE]', async () => {
  const res = await post(base('calc'), { messages: [Q], stream: true, stream_options: { include_usage: true } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/event-stream/);
  const s = await readSse(res);
  assert.equal(s.content, CALC0);
  assert.equal(s.finish, 'stop');
  assert.ok(s.usage?.completion_tokens > 0);
  assert.equal(s.data.at(-1), '[DONE]');
  const noUsage = await readSse(await post(base('calc'), { messages: [Q], stream: true }));
  assert.equal(noUsage.usage, null);
});

test('stop strings are honoured, except in hallucinate', async () => {
  const cut = await complete(base('calc'), { messages: [Q], stop: ['\nAction Input:', 'zzz'] });
  assert.equal(cut, 'Thought: I need to compute 23 * 17 + 4.\nAction: calculator');
  const s = await readSse(await post(base('calc'), { messages: [Q], stop: 'Action:', stream: true }));
  assert.equal(s.content, 'Thought: I need to compute 23 * 17 + 4.\n');
  const h = await complete(base('hallucinate'), { messages: [Q], stop: ['Observation:'] });
  assert.match(h, /Observation: 999\n[\s\S]*Action Input: The result is 999\.$/);
});

test('awkward-chunks: split events, CRLF, comments and split UTF-8 reassemble exactly', async () => {
  const expected = await complete(base('awkward-chunks'), { messages: [Q] });
  assert.ok(expected.includes('中文') && expected.includes('😀'));
  const s = await readSse(await post(base('awkward-chunks'), { messages: [Q], stream: true, stream_options: { include_usage: true } }));
  assert.equal(s.content, expected);
  assert.ok(s.chunks >= 3, `expected separate chunks, got ${s.chunks}`);
  assert.ok(s.done && s.usage);
  for (const bit of ['\r\n\r\n', ': keep-alive', 'event: message']) assert.ok(s.raw.includes(bit), bit);
  const fin = await readSse(await post(base('awkward-chunks'), { messages: STEP1, stream: true }));
  assert.equal(fin.content, await complete(base('awkward-chunks'), { messages: STEP1 }));
  assert.match(fin.content, /😀[\s\S]*The result is 395\.$/);
});

test('no-done and error-midstream', async () => {
  const nd = await readSse(await post(base('no-done'), { messages: [Q], stream: true }));
  assert.equal(nd.content, CALC0);
  assert.equal(nd.done, false);
  assert.equal(nd.finish, 'stop');
  const em = await readSse(await post(base('error-midstream'), { messages: [Q], stream: true }));
  assert.equal(em.error?.message, 'model crashed');
  assert.ok(em.content.length > 0 && CALC0.startsWith(em.content) && em.content !== CALC0);
  assert.equal(em.done, false);
  assert.equal((await post(base('error-midstream'), { messages: [Q] })).status, 500);
});

test('HTTP failures', async () => {
  const r401 = await post(base('http401'), { messages: [Q] });
  assert.equal(r401.status, 401);
  assert.match((await r401.json()).error.message, /API key/);
  const r403 = await post(base('http403'), { messages: [Q] });
  assert.equal(r403.status, 403);
  assert.equal(await r403.text(), '');
  const r404 = await post(base('http404'), { model: 'llama9', messages: [Q] });
  assert.equal(r404.status, 404);
  assert.equal((await r404.json()).error.message, "model 'llama9' not found");
  const r500 = await post(base('http500'), { messages: [Q] });
  assert.deepEqual([r500.status, (await r500.json()).error.message], [500, 'internal failure']);
  for (let i = 0; i < 2; i++) {
    const r429 = await post(base('http429'), { messages: [Q] });
    assert.deepEqual([r429.status, r429.headers.get('retry-after')], [429, '1']);
    await r429.arrayBuffer();
  }
  const html = await post(base('not-json'), { messages: [Q], stream: true });
  assert.equal(html.status, 200);
  assert.match(html.headers.get('content-type'), /^text\/html/);
  assert.equal(await html.text(), '<html>proxy login</html>');
  const unknown = await post(base('no-such-thing'), { messages: [Q] });
  assert.equal(unknown.status, 404);
  const msg = (await unknown.json()).error.message;
  for (const n of ['calc', 'awkward-chunks', 'cors-refuse']) assert.ok(msg.includes(n));
  const bad = await post(base('calc'), '{"messages": [');
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error.message, /invalid JSON/);
  const noMessages = await post(base('calc'), { model: 'x' });
  assert.equal(noMessages.status, 400);
  await noMessages.arrayBuffer();
  const models = await (await fetch(`${base('calc')}/models`)).json();
  assert.deepEqual(models.data.map((m) => m.id), ['mock-model', 'mock-small']);
  assert.equal((await fetch(`${base('http401')}/models`)).status, 401);
});

test('flaky503: two 503s per run id, then the calc script', async () => {
  const statuses = async (url, n, headers) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ messages: [Q] }) });
      out.push(r.status);
      if (r.status === 503) assert.equal(r.headers.get('retry-after'), '0');
      await r.arrayBuffer();
    }
    return out;
  };
  assert.deepEqual(await statuses(`${base('flaky503', 'a')}/chat/completions`, 3), [503, 503, 200]);
  assert.deepEqual(await statuses(`${base('flaky503', 'b')}/chat/completions`, 1), [503]);
  assert.deepEqual(await statuses(`${base('flaky503')}/chat/completions?run=c`, 3), [503, 503, 200]);
  assert.deepEqual(await statuses(`${base('flaky503')}/chat/completions`, 3, { 'x-mock-run': 'd' }), [503, 503, 200]);
  assert.deepEqual(await statuses(`${base('flaky503', 'b')}/chat/completions`, 2), [503, 200]);
});

test('CORS headers, preflight, and cors-refuse', async () => {
  const origin = 'http://127.0.0.1:9999';
  const ok = await post(base('calc'), { messages: [Q] }, { headers: { origin } });
  assert.equal(ok.headers.get('access-control-allow-origin'), origin);
  await ok.arrayBuffer();
  const pre = await fetch(`${base('calc')}/chat/completions`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });
  assert.equal(pre.status, 204);
  assert.match(pre.headers.get('access-control-allow-headers'), /Authorization/i);
  assert.match(pre.headers.get('access-control-allow-headers'), /Content-Type/i);
  const refused = await post(base('cors-refuse'), { messages: [Q] }, { headers: { origin } });
  assert.equal(refused.status, 200);
  assert.equal([...refused.headers.keys()].some((k) => k.startsWith('access-control-')), false);
  await refused.arrayBuffer();
  const badPre = await fetch(`${base('cors-refuse')}/chat/completions`, { method: 'OPTIONS', headers: { origin } });
  assert.equal(badPre.status, 405);
  assert.equal(badPre.headers.get('access-control-allow-origin'), null);
  await badPre.arrayBuffer();
});

test('/__requests records what was sent; /__reset clears', async () => {
  const run = `rec-${Date.now()}`;
  await complete(base('echo-prompt', run), { messages: [{ role: 'system', content: 'Line one\nline two' }, Q], stop: ['Observation:'] });
  const res = await post(base('calc', run), { messages: [Q] }, { headers: { authorization: 'Bearer sk-test' } });
  await res.arrayBuffer();
  const log = await (await fetch(`${mock.url}/__requests?run=${run}`)).json();
  assert.equal(log.length, 2);
  assert.equal(log[0].scenario, 'echo-prompt');
  assert.deepEqual(log[0].body.stop, ['Observation:']);
  assert.equal(log[1].headers.authorization, 'Bearer sk-test');
  assert.equal(log[1].path, `/s/calc@${run}/v1/chat/completions`);
  assert.equal(await complete(base('echo-prompt'), { messages: [{ role: 'system', content: 'Line one\nx' }, Q] }),
    'Thought: I now know the final answer.\nAction: final_answer\nAction Input: 2 messages; system: Line one');
  await (await fetch(`${mock.url}/__reset`, { method: 'POST' })).arrayBuffer();
  assert.deepEqual(await (await fetch(`${mock.url}/__requests`)).json(), []);
});

test('scripts: docs, messy, xss, zh, big-observation', async () => {
  assert.match(await complete(base('docs'), { messages: [Q] }), /Action: search_docs\nAction Input: \{"query": "RAG"\}$/);
  const docs = [Q, { role: 'assistant', content: 'x' }, { role: 'user', content: 'Observation: RAG means retrieval.\nmore lines' }];
  assert.match(await complete(base('docs'), { messages: docs }), /Action Input: RAG means retrieval\.$/);
  assert.match(await complete(base('messy'), { messages: [Q] }), /Action：Calculator\nAction Input: \{'expr': '2\+2',\}$/);
  const xss0 = await complete(base('xss'), { messages: [Q] });
  assert.match(xss0, /Action: js_tool/);
  const xss1 = await complete(base('xss'), { messages: STEP1 });
  for (const p of XSS_PAYLOADS) assert.ok(xss0.includes(p) && xss1.includes(p), p);
  assert.match(await complete(base('zh'), { messages: STEP1 }), /结果是 395。$/);
  const big = 'y'.repeat(1 << 20);
  const bigMsgs = [Q, { role: 'assistant', content: 'x' }, { role: 'user', content: `Observation: ${big}` }];
  assert.match(await complete(base('big-observation'), { messages: bigMsgs }), /Received 1048576 characters\.$/);
  for (const n of SCENARIO_NAMES.filter((n) => n.startsWith('js-'))) {
    assert.match(await complete(base(n), { messages: [Q] }), /Action: js_tool\nAction Input: \{"x": 1\}$/);
  }
  const loop = [Q, ...Array(3).fill([{ role: 'assistant', content: CALC0 }, { role: 'user', content: 'Observation: 395' }]).flat()];
  assert.equal(await complete(base('loop'), { messages: loop }), CALC0);
});

test('huge-body and endless-line go past the client limits (4 MB reply, 1 MB line)', async () => {
  for (const stream of [false, true]) {
    const content = await complete(base('huge-body'), { messages: [Q], stream });
    assert.equal(content.length, HUGE_BYTES);
  }
  const models = await fetch(`${base('huge-body')}/models`);
  assert.ok((await models.text()).length > 4_000_000);
  const res = await post(base('endless-line'), { messages: [Q], stream: true });
  const body = await res.text();
  assert.ok(body.startsWith('data: xxx') && body.length > 3_000_000, String(body.length));
  assert.ok(!/[\r\n]/.test(body), 'no line end at all');
  assert.equal(await complete(base('endless-line'), { messages: [Q] }), CALC0);
});

test('hang and slow-stream are cut by an AbortController', async () => {
  const t0 = Date.now();
  await assert.rejects(post(base('hang'), { messages: [Q] }, { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
  assert.ok(Date.now() - t0 < 2000);
  const ac = new AbortController();
  const res = await post(base('slow-stream'), { messages: [Q], stream: true }, { signal: ac.signal });
  const reader = res.body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /^data: /);
  ac.abort();
  await assert.rejects(reader.read(), { name: 'AbortError' });
});

test('close() returns promptly with a hanging request open', async () => {
  const own = await startMock({ port: 0 });
  const pending = fetch(`${own.url}/s/hang/v1/chat/completions`, { method: 'POST', body: '{"messages":[]}' }).catch((e) => e);
  await new Promise((r) => setTimeout(r, 100));
  const t0 = Date.now();
  await own.close();
  assert.ok(Date.now() - t0 < 1000, `close took ${Date.now() - t0} ms`);
  assert.ok((await pending) instanceof Error);
});
