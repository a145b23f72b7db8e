#!/usr/bin/env node
// Do two benchmark runs send the same requests and get the same replies? For each trace in
// the second results directory, compares the system prompt and every step's request and reply
// with the trace of the same task in the first; exits 1 on any difference.
//   node bench/same-steps.mjs bench/results/<before>/ bench/results/<after>/
import { readdir, readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node bench/same-steps.mjs <results dir before> <results dir after>');
  process.exit(2);
}
const read = async (dir, name) => JSON.parse(await readFile(join(dir, name), 'utf8'));
let differ = 0;
for (const name of (await readdir(after)).filter((n) => n.endsWith('.json') && n !== 'summary.json').sort()) {
  const b = await read(after, name);
  // Only failed tasks keep their trace: a task that passed before has none to compare.
  const a = await read(before, name).catch(() => null);
  if (!a) {
    console.log(`${name.replace(/\.json$/, '').padEnd(28)} no trace in ${before}`);
    differ += 1;
    continue;
  }
  const diffs = [];
  if (a.system_prompt !== b.system_prompt) diffs.push('system prompt');
  if (a.steps.length !== b.steps.length) diffs.push(`${a.steps.length} vs ${b.steps.length} steps`);
  a.steps.forEach((step, i) => {
    const other = b.steps[i];
    if (!other) return;
    if (!isDeepStrictEqual(step.request, other.request)) diffs.push(`request ${i + 1}`);
    if (step.reply?.text !== other.reply?.text) diffs.push(`reply ${i + 1}`);
  });
  if (diffs.length) differ += 1;
  console.log(`${name.replace(/\.json$/, '').padEnd(28)} ${diffs.length ? diffs.join(', ') : 'same'}`);
}
process.exit(differ ? 1 : 0);
