// The guardian's durable files under one root directory:
//   task-state.json                the durable task state (the truth)
//   summaries/summary-NNNNNN.md    every summary written, numbered
//   summaries/latest-summary.md    stable alias: a copy of the newest summary (not a link)
//   archive/<stamp>/               unusable state (and its summary) moved aside on request
// Every write is atomic (temp file + fsync + rename) and never goes through a symbolic link;
// reads refuse links too, so a planted link cannot redirect the agent's state.
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic } from '../core/diagnostics.js';
import type { FileRead } from '../core/guardian/startup.js';
import { serializeState } from '../core/guardian/state.js';
import type { TaskState } from '../core/guardian/state.js';
import { decodeInput } from '../core/text/decode.js';
import type { Diagnostic } from '../core/types.js';
import { isStaleTemp, isTempName, writeFileAtomic } from './atomic-write.js';
import { withLock } from './lock.js';
import type { LockOptions } from './lock.js';

export const STATE_FILE = 'task-state.json';
export const SUMMARY_DIR = 'summaries';
export const LATEST_SUMMARY = `${SUMMARY_DIR}/latest-summary.md`;
export const ARCHIVE_DIR = 'archive';

/** State and summaries are small; anything near this is not ours. */
export const MAX_GUARDIAN_FILE_BYTES = 16 * 1024 * 1024;

const NUMBERED_SUMMARY = /^summary-(\d{6,})\.md$/;

/** A write the store could not do; the diagnostic names the file relative to the root. */
export class GuardianStoreError extends Error {
  readonly diagnostic: Diagnostic;
  constructor(d: Diagnostic) {
    super(`${d.file}: ${d.message}`);
    this.name = 'GuardianStoreError';
    this.diagnostic = d;
  }
}

export interface GuardianFiles {
  state: FileRead;
  summary: FileRead;
}

function errnoOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string'
    ? e.code
    : 'unknown error';
}

function problem(file: string, code: string, message: string, hint: string): Diagnostic {
  return diagnostic('error', code, { file, line: 1, column: 1 }, message, hint);
}

const LINK_HINT = 'Replace the link with the real file or directory; the guardian never follows links.';

/** Reads `rel` under `root` without following links. */
async function readNoFollow(root: string, rel: string): Promise<FileRead> {
  const abs = path.join(root, rel);
  const unusable = (code: string, message: string, hint: string): FileRead => ({
    kind: 'unusable',
    diagnostic: problem(rel, code, message, hint),
  });
  let st;
  try {
    st = await lstat(abs);
  } catch (e) {
    const errno = errnoOf(e);
    if (errno === 'ENOENT') return { kind: 'absent' };
    if (errno === 'ENOTDIR')
      return unusable(
        'guardian-root',
        'a parent of this path is not a directory.',
        'Pass a directory as --root.',
      );
    return unusable(
      'guardian-unreadable',
      `the file cannot be inspected (${errno}).`,
      'Check the permissions of the guardian root.',
    );
  }
  if (st.isSymbolicLink()) return unusable('guardian-symlink', 'the path is a symbolic link.', LINK_HINT);
  if (!st.isFile())
    return unusable(
      'guardian-not-a-file',
      'the path is not a regular file.',
      'Move it away; the guardian manages this path.',
    );
  if (st.size > MAX_GUARDIAN_FILE_BYTES) {
    return unusable(
      'guardian-file-too-large',
      `the file is larger than ${MAX_GUARDIAN_FILE_BYTES} bytes.`,
      'Check that the root holds guardian files.',
    );
  }
  try {
    // O_NOFOLLOW closes the gap between lstat and open; O_NONBLOCK keeps a swapped-in FIFO from hanging us.
    const handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const bytes = await handle.readFile();
      if (bytes.length > MAX_GUARDIAN_FILE_BYTES) {
        return unusable(
          'guardian-file-too-large',
          `the file is larger than ${MAX_GUARDIAN_FILE_BYTES} bytes.`,
          'Check that the root holds guardian files.',
        );
      }
      const decoded = decodeInput(bytes, { file: rel });
      return decoded.ok
        ? { kind: 'text', text: decoded.text }
        : { kind: 'unusable', diagnostic: decoded.error };
    } finally {
      await handle.close();
    }
  } catch (e) {
    const errno = errnoOf(e);
    if (errno === 'ELOOP') return unusable('guardian-symlink', 'the path is a symbolic link.', LINK_HINT);
    return unusable(
      'guardian-unreadable',
      `the file cannot be read (${errno}).`,
      'Make it readable by the agent’s user.',
    );
  }
}

/**
 * The state file and the latest-summary alias. A root that does not exist holds nothing; the
 * root itself may be a link (a session-level path such as /tmp often is), the files may not.
 */
export async function readGuardianFiles(root: string): Promise<GuardianFiles> {
  const rootProblem = (message: string): GuardianFiles => ({
    state: {
      kind: 'unusable',
      diagnostic: problem(
        STATE_FILE,
        'guardian-root',
        message,
        'Pass a directory as --root (or CONTEXT_GUARDIAN_ROOT).',
      ),
    },
    summary: { kind: 'absent' },
  });
  try {
    if (!(await stat(root)).isDirectory()) return rootProblem('the guardian root is not a directory.');
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return { state: { kind: 'absent' }, summary: { kind: 'absent' } };
    return rootProblem(`the guardian root cannot be inspected (${errnoOf(e)}).`);
  }
  return { state: await readNoFollow(root, STATE_FILE), summary: await readNoFollow(root, LATEST_SUMMARY) };
}

