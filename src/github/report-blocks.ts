// The blocks of the Markdown report surfaces (job summary, PR comment, `check --format markdown`)
// about one transcript or the policy review: what a reviewer reads first for a failing transcript
// (its budget bar and session map, its violations, the first changed artifact, what fills the
// budget, the command that accepts the change), and the policy impact table, narrow enough for a
// PR comment, with its totals and the full table collapsed; its optional columns (prompt cache
// prefix, facts lost) only when some transcript measured them. Every transcript-derived string goes
// through escapeText.
import { formatDiagnostic } from '../core/diagnostics.js';
import type { CheckReport, TranscriptOutcome } from '../core/golden/check-report.js';
import {
  DRIFT_WARNING,
  describeDiff,
  describeFactsLost,
  describeRetention,
  describeViolation,
} from '../core/golden/describe.js';
import { acceptCommand, describeConsumers, describeFirstChange } from '../core/golden/describe-outcome.js';
import type { PolicyImpact } from '../core/golden/impact.js';
import { budgetBar, mapCells, sessionMap } from '../core/golden/render-picture.js';
import { IMPACT_COLUMNS, cappedDiff, impactCells, outcomeCell } from '../core/golden/render-markdown.js';
import { isWarningDrift } from '../core/golden/report-order.js';
import { inertJson } from '../core/text/shown-name.js';
import { describeCacheImpact, describeCachePrefix } from '../core/cache/describe.js';
import { codeBlock, details, escapeCode, escapeText, tableHead, tableRow } from './html.js';

/** Violations listed in the open part of a transcript's block; the rest are in its details. */
export const VIOLATIONS_SHOWN = 5;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `-${-n}` : '±0';
}

/** `**path** — ❌ drift · 220 / 260 tokens`: the first line of a transcript's block. */
export function blockTitle(o: TranscriptOutcome, ci: boolean): string {
  const tokens = o.budget ? ` · ${o.budget.used} / ${o.budget.limit} tokens` : '';
  const status = o.status && o.status !== 'ok' ? ` · status ${escapeText(o.status)}` : '';
  const n = o.violations.length;
  const violations = n > 0 && o.outcome !== 'violations' ? ` · ${plural(n, 'violation')}` : '';
  return `**${escapeText(o.transcript)}** — ${outcomeCell(o, ci)}${violations}${tokens}${status}`;
}

/** The budget bar and the session map of a transcript, when it was stabilized. */
export function pictureLines(o: TranscriptOutcome): string[] {
  if (!o.budget) return [];
  const lines = [budgetBar(o.budget, o.picture), ''];
  if (o.picture) lines.push(...sessionMap(o.picture), '');
  return lines;
}

/**
 * The body of a failing transcript's block (or a drift warning's), below its title: picture,
 * violations, the first change, what fills the budget, the accept command, open; the semantic
 * diff, further violations and (with `unified`) the unified diff collapsed.
 */
