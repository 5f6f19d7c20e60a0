// The exclusive lock file around read-modify-write (issue 12, concurrent writers).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockBusyError, withLock } from '../../src/io/lock.js';

let dir: string;
let lock: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cs-lock-'));
  lock = path.join(dir, '.lock');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** Reads a counter, yields, writes it plus one: loses updates unless serialized. */
async function increment(file: string): Promise<void> {
  const n = Number(await readFile(file, 'utf8'));
  await tick();
  await writeFile(file, String(n + 1));
}

/** A pid that ran on this host and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('withLock', () => {
  it('serializes read-modify-write bodies: 40 concurrent increments, none lost', async () => {
    const counter = path.join(dir, 'n');
    await writeFile(counter, '0');
    // Without the lock the same bodies lose updates (the interleaving the lock prevents).
    await Promise.all(Array.from({ length: 10 }, () => increment(counter)));
    expect(Number(await readFile(counter, 'utf8'))).toBeLessThan(10);

    await writeFile(counter, '0');
    await Promise.all(
      Array.from({ length: 40 }, () =>
        withLock(lock, { purpose: 'test', waitMs: 10_000 }, () => increment(counter)),
      ),
    );
    expect(Number(await readFile(counter, 'utf8'))).toBe(40);
    expect(existsSync(lock)).toBe(false);
  });

  it('gives up after waitMs with who holds it, and runs nothing', async () => {
    let ran = false;
    await withLock(lock, { purpose: 'guardian checkpoint' }, async () => {
      const error = await withLock(lock, { purpose: 'second', waitMs: 120 }, async () => {
        ran = true;
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LockBusyError);
      expect((error as LockBusyError).message).toContain(`guardian checkpoint (process ${process.pid}`);
      expect((error as LockBusyError).waitedMs).toBeGreaterThanOrEqual(120);
    });
    expect(ran).toBe(false);
  });

  it('takes over a lock whose process is gone (same host) and removes it afterwards', async () => {
    const pid = deadPid();
    await writeFile(
      lock,
      JSON.stringify({ token: 't', pid, host: os.hostname(), purpose: 'update', since: 'x' }),
    );
    expect(await withLock(lock, { purpose: 'test', waitMs: 100 }, async () => 'ran')).toBe('ran');
    expect(await readdir(dir)).toEqual([]);
  });

  it('never takes over a lock of another host or a lock being written (empty)', async () => {
    const other = JSON.stringify({
      token: 't',
      pid: deadPid(),
      host: `not-${os.hostname()}`,
      purpose: 'u',
      since: 'x',
    });
    await writeFile(lock, other);
    await expect(withLock(lock, { purpose: 'test', waitMs: 80 }, async () => 1)).rejects.toBeInstanceOf(
      LockBusyError,
    );
    expect(await readFile(lock, 'utf8')).toBe(other);
    await writeFile(lock, '');
    await expect(withLock(lock, { purpose: 'test', waitMs: 80 }, async () => 1)).rejects.toBeInstanceOf(
      LockBusyError,
    );
  });

  it('releases the lock when the body throws', async () => {
    await expect(
      withLock(lock, { purpose: 'test' }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });
});
