import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkAnswer, findNumbers, normalize } from "./check.mjs";

const tasks = JSON.parse(readFileSync(new URL("./tasks.json", import.meta.url), "utf8"));

const text = (...any_of) => ({ id: "t", expect: { any_of } });
const num = (number, tolerance) => ({ id: "n", expect: { number, ...(tolerance === undefined ? {} : { tolerance }) } });

test("any_of ignores case and surrounding text", () => {
  assert.equal(checkAnswer(text("Paris"), "The capital of France is PARIS."), true);
  assert.equal(checkAnswer(text("paris"), "The capital of France is Lyon."), false);
});

test("any_of: any one of the strings is enough", () => {
  const t = text("similarity search", "vector");
  assert.equal(checkAnswer(t, "FAISS finds nearest vectors quickly"), true);
  assert.equal(checkAnswer(t, "It is a database for documents"), false);
});

test("whitespace runs and line breaks collapse", () => {
  assert.equal(checkAnswer(text("model context protocol"), "Model\n  Context\tProtocol"), true);
  assert.equal(checkAnswer(text("model context protocol"), "ModelContextProtocol"), false);
});

test("hyphens between letters equal spaces, on both sides", () => {
  assert.equal(checkAnswer(text("retrieval augmented generation"), "Retrieval-Augmented Generation"), true);
  assert.equal(checkAnswer(text("retrieval-augmented generation"), "retrieval augmented generation"), true);
  assert.equal(checkAnswer(text("retrieval augmented generation"), "retrieval generation"), false);
});

test("full-width letters, digits and punctuation are folded", () => {
  assert.equal(checkAnswer(text("json"), "参数用ＪＳＯＮ格式"), true);
  assert.equal(checkAnswer(num(7006652), "答案是７，００６，６５２。"), true);
  assert.equal(checkAnswer(num(7006652), "答案是７，００６，６５３。"), false);
  assert.equal(normalize("（Ａ）：１"), "(a):1");
});

test("subscripts fold to digits (NFKC)", () => {
  assert.equal(checkAnswer(text("h2o"), "水的化学式是 H₂O"), true);
  assert.equal(checkAnswer(text("h2o"), "水的化学式是 HO"), false);
});

test("whitespace next to CJK characters is dropped", () => {
  assert.equal(checkAnswer(text("3月14"), "今天是 3 月 14 日"), true);
  assert.equal(checkAnswer(text("星期五"), "今天是星期 五"), true);
  assert.equal(checkAnswer(text("3月14"), "今天是 3 月 15 日"), false);
  // between two Latin words the space stays
  assert.equal(normalize("march  14"), "march 14");
});

test("thousands separators: comma, full-width comma, thin and narrow spaces", () => {
  for (const a of ["1,048,576", "1，048，576", "1\u2009048\u2009576", "1\u202f048\u202f576", "1048576"]) {
    assert.equal(checkAnswer(num(1048576), `2^20 = ${a}`), true, a);
    assert.equal(checkAnswer(text("1048576"), `2^20 = ${a}`), true, a);
  }
  assert.equal(checkAnswer(num(1048576), "2^20 = 1,048,577"), false);
  // a comma that does not group thousands is left alone
  assert.deepEqual(findNumbers("1,2,3 and 12,34"), [1, 2, 3, 12, 34]);
  assert.deepEqual(findNumbers("1,234.5"), [1234.5]);
});

test("a number string does not match inside a longer number", () => {
  assert.equal(checkAnswer(text("4"), "The remainder is 42"), false);
  assert.equal(checkAnswer(text("4"), "The remainder is 14"), false);
  assert.equal(checkAnswer(text("4"), "It is 4.5"), false);
  assert.equal(checkAnswer(text("4"), "The remainder is 4."), true);
  assert.equal(checkAnswer(text("2025"), "20250"), false);
  assert.equal(checkAnswer(text("03-14"), "2025-03-14"), true);
  // words may still be prefixes: "reason" is found in "reasoning"
  assert.equal(checkAnswer(text("reason"), "reasoning and acting"), true);
});

test("number: finds any number in the text", () => {
  assert.equal(checkAnswer(num(1103), "(128 + 256) * 3 - 7^2 = 1103"), true);
  assert.equal(checkAnswer(num(1103), "(128 + 256) * 3 - 7^2 = 1102"), false);
  assert.equal(checkAnswer(num(4), "12345 除以 7 的余数是4"), true);
  assert.equal(checkAnswer(num(56), "It has been 56 years."), true);
});

test("number: default tolerance is tight, explicit tolerance is absolute", () => {
  assert.equal(checkAnswer(num(434), "434.0"), true);
  assert.equal(checkAnswer(num(434), "434.01"), false);
  assert.equal(checkAnswer(num(1.4142, 0.0001), "sqrt(2) ≈ 1.41421356"), true);
  assert.equal(checkAnswer(num(1.4142, 0.0001), "sqrt(2) ≈ 1.41"), false);
  assert.equal(checkAnswer(num(28.27, 0.01), "面积约为 28.274333882308138"), true);
  assert.equal(checkAnswer(num(28.27, 0.01), "面积约为 28.29"), false);
});

