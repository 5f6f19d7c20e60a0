// The adapter-cost section's results (the JSON of --out) and its markdown tables.
import type { HotSpot } from '../profile.js';
import type { ChildFigures, ImportResults, ImportRow } from './imports.js';
import { ADAPTERS, AI_SDK_REBUILT, WARM_ROWS } from './names.js';
import type { WarmName } from './names.js';
import type { WarmRow } from './warm.js';

export interface AdapterProfile {
  adapter: WarmName;
  messages: number;
  calls: number;
  file: string;
  totalMs: number;
  self: HotSpot[];
  total: HotSpot[];
  /** Self time by folder or package (src/adapters, src/api, src/core/<x>, node_modules/<pkg>, V8). */
  areas: HotSpot[];
}

export interface AdapterCostResults {
  seed: number;
  node: string;
  platform: string;
  cpus: number;
  /** 1-minute load average when the section started: a busy machine moves every figure. */
  loadavg: number;
  /** o200k table loaded in the warm process before the warm rows (once per process). */
  tokenizerLoadMs: number;
  sizes: number[];
  imports?: ImportResults;
  warm: WarmRow[];
  profiles?: AdapterProfile[];
}

export const GOALS = { importMs: 250, firstCallMs: 150, warmMs: 10, warmAt: 1000 } as const;

const f = (ms: number | undefined): string =>
  ms === undefined || Number.isNaN(ms) ? 'n/a' : ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
const verdict = (ok: boolean): string => (ok ? 'met' : 'missed');
const count = (n: number): string => n.toLocaleString('en-US');

/** The child the goals judge: with the framework loaded first when the adapter has one. */
export function judged(row: ImportRow): ChildFigures {
  return row.preloaded ?? row.cold;
}

function importCells(row: ImportRow | undefined): string[] {
  if (!row) return ['not run', 'not run', 'not run'];
  const j = judged(row);
  const imp = j.importMs;
  const first = j.firstCallMs;
  return [
    imp === undefined ? 'n/a' : `${f(imp)} ms, ${verdict(imp <= GOALS.importMs)}`,
    row.preloaded ? `${f(row.cold.importMs)} ms` : '(same)',
    first === undefined ? 'n/a' : `${f(first)} ms, ${verdict(first <= GOALS.firstCallMs)}`,
  ];
}

function warmCell(row: WarmRow | undefined): string {
  if (!row) return 'not run';
  const cell = `${f(row.medianMs)} / ${f(row.p90Ms)} ms`;
  return row.messages === GOALS.warmAt ? `${cell}, ${verdict(row.medianMs <= GOALS.warmMs)}` : cell;
}

export function adapterCostTable(r: AdapterCostResults): string {
  const sizes = r.sizes;
  const head = [
    'adapter',
    `import, framework loaded (≤ ${GOALS.importMs} ms)`,
    'import, nothing loaded',
    `first call after import (≤ ${GOALS.firstCallMs} ms)`,
    ...sizes.map(
      (n) =>
        `warm call at ${count(n)} msgs, median / p90${n === GOALS.warmAt ? ` (≤ ${GOALS.warmMs} ms)` : ''}`,
    ),
  ];
  const lines = [
    `Cost of a call through each adapter (seed ${r.seed}; ${r.node}, ${r.platform}, ${r.cpus} cores, load ${r.loadavg.toFixed(1)} at start; budget 8,000)`,
    '',
    `| ${head.join(' | ')} |`,
    `|---|${head
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  ];
  for (const adapter of WARM_ROWS) {
    const imp = r.imports?.rows.find((x) => x.adapter === adapter);
    const warm = sizes.map((n) => warmCell(r.warm.find((w) => w.adapter === adapter && w.messages === n)));
    const cells =
      adapter === AI_SDK_REBUILT ? ['(as ai-sdk)', '(as ai-sdk)', '(as ai-sdk)'] : importCells(imp);
    lines.push(`| ${adapter} | ${[...cells, ...warm].join(' | ')} |`);
  }
  lines.push('', ...notes(r));
  return lines.join('\n');
}

function notes(r: AdapterCostResults): string[] {
  const out: string[] = [];
  const im = r.imports;
  if (im) {
    out.push(
      `Import and first call: built package (build/), fresh \`node\` child per figure, median of ${im.runs} interleaved rounds. ` +
        `Import = \`await import('context-stability')\` + \`await import('context-stability/<adapter>')\` timed inside the child ` +
        `(node start-up excluded: a child that imports nothing takes ${f(im.baseline.processMs)} ms spawn to exit). ` +
        `"Framework loaded": ai, langchain or @openai/agents-core imported first, untimed. ` +
        `The first call is the first stabilize of a new session on the 100-message history, right after the import: ` +
        `it includes the policy, the masker and the o200k tokenizer table (that import alone: ${f(im.tokenizer.importMs)} ms in a child).`,
    );
  } else out.push('Import and first call: not run (--skip-import, or no build).');
  out.push(
    `Warm call: in-process over src/ (tsx), one session per adapter and size, each call adding 1–3 messages with the framework's ` +
      `message objects of earlier calls reused; median and p90 of ${r.warm
        .filter((w) => w.adapter === ADAPTERS[0])
        .map((w) => `${w.calls} calls at ${count(w.messages)}`)
        .join(
          ', ',
        )}, the session's first call left out (tokenizer load ${f(r.tokenizerLoadMs)} ms, once per process, also left out).`,
  );
  return out;
}

/** Process-level figures of the children: what a figure is made of on a busy machine. */
export function childTable(im: ImportResults): string {
  const lines = [
    '| adapter | child | spawn to exit | − node start-up | core import | subpath import | import CPU | first call | first call CPU | framework import |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const row = (adapter: string, child: string, c: ChildFigures): string =>
    `| ${adapter} | ${child} | ${f(c.processMs)} | ${f(c.processMs - im.baseline.processMs)} | ${f(c.coreMs)} | ${f(c.subpathMs)} | ${f(c.importCpuMs)} | ${f(c.firstCallMs)} | ${f(c.firstCallCpuMs)} | ${f(c.frameworkMs)} |`;
  lines.push(row('(none)', 'node start-up', im.baseline));
  lines.push(row('(o200k table)', 'tokenizer import', { ...im.tokenizer }));
  for (const r of im.rows) {
    lines.push(row(r.adapter, 'nothing loaded', r.cold));
    if (r.preloaded) lines.push(row(r.adapter, 'framework loaded', r.preloaded));
  }
  return lines.join('\n');
}

export function profileTables(p: AdapterProfile): string {
  const rows = (spots: readonly HotSpot[]) =>
    spots.map(
      (h) =>
        `| ${h.pct.toFixed(1)}% | ${h.ms.toFixed(0)} | \`${h.name}\` | ${h.where ? `\`${h.where}\`` : ''} |`,
    );
  return [
    `**${p.adapter}: ${p.calls} warm calls at ${count(p.messages)} messages, ${p.totalMs.toFixed(0)} ms sampled** (${p.file})`,
    '',
    '| inclusive % | ms | function | where |',
    '|---:|---:|---|---|',
    ...rows(p.total),
    '',
    '| self % | ms | function | where |',
    '|---:|---:|---|---|',
    ...rows(p.self),
    '',
    `Self time by area: ${p.areas
      .slice(0, 8)
      .map((a) => `${a.name} ${a.pct.toFixed(0)}%`)
      .join(', ')}.`,
  ].join('\n');
}
