// The Markdown export of a trace (www/markdown.js, behind share.js's traceToMarkdown): every
// field is model, person or host text, so none of it may become HTML, a link or a code span in
// a viewer that renders Markdown. node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escape, traceToMarkdown } from '../../www/markdown.js';

const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '<script>alert(1)</script>';
const LINK = '[x](javascript:alert(1))';
const IMAGE = '![y](javascript:alert(2))';
const CLOSE = '</details>';
const ALL = `${IMG} ${SCRIPT} ${LINK} ${IMAGE} ${CLOSE} \`code\` **bold** <b>&amp; "q" 'a'`;
// Fenced text that tries to close its fence and the <details> around the system prompt.
const BREAKOUT = `${ALL}\n\`\`\`\n${CLOSE}\n\`\`\`\`\`\n${SCRIPT}`;

// The core's sentences (each step's `view`) quote model text (a tool name, an answer), so the
// stand-ins do too.
const en = (text) => ({ en: text, zh: '' });
const noView = { guards: [], format_error: null, repairs: [] };

const trace = {
  version: 1,
  model: `model ${ALL}`,
  question: `question ${ALL}`,
  system_prompt: `prompt ${BREAKOUT}`,
  steps: [
    {
      index: 1,
      reply: { text: 'Thought: …' },
      parse: { kind: 'action', tool: `tool ${ALL}`, input: { x: BREAKOUT }, thought: `thought ${ALL}`, repairs: [`r ${ALL}`] },
      call: null,
      observation: { source: 'error', text: `observation ${BREAKOUT}` },
      guards: [{ type: 'repeated_call', tool: `tool ${ALL}` }],
      error: null,
      view: { ...noView, guards: [en(`the call to tool ${ALL} was repeated`)], repairs: [en(`repaired r ${ALL}`)] },
    },
    {
      index: 2,
      reply: { text: `reply ${BREAKOUT}` },
      parse: { kind: 'error', error: { text: `error ${ALL}` }, repairs: [] },
      call: null,
      observation: null,
      guards: [],
      error: null,
      view: { ...noView, format_error: en(`no Action in error ${ALL}`) },
    },
    {
      index: 3,
      reply: { text: `cut off ${BREAKOUT}` },
      parse: null,
      call: null,
      observation: null,
      guards: [],
      error: { type: `error type ${ALL}` },
      view: noView,
    },
    {
      index: 4,
      reply: { text: 'Action: calculator' },
      parse: { kind: 'action', tool: 'Calculater', input: { expression: '1+1' }, thought: null, repairs: [] },
      call: { tool: 'calculator', args: { expression: '1+1' } },
      observation: { source: 'tool', text: '2' },
      guards: [],
      error: null,
      view: noView,
    },
    {
      index: 5,
      reply: { text: 'Final Answer: …' },
      parse: { kind: 'final', answer: `answer ${ALL}`, thought: null, repairs: [] },
      call: null,
      observation: null,
      guards: [],
      error: null,
      view: noView,
    },
  ],
  outcome: { type: 'answered', answer: `outcome ${ALL}` },
  view: { outcome: en(`Final answer: outcome ${ALL}`) },
};

/** The lines outside fenced code blocks (CommonMark: a fence closes only with one as long). */
function outsideFences(markdown) {
  const out = [];
  let open = null;
  for (const line of markdown.split('\n')) {
    const fence = /^ {0,3}(`{3,})([^`]*)$/.exec(line);
    if (open) {
      if (fence && fence[1].length >= open.length && fence[2].trim() === '') open = null;
    } else if (fence) {
      open = fence[1];
    } else {
      out.push(line);
    }
  }
  assert.equal(open, null, 'every fence is closed');
  return out;
}