test("number: signs count, but a dash after a digit is not a sign", () => {
  assert.equal(checkAnswer(num(57.75), "The result is -57.75"), false);
  assert.equal(checkAnswer(num(-5), "结果是-5"), true);
  assert.equal(checkAnswer(num(-5), "x = −5"), true); // U+2212 minus sign
  assert.deepEqual(findNumbers("2025-03-14"), [2025, 3, 14]);
  assert.deepEqual(findNumbers("2025-1969=56"), [2025, 1969, 56]);
});

test("number: exponents and bare fractions", () => {
  assert.equal(checkAnswer(num(1000), "1e3"), true);
  assert.equal(checkAnswer(num(0.5), "about .5"), true);
  assert.deepEqual(findNumbers("e^3 is 20.0855"), [3, 20.0855]);
});

test("any_of OR number", () => {
  const t = { id: "spider", expect: { any_of: ["eight"], number: 8 } };
  assert.equal(checkAnswer(t, "Spiders have eight legs."), true);
  assert.equal(checkAnswer(t, "Spiders have 8 legs."), true);
  assert.equal(checkAnswer(t, "Spiders have six legs."), false);
});

test("empty or non-string answers fail; a task without expectations throws", () => {
  assert.equal(checkAnswer(text("paris"), ""), false);
  assert.equal(checkAnswer(text("paris"), "   "), false);
  assert.equal(checkAnswer(text("paris"), undefined), false);
  assert.equal(checkAnswer(num(0), null), false);
  assert.equal(checkAnswer(num(5), 5), false); // only text is an answer
  assert.equal(checkAnswer(text("null"), null), false);
  assert.throws(() => checkAnswer({ id: "bad", expect: {} }, "x"), /Task bad expects nothing/);
  assert.throws(() => checkAnswer({ id: "bad", expect: { any_of: [] } }, "x"), /Task bad expects nothing/);
  assert.throws(() => checkAnswer({ id: "bad", expect: { any_of: "x" } }, "x"), /Invalid expected answer/);
});

test("tasks.json: schema, unique ids, categories and languages", () => {
  assert.equal(typeof tasks.now_unix_ms, "number");
  assert.equal(new Date(tasks.now_unix_ms).toISOString().replace(".000Z", "Z"), tasks.now_iso);
  const list = tasks.tasks;
  assert.ok(list.length >= 40, `${list.length} tasks`);
  const ids = new Set();
  const count = {};
  for (const t of list) {
    assert.deepEqual(Object.keys(t).sort(), ["category", "expect", "id", "lang", "question"], t.id);
    assert.match(t.id, /^[a-z0-9-]+$/);
    assert.ok(!ids.has(t.id), `duplicate id ${t.id}`);
    ids.add(t.id);
    assert.ok(["en", "zh"].includes(t.lang), t.id);
    assert.ok(["calc", "docs", "time", "multi", "none"].includes(t.category), t.id);
    assert.ok(typeof t.question === "string" && t.question.length > 0, t.id);
    if (t.lang === "zh") assert.match(t.question, /\p{Script=Han}/u, t.id);
    const e = t.expect;
    for (const k of Object.keys(e)) assert.ok(["any_of", "number", "tolerance"].includes(k), `${t.id}: ${k}`);
    if (e.any_of !== undefined) {
      assert.ok(Array.isArray(e.any_of) && e.any_of.length > 0, t.id);
      for (const s of e.any_of) assert.ok(typeof s === "string" && normalize(s).length > 0, t.id);
    }
    if (e.number !== undefined) assert.ok(Number.isFinite(e.number), t.id);
    if (e.tolerance !== undefined) assert.ok(e.number !== undefined && e.tolerance >= 0, t.id);
    assert.ok(e.any_of !== undefined || e.number !== undefined, t.id);
    count[`${t.category}/${t.lang}`] = (count[`${t.category}/${t.lang}`] ?? 0) + 1;
  }
  for (const cat of ["calc", "docs", "time", "multi", "none"]) {
    for (const lang of ["en", "zh"]) assert.ok((count[`${cat}/${lang}`] ?? 0) >= 3, `${cat}/${lang}`);
  }
  const zh = list.filter((t) => t.lang === "zh").length;
  assert.ok(Math.abs(2 * zh - list.length) <= list.length / 5, `zh ${zh} of ${list.length}`);
});

test("tasks.json: each task accepts its own expected answers and rejects an unrelated one", () => {
  for (const t of tasks.tasks) {
    for (const s of t.expect.any_of ?? []) assert.equal(checkAnswer(t, `Final answer: ${s}`), true, `${t.id}: ${s}`);
    if (t.expect.number !== undefined) assert.equal(checkAnswer(t, `答案是 ${t.expect.number}。`), true, t.id);
    assert.equal(checkAnswer(t, "I don't know."), false, t.id);
    assert.equal(checkAnswer(t, "The answer is 999999999."), false, t.id);
  }
});
