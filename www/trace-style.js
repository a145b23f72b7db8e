// The one stylesheet of the trace view (www/trace.js): the playground adopts it in its
// document, <react-loop> in its shadow root. It uses the host's colour variables (--bg, --fg,
// --muted, --panel, --border, --accent, --code-bg, --thought, --action, --input, --answer,
// --warn, --warn-bg, --error, --error-bg, --ok), --radius and --mono.
export const traceCss = `
.trace-view { container-type: inline-size; }
.trace-view code, .trace-view pre { font-family: var(--mono); }
.trace-view code { background: var(--code-bg); padding: 0 .25em; border-radius: 4px; font-size: .92em; }
.trace-head p { margin: .2rem 0; }
.trace-head .question { font-size: 1.08rem; }
.trace-head details summary { cursor: pointer; color: var(--accent); font-size: .9rem; }
.steps { list-style: none; padding: 0; margin: .7rem 0; display: flex; flex-direction: column; gap: .7rem; }
.card {
  background: var(--panel); border: 1px solid var(--border); border-left: 5px solid var(--accent);
  border-radius: var(--radius); padding: .45rem .9rem .7rem;
}
.card.has-guard { border-left-color: var(--warn); }
.card.has-error { border-left-color: var(--error); }
.card-head { display: flex; flex-wrap: wrap; gap: .35rem 1rem; align-items: baseline; }
.card-head h3 { margin: 0; font-size: 1rem; line-height: 1.2; }
.meta { color: var(--muted); font-size: .82rem; margin-left: auto; }
.card-status:empty { display: none; }
.card-status { color: var(--muted); font-style: italic; margin: .2rem 0; }
.notice { color: var(--warn); }
.row { display: grid; grid-template-columns: 8rem minmax(0, 1fr); gap: .7rem; padding: .3rem 0; border-top: 1px solid var(--border); }
.row:first-of-type { border-top: 0; }
.label { font-weight: 650; color: var(--muted); font-size: .95em; }
.row.final .label { color: var(--fg); }
.row.format-error .value p { margin: 0; color: var(--warn); font-weight: 600; }
.row .value > p { margin: .2rem 0 0; }
.notes { font-size: .88rem; color: var(--muted); }
@container (max-width: 32rem) { .row { grid-template-columns: minmax(0, 1fr); gap: .1rem; } }
pre.text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .9rem; max-height: 24rem; overflow: auto; }
pre.prose { font-family: inherit; font-size: 1rem; }
pre.json, pre.live, pre.xray-text, .message pre.text { background: var(--code-bg); border-radius: 6px; padding: .45rem .6rem; }
pre.live { border: 1px dashed var(--border); }
.more { margin: .2rem 0 0; font-size: .82rem; }
code.tool { font-weight: 700; }
.card.shared { display: none; }
.badge.parts { border-color: var(--accent); color: var(--accent); font-weight: 600; }
.card-head .fork { margin-left: .5rem; font-size: .82rem; }
.plan { margin: 0; padding-left: 1.4rem; }
.plan li.done { color: var(--muted); }
.badge.check { border-color: var(--accent); color: var(--accent); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.badge { display: inline-block; font-size: .75rem; padding: 0 .45rem; border-radius: 999px; border: 1px solid var(--border); margin-bottom: .2rem; }
.badge.source-tool_error, .badge.source-feedback, .badge.source-cached, .badge.edited, .badge.cut-off { border-color: var(--warn); color: var(--warn); }
.badge.edited { font-weight: 600; }
.guards { list-style: none; padding: 0; margin: .45rem 0 0; }
.guard { background: var(--warn-bg); border-left: 4px solid var(--warn); border-radius: 4px; padding: .3rem .6rem; margin-top: .3rem; }
.guard strong::before { content: "⚠ "; }
.doctor { background: var(--error-bg); border: 1px solid var(--error); border-radius: var(--radius); padding: .45rem .85rem; margin: .45rem 0; overflow-wrap: anywhere; }
.doctor p { margin: .25rem 0; }
.doctor-title { color: var(--error); }
.doctor .buttons { display: flex; gap: .5rem; flex-wrap: wrap; margin-left: 0; }
.card details { margin-top: .45rem; }
.card details > summary { cursor: pointer; color: var(--accent); font-weight: 600; }
mark { color: inherit; border-radius: 3px; padding: 0 1px; }
mark.span-thought { background: var(--thought); }
mark.span-action { background: var(--action); text-decoration: underline dotted; }
mark.span-input { background: var(--input); }
mark.span-answer { background: var(--answer); font-weight: 600; }
.legend mark { padding: 0 .4rem; }
.repairs { margin: .25rem 0; }
.repair-code { font-size: .75rem; color: var(--muted); }
.messages { padding-left: 1.4rem; }
.message { margin: .45rem 0; }
.message-head { margin: 0 0 .15rem; }
.role { font-weight: 700; text-transform: uppercase; font-size: .78rem; letter-spacing: .04em; }
.role-system .role { color: var(--warn); }
.role-user .role { color: var(--ok); }
.role-assistant .role { color: var(--accent); }
.outcome { border: 2px solid var(--ok); border-radius: var(--radius); padding: .45rem .95rem; background: var(--panel); }
.outcome:not(.outcome-answer) { border-color: var(--warn); }
.outcome h3 { margin: .2rem 0; font-size: .9rem; color: var(--muted); }
.outcome .answer { font-size: 1.2rem; font-weight: 650; margin: .2rem 0 .45rem; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

/** The stylesheet, built once, for `adoptedStyleSheets` (a document's or a shadow root's). */
export const traceSheet = new CSSStyleSheet();
traceSheet.replaceSync(traceCss);
