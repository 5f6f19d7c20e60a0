// Markdown tables of the PII benchmark: scores per detector, the goals, speed, and the shapes of
// the errors (never the values).

import type { CarrierKind } from './sample.js';
import { topShapes } from './score.js';
import type { ErrorShape, NegativeScores, Scores, TypeScore } from './score.js';

export const GOALS = { precision: 0.97, recall: 0.97, nonPiiMaskedPct: 1, mbps: 40 };

const KINDS: CarrierKind[] = ['prose', 'json', 'code', 'log'];

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

const ratio = (num: number, den: number) => (den === 0 ? undefined : num / den);
const fmt = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(3));
export const yes = (ok: boolean) => (ok ? 'yes' : '**no**');

export function precisionOf(s: TypeScore): number | undefined {
  return ratio(s.correct, s.predicted);
}
export function recallOf(s: TypeScore): number | undefined {
  return ratio(s.found, s.labelled);
}

/** Met when the detector has labels, finds enough and (when it predicts anything) is precise. */
function meets(s: TypeScore): { p: boolean; r: boolean } {
  const p = precisionOf(s);
  const r = recallOf(s);
  return { p: p === undefined || p >= GOALS.precision, r: r !== undefined && r >= GOALS.recall };
}

export function scoreTable(scores: Scores, types: readonly string[], withGoals: boolean): string {
  const rows = types.map((type) => {
    const s = scores.types.get(type) as TypeScore;
    const kinds = KINDS.map((k) => {
      const c = s.byKind.get(k);
      return c ? `${fmt(ratio(c.found, c.labelled))} (${c.labelled})` : '—';
    });
    const m = meets(s);
    const goal = withGoals ? [`${yes(m.p)} / ${yes(m.r)}`] : [];
    return [
      type,
      String(s.labelled),
      String(s.predicted),
      String(s.found),
      fmt(precisionOf(s)),
      fmt(recallOf(s)),
      fmt(ratio(s.exact, s.found)),
      fmt(ratio(s.covered, s.labelled)),
      ...kinds,
      ...goal,
    ];
  });
  const header = [
    'detector',
    'labelled',
    'predicted',
    'TP',
    'precision',
    'recall',
    'exact boundary',
    'masked (any type)',
  ];
  header.push(...KINDS.map((k) => `recall: ${k} (n)`));
  if (withGoals) header.push(`P ≥ ${GOALS.precision} / R ≥ ${GOALS.recall}`);
  return table(header, rows);
}

export interface GoalRow {
  goal: string;
  value: string;
  met: boolean;
}

export function worst(
  scores: Scores,
  types: readonly string[],
  of: (s: TypeScore) => number | undefined,
): { type: string; value: number | undefined } {
  let out: { type: string; value: number | undefined } = { type: '—', value: undefined };
  for (const t of types) {
    const v = of(scores.types.get(t) as TypeScore);
    if (v !== undefined && (out.value === undefined || v < out.value)) out = { type: t, value: v };
  }
  return out;
}

export function goalRows(
  scores: Scores,
  types: readonly string[],
  negatives: NegativeScores,
  mbps: number,
  denseMbps: number,
): GoalRow[] {
  const p = worst(scores, types, precisionOf);
  const r = worst(scores, types, recallOf);
  const failingP = types.filter((t) => !meets(scores.types.get(t) as TypeScore).p);
  const failingR = types.filter((t) => !meets(scores.types.get(t) as TypeScore).r);
  const pct = (negatives.masked / negatives.total) * 100;
  return [
    {
      goal: `precision ≥ ${GOALS.precision} on every default type`,
      value: `lowest ${fmt(p.value)} (${p.type})${failingP.length ? `; below: ${failingP.join(', ')}` : ''}`,
      met: failingP.length === 0,
    },
    {
      goal: `recall ≥ ${GOALS.recall} on every default type`,
      value: `lowest ${fmt(r.value)} (${r.type})${failingR.length ? `; below: ${failingR.join(', ')}` : ''}`,
      met: failingR.length === 0,
    },
    {
      goal: `non-PII strings masked ≤ ${GOALS.nonPiiMaskedPct}%`,
      value: `${negatives.masked} of ${negatives.total} (${pct.toFixed(2)}%)`,
      met: pct <= GOALS.nonPiiMaskedPct,
    },
    {
      goal: `scan ≥ ${GOALS.mbps} MB/s, the default policy's detectors (session texts)`,
      value: `${mbps.toFixed(1)} MB/s (the labelled set, PII in every text: ${denseMbps.toFixed(1)} MB/s)`,
      met: mbps >= GOALS.mbps,
    },
  ];
}

export function falsePositiveTable(errors: readonly ErrorShape[], limit: number): string {
  const rows = topShapes(errors, limit).map((g, i) => [
    String(i + 1),
    g.type,
    `\`${g.shape}\``,
    String(g.count),
    g.where,
  ]);
  return rows.length === 0
    ? '_none_'
    : table(['#', 'type', 'shape', 'count', 'where (template or family)'], rows);
}

export function missTable(misses: readonly ErrorShape[], types: readonly string[], perType: number): string {
  const rows: string[][] = [];
  for (const type of types) {
    const mine = misses.filter((m) => m.type === type);
    for (const g of topShapes(mine, perType)) {
      rows.push([type, `\`${g.shape}\``, String(g.count), g.predictedAs ?? '—', g.where]);
    }
  }
  return rows.length === 0
    ? '_none_'
    : table(['detector', 'missed shape', 'count', 'predicted as', 'where (template)'], rows);
}

/** Non-PII families with at least one string masked: strings masked of the family's, and matches by type. */
export function familyTable(negatives: NegativeScores): string {
  const byFamily = new Map<string, Map<string, number>>();
  for (const fp of negatives.falsePositives) {
    const m = byFamily.get(fp.where) ?? new Map<string, number>();
    byFamily.set(fp.where, m);
    m.set(fp.type, (m.get(fp.type) ?? 0) + 1);
  }
  const rows = [...byFamily.entries()]
    .map(([family, m]) => ({
      family,
      strings: negatives.byFamily.get(family) ?? { total: 0, masked: 0 },
      total: [...m.values()].reduce((a, b) => a + b, 0),
      m,
    }))
    .sort(
      (a, b) => b.strings.masked - a.strings.masked || b.total - a.total || (a.family < b.family ? -1 : 1),
    )
    .map(({ family, strings, total, m }) => [
      family,
      `${strings.masked} of ${strings.total}`,
      String(total),
      [...m.entries()].map(([t, n]) => `${t} ×${n}`).join(', '),
    ]);
  return rows.length === 0 ? '_none_' : table(['family', 'strings masked', 'matches', 'types'], rows);
}

/** Per default type, the templates below the recall goal (region suffixes merged), lowest first. */
export function templateRecallTable(scores: Scores, types: readonly string[]): string {
  const rows: string[][] = [];
  for (const type of types) {
    const templates = scores.byTemplate.get(type);
    if (!templates) continue;
    const below = [...templates.entries()]
      .map(([name, c]) => ({ name, ...c, r: c.found / c.labelled }))
      .filter((t) => t.r < GOALS.recall)
      .sort((a, b) => a.r - b.r || (a.name < b.name ? -1 : 1));
    for (const t of below) rows.push([type, t.name, String(t.labelled), fmt(t.r)]);
  }
  return rows.length === 0 ? '_none_' : table(['type', 'template', 'labelled', 'recall'], rows);
}
