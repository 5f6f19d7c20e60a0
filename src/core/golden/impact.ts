// Policy change review (`check --base-policy`): both policies run on the same transcript, and the
// difference is told in the terms a reviewer weighs — tokens, what stays, what goes and why, and
// which checks a policy edit breaks or fixes.
import { failingChecks } from '../report/report.js';
import type { TranscriptReport } from '../report/report.js';

export interface ImpactSide {
  status: string;
  /** Tokens of the stabilized context. */
  tokens: number;
  /** Artifacts kept verbatim. */
  kept: number;
  /** Artifacts kept with parts masked. */
  masked: number;
  /**
   * Artifacts whose content left the context: `dropped` ones by their reason (`budget`,
   * `scope_reset`…), the other removals by action (`deduplicated`, `expired`, `collapsed`,
   * `compressed`).
   */
  dropped: Record<string, number>;
  /** Checks that fail the run (violations at severity `error`), sorted. */
  failing: string[];
  /** Mean and lowest prompt-cache prefix share (docs/cache-prefix.md), when the replay ran. */
  cache_prefix?: { mean_share: number | null; min_share: number | null };
  /**
   * Facts the agent lost (the `retention` check's violations: values a call used that the context
   * at that call had lost, and what a summary dropped), when the check ran.
   */
  facts_lost?: number;
}

export interface PolicyImpact {
  transcript: string;
  base: ImpactSide;
  head: ImpactSide;
  /** Failing under the head policy, not under the base one. */
  newlyFailing: string[];
  /** Failing under the base policy, not under the head one. */
  fixed: string[];
}

export function impactSide(report: TranscriptReport): ImpactSide {
  let kept = 0;
  let masked = 0;
  const dropped: Record<string, number> = {};
  for (const entry of report.ledger) {
    if (entry.action === 'kept') kept++;
    else if (entry.action === 'masked') masked++;
    else {
      const key = entry.action === 'dropped' ? entry.reason : entry.action;
      dropped[key] = (dropped[key] ?? 0) + 1;
    }
  }
  const side: ImpactSide = {
    status: report.status,
    tokens: report.budget.used,
    kept,
    masked,
    dropped: sortKeys(dropped),
    failing: failingChecks(report.checks)
      .map((c) => c.name)
      .sort(),
  };
  const cache = report.cache_prefix;
  if (cache) side.cache_prefix = { mean_share: cache.mean_share, min_share: cache.min_share };
  const retention = report.checks.find((c) => c.name === 'retention');
  if (retention && retention.severity !== 'off') side.facts_lost = retention.violations.length;
  return side;
}

export function policyImpact(transcript: string, base: TranscriptReport, head: TranscriptReport): PolicyImpact {
  const b = impactSide(base);
  const h = impactSide(head);
  return {
    transcript,
    base: b,
    head: h,
    newlyFailing: h.failing.filter((name) => !b.failing.includes(name)),
    fixed: b.failing.filter((name) => !h.failing.includes(name)),
  };
}

function sortKeys(record: Record<string, number>): Record<string, number> {
  const sorted: Record<string, number> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key] ?? 0;
  return sorted;
}
