// The permalink's settings (www/share.js): every key of the core's settings object
// (SETTINGS_KEYS in src/settings.rs) either travels in a link and comes back as it was, or is
// one a link never carries (the API key, who answers). node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

globalThis.location ??= { origin: 'http://page.test', pathname: '/' };
const { settingsParams, linkSettings, permalink, NOT_CARRIED } = await import('../../www/share.js');

const source = await readFile(new URL('../../src/settings.rs', import.meta.url), 'utf8');
const KEYS = [...source.match(/pub const SETTINGS_KEYS: &\[&str\] = &\[([^\]]*)\]/)[1].matchAll(/"(\w+)"/g)].map((m) => m[1]);

// [the page's default, another value] for every setting a link carries.
const SAMPLES = {
  temperature: [0, 0.7], maxTokens: [512, 300], stream: [true, false], seed: [0, 42], timeoutMs: [120_000, 30_000],
  constrained: ['auto', 'json_schema'], actFirst: [false, true], strategy: ['react', 'plan'], compress: ['window', 'summary'],
  lang: [undefined, 'zh'], template: [undefined, 'Be terse.\n{tools}\n{tool_names} & ?x=1#y'], systemPrompt: [undefined, 'You are a tutor.'],
  fewShot: [[], [{ question: 'q & a?', transcript: 'Thought: t\nAction: final_answer\nAction Input: 1' }]],
  texts: [{}, { 'format.no_action': 'Write an Action line & {format}', 'note.empty_result': '（什么也没有）' }],
  workedExamples: [true, false], restateQuestion: [false, true], stop: [['Observation:'], ['Observation:', '\nQ:']],
  maxSteps: [8, 4], maxFormatErrors: [3, 2], maxRepeats: [3, 5], observationLimit: [500, 400], historyRounds: [6, 3],
  style: ['auto', 'chat'], documents: [[{ title: 'A', text: 'a' }], [{ title: 'B', text: 'b = 1 %' }]], disabledTools: [[], ['current_time']],
};

test('every setting is carried by a link or named as never carried', () => {
  assert.ok(KEYS.length > 20, 'SETTINGS_KEYS is found');
  assert.deepEqual([...Object.keys(SAMPLES), ...NOT_CARRIED].sort(), [...KEYS].sort());
});

test('a link carries every changed setting and brings each back as it was, never the key', () => {
  const defaults = Object.fromEntries(Object.entries(SAMPLES).map(([k, [d]]) => [k, d]));
  const changed = Object.fromEntries(Object.entries(SAMPLES).map(([k, [, v]]) => [k, v]));
  const secret = { apiKey: 'sk-secret', baseUrl: 'http://x.test/v1', model: 'm', demo: false, inPage: false, demoDelayMs: 15 };
  const url = permalink({ question: 'q' }, settingsParams({ ...changed, ...secret }, defaults, KEYS));
  assert.doesNotMatch(url, /sk-secret|x\.test|demoDelayMs/);
  assert.deepEqual(linkSettings(new URL(url).search, defaults, KEYS), changed);
  // Only what differs travels: a link of the defaults holds no setting.
  assert.equal(settingsParams({ ...defaults, ...secret }, defaults, KEYS).toString(), '');
});

test('links written before every setting travelled still read, and a damaged value is left out', () => {
  const defaults = { lang: undefined, fewShot: [], strategy: 'react', maxSteps: 8 };
  const shots = [{ question: 'q', transcript: 't' }];
  const search = `?plang=zh&strategy=cot&fewshot=${encodeURIComponent(JSON.stringify(shots))}&maxSteps=%7Bbroken`;
  assert.deepEqual(linkSettings(search, defaults, KEYS), { lang: 'zh', strategy: 'cot', fewShot: shots });
});

test('Compare\'s columns travel as a short parameter and come back; a value the page lacks keeps the default', async () => {
  const { columnsParam, readColumns, COLUMN_KEYS } = await import('../../www/share.js');
  const choices = { strategy: ['react', 'act', 'cot'], server: ['current', 'demo'], plang: ['auto', 'en', 'zh'], constrained: ['auto', 'grammar'] };
  const defaults = [{ strategy: 'react', server: 'current', plang: 'auto', constrained: 'auto' }, { strategy: 'act', server: 'current', plang: 'auto', constrained: 'auto' }];
  const configs = [{ strategy: 'cot', server: 'demo', plang: 'zh', constrained: 'grammar' }, defaults[1]];
  const text = columnsParam(configs);
  assert.equal(text, 'cot.demo.zh.grammar,act.current.auto.auto');
  assert.deepEqual(readColumns(text, choices, defaults, 4), { configs, unknown: [] });
  assert.deepEqual(COLUMN_KEYS, Object.keys(configs[0]));
  const read = readColumns('cot.demo.zh.grammar,<b>x</b>.demo,a,b,c,d', choices, defaults, 4);
  assert.equal(read.configs.length, 4);
  assert.deepEqual(read.configs[1], { strategy: 'act', server: 'demo', plang: 'auto', constrained: 'auto' });
  assert.deepEqual(read.unknown, ['<b>x</b>', 'a', 'b']); // the fifth and sixth columns are past the four
});
