// A ten-step run whose model text tries to break out of the SVG: markup, entities, control
// characters and a lone surrogate. Shared by tests/node/svg.test.mjs and tests/e2e/svg.spec.mjs.
export const HOSTILE = '<script>alert(1)</script> & "q" \'a\' <a href="https://x.test" onclick="x()">x</a>';
const say = (en, zh) => ({ en, zh });

/** Ten steps: nine calls (one with hostile text, one format error) and a final answer. */
export function tenSteps() {
  const steps = [];
  for (let i = 1; i <= 9; i += 1) {
    const hostile = i === 3;
    steps.push({
      index: i,
      reply: { text: '' },
      parse: i === 5
        ? { kind: 'error', repairs: [] }
        : { kind: 'action', tool: 'calculator', input: { expression: `${i} * 7` }, thought: hostile ? `Thought ${i}: ${HOSTILE}\u0001\uD800` : `Step ${i} needs ${i} * 7, 思考第 ${i} 步。`, repairs: [] },
      call: i === 5 ? null : { tool: 'calculator', args: { expression: `${i} * 7` } },
      observation: { text: hostile ? `${i * 7} ${HOSTILE}` : String(i * 7), source: 'tool' },
      guards: i === 7 ? [{ type: 'repeated_call' }] : [],
      view: {
        guards: i === 7 ? [say('calculator was called again with the same arguments', 'calculator 又以相同参数被调用')] : [],
        format_error: i === 5 ? say('Your reply has no Action line.', '你的回复没有 Action 行。') : null,
        repairs: [],
      },
    });
  }
  steps.push({
    index: 10,
    reply: { text: '' },
    parse: { kind: 'final', answer: `The answer is 63 ${HOSTILE}`, thought: 'Done.', repairs: [] },
    observation: null,
    guards: [],
    view: { guards: [], format_error: null, repairs: [] },
  });
  return {
    version: 1,
    model: 'qwen2.5-coder-0.5b',
    question: `What is 9 * 7? ${HOSTILE}`,
    steps,
    outcome: { type: 'answer', answer: 'The answer is 63' },
    view: { outcome: say(`Final answer: The answer is 63 ${HOSTILE}`, `最终答案：The answer is 63 ${HOSTILE}`) },
  };
}
