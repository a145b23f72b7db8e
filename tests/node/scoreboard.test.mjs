// A class's files read into one scoreboard (www/scoreboard-read.js): the counts per column and
// per question, and each file that cannot join said with why. node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readScoreboard, counts, rank } from '../../www/scoreboard-read.js';
import { classFiles, results, QUESTIONS } from './class-files.mjs';

// Stand-ins for the core's reader and grader: the page test (tests/e2e/scoreboard.spec.mjs)
// runs the real ones.
const load = (text) => {
  const value = JSON.parse(text);
  if (value.kind === 'reactloop-comparison') return { kind: value.kind, columns: value.columns };
  if (!Array.isArray(value.steps)) throw new Error('not a trace');
  return value;
};
const grade = (answer, expected) => answer.includes(expected);

test('thirty files: 26 columns with the right counts, and four files said with why', () => {
  const { files, good } = classFiles();
  const board = readScoreboard(files, { load, grade });
  assert.deepEqual(board.questions, QUESTIONS);
  assert.equal(board.columns.length, good);
  assert.deepEqual(board.problems.map((p) => [p.file, p.kind]), [
    ['damaged.json', 'damaged'],
    ['other-list.json', 'otherList'],
    ['student-01-again.json', 'duplicate'],
    ['newer.json', 'version'],
  ]);
  assert.equal(board.problems[2].detail, 'student-01.json');
  const want = [...Array(good).keys()].map(results);
  const { columns, questions } = counts(board);
  assert.deepEqual(columns, want.map((r) => r.filter((x) => x === 'right').length));
  assert.deepEqual(questions, [0, 1].map((q) => want.filter((r) => r[q] === 'right').length));
  assert.equal(board.columns[0].who, 'Student 1');
  assert.equal(board.columns[1].strategy, 'act');
  assert.equal(board.columns[2].model.en, 'llama3.2:1b');
  // Right, wrong, no answer: in that order when sorted.
  const second = board.columns.slice(0, 3).map((c) => c.cells[1]);
  assert.deepEqual(second.map(rank), [0, 2, 3]);
});

test('a file without a name is shown by its file name; a list without expected answers grades nothing', () => {
  const { files } = classFiles();
  const value = JSON.parse(files[0].text);
  delete value.name;
  delete value.questions;
  const board = readScoreboard([{ name: 'mine.json', text: JSON.stringify(value) }], { load, grade });
  assert.equal(board.columns[0].who, 'mine.json');
  assert.deepEqual(board.questions.map((q) => q.expected), [null, null]);
  assert.equal(board.columns[0].cells[0].right, null);
  assert.equal(board.columns[0].cells[0].answered, true);
});
