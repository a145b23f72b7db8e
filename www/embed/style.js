// The styles of <react-loop>, inside its shadow root. They style the playground's trace
// cards (www/trace.js) and the element's own bar. Authors theme the element with the --rl-*
// custom properties (www/embed/README.md); the short names below are private to the shadow
// root, set on .frame so no rule of the host page can reach them.
export const css = `
:host { display: block; margin: 1.25rem 0; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }

.frame {
  --bg: var(--rl-bg, #ffffff);
  --fg: var(--rl-fg, #1c1d21);
  --muted: var(--rl-muted, #5b5e66);
  --panel: var(--rl-panel, #f7f7f5);
  --border: var(--rl-border, #d5d6da);
  --accent: var(--rl-accent, #1f5fbf);
  --accent-fg: var(--rl-accent-fg, #ffffff);
  --code-bg: var(--rl-code-bg, #eef0f3);
  --thought: var(--rl-thought, #dbeafe);
  --action: var(--rl-action, #f3e1ff);
  --input: var(--rl-input, #d9f5df);
  --answer: var(--rl-answer, #fff1b8);
  --warn: var(--rl-warn, #9a5b00);
  --warn-bg: var(--rl-warn-bg, #fff6e0);
  --error: var(--rl-error, #b42318);
  --error-bg: var(--rl-error-bg, #fdeceb);
  --ok: var(--rl-ok, #1b7a3d);
  --radius: var(--rl-radius, 10px);
  --mono: var(--rl-mono, ui-monospace, "SFMono-Regular", "Cascadia Mono", Menlo, Consolas, "Noto Sans Mono CJK SC", monospace);
  color-scheme: light;
  /* Without --rl-font the page's own font is inherited. */
  font-family: var(--rl-font);
  font-size: var(--rl-font-size, 15px);
  line-height: 1.5;
  text-align: start;
  color: var(--fg);
  background: var(--bg);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  overflow: hidden;
}
${dark(':host([theme=dark]) .frame')}
@media (prefers-color-scheme: dark) {
  ${dark(':host(:not([theme=light])) .frame')}
}

/* ---------------------------------------------------------------- the bar */

.bar {
  display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .6rem;
  padding: .45rem .75rem;
  border-bottom: 1px solid var(--border);
  background: var(--panel);
}
.mode {
  font-size: .75rem; font-weight: 700; letter-spacing: .04em; text-transform: uppercase;
  padding: .1rem .55rem; border-radius: 999px; border: 1px solid var(--border); color: var(--muted);
}
.mode.live { color: var(--ok); border-color: var(--ok); }
.brand { font-weight: 650; }
.brand a { color: inherit; text-decoration: none; }
.brand a:hover { text-decoration: underline; }
.buttons { display: flex; gap: .35rem; margin-left: auto; flex-wrap: wrap; }
button {
  font: inherit; font-size: .85rem; color: var(--fg);
  padding: .25rem .7rem; border: 1px solid var(--border); border-radius: 6px;
  background: var(--bg); cursor: pointer; font-weight: 550;
}
button:hover:not(:disabled) { border-color: var(--accent); }
button.primary { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
button:disabled { opacity: .45; cursor: default; }
button.link { border: 0; background: none; padding: 0 .2rem; color: var(--accent); text-decoration: underline; font-weight: 400; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }

.note { margin: 0; padding: .4rem .75rem; font-size: .88rem; color: var(--muted); border-bottom: 1px solid var(--border); }
.note:empty { display: none; }
.note.fallback { color: var(--fg); background: var(--warn-bg); }
.note .why { margin-top: .25rem; }
.note .why summary { cursor: pointer; color: var(--accent); }
.note .why p { margin: .25rem 0; overflow-wrap: anywhere; }
.ask { display: flex; gap: .4rem; padding: .5rem .75rem; border-bottom: 1px solid var(--border); }
.ask input {
  flex: 1; min-width: 0; font: inherit; color: var(--fg); background: var(--bg);
  padding: .3rem .5rem; border: 1px solid var(--border); border-radius: 6px;
}

/* ---------------------------------------------------------------- the trace (www/trace.js) */

.scroll { height: 24rem; overflow: auto; padding: .6rem .75rem .9rem; }
.scroll:focus-visible { outline-offset: -2px; }
.placeholder { display: flex; flex-direction: column; align-items: center; gap: .4rem; padding: 2.5rem 1rem 1rem; color: var(--muted); text-align: center; }
.placeholder p { margin: 0; font-size: .9rem; }
button.big { font-size: 1.05rem; padding: .5rem 1.4rem; border-radius: 999px; }
h3 { line-height: 1.2; }
code, pre { font-family: var(--mono); }
code { background: var(--code-bg); padding: 0 .25em; border-radius: 4px; font-size: .92em; }
.muted { color: var(--muted); }
.trace-head p { margin: .15rem 0; }
.trace-head .question { font-size: 1.05rem; }
.trace-head details summary { cursor: pointer; color: var(--accent); font-size: .9rem; }
.steps { list-style: none; padding: 0; margin: .6rem 0; display: flex; flex-direction: column; gap: .6rem; }
.card {
  background: var(--panel); border: 1px solid var(--border); border-left: 4px solid var(--accent);
  border-radius: calc(var(--radius) * .8); padding: .4rem .8rem .6rem;
}
.card.has-guard { border-left-color: var(--warn); }
.card.has-error { border-left-color: var(--error); }
.card-head { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: baseline; }
.card-head h3 { margin: 0; font-size: .95rem; }
.meta { color: var(--muted); font-size: .8rem; margin-left: auto; }
.card-status:empty { display: none; }
.card-status { color: var(--muted); font-style: italic; margin: .2rem 0; }
.notice { color: var(--warn); }
.row { display: grid; grid-template-columns: 7rem minmax(0, 1fr); gap: .6rem; padding: .3rem 0; border-top: 1px solid var(--border); }
.row:first-of-type { border-top: 0; }
.label { font-weight: 650; color: var(--muted); font-size: .9rem; }
.row.final .label { color: var(--fg); }
.row.format-error .value p { margin: 0; color: var(--warn); font-weight: 600; }
.row .value > p { margin: .2rem 0 0; }
.notes { font-size: .85rem; color: var(--muted); }
@container (max-width: 30rem) { .row { grid-template-columns: minmax(0, 1fr); gap: .1rem; } }
.scroll { container-type: inline-size; }
pre.text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .87rem; max-height: 18rem; overflow: auto; }
pre.prose { font-family: inherit; font-size: .95rem; }
pre.json, pre.live, pre.xray-text, .message pre.text { background: var(--code-bg); border-radius: 6px; padding: .4rem .6rem; }
pre.live { border: 1px dashed var(--border); }
.more { margin: .2rem 0 0; font-size: .8rem; }
code.tool { font-weight: 700; }
.badge { display: inline-block; font-size: .72rem; padding: 0 .45rem; border-radius: 999px; border: 1px solid var(--border); margin-bottom: .2rem; }
.badge.source-tool_error, .badge.source-feedback, .badge.source-cached, .badge.edited, .badge.cut-off { border-color: var(--warn); color: var(--warn); }
.guards { list-style: none; padding: 0; margin: .4rem 0 0; }
.guard { background: var(--warn-bg); border-left: 3px solid var(--warn); border-radius: 4px; padding: .3rem .6rem; margin-top: .3rem; font-size: .9rem; }
.guard strong::before { content: "⚠ "; }
.doctor { background: var(--error-bg); border: 1px solid var(--error); border-radius: 8px; padding: .4rem .8rem; margin: .4rem 0; overflow-wrap: anywhere; }
.doctor p { margin: .25rem 0; }
.doctor-title { color: var(--error); }
.doctor .buttons { margin-left: 0; }
/* A recording's model error has nothing to retry or test. */
.frame:is([data-mode=replay], [data-mode=fallback]) .doctor .buttons { display: none; }
.card details { margin-top: .4rem; font-size: .9rem; }
.card details > summary { cursor: pointer; color: var(--accent); font-weight: 600; }
mark { color: inherit; border-radius: 3px; padding: 0 1px; }
mark.span-thought { background: var(--thought); }
mark.span-action { background: var(--action); text-decoration: underline dotted; }
mark.span-input { background: var(--input); }
mark.span-answer { background: var(--answer); font-weight: 600; }
.legend mark { padding: 0 .35rem; }
.messages { padding-left: 1.3rem; }
.message { margin: .4rem 0; }
.message-head { margin: 0 0 .15rem; }
.role { font-weight: 700; text-transform: uppercase; font-size: .75rem; letter-spacing: .04em; }
.outcome { border: 2px solid var(--ok); border-radius: calc(var(--radius) * .8); padding: .35rem .9rem; }
.outcome:not(.outcome-answer) { border-color: var(--warn); }
.outcome h3 { margin: .2rem 0; font-size: .85rem; color: var(--muted); }
.outcome .answer { font-size: 1.15rem; font-weight: 650; margin: .15rem 0 .35rem; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

function dark(selector) {
  return `${selector} {
  --bg: var(--rl-bg, #16171b);
  --fg: var(--rl-fg, #e8e9ec);
  --muted: var(--rl-muted, #a4a8b2);
  --panel: var(--rl-panel, #1e2026);
  --border: var(--rl-border, #3a3d45);
  --accent: var(--rl-accent, #6ea8ff);
  --accent-fg: var(--rl-accent-fg, #0b1220);
  --code-bg: var(--rl-code-bg, #272a31);
  --thought: var(--rl-thought, #1d3a66);
  --action: var(--rl-action, #4a2a63);
  --input: var(--rl-input, #1f4a2c);
  --answer: var(--rl-answer, #5a4a0f);
  --warn: var(--rl-warn, #ffc266);
  --warn-bg: var(--rl-warn-bg, #3a2c10);
  --error: var(--rl-error, #ff8a80);
  --error-bg: var(--rl-error-bg, #3d1714);
  --ok: var(--rl-ok, #6fdc98);
  color-scheme: dark;
}`;
}
