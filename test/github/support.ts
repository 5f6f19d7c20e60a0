// Check reports for the GitHub surface tests, built with the golden tests' builders: a drift with
// a real semantic and unified diff, violations, a missing golden, an unreadable transcript.
import type { CheckReport, TranscriptOutcome } from '../../src/core/golden/check-report.js';
import { diffGoldens, unifiedGoldenDiff } from '../../src/core/golden/diff.js';
import { buildGolden } from '../../src/core/golden/golden.js';
import { policyImpact } from '../../src/core/golden/impact.js';
import { stableStringify } from '../../src/core/golden/stable-json.js';
import {
  TOKENIZER,
  checkReport,
  checkResult,
  handReport,
  item,
  ledger,
  outcome,
  policy,
} from '../core/golden/support.js';

export { checkReport, outcome };

/** m2 goes from kept to dropped (budget), the pii check starts failing, the policy changed. */
export function driftOutcome(transcript: string, unifiedLines = 0): TranscriptOutcome {
  const meta = { transcript, policy: policy(), tokenizer: TOKENIZER };
  const before = buildGolden(handReport(), meta);
  const after = buildGolden(
    handReport({
      budget: { limit: 100, used: 10 },
      context: [item('m1', 1, 'hello there', 10)],
      ledger: [
        ledger('m1', 1, 'kept', 'in_budget', 10),
        ledger('m2', 2, 'dropped', 'budget', 20),
        ledger('m3', 3, 'dropped', 'budget', 90),
      ],
      checks: [checkResult('budget', 0), checkResult('pii', 1)],
    }),
    { ...meta, policy: policy({ budget: 10 }) },
  );
  const golden = `golden/${transcript}.golden.json`;
  let unified = unifiedGoldenDiff(golden, stableStringify(before), stableStringify(after));
  // A long diff (a big golden that changed everywhere) for the size-limit tests.
  for (let i = 0; i < unifiedLines; i++) unified += `+  "padding ${i}": "${'x'.repeat(60)}",\n`;
  return outcome(transcript, 'drift', {
    budget: { limit: 100, used: 10 },
    diff: diffGoldens(before, after),
    unified,
  });
}

export function violationsOutcome(
  transcript: string,
  message = 'an email address is in the context',
): TranscriptOutcome {
  return outcome(transcript, 'violations', {
    violations: [
      { check: 'pii', severity: 'error', id: 'm4', line: 7, message },
      { check: 'order', severity: 'warning', id: 'm5', line: 9, message: 'out of chronological order' },
    ],
  });
}

export function errorOutcome(transcript: string): TranscriptOutcome {
  return outcome(transcript, 'error', {
    status: undefined,
    budget: undefined,
    diagnostics: [
      {
        severity: 'error',
        code: 'json-syntax',
        file: transcript,
        line: 3,
        column: 5,
        message: 'Unexpected character.',
        hint: 'Fix the JSON.',
      },
    ],
  });
}

/** pass, drift, new, violations and error, plus one obsolete golden. */
export function sampleReport(ci = false): CheckReport {
  return checkReport(
    [
      outcome('t/pass.jsonl'),
      driftOutcome('t/drift.jsonl'),
      outcome('t/new.jsonl', 'new', { written: !ci }),
      violationsOutcome('t/pii.jsonl'),
      errorOutcome('t/broken.jsonl'),
    ],
    {
      goldenFiles: [
        'golden/t/pass.jsonl.golden.json',
        'golden/t/drift.jsonl.golden.json',
        'golden/t/gone.jsonl.golden.json',
      ],
      ci,
    },
  );
}

/** A policy change review: the head policy drops m2 and makes the budget check fail. */
export function impactReport(): CheckReport {
  const impact = policyImpact(
    'a.jsonl',
    handReport(),
    handReport({
      budget: { limit: 100, used: 10 },
      ledger: [
        ledger('m1', 1, 'kept', 'in_budget', 10),
        ledger('m2', 2, 'dropped', 'budget', 20),
        ledger('m3', 3, 'dropped', 'budget', 90),
      ],
      checks: [checkResult('budget', 2)],
    }),
  );
  const report = checkReport([outcome('a.jsonl', 'pass', { impact }), outcome('b.jsonl')]);
  return {
    ...report,
    base_policy: { source: 'git-ref:origin/main:.github/context-policy.yml', hash: 'fedcba9876543210' },
  };
}

/** A report far over any limit: `failing` drifts with long unified diffs and `passing` passes. */
export function hugeReport(failing: number, passing: number, unifiedLines: number): CheckReport {
  const transcripts: TranscriptOutcome[] = [];
  for (let i = 0; i < failing; i++)
    transcripts.push(driftOutcome(`t/drift-${String(i).padStart(5, '0')}.jsonl`, unifiedLines));
  for (let i = 0; i < passing; i++)
    transcripts.push(outcome(`t/pass-${String(i).padStart(5, '0')}-ünïcödé-日本.jsonl`));
  return checkReport(transcripts);
}

/** Lines that are a markdown table row. */
export function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((l) => l.startsWith('| '));
}

/** Cells of a table row, split at the unescaped pipes only. */
export function cells(row: string): string[] {
  return row
    .replace(/^\| | \|$/g, '')
    .split(' | ')
    .map((c) => c.trim());
}
