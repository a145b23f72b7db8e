// "Export page": a run as one self-contained HTML file, which replays from disk or from any
// site with no network and no wasm. The file holds
// - the run as JSON in <script type="application/json">, every "<" written \u003c, so no text
//   of the run can end that element or start another; the viewer reads it with JSON.parse;
// - the viewer: www/export-viewer.js with the modules it draws with (trace.js, dom.js,
//   i18n.js, titles.js, trace-style.js), fetched from this page's own origin and joined into one inline
//   module script (each module in a function of its own, its imports read from the modules
//   before it), so the file shows the playground's own cards, X-ray, anatomy and replay;
// - the player's styles (www/embed/style.js, the shell of <react-loop>) in one <style>;
// - a Content-Security-Policy that lets only that script and that style in, by their SHA-256,
//   loads nothing (default-src 'none') and refuses HTML strings in script sinks (Trusted Types).
import { estimateTokens, version } from './pkg/reactloop.js';
import { css as playerCss } from './embed/style.js';
import { t } from './i18n.js';
import { COMPARISON } from './comparison.js';

// The viewer's modules in the order they run, each after the modules it imports.
const MODULES = ['titles.js', 'i18n.js', 'dom.js', 'trace-style.js', 'comparison.js', 'export-viewer.js', 'trace.js'];

// The page around the player: the file's own layout, on top of the player's shell styles.
const PAGE_CSS = `
body { margin: 0; padding: 1rem; background: #f6f6f3;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; }
.frame { max-width: 62rem; margin: 0 auto; overflow: clip; }
.bar { position: sticky; top: 0; z-index: 1; }
.scroll { height: auto; overflow: visible; }
select { font: inherit; font-size: .85rem; color: var(--fg); background: var(--bg);
  padding: .2rem .4rem; border: 1px solid var(--border); border-radius: 6px; }
`;

let viewer = null; // the viewer script, joined once a page

/**
 * The HTML file of `trace` (as `agent.trace()` or `loadTrace()` give it: with its views), or
 * of a comparison ({kind, columns: [{label, runs: [trace with views]}]}), in `lang` until the
 * reader picks the other language. Rejects when the viewer's sources cannot be fetched or the
 * page cannot hash (crypto.subtle: https or localhost only).
 */
export async function exportPage(record, { lang = 'en' } = {}) {
  if (!globalThis.crypto?.subtle) throw new Error(t('share.page.insecure'));
  viewer ??= viewerScript();
  viewer.catch(() => { viewer = null; }); // a later export tries again
  const script = await viewer;
  const tokensOf = (trace) => trace.steps.map((step) => step.request?.messages.map((m) => estimateTokens(m.content)) ?? null);
  const data = record.kind === COMPARISON
    ? { lang, comparison: record, tokens: record.columns.map((c) => c.runs.map(tokensOf)) }
    : { lang, trace: record, tokens: tokensOf(record) };
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const style = `${playerCss}${PAGE_CSS}`;
  const policy = [
    "default-src 'none'",
    `script-src '${await sha256(script)}'`,
    `style-src '${await sha256(style)}'`,
    "require-trusted-types-for 'script'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="reactloop ${version()}">
<title>reactloop</title>
<style>${style}</style>
</head>
<body>
<main id="run"><noscript>This page replays a recorded run of reactloop: it needs JavaScript.</noscript></main>
<script type="application/json" id="trace">${json}</script>
<script type="module">${script}</script>
</body>
</html>
`;
}

/** The viewer's modules as one script with no imports, and the line that starts it. */
async function viewerScript() {
  const sources = await Promise.all(MODULES.map(async (file) => {
    const response = await fetch(new URL(file, import.meta.url));
    if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
    return (await response.text()).replace(/\r\n?/g, '\n'); // as the parser reads it: the hash must match
  }));
  const strings = MODULES.indexOf('i18n.js');
  sources[strings] = keptStrings(sources[strings], sources.filter((_, i) => i !== strings));
  const parts = MODULES.map((file, i) => `__modules[${JSON.stringify(file)}] = (() => {\n${inlined(file, withoutComments(sources[i]))}\n})();`);
  const script = `\nconst __modules = {};\n${parts.join('\n')}
__modules['export-viewer.js'].showExport(document.getElementById('run'),
  JSON.parse(document.getElementById('trace').textContent), __modules['trace.js']);\n`;
  // None of these may stand in an inline script: the HTML parser would end it or change how.
  if (/<\/script|<!--|<script/i.test(script)) throw new Error('a viewer module holds "<script" or "<!--"');
  return script;
}

/**
 * One module's source as a function body: its imports read from `__modules`, its exports
 * returned. Only the forms the viewer's modules use are understood; any other import or
 * export stops the export with its name, rather than a file that fails when opened.
 */
function inlined(file, source) {
  const exported = [];
  const body = source
    .replace(/^import \{([^}]*)\} from '\.\/([^']+)';$/gm, (line, names, from) => {
      if (!MODULES.slice(0, MODULES.indexOf(file)).includes(from)) throw new Error(`${file} imports ${from}, which the page cannot inline`);
      const bindings = names.split(',').map((n) => n.trim()).filter(Boolean).map((n) => n.replace(/\s+as\s+/, ': '));
      return `const { ${bindings.join(', ')} } = __modules[${JSON.stringify(from)}];`;
    })
    .replace(/^export ((?:async )?(?:function|class|const|let) ([\w$]+))/gm, (line, declaration, name) => {
      exported.push(name);
      return declaration;
    });
  const left = body.match(/^\s*(?:import|export)\b.*$|\bimport\s*\(|\bimport\.meta\b/m);
  if (left) throw new Error(`${file}: cannot inline "${left[0].trim()}"`);
  return `${body}\nreturn { ${exported.join(', ')} };`;
}

/**
 * i18n.js without the strings of the playground's panels, about half of it: the tables keep a
 * key when another viewer module names its group (the word before the first dot) in a string,
 * as t(`card.step`) names "card", and every key with no group.
 */
function keptStrings(source, others) {
  const groups = new Set([...others.join('\n').matchAll(/['"`]([a-zA-Z]+)\./g)].map((m) => m[1]));
  return source.replace(/^ {2}'([a-zA-Z]+)\.[^'\n]*': .*,\n/gm, (line, group) => (groups.has(group) ? line : ''));
}

/** A module without its whole-line comments (// … and /** … *\/), which the reader never sees. */
const withoutComments = (source) => source.replace(/^[ \t]*\/\*\*[\s\S]*?\*\/\n|^[ \t]*\/\/.*\n/gm, '');

/** The CSP source of `text`: 'sha256-…' of its UTF-8 bytes, as the browser hashes an inline element. */
async function sha256(text) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}
