// End-to-end: `guardian` through the built CLI (bin/context-stability.js → build/), one process
// per call, as an agent host runs it. Run `npm run build` first (`npm test` does). Calls whose
// process boundary is not under test run in this process (runInProcess: src/cli/main.ts, same
// arguments and environment); in the recovery test they alternate with built processes, so each
// step reads what another process wrote, and every checkpoint killed mid-write is a process.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from './check-cli.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const BIN = path.join(REPO, 'bin/context-stability.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
let root: string;

function guardian(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, 'guardian', ...args],
      { cwd: dir, env: { ...process.env, CONTEXT_GUARDIAN_ROOT: root, ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        if (code === null) reject(error ?? new Error('the CLI did not exit normally'));
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The same call in this process (no node cold start); the root comes from the environment too. */
function guardianHere(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runInProcess(['guardian', ...args], dir, { CONTEXT_GUARDIAN_ROOT: root, ...env });
}

const lastLine = (r: Run) => r.stdout.trimEnd().split('\n').at(-1);

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'build/cli/commands/guardian.js'))) {
    throw new Error(
      'build/ has no guardian command: run `npm run build` before the e2e tests (`npm test` does).',
    );
  }
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'guardian-e2e-'));
  root = path.join(dir, 'task');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('guardian CLI (built)', () => {
  it('recovers across processes: what one process checkpoints, the next one resumes from', async () => {
    const init = await guardian(['ensure', '--goal', 'Fix the invoice bug']);
    expect([init.code, lastLine(init)]).toEqual([0, 'STATUS:OK']);
    const cp = await guardianHere([
      'checkpoint',
      '--next-action',
      'run test/invoice.test.ts',
      '--last-action-summary',
      'patched src/invoice.ts',
      '--outcome',
      'success',
      '--artifact',
      'src/invoice.ts',
    ]);
    expect([cp.code, lastLine(cp)]).toEqual([0, 'STATUS:OK']);

    const bundle = await guardian(['bundle']);
    expect(bundle.code).toBe(0);
    const json = JSON.parse(bundle.stdout.slice(0, bundle.stdout.lastIndexOf('STATUS:OK'))) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({
      goal: 'Fix the invoice bug',
      next_action: 'run test/invoice.test.ts',
      last_successful_action: 'patched src/invoice.ts',
      relevant_artifacts: ['src/invoice.ts', 'test/invoice.test.ts'],
    });
    const status = await guardianHere(['status', '--pressure', '0.2']);
    expect(status.stdout).toContain('turn 1');
  });

  it('signals with distinct exit codes: 3 missing state, 4 halt, 5 complete, 2 bad usage', async () => {
    expect((await guardianHere(['status'])).code).toBe(3);
    await guardianHere(['ensure']);
    const halt = await guardianHere(['status', '--pressure', '0.9']);
    expect([halt.code, lastLine(halt)]).toEqual([4, 'STATUS:HALT_CONTEXT_LIMIT']);
    const done = await guardianHere(['checkpoint', '--next-action', 'COMPLETE']);
    expect([done.code, lastLine(done)]).toEqual([5, 'STATUS:COMPLETE']);
    expect((await guardianHere(['status'], { CONTEXT_GUARDIAN_ROOT: '' })).code).toBe(2);
  });

  it('keeps the old state intact when a checkpoint is killed mid-write', async () => {
    await guardianHere(['ensure', '--goal', 'Survive kills']);
    // A multi-megabyte state, so that writing it takes a noticeable part of the process's life.
    const chunk = 'x'.repeat(19_000);
    const big = (tag: string) => ({
      append: { tool_outputs: Array.from({ length: 50 }, (_, k) => `${tag}-${k}-${chunk}`) },
    });
    for (const tag of ['a', 'b', 'c', 'd']) {
      await writeFile(path.join(dir, 'patch.json'), JSON.stringify(big(tag)));
      expect((await guardianHere(['checkpoint', '--file', 'patch.json', '--next-action', 'base'])).code).toBe(
        0,
      );
    }
    const baseline = path.join(dir, 'baseline');
    await cp(root, baseline, { recursive: true });
    await writeFile(path.join(dir, 'patch.json'), JSON.stringify({ ...big('new'), next_action: 'new' }));

    const run = (killAfterMs?: number) =>
      new Promise<number>((resolve) => {
        const started = Date.now();
        const child = spawn(process.execPath, [BIN, 'guardian', 'checkpoint', '--file', 'patch.json'], {
          cwd: dir,
          env: { ...process.env, CONTEXT_GUARDIAN_ROOT: root },
          stdio: 'ignore',
        });
        if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        child.on('exit', () => resolve(Date.now() - started));
      });
    const restore = async () => {
      await rm(root, { recursive: true, force: true });
      await cp(baseline, root, { recursive: true });
    };

    const full = await run();
    const kills = 8;
    for (let i = 0; i < kills; i++) {
      await restore();
      // From the middle of the run (startup done) to its very end: before, during and after the write.
      await run(Math.round(full * (0.5 + (0.5 * i) / (kills - 1))));
      const state = JSON.parse(await readFile(path.join(root, 'task-state.json'), 'utf8')) as {
        next_action: string;
      };
      expect(['base', 'new']).toContain(state.next_action);
      const status = await guardianHere(['status', '--pressure', '0.1']);
      expect(status.code).toBe(0);
    }

    // The next full checkpoint clears temp files killed writers left; ensure then repairs a stale summary.
    expect((await guardianHere(['checkpoint', '--next-action', 'verify'])).code).toBe(0);
    const names = [...(await readdir(root)), ...(await readdir(path.join(root, 'summaries')))];
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const ensure = await guardianHere(['ensure']);
    expect(ensure.stdout).toContain('summary: summaries/latest-summary.md (matches the state)');
  }, 120_000);
});
