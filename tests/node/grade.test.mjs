// One grader (the core's src/grade.rs, through the wasm) for Compare and the bench: what a
// person's expected text accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkAnswer } from '../../bench/tasks/check.mjs'; // loads the wasm
import { gradeText } from '../../www/pkg/reactloop.js';

const cases = [
  // [answer, expected, right?, why]
  ['The answer is 42.', '4', false, 'a number is not found inside a longer one'],
  ['The answer is 42.', '42', true, 'the number itself'],
  ['The answer is 1,048,576.', '1048576', true, 'thousands separators aside'],
  ['答案是 １２', '12', true, 'full-width digits'],
  ['The answer is 42.0', '42', true, 'the same number written with a fraction'],
  ['The answer is -5', '5', false, 'signs count'],
  ['It is retrieval-augmented generation.', 'Retrieval augmented', true, 'case and hyphens aside'],
  ['3 月 14 日', '3月14日', true, 'spaces next to Chinese aside'],
  ['Paris', 'London', false, 'another answer'],
  [null, '42', false, 'no answer'],
];

for (const [answer, expected, right, why] of cases) {
  test(`Compare grades ${JSON.stringify(answer)} against ${JSON.stringify(expected)}: ${why}`, () => {
    assert.equal(gradeText(answer, expected), right);
  });
}

test('nothing expected is no verdict', () => {
  assert.equal(gradeText('The answer is 42', ''), null);
  assert.equal(gradeText('The answer is 42', undefined), null);
});

test('the bench grades with the same functions', () => {
  const task = { id: 't', expect: { any_of: ['4'], number: 4 } };
  assert.equal(checkAnswer(task, 'The answer is 42.'), false);
  assert.equal(checkAnswer(task, 'about four, 4 characters'), true);
});
