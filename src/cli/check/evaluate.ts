// One transcript under one policy: stabilize → validate → report → golden, the pipeline whose
// output `check` compares with the stored golden and `update` writes.
import {
  cachePrefixCheck,
  cachePrefixMinShare,
  cachePrefixSeverity,
  replayCachePrefix,
} from '../../core/cache/prefix.js';
import type { ReportViolation } from '../../core/golden/check-report.js';
import { buildGoldenText } from '../../core/golden/golden.js';
import type { Golden } from '../../core/golden/golden.js';
import { buildReport } from '../../core/report/report.js';
import { runRetention } from '../../core/retention/index.js';
import type { TranscriptReport } from '../../core/report/report.js';
import type { TokenCache } from '../../core/stabilize/meter.js';
import { StabilizeMemo } from '../../core/stabilize/memo.js';
import { sanitizeForPolicy, stabilizeTranscript } from '../../core/stabilize/stabilize.js';
import type { Transcript } from '../../core/types.js';
import { BoundedTokenCache } from '../../core/tokens/bounded-cache.js';
import { validateResult } from '../../core/validate/validate.js';
import type { PolicySetup } from './policies.js';

export interface Evaluation {
  report: TranscriptReport;
  golden: Golden;
  /** The golden as it is written to disk. */
  text: string;
}

/**
 * Token counts keyed by text, one cache per tokenizer for one transcript: a base policy may name
 * another tokenizer, and a count under one encoding is wrong under the other. Each is bounded by
 * bytes, so one huge transcript cannot take the memory either.
 */
export class TokenCaches {
  private readonly byTokenizer = new Map<string, TokenCache>();

  for(tokenizer: string): TokenCache {
    let cache = this.byTokenizer.get(tokenizer);
    if (cache === undefined) {
      cache = new BoundedTokenCache();
      this.byTokenizer.set(tokenizer, cache);
    }
    return cache;
  }
}

/**
 * `transcript` is the repo-relative path the golden records. `cacheReport` also replays the
 * transcript for the prompt-cache prefix figure (docs/cache-prefix.md); a policy with
 * `checks.cache_prefix` on replays it anyway, and only then does the golden list the check.
 */
export function evaluateTranscript(
  loaded: Transcript,
  transcript: string,
  setup: PolicySetup,
  caches: TokenCaches,
  cacheReport = false,
): Evaluation {
  // One memo for the transcript under this policy: the retention replay stabilizes prefixes of the
  // same history, so each text is masked, counted and featured once for the run and every replay.
  const cache = caches.for(setup.tokenizer.name);
  const run = {
    policy: setup.policy,
    tokenizer: setup.tokenizer,
    rules: setup.rules,
    cache,
    memo: new StabilizeMemo(cache),
    piiKey: setup.piiKey,
  };
  // Lines are located in the transcript the result was made from: ids holding PII are aliases there.
  const shown = sanitizeForPolicy(loaded, setup.policy, setup.rules);
  const result = stabilizeTranscript(shown, run);
  const checks = validateResult(shown, result, run);
  const severity = cachePrefixSeverity(setup.policy);
  const replay =
    cacheReport || severity !== undefined
      ? replayCachePrefix(shown, {
          policy: setup.policy,
          tokenizer: setup.tokenizer,
          rules: setup.rules,
          piiKey: setup.piiKey,
        })
      : undefined;
  if (replay && severity !== undefined) {
    checks.push(cachePrefixCheck(replay.points, severity, cachePrefixMinShare(setup.policy)));
  }
  const retention = runRetention(shown, result, run);
  if (retention) checks.push(retention.check);
  const report = buildReport(result, checks);
  if (replay) report.cache_prefix = replay.summary;
  if (retention) report.retention = retention.report;
  const { golden, text } = buildGoldenText(report, {
    transcript,
    policy: setup.policy,
    tokenizer: { name: setup.tokenizer.name, version: setup.tokenizer.version },
  });
  return { report, golden, text };
}

/** Every violation of a check that is not off, with the check's severity (warnings do not fail). */
export function reportViolations(report: TranscriptReport): ReportViolation[] {
  return report.checks
    .filter((c) => !c.ok && c.severity !== 'off')
    .flatMap((c) =>
      c.violations.map((v) => ({
        check: c.name,
        severity: v.severity ?? c.severity,
        id: v.id,
        line: v.line,
        ...(v.column !== undefined ? { column: v.column } : {}),
        message: v.message,
      })),
    );
}
