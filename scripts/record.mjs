#!/usr/bin/env node
// Records a trace for <react-loop trace-src> with a real model: drives the wasm Agent in Node
// against an OpenAI-compatible server and writes agent.exportTrace() (the recording format).
// Needs the wasm build (scripts/build). Prints each reply and observation to stderr, and exits
// with 2 when the run did not end in an answer.
//
//   scripts/local-llm start qwen --port 8090
//   node scripts/record.mjs --question "What is 23 * 17 + 4?" --tools calculator --out www/recordings/my-run.json
//   scripts/local-llm stop --port 8090
//
// The commands that made www/recordings/*.json are listed in www/embed/README.md.
//
// Options (defaults):
//   --question TEXT            required
//   --out FILE                 (stdout)
//   --base-url URL             (http://127.0.0.1:8090/v1)
//   --model NAME               (qwen2.5-coder-0.5b)
//   --lang en|zh               prompt language (en)
//   --tools a,b                built-ins to keep (all)
//   --max-tokens N (256)  --seed N (1)  --temperature T (0)  --stream
//   --style chat|scratchpad    (chat)
//   --few-shot FILE            a JSON file of [{question, transcript}]
//   --stop JSON                stop sequences (["Observation:"])
//   --settings JSON            any other Agent settings, e.g. '{"restateQuestion": true}'
//   --timeout SECONDS          per request (300: a small model on a busy CPU is slow)
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import init, { Agent } from '../www/pkg/reactloop.js';

const { values: o } = parseArgs({
  options: {
    question: { type: 'string' }, out: { type: 'string' },
    'base-url': { type: 'string', default: 'http://127.0.0.1:8090/v1' },
    model: { type: 'string', default: 'qwen2.5-coder-0.5b' },
    lang: { type: 'string', default: 'en' }, tools: { type: 'string' },
    'max-tokens': { type: 'string', default: '256' }, seed: { type: 'string', default: '1' },
    temperature: { type: 'string', default: '0' }, stream: { type: 'boolean', default: false },
    style: { type: 'string', default: 'chat' }, 'few-shot': { type: 'string' }, stop: { type: 'string' },
    settings: { type: 'string' }, timeout: { type: 'string', default: '300' },
  },
});
if (!o.question) throw new Error('--question is required');

await init({ module_or_path: await readFile(new URL('../www/pkg/reactloop_bg.wasm', import.meta.url)) });
const BUILTINS = ['calculator', 'search_docs', 'current_time'];
const keep = o.tools ? o.tools.split(',').map((s) => s.trim()) : BUILTINS;
const agent = new Agent({
  baseUrl: o['base-url'], model: o.model, lang: o.lang, stream: o.stream,
  temperature: Number(o.temperature), seed: Number(o.seed), maxTokens: Number(o['max-tokens']),
  timeoutMs: Number(o.timeout) * 1000,
  disabledTools: BUILTINS.filter((name) => !keep.includes(name)), style: o.style,
  fewShot: o['few-shot'] ? JSON.parse(await readFile(o['few-shot'], 'utf8')) : [],
  ...(o.stop ? { stop: JSON.parse(o.stop) } : {}),
  ...(o.settings ? JSON.parse(o.settings) : {}),
});
const trace = await agent.run(o.question, (e) => {
  if (e.type === 'step' && e.step.reply && !e.step.observation) process.stderr.write(`--- step ${e.step.index}\n${e.step.reply.text}\n`);
  if (e.type === 'step' && e.step.observation) process.stderr.write(`Observation: ${e.step.observation.text.slice(0, 200)}\n`);
  if (e.type === 'error') process.stderr.write(`error: ${e.message}\n`);
  if (e.type === 'done') process.stderr.write(`=== ${e.message}\n`);
});
const json = agent.exportTrace();
if (o.out) await writeFile(o.out, `${json}\n`);
else process.stdout.write(`${json}\n`);
process.exitCode = trace.outcome?.type === 'answer' ? 0 : 2;
