// engine().prefill (www/inpage.js) against a stand-in for its Worker: what it sends, what it
// skips, and what it believes the prompt cache holds after each turn of events.
import { test } from 'node:test';
import assert from 'node:assert/strict';

/** A Worker that keeps what it is sent and answers when the test says. */
class FakeWorker {
  static last = null;
  constructor() {
    this.sent = [];
    FakeWorker.last = this;
  }
  postMessage(message) { this.sent.push(message); }
  /** Answers the call `id` as the real worker does. */
  reply(id, value) { this.onmessage({ data: { type: 'reply', id, value } }); }
  fail(id, code) { this.onmessage({ data: { type: 'error', id, code, params: {} } }); }
  completions() { return this.sent.filter((m) => m.type === 'complete'); }
  aborted() { return this.sent.filter((m) => m.type === 'abort').map((m) => m.target); }
}
globalThis.Worker = FakeWorker;
globalThis.location = { origin: 'null', href: 'file:///' };
const { InPageEngine } = await import('../../www/inpage.js');

const opening = (system) => [{ role: 'system', content: system }, { role: 'user', content: 'Question:' }];
const timings = { prompt_n: 268, prompt_ms: 5400, prompt_per_second: 49.6 };
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** An engine with a model loaded. */
async function loaded() {
  const engine = new InPageEngine();
  const loading = engine.load({ url: 'm.gguf' });
  const worker = FakeWorker.last;
  worker.reply(worker.sent[0].id, { key: 'k', name: 'm.gguf' });
  await loading;
  return { engine, worker };
}

test('nothing is read without a model', () => {
  assert.equal(new InPageEngine().prefill(opening('S')), null);
});

test('the opening goes out as a one-token request; once read, the same opening is skipped', async () => {
  const { engine, worker } = await loaded();
  const pending = engine.prefill(opening('S'));
  const [sent] = worker.completions();
  assert.deepEqual(sent.body, { messages: opening('S'), max_tokens: 1, temperature: 0 });
  // Asked again while it reads: the same promise, no second request.
  assert.equal(engine.prefill(opening('S')), pending);
  worker.reply(sent.id, { text: 'T', timings });
  assert.deepEqual(await pending, timings);
  assert.equal(engine.cachedSystem, 'S');
  assert.equal(engine.prefill(opening('S')), null);
  assert.equal(worker.completions().length, 1);
});

test('a newer opening stops the older, whose late end claims nothing', async () => {
  const { engine, worker } = await loaded();
  const first = engine.prefill(opening('S1'));
  const second = engine.prefill(opening('S2'));
  const [a, b] = worker.completions();
  assert.deepEqual(worker.aborted(), [a.id]);
  worker.reply(a.id, { text: '', timings }); // it had finished before the abort arrived
  assert.equal(await first, null);
  assert.equal(engine.cachedSystem, null);
  worker.reply(b.id, { text: '', timings });
  assert.deepEqual(await second, timings);
  assert.equal(engine.cachedSystem, 'S2');
});

test("a run's request of the same system prompt waits for the read-ahead; one of another stops it", async () => {
  const { engine, worker } = await loaded();
  const read = engine.prefill(opening('S'));
  const same = engine.model({ messages: [...opening('S').slice(0, 1), { role: 'user', content: 'Question: q' }] });
  assert.deepEqual(worker.aborted(), []);
  const [p, m] = worker.completions();
  worker.reply(p.id, { text: '', timings });
  worker.reply(m.id, { text: 'Thought: …', timings: {} });
  await Promise.all([read, same]);
  assert.equal(engine.cachedSystem, 'S');

  engine.prefill(opening('S2'));
  const other = engine.model({ messages: [{ role: 'system', content: 'S3' }, { role: 'user', content: 'q' }] });
  const [, , p2, m2] = worker.completions();
  assert.deepEqual(worker.aborted(), [p2.id]);
  worker.fail(p2.id, 'aborted');
  worker.reply(m2.id, { text: 'x', timings: {} });
  await other;
  await tick();
  assert.equal(engine.cachedSystem, 'S3');
});

test('a failed request, a request without the prompt cache and a new load leave nothing known', async () => {
  const { engine, worker } = await loaded();
  const failed = engine.model({ messages: opening('S') });
  worker.fail(worker.completions()[0].id, 'engine');
  await assert.rejects(failed);
  assert.equal(engine.cachedSystem, null);

  const uncached = engine.model({ messages: opening('S'), cache_prompt: false });
  worker.reply(worker.completions()[1].id, { text: '', timings: {} });
  await uncached;
  assert.equal(engine.cachedSystem, null);

  const read = engine.prefill(opening('S'));
  const reading = worker.completions()[2];
  const loading = engine.load({ url: 'other.gguf' });
  assert.deepEqual(worker.aborted(), [reading.id]);
  worker.reply(reading.id, { text: '', timings }); // the old model finished it anyway
  worker.reply(worker.sent.filter((m) => m.type === 'load').at(-1).id, { key: 'k2' });
  await loading;
  assert.equal(await read, null);
  assert.equal(engine.cachedSystem, null);
});
