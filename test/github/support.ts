// Check reports for the GitHub surface tests, built with the golden tests' builders: a drift with
// a real semantic and unified diff, violations, a missing golden, an unreadable transcript.
import type { CheckReport, TranscriptOutcome } from '../../src/core/golden/check-report.js';
import { diffGoldens, unifiedGoldenDiff } from '../../src/core/golden/diff.js';
import { buildGolden } from '../../src/core/golden/golden.js';
import { policyImpact } from '../../src/core/golden/impact.js';
import type { PolicyImpact } from '../../src/core/golden/impact.js';
import { buildPicture } from '../../src/core/golden/picture.js';
import type { TranscriptReport } from '../../src/core/report/report.js';
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

/** The picture `check` puts in every outcome of a stabilized transcript. */
export function pictureOf(report: TranscriptReport): TranscriptOutcome['picture'] {
  return buildPicture(report.ledger, report.context, report.budget.limit);
}

/** A pass as `check` reports it (with its picture); `notes` for a golden that differs only in metadata. */
export function passOutcome(transcript: string, notes?: string[]): TranscriptOutcome {
  return outcome(transcript, 'pass', { picture: pictureOf(handReport()), ...(notes ? { notes } : {}) });
}

/** m2 goes from kept to dropped (budget), the pii check starts failing, the policy changed. */
export function driftOutcome(transcript: string, unifiedLines = 0): TranscriptOutcome {
  const meta = { transcript, policy: policy(), tokenizer: TOKENIZER };
  const before = buildGolden(handReport(), meta);
  const head = handReport({
    budget: { limit: 100, used: 10 },
    context: [item('m1', 1, 'hello there', 10)],
    ledger: [
      ledger('m1', 1, 'kept', 'in_budget', 10),
      ledger('m2', 2, 'dropped', 'budget', 20),
      ledger('m3', 3, 'dropped', 'budget', 90),
    ],
    checks: [checkResult('budget', 0), checkResult('pii', 1)],
  });
  const after = buildGolden(head, { ...meta, policy: policy({ budget: 10 }) });
  const golden = `golden/${transcript}.golden.json`;
  let unified = unifiedGoldenDiff(golden, stableStringify(before), stableStringify(after));
  // A long diff (a big golden that changed everywhere) for the size-limit tests.
  for (let i = 0; i < unifiedLines; i++) unified += `+  "padding ${i}": "${'x'.repeat(60)}",\n`;
  return outcome(transcript, 'drift', {
    budget: { limit: 100, used: 10 },
    picture: pictureOf(head),
    diff: diffGoldens(before, after),
    unified,
  });
}

export function violationsOutcome(
  transcript: string,
  message = 'an email address is in the context',
): TranscriptOutcome {
  return outcome(transcript, 'violations', {
    picture: pictureOf(handReport()),
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
      passOutcome('t/pass.jsonl'),
      driftOutcome('t/drift.jsonl'),
      outcome('t/new.jsonl', 'new', { written: !ci, picture: pictureOf(handReport()) }),
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

/** The impact of a policy edit on one transcript: the head policy drops m2 and fails the budget check. */
export function impactOf(transcript: string): PolicyImpact {
  return policyImpact(
    transcript,
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
}

/** A policy change review: the head policy drops m2 and makes the budget check fail. */
export function impactReport(): CheckReport {
  const report = checkReport([
    outcome('a.jsonl', 'pass', { impact: impactOf('a.jsonl') }),
    outcome('b.jsonl'),
  ]);
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
    transcripts.push(passOutcome(`t/pass-${String(i).padStart(5, '0')}-ünïcödé-日本.jsonl`));
  return checkReport(transcripts);
}

/**
 * The block of each transcript in a report surface, by the transcript named in its bold title
 * (`**name** — outcome …`): its lines up to the next title, group heading or the passes.
 */
export function blocks(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  let name: string | null = null;
  let body: string[] = [];
  let started = false;
  const flush = (): void => {
    if (name !== null) out.set(name, body.join('\n'));
    name = null;
    body = [];
  };
  for (const line of markdown.split('\n')) {
    // The headline (`**❌ 2 of 9 transcripts fail** — …`) comes before the first group.
    if (line.startsWith('### ')) started = true;
    if (!started) continue;
    const title = /^\*\*(.+?)\*\* — /.exec(line);
    if (
      title ||
      line.startsWith('### ') ||
      line.startsWith('<details><summary>✅') ||
      line.startsWith('✅ ')
    ) {
      flush();
      if (title) {
        name = title[1] ?? '';
        body = [line];
      }
      continue;
    }
    if (name !== null) body.push(line);
  }
  flush();
  return out;
}

/** The `### ` headings, in order. */
export function headings(markdown: string): string[] {
  return markdown.split('\n').filter((l) => l.startsWith('### '));
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
