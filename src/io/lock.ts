// An exclusive lock file around a read-modify-write: guardian commands on one state folder, and
// `update` (or a writing `check`) on one golden folder. Without it two processes read the same
// state and the last write silently wins (2 concurrent checkpoints lost 5 of 80 updates).
//
// The lock is a file created with O_EXCL that names its holder: pid, host, and where the pid is
// meaningful (boot id, pid namespace, process start time: io/process-identity.ts). A second
// writer polls until the lock is free, then fails after `waitMs` with a LockBusyError. While it
// works, the holder touches the lock's mtime every lease/5 (its heartbeat). A lock is stale,
// and taken over, when its holder is shown dead, or cannot be looked up and stopped beating:
// - same host, boot and pid namespace: stale when the pid no longer runs, or runs with another
//   start time (the pid was reused); a live holder is never robbed, however long it works;
// - another host, boot or pid namespace (a container's PID 1 killed and restarted, a folder
//   shared over NFS), or a lock that cannot be parsed: its pid means nothing here, so it is stale
//   once its mtime is older than its lease (default 30 s) by this host's clock.
// Take-over moves the lock aside and checks that what was moved is the stale lock that was read,
// unchanged (so a fresh lock, or a heartbeat, that came in between is never removed).
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { currentScope, processStartTime, sameScope } from './process-identity.js';
import type { PidScope } from './process-identity.js';

/** How long a second writer waits by default; `CONTEXT_STABILITY_LOCK_WAIT_MS` overrides it. */
export const DEFAULT_LOCK_WAIT_MS = 10_000;
/** How long a holder that cannot be looked up may go without a heartbeat before it is stale. */
export const DEFAULT_LEASE_MS = 30_000;
/** Leases a lock file may declare; others (hand-edited) count as the default. */
const MIN_LEASE_MS = 50;
const MAX_LEASE_MS = 3_600_000;
const POLL_MS = 50;
export const LOCK_WAIT_ENV = 'CONTEXT_STABILITY_LOCK_WAIT_MS';

export interface LockOptions {
  /** Give up after this long; default the environment's CONTEXT_STABILITY_LOCK_WAIT_MS, else 10 s. */
  waitMs?: number;
  /** What the holder is doing, for the busy message (`guardian checkpoint`, `update`). */
  purpose: string;
  /** The environment to read CONTEXT_STABILITY_LOCK_WAIT_MS from (the CLI's); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The lease this holder declares and beats within (tests shorten it); default 30 s. */
  leaseMs?: number;
}

interface Holder extends PidScope {
  token: string;
  pid: number;
  purpose: string;
  since: string;
  /** Field 22 of /proc/<pid>/stat when the lock was taken. */
  start?: string;
  lease_ms?: number;
}

/** Another process holds the lock; nothing was read or written under it. */
export class LockBusyError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: Pick<Holder, 'pid' | 'host' | 'purpose' | 'since'> | undefined,
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

const optionalString = (v: unknown) => (typeof v === 'string' ? v : undefined);

function parseHolder(text: string): Holder | undefined {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v['token'] === 'string' && typeof v['pid'] === 'number' && typeof v['host'] === 'string') {
      const boot = optionalString(v['boot']);
      const pidns = optionalString(v['pidns']);
      const start = optionalString(v['start']);
      const lease = v['lease_ms'];
      return {
        token: v['token'],
        pid: v['pid'],
        host: v['host'],
        purpose: optionalString(v['purpose']) ?? 'another writer',
        since: optionalString(v['since']) ?? 'an unknown time',
        ...(boot !== undefined ? { boot } : {}),
        ...(pidns !== undefined ? { pidns } : {}),
        ...(start !== undefined ? { start } : {}),
        ...(typeof lease === 'number' ? { lease_ms: lease } : {}),
      };
    }
  } catch {
    // A lock being written right now is empty for an instant: fresh, so held (see isStale).
  }
  return undefined;
}

interface Seen {
  text: string;
  holder: Holder | undefined;
  mtimeMs: number;
}

async function readHolder(file: string): Promise<Seen | undefined> {
  try {
    const text = await readFile(file, 'utf8');
    const { mtimeMs } = await stat(file);
    return { text, holder: parseHolder(text), mtimeMs };
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return undefined;
    throw e;
  }
}

type Liveness = 'alive' | 'dead' | 'unknown';

