// Plain-words descriptions shared by the text and markdown renderers, so both say the same thing
// the same way. Only ids, reason codes, counts and check names appear: never artifact content.
import { describeCacheImpact } from '../cache/describe.js';
import type { RetentionSummary } from '../retention/index.js';
import type { CheckReport, ReportSummary, ReportViolation } from './check-report.js';
import type { CheckChange, Fate, FateChange, GoldenDiff } from './diff.js';
import type { ImpactSide, PolicyImpact } from './impact.js';
import { isWarningDrift, totals } from './report-order.js';

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function describeFate(fate: Fate | null): string {
  return fate ? `${fate.action} (${fate.reason}, ${plural(fate.tokens, 'token')})` : 'absent';
}

export function describeFateChange(change: FateChange): string {
  return `${change.id} (line ${change.line}): ${describeFate(change.before)} → ${describeFate(change.after)}`;
}

function describeCheckState(state: CheckChange['before']): string {
  if (!state) return 'absent';
  return state.ok ? 'ok' : `failing (${plural(state.violations, 'violation')})`;
}

export function describeCheckChange(change: CheckChange): string {
  return `check ${change.name}: ${describeCheckState(change.before)} → ${describeCheckState(change.after)}`;
}

/** The semantic diff as lines, most telling first: cause, status, tokens, fates, content, checks. */
export function describeDiff(diff: GoldenDiff): string[] {
  const lines = diff.causes.map((cause) => `cause: ${cause}`);
  if (diff.status) lines.push(`status: ${diff.status.before} → ${diff.status.after}`);
  const t = diff.tokens;
  lines.push(`tokens: ${t.before} → ${t.after} (${signed(t.delta)})`);
  for (const change of diff.fates) lines.push(describeFateChange(change));
  for (const item of diff.contentChanged) lines.push(`${item.id} (line ${item.line}): content changed`);
  for (const change of diff.checks) lines.push(describeCheckChange(change));
  if (!diff.status && diff.fates.length === 0 && diff.contentChanged.length === 0 && diff.checks.length === 0) {
    lines.push('no artifact changed fate: the difference is in the order or details (see the unified diff)');
  }
  return lines;
}

function droppedTotal(side: ImpactSide): number {
  return Object.values(side.dropped).reduce((sum, n) => sum + n, 0);
}

/** `budget 0 → 2, duplicate 1 → 1`: every reason either side dropped for. */
export function describeDropped(impact: PolicyImpact): string[] {
  const reasons = [...new Set([...Object.keys(impact.base.dropped), ...Object.keys(impact.head.dropped)])].sort();
  return reasons.map((r) => `${r} ${impact.base.dropped[r] ?? 0} → ${impact.head.dropped[r] ?? 0}`);
}

export function describeImpact(impact: PolicyImpact): string[] {
  const { base, head } = impact;
  const lines = [
    `status: ${base.status} → ${head.status}`,
    `tokens: ${base.tokens} → ${head.tokens} (${signed(head.tokens - base.tokens)})`,
    `kept: ${base.kept} → ${head.kept}; masked: ${base.masked} → ${head.masked}; removed: ${droppedTotal(base)} → ${droppedTotal(head)}`,
  ];
  const dropped = describeDropped(impact);
  if (dropped.length > 0) lines.push(`removed by reason: ${dropped.join(', ')}`);
  if (impact.newlyFailing.length > 0) lines.push(`newly failing: ${impact.newlyFailing.join(', ')}`);
  if (impact.fixed.length > 0) lines.push(`fixed: ${impact.fixed.join(', ')}`);
  if (base.cache_prefix || head.cache_prefix) {
    lines.push(`prompt cache prefix: ${describeCacheImpact(base.cache_prefix, head.cache_prefix)}`);
  }
  if (base.facts_lost !== undefined || head.facts_lost !== undefined) {
    lines.push(`facts lost: ${describeFactsLost(base, head)}`);
  }
  return lines;
}

/**
 * `0 → 3`: the `retention` violations under the base and the head policy; `—` for a side whose
 * policy turns the check off (nothing was measured, which is not the same as nothing lost).
 */
export function describeFactsLost(base: ImpactSide, head: ImpactSide): string {
  return `${base.facts_lost ?? '—'} → ${head.facts_lost ?? '—'}`;
}

/**
 * `retention: 114 of 117 tool calls replayed, 241 facts, 3 lost`: the figures of the retention
 * replay, or undefined when no call was replayed (nothing to tell). Counts only: the lost values
 * are in the violations and the JSON report.
 */
export function describeRetention(r: RetentionSummary & { summary_findings?: number }): string | undefined {
  if (r.replayed === 0) return undefined;
  const summaries = r.summary_findings ? `; ${plural(r.summary_findings, 'fact')} lost by summaries` : '';
  return `retention: ${r.replayed} of ${plural(r.calls, 'tool call')} replayed, ${plural(r.facts, 'fact')}, ${r.lost} lost${summaries}`;
}

/** `line 7, column 3: error[pii] m4: message`: a violation where the transcript is already named. */
export function describeViolation(v: ReportViolation): string {
  const column = v.column !== undefined && v.column > 0 ? `, column ${v.column}` : '';
  return `line ${v.line}${column}: ${v.severity}[${v.check}] ${v.id}: ${v.message}`;
}

/** Said of a drift reported as a warning (`checks.drift: warning`). */
export const DRIFT_WARNING = 'drift reported as a warning (checks.drift: warning): it does not fail the run';

export function describeSummary(report: CheckReport): string {
  const s: ReportSummary = report.summary;
  const t = totals(report);
  const warnings = report.transcripts.filter(isWarningDrift).length;
  const parts = [
    `${t.violations} with violations`,
    `${t.drifted} drifted${warnings > 0 ? ` (${warnings} as ${warnings === 1 ? 'a warning' : 'warnings'})` : ''}`,
    `${t.new} new`,
    plural(t.errors, 'error'),
    `${t.passed} passed`,
  ];
  const obsolete =
    report.obsolete === null
      ? 'obsolete goldens are listed by `merge` in a sharded run'
      : plural(s.obsolete, 'obsolete golden');
  return `${plural(s.checked, 'transcript')} checked: ${parts.join(', ')}; ${obsolete}.`;
}
