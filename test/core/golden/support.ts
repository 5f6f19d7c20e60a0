// Builders for the golden tests: hand-made reports (every field under the test's control) and
// real ones from the stabilizer (a word-count tokenizer keeps token counts easy to reason about).
import {
  CHECK_REPORT_SCHEMA,
  findObsolete,
  sortOutcomes,
  summarize,
} from '../../../src/core/golden/check-report.js';
import type { CheckReport, Outcome, TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import { policyFromObject } from '../../../src/core/policy/index.js';
import type { Policy } from '../../../src/core/policy/index.js';
import { buildReport } from '../../../src/core/report/report.js';
import type { TranscriptReport } from '../../../src/core/report/report.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { ContextItem, LedgerEntry } from '../../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../../src/core/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import type { CheckResult } from '../../../src/core/validate/types.js';

export const words: Tokenizer = {
  name: 'words',
  version: '1',
  count: (text) => text.split(/\s+/).filter((w) => w.length > 0).length,
};

export const TOKENIZER = { name: 'gpt-tokenizer', version: '4.0.0' };

export function policy(overrides: Record<string, unknown> = {}): Policy {
  const parsed = policyFromObject({ message_overhead: 0, ...overrides }, { file: 'policy.yml' });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  return parsed.policy;
}

/** The report `check` builds for a transcript: stabilize, validate, report. */
export function realReport(transcript: Transcript, p: Policy): TranscriptReport {
  const result = stabilizeTranscript(transcript, { policy: p, tokenizer: words });
  return buildReport(result, validateResult(transcript, result, { policy: p, tokenizer: words }));
}

export function ledger(id: string, line: number, action: LedgerEntry['action'], reason: string, tokens: number): LedgerEntry {
  return {
    id,
    stage: action === 'kept' || action === 'masked' ? 'budget' : 'dedup',
    action,
    reason,
    tokens_before: tokens,
    tokens_after: action === 'kept' || action === 'masked' ? tokens : 0,
    line,
  };
}

export function item(
  id: string,
  line: number,
  content: string,
  tokens: number,
  kind: ContextItem['kind'] = 'user',
): ContextItem {
  return { id, kind, tokens, content, line };
}

export function checkResult(name: string, violations: number, severity: CheckResult['severity'] = 'error'): CheckResult {
  return {
    name,
    ok: violations === 0,
    severity,
    violations: Array.from({ length: violations }, (_, i) => ({ id: `m${i}`, line: i + 1, message: `violation ${i}` })),
  };
}

/** A small hand-made report: m1 and m2 kept, m3 dropped for the budget, all checks ok. */
export function handReport(overrides: Partial<TranscriptReport> = {}): TranscriptReport {
  return {
    transcript: 'ignored/by/golden.jsonl',
    status: 'ok',
    budget: { limit: 100, used: 30 },
    context: [item('m1', 1, 'hello there', 10), item('m2', 2, 'general kenobi', 20)],
    ledger: [ledger('m1', 1, 'kept', 'in_budget', 10), ledger('m2', 2, 'kept', 'in_budget', 20), ledger('m3', 3, 'dropped', 'budget', 90)],
    summaries: [],
    checks: [checkResult('budget', 0), checkResult('pii', 0)],
    events: [{ level: 'major', code: 'budget_drop', message: 'dropped 1 artifact' }],
    ...overrides,
  };
}

/** One transcript's outcome as `check` would report it (golden path from the transcript path). */
export function outcome(transcript: string, kind: Outcome = 'pass', extra: Partial<TranscriptOutcome> = {}): TranscriptOutcome {
  return {
    transcript,
    golden: `golden/${transcript}.golden.json`,
    outcome: kind,
    status: 'ok',
    budget: { limit: 100, used: 30 },
    violations: [],
    ...extra,
  };
}

/** A check report around `transcripts`; unsharded (obsolete computed) unless a shard is given. */
export function checkReport(
  transcripts: TranscriptOutcome[],
  opts: { shard?: { index: number; total: number }; goldenFiles?: string[]; ci?: boolean } = {},
): CheckReport {
  const goldenFiles = [...(opts.goldenFiles ?? transcripts.map((o) => o.golden))].sort();
  const sorted = sortOutcomes(transcripts);
  const obsolete = opts.shard ? null : findObsolete(goldenFiles, sorted);
  return {
    schema_version: CHECK_REPORT_SCHEMA,
    tool: { name: 'context-stability', version: '0.1.0' },
    ci: opts.ci ?? false,
    policy: { source: '.github/context-policy.yml', hash: '0123456789abcdef' },
    tokenizer: TOKENIZER,
    shard: opts.shard ?? null,
    golden_dir: 'golden',
    golden_files: goldenFiles,
    transcripts: sorted,
    obsolete,
    summary: summarize(sorted, obsolete),
  };
}