export function outcomeBody(
  o: TranscriptOutcome,
  report: CheckReport,
  opts: { unified: boolean; fullReport: string },
): string[] {
  const open: string[] = [];
  for (const v of o.violations.slice(0, VIOLATIONS_SHOWN)) open.push(`- ${escapeText(describeViolation(v))}`);
  const rest = o.violations.length - VIOLATIONS_SHOWN;
  if (rest > 0) open.push(`- … ${plural(rest, 'more violation')} in the details below`);
  for (const d of o.diagnostics ?? []) open.push(`- ${escapeText(formatDiagnostic(d))}`);
  if (isWarningDrift(o)) open.push(`- ${escapeText(DRIFT_WARNING)}`);
  const first = describeFirstChange(o);
  if (first) open.push(`- ${escapeText(first)}`);
  if (o.diff && !o.diff.equal) {
    const t = o.diff.tokens;
    if (t.delta !== 0) open.push(`- tokens: ${t.before} → ${t.after} (${signed(t.delta)})`);
  }
  const consumers = describeConsumers(o);
  if (consumers) open.push(`- ${escapeText(consumers)}`);
  if (o.cache_prefix) open.push(`- ${escapeText(describeCachePrefix(o.cache_prefix))}`);
  const retention = o.retention ? describeRetention(o.retention) : undefined;
  if (retention) open.push(`- ${escapeText(retention)}`);
  if (o.outcome === 'new' && report.ci) {
    open.push('- no golden: in CI nothing is written; create it locally and commit it:');
  }
  const accept = acceptCommand(o, report.policy.source);
  if (accept) {
    const verb = o.outcome === 'new' ? 'write the golden' : 'accept the change';
    open.push(`- ${verb}: <code>${escapeCode(accept)}</code>`);
  }

  const hidden: string[] = [];
  for (const v of o.violations.slice(VIOLATIONS_SHOWN)) hidden.push(`- ${escapeText(describeViolation(v))}`);
  if (o.diff && !o.diff.equal) for (const line of describeDiff(o.diff)) hidden.push(`- ${escapeText(line)}`);
  if (opts.unified && o.unified) {
    // inertJson: a `##[` or `::` in an id must not become a workflow command when the Markdown goes to a log.
    hidden.push('', ...codeBlock(inertJson(cappedDiff(o.unified, opts.fullReport)), 'diff'));
  }
  const out = [...pictureLines(o), ...open, ''];
  if (hidden.length > 0) {
    const what = opts.unified && o.unified ? 'Semantic and unified diff' : 'Details';
    out.push(...details(what, hidden));
  }
  return out;
}

/** A passing transcript as a row of the collapsed table of passes. */
export function passRow(o: TranscriptOutcome): string {
  const tokens = o.budget ? `${o.budget.used} / ${o.budget.limit}` : '—';
  const map = o.picture && o.picture.runs.length > 0 ? mapCells(o.picture).cells : '—';
  // The retention figures only beside findings (a pass's warnings): retention runs by default.
  const retention = o.retention && o.violations.length > 0 ? describeRetention(o.retention) : undefined;
  const said = [
    ...(o.notes ?? []),
    ...(o.cache_prefix ? [describeCachePrefix(o.cache_prefix)] : []),
    ...(retention ? [retention] : []),
  ];
  const notes = said.map(escapeText).join('<br>') || '—';
  return tableRow([escapeText(o.transcript), tokens, map, notes]);
}

export const PASS_TABLE_HEAD = tableHead([
  { title: 'Transcript' },
  { title: 'Tokens (used / budget)', right: true },
  { title: 'Session map' },
  { title: 'Note' },
]);

function removed(side: PolicyImpact['base']): number {
  return Object.values(side.dropped).reduce((n, k) => n + k, 0);
}

/** Whether the edit changes anything the impact table counts for this transcript. */
export function impactChanged(i: PolicyImpact): boolean {
  const side = (x: PolicyImpact['base']): string =>
    JSON.stringify([
      x.status,
      x.tokens,
      x.kept,
      x.masked,
      x.dropped,
      x.cache_prefix ?? null,
      x.facts_lost ?? null,
    ]);
  return side(i.base) !== side(i.head) || i.newlyFailing.length > 0 || i.fixed.length > 0;
}

/** The optional columns of the impact tables: each only when some transcript measured it. */
export interface ImpactColumns {
  /** Prompt cache prefix: the replay ran (`--cache-report`, checks.cache_prefix). */
  cache: boolean;
  /** Facts lost: the `retention` check ran under either policy. */
  facts: boolean;
}

export const NO_IMPACT_COLUMNS: ImpactColumns = { cache: false, facts: false };

export function impactColumns(impacts: readonly PolicyImpact[]): ImpactColumns {
  const some = (has: (s: PolicyImpact['base']) => boolean): boolean =>
    impacts.some((i) => has(i.base) || has(i.head));
  return {
    cache: some((s) => s.cache_prefix !== undefined),
    facts: some((s) => s.facts_lost !== undefined),
  };
}

function cacheCell(i: PolicyImpact): string {
  return describeCacheImpact(i.base.cache_prefix, i.head.cache_prefix);
}

