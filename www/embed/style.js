// The styles of <react-loop>'s own shell, inside its shadow root: the frame, its colours and
// its bar. The trace cards get the playground's stylesheet (www/trace-style.js), which the
// trace view adopts into the same shadow root. Authors theme the element with the --rl-*
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

/* ------------------------------------- around the trace (its cards: www/trace-style.js) */

.scroll { height: 24rem; overflow: auto; padding: .6rem .75rem .9rem; }
.scroll:focus-visible { outline-offset: -2px; }
.placeholder { display: flex; flex-direction: column; align-items: center; gap: .4rem; padding: 2.5rem 1rem 1rem; color: var(--muted); text-align: center; }
.placeholder p { margin: 0; font-size: .9rem; }
button.big { font-size: 1.05rem; padding: .5rem 1.4rem; border-radius: 999px; }
code, pre { font-family: var(--mono); }
code { background: var(--code-bg); padding: 0 .25em; border-radius: 4px; font-size: .92em; }
.muted { color: var(--muted); }
/* A recording's model error has nothing to retry or test. */
.frame:is([data-mode=replay], [data-mode=fallback]) .doctor .buttons { display: none; }
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
}
/* A recorded comparison: its columns side by side, stacked when the box is narrow. */
.comparison .pick { margin: 0 0 .5rem; }
.comparison .columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .75rem; align-items: start; }
.comparison .column { min-width: 0; }
.comparison .column h3 { font-size: .95rem; margin: 0 0 .4rem; }
`;
}
