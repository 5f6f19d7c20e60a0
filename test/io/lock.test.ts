// The exclusive lock file around read-modify-write (issue 12, concurrent writers).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockBusyError, withLock } from '../../src/io/lock.js';
import { currentScope, processStartTime } from '../../src/io/process-identity.js';

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

  it('lets CONTEXT_STABILITY_LOCK_WAIT_MS come from the given environment', async () => {
    await writeFile(lock, foreignLock({ host: `not-${os.hostname()}` }));
    const error = await withLock(
      lock,
      { purpose: 'test', env: { CONTEXT_STABILITY_LOCK_WAIT_MS: '60' } },
      async () => 1,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockBusyError);
    expect((error as LockBusyError).waitedMs).toBeLessThan(5_000);
  });
});

/** A lock file as a holder elsewhere writes it: this host's scope unless `fields` say otherwise. */
function foreignLock(fields: Record<string, unknown>): string {
  return JSON.stringify({
    token: 'foreign',
    pid: 1,
    ...currentScope(),
    purpose: 'update',
    since: 'then',
    ...fields,
  });
}

/** Sets the lock's mtime `ms` into the past: its holder's last heartbeat. */
async function silentFor(file: string, ms: number): Promise<void> {
  const then = new Date(Date.now() - ms);
  await utimes(file, then, then);
}

const ran = () => withLock(lock, { purpose: 'test', waitMs: 300 }, async () => 'ran');

describe('withLock: holders this process cannot look up (issue 34)', () => {
  it('takes over the lock of PID 1 of another pid namespace (a container killed) once it stopped beating', async () => {
    // Process 1 runs here too, but it is this namespace's init, not the holder.
    await writeFile(lock, foreignLock({ pidns: 'pid:[1]', start: '1' }));
    await silentFor(lock, 60_000);
    expect(await ran()).toBe('ran');
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock written on another host once its lease ran out, and not before', async () => {
    const other = foreignLock({ host: `not-${os.hostname()}`, pid: process.pid });
    await writeFile(lock, other);
    await silentFor(lock, 20_000);
    await expect(ran()).rejects.toBeInstanceOf(LockBusyError);
    expect(await readFile(lock, 'utf8')).toBe(other);
    await silentFor(lock, 31_000);
    expect(await ran()).toBe('ran');
  });

  it('takes over an older lock (host and pid only) of a pid that runs here once it stopped beating', async () => {
    // The restarted container's node is PID 1 again: the dead holder's pid is this very process.
    const old = { token: 'old', pid: process.pid, host: os.hostname(), purpose: 'update', since: 'x' };
    await writeFile(lock, JSON.stringify(old));
    await expect(ran()).rejects.toBeInstanceOf(LockBusyError);
    await silentFor(lock, 60_000);
    expect(await ran()).toBe('ran');
  });

  it('takes over an empty lock (its writer died between create and write) once it is old', async () => {
    await writeFile(lock, '');
    await silentFor(lock, 60_000);
    expect(await ran()).toBe('ran');
  });

  it('never robs a holder of another host that keeps beating, and takes over once it stops', async () => {
    const other = foreignLock({ host: `not-${os.hostname()}`, lease_ms: 150 });
    await writeFile(lock, other);
    const beat = setInterval(() => void utimes(lock, new Date(), new Date()).catch(() => undefined), 25);
    try {
      await expect(withLock(lock, { purpose: 'test', waitMs: 600 }, async () => 1)).rejects.toBeInstanceOf(
        LockBusyError,
      );
      expect(await readFile(lock, 'utf8')).toBe(other);
    } finally {
      clearInterval(beat);
    }
    expect(await withLock(lock, { purpose: 'test', waitMs: 3_000 }, async () => 'ran')).toBe('ran');
  });

  it('a holder beats while it works, so a waiter elsewhere never takes it over', async () => {
    await withLock(lock, { purpose: 'test', leaseMs: 100 }, async () => {
      const before = (await stat(lock)).mtimeMs;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await stat(lock)).mtimeMs).toBeGreaterThan(before);
      expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ lease_ms: 100, ...currentScope() });
    });
  });

  it.runIf(processStartTime(process.ppid) !== undefined)(
    'same namespace: a live holder excludes however old its lock, a reused pid (other start time) is stale',
    async () => {
      const live = foreignLock({ pid: process.ppid, start: processStartTime(process.ppid) });
      await writeFile(lock, live);
      await silentFor(lock, 3_600_000);
      await expect(ran()).rejects.toBeInstanceOf(LockBusyError);
      expect(await readFile(lock, 'utf8')).toBe(live);
      await writeFile(lock, foreignLock({ pid: process.ppid, start: '1' }));
      expect(await ran()).toBe('ran');
    },
  );
});