/** The optional cells of one transcript, in column order (prompt cache, then facts lost). */
function optionalCells(i: PolicyImpact, cols: ImpactColumns): string[] {
  return [...(cols.cache ? [cacheCell(i)] : []), ...(cols.facts ? [describeFactsLost(i.base, i.head)] : [])];
}

function optionalHeads(cols: ImpactColumns): { title: string; right?: boolean }[] {
  return [
    ...(cols.cache ? [{ title: 'Prompt cache prefix' }] : []),
    ...(cols.facts ? [{ title: 'Facts lost', right: true }] : []),
  ];
}

/** The narrow impact table: one row per transcript, the optional columns before Checks. */
export function impactRow(i: PolicyImpact, cols: ImpactColumns = NO_IMPACT_COLUMNS): string {
  const checks = [
    i.newlyFailing.length > 0 ? `❌ ${escapeText(i.newlyFailing.join(', '))}` : '',
    i.fixed.length > 0 ? `✅ ${escapeText(i.fixed.join(', '))}` : '',
  ]
    .filter((c) => c !== '')
    .join(' ');
  return tableRow([
    escapeText(i.transcript),
    `${i.base.tokens} → ${i.head.tokens} (${signed(i.head.tokens - i.base.tokens)})`,
    `${removed(i.base)} → ${removed(i.head)}`,
    ...optionalCells(i, cols),
    checks || '—',
  ]);
}

/** The narrow impact table's head (the optional columns before Checks). */
export function impactHead(cols: ImpactColumns = NO_IMPACT_COLUMNS): string[] {
  return tableHead([
    { title: 'Transcript' },
    { title: 'Tokens', right: true },
    { title: 'Removed', right: true },
    ...optionalHeads(cols),
    { title: 'Checks' },
  ]);
}

/** `base → head` summed over the transcripts that measured it; `—` for a side none did. */
function factsTotal(impacts: readonly PolicyImpact[]): string {
  const sum = (side: 'base' | 'head'): string => {
    const counts = impacts.flatMap((i) => (i[side].facts_lost === undefined ? [] : [i[side].facts_lost]));
    return counts.length === 0 ? '—' : String(counts.reduce((a, b) => a + b, 0));
  };
  return `**${sum('base')} → ${sum('head')}**`;
}

/** The totals row of the impact table (shares do not add up: the cache cell stays empty). */
export function impactTotals(
  impacts: readonly PolicyImpact[],
  cols: ImpactColumns = NO_IMPACT_COLUMNS,
): string {
  let base = 0;
  let head = 0;
  let removedBase = 0;
  let removedHead = 0;
  let newly = 0;
  let fixed = 0;
  let changed = 0;
  for (const i of impacts) {
    base += i.base.tokens;
    head += i.head.tokens;
    removedBase += removed(i.base);
    removedHead += removed(i.head);
    newly += i.newlyFailing.length > 0 ? 1 : 0;
    fixed += i.fixed.length > 0 ? 1 : 0;
    if (impactChanged(i)) changed++;
  }
  const checks = [`${newly} newly failing`, `${fixed} fixed`].join(', ');
  const unchanged = impacts.length - changed;
  return tableRow([
    `**Total: ${plural(impacts.length, 'transcript')}, ${changed} changed${unchanged > 0 ? ` (${unchanged} unchanged not listed)` : ''}**`,
    `**${base} → ${head} (${signed(head - base)})**`,
    `**${removedBase} → ${removedHead}**`,
    ...(cols.cache ? [''] : []),
    ...(cols.facts ? [factsTotal(impacts)] : []),
    `**${checks}**`,
  ]);
}

/** The full impact table's head (status, kept, masked, removed by reason; collapsed), optional columns last. */
export function impactFullHead(cols: ImpactColumns = NO_IMPACT_COLUMNS): string[] {
  return tableHead([
    ...IMPACT_COLUMNS.map((title) => ({ title, right: ['Tokens', 'Kept', 'Masked'].includes(title) })),
    ...optionalHeads(cols),
  ]);
}

export function impactFullRow(i: PolicyImpact, cols: ImpactColumns = NO_IMPACT_COLUMNS): string {
  return tableRow([...impactCells(i, escapeText), ...optionalCells(i, cols)]);
}
