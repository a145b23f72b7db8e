// Thirty files of a class, as students export them from Compare: 26 comparisons of two
// questions (mixed strategies and models, some answers wrong, some runs without an answer),
// one damaged, one of another question list, one exported twice and one from another format
// version. Built from a committed recording, without its views (the core derives them), so
// the page reads them as it reads an export. Shared by tests/node/scoreboard.test.mjs and
// tests/e2e/scoreboard.spec.mjs.
import { readFileSync } from 'node:fs';

const BASE = JSON.parse(readFileSync(new URL('../../www/recordings/calculator-en.json', import.meta.url), 'utf8'));
export const QUESTIONS = [
  { question: 'What is 1234 * 5678?', expected: '7006652' },
  { question: 'What is 17.5% of 2480?', expected: '434' },
];
const STRATEGIES = ['react', 'act', 'cot', 'plan', 'reflect'];
const MODELS = ['qwen2.5-coder-0.5b', 'qwen2.5-coder-1.5b', 'llama3.2:1b'];

/** Student i's result for each question: 'right', 'wrong' or 'none' (no answer). */
export const results = (i) => [i % 4 === 3 ? 'wrong' : 'right', ['right', 'wrong', 'none'][i % 3]];

function run(question, result, i) {
  const trace = structuredClone(BASE);
  delete trace.view;
  for (const step of trace.steps) delete step.view;
  trace.question = question.question;
  trace.model = MODELS[i % MODELS.length];
  trace.config.strategy = STRATEGIES[i % STRATEGIES.length];
  const answer = result === 'right' ? `The answer is ${question.expected}.` : 'The answer is 12.';
  trace.outcome = result === 'none' ? { type: 'step_limit', steps: trace.steps.length } : { type: 'answer', answer };
  return trace;
}

const comparison = (name, questions, i, extra = {}) => JSON.stringify({
  kind: 'reactloop-comparison',
  version: 1,
  generator: 'reactloop 0.2.0',
  name,
  questions,
  ...extra,
  columns: [{ label: `${STRATEGIES[i % STRATEGIES.length]} · ${MODELS[i % MODELS.length]}`, runs: questions.map((q, j) => run(q, results(i)[j], i)) }],
});

/** The files, as [{name, text}], and how many of them are students' good files. */
export function classFiles() {
  const files = [];
  for (let i = 0; i < 26; i += 1) files.push({ name: `student-${String(i + 1).padStart(2, '0')}.json`, text: comparison(`Student ${i + 1}`, QUESTIONS, i) });
  files.push({ name: 'damaged.json', text: files[0].text.slice(0, 200) });
  files.push({ name: 'other-list.json', text: comparison('Other', [{ question: 'What is 2 + 2?', expected: '4' }], 0) });
  files.push({ name: 'student-01-again.json', text: files[0].text });
  files.push({ name: 'newer.json', text: comparison('Newer', QUESTIONS, 1, { version: 2 }) });
  return { files, good: 26 };
}
