// An exclusive lock file around a read-modify-write: guardian commands on one state folder, and
// `update` (or a writing `check`) on one golden folder. Without it two processes read the same
// state and the last write silently wins (2 concurrent checkpoints lost 5 of 80 updates).
//
// The lock is a file created with O_EXCL that names its holder (pid, host, time). A second
// writer polls until the lock is free, then fails after `waitMs` with a LockBusyError. A lock
// whose holder is gone (same host, pid no longer running) is stale: it is taken over, by moving
// it aside and checking that what was moved is the stale lock that was read (so a fresh lock
// another process created in between is never removed).
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import os from 'node:os';

/** How long a second writer waits by default; `CONTEXT_STABILITY_LOCK_WAIT_MS` overrides it. */
export const DEFAULT_LOCK_WAIT_MS = 10_000;
const POLL_MS = 50;

export interface LockOptions {
  /** Give up after this long; default DEFAULT_LOCK_WAIT_MS. */
  waitMs?: number;
  /** What the holder is doing, for the busy message (`guardian checkpoint`, `update`). */
  purpose: string;
}

interface Holder {
  token: string;
  pid: number;
  host: string;
  purpose: string;
  since: string;
}

/** Another process holds the lock; nothing was read or written under it. */
export class LockBusyError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: Omit<Holder, 'token'> | undefined,
    readonly waitedMs: number,
  ) {
    super(
      holder
        ? `${holder.purpose} (process ${holder.pid} on ${holder.host}, since ${holder.since}) holds the lock`
        : 'another process holds the lock',
    );
    this.name = 'LockBusyError';
  }
}

function errnoOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string'
    ? e.code
    : undefined;
}

function parseHolder(text: string): Holder | undefined {
  try {
    const v = JSON.parse(text) as Partial<Holder>;
    if (typeof v.token === 'string' && typeof v.pid === 'number' && typeof v.host === 'string') {
      return {
        token: v.token,
        pid: v.pid,
        host: v.host,
        purpose: typeof v.purpose === 'string' ? v.purpose : 'another writer',
        since: typeof v.since === 'string' ? v.since : 'an unknown time',
      };
    }
  } catch {
    // A lock being written right now is empty for an instant: treated as held, never as stale.
  }
  return undefined;
}

async function readHolder(file: string): Promise<{ text: string; holder: Holder | undefined } | undefined> {
  try {
    const text = await readFile(file, 'utf8');
    return { text, holder: parseHolder(text) };
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/** On this host and its process is gone: nobody will ever release it. */
function isStale(holder: Holder | undefined): boolean {
  if (!holder || holder.host !== os.hostname()) return false;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (e) {
    return errnoOf(e) === 'ESRCH';
  }
}

async function tryCreate(file: string, holder: Holder): Promise<boolean> {
  try {
    const handle = await open(file, 'wx');
    try {
      await handle.writeFile(`${JSON.stringify(holder)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (e) {
    if (errnoOf(e) === 'EEXIST') return false;
    throw e;
  }
}

/** Removes the stale lock whose text was read; never a lock created since. */
async function takeOverStale(file: string, staleText: string): Promise<void> {
  const aside = `${file}.stale-${randomUUID()}`;
  try {
    await rename(file, aside);
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return;
    throw e;
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  if (moved !== staleText) {
    // A fresh lock was created between the read and the move: put it back (link fails if yet
    // another lock exists, and then that one stands).
    await link(aside, file).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

function waitMsFromEnv(): number | undefined {
  const raw = process.env['CONTEXT_STABILITY_LOCK_WAIT_MS'];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `body` while holding the lock file `file` (its folder must exist). Waits up to `waitMs`
 * for another holder; throws LockBusyError when it does not let go. The lock is removed when
 * `body` ends, however it ends.
 */
export async function withLock<T>(file: string, opts: LockOptions, body: () => Promise<T>): Promise<T> {
  const waitMs = opts.waitMs ?? waitMsFromEnv() ?? DEFAULT_LOCK_WAIT_MS;
  const me: Holder = {
    token: randomUUID(),
    pid: process.pid,
    host: os.hostname(),
    purpose: opts.purpose,
    since: new Date().toISOString(),
  };
  const start = Date.now();
  let last: Holder | undefined;
  for (;;) {
    if (await tryCreate(file, me)) break;
    const seen = await readHolder(file);
    if (seen === undefined) continue;
    last = seen.holder;
    if (isStale(seen.holder)) {
      await takeOverStale(file, seen.text);
      continue;
    }
    const waited = Date.now() - start;
    if (waited >= waitMs) {
      throw new LockBusyError(
        file,
        last && { pid: last.pid, host: last.host, purpose: last.purpose, since: last.since },
        waited,
      );
    }
    await sleep(Math.min(POLL_MS, waitMs - waited));
  }
  try {
    return await body();
  } finally {
    // Only our own lock: if it was taken over (it should not be), the other holder keeps theirs.
    const now = await readHolder(file).catch(() => undefined);
    if (now?.holder?.token === me.token) await unlink(file).catch(() => undefined);
  }
}
