// End-to-end: the latched halt across processes (issue 12 item 7): the built CLI sets the halt and
// sees the resume, calls in this process (runInProcess: src/cli/main.ts) see the halt and resume
// it, so each step reads what another process wrote. Run `npm run build` first (`npm test` does).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from './check-cli.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const BIN = path.join(REPO, 'bin/context-stability.js');

let dir: string;
let root: string;

function guardian(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, 'guardian', ...args],
      { cwd: dir, env: { ...process.env, CONTEXT_GUARDIAN_ROOT: root } },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        if (code === null) reject(error ?? new Error('the CLI did not exit normally'));
        else resolve({ code, stdout });
      },
    );
  });
}

/** The same call in this process (no node cold start). */
function guardianHere(args: string[]): Promise<{ code: number; stdout: string }> {
  return runInProcess(['guardian', ...args], dir, { CONTEXT_GUARDIAN_ROOT: root });
}

const last = (r: { stdout: string }) => r.stdout.trimEnd().split('\n').at(-1);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'guardian-halt-e2e-'));
  root = path.join(dir, 'task');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('guardian halt latch (built CLI)', () => {
  it('holds across processes until guardian resume', async () => {
    await guardianHere(['ensure', '--goal', 'Long task']);
    const halt = await guardian(['status', '--pressure', '0.9']);
    expect([halt.code, last(halt)]).toEqual([4, 'STATUS:HALT_CONTEXT_LIMIT']);
    const state = JSON.parse(await readFile(path.join(root, 'task-state.json'), 'utf8')) as {
      turn: number;
      halt?: unknown;
    };
    expect(state.turn).toBe(1);
    expect(state.halt).toMatchObject({ pressure: 0.9, threshold: 0.85 });

    const low = await guardianHere(['status', '--pressure', '0.1']);
    expect([low.code, last(low)]).toEqual([4, 'STATUS:HALT_CONTEXT_LIMIT']);

    const resumed = await guardianHere(['resume', '--by', 'host', '--why', 'context compacted']);
    expect([resumed.code, last(resumed)]).toEqual([0, 'STATUS:OK']);
    const ok = await guardian(['status', '--pressure', '0.1']);
    expect([ok.code, last(ok)]).toEqual([0, 'STATUS:OK']);
  });
});
