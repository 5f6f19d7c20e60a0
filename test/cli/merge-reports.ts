// Shard reports for the `merge` tests on untrusted report files: two shards of one run whose
// transcripts use every field of the report contract (diff, picture, impact, cache prefix,
// retention, diagnostics, notes, unified diff), and the runner's view of a job log.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mergeCommand } from '../../src/cli/commands/merge.js';
import { CHECK_REPORT_SCHEMA, summarize } from '../../src/core/golden/check-report.js';
import type { CheckReport, TranscriptOutcome } from '../../src/core/golden/check-report.js';
import { stableStringify } from '../../src/core/golden/stable-json.js';
import { fakeIO } from './fake-io.js';

const SIDE = {
  status: 'warning',
  tokens: 1200,
  kept: 5,
  masked: 1,
  dropped: { budget: 2, deduplicated: 1 },
  failing: ['budget'],
  cache_prefix: { mean_share: 0.75, min_share: 0.25 },
  facts_lost: 1,
};

/** A transcript that fails with everything a report can say about it. */
export function richOutcome(transcript: string): TranscriptOutcome {
  return {
    transcript,
    session_label: 'run-7',
    golden: `golden/${transcript}.golden.json`,
    outcome: 'drift',
    drift_severity: 'error',
    status: 'warning',
    budget: { limit: 2000, used: 1770 },
    violations: [
      {
        check: 'pii',
        severity: 'error',
        id: 'm3',
        line: 3,
        column: 5,
        message: 'an email address is in the context',
      },
      { check: 'budget', severity: 'warning', id: 'm4', line: 4, message: 'over the soft budget' },
    ],
    diff: {
      equal: false,
      causes: ['policy changed'],
      metadata: ['policy changed', 'token counts'],
      first: { id: 'm2', line: 2 },
      status: { before: 'ok', after: 'warning' },
      tokens: { before: 1500, after: 1770, delta: 270 },
      fates: [
        { id: 'm2', line: 2, before: { action: 'kept', reason: 'fits', tokens: 40 }, after: null },
        { id: 'm5', line: 5, before: null, after: { action: 'dropped', reason: 'budget', tokens: 0 } },
      ],
      contentChanged: [{ id: 'm6', line: 6 }],
      checks: [{ name: 'pii', before: { ok: true, violations: 0 }, after: { ok: false, violations: 1 } }],
    },
    unified: `--- golden\n+++ now\n@@ -1,3 +1,3 @@\n   "id": "m2",\n-  "content": "old\\ttext"\n+  "content": "new text"\n`,
    notes: ['policy changed; this context is unchanged'],
    picture: {
      runs: [
        { fate: 'protected', count: 2, line: 1, id: 'm1', tokens: 300 },
        { fate: 'dropped', count: 3, line: 3, id: 'm3', tokens: 0 },
        { fate: 'kept', count: 2, line: 6, id: 'm6', tokens: 900 },
      ],
      by_kind: { user: 900, system: 300, assistant: 570 },
      consumers: [{ id: 'm6', kind: 'user', line: 6, tokens: 700, percent: 35 }],
    },
    diagnostics: [
      {
        severity: 'warning',
        code: 'unpaired-result',
        file: transcript,
        line: 7,
        column: 1,
        message: 'A tool result has no call.',
        hint: 'Record the call too.',
      },
    ],
    impact: { transcript, base: { ...SIDE, status: 'ok' }, head: SIDE, newlyFailing: ['budget'], fixed: [] },
    cache_prefix: {
      format: 'openai',
      calls: 4,
      replayed: 3,
      turns: 2,
      mean_share: 0.5,
      min_share: 0.1,
      lowest: { id: 'm5', line: 5, turn_id: 'm4', turn_line: 4 },
      reused_tokens: 800,
      sent_tokens: 1600,
    },
    retention: {
      calls: 2,
      replayed: 2,
      facts: 3,
      lost: 1,
      summary_findings: 0,
      lost_facts: [
        {
          value: 'build-42',
          needed: { id: 'm6', line: 6, column: 3, tool: 'deploy' },
          source: { id: 'm2', line: 2, kind: 'tool' },
          cause: 'dropped (budget)',
        },
      ],
    },
  };
}

