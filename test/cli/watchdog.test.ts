// The watchdog (issue 34): a transcript whose check never ends is stopped at the policy's
// `watchdog.max_seconds`, reported as error[timeout] (exit 2), and every other transcript is
// checked as it would be without it. A stage that never ends is simulated: evaluateTranscript
// spins, synchronously, on any transcript named `stuck…` but a first session (the way a quadratic
// or a catastrophic regex holds the thread).
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptOutcome } from '../../src/core/golden/check-report.js';
import type * as EvaluateModule from '../../src/cli/check/evaluate.js';
import { Deadline, TranscriptTimeout } from '../../src/cli/check/watchdog.js';
import { PII, TempRepo } from './check-support.js';

vi.mock('../../src/cli/check/evaluate.js', async (importOriginal) => {
  const real = await importOriginal<typeof EvaluateModule>();
  return {
    ...real,
    evaluateTranscript: (...args: Parameters<typeof real.evaluateTranscript>) => {
      // In an aider history, only its second session is stuck.
      if (args[1].includes('stuck') && !args[1].endsWith('#1')) spin();
      return real.evaluateTranscript(...args);
    },
  };
});

/** Never returns, and never yields the thread. */
function spin(): never {
  for (let i = 0; ; i = (i + 1) % 1_000_000) {
    if (i < 0) break;
  }
  throw new Error('unreachable');
}

function elapsed(since: number): number {
  return (performance.now() - since) / 1000;
}

describe('Deadline', () => {
  it('stops synchronous work at the deadline, and the thread goes on', () => {
    const started = performance.now();
    expect(() => new Deadline(0.3).run(spin)).toThrow(TranscriptTimeout);
    expect(elapsed(started)).toBeGreaterThanOrEqual(0.25);
    expect(elapsed(started)).toBeLessThan(5);
    expect(new Deadline(0.3).run(() => 42)).toBe(42);
  });

  it('stops a catastrophic regex', () => {
    const started = performance.now();
    expect(() => new Deadline(0.3).run(() => /(a+)+$/.test(`${'a'.repeat(40)}b`))).toThrow(TranscriptTimeout);
    expect(elapsed(started)).toBeLessThan(5);
  });

  it('passes other errors through, and times every segment against one deadline', () => {
    const deadline = new Deadline(0.3);
    expect(() =>
      deadline.run(() => {
        throw new RangeError('x');
      }),
    ).toThrow(RangeError);
    const started = performance.now();
    while (elapsed(started) < 0.35) {
      // Time passes outside any segment (I/O between them).
    }
    expect(() => deadline.run(() => 1)).toThrow(TranscriptTimeout);
  });

  it('0 seconds is no limit', () => {
    expect(new Deadline(0).run(() => 'done')).toBe('done');
  });
});

describe('check with a stuck transcript', () => {
  // The limit is elapsed time: the first run of a process also builds lazy tables (phone plans,
  // JIT), which on a busy machine can take a second. Paid here, without a limit.
  beforeAll(async () => {
    const warm = new TempRepo();
    warm.write('unlimited.yml', 'watchdog: { max_seconds: 0 }\n');
    await warm.cli(['check', '--ci', '--policy', 'unlimited.yml', 'transcripts']);
    warm.remove();
  });

  let repo: TempRepo;
  beforeEach(() => {
    repo = new TempRepo();
    repo.write(
      'watchdog.yml',
      `${readFileSync(repo.path('policy.yml'), 'utf8')}watchdog: { max_seconds: 1 }\n`,
    );
    repo.write('transcripts/stuck.jsonl', repo.read('transcripts/coding.jsonl'));
  });
  afterEach(() => {
    repo.remove();
  });

  function byName(outcomes: readonly TranscriptOutcome[]): Record<string, TranscriptOutcome> {
    return Object.fromEntries(outcomes.map((o) => [o.transcript, o]));
  }

  it('reports the stuck one as error[timeout] (exit 2), the others as without it', async () => {
    // The same repository without the stuck file: what the others' outcomes must be.
    const alone = await repo.checkJson([
      '--policy',
      'watchdog.yml',
      'transcripts/coding.jsonl',
      'transcripts/notes.jsonl',
      'transcripts/support.json',
    ]);
    expect(alone.run.code).toBe(0);
    repo.remove();
    repo = new TempRepo();
    repo.write(
      'watchdog.yml',
      `${readFileSync(repo.path('policy.yml'), 'utf8')}watchdog: { max_seconds: 1 }\n`,
    );
    repo.write('transcripts/stuck.jsonl', repo.read('transcripts/coding.jsonl'));

    const started = performance.now();
    const { run, report } = await repo.checkJson(['--policy', 'watchdog.yml', 'transcripts']);
    expect(elapsed(started)).toBeLessThan(10);
    expect(run.code).toBe(2);
    const outcomes = byName(report.transcripts);
    expect(outcomes['transcripts/stuck.jsonl']).toMatchObject({
      outcome: 'error',
      diagnostics: [
        {
          code: 'timeout',
          severity: 'error',
          file: 'transcripts/stuck.jsonl',
          line: 1,
          column: 1,
          message: expect.stringContaining('limit of 1 s (watchdog.max_seconds)'),
          hint: expect.stringContaining('raise watchdog.max_seconds'),
        },
      ],
    });
    expect(outcomes['transcripts/stuck.jsonl']!.diagnostics).toHaveLength(1);
    for (const other of alone.report.transcripts) expect(outcomes[other.transcript]).toEqual(other);
    // Nothing written for it: a later run checks it again.
    expect(Object.keys(repo.tree())).not.toContain('golden/transcripts/stuck.jsonl.golden.json');
    for (const value of PII) expect(run.stdout).not.toContain(value);
  });

  it('prints one line with file:line:column and what to do', async () => {
    const run = await repo.cli(['check', '--policy', 'watchdog.yml', 'transcripts']);
    expect(run.code).toBe(2);
    const text = run.stdout + run.stderr;
    expect(text).toMatch(/transcripts\/stuck\.jsonl:1:1: error\[timeout\]: .*limit of 1 s/);
    for (const value of PII) expect(text).not.toContain(value);
  });

  it('times each session of an aider history on its own: only the stuck session is stopped', async () => {
    const aider = readFileSync(
      new URL('../fixtures/readers/aider/two-sessions.aider.chat.history.md', import.meta.url),
      'utf8',
    );
    repo.write('chats/stuck-history.md', aider);
    const { run, report } = await repo.checkJson(['--policy', 'watchdog.yml', 'chats']);
    expect(run.code).toBe(2);
    const outcomes = byName(report.transcripts);
    expect(Object.keys(outcomes)).toEqual(['chats/stuck-history.md#1', 'chats/stuck-history.md#2']);
    expect(outcomes['chats/stuck-history.md#1']!.outcome).toBe('new');
    expect(outcomes['chats/stuck-history.md#2']!.diagnostics?.map((d) => d.code)).toEqual(['timeout']);
  });

  it('update writes every golden but the stuck one', async () => {
    const run = await repo.cli(['update', '--policy', 'watchdog.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(Object.keys(repo.tree()).sort()).toEqual([
      'golden/transcripts/coding.jsonl.golden.json',
      'golden/transcripts/notes.jsonl.golden.json',
      'golden/transcripts/support.json.golden.json',
    ]);
  });
});
