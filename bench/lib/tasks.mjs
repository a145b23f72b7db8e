// Task success with a real small model: every task of bench/tasks/tasks.json through the
// wasm Agent in Node against a fresh scripts/local-llm server per mode.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadWasm, ROOT } from './wasm.mjs';
import { freshServer, MODELS, THREADS } from './llm.mjs';
import { table, fmt } from './table.mjs';
import { checkAnswer } from '../tasks/check.mjs';
import { pageTools, inventedCalls } from '../tasks/page-tools.mjs';

export const MODES = [
  // Exactly what a user gets: the Agent's defaults (constrained "auto" decides from the server).
  { id: 'qwen-defaults', model: 'qwen', fewShot: false, label: 'Agent defaults (auto)' },
  { id: 'qwen-plain', model: 'qwen', constrained: 'off', fewShot: false, label: 'plain prompt' },
  { id: 'qwen-fewshot', model: 'qwen', constrained: 'off', fewShot: true, label: 'few-shot (2 examples)' },
  { id: 'qwen-json_object', model: 'qwen', constrained: 'json_object', fewShot: false, label: 'constrained: json_object' },
  { id: 'qwen-grammar', model: 'qwen', constrained: 'grammar', fewShot: false, label: 'constrained: grammar (GBNF)' },
  // What Ollama, LM Studio, vLLM and OpenAI get under "auto": the JSON schema.
  { id: 'qwen-json_schema', model: 'qwen', constrained: 'json_schema', fewShot: false, label: 'constrained: json_schema' },
  { id: 'smollm-defaults', model: 'smollm', fewShot: false, label: 'Agent defaults (auto)' },
  { id: 'qwen15-defaults', model: 'qwen15', fewShot: false, label: 'Agent defaults (auto)' },
  { id: 'qwen15-json_schema', model: 'qwen15', constrained: 'json_schema', fewShot: false, label: 'constrained: json_schema' },
  { id: 'qwen15-grammar', model: 'qwen15', constrained: 'grammar', fewShot: false, label: 'constrained: grammar (GBNF)' },
  { id: 'smollm-json_object', model: 'smollm', constrained: 'json_object', fewShot: false, label: 'constrained: json_object' },
  { id: 'smollm-grammar', model: 'smollm', constrained: 'grammar', fewShot: false, label: 'constrained: grammar (GBNF)' },
  // Diagnostic, only when named in --modes: the plain prompt with the stop sequence moved to
  // the start of a line, so a reply that opens with an echoed "Observation:" is not cut to "".
  { id: 'qwen-plain-nlstop', model: 'qwen', constrained: 'off', fewShot: false, stop: ['\nObservation:'], extra: true, label: 'plain prompt, stop "\\nObservation:"' },
  // Variants of the defaults, measured side by side (only when named in --modes).
  { id: 'qwen-defaults-answer-first', model: 'qwen', fewShot: false, actFirst: false, extra: true, label: 'defaults, final_answer allowed at step 1' },
  { id: 'qwen-defaults-fewshot', model: 'qwen', fewShot: true, extra: true, label: 'defaults + few-shot (2 examples)' },
  { id: 'qwen-plain-scratchpad', model: 'qwen', constrained: 'off', fewShot: false, settings: { style: 'scratchpad' }, extra: true, label: 'plain prompt, one scratchpad message' },
  { id: 'qwen-defaults-en-prompt', model: 'qwen', fewShot: false, settings: { lang: 'en' }, extra: true, label: 'defaults, the English prompt and feedback for every question' },
  { id: 'qwen-plain-transcript', model: 'qwen', constrained: 'off', fewShot: false, settings: { style: 'transcript', workedExamples: false }, extra: true, label: 'plain prompt, replies and Observations in one assistant message, no worked examples' },
  { id: 'qwen-fewshot-transcript', model: 'qwen', constrained: 'off', fewShot: true, settings: { style: 'transcript' }, extra: true, label: 'few-shot, replies and Observations in one assistant message' },
  { id: 'qwen-plain-examples-chat', model: 'qwen', constrained: 'off', fewShot: false, settings: { style: 'chat' }, extra: true, label: 'plain prompt, chat messages, worked examples' },
  { id: 'qwen-plain-examples-transcript', model: 'qwen', constrained: 'off', fewShot: false, settings: { style: 'transcript' }, extra: true, label: 'plain prompt, worked examples, replies and Observations in one assistant message' },
  { id: 'qwen-defaults-transcript', model: 'qwen', fewShot: false, settings: { style: 'transcript' }, extra: true, label: 'defaults, replies and Observations in one assistant message' },
  // The strategies of issue 24 (only when named in --modes), under the grammar: what `auto`
  // gives llama.cpp's server.
  ...['act', 'cot', 'plan', 'reflect'].flatMap((strategy) => ['qwen', 'qwen15'].map((model) => ({
    id: `${model}-${strategy}`, model, constrained: 'grammar', fewShot: false, settings: { strategy }, extra: true, label: `grammar, strategy ${strategy}`,
  }))),
  // The same strategies on the path Ollama, LM Studio, vLLM and OpenAI get: their own JSON
  // schemas.
  ...['act', 'cot', 'plan', 'reflect'].map((strategy) => ({
    id: `qwen-${strategy}-json_schema`, model: 'qwen', constrained: 'json_schema', fewShot: false, settings: { strategy }, extra: true, label: `constrained: json_schema, strategy ${strategy}`,
  })),
  { id: 'qwen-plain-restate', model: 'qwen', constrained: 'off', fewShot: false, settings: { restateQuestion: true }, extra: true, label: 'plain prompt, the question restated after each Observation' },
];

