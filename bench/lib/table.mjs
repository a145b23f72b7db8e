// Markdown tables and small number helpers for the bench output.

/** A markdown table; `align` is a string of 'l'/'r' per column (default: all left). */
export function table(header, rows, align = '') {
  const cells = [header, ...rows].map((r) => r.map((c) => String(c ?? '')));
  const widths = header.map((_, i) => Math.max(3, ...cells.map((r) => r[i].length)));
  const pad = (s, i) => (align[i] === 'r' ? s.padStart(widths[i]) : s.padEnd(widths[i]));
  const line = (r) => `| ${r.map(pad).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (align[i] === 'r' ? '-'.repeat(w - 1) + ':' : '-'.repeat(w))).join(' | ')} |`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

export function median(values) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const fmt = {
  int: (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–'),
  dec: (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–'),
  kb: (bytes) => `${(bytes / 1024).toFixed(1)} KiB`,
  pct: (a, b) => (b ? `${((100 * a) / b).toFixed(0)}%` : '–'),
  secs: (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`,
};
