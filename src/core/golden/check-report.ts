// The machine report of `check` (`--report out.json`) and of `merge`: everything a later step
// needs (annotations, job summary, the merge of shard reports) without rerunning the check.
// Serialized with stableStringify, so two runs over the same inputs give the same bytes.
import type { RetentionReport } from '../retention/index.js';
import type { CachePrefixSummary } from '../cache/prefix.js';
import type { Diagnostic } from '../types.js';
import type { GoldenDiff } from './diff.js';
import type { PolicyImpact } from './impact.js';
import type { SessionPicture } from './picture.js';
import { stableStringify } from './stable-json.js';

export const CHECK_REPORT_SCHEMA = 1;

export type Outcome = 'pass' | 'drift' | 'new' | 'violations' | 'error';

export interface ReportViolation {
  check: string;
  severity: string;
  id: string;
  line: number;
  /** 1-based column of the artifact; absent for findings about the whole file. */
  column?: number;
  message: string;
}

export interface TranscriptOutcome {
  /** Repo-relative, '/'-separated. */
  transcript: string;
  /**
   * The run a session of a multi-run file stands for (an OpenHands row's `instance_id`, `issue 5`),
   * when it is a plain identifier: `check` prints it beside the name. Additive (issue 31).
   */
  session_label?: string;
  /** The golden's path as goldenPathFor gives it ('' when the transcript path was rejected). */
  golden: string;
  outcome: Outcome;
  /**
   * The severity of `checks.drift` for a drifted transcript: `warning` reports the drift without
   * failing the run (with `off` nothing is compared, so no transcript drifts).
   */
  drift_severity?: 'error' | 'warning';
  status?: string;
  budget?: { limit: number; used: number };
  violations: ReportViolation[];
  diff?: GoldenDiff;
  unified?: string;
  /**
   * Said of a pass whose golden differs only in metadata (policy hash, tokenizer, token counts,
   * bookkeeping): e.g. `policy changed; this context is unchanged`. `update` refreshes the golden.
   */
  notes?: string[];
  /** The context at a glance: fates along the session, tokens by kind, largest consumers. */
  picture?: SessionPicture;
  diagnostics?: Diagnostic[];
  /** A golden was written by this run. */
  written?: boolean;
  impact?: PolicyImpact;
  /** The prompt-cache prefix replay of the head policy, when computed (docs/cache-prefix.md). */
  cache_prefix?: CachePrefixSummary;
  /** The retention replay of the head policy (docs/checks.md `retention`), unless the check is off. */
  retention?: RetentionReport;
}

export interface ReportSummary {
  checked: number;
  pass: number;
  drift: number;
  new: number;
  violations: number;
  errors: number;
  obsolete: number;
}

export interface CheckReport {
  schema_version: typeof CHECK_REPORT_SCHEMA;
  tool: { name: string; version: string };
  ci: boolean;
  policy: { source: string; hash: string };
  base_policy?: { source: string; hash: string };
  tokenizer: { name: string; version: string };
  shard: { index: number; total: number } | null;
  golden_dir: string;
  /** Every golden under golden_dir, sorted, in the form of TranscriptOutcome.golden. */
  golden_files: string[];
  /** Sorted by transcript. */
  transcripts: TranscriptOutcome[];
  /** null in a shard report: only `merge` (or an unsharded run) can tell a golden is obsolete. */
  obsolete: string[] | null;
  summary: ReportSummary;
}

export function summarize(
  transcripts: readonly TranscriptOutcome[],
  obsolete: readonly string[] | null,
): ReportSummary {
  const count = (outcome: Outcome): number => transcripts.filter((t) => t.outcome === outcome).length;
  return {
    checked: transcripts.length,
    pass: count('pass'),
    drift: count('drift'),
    new: count('new'),
    violations: count('violations'),
    errors: count('error'),
    obsolete: obsolete?.length ?? 0,
  };
}

