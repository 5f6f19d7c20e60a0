// The report of one transcript (DESIGN §7 `stabilize --json`), the unit that goldens, annotations
// and summaries are made from.
import type { CachePrefixSummary } from '../cache/prefix.js';
import type { RetentionReport } from '../retention/index.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { CheckResult } from '../validate/types.js';

export interface TranscriptReport extends StabilizeResult {
  checks: CheckResult[];
  /**
   * The prompt-cache prefix replay (src/core/cache/prefix.ts): present only when it was computed
   * (`check --cache-report`, or `checks.cache_prefix` enabled). Goldens leave it out.
   */
  cache_prefix?: CachePrefixSummary;
  /**
   * The `retention` replay (src/core/retention): present when the check ran (on unless
   * `checks.retention: off`). Its violations are the `retention` check's; goldens leave this out.
   */
  retention?: RetentionReport;
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

/**
 * A check fails the run when its severity is `error` and it found a violation that is not a warning
 * of its own (a `fresh_results` excerpt is a warning whatever the check's severity).
 */
export function failingChecks(checks: readonly CheckResult[]): CheckResult[] {
  return checks.filter((c) => c.severity === 'error' && c.violations.some((v) => v.severity !== 'warning'));
}
