// A trace as a Markdown document. Pure, with no import of the wasm module, so that Node can
// test it: the core's sentences (guards, repairs, format errors, outcomes) come in the trace.
//
// Everything in a trace came from a model, a person or a host: a viewer that renders the
// Markdown (and the HTML Markdown allows) must show it as text. So every field is either in a
// fenced block, which no text can close, or escaped (see `escape`).

/** A fence longer than any run of backticks inside `text`, so the text cannot close it. */
function fenced(text, lang = '') {
  const longest = Math.max(0, ...(String(text).match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * `text` as literal Markdown text outside code: Markdown punctuation gets a backslash (no
 * emphasis, code span, link, image, heading or table can start), then HTML's special
 * characters become entities (no tag, no autolink). In that order, so the `#` of `&#39;` stays.
 */
export function escape(text) {
  return String(text ?? '')
    .replace(/[\\`*_[\]()!#|~]/g, '\\$&')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * A tool name in a code span, as the trace shows registered names; a name as a model wrote it
 * may hold anything (backticks, line breaks, markup), and is then written escaped instead.
 */
function toolName(name) {
  const text = String(name ?? '');
  return /^[\w.:-]+$/.test(text) ? `\`${text}\`` : escape(text);
}

/**
 * The trace as a Markdown document, in English. `trace` is as `trace()` and `loadTrace` give
 * it: the core's sentences are in each step's `view` and in `trace.view`.
 */
export function traceToMarkdown(trace) {
  const out = ['# reactloop trace', '', `**Question:** ${escape(trace.question)}`, ''];
  if (trace.model) out.push(`**Model:** ${escape(trace.model)}`, '');
  out.push('<details><summary>System prompt</summary>', '', fenced(trace.system_prompt, 'text'), '', '</details>', '');
  for (const step of trace.steps) {
    out.push(`## Step ${escape(step.index)}`, '');
    const { parse, call, observation, view } = step;
    if (parse?.thought) out.push(`**Thought:** ${escape(parse.thought)}`, '');
    if (parse?.kind === 'action') {
      out.push(`**Action:** ${toolName(call?.tool ?? parse.tool)}`, '', fenced(JSON.stringify(call?.args ?? parse.input, null, 2), 'json'), '');
    } else if (parse?.kind === 'final') {
      out.push(`**Final answer:** ${escape(parse.answer)}`, '');
    } else if (parse?.kind === 'error') {
      out.push(`**Format error:** ${escape(view.format_error.en)}`, '', fenced(step.reply.text, 'text'), '');
    } else if (step.reply && !parse) {
      out.push('**Reply (cut off by Stop):**', '', fenced(step.reply.text, 'text'), '');
    }
    if (parse?.repairs.length) out.push(`**Repairs:** ${escape(view.repairs.map((r) => r.en).join('; '))}`, '');
    if (observation) out.push(`**Observation** (${escape(observation.source)}):`, '', fenced(observation.text, 'text'), '');
    step.guards.forEach((guard, i) => out.push(`> **${escape(guard.type)}:** ${escape(view.guards[i].en)}`, ''));
    if (step.error) out.push(`> **Error:** ${escape(step.error.type)}`, '');
  }
  if (trace.outcome) out.push('## Outcome', '', escape(trace.view.outcome.en), '');
  if (trace.generator) out.push('---', '', `*Recorded with ${escape(trace.generator)}.*`, '');
  return out.join('\n');
}
