// What the run found, by fail-on category, and whether that fails the job. `status` reports the
// findings whatever fail-on says (a nightly drift job with `fail-on: none` still branches on it);
// fail-on only decides whether the step goes red.
import type { CheckReport, TranscriptOutcome } from '../core/golden/check-report.js';
import type { ActionMode, FailCategory } from './inputs.js';
import { FAIL_CATEGORIES } from './inputs.js';

export type Findings = Record<FailCategory, number>;

export interface Verdict {
  status: 'pass' | 'fail';
  findings: Findings;
  /** The categories in fail-on with at least one finding: the job fails when non-empty. */
  failing: FailCategory[];
}

function hasErrorViolations(o: TranscriptOutcome): boolean {
  return o.outcome === 'violations' || o.violations.some((v) => v.severity === 'error');
}

/**
 * Transcripts per category. In update mode a drifted or new golden is what the run was asked to
 * write, not a finding; a golden it failed to write is an `error` outcome.
 */
export function findingsOf(report: CheckReport, mode: ActionMode): Findings {
  const count = (pick: (o: TranscriptOutcome) => boolean) => report.transcripts.filter(pick).length;
  const writes = mode === 'update';
  return {
    violations: count(hasErrorViolations),
    // A drift at severity warning is reported (annotations, summary) but is not a finding that fails.
    drift: writes ? 0 : count((o) => o.outcome === 'drift' && o.drift_severity !== 'warning'),
    new: writes ? 0 : count((o) => o.outcome === 'new' && o.written !== true),
    error: count((o) => o.outcome === 'error'),
  };
}

export function verdictOf(findings: Findings, failOn: readonly FailCategory[]): Verdict {
  const found = FAIL_CATEGORIES.filter((c) => findings[c] > 0);
  return {
    status: found.length > 0 ? 'fail' : 'pass',
    findings,
    failing: found.filter((c) => failOn.includes(c)),
  };
}

function transcripts(n: number): string {
  return `${n} transcript${n === 1 ? '' : 's'}`;
}

/** The verdict with one more `error` finding: an input or output of the run itself failed. */
export function withError(verdict: Verdict, failOn: readonly FailCategory[]): Verdict {
  return verdictOf({ ...verdict.findings, error: verdict.findings.error + 1 }, failOn);
}

const PHRASES: Record<FailCategory, (n: number) => string> = {
  violations: (n) => `${transcripts(n)} with violations`,
  drift: (n) => `${transcripts(n)} drifted from the golden`,
  new: (n) => `${transcripts(n)} without a golden (CI writes none: run update and commit)`,
  error: (n) => `${transcripts(n)} could not be checked`,
};

/** The setFailed message: counts only, never a transcript name (names may hold anything). */
export function failureMessage(verdict: Verdict, failOn: readonly FailCategory[]): string {
  const parts = verdict.failing.map((c) => PHRASES[c](verdict.findings[c]));
  return (
    `context-stability: ${parts.join('; ')} (fail-on: ${failOn.join(', ')}). ` +
    'See the annotations and the job summary.'
  );
}
