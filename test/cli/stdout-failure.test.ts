// Standard output that cannot be written (issue 34): a full disk (`> /dev/full`) is one line on
// stderr and exit 2, never a stack trace or exit 1 (drift), and every lock is released; a reader
// that went away (`| head -1`, EPIPE) ends the output quietly and the run keeps its own exit code.
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { currentScope, processStartTime } from '../../src/io/process-identity.js';
import { BIN, assertBuilt, childEnv } from '../e2e/check-cli.js';
import { fakeIO } from './fake-io.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cs-stdout-'));
  await mkdir(path.join(dir, 't'));
  for (let i = 0; i < 3; i++) {
    const lines = [
      '{"id":"sys","kind":"system","content":"You are terse."}',
      `{"kind":"user","content":"question ${i}"}`,
      `{"kind":"assistant","content":"answer ${i}"}`,
    ];
    await writeFile(path.join(dir, 't', `s${i}.jsonl`), `${lines.join('\n')}\n`);
  }
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An io whose stdout fails as a full disk does, from the `n`th write on. */
function failingIO(env: Record<string, string> = {}, n = 0) {
  const io = fakeIO(dir, env);
  let writes = 0;
  return {
    ...io,
    stdout: (text: string) => {
      if (writes++ >= n)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      io.stdout(text);
    },
  };
}

function expectOneLine(err: string): void {
  expect(err).toMatch(/^context-stability: standard output could not be written \(ENOSPC\)[^\n]*\n$/);
  expect(err).not.toMatch(/\n\s+at /);
}

describe('a stdout that cannot be written, in process', () => {
  it.each([['check'], ['update']])(
    '%s: one line on stderr, exit 2, the golden lock released',
    async (command) => {
      const io = failingIO();
      expect(await main([command, 't'], io)).toBe(2);
      expectOneLine(io.err());
      expect(existsSync(path.join(dir, 'golden', '.context-stability.lock'))).toBe(false);
    },
  );

  it('guardian checkpoint: one line, exit 2, the guardian lock released', async () => {
    const env = { CONTEXT_GUARDIAN_ROOT: path.join(dir, 'task') };
    expect(await main(['guardian', 'ensure', '--goal', 'Write it down'], fakeIO(dir, env))).toBe(0);
    const io = failingIO(env);
    expect(await main(['guardian', 'checkpoint', '--next-action', 'go on'], io)).toBe(2);
    expectOneLine(io.err());
    expect(await readdir(path.join(dir, 'task'))).not.toContain('.guardian.lock');
  });

  it('the golden lock wait comes from the CLI environment', async () => {
    await mkdir(path.join(dir, 'golden'));
    const start = processStartTime(process.pid);
    const live = {
      token: 'live',
      pid: process.pid,
      ...currentScope(),
      ...(start ? { start } : {}),
      purpose: 'update',
      since: 'now',
    };
    await writeFile(path.join(dir, 'golden', '.context-stability.lock'), JSON.stringify(live));
    const io = fakeIO(dir, { CONTEXT_STABILITY_LOCK_WAIT_MS: '50' });
    const begun = Date.now();
    expect(await main(['update', 't'], io)).toBe(2);
    expect(io.err()).toContain('error[lock-busy]');
    expect(Date.now() - begun).toBeLessThan(5_000);
  });
});

/** Runs the built CLI with stdout on `stdout` ('pipe' closed at once, or a file descriptor). */
function runBuiltTo(args: string[], stdout: 'closed' | number) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: childEnv(),
      stdio: ['ignore', stdout === 'closed' ? 'pipe' : stdout, 'pipe'],
    });
    if (stdout === 'closed') child.stdout?.destroy();
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a stdout that cannot be written, the built CLI', () => {
  it.runIf(existsSync('/dev/full'))(
    '> /dev/full: one line, exit 2, no lock left',
    { timeout: 30_000 },
    async () => {
      assertBuilt();
      const full = openSync('/dev/full', 'w');
      try {
        const r = await runBuiltTo(['check', 't'], full);
        expect(r.code).toBe(2);
        expectOneLine(r.stderr);
      } finally {
        closeSync(full);
      }
      expect(await readdir(path.join(dir, 'golden'))).toEqual(['t']);
    },
  );

  it('a closed pipe (| head): quiet, the run keeps its exit code', { timeout: 30_000 }, async () => {
    assertBuilt();
    const r = await runBuiltTo(['check', '--format', 'json', 't'], 'closed');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await readdir(path.join(dir, 'golden'))).toEqual(['t']);
  });
});