/** Goldens no checked transcript claims, sorted. */
export function findObsolete(
  goldenFiles: readonly string[],
  transcripts: readonly TranscriptOutcome[],
): string[] {
  const claimed = new Set(transcripts.map((t) => t.golden));
  return [...new Set(goldenFiles)].filter((g) => !claimed.has(g)).sort();
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortOutcomes(transcripts: readonly TranscriptOutcome[]): TranscriptOutcome[] {
  return [...transcripts].sort((a, b) => compareText(a.transcript, b.transcript));
}

export type MergeResult = { ok: true; report: CheckReport } | { ok: false; reason: string };

function same(reports: readonly CheckReport[], pick: (r: CheckReport) => unknown): boolean {
  // Compared as stable JSON: reports read back from files need not keep their key order.
  const first = stableStringify(pick(reports[0] as CheckReport) ?? null);
  return reports.every((r) => stableStringify(pick(r) ?? null) === first);
}

/**
 * Combines the reports of every shard of one sharded run into the report an unsharded run over
 * the same inputs would have written: transcripts sorted, obsolete goldens computed from the
 * union of golden_files, summary recomputed. Rejects reports of different runs (schema version,
 * tool, CI mode, policy, base policy, tokenizer, golden folder or shard count differ), unsharded
 * reports, a shard given twice, a missing shard and a transcript reported by two shards.
 */
export function mergeReports(reports: readonly CheckReport[]): MergeResult {
  if (reports.length === 0) return { ok: false, reason: 'no reports to merge' };
  const badSchema = reports.findIndex((r) => r.schema_version !== CHECK_REPORT_SCHEMA);
  if (badSchema >= 0) {
    return {
      ok: false,
      reason: `report ${badSchema + 1} has schema version ${String(reports[badSchema]?.schema_version)}; this version merges schema ${CHECK_REPORT_SCHEMA}`,
    };
  }
  const unsharded = reports.findIndex((r) => r.shard === null);
  if (unsharded >= 0) return { ok: false, reason: `report ${unsharded + 1} is not a shard report (it has no shard)` };

  const mismatch: [string, (r: CheckReport) => unknown][] = [
    ['tool versions', (r) => r.tool],
    ['CI modes', (r) => r.ci],
    ['policies (the policy hashes differ)', (r) => r.policy.hash],
    ['base policies', (r) => r.base_policy?.hash ?? null],
    ['tokenizers', (r) => r.tokenizer],
    ['golden folders', (r) => r.golden_dir],
    ['shard counts', (r) => r.shard?.total],
  ];
  for (const [what, pick] of mismatch) {
    if (!same(reports, pick)) return { ok: false, reason: `the reports come from different runs: different ${what}` };
  }

  const sorted = [...reports].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  const total = sorted[0]?.shard?.total ?? 0;
  const seen = new Set<number>();
  for (const r of sorted) {
    const index = r.shard?.index ?? 0;
    if (seen.has(index)) return { ok: false, reason: `shard ${index}/${total} is given more than once` };
    seen.add(index);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${total}`).join(', ')} missing: merge needs every shard to tell which goldens are obsolete`,
    };
  }

  // Each transcript once: the name is not quoted (it comes from a file that may be crafted), the
  // shards that report it are.
  const reportedBy = new Map<string, number>();
  for (const r of sorted) {
    const index = r.shard?.index ?? 0;
    for (const t of r.transcripts) {
      const other = reportedBy.get(t.transcript);
      if (other !== undefined) {
        const where = other === index ? `shard ${index}/${total} twice` : `shards ${other}/${total} and ${index}/${total}`;
        return { ok: false, reason: `a transcript is reported by more than one shard or twice by one (${where})` };
      }
      reportedBy.set(t.transcript, index);
    }
  }
  const transcripts = sortOutcomes(sorted.flatMap((r) => r.transcripts));
  const goldenFiles = [...new Set(sorted.flatMap((r) => r.golden_files))].sort(compareText);
  const obsolete = findObsolete(goldenFiles, transcripts);
  const first = sorted[0] as CheckReport;
  const report: CheckReport = {
    schema_version: CHECK_REPORT_SCHEMA,
    tool: first.tool,
    ci: first.ci,
    policy: first.policy,
    ...(first.base_policy ? { base_policy: first.base_policy } : {}),
    tokenizer: first.tokenizer,
    shard: null,
    golden_dir: first.golden_dir,
    golden_files: goldenFiles,
    transcripts,
    obsolete,
    summary: summarize(transcripts, obsolete),
  };
  return { ok: true, report };
}

/**
 * Whether a transcript fails the check: unreadable, drifted, with violations at severity error,
 * or without a golden in CI (where nothing may be written).
 */
export function outcomeFails(o: TranscriptOutcome, ci: boolean): boolean {
  return (
    o.outcome === 'error' ||
    (o.outcome === 'drift' && o.drift_severity !== 'warning') ||
    o.outcome === 'violations' ||
    (o.outcome === 'new' && ci) ||
    o.violations.some((v) => v.severity === 'error')
  );
}

/**
 * 2 when any input could not be read or used (the run is incomplete), else 1 when any transcript
 * fails (outcomeFails), else 0. Obsolete goldens do not fail a check (as in Jest and Vitest);
 * `update --prune-obsolete` removes them.
 */
export function exitCodeFor(report: CheckReport): 0 | 1 | 2 {
  if (report.transcripts.some((o) => o.outcome === 'error')) return 2;
  return report.transcripts.some((o) => outcomeFails(o, report.ci)) ? 1 : 0;
}
