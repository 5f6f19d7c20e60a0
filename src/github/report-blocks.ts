// The blocks of the Markdown report surfaces (job summary, PR comment, `check --format markdown`)
// about one transcript or the policy review: what a reviewer reads first for a failing transcript
// (its budget bar and session map, its violations, the first changed artifact, what fills the
// budget, the command that accepts the change), and the policy impact table, narrow enough for a
// PR comment, with its totals and the full table collapsed. Every transcript-derived string goes
// through escapeText.
import { formatDiagnostic } from '../core/diagnostics.js';
import type { CheckReport, TranscriptOutcome } from '../core/golden/check-report.js';
import { DRIFT_WARNING, describeDiff, describeViolation } from '../core/golden/describe.js';
import { acceptCommand, describeConsumers, describeFirstChange } from '../core/golden/describe-outcome.js';
import type { PolicyImpact } from '../core/golden/impact.js';
import { budgetBar, mapCells, sessionMap } from '../core/golden/render-picture.js';
import { IMPACT_COLUMNS, cappedDiff, impactCells, outcomeCell } from '../core/golden/render-markdown.js';
import { isWarningDrift } from '../core/golden/report-order.js';
import { inertJson } from '../core/text/shown-name.js';
import { describeCacheImpact, describeCachePrefix } from '../core/cache/describe.js';
import { codeBlock, details, escapeText, tableHead, tableRow } from './html.js';

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
  if (o.outcome === 'new' && report.ci) {
    open.push('- no golden: in CI nothing is written; create it locally and commit it:');
  }
  const accept = acceptCommand(o, report.policy.source);
  if (accept) {
    const verb = o.outcome === 'new' ? 'write the golden' : 'accept the change';
    open.push(`- ${verb}: <code>${escapeText(accept)}</code>`);
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
  const said = [...(o.notes ?? []), ...(o.cache_prefix ? [describeCachePrefix(o.cache_prefix)] : [])];
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
    JSON.stringify([x.status, x.tokens, x.kept, x.masked, x.dropped, x.cache_prefix ?? null]);
  return side(i.base) !== side(i.head) || i.newlyFailing.length > 0 || i.fixed.length > 0;
}

/** Whether the impact table gets the prompt-cache column: the replay ran for some transcript. */
export function hasCacheColumn(impacts: readonly PolicyImpact[]): boolean {
  return impacts.some((i) => i.base.cache_prefix !== undefined || i.head.cache_prefix !== undefined);
}

function cacheCell(i: PolicyImpact): string {
  return describeCacheImpact(i.base.cache_prefix, i.head.cache_prefix);
}

/** The narrow impact table: one row per transcript (`withCache`: the prompt-cache column too). */
export function impactRow(i: PolicyImpact, withCache = false): string {
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
    ...(withCache ? [cacheCell(i)] : []),
    checks || '—',
  ]);
}

export const IMPACT_HEAD = tableHead([
  { title: 'Transcript' },
  { title: 'Tokens', right: true },
  { title: 'Removed', right: true },
  { title: 'Checks' },
]);

/** The narrow impact table's head with the prompt-cache column (before Checks). */
export const IMPACT_HEAD_CACHE = tableHead([
  { title: 'Transcript' },
  { title: 'Tokens', right: true },
  { title: 'Removed', right: true },
  { title: 'Prompt cache prefix' },
  { title: 'Checks' },
]);

/** The totals row of the impact table. */
export function impactTotals(impacts: readonly PolicyImpact[], withCache = false): string {
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
    ...(withCache ? [''] : []),
    `**${checks}**`,
  ]);
}

/** The full impact table (status, kept, masked, removed by reason), for the collapsed section. */
export const IMPACT_FULL_HEAD = tableHead(
  IMPACT_COLUMNS.map((title) => ({ title, right: ['Tokens', 'Kept', 'Masked'].includes(title) })),
);

/** The full impact table's head with the prompt-cache column (last). */
export const IMPACT_FULL_HEAD_CACHE = tableHead([
  ...IMPACT_COLUMNS.map((title) => ({ title, right: ['Tokens', 'Kept', 'Masked'].includes(title) })),
  { title: 'Prompt cache prefix' },
]);

export function impactFullRow(i: PolicyImpact, withCache = false): string {
  return tableRow([...impactCells(i, escapeText), ...(withCache ? [cacheCell(i)] : [])]);
}
