// The sandbox a JavaScript tool runs in: a dedicated worker, started by worker-tool.js for one
// call and terminated when it answers, times out or is stopped. It receives the tool's source
// and arguments as data, so the page itself never compiles code (no eval there, and a
// Content-Security-Policy without 'unsafe-eval' keeps working). Here there is no DOM, no
// window and no localStorage, so tool code cannot read the page or the saved API key, and a
// loop that never ends only ever blocks this thread.
//
// Message in:  {source, args}, or {source, check: true} to compile only.
// Message out: {value} (a string, a number, null or undefined; other values are written as
//              JSON here, off the page's thread) or {error} (a sentence).
'use strict';

const AsyncFunction = /** @type {new (...params: string[]) => (...args: any[]) => Promise<unknown>} */ (
  (async () => {}).constructor
);

const describe = (error) => (error instanceof Error ? error.message : String(error));

/** What the page receives for a result: always something postMessage can copy. */
function result(value) {
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number') {
    return { value };
  }
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { error: `its result cannot be written as text (${describe(error)}); return a string` };
  }
  return { value: text ?? String(value) }; // JSON has no text for a function or a symbol
}

self.onmessage = async ({ data }) => {
  let run;
  try {
    run = new AsyncFunction('args', data.source);
  } catch (error) {
    postMessage({ error: describe(error) });
    return;
  }
  if (data.check) {
    postMessage({ value: null });
    return;
  }
  let answer;
  try {
    answer = result(await run(data.args));
  } catch (error) {
    answer = { error: describe(error) };
  }
  postMessage(answer);
};