/** Creates `rel` under `root` (and the root itself) and checks that it is a real directory. */
async function ensureDirectory(root: string, rel: string): Promise<string> {
  const abs = rel === '' ? root : path.join(root, rel);
  try {
    await mkdir(abs, { recursive: true });
  } catch (e) {
    throw new GuardianStoreError(
      problem(
        rel || '.',
        'guardian-write-failed',
        `the directory cannot be created (${errnoOf(e)}).`,
        'Check the permissions of the guardian root.',
      ),
    );
  }
  if (rel !== '' && (await lstat(abs)).isSymbolicLink()) {
    throw new GuardianStoreError(
      problem(rel, 'guardian-symlink', 'the directory is a symbolic link.', LINK_HINT),
    );
  }
  return abs;
}

/** Removes temp files of writers that died mid-write (they hold partial content, never the truth). */
async function removeStaleTemps(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!isTempName(name)) continue;
    const st = await lstat(path.join(dir, name)).catch(() => undefined);
    if (st?.isFile() && isStaleTemp(name, st.mtimeMs, now))
      await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

async function writeAtomic(root: string, rel: string, text: string): Promise<void> {
  const abs = path.join(root, rel);
  const existing = await lstat(abs).catch(() => undefined);
  if (existing !== undefined && !existing.isFile()) {
    throw new GuardianStoreError(
      problem(
        rel,
        existing.isSymbolicLink() ? 'guardian-symlink' : 'guardian-not-a-file',
        'the path is not a regular file; it is not replaced.',
        LINK_HINT,
      ),
    );
  }
  try {
    await writeFileAtomic(abs, text);
  } catch (e) {
    throw new GuardianStoreError(
      problem(
        rel,
        'guardian-write-failed',
        `the file cannot be written (${errnoOf(e)}).`,
        'Check the permissions and free space of the guardian root.',
      ),
    );
  }
}

/** Writes the durable state atomically. */
/** The lock file of a guardian root (see io/lock.ts): one writer at a time per state. */
export const GUARDIAN_LOCK = '.guardian.lock';

/**
 * Runs a guardian read-decide-write under the root's lock. `create` makes the root first (ensure);
 * otherwise a root that does not exist has no state to protect and the body runs unlocked.
 */
export async function withGuardianLock<T>(
  root: string,
  purpose: string,
  create: boolean,
  body: () => Promise<T>,
  lock: Pick<LockOptions, 'env'> = {},
): Promise<T> {
  if (create) await ensureDirectory(root, '');
  else if (
    !(await stat(root).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return body();
  return withLock(path.join(root, GUARDIAN_LOCK), { ...lock, purpose }, body);
}

export async function writeState(root: string, state: TaskState): Promise<void> {
  const dir = await ensureDirectory(root, '');
  await removeStaleTemps(dir);
  await writeAtomic(root, STATE_FILE, serializeState(state));
}

async function nextSummaryName(dir: string): Promise<string> {
  let highest = 0;
  for (const name of await readdir(dir)) {
    const n = Number(NUMBERED_SUMMARY.exec(name)?.[1] ?? 0);
    if (n > highest) highest = n;
  }
  return `summary-${String(highest + 1).padStart(6, '0')}.md`;
}

/** Writes a new numbered summary, then the alias; returns the numbered file relative to the root. */
export async function writeSummary(root: string, markdown: string): Promise<string> {
  const dir = await ensureDirectory(root, SUMMARY_DIR);
  await removeStaleTemps(dir);
  const rel = `${SUMMARY_DIR}/${await nextSummaryName(dir)}`;
  await writeAtomic(root, rel, markdown);
  await writeAtomic(root, LATEST_SUMMARY, markdown);
  return rel;
}

/**
 * A checkpoint: the state first (it is the truth), then the summary rendered from it. A crash
 * in between leaves a stale summary, which the next startup sees as a conflict and rewrites.
 */
export async function saveCheckpoint(root: string, state: TaskState, summary: string): Promise<string> {
  await writeState(root, state);
  return writeSummary(root, summary);
}

/** `2025-01-31T12:00:00.000Z` → `2025-01-31T12-00-00-000Z`: safe as a directory name everywhere. */
export function archiveStamp(iso: string): string {
  return iso.replace(/[^0-9A-Za-z-]/g, (c) => (c === 'T' ? 'T' : '-'));
}

/**
 * Moves the state file and the latest-summary alias (whichever exist) to `archive/<stamp>/`,
 * by rename: nothing is copied or rewritten. Returns the moves as `from -> to`, relative to root.
 */
export async function archiveGuardianFiles(root: string, stamp: string): Promise<string[]> {
  await ensureDirectory(root, ARCHIVE_DIR);
  let dirRel = `${ARCHIVE_DIR}/${stamp}`;
  for (let n = 2; ; n++) {
    try {
      await mkdir(path.join(root, dirRel));
      break;
    } catch (e) {
      if (errnoOf(e) !== 'EEXIST') {
        throw new GuardianStoreError(
          problem(
            dirRel,
            'guardian-write-failed',
            `the archive directory cannot be created (${errnoOf(e)}).`,
            'Check the permissions of the guardian root.',
          ),
        );
      }
      dirRel = `${ARCHIVE_DIR}/${stamp}-${n}`;
    }
  }
  const moved: string[] = [];
  for (const rel of [STATE_FILE, LATEST_SUMMARY]) {
    const from = path.join(root, rel);
    if ((await lstat(from).catch(() => undefined)) === undefined) continue;
    const toRel = `${dirRel}/${path.basename(rel)}`;
    try {
      await rename(from, path.join(root, toRel));
    } catch (e) {
      throw new GuardianStoreError(
        problem(
          rel,
          'guardian-write-failed',
          `the file cannot be moved to ${dirRel} (${errnoOf(e)}).`,
          'Check the permissions of the guardian root.',
        ),
      );
    }
    moved.push(`${rel} -> ${toRel}`);
  }
  return moved;
}
