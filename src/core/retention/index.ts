// The `retention` check as `check`, `update`, `stabilize` and the Action run it: the call-by-call
// replay (replay.ts) and the summary rule (summary.ts) over the final context, one check.
import type { RE2JS } from 're2js';
import { warningCheckSeverity } from '../policy/schema.js';
import type { Policy } from '../policy/schema.js';
import type { StabilizeMemo } from '../stabilize/memo.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { Transcript } from '../types.js';
import type { CheckResult } from '../validate/types.js';
import { retentionCheck } from './check.js';
import { replayRetention } from './replay.js';
import type { LostFact, RetentionSummary } from './replay.js';
import { checkSummaryRetention } from './summary.js';

export { lostFactMessage, retentionCheck } from './check.js';
export { MAX_RETENTION_CALLS, RETENTION_TAIL, replayRetention, toolCallPoints } from './replay.js';
export type { LostFact, RetentionReplay, RetentionSummary } from './replay.js';

/** What reports carry (`retention` of a transcript): the figures and each lost fact with both lines. */
export interface RetentionReport extends RetentionSummary {
  /** Facts the summaries in the final context lost (summary.ts); set whenever the check ran. */
  summary_findings?: number;
  lost_facts: LostFact[];
}

export interface RetentionRun {
  check: CheckResult;
  report: RetentionReport;
}

/**
 * The `retention` check of one transcript (`result` is its stabilization under `policy`), or
 * undefined when the policy turns it off. Replays at most `retention.max_calls` calls.
 */
export function runRetention(
  t: Transcript,
  result: StabilizeResult,
  opts: {
    policy: Policy;
    tokenizer: Tokenizer;
    rules?: readonly { name: string; re: RE2JS }[];
    piiKey?: string | undefined;
    memo?: StabilizeMemo | undefined;
  },
): RetentionRun | undefined {
  const severity = warningCheckSeverity(opts.policy, 'retention');
  if (severity === 'off') return undefined;
  const replay = replayRetention(t, { ...opts, maxCalls: opts.policy.retention?.max_calls });
  const findings = checkSummaryRetention(t, result, opts);
  return {
    check: retentionCheck(replay.lost, findings, severity),
    report: { ...replay.summary, summary_findings: findings.length, lost_facts: replay.lost },
  };
}