/** The settings every run gets (besides baseUrl, model, constrained, lang, fewShot). */
export const RUN_SETTINGS = {
  temperature: 0,
  seed: 42,
  maxTokens: 256,
  maxSteps: 6,
  stream: false,
  timeoutMs: 180_000,
};

const GUARD_ENDINGS = ['step_limit', 'format_errors', 'repeated_calls'];

// `tune`: the tasks the loop's changes are measured on while they are made. `heldout`: tasks
// written before any run of them was looked at, only ever reported; a change that moves
// `tune` and not `heldout` fits the tune tasks, not the problem.
// `pagetools`: questions for a page's own tools (the file's `tools`), registered beside the
// built-in ones.
export const TASK_SETS = { tune: 'bench/tasks/tasks.json', heldout: 'bench/tasks/heldout.json', pagetools: 'bench/tasks/pagetools.json' };

export async function loadTasks(set = 'tune') {
  if (!TASK_SETS[set]) throw new Error(`unknown task set ${set} (want ${Object.keys(TASK_SETS).join(', ')})`);
  return JSON.parse(await readFile(join(ROOT, TASK_SETS[set]), 'utf8'));
}

function sumUsage(trace, key) {
  return trace.steps.reduce((s, st) => s + (st.reply?.usage?.[key] ?? 0), 0);
}

function repeatsLastReply(trace) {
  const [a, b] = trace.steps.slice(-2).map((s) => s.reply?.text?.trim());
  return a != null && a === b;
}

