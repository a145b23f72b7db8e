// The playground with a real model: Qwen2.5-Coder-0.5B-Instruct (Q4_K_M) served by
// llama.cpp's own server (the xllamacpp wheel, scripts/local-llm) on this machine. Two questions the benchmark shows it solving in grammar
// mode (README, Benchmarks): one needs the calculator, one search_docs. Settings: temperature 0
// (the page's default), constrained output "auto" (the page's default: it must recognise
// llama.cpp and use the grammar), streaming on (the page's default). The same two questions
// then go out with constrained output "json_schema", what Ollama, LM Studio, vLLM and OpenAI
// get under "auto": the same server answers response_format with its JSON-schema decoder.
//
// The test opens the page with endpoint/model/question/lang in the URL, agrees to the
// connection the link asks for, and clicks Run.
import { test as base, expect } from '@playwright/test';

const test = base.extend({
  page: async ({ page }, use) => {
    // The page probes the usual local ports on load; only our server may answer.
    await page.route(/^http:\/\/localhost:(11434|8080|1234)\//, (route) => route.abort('connectionrefused'));
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    expect(errors, 'errors in the page').toEqual([]);
  },
});

/**
 * The replies the server sent, as the model wrote them. Chromium keeps no body for a streamed
 * response, so the requests go through Playwright: the whole event stream is fetched, read,
 * and handed to the page unchanged (in one piece instead of token by token).
 */
async function collectReplies(page) {
  const replies = [];
  replies.bodies = [];
  await page.route(/\/chat\/completions$/, async (route) => {
    replies.bodies.push(route.request().postDataJSON());
    const response = await route.fetch();
    const body = await response.text();
    let text = '';
    if ((response.headers()['content-type'] ?? '').includes('text/event-stream')) {
      for (const line of body.split('\n')) {
        const data = line.startsWith('data:') ? line.slice(5).trim() : '';
        if (!data || data === '[DONE]') continue;
        text += JSON.parse(data).choices?.[0]?.delta?.content ?? '';
      }
    } else if (response.ok()) {
      text = JSON.parse(body).choices[0].message.content;
    }
    replies.push(text);
    await route.fulfill({ response, body });
  });
  return replies;
}

async function runOnPage(page, question, constrained = 'auto') {
  const params = new URLSearchParams({
    endpoint: process.env.LLM_URL,
    model: process.env.LLM_MODEL,
    question,
    lang: 'en',
  });
  await page.goto(`${process.env.PAGE_URL}?${params}`);
  await expect(page.locator('body[data-ready="1"]')).toBeAttached();
  await expect(page.locator('#base-url')).toHaveValue(process.env.LLM_URL);
  await page.getByTestId('confirm-endpoint').click();
  // The page's default, "auto", must find out that this is llama.cpp and use the grammar.
  await expect(page.locator('#constrained')).toHaveValue('auto');
  await expect(page.locator('#temperature')).toHaveValue('0');
  await page.locator('#constrained').selectOption(constrained);
  await page.getByTestId('run').click();
  // However the run ends, its outcome shows; then the checks need no more waiting.
  await expect(page.locator('.outcome')).toBeVisible();
}

/** The first step's raw reply, from the parser X-ray, equals what the server sent. */
async function expectRawReply(page, replies, { tool }) {
  const first = page.getByTestId('step-card').first();
  await first.locator('details.xray > summary').click();
  const raw = first.locator('.xray-text');
  await expect(raw).toContainText('Thought: ');
  await expect(raw).toContainText(`Action: ${tool}`);
  await expect(raw).toContainText('Action Input: ');
  await expect.poll(() => replies.length).toBeGreaterThan(0);
  // The X-ray shows the reply as received; the agent trims only trailing white space.
  expect((await raw.textContent()).trim()).toBe(replies[0].trim());
  await expect(first.locator('.row.action code.tool')).toHaveText(tool);
  await expect(first.locator('.meta')).toContainText(/\d/); // token counts from the server
}

test('a calculator question reaches a final answer with the real model', async ({ page }) => {
  const replies = await collectReplies(page);
  await runOnPage(page, 'What is 1234 * 5678?');
  await expect(page.getByTestId('final-answer')).toContainText('7006652', { timeout: 1000 });
  await expectRawReply(page, replies, { tool: 'calculator' });
  await expect(page.getByTestId('step-card').first().locator('.row.observation')).toContainText('7006652');
  await page.screenshot({ path: 'test-results/screenshots/real-model-calculator.png', fullPage: true });
});

// The same question is the benchmark's docs-en-faiss task. The first request's anatomy shows
// what "auto" chose and what the grammar asked of the first reply.
test('a search_docs question reaches a final answer with the real model', async ({ page }) => {
  const replies = await collectReplies(page);
  await runOnPage(page, 'Look it up in the documents: what is FAISS used for?');
  await expect(page.getByTestId('final-answer')).toContainText(/similarity search/i, { timeout: 1000 });
  await expectRawReply(page, replies, { tool: 'search_docs' });
  await expect(page.getByTestId('step-card').first().locator('.row.observation')).toContainText('FAISS');
  const first = page.getByTestId('step-card').first();
  await first.locator('details.anatomy > summary').click();
  const anatomy = first.locator('.anatomy-body');
  await expect(anatomy).toContainText('Constrained output: grammar');
  await expect(anatomy).toContainText('The first reply must call a tool');
  await page.screenshot({ path: 'test-results/screenshots/real-model-search-docs.png', fullPage: true });
});

/**
 * The JSON-schema path: every request carries the schema, none was refused (no constraint
 * dropped), the first reply is one JSON object naming the tool, and the answer is text.
 */
async function expectSchemaRun(page, replies, { tool, answer }) {
  await expect(page.getByTestId('final-answer')).toContainText(answer, { timeout: 1000 });
  expect(replies.bodies.length).toBeGreaterThan(1);
  for (const body of replies.bodies) {
    expect(body.response_format?.type).toBe('json_schema');
    expect(body.grammar).toBeUndefined();
  }
  await expect(page.locator('.guard-constraint_dropped')).toHaveCount(0);
  const first = JSON.parse(replies[0]);
  expect(first.action).toBe(tool);
  expect(typeof first.action_input).toBe('object');
  const last = JSON.parse(replies.at(-1));
  expect(last.action).toBe('final_answer');
  expect(typeof last.action_input).toBe('string');
  await expect(page.getByTestId('step-card').first().locator('.row.action code.tool')).toHaveText(tool);
}

test('json_schema: a calculator question reaches a final answer with the real model', async ({ page }) => {
  const replies = await collectReplies(page);
  await runOnPage(page, 'What is 1234 * 5678?', 'json_schema');
  await expectSchemaRun(page, replies, { tool: 'calculator', answer: '7006652' });
  await page.screenshot({ path: 'test-results/screenshots/real-model-schema-calculator.png', fullPage: true });
});

test('json_schema: a search_docs question reaches a final answer with the real model', async ({ page }) => {
  const replies = await collectReplies(page);
  await runOnPage(page, 'Look it up in the documents: what is FAISS used for?', 'json_schema');
  await expectSchemaRun(page, replies, { tool: 'search_docs', answer: /similarity search/i });
  const first = page.getByTestId('step-card').first();
  await first.locator('details.anatomy > summary').click();
  await expect(first.locator('.anatomy-body')).toContainText('Constrained output: json_schema');
});