/** Whether the holder's process runs, as far as this process can tell. */
function liveness(holder: Holder | undefined): Liveness {
  if (!holder || holder.host !== currentScope().host) return 'unknown';
  const same = sameScope(holder);
  // A lock of this version names its boot and namespace; only an older one names neither.
  if (!same && (holder.boot !== undefined || holder.pidns !== undefined)) return 'unknown';
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    if (errnoOf(e) === 'ESRCH') return 'dead';
    if (errnoOf(e) !== 'EPERM') return 'unknown'; // EPERM: it runs, as another user
  }
  if (holder.start !== undefined) {
    const start = processStartTime(holder.pid);
    if (start !== undefined) return start === holder.start ? 'alive' : 'dead';
  }
  // An older lock (host only) whose pid runs here: it may be another namespace's pid.
  return same ? 'alive' : 'unknown';
}

function leaseOf(holder: Holder | undefined): number {
  const lease = holder?.lease_ms;
  return lease !== undefined && lease >= MIN_LEASE_MS && lease <= MAX_LEASE_MS ? lease : DEFAULT_LEASE_MS;
}

/** Nobody will ever release it: its holder is dead, or unknown and silent for its lease. */
function isStale(seen: Seen): boolean {
  const state = liveness(seen.holder);
  if (state !== 'unknown') return state === 'dead';
  return Date.now() - seen.mtimeMs > leaseOf(seen.holder);
}

async function tryCreate(file: string, holder: Holder): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'wx');
  } catch (e) {
    if (errnoOf(e) === 'EEXIST') return undefined;
    throw e;
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`);
    await handle.sync();
    return handle;
  } catch (e) {
    await handle.close().catch(() => undefined);
    await unlink(file).catch(() => undefined);
    throw e;
  }
}

/** Removes the stale lock that was read; never a lock created since, nor one that beat since. */
async function takeOverStale(file: string, seen: Seen): Promise<void> {
  const aside = `${file}.stale-${randomUUID()}`;
  try {
    await rename(file, aside);
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return;
    throw e;
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  const movedMtime = await stat(aside).then(
    (s) => s.mtimeMs,
    () => Number.NaN,
  );
  if (moved !== seen.text || movedMtime !== seen.mtimeMs) {
    // A fresh lock was created, or the holder beat, between the read and the move: put it back
    // (link fails if yet another lock exists, and then that one stands).
    await link(aside, file).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

export function lockWaitFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env[LOCK_WAIT_ENV];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Touches the lock's mtime every lease/5 while the body runs; stop() waits for the last touch. */
function heartbeat(handle: FileHandle, leaseMs: number): { stop: () => Promise<void> } {
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      const now = new Date();
      pending = handle.utimes(now, now).catch(() => undefined);
    },
    Math.max(10, Math.floor(leaseMs / 5)),
  );
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await pending;
    },
  };
}

/**
 * Runs `body` while holding the lock file `file` (its folder must exist). Waits up to `waitMs`
 * for another holder; throws LockBusyError when it does not let go. The lock is removed when
 * `body` ends, however it ends.
 */
export async function withLock<T>(file: string, opts: LockOptions, body: () => Promise<T>): Promise<T> {
  const waitMs = opts.waitMs ?? lockWaitFromEnv(opts.env ?? process.env) ?? DEFAULT_LOCK_WAIT_MS;
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  const start = processStartTime(process.pid);
  const me: Holder = {
    token: randomUUID(),
    pid: process.pid,
    ...currentScope(),
    ...(start !== undefined ? { start } : {}),
    lease_ms: leaseMs,
    purpose: opts.purpose,
    since: new Date().toISOString(),
  };
  const begun = Date.now();
  let last: Holder | undefined;
  let handle: FileHandle | undefined;
  for (;;) {
    handle = await tryCreate(file, me);
    if (handle) break;
    const seen = await readHolder(file);
    if (seen === undefined) continue;
    last = seen.holder;
    if (isStale(seen)) {
      await takeOverStale(file, seen);
      continue;
    }
    const waited = Date.now() - begun;
    if (waited >= waitMs) {
      throw new LockBusyError(
        file,
        last && { pid: last.pid, host: last.host, purpose: last.purpose, since: last.since },
        waited,
      );
    }
    await sleep(Math.min(POLL_MS, waitMs - waited));
  }
  const beat = heartbeat(handle, leaseMs);
  try {
    return await body();
  } finally {
    await beat.stop();
    await handle.close().catch(() => undefined);
    // Only our own lock: if it was taken over (it should not be), the other holder keeps theirs.
    const now = await readHolder(file).catch(() => undefined);
    if (now?.holder?.token === me.token) await unlink(file).catch(() => undefined);
  }
}
