// Checks the held-out task set (heldout.json): same format and clock as tasks.json, no
// question shared with it, every category in both languages, and expectations that the
// checker can satisfy. The tasks are only reported, never tuned on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkAnswer, normalize } from "./check.mjs";

const read = (name) => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8"));
const heldout = read("./heldout.json");
const tasks = read("./tasks.json");
const CATEGORIES = ["calc", "docs", "time", "multi", "none"];

test("heldout.json: parses, same clock as tasks.json", () => {
  assert.ok(Array.isArray(heldout.tasks));
  assert.ok(heldout.tasks.length >= 64, `${heldout.tasks.length} tasks`);
  assert.equal(heldout.now_unix_ms, tasks.now_unix_ms);
  assert.equal(heldout.now_iso, tasks.now_iso);
});

test("heldout.json: schema, unique ho- ids, no question shared with tasks.json", () => {
  const ids = new Set();
  const mainIds = new Set(tasks.tasks.map((t) => t.id));
  const mainQuestions = new Set(tasks.tasks.map((t) => normalize(t.question)));
  const questions = new Set();
  for (const t of heldout.tasks) {
    assert.deepEqual(Object.keys(t).sort(), ["category", "expect", "id", "lang", "question"], t.id);
    assert.match(t.id, /^ho-[a-z0-9-]+$/);
    assert.ok(!ids.has(t.id), `duplicate id ${t.id}`);
    assert.ok(!mainIds.has(t.id), `id ${t.id} also in tasks.json`);
    ids.add(t.id);
    assert.ok(["en", "zh"].includes(t.lang), t.id);
    assert.ok(CATEGORIES.includes(t.category), t.id);
    assert.ok(typeof t.question === "string" && t.question.trim().length > 0, t.id);
    if (t.lang === "zh") assert.match(t.question, /\p{Script=Han}/u, t.id);
    const q = normalize(t.question);
    assert.ok(!mainQuestions.has(q), `${t.id}: question also in tasks.json`);
    assert.ok(!questions.has(q), `${t.id}: question repeated`);
    questions.add(q);
  }
});

test("heldout.json: every category has at least 3 en and 3 zh tasks", () => {
  const count = {};
  for (const t of heldout.tasks) count[`${t.category}/${t.lang}`] = (count[`${t.category}/${t.lang}`] ?? 0) + 1;
  for (const cat of CATEGORIES) {
    for (const lang of ["en", "zh"]) assert.ok((count[`${cat}/${lang}`] ?? 0) >= 3, `${cat}/${lang}: ${count[`${cat}/${lang}`] ?? 0}`);
  }
});

test("heldout.json: each expect has non-empty any_of strings or a finite number", () => {
  for (const t of heldout.tasks) {
    const e = t.expect;
    assert.ok(e && typeof e === "object", t.id);
    for (const k of Object.keys(e)) assert.ok(["any_of", "number", "tolerance"].includes(k), `${t.id}: ${k}`);
    if (e.any_of !== undefined) {
      assert.ok(Array.isArray(e.any_of) && e.any_of.length > 0, t.id);
      for (const s of e.any_of) assert.ok(typeof s === "string" && normalize(s).length > 0, `${t.id}: ${s}`);
    }
    if (e.number !== undefined) assert.ok(typeof e.number === "number" && Number.isFinite(e.number), t.id);
    if (e.tolerance !== undefined) {
      assert.ok(e.number !== undefined && typeof e.tolerance === "number" && e.tolerance >= 0, t.id);
    }
    assert.ok(e.any_of !== undefined || e.number !== undefined, t.id);
  }
});

test("heldout.json: a correct answer passes, a wrong one fails", () => {
  for (const t of heldout.tasks) {
    const e = t.expect;
    const zh = t.lang === "zh";
    if (e.any_of) {
      const first = e.any_of[0];
      const sentence = zh ? `根据查到的结果，答案是${first}。` : `Based on the result, the answer is ${first}.`;
      assert.equal(checkAnswer(t, sentence), true, `${t.id}: ${sentence}`);
      for (const s of e.any_of) assert.equal(checkAnswer(t, `Final answer: ${s}`), true, `${t.id}: ${s}`);
    }
    if (e.number !== undefined) {
      const sentence = zh ? `最终答案是 ${e.number}。` : `The final answer is ${e.number}.`;
      assert.equal(checkAnswer(t, sentence), true, `${t.id}: ${sentence}`);
    }
    assert.equal(checkAnswer(t, "I don't know."), false, t.id);
    assert.equal(checkAnswer(t, "我不知道。"), false, t.id);
    assert.equal(checkAnswer(t, "The answer is 999999999."), false, t.id);
  }
});
