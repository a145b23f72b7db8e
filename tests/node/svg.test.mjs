// A run as an animated SVG (www/svg.js): one self-contained file that no viewer can turn into
// script, a link or a request, whatever the model wrote. node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { traceToSvg, wrap, xmlText } from '../../www/svg.js';
import { tenSteps } from './svg-trace.mjs';

for (const lang of ['en', 'zh']) {
  test(`ten steps in at most 60 KB, with no script, handler, link or outside reference (${lang})`, () => {
    const svg = traceToSvg(tenSteps(), { lang });
    assert.ok(Buffer.byteLength(svg) <= 60 * 1024, `${Buffer.byteLength(svg)} bytes`);
    // Model text is escaped, so every `<` left opens one of our tags; their attributes' names,
    // with the values (which hold escaped model text) taken out:
    const tags = svg.match(/<[^>]*>/g);
    const names = new Set(tags.map((tag) => tag.match(/^<\/?([\w:-]+)/)[1]));
    assert.deepEqual([...names].sort(), ['g', 'rect', 'style', 'svg', 'text', 'title', 'tspan']);
    const attributes = tags.flatMap((tag) => tag.replace(/"[^"]*"/g, '""').match(/[\w:-]+(?==)/g) ?? []);
    assert.deepEqual([...new Set(attributes)].sort(), ['aria-label', 'class', 'height', 'role', 'rx', 'viewBox', 'width', 'x', 'xmlns', 'y']);
    assert.doesNotMatch(svg.match(/<style>.*<\/style>/)[0], /url\(|@import|@font-face/);
    // The model's markup is text.
    assert.match(svg, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;q&quot; &#39;a&#39;/);
    // XML holds no control character and no lone surrogate.
    assert.doesNotMatch(svg, /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDFFF]/);
    // Each of the ten steps, the question and the outcome: twelve blocks, eleven revealed in turn.
    assert.equal((svg.match(/<g class="b\d+">/g) ?? []).length, 12);
    assert.equal((svg.match(/@keyframes r\d+/g) ?? []).length, 11);
    assert.match(svg, /prefers-reduced-motion:reduce/);
  });
}

test('the labels and the core\'s sentences come in the language asked for', () => {
  const en = traceToSvg(tenSteps(), { lang: 'en' });
  const zh = traceToSvg(tenSteps(), { lang: 'zh' });
  assert.match(en, />Thought</);
  assert.match(en, /Your reply has no Action line\./);
  assert.match(en, /calculator was called again/);
  assert.match(zh, />思考</);
  assert.match(zh, /第 10 步/);
  assert.match(zh, /你的回复没有 Action 行。/);
  assert.match(zh, /最终答案：/);
});

test('long text is wrapped in monospace cells, a Chinese character two, and cut with …', () => {
  assert.deepEqual(wrap('one two three four five', 9, 3), ['one two', 'three', 'four five']);
  assert.deepEqual(wrap('思维链提示让模型先写推理', 8, 1), ['思维链…']);
  assert.deepEqual(wrap('abc', 8, 1), ['abc']);
  assert.equal(xmlText('a\u0000<b>&\uDC00'), 'a&lt;b&gt;&amp;');
});

test('scripts/run-svg.mjs writes a recording of <react-loop> as an SVG', () => {
  const svg = execFileSync('node', ['scripts/run-svg.mjs', 'www/recordings/search-zh.json', '--lang', 'zh'], { encoding: 'utf8' });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /什么是少样本提示？/);
});
