// The order in which the human renderings of a check report (text, markdown, GitHub commands, job
// summary, PR comment, annotations) list what broke: what a reviewer must see first comes first.
// Built on the one finding order (severity-order.ts). The JSON report keeps its own order (sorted
// by transcript path) because `merge` and byte-stable reports depend on it: only renderers reorder.
import { compareFindings } from '../report/severity-order.js';
import type { CheckReport, ReportViolation, TranscriptOutcome } from './check-report.js';

/** The severity of a drift: `warning` reports it without failing the run; anything else is an error. */
export function driftSeverity(o: TranscriptOutcome): 'error' | 'warning' {
  return o.drift_severity === 'warning' ? 'warning' : 'error';
}

/** A drift that is reported as a warning (`checks.drift: warning`): it does not fail the run. */
export function isWarningDrift(o: TranscriptOutcome): boolean {
  return o.outcome === 'drift' && driftSeverity(o) === 'warning';
}

/** The violations most severe first (compareFindings); equal ones keep their order. */
export function sortViolations(violations: readonly ReportViolation[]): ReportViolation[] {
  return [...violations].sort(compareFindings);
}

function mostSevere(o: TranscriptOutcome): ReportViolation | undefined {
  return sortViolations(o.violations)[0];
}

/**
 * The group a transcript is listed in: failing with violations (a violation at severity error,
 * or the `violations` outcome), then drift at error, then drift at warning, then unreadable input,
 * then missing goldens, then the rest (passes).
 */
export function listingGroup(o: TranscriptOutcome): number {
  if (o.outcome === 'violations' || o.violations.some((v) => v.severity === 'error')) return 0;
  if (o.outcome === 'drift') return driftSeverity(o) === 'error' ? 1 : 2;
  if (o.outcome === 'error') return 3;
  if (o.outcome === 'new') return 4;
  return 5;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** By listing group, then by the most severe violation (transcripts without one last), then by path. */
export function compareOutcomes(a: TranscriptOutcome, b: TranscriptOutcome): number {
  const group = listingGroup(a) - listingGroup(b);
  if (group !== 0) return group;
  const va = mostSevere(a);
  const vb = mostSevere(b);
  if (va && vb) {
    const byFinding = compareFindings(va, vb);
    if (byFinding !== 0) return byFinding;
  } else if (va || vb) {
    return va ? -1 : 1;
  }
  return compareText(a.transcript, b.transcript);
}

/**
 * The report as the human renderers list it: transcripts by compareOutcomes, the violations of
 * each most severe first. Everything else (summary, obsolete goldens) is unchanged; the report
 * given is not modified.
 */
export function displayOrder(report: CheckReport): CheckReport {
  const transcripts = report.transcripts
    .map((o) => (o.violations.length > 1 ? { ...o, violations: sortViolations(o.violations) } : o))
    .sort(compareOutcomes);
  return { ...report, transcripts };
}

/**
 * The order of annotations under GitHub's cap of 10 per level: level (error, warning, notice),
 * then the finding order, so that no leak or task violation is crowded out by drift.
 */
export function compareAnnotationRank(
  a: { level: string; check: string },
  b: { level: string; check: string },
): number {
  return compareFindings({ severity: a.level, check: a.check }, { severity: b.level, check: b.check });
}

export interface Totals {
  violations: number;
  drifted: number;
  new: number;
  errors: number;
  passed: number;
}

/**
 * Transcripts per group, as the reports list them (listingGroup): a drifted transcript with
 * violations at severity error counts under violations, as it is listed there.
 */
export function totals(report: CheckReport): Totals {
  const t: Totals = { violations: 0, drifted: 0, new: 0, errors: 0, passed: 0 };
  const keys: (keyof Totals)[] = ['violations', 'drifted', 'drifted', 'errors', 'new', 'passed'];
  for (const o of report.transcripts) t[keys[listingGroup(o)] ?? 'passed']++;
  return t;
}

