#!/usr/bin/env node
// Writes a trace (an exported trace, a comparison's run, a <react-loop> recording) as one
// animated SVG (www/svg.js), for a README, a slide or a wiki. A trace without the core's
// sentences (the CLI's `reactloop demo`) gets them from the wasm build (scripts/build).
//
//   node scripts/run-svg.mjs www/recordings/calculator-en.json --out run.svg
//   cargo run --features cli --bin reactloop -- demo "What is 23 * 17 + 4?" > demo.json
//   node scripts/run-svg.mjs demo.json --lang zh --out demo-zh.svg
//
// Options: --lang en|zh (en)   --out FILE (stdout)
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { traceToSvg } from '../www/svg.js';

const { values: o, positionals: [input] } = parseArgs({
  allowPositionals: true,
  options: { lang: { type: 'string', default: 'en' }, out: { type: 'string' } },
});
if (!input) throw new Error('usage: node scripts/run-svg.mjs TRACE.json [--lang en|zh] [--out FILE]');
if (!['en', 'zh'].includes(o.lang)) throw new Error(`--lang en or zh, not ${o.lang}`);

const text = await readFile(input, 'utf8');
let trace = JSON.parse(text);
if (!trace.view) {
  const { default: init, loadTrace } = await import('../www/pkg/reactloop.js');
  await init({ module_or_path: await readFile(new URL('../www/pkg/reactloop_bg.wasm', import.meta.url)) });
  trace = loadTrace(text);
}
const svg = traceToSvg(trace, { lang: o.lang });
if (o.out) await writeFile(o.out, svg);
else process.stdout.write(svg);
