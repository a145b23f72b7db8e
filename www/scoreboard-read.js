// A class's runs as one table: the files students exported (Compare's comparisons, single
// traces) read into questions down and configurations across. Pure, with the core's reader
// and grader passed in, so that Node can test it (tests/node/scoreboard.test.mjs).
//
// Every file is untrusted: a damaged one, one of another question list, one from another
// version of the format and the same file twice are each said, and the rest still load.

import { COMPARISON } from './comparison.js';

/** The format version this page reads, of comparisons and traces alike. */
const VERSION = 1;

/**
 * `files`: [{name, text}]. `load(text)` reads one file as the playground's import does (a
 * trace with its views, or {kind: COMPARISON, columns: [{label, runs}]}) and throws on a
 * damaged one; `grade(answer, expected)` is the core's grader. Returns {questions:
 * [{question, expected}], columns: [{file, who, label, model ({en, zh} or null), strategy, constrained, lang,
 * cells: [{trace, answered, right, steps, tokens} | null per question]}], problems: [{file,
 * kind: 'damaged' | 'version' | 'duplicate' | 'otherList', detail}]}.
 */
export function readScoreboard(files, { load, grade }) {
  const problems = [];
  const seen = new Map(); // text → the file it was first read from
  let questions = null;
  const columns = [];
  for (const { name, text } of files) {
    if (seen.has(text)) {
      problems.push({ file: name, kind: 'duplicate', detail: seen.get(text) });
      continue;
    }
    seen.set(text, name);
    let value;
    let record;
    try {
      value = JSON.parse(text);
      const version = value?.version;
      if (typeof version === 'number' && version !== VERSION) {
        problems.push({ file: name, kind: 'version', detail: String(version) });
        continue;
      }
      record = load(text);
    } catch (error) {
      problems.push({ file: name, kind: 'damaged', detail: error?.message ?? String(error) });
      continue;
    }
    const parts = record.kind === COMPARISON ? record.columns : [{ label: '', runs: [record] }];
    const asked = listOf(value, parts[0].runs);
    if (!questions) questions = asked;
    if (!sameList(questions, asked)) {
      problems.push({ file: name, kind: 'otherList', detail: asked.map((q) => q.question).join(' | ') });
      continue;
    }
    const who = typeof value.name === 'string' && value.name.trim() ? value.name.trim() : name;
    for (const { label, runs } of parts) {
      const byQuestion = new Map(runs.map((run) => [run.question, run]));
      columns.push({
        file: name,
        who,
        label,
        ...configuration(runs[0]),
        cells: questions.map(({ question, expected }) => {
          const trace = byQuestion.get(question);
          return trace ? cell(trace, expected, grade) : null;
        }),
      });
    }
  }
  return { questions: questions ?? [], columns, problems };
}

/** The question list of a file: its own (with expected answers), else its runs' questions. */
function listOf(value, runs) {
  const list = Array.isArray(value?.questions) ? value.questions : null;
  if (list?.every((q) => typeof q?.question === 'string')) {
    return list.map((q) => ({ question: q.question, expected: typeof q.expected === 'string' ? q.expected : null }));
  }
  return runs.map((run) => ({ question: run.question, expected: null }));
}

/** Whether two lists ask the same questions, in any order. */
function sameList(a, b) {
  const key = (list) => list.map((q) => q.question).sort().join('\n');
  return key(a) === key(b);
}

/** What a column was run with, from its first run. */
function configuration(trace) {
  const config = trace?.config ?? {};
  const constrained = trace?.steps?.find((s) => s.request?.constrained)?.request.constrained ?? config.constrained ?? 'off';
  return {
    // The core's name of what answered ({en, zh}: the demo model has no model name).
    model: trace?.view?.model ?? (trace?.model ? { en: trace.model, zh: trace.model } : null),
    strategy: config.strategy ?? 'react',
    constrained,
    lang: config.prompt?.lang ?? '',
  };
}

/** One run's cell: answered or not, right by the grader when the list expects an answer. */
function cell(trace, expected, grade) {
  const answered = trace.outcome?.type === 'answer';
  const usages = trace.steps.map((s) => s.reply?.usage).filter((u) => u?.prompt_tokens != null || u?.completion_tokens != null);
  return {
    trace,
    answered,
    right: answered && expected ? grade(trace.outcome.answer, expected) : answered && !expected ? null : false,
    steps: trace.steps.length,
    tokens: usages.length ? usages.reduce((sum, u) => sum + (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0), 0) : null,
  };
}

/** Right answers per column and per question (a cell counts when the grader said right). */
export function counts({ questions, columns }) {
  return {
    columns: columns.map((c) => c.cells.filter((x) => x?.right).length),
    questions: questions.map((_, i) => columns.filter((c) => c.cells[i]?.right).length),
  };
}

/** A cell's rank for sorting: right, answered (no expected answer), wrong, no answer, not run. */
export function rank(cell) {
  if (!cell) return 4;
  if (!cell.answered) return 3;
  return cell.right ? 0 : cell.right == null ? 1 : 2;
}
