// Keep and share: a trace as Markdown, and the permalink that restores a setup from the URL.
import { describeFormatError, describeOutcome, describeRepair, explainGuard } from './pkg/reactloop.js';

/** A fence longer than any run of backticks inside `text`, so the text cannot close it. */
function fenced(text, lang = '') {
  const longest = Math.max(0, ...(String(text).match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** The trace as a Markdown document (in English, like the core's sentences). */
export function traceToMarkdown(trace) {
  const out = ['# reactloop trace', '', `**Question:** ${trace.question}`, ''];
  if (trace.model) out.push(`**Model:** ${trace.model}`, '');
  out.push('<details><summary>System prompt</summary>', '', fenced(trace.system_prompt, 'text'), '', '</details>', '');
  for (const step of trace.steps) {
    out.push(`## Step ${step.index}`, '');
    const { parse, call, observation } = step;
    if (parse?.thought) out.push(`**Thought:** ${parse.thought}`, '');
    if (parse?.kind === 'action') {
      out.push(`**Action:** \`${call?.tool ?? parse.tool}\``, '', fenced(JSON.stringify(call?.args ?? parse.input, null, 2), 'json'), '');
    } else if (parse?.kind === 'final') {
      out.push(`**Final answer:** ${parse.answer}`, '');
    } else if (parse?.kind === 'error') {
      out.push(`**Format error:** ${describeFormatError(parse.error)}`, '', fenced(step.reply.text, 'text'), '');
    } else if (step.reply && !parse) {
      out.push('**Reply (cut off by Stop):**', '', fenced(step.reply.text, 'text'), '');
    }
    if (parse?.repairs.length) out.push(`**Repairs:** ${parse.repairs.map(describeRepair).join('; ')}`, '');
    if (observation) out.push(`**Observation** (${observation.source}):`, '', fenced(observation.text, 'text'), '');
    for (const guard of step.guards) out.push(`> **${guard.type}:** ${explainGuard(guard)}`, '');
    if (step.error) out.push(`> **Error:** ${step.error.type}`, '');
  }
  if (trace.outcome) out.push('## Outcome', '', describeOutcome(trace.outcome), '');
  return out.join('\n');
}

// What a permalink carries. Never the API key, and never a JavaScript tool: a link that runs
// code in this page could read a remembered key.
const PARAMS = ['endpoint', 'model', 'question', 'lang', 'demo', 'autorun', 'tools', 'plang', 'template', 'fewshot'];

/** The URL parameters this page understands, as an object of strings. */
export function readParams(search = location.search) {
  const params = new URLSearchParams(search);
  return Object.fromEntries(PARAMS.filter((p) => params.has(p)).map((p) => [p, params.get(p)]));
}

/** A permalink for `state` (only the keys in PARAMS that are set). */
export function permalink(state) {
  const params = new URLSearchParams();
  for (const key of PARAMS) {
    const value = state[key];
    if (value != null && value !== '') params.set(key, value);
  }
  return `${location.origin}${location.pathname}?${params}`;
}
