// The action on the contexts the checker used to call ok (issue 9): the step fails, with an
// error annotation naming the check at the transcript line and column that caused it; an escalated
// run fails the step; a drift at severity warning is a warning annotation and the step passes.
// The escalated run is the built bundle as a process; the others take the same steps in this
// process (runInProcess), stdout and stderr captured all the same.
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, byLevel, ensureDist, removeTempDirs, runDist, runInProcess } from './support.js';
import type { RunOptions, RunResult } from './support.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'broken-contexts');
const PII = ['rosa.quintero@example.net', '415 555 2671'];
const workspaces: string[] = [];

beforeAll(() => ensureDist());
afterAll(async () => {
  await removeTempDirs();
  const { rm } = await import('node:fs/promises');
  await Promise.all(workspaces.map((w) => rm(w, { recursive: true, force: true })));
});

async function workspace(transcript: string, policy?: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cs-action-broken-'));
  workspaces.push(dir);
  await mkdir(path.join(dir, 'transcripts'));
  await cp(path.join(FIXTURES, transcript), path.join(dir, 'transcripts', transcript));
  if (policy) await cp(path.join(FIXTURES, policy), path.join(dir, 'policy.yml'));
  else await writeFile(path.join(dir, 'policy.yml'), 'version: 1\n');
  return dir;
}

async function check(
  transcript: string,
  policy?: string,
  runner: (opts: RunOptions) => Promise<RunResult> = runInProcess,
) {
  const run = await runner({
    workspace: await workspace(transcript, policy),
    inputs: { transcripts: 'transcripts', policy: 'policy.yml', comment: 'false' },
  });
  for (const pii of PII) expect(run.stdout + run.stderr + run.summary).not.toContain(pii);
  return run;
}

describe('action: a broken context fails the step at the line that broke it', () => {
  it.each([
    // The task and latest request are kept now (issue 10): too little budget for what must be kept
    // is an escalation, red on budget where the budget went.
    ['task-dropped.jsonl', 'policy-small.yml', 'budget', 'u1', 2, 1],
    // Issue 27: at policy-small's 60 tokens the open loop is left out as the last resort (a
    // warning); below system, task and latest request (30 tokens) the run escalates, red on budget
    // at the largest of what must be kept (m5). The assistant-first request is repaired with a
    // placeholder user turn now (test/e2e/broken-contexts.test.ts), no longer a provider error.
    ['latest-request-dropped.json', 'policy-must-keep.yml', 'budget', 'm5', 35, 5],
    ['sidechain-only.jsonl', undefined, 'nonempty', '*', 1, 1],
    ['pii-thinking-document.json', undefined, 'pii', 'm1', 22, 5],
    // The optional check (checks.cache_prefix): the last call's request misses the prompt cache.
    ['cache-prefix-window.jsonl', 'policy-cache-prefix.yml', 'cache_prefix', 'u4', 8, 1],
    // Issue 28: the reservation id dropped before the call that uses it, at that call; a summary
    // that dropped the voucher id of the message it replaced, at that message; the open loop left
    // out, at the call that asked for it.
    ['retention-id-dropped.json', 'policy-retention.yml', 'retention', 'm10', 55, 5],
    ['summary-dropped-voucher.jsonl', 'policy-retention.yml', 'retention', 'u2', 4, 1],
    ['latest-request-dropped.json', 'policy-fresh-results.yml', 'fresh_results', 'm12', 96, 5],
  ] as const)('%s with %s: %s at %s', async (transcript, policy, check_, id, line, col) => {
    const run = await check(transcript, policy);
    expect(run.code).toBe(1);
    expect(run.outputs['status']).toBe('fail');
    expect(byLevel(run.log, 'error')).toContainEqual(
      expect.objectContaining({
        file: `transcripts/${transcript}`,
        line,
        col,
        title: `context-stability ${check_}: ${id}`,
      }),
    );
  });

  it('an escalated run fails the step through the status check', async () => {
    const run = await check('assistant-first.json', 'policy-escalate.yml', runDist);
    expect(run.code).toBe(1);
    expect(byLevel(run.log, 'error').map((a) => a.title)).toContainEqual(
      expect.stringMatching(/^context-stability status: /),
    );
  });
});

describe('action: drift severity', () => {
  it('a drift at severity warning is a warning annotation and the step passes', async () => {
    const dir = await workspace('task-dropped.jsonl');
    await writeFile(path.join(dir, 'policy.yml'), 'version: 1\n');
    const update = await runInProcess({
      workspace: dir,
      inputs: { mode: 'update', transcripts: 'transcripts', policy: 'policy.yml', comment: 'false' },
    });
    expect(update.code).toBe(0);
    // A budget that drops one short assistant turn: the context changes, every check still holds.
    await writeFile(path.join(dir, 'policy.yml'), 'version: 1\nbudget: 105\nchecks:\n  drift: warning\n');
    const run = await runInProcess({
      workspace: dir,
      inputs: { transcripts: 'transcripts', policy: 'policy.yml', comment: 'false' },
    });
    expect(run.code).toBe(0);
    expect(byLevel(run.log, 'error')).toEqual([]);
    expect(byLevel(run.log, 'warning')).toContainEqual(
      expect.objectContaining({
        file: 'transcripts/task-dropped.jsonl',
        line: 3,
        title: 'context-stability drift: a1',
      }),
    );
    expect(run.summary).toContain('### ⚠️ Drift reported as a warning (1)');
  });
});
