// A run as one animated SVG, for places that run no script: a README on GitHub, a slide, a
// wiki. Pure, with no import of the wasm module, so that Node can make one from a recording
// (scripts/run-svg.mjs): the core's sentences (guards, format errors, the outcome) come in the
// trace's `view`, in both languages.
//
// The steps are laid out one under another, so that the picture still reads where animation is
// off (prefers-reduced-motion, a printer); CSS keyframes reveal them one by one, then the run
// starts again. No script, no link, no external font: every text is escaped, and text that
// XML cannot hold (control characters, lone surrogates) is dropped.

const WIDTH = 760;
const MARGIN = 20;
const LINE = 19;
/** Monospace cells per line: a CJK character takes two. */
const CELLS = 86;
/** Seconds each step is on its own before the next appears; the whole run stays a while. */
const SLOT = 2.2;
const HOLD = 3;

const LABELS = {
  en: { step: 'Step', thought: 'Thought', action: 'Action', input: 'Action Input', observation: 'Observation', answer: 'Final answer', error: 'Format error', question: 'Question', model: 'Model' },
  zh: { step: '第', thought: '思考', action: '行动', input: '行动输入', observation: '观察', answer: '最终答案', error: '格式错误', question: '问题', model: '模型' },
};

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` as XML character data: escaped, without what XML 1.0 cannot hold. */
export function xmlText(text) {
  return String(text ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

const wide = (c) => /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{20000}-\u{3FFFD}]/u.test(c);

const cellsOf = (text) => [...text].reduce((n, c) => n + (wide(c) ? 2 : 1), 0);

/**
 * `text` in lines of at most `cells` monospace cells (a wide character counts two), breaking at
 * a space where there is one; at most `max` lines, the last one ending in … when text is left.
 */
export function wrap(text, cells, max) {
  const lines = [];
  let line = '';
  for (const c of String(text ?? '').replace(/\s+/g, ' ').trim()) {
    if (cellsOf(line + c) > cells) {
      // Break at the last space when it leaves a line worth the name.
      const space = line.lastIndexOf(' ');
      const cut = space > line.length / 2 ? space : line.length;
      lines.push(line.slice(0, cut));
      line = line.slice(cut).trimStart();
    }
    line += c;
  }
  if (line) lines.push(line);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  const last = [...kept[max - 1]];
  while (last.length && cellsOf(`${last.join('')}…`) > cells) last.pop();
  kept[max - 1] = `${last.join('')}…`;
  return kept;
}

/** One labelled field as lines: the label, then the text wrapped after it. */
function field(label, text, { max = 3, kind = 'text' } = {}) {
  const indent = cellsOf(label) + 2;
  const lines = wrap(text, CELLS - indent, max);
  return lines.map((line, i) => ({ label: i === 0 ? label : '', line, indent, kind }));
}

/** The blocks of a run: each a list of lines; the first is the question, the last the outcome. */
function blocks(trace, lang) {
  const L = LABELS[lang];
  const say = (sentence) => sentence?.[lang] ?? sentence?.en ?? '';
  const head = [...field(L.question, trace.question, { max: 3, kind: 'question' })];
  if (trace.model) head.push(...field(L.model, trace.model, { max: 1, kind: 'meta' }));
  const out = [head];
  for (const step of trace.steps ?? []) {
    const { parse, call, observation, view } = step;
    const title = lang === 'zh' ? `${L.step} ${step.index} 步` : `${L.step} ${step.index}`;
    const lines = [{ label: '', line: title, indent: 0, kind: 'step' }];
    if (parse?.thought) lines.push(...field(L.thought, parse.thought));
    if (parse?.kind === 'action') {
      lines.push(...field(L.action, call?.tool ?? parse.tool, { max: 1, kind: 'action' }));
      lines.push(...field(L.input, JSON.stringify(call?.args ?? parse.input ?? {}), { max: 2, kind: 'code' }));
    } else if (parse?.kind === 'final') {
      lines.push(...field(L.answer, parse.answer, { max: 3, kind: 'answer' }));
    } else if (parse?.kind === 'error') {
      lines.push(...field(L.error, say(view?.format_error), { max: 2, kind: 'note' }));
    }
    if (observation) lines.push(...field(L.observation, observation.text, { max: 3, kind: 'observation' }));
    (step.guards ?? []).forEach((guard, i) => lines.push(...field('⚑', say(view?.guards?.[i]) || guard.type, { max: 2, kind: 'note' })));
    out.push(lines);
  }
  const outcome = say(trace.view?.outcome);
  if (outcome) out.push(field('■', outcome, { max: 3, kind: 'outcome' }));
  return out;
}

const STYLE = (n, total) => {
  const keyframes = [];
  for (let i = 1; i < n; i += 1) {
    const at = ((i * SLOT) / total) * 100;
    keyframes.push(`@keyframes r${i}{0%,${(at - 0.01).toFixed(2)}%{opacity:0}${at.toFixed(2)}%,100%{opacity:1}}.b${i}{animation:r${i} ${total.toFixed(1)}s step-end infinite}`);
  }
  return `text{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Noto Sans Mono CJK SC","WenQuanYi Micro Hei Mono","WenQuanYi Micro Hei","Microsoft YaHei",monospace;fill:#1f2328;white-space:pre}`
    + '.bg{fill:#fff}.card{fill:#f6f8fa;stroke:#d0d7de}.l{font-weight:700;fill:#0b5cad}.step{font-weight:700}'
    + '.answer,.outcome{fill:#116329;font-weight:700}.note{fill:#9a3412}.meta{fill:#57606a}.code{fill:#6e3fb0}'
    + keyframes.join('')
    + '@media (prefers-color-scheme:dark){.bg{fill:#0d1117}.card{fill:#161b22;stroke:#30363d}text{fill:#e6edf3}.l{fill:#6cb6ff}.answer,.outcome{fill:#56d364}.note{fill:#f0883e}.meta{fill:#8b949e}.code{fill:#d2a8ff}}'
    + '@media (prefers-reduced-motion:reduce){g{animation:none!important}}';
};

/**
 * The trace (as `trace()`, `exportTrace()` and `loadTrace` give it, or a recording) as one SVG
 * document, its texts in `lang` ('en' or 'zh').
 */
export function traceToSvg(trace, { lang = 'en' } = {}) {
  const parts = blocks(trace, LABELS[lang] ? lang : 'en');
  let y = MARGIN;
  const groups = parts.map((lines, i) => {
    const top = y;
    const height = lines.length * LINE + 12;
    y += height + 8;
    const texts = lines.map(({ label, line, indent, kind }, j) => {
      const baseline = top + 20 + j * LINE;
      const x = MARGIN + 12;
      const labelText = label ? `<tspan class="l">${xmlText(label)}</tspan>` : '';
      // The text after the label starts at its indent, in monospace cells (7.8 px each).
      return `<text x="${x}" y="${baseline}">${labelText}<tspan x="${(x + indent * 7.8).toFixed(1)}" class="${kind}">${xmlText(line)}</tspan></text>`;
    });
    const card = `<rect class="card" x="${MARGIN}" y="${top}" width="${WIDTH - 2 * MARGIN}" height="${height}" rx="6"/>`;
    return `<g class="b${i}">${card}${texts.join('')}</g>`;
  });
  const height = y + MARGIN - 8;
  const total = (parts.length - 1) * SLOT + HOLD;
  const title = xmlText(`reactloop: ${trace.question ?? ''}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${title}">`
    + `<title>${title}</title><style>${STYLE(parts.length, total)}</style>`
    + `<rect class="bg" width="100%" height="100%"/>${groups.join('')}</svg>\n`;
}