/** Runs one task (with `Date.now` already the benchmark's fixed clock). */
async function runTask(Agent, settings, task, tools = []) {
  // A mode's own `lang` (a variant) wins over the task's.
  const agent = new Agent({ lang: task.lang, ...settings });
  for (const tool of tools) agent.registerTool(tool);
  const t0 = performance.now();
  let trace;
  let thrown = null;
  try {
    trace = await agent.run(task.question, null);
  } catch (e) {
    thrown = String(e?.message ?? e);
    trace = agent.trace();
  }
  const wallMs = performance.now() - t0;
  const outcome = trace?.outcome ?? { type: 'exception' };
  const answer = outcome.type === 'answer' ? outcome.answer : null;
  const guards = {};
  for (const step of trace?.steps ?? []) for (const g of step.guards) guards[g.type] = (guards[g.type] ?? 0) + 1;
  const record = {
    id: task.id,
    lang: task.lang,
    category: task.category,
    ok: answer != null && checkAnswer(task, answer),
    outcome: outcome.type,
    answer,
    error: outcome.type === 'model_error' ? outcome.error : thrown,
    steps: trace?.steps.length ?? 0,
    guards,
    formatFeedback: (guards.format_feedback ?? 0) > 0,
    // The agent took an earlier call's result as the answer (final_answer repeated its arguments).
    answerFromEarlierCall: (trace?.steps.at(-1)?.parse?.repairs ?? []).includes('answer_from_earlier_call'),
    // Ended at the step limit while sending the same reply again: a stuck model the loop
    // could not move.
    stuckAtLimit: outcome.type === 'step_limit' && repeatsLastReply(trace),
    // Calls of a page tool the question is not for (the task's `tools`).
    inventedCalls: tools.length ? inventedCalls(trace, tools.map((t) => t.name), task.tools) : 0,
    promptTokens: trace ? sumUsage(trace, 'prompt_tokens') : 0,
    completionTokens: trace ? sumUsage(trace, 'completion_tokens') : 0,
    wallMs: Math.round(wallMs),
  };
  const exported = trace ? agent.exportTrace() : null;
  return { record, exported };
}

function summarise(mode, records, wallMs) {
  const n = records.length;
  const avg = (f) => (n ? records.reduce((s, r) => s + f(r), 0) / n : NaN);
  const count = (f) => records.filter(f).length;
  const byCategory = {};
  for (const r of records) {
    const key = `${r.category}-${r.lang}`;
    byCategory[key] ??= { ok: 0, n: 0 };
    byCategory[key].n += 1;
    if (r.ok) byCategory[key].ok += 1;
  }
  return {
    mode: mode.id,
    model: MODELS[mode.model].label,
    label: mode.label,
    tasks: n,
    success: count((r) => r.ok),
    formatRecovered: count((r) => r.ok && r.formatFeedback),
    withFormatFeedback: count((r) => r.formatFeedback),
    endedByGuard: Object.fromEntries(GUARD_ENDINGS.map((g) => [g, count((r) => r.outcome === g)])),
    stuckAtLimit: count((r) => r.stuckAtLimit),
    modelErrors: count((r) => r.outcome === 'model_error' || r.outcome === 'exception'),
    answeredWrong: count((r) => r.outcome === 'answer' && !r.ok),
    answersFromEarlierCall: count((r) => r.answerFromEarlierCall),
    inventedCalls: records.reduce((s, r) => s + (r.inventedCalls ?? 0), 0),
    correctFromEarlierCall: count((r) => r.ok && r.answerFromEarlierCall),
    avgSteps: avg((r) => r.steps),
    avgPromptTokens: avg((r) => r.promptTokens),
    avgCompletionTokens: avg((r) => r.completionTokens),
    wallMs: Math.round(wallMs),
    byCategory,
  };
}

/**
 * Runs the modes whose model is in `models` (and whose id is in `modes`, when given).
 * Writes bench/results/<date>-<mode>/{summary.json, <failing-task-id>.json}. `jobs` modes run
 * at once, each against its own server.
 */