/** What a Markdown viewer shows for escaped text: entities decoded, backslash escapes removed. */
function shown(text) {
  const entities = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => entities[e]).replace(/\\([\\`*_[\]()!#|~])/g, '$1');
}

test('no field of a trace becomes HTML, a link or code outside a fence', () => {
  const md = traceToMarkdown(trace);
  const lines = outsideFences(md);
  // The only HTML is the export's own <details> around the system prompt.
  assert.deepEqual(
    lines.filter((l) => l.includes('<')),
    ['<details><summary>System prompt</summary>', '</details>'],
  );
  const text = lines.join('\n');
  for (const raw of [IMG, SCRIPT, LINK, IMAGE, '<b>', '](', '![', '**bold**', '`code`']) {
    assert.ok(!text.includes(raw), `${raw} is written raw:\n${md}`);
  }
  // Every [ ( ` ! * is escaped; the only code span is a registered tool name.
  assert.deepEqual(
    lines.filter((l) => {
      const unlabelled = l.replace(/^(> )?\*\*[^*]+\*\*:? ?/, '').replace(/^\([a-z_]+\):$/, '');
      return /(^|[^\\])[[(`!]/.test(unlabelled);
    }),
    ['**Action:** `calculator`'],
  );
});

test('fields are shown as written', () => {
  const md = traceToMarkdown(trace);
  const lines = outsideFences(md);
  const field = (label) => {
    const line = lines.find((l) => l.startsWith(label));
    assert.ok(line, `${label} is missing:\n${md}`);
    return shown(line.slice(label.length));
  };
  assert.equal(field('**Question:** '), trace.question);
  assert.equal(field('**Model:** '), trace.model);
  assert.equal(field('**Thought:** '), `thought ${ALL}`);
  assert.equal(field('**Action:** '), `tool ${ALL}`, 'an unregistered name is escaped, not a code span');
  assert.equal(field('**Repairs:** '), `repaired r ${ALL}`);
  assert.equal(field('> **repeated\\_call:** '), `the call to tool ${ALL} was repeated`);
  assert.equal(field('**Format error:** '), `no Action in error ${ALL}`);
  assert.equal(field('> **Error:** '), `error type ${ALL}`);
  assert.equal(field('**Final answer:** '), `answer ${ALL}`);
  assert.equal(lines.at(-2), escape(`Final answer: outcome ${ALL}`));
  // Fenced text stays as it is.
  assert.ok(md.includes(`\`\`\`\`\`\`text\nprompt ${BREAKOUT}\n\`\`\`\`\`\`\n`), md);
  assert.ok(md.includes(`\`\`\`\`\`\`text\nobservation ${BREAKOUT}\n\`\`\`\`\`\`\n`), md);
});

test('a run of ordinary steps reads as before', () => {
  const md = traceToMarkdown({ ...trace, model: 'qwen2.5:0.5b', steps: [trace.steps[3]], outcome: { answer: '2.' }, view: { outcome: en('Final answer: 2.') } });
  assert.equal(
    md,
    [
      '# reactloop trace', '', `**Question:** ${escape(trace.question)}`, '', '**Model:** qwen2.5:0.5b', '',
      '<details><summary>System prompt</summary>', '', `\`\`\`\`\`\`text\nprompt ${BREAKOUT}\n\`\`\`\`\`\``, '', '</details>', '',
      '## Step 4', '', '**Action:** `calculator`', '', '```json\n{\n  "expression": "1+1"\n}\n```', '',
      '**Observation** (tool):', '', '```text\n2\n```', '',
      '## Outcome', '', 'Final answer: 2.', '',
    ].join('\n'),
  );
});

test('escape', () => {
  for (const [text, want] of [
    ['plain words, digits 1.5 and: colons', 'plain words, digits 1.5 and: colons'],
    [IMG, '&lt;img src=x onerror=alert\\(1\\)&gt;'],
    [LINK, '\\[x\\]\\(javascript:alert\\(1\\)\\)'],
    [IMAGE, '\\!\\[y\\]\\(javascript:alert\\(2\\)\\)'],
    ['`x` *y* _z_ # h | t ~s~', '\\`x\\` \\*y\\* \\_z\\_ \\# h \\| t \\~s\\~'],
    // A backslash of its own is escaped too, so it cannot escape what follows.
    ['\\<b>', '\\\\&lt;b&gt;'],
    // Entities are escaped after the backslashes, so their # is not.
    [`&lt; "it's"`, '&amp;lt; &quot;it&#39;s&quot;'],
    [null, ''],
    [42, '42'],
  ]) {
    assert.equal(escape(text), want, text);
    if (text != null) assert.equal(shown(escape(text)), String(text));
  }
});
