// Checks the page-tool task set (pagetools.json): its tools register as a page registers
// them, their tables answer what the tasks expect, the set has what issue 42 asks (30 tasks or
// more, both languages, five page tools or more, questions for a page tool alone, a page tool
// then the calculator, and built-in ones), and the invented-call count counts what it says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkAnswer, normalize } from "./check.mjs";
import { inventedCalls, pageTools } from "./page-tools.mjs";
import { checkTool } from "../../www/pkg/reactloop.js";

const read = (name) => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8"));
const set = read("./pagetools.json");
const others = [...read("./tasks.json").tasks, ...read("./heldout.json").tasks];
const tools = pageTools(set);
const run = (name, args) => tools.find((t) => t.name === name).run(args);

test("pagetools.json: the set's shape", () => {
  assert.equal(set.now_unix_ms, read("./tasks.json").now_unix_ms);
  assert.ok(set.tasks.length >= 30, `${set.tasks.length} tasks`);
  assert.ok(tools.length >= 5, `${tools.length} tools`);
  const questions = new Set(others.map((t) => normalize(t.question)));
  const ids = new Set();
  const count = {};
  for (const t of set.tasks) {
    assert.match(t.id, /^pt-[a-z0-9-]+$/);
    assert.ok(!ids.has(t.id), t.id);
    ids.add(t.id);
    assert.ok(!questions.has(normalize(t.question)), `${t.id}: a question of another set`);
    if (t.lang === "zh") assert.match(t.question, /\p{Script=Han}/u, t.id);
    count[`${t.category}/${t.lang}`] = (count[`${t.category}/${t.lang}`] ?? 0) + 1;
  }
  for (const c of ["page", "page_calc", "builtin"]) {
    for (const l of ["en", "zh"]) assert.ok(count[`${c}/${l}`] >= 3, `${c}/${l}: ${count[`${c}/${l}`]}`);
  }
});

test("pagetools.json: every tool registers beside the built-ins, as a page registers it", () => {
  for (const tool of tools) assert.doesNotThrow(() => checkTool(tool), tool.name);
  // Some declare keywords, some examples, some neither: the fit must work for each form.
  assert.ok(tools.some((t) => t.keywords && !t.examples));
  assert.ok(tools.some((t) => t.examples && !t.keywords));
  assert.ok(tools.some((t) => !t.examples && !t.keywords));
});

test("pagetools.json: the tools' answers are what the tasks expect", () => {
  const expect = (id, text) => {
    const task = set.tasks.find((t) => t.id === id);
    assert.ok(checkAnswer(task, text), `${id}: ${text}`);
  };
  expect("pt-weather-en-lisbon", run("weather", { city: "Lisbon" }));
  expect("pt-weather-zh-tokyo", run("weather", { city: "东京" }));
  expect("pt-order-en-arrive", run("order_status", { order_id: "1042" }));
  expect("pt-stock-en-acme", run("stock_price", { ticker: "ACME" }));
  expect("pt-convert-en-marathon", run("convert_units", { value: 26.2, from: "mi", to: "km" }).split("= ")[1]);
  expect("pt-convert-en-pounds", run("convert_units", { value: 70, from: "kg", to: "lb" }).split("= ")[1]);
  expect("pt-convert-zh-fahrenheit", run("convert_units", { value: 100, from: "F", to: "C" }).split("= ")[1]);
  expect("pt-pop-en-iceland", run("country_population", { country: "iceland" }));
  expect("pt-fx-en-eurusd", run("exchange_rate", { base: "EUR", quote: "USD" }));
  expect("pt-fx-zh-usdjpy", run("exchange_rate", { base: "usd", quote: "jpy" }));
  assert.equal(run("exchange_rate", { base: "USD", quote: "EUR" }), "1 USD = 0.926 EUR");
  assert.throws(() => run("order_status", { order_id: "1234567890" }), /no entry for order_id/);
  assert.throws(() => run("convert_units", { value: 1, from: "kg", to: "km" }), /cannot convert/);
});

test("inventedCalls: a call of a page tool the question is not for", () => {
  const trace = {
    question: "What is the weather like in Lisbon right now?",
    steps: [
      { call: { tool: "current_time", args: {} } },
      { call: { tool: "order_status", args: { order_id: "1234567890" } } },
      { call: { tool: "weather", args: { city: "Lisboa" } } },
      { parse: { kind: "final" } },
    ],
  };
  assert.equal(inventedCalls(trace, tools.map((t) => t.name), ["weather"]), 1);
  assert.equal(inventedCalls(trace, tools.map((t) => t.name), ["weather", "order_status"]), 0);
});

test("pagetools.json: each task names the page tools it is for", () => {
  const names = tools.map((t) => t.name);
  for (const t of set.tasks) {
    assert.ok(Array.isArray(t.tools) && t.tools.every((n) => names.includes(n)), t.id);
    assert.equal(t.tools.length === 0, t.category === "builtin", t.id);
  }
});
