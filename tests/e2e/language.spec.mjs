// The page speaks its language throughout: no raw string key (guard.self_check) after a demo run
// of each strategy, in English and in Chinese, and in Chinese no English word of the
// interface's own: model and user text, code and names are left out by the elements holding
// them, everything else must be Chinese but for the allowed words below.
import { readFileSync } from 'node:fs';
import { test, expect, openPage } from './fixtures.mjs';

const www = (file) => readFileSync(new URL(`../../www/${file}`, import.meta.url), 'utf8');

// The groups of the page's string keys ('card' of 'card.step'), its own and the core's titles.
const GROUPS = [...new Set([...`${www('i18n.js')}\n${www('titles.js')}`.matchAll(/["']([a-z]+)\.[a-zA-Z_.]+["']\s*:/g)].map((m) => m[1]))];
const RAW_KEY = new RegExp(`\\b(?:${GROUPS.join('|')})\\.[a-z][a-zA-Z_]*`, 'g');

const STRATEGIES = ['react', 'act', 'cot', 'plan', 'reflect'];
const QUESTIONS = {
  en: { react: 'What is 23 * 17 + 4?', act: 'What is RAG?', cot: 'What is 23 * 17 + 4?', plan: 'What time is it now?', reflect: 'What is RAG?' },
  zh: { react: '计算 (2^10 - 24) / 8 的结果', act: '什么是模型上下文协议？', cot: '计算 (2^10 - 24) / 8 的结果', plan: '现在几点？', reflect: '什么是模型上下文协议？' },
};

// What holds model text, user text, prompts or code: read by the reader as it is written.
const NOT_INTERFACE = [
  'textarea', 'input', 'code', 'script', 'style',
  '.trace-head .question', '.row.thought .value', '.row.action .value', '.row.final .value',
  '.row.observation .value > :not(.badge)', '.row.summary .value', '.row.cut-off .value', '.plan li', '.answer',
  '.xray-text', '.messages .message > :not(.message-head)', '.trace-head details > :not(summary)', '#prompt-preview', '#js-tools',
  '.compare-grid tbody th', '.compare-summary',
].join(', ');

// Words the Chinese interface keeps: the protocol's labels, product and format names, the
// tools' functions, the template's slots, a language's own name and the answer the self-check
// asks for.
const ALLOWED = new Set(`Thought Action Input Observation Final Answer ReAct JSON schema GBNF Ollama llama.cpp
  llama-cpp-python LM Studio vLLM OpenAI GGUF URL API token Markdown SVG JavaScript Web Worker localStorage
  async function args Ctrl+Enter reactloop Hugging Face English OK https localhost sqrt abs round min max log pi e MB ms
  search_docs calculator current_time final_answer tools tool_names RAG days`.split(/\s+/));

/** Every piece of text a reader of the page sees: visible text, option lists, titles and placeholders. */
function visibleTexts(skip) {
  const out = [];
  const shown = (el) => el.checkVisibility?.() ?? true;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || el.closest(skip) || !shown(el)) continue;
    out.push({ text: node.data, where: el.closest('[id]')?.id ?? el.tagName });
  }
  for (const el of document.querySelectorAll('select, [title], [placeholder]')) {
    if (!shown(el) || el.closest('script, style')) continue;
    if (el.tagName === 'SELECT') for (const o of el.options) out.push({ text: o.text, where: `${el.id || 'select'} option` });
    for (const attr of ['title', 'placeholder']) if (el.getAttribute(attr)) out.push({ text: el.getAttribute(attr), where: `${el.id || el.tagName}[${attr}]` });
  }
  return out;
}

/** Opens every card's X-ray and anatomy (they are built when opened). */
async function openCards(page) {
  await page.evaluate(() => document.querySelectorAll('#trace details, #compare details').forEach((d) => { d.open = true; }));
}

async function rawKeys(page) {
  const texts = await page.evaluate(visibleTexts, 'script, style');
  return texts.flatMap(({ text, where }) => [...text.matchAll(RAW_KEY)].map((m) => `${where}: ${m[0]}`));
}

// The names of the loop's texts (`format.no_action`): identifiers of the core, as a tool's name is.
const TEMPLATE_NAME = /^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$/;

function latinWords(texts) {
  return texts.flatMap(({ text, where }) => (text.match(/[A-Za-z][A-Za-z0-9_.+-]*[A-Za-z0-9+]|[A-Za-z]/g) ?? [])
    .filter((word) => !ALLOWED.has(word) && !(where === 'text-name option' && TEMPLATE_NAME.test(word)))
    .map((word) => `${where}: ${word} (in "${text.trim().slice(0, 60)}")`));
}

for (const lang of ['en', 'zh']) {
  test(`no raw string key shows after a demo run of each strategy (${lang})`, async ({ page }) => {
    test.setTimeout(90_000);
    for (const strategy of STRATEGIES) {
      await openPage(page, { demo: '1', lang, strategy, question: QUESTIONS[lang][strategy], autorun: '1' });
      await expect(page.locator('.outcome')).toBeVisible();
      await openCards(page);
      await expect(page.locator('#trace .anatomy-body').first()).toBeVisible();
      expect(await rawKeys(page), `${strategy}: raw keys`).toEqual([]);
    }
    // The Reflect run's self-check card names its guard.
    await expect(page.locator('.guard-self_check strong')).toHaveText(lang === 'zh' ? '自我检查' : 'Self-check');
  });
}

test('the Chinese interface has no English word of its own', async ({ page }) => {
  test.setTimeout(120_000);
  const found = [];
  const check = async (what) => {
    const words = latinWords(await page.evaluate(visibleTexts, NOT_INTERFACE));
    found.push(...words);
  };
  for (const strategy of STRATEGIES) {
    await openPage(page, { demo: '1', lang: 'zh', strategy, question: QUESTIONS.zh[strategy], autorun: '1' });
    await expect(page.locator('.outcome')).toBeVisible();
    await openCards(page);
    await expect(page.locator('#trace .anatomy-body').first()).toBeVisible();
    await check(strategy);
  }
  // The panels: Tools, Prompt, and Limits inside Connect.
  for (const panel of ['#tools-panel', '#prompt-panel']) await page.locator(`${panel} > summary`).click();
  await page.locator('#connect-panel details.sub > summary').click();
  await expect(page.locator('#prompt-preview')).not.toBeEmpty();
  await check('panels');
  // Compare: Reflect beside Plan, each column's cards opened.
  await page.locator('#compare-panel > summary').click();
  await page.getByTestId('compare-strategy').first().selectOption('reflect');
  await page.getByTestId('compare-strategy').nth(1).selectOption('plan');
  await page.getByTestId('compare').click();
  await expect(page.locator('#compare .outcome')).toHaveCount(2);
  await openCards(page);
  await check('compare');
  expect([...new Set(found)]).toEqual([]);
});
