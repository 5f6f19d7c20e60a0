// A guardian command that gives up on the root's lock (issue 34): nothing is written, and its
// stdout still ends with a status line, as every guardian outcome does.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGuardianCommands } from '../../src/cli/commands/guardian.js';
import { runCli } from '../../src/cli/main.js';
import { currentScope, processStartTime } from '../../src/io/process-identity.js';
import { fakeIO } from './fake-io.js';

let dir: string;
let root: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'guardian-busy-'));
  root = path.join(dir, 'task');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function guardian(args: string[]) {
  const commands = createGuardianCommands({
    now: () => '2025-03-01T09:00:00.000Z',
    readStdin: async () => '',
  });
  // The wait comes from the CLI's environment, not the process's.
  const io = fakeIO(dir, { CONTEXT_GUARDIAN_ROOT: root, CONTEXT_STABILITY_LOCK_WAIT_MS: '80' });
  const code = await runCli(['guardian', ...args], io, commands);
  return { code, out: io.out(), err: io.err() };
}

/** The lock as a live process of this namespace holds it: this test process. */
function liveLock(): string {
  const start = processStartTime(process.pid);
  return JSON.stringify({
    token: 'live',
    pid: process.pid,
    ...currentScope(),
    ...(start !== undefined ? { start } : {}),
    purpose: 'guardian checkpoint',
    since: 'now',
  });
}

describe('guardian: busy lock', () => {
  it.each([
    ['status', '--pressure', '0.95'],
    ['checkpoint', '--next-action', 'go on'],
    ['ensure'],
    ['resume', '--by', 'ops', '--why', 'test'],
  ])(
    '%s gives up after the wait, writes nothing, ends with STATUS:MISSING_STATE, exit 2',
    async (...args) => {
      expect((await guardian(['ensure', '--goal', 'Wait your turn'])).code).toBe(0);
      const before = await readFile(path.join(root, 'task-state.json'), 'utf8');
      await writeFile(path.join(root, '.guardian.lock'), liveLock());
      const r = await guardian(args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^\.guardian\.lock:1:1: error\[lock-busy\]: guardian checkpoint \(process \d+/);
      const lines = r.out.trimEnd().split('\n');
      expect(lines[0]).toBe(
        `guardian ${args[0]}: busy (another guardian command is writing the state; nothing was written)`,
      );
      expect(lines.at(-1)).toBe('STATUS:MISSING_STATE');
      expect(await readFile(path.join(root, 'task-state.json'), 'utf8')).toBe(before);
    },
  );
});
