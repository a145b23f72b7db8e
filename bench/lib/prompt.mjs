// Prompt cost: our generated system prompt for the built-in tools (English, Chinese, and
// English with the bench's few-shot examples) next to LangChain's hwchase17/react prompt for
// the same tools, counted with the same two methods.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadWasm, ROOT } from './wasm.mjs';
import { countTokens, MODELS } from './llm.mjs';
import { table, fmt } from './table.mjs';

/** LangChain's template with `name: description` tool lines, {input} and the scratchpad empty. */
export function langchainPrompt(template, tools) {
  return template
    .replace('{tools}', tools.map((t) => `${t.name}: ${t.description}`).join('\n'))
    .replace('{tool_names}', tools.map((t) => t.name).join(', '))
    .replace('{input}', '')
    .replace('{agent_scratchpad}', '');
}

export async function measurePrompt() {
  const { Agent, estimateTokens } = await loadWasm();
  const fewShot = JSON.parse(await readFile(join(ROOT, 'bench/few_shot.json'), 'utf8'));
  // Under a constraint the built-in prompt has no worked examples; without one it ends with them.
  const en = new Agent({ demo: true, lang: 'en', constrained: 'grammar' });
  const template = await readFile(join(ROOT, 'tests/golden/langchain_react_prompt.txt'), 'utf8');
  const prompts = [
    { name: 'reactloop, English, under a constraint', text: en.systemPrompt() },
    { name: 'reactloop, Chinese, under a constraint', text: new Agent({ demo: true, lang: 'zh', constrained: 'grammar' }).systemPrompt() },
    { name: 'reactloop, English, no constraint (+ 2 worked examples)', text: new Agent({ demo: true, lang: 'en', constrained: 'off' }).systemPrompt() },
    { name: 'reactloop, Chinese, no constraint (+ 2 worked examples)', text: new Agent({ demo: true, lang: 'zh', constrained: 'off' }).systemPrompt() },
    { name: 'reactloop, English + bench few-shot (2 examples)', text: new Agent({ demo: true, lang: 'en', fewShot }).systemPrompt() },
    { name: 'LangChain hwchase17/react', text: langchainPrompt(template.trimEnd(), en.tools()) },
  ];
  const texts = prompts.map((p) => p.text);
  const qwen = await countTokens('qwen', texts);
  const smollm = await countTokens('smollm', texts);
  return {
    prompts: prompts.map((p, i) => ({
      name: p.name,
      chars: [...p.text].length,
      estimate: estimateTokens(p.text),
      qwen: qwen?.[i] ?? null,
      smollm: smollm?.[i] ?? null,
    })),
    tokenizers: { qwen: qwen ? MODELS.qwen.label : null, smollm: smollm ? MODELS.smollm.label : null },
  };
}

export function renderPrompt(r) {
  const lc = r.prompts.find((p) => p.name.startsWith('LangChain'));
  const rel = (n, base) => (n == null || base == null ? '' : ` (${fmt.pct(n, base)})`);
  const rows = r.prompts.map((p) => [
    p.name,
    fmt.int(p.chars),
    fmt.int(p.estimate) + (p === lc ? '' : rel(p.estimate, lc.estimate)),
    p.qwen == null ? 'n/a' : fmt.int(p.qwen) + (p === lc ? '' : rel(p.qwen, lc.qwen)),
    p.smollm == null ? 'n/a' : fmt.int(p.smollm) + (p === lc ? '' : rel(p.smollm, lc.smollm)),
  ]);
  return (
    '### Prompt cost: system prompt for the 3 built-in tools\n\n' +
    table(['prompt', 'chars', 'estimateTokens', 'Qwen2.5 tokens', 'SmolLM2 tokens'], rows, 'lrrrr') +
    '\n\nMethods: `estimateTokens` is the wasm module\'s estimate (a CJK character = 1 token, other text' +
    ' ≈ 4 characters per token). "Qwen2.5 tokens" and "SmolLM2 tokens" are exact counts with each model\'s own' +
    ' tokenizer (llama.cpp\'s server, `POST /tokenize` with `add_special: false`). Percentages are' +
    ' relative to LangChain. The LangChain prompt is `tests/golden/langchain_react_prompt.txt` with the' +
    ' same tools as `name: description` lines, `{tool_names}` filled and `{input}`/`{agent_scratchpad}`' +
    ' empty; its scaffolding ("Question: … Thought:") is what reactloop sends as the user message instead.'
  );
}