function passing(transcript: string): TranscriptOutcome {
  return {
    transcript,
    golden: `golden/${transcript}.golden.json`,
    outcome: 'pass',
    status: 'ok',
    budget: { limit: 2000, used: 400 },
    violations: [],
  };
}

function shardReport(index: number, transcripts: TranscriptOutcome[]): CheckReport {
  return {
    schema_version: CHECK_REPORT_SCHEMA,
    tool: { name: 'context-stability', version: '1.0.0' },
    ci: true,
    policy: { source: 'policy.yml', hash: 'sha256:abc' },
    base_policy: { source: 'git-ref:origin/main:policy.yml', hash: 'sha256:def' },
    tokenizer: { name: 'gpt-tokenizer', version: '4.0.0' },
    shard: { index, total: 2 },
    golden_dir: 'golden',
    golden_files: [
      'golden/t/a.jsonl.golden.json',
      'golden/t/b.jsonl.golden.json',
      'golden/t/gone.jsonl.golden.json',
    ],
    transcripts,
    obsolete: null,
    summary: summarize(transcripts, null),
  };
}

/** Two valid shard reports of one run (a drift, a new golden, an error, passes). */
export function shardReports(): [CheckReport, CheckReport] {
  const error: TranscriptOutcome = {
    transcript: 't/broken.jsonl',
    golden: 'golden/t/broken.jsonl.golden.json',
    outcome: 'error',
    violations: [],
    diagnostics: [
      {
        severity: 'error',
        code: 'json-syntax',
        file: 't/broken.jsonl',
        line: 2,
        column: 9,
        message: 'Expected a value.',
        hint: 'Fix the JSON.',
      },
    ],
  };
  const fresh: TranscriptOutcome = { ...passing('t/c.jsonl'), outcome: 'new', written: false };
  // A deep copy: the tests edit what they get.
  return structuredClone([
    shardReport(1, [passing('t/a.jsonl'), richOutcome('t/d.jsonl'), error]),
    shardReport(2, [passing('t/b.jsonl'), fresh, richOutcome('t/e.jsonl')]),
  ]);
}

export function reportText(report: unknown): string {
  return stableStringify(report);
}

export interface MergeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A folder for report files. */
export function reportDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'cs-merge-'));
}

/** Writes `files` (name → text) into `dir` and runs `merge` on them in-process; exceptions propagate. */
export async function runMerge(
  dir: string,
  files: Record<string, string>,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<MergeRun> {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const io = fakeIO(dir, env);
  const code = await mergeCommand.run([...Object.keys(files), ...args], io);
  return { code, stdout: io.out(), stderr: io.err() };
}

/**
 * Lines of a job log that the GitHub runner would run as workflow commands: after trimming every
 * Unicode whitespace (.NET's, which also counts U+0085), a line that starts with `::`, or any line
 * holding `##[` (counted inside stop-commands blocks too). Lines inside a `::stop-commands::TOKEN`
 * block are not run, up to `::TOKEN::`. Our own annotations (`::error `, `::warning `, `::notice `
 * at the start of a line, outside a block) and the block markers are left out.
 */
export function runnerCommands(log: string): string[] {
  const found: string[] = [];
  let stopToken: string | null = null;
  for (const line of log.split(/\r\n|\r|\n/)) {
    // An annotation of ours is one command whatever its escaped properties and message hold.
    if (stopToken === null && /^::(error|warning|notice) /.test(line)) continue;
    if (line.includes('##[')) found.push(line);
    const trimmed = line.replace(/^[\s\u0085]+/, '').replace(/[\s\u0085]+$/, '');
    if (stopToken !== null) {
      if (trimmed === `::${stopToken}::`) stopToken = null;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(trimmed);
    if (stop) {
      stopToken = stop[1] ?? null;
      continue;
    }
    if (trimmed.startsWith('::')) found.push(line);
  }
  return found;
}
