// Rows, totals and the table of the decisions bench.
import { addCounts, emptyCounts } from './replay.js';
import type { Counts, Note, ReplayResult, Strategy, Target } from './replay.js';

export interface DecisionsRow {
  source: string;
  budget: number;
  target: Target;
  transcripts: number;
  /** Model calls of its transcripts, and those replayed (the newest MAX_CALLS of each). */
  total_calls: number;
  replayed: number;
  stabilizer: Counts;
  naive: Counts;
}

export interface DecisionsResults {
  seed: number;
  budgets: number[];
  corpus: string | null;
  seconds: number;
  rows: DecisionsRow[];
  /** Per budget and target, over the corpus recordings only. */
  totals: DecisionsRow[];
  notes: Note[];
  /** Transcripts whose replay was capped: file, calls, replayed. */
  capped: { file: string; calls: number; replayed: number }[];
}

/** Adds one transcript's replay to the row of its source, budget and target. */
export function addReplay(
  rows: DecisionsRow[],
  key: { source: string; budget: number; target: Target },
  r: ReplayResult,
): void {
  let row = rows.find((x) => x.source === key.source && x.budget === key.budget && x.target === key.target);
  if (!row) {
    row = {
      ...key,
      transcripts: 0,
      total_calls: 0,
      replayed: 0,
      stabilizer: emptyCounts(),
      naive: emptyCounts(),
    };
    rows.push(row);
  }
  row.transcripts++;
  row.total_calls += r.total_calls;
  row.replayed += r.replayed;
  addCounts(row.stabilizer, r.counts.stabilizer);
  addCounts(row.naive, r.counts.naive);
}

/** One total row per budget and target over `rows`. */
export function totalRows(rows: readonly DecisionsRow[], source: string): DecisionsRow[] {
  const out: DecisionsRow[] = [];
  for (const r of rows) {
    let total = out.find((x) => x.budget === r.budget && x.target === r.target);
    if (!total) {
      total = {
        source,
        budget: r.budget,
        target: r.target,
        transcripts: 0,
        total_calls: 0,
        replayed: 0,
        stabilizer: emptyCounts(),
        naive: emptyCounts(),
      };
      out.push(total);
    }
    total.transcripts += r.transcripts;
    total.total_calls += r.total_calls;
    total.replayed += r.replayed;
    addCounts(total.stabilizer, r.stabilizer);
    addCounts(total.naive, r.naive);
  }
  return out.sort((a, b) => a.budget - b.budget || a.target.localeCompare(b.target));
}

export function share(num: number, den: number): string {
  return den === 0 ? '—' : `${((num / den) * 100).toFixed(1)}%`;
}

export interface Metrics {
  fresh_whole: string;
  args_kept: string;
  prefix_reuse: string;
  over_budget: string;
  escalated_fits: string;
}

export function metrics(c: Counts): Metrics {
  return {
    fresh_whole: share(c.fresh_whole, c.fresh_calls),
    args_kept: share(c.args_kept, c.arg_values),
    prefix_reuse: share(c.prefix_sum, c.prefix_pairs),
    over_budget: String(c.over_budget),
    escalated_fits: String(c.escalated_fits),
  };
}

const HEAD = [
  'Source',
  'Budget',
  'Target',
  'Calls',
  'Open loops',
  'Fresh whole stab.',
  'naive',
  'Arg values',
  'Args kept stab.',
  'naive',
  'Prefix reuse stab.',
  'naive',
  'Over budget stab.',
  'naive',
  'Escalated, fits stab.',
  'naive',
];
const LEFT = 3;

function cells(r: DecisionsRow): string[] {
  const side = (s: Strategy): Metrics => metrics(r[s]);
  const [s, n] = [side('stabilizer'), side('naive')];
  return [
    r.source,
    String(r.budget),
    r.target,
    String(r.replayed),
    String(r.stabilizer.fresh_calls),
    s.fresh_whole,
    n.fresh_whole,
    String(r.stabilizer.arg_values),
    s.args_kept,
    n.args_kept,
    s.prefix_reuse,
    n.prefix_reuse,
    s.over_budget,
    n.over_budget,
    s.escalated_fits,
    n.escalated_fits,
  ];
}

/** The aligned markdown table: the rows, then the totals. */
export function decisionsTable(rows: readonly DecisionsRow[], totals: readonly DecisionsRow[]): string {
  const body = [...rows, ...totals].map(cells);
  const width = HEAD.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (c: readonly string[]): string =>
    `| ${c.map((x, i) => (i < LEFT ? x.padEnd(width[i] as number) : x.padStart(width[i] as number))).join(' | ')} |`;
  const rule = `| ${width.map((w, i) => (i < LEFT ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(HEAD), rule, ...body.map(line)].join('\n');
}

/** The notes grouped by file, kind, budget and target, with the calls they were seen at (first 8). */
export function notesText(notes: readonly Note[]): string {
  const groups = new Map<string, Note[]>();
  for (const n of notes) {
    const key = `${n.file} · ${n.what} · ${n.budget} ${n.target}`;
    const list = groups.get(key) ?? [];
    list.push(n);
    groups.set(key, list);
  }
  const out: string[] = [];
  for (const [key, list] of groups) {
    const at = list
      .slice(0, 8)
      .map((n) => `call ${n.call} (after ${n.id}, line ${n.line}: ${n.detail})`)
      .join('; ');
    out.push(`- ${key}: ${list.length} call(s): ${at}${list.length > 8 ? '; …' : ''}`);
  }
  return out.join('\n');
}