export async function measureTasks({ models = ['qwen', 'smollm'], modes = null, limit = null, ids = null, jobs = 1, date, portOffset = 0, tag = null, set = 'tune', log = console.error }) {
  if (!Number.isInteger(portOffset) || portOffset < 0) throw new Error('--port-offset needs a whole number ≥ 0');
  if (tag != null && !/^[\w.-]+$/.test(tag)) throw new Error('--tag takes letters, digits, . _ and -');
  const { Agent } = await loadWasm();
  const data = await loadTasks(set);
  const tools = pageTools(data);
  const fewShot = JSON.parse(await readFile(join(ROOT, 'bench/few_shot.json'), 'utf8'));
  const unknownIds = (ids ?? []).filter((id) => !data.tasks.some((t) => t.id === id));
  if (unknownIds.length) throw new Error(`unknown task ${unknownIds.join(', ')}`);
  // A partial run (--limit or --tasks) writes to its own directory, never over a full run's.
  const picked = ids ? data.tasks.filter((t) => ids.includes(t.id)) : data.tasks;
  const tasks = limit ? picked.slice(0, limit) : picked;
  const partial = (set === 'tune' ? '' : `-${set}`) + (limit ? `-limit${limit}` : ids ? '-some' : '') + (tag ? `-${tag}` : '');
  const selected = MODES.filter((m) => models.includes(m.model) && (modes ? modes.includes(m.id) : !m.extra));
  const unknown = (modes ?? []).filter((id) => !MODES.some((m) => m.id === id));
  if (unknown.length) throw new Error(`unknown mode ${unknown.join(', ')} (known: ${MODES.map((m) => m.id).join(', ')})`);
  // Each job slot gets its own server port, so modes can run side by side (--jobs).
  const runMode = async (mode, slot) => {
    const dir = join(ROOT, 'bench/results', `${date}-${mode.id}${partial}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const port = MODELS[mode.model].port + 10 * slot + portOffset;
    log(`\n== ${mode.id}: fresh ${mode.model} server on port ${port}`);
    const server = freshServer(mode.model, port);
    const settings = {
      ...RUN_SETTINGS,
      baseUrl: server.url,
      model: server.alias,
      ...(mode.constrained ? { constrained: mode.constrained } : {}),
      ...(mode.actFirst === false ? { actFirst: false } : {}),
      fewShot: mode.fewShot ? fewShot : [],
      ...(mode.stop ? { stop: mode.stop } : {}),
      ...mode.settings,
    };
    const records = [];
    const t0 = performance.now();
    try {
      for (const [i, task] of tasks.entries()) {
        let { record, exported } = await runTask(Agent, settings, task, tools);
        // A request that never reached the server (a connection refused or reset while another
        // server was loading its model) measures the machine, not the loop: the task runs once
        // more, and the record says so.
        if (record.outcome === 'model_error' && record.error?.type === 'network' && record.completionTokens === 0) {
          log(`${mode.id} ${task.id}: ${record.error.detail ?? 'network error'} before any reply; running it again`);
          ({ record, exported } = await runTask(Agent, settings, task, tools));
          record.rerunAfterNetworkError = true;
        }
        records.push(record);
        // Compact JSON (about half the size of exportTrace's pretty print); loadTrace reads both.
        if (!record.ok && exported) await writeFile(join(dir, `${task.id}.json`), JSON.stringify(JSON.parse(exported)) + '\n');
        const answer = record.answer == null ? '' : ` ${JSON.stringify(record.answer.slice(0, 60))}`;
        log(
          `${mode.id} ${String(i + 1).padStart(2)}/${tasks.length} ${record.ok ? 'ok  ' : 'FAIL'} ${task.id.padEnd(26)} ` +
            `${record.outcome}${record.error ? ` (${record.error.type ?? record.error})` : ''}, ${record.steps} steps, ` +
            `${(record.wallMs / 1000).toFixed(1)} s${answer}`,
        );
      }
    } finally {
      server.stop();
    }
    const summary = summarise(mode, records, performance.now() - t0);
    summary.settings = { ...settings, fewShot: mode.fewShot ? 'bench/few_shot.json' : [], lang: mode.settings?.lang ?? 'the task\'s lang' };
    summary.limit = limit;
    summary.serverThreads = Number(THREADS);
    summary.jobs = jobs;
    summary.records = records;
    await writeFile(join(dir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    log(`== ${mode.id}: ${summary.success}/${summary.tasks} in ${fmt.secs(summary.wallMs)}; traces of failures in ${dir}`);
    return { ...summary, dir: dir.slice(ROOT.length) };
  };
  const summaries = new Array(selected.length);
  let next = 0;
  // The tasks' clock: current_time and every date question see the same instant.
  const realNow = Date.now;
  Date.now = () => data.now_unix_ms;
  try {
    await Promise.all(
      Array.from({ length: Math.min(jobs, selected.length) }, async (_, slot) => {
        while (next < selected.length) {
          const i = next++;
          summaries[i] = await runMode(selected[i], slot);
        }
      }),
    );
  } finally {
    Date.now = realNow;
  }
  return { now_iso: data.now_iso, set, file: TASK_SETS[set], settings: RUN_SETTINGS, summaries };
}

const CATEGORIES = ['calc', 'docs', 'time', 'multi', 'none', 'page', 'page_calc', 'builtin'];

export function renderTasks(r) {
  const s = r.summaries;
  const rows = s.map((m) => [
    `${m.model.split(' ')[0]}, ${m.label}`,
    `**${m.success}/${m.tasks}** (${fmt.pct(m.success, m.tasks)})`,
    `${m.formatRecovered}/${m.withFormatFeedback}`,
    `${m.endedByGuard.step_limit} / ${m.endedByGuard.format_errors} / ${m.endedByGuard.repeated_calls}`,
    `${m.stuckAtLimit ?? '–'}`,
    `${m.modelErrors}`,
    `${m.answeredWrong}`,
    `${m.correctFromEarlierCall}/${m.answersFromEarlierCall}`,
    `${m.inventedCalls ?? '–'}`,
    fmt.dec(m.avgSteps),
    fmt.int(m.avgPromptTokens),
    fmt.int(m.avgCompletionTokens),
    fmt.secs(m.wallMs),
  ]);
  // The categories this set has.
  const cats = CATEGORIES.filter((c) => s.some((m) => m.byCategory[`${c}-en`] || m.byCategory[`${c}-zh`]));
  const cat = s.map((m) => [
    `${m.model.split(' ')[0]}, ${m.label}`,
    ...cats.flatMap((c) =>
      ['en', 'zh'].map((l) => {
        const b = m.byCategory[`${c}-${l}`];
        return b ? `${b.ok}/${b.n}` : '–';
      }),
    ),
  ]);
  return (
    `### Task success with real small models (${r.set ?? 'tune'} set, \`${r.file ?? TASK_SETS.tune}\`)\n\n` +
    table(
      ['model, mode', 'success', 'format errors recovered', 'ended by guard: step limit / format / repeats', 'step limit while repeating one reply', 'model errors', 'wrong answers', 'answer = earlier result', 'invented calls', 'avg steps', 'avg prompt tokens', 'avg completion tokens', 'wall'],
      rows,
      'lrrrrrrrrrrrr',
    ) +
    '\n\nBy category (correct/tasks):\n\n' +
    table(['model, mode', ...cats.flatMap((c) => [`${c} en`, `${c} zh`])], cat, 'l' + 'r'.repeat(2 * cats.length)) +
    `\n\nSettings: temperature ${RUN_SETTINGS.temperature}, seed ${RUN_SETTINGS.seed}, maxTokens ${RUN_SETTINGS.maxTokens}, maxSteps ${RUN_SETTINGS.maxSteps}, no streaming, the prompt in the task's language, the default documents, clock fixed at ${r.now_iso} (TZ=UTC), a freshly started server per mode (llama.cpp's server through xllamacpp, threads ${r.summaries[0]?.serverThreads ?? THREADS}). ` +
    '"format errors recovered" = runs with a format_feedback guard that still answered correctly / runs with a format_feedback guard. ' +
    '"model errors" = runs ended by an error from the model call (e.g. an empty reply). Tokens are per run (summed over its steps, from the server\'s `usage`). ' +
    '"answer = earlier result" = correct / all answers where final_answer repeated the arguments of an earlier successful call and the agent took that call\'s result as the answer. ' +
    `Wall times are per mode${r.summaries[0]?.jobs > 1 ? `, with ${r.summaries[0].jobs} modes running side by side (each server on one thread)` : ''}.`
  );
}
