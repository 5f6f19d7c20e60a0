// The report of one transcript (DESIGN §7 `stabilize --json`), the unit that goldens, annotations
// and summaries are made from.
import type { CachePrefixSummary } from '../cache/prefix.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { CheckResult } from '../validate/types.js';

export interface TranscriptReport extends StabilizeResult {
  checks: CheckResult[];
  /**
   * The prompt-cache prefix replay (src/core/cache/prefix.ts): present only when it was computed
   * (`check --cache-report`, or `checks.cache_prefix` enabled). Goldens leave it out.
   */
  cache_prefix?: CachePrefixSummary;
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
