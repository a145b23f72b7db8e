// A page's own tools for the benchmark (bench/tasks/pagetools.json): each tool's data as a
// registerTool definition, as a page author would register it, with a `run` that reads its
// table. And the count of calls whose arguments the run invented.

const norm = (s) => String(s ?? '').trim().toLowerCase();

// Length in metres, mass in kilograms; temperatures apart.
const FACTORS = { km: 1000, mi: 1609.344, m: 1, ft: 0.3048, kg: 1, lb: 0.45359237 };
const KIND = { km: 'length', mi: 'length', m: 'length', ft: 'length', kg: 'mass', lb: 'mass' };
// What a model may write for a unit.
const UNIT_WORDS = {
  km: ['km', 'kilometer', 'kilometers', 'kilometre', 'kilometres', '公里', '千米'],
  mi: ['mi', 'mile', 'miles', '英里'],
  m: ['m', 'meter', 'meters', 'metre', 'metres', '米'],
  ft: ['ft', 'foot', 'feet', '英尺'],
  kg: ['kg', 'kilogram', 'kilograms', '公斤', '千克'],
  lb: ['lb', 'lbs', 'pound', 'pounds', '磅'],
  C: ['c', '°c', 'celsius', '摄氏度', '摄氏'],
  F: ['f', '°f', 'fahrenheit', '华氏度', '华氏'],
};
const unit = (s) => Object.keys(UNIT_WORDS).find((u) => UNIT_WORDS[u].includes(norm(s)));
const round = (x) => String(Math.round(x * 1000) / 1000);

function table({ param, rows }) {
  const keyed = Object.entries(rows).flatMap(([keys, text]) => keys.split('|').map((k) => [norm(k), text]));
  return (args) => {
    const given = norm(args?.[param]).replace(/^#/, '');
    const hit = keyed.find(([k]) => k === given);
    if (!hit) throw new Error(`no entry for ${param} "${args?.[param]}" (known: ${Object.keys(rows).map((k) => k.split('|')[0]).join(', ')})`);
    return hit[1];
  };
}

function convert() {
  return (args) => {
    const value = Number(args?.value);
    const [from, to] = [unit(args?.from), unit(args?.to)];
    if (!Number.isFinite(value)) throw new Error('value must be a number');
    if (!from || !to) throw new Error(`unknown unit (known: ${Object.keys(UNIT_WORDS).join(', ')})`);
    let out;
    if (from === 'C' || from === 'F' || to === 'C' || to === 'F') {
      if (!(from in { C: 1, F: 1 }) || !(to in { C: 1, F: 1 })) throw new Error(`cannot convert ${from} to ${to}`);
      out = from === to ? value : from === 'C' ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
    } else {
      if (KIND[from] !== KIND[to]) throw new Error(`cannot convert ${from} to ${to}`);
      out = (value * FACTORS[from]) / FACTORS[to];
    }
    return `${value} ${from} = ${round(out)} ${to}`;
  };
}

function rate({ rates }) {
  return (args) => {
    const [base, quote] = [String(args?.base ?? '').trim().toUpperCase(), String(args?.quote ?? '').trim().toUpperCase()];
    const direct = rates[`${base}/${quote}`];
    const inverse = rates[`${quote}/${base}`];
    const r = direct ?? (inverse ? 1 / inverse : undefined);
    if (r == null) throw new Error(`no rate for ${base}/${quote} (known: ${Object.keys(rates).join(', ')})`);
    return `1 ${base} = ${round(r)} ${quote}`;
  };
}

const RUNNERS = { table, convert, rate };

/** The registerTool definitions of a task file's `tools`. */
export function pageTools(data) {
  return (data.tools ?? []).map(({ run, ...def }) => {
    const make = RUNNERS[run.kind];
    if (!make) throw new Error(`${def.name}: unknown run kind ${run.kind}`);
    return { ...def, run: make(run) };
  });
}

/**
 * Calls of a page tool that the task's question is not for (`task.tools`): its input could only
 * be made up (the 0.5B model sent the order lookup "1234567890" for a weather question).
 */
export function inventedCalls(trace, pageToolNames, taskTools = []) {
  return (trace?.steps ?? []).filter((step) => {
    const tool = step.call?.tool;
    return tool && pageToolNames.includes(tool) && !taskTools.includes(tool);
  }).length;
}
