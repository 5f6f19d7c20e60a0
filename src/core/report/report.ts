// The report of one transcript (DESIGN §7 `stabilize --json`), the unit that goldens, annotations
// and summaries are made from.
import type { StabilizeResult } from '../stabilize/types.js';
import type { CheckResult } from '../validate/types.js';

export interface TranscriptReport extends StabilizeResult {
  checks: CheckResult[];
}

export function buildReport(result: StabilizeResult, checks: CheckResult[]): TranscriptReport {
  const report: TranscriptReport = {
    transcript: result.transcript,
    status: result.status,
    budget: result.budget,
    context: result.context,
    ledger: result.ledger,
    summaries: result.summaries,
    checks,
    events: result.events,
  };
  // Only a run that made a compaction summary has the key: every other report keeps its shape.
  if (result.compaction) report.compaction = result.compaction;
  return report;
}

/** A check fails the run when it found violations and its severity is `error`. */
export function failingChecks(checks: readonly CheckResult[]): CheckResult[] {
  return checks.filter((c) => !c.ok && c.severity === 'error');
}
