// The golden folder on disk: listing, reading, atomic writing and pruning of `*.golden.json`.
// Paths in and out are cwd-relative and '/'-separated, as reports and goldens record them.
// Nothing is ever read or written through a symbolic link inside the golden folder: a link
// committed in a pull request could otherwise make `update` overwrite a file outside the repo.
// The golden folder itself may be a link (or lie below one) only when its real path stays inside
// the working directory's real path (the repository, the workspace): nothing is ever read,
// written, listed or deleted outside it.
import type { Dirent } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic } from '../core/diagnostics.js';
import { GOLDEN_SUFFIX } from '../core/golden/paths.js';
import type { Diagnostic } from '../core/types.js';
import { isStaleTemp, isTempName, writeFileAtomic } from './atomic-write.js';
import { readInput } from './read-input.js';
import { isWithin, realPathOf } from './real-path.js';
import { withLock } from './lock.js';
import type { LockOptions } from './lock.js';

export interface GoldenStoreOptions {
  cwd: string;
  /** The golden folder, cwd-relative and '/'-separated (see resolveGoldenDir). */
  goldenDir: string;
}

export type ReadGoldenResult =
  { kind: 'found'; text: string } | { kind: 'missing' } | { kind: 'error'; diagnostic: Diagnostic };

export type StoreResult = { ok: true } | { ok: false; diagnostic: Diagnostic };

function toSlashes(p: string): string {
  return p.split(path.sep).join('/');
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
}

/**
 * The golden folder as reports record it: relative to cwd, '/'-separated. It must lie strictly
 * inside cwd, so that no golden path or report ever holds an absolute path.
 */
export function resolveGoldenDir(
  dir: string,
  cwd: string,
): { ok: true; dir: string } | { ok: false; reason: string } {
  const rel = toSlashes(path.relative(cwd, path.resolve(cwd, dir)));
  if (rel === '' || rel === '..' || rel.startsWith('../') || path.isAbsolute(rel)) {
    return {
      ok: false,
      reason: 'The golden folder must be a sub-folder of the working directory (the repo root).',
    };
  }
  return { ok: true, dir: rel };
}

function storeError(file: string, code: string, message: string, hint: string): Diagnostic {
  return diagnostic('error', code, { file, line: 1, column: 1 }, message, hint);
}

function symlinkRefused(file: string): Diagnostic {
  return storeError(
    file,
    'golden-symlink',
    'The golden file, or a folder above it inside the golden folder, is a symbolic link; goldens are never read or written through links.',
    'Replace the link with a regular file or folder (or delete it and run update).',
  );
}

function outsideWorkspace(file: string): Diagnostic {
  return storeError(
    file,
    'golden-outside-workspace',
    'The golden folder resolves, through a symbolic link, to a place outside the repository (the working directory), or the link points nowhere; goldens are never read, written or deleted outside the repository.',
    'Make the golden folder a regular folder inside the repository (replace the link, or choose another golden folder), then run again.',
  );
}

/**
 * The golden folder's real path lies strictly inside the working directory's real path (it need
 * not exist yet). `file` is what the diagnostic names: the golden folder, or the golden at hand.
 */
async function checkRoot(opts: GoldenStoreOptions, file: string): Promise<StoreResult> {
  try {
    const workspace = await realpath(opts.cwd);
    const real = await realPathOf(path.resolve(opts.cwd, opts.goldenDir));
    if (real === null || real === workspace || !isWithin(real, workspace)) {
      return { ok: false, diagnostic: outsideWorkspace(file) };
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, diagnostic: ioFailure(file, 'golden-unreadable', error) };
  }
}

/**
 * Refuses a golden folder whose real path leaves the working directory (a link to elsewhere, or
 * below one). Commands that write or delete goldens call it first; every read, write, listing and
 * removal below checks it again.
 */
export function checkGoldenRoot(opts: GoldenStoreOptions): Promise<StoreResult> {
  return checkRoot(opts, opts.goldenDir);
}

/** The lock file of a golden folder (io/lock.ts); not a golden, so never listed or pruned. */
export const GOLDEN_LOCK = '.context-stability.lock';

/**
 * Runs `body` holding the golden folder's lock (io/lock.ts), creating the folder for it when it
 * is missing and removing it again if the run left it empty. A folder that resolves outside the
 * working directory gets no lock (nothing is made there; the store refuses every write anyway).
 */
export async function withGoldenFolderLock<T>(
  opts: GoldenStoreOptions,
  purpose: string,
  body: () => Promise<T>,
  lock: Pick<LockOptions, 'env'> = {},
): Promise<T> {
  if (!(await checkGoldenRoot(opts)).ok) return body();
  const dir = path.join(opts.cwd, opts.goldenDir);
  const made = await mkdir(dir, { recursive: true });
  if (!(await checkGoldenRoot(opts)).ok) return body();
  try {
    return await withLock(path.join(dir, GOLDEN_LOCK), { ...lock, purpose }, body);
  } finally {
    // Only the folders this run made, and only when empty (rmdir refuses otherwise).
    if (made !== undefined) await removeEmptyUpTo(dir, made);
  }
}

async function removeEmptyUpTo(dir: string, top: string): Promise<void> {
  for (let d = dir; ; d = path.dirname(d)) {
    if (
      !(await rmdir(d).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (d === top || path.dirname(d) === d) return;
  }
}

/** The folder `abs` lies in (which exists) is, by its real path, inside the working directory. */
async function checkParentInside(
  abs: string,
  goldenPath: string,
  opts: GoldenStoreOptions,
): Promise<StoreResult> {
  const [workspace, parent] = await Promise.all([realpath(opts.cwd), realpath(path.dirname(abs))]);
  if (parent === workspace || !isWithin(parent, workspace)) {
    return { ok: false, diagnostic: outsideWorkspace(goldenPath) };
  }
  return { ok: true };
}

type Walk = { ok: true; missingFrom: number | null } | { ok: false; diagnostic: Diagnostic };

/**
 * Checks the folders between the golden folder and the file: each must be a real directory.
 * `missingFrom` is the index of the first folder that does not exist (so neither does the file).
 */
async function checkParents(goldenPath: string, opts: GoldenStoreOptions): Promise<Walk> {
  const prefix = `${opts.goldenDir}/`;
  if (!goldenPath.startsWith(prefix)) {
    return {
      ok: false,
      diagnostic: storeError(
        goldenPath,
        'golden-path-outside',
        'The golden path is not inside the golden folder.',
        'Report this as a bug.',
      ),
    };
  }
  const root = await checkRoot(opts, goldenPath);
  if (!root.ok) return root;
  const dirs = goldenPath.slice(prefix.length).split('/').slice(0, -1);
  let current = path.resolve(opts.cwd, opts.goldenDir);
  for (let i = 0; i < dirs.length; i++) {
    current = path.join(current, dirs[i] ?? '');
    try {
      const st = await lstat(current);
      if (st.isSymbolicLink()) return { ok: false, diagnostic: symlinkRefused(goldenPath) };
      if (!st.isDirectory()) {
        return {
          ok: false,
          diagnostic: storeError(
            goldenPath,
            'golden-not-a-folder',
            'A path above the golden file inside the golden folder is a file, not a folder.',
            'Move that file away, then run again.',
          ),
        };
      }
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return { ok: true, missingFrom: i };
      return { ok: false, diagnostic: ioFailure(goldenPath, 'golden-unreadable', error) };
    }
  }
  return { ok: true, missingFrom: null };
}

function ioFailure(file: string, code: string, error: unknown): Diagnostic {
  const errno = errnoOf(error);
  const denied = errno === 'EACCES' || errno === 'EPERM';
  return storeError(
    file,
    code,
    denied ? 'Permission denied.' : `The file system refused the operation (${errno}).`,
    'Check the permissions of the golden folder and that the disk is writable, then run again.',
  );
}

// readInput's hints speak of transcripts; these say what to do about a golden.
const READ_HINTS: Readonly<Record<string, string>> = {
  empty: 'The golden file is empty (an interrupted write?): run update to write it again.',
  'is-directory': 'A folder has the name of a golden file: move it away, then run update.',
  'not-a-file': 'Replace it with the regular file that update writes.',
};

/** The stored golden text, `missing` when there is none, or why it cannot be read. */
export async function readGoldenFile(
  goldenPath: string,
  opts: GoldenStoreOptions,
): Promise<ReadGoldenResult> {
  const parents = await checkParents(goldenPath, opts);
  if (!parents.ok) return { kind: 'error', diagnostic: parents.diagnostic };
  if (parents.missingFrom !== null) return { kind: 'missing' };
  try {
    if ((await lstat(path.resolve(opts.cwd, goldenPath))).isSymbolicLink()) {
      return { kind: 'error', diagnostic: symlinkRefused(goldenPath) };
    }
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { kind: 'missing' };
    return { kind: 'error', diagnostic: ioFailure(goldenPath, 'golden-unreadable', error) };
  }
  const input = await readInput(goldenPath, { cwd: opts.cwd });
  if (!input.ok) {
    const hint = READ_HINTS[input.error.code] ?? input.error.hint;
    return { kind: 'error', diagnostic: { ...input.error, hint } };
  }
  return { kind: 'found', text: input.text };
}

/**
 * Writes one golden atomically (see writeFileAtomic), creating the folders below the golden
 * folder as needed. Refuses when the target or a folder above it inside the golden folder is a
 * symbolic link, or the target is not a regular file.
 */
export async function writeGoldenFile(
  goldenPath: string,
  text: string,
  opts: GoldenStoreOptions,
): Promise<StoreResult> {
  const parents = await checkParents(goldenPath, opts);
  if (!parents.ok) return parents;
  const target = path.resolve(opts.cwd, goldenPath);
  try {
    await mkdir(path.resolve(opts.cwd, opts.goldenDir), { recursive: true });
    if (parents.missingFrom !== null) {
      const dirs = goldenPath
        .slice(opts.goldenDir.length + 1)
        .split('/')
        .slice(0, -1);
      let current = path.resolve(opts.cwd, opts.goldenDir, ...dirs.slice(0, parents.missingFrom));
      for (const dir of dirs.slice(parents.missingFrom)) {
        current = path.join(current, dir);
        await mkdir(current).catch(async (error: unknown) => {
          // A concurrent writer may have made it: fine if it is a real folder now.
          if (errnoOf(error) !== 'EEXIST' || !(await lstat(current)).isDirectory()) throw error;
        });
      }
    }
    const existing = await lstat(target).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return null;
      throw error;
    });
    if (existing?.isSymbolicLink()) return { ok: false, diagnostic: symlinkRefused(goldenPath) };
    if (existing && !existing.isFile()) {
      return {
        ok: false,
        diagnostic: storeError(
          goldenPath,
          'golden-not-a-file',
          'The golden path exists and is not a regular file.',
          'Move it away, then run update.',
        ),
      };
    }
    const inside = await checkParentInside(target, goldenPath, opts);
    if (!inside.ok) return inside;
    await writeFileAtomic(target, text);
    return { ok: true };
  } catch (error) {
    return { ok: false, diagnostic: ioFailure(goldenPath, 'golden-write-failed', error) };
  }
}

/** Deletes one golden (a link itself, never its target), then the folders it leaves empty. */
export async function removeGoldenFile(goldenPath: string, opts: GoldenStoreOptions): Promise<StoreResult> {
  const parents = await checkParents(goldenPath, opts);
  if (!parents.ok) return parents;
  if (parents.missingFrom !== null) return { ok: true };
  try {
    const target = path.resolve(opts.cwd, goldenPath);
    const inside = await checkParentInside(target, goldenPath, opts);
    if (!inside.ok) return inside;
    await unlink(target);
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT')
      return { ok: false, diagnostic: ioFailure(goldenPath, 'golden-remove-failed', error) };
  }
  const root = path.resolve(opts.cwd, opts.goldenDir);
  let dir = path.dirname(path.resolve(opts.cwd, goldenPath));
  while (dir !== root && dir.startsWith(root + path.sep)) {
    try {
      await rmdir(dir);
    } catch {
      break; // not empty (or not ours to remove): stop climbing
    }
    dir = path.dirname(dir);
  }
  return { ok: true };
}

async function entriesOf(absDir: string): Promise<Dirent[]> {
  try {
    const entries = await readdir(absDir, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * Visits every entry below the golden folder; symlinked folders are not entered, and a golden
 * folder outside the working directory (checkGoldenRoot) is not walked at all.
 */
async function walkGoldenDir(
  opts: GoldenStoreOptions,
  visit: (entry: Dirent, rel: string, abs: string) => Promise<void>,
): Promise<void> {
  if (!(await checkGoldenRoot(opts)).ok) return;
  const walk = async (relDir: string): Promise<void> => {
    const absDir = path.resolve(opts.cwd, relDir);
    for (const entry of await entriesOf(absDir)) {
      const rel = `${relDir}/${entry.name}`;
      if (entry.isDirectory()) await walk(rel);
      else await visit(entry, rel, path.join(absDir, entry.name));
    }
  };
  await walk(opts.goldenDir);
}

/**
 * Every `*.golden.json` below the golden folder (links included, so that they get reported),
 * cwd-relative, sorted by code unit. A missing golden folder has none, and so has one outside
 * the working directory (reading or writing any golden there reports it).
 */
export async function listGoldenFiles(opts: GoldenStoreOptions): Promise<string[]> {
  const found: string[] = [];
  await walkGoldenDir(opts, async (_entry, rel) => {
    if (rel.endsWith(GOLDEN_SUFFIX)) found.push(rel);
  });
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Removes temp files left by an interrupted write (the writer is gone); returns their paths. */
export async function cleanStaleTempFiles(
  opts: GoldenStoreOptions,
  nowMs: number = Date.now(),
): Promise<string[]> {
  const removed: string[] = [];
  await walkGoldenDir(opts, async (entry, rel, abs) => {
    if (!entry.isFile() || !isTempName(entry.name)) return;
    try {
      if (isStaleTemp(entry.name, (await lstat(abs)).mtimeMs, nowMs)) {
        await unlink(abs);
        removed.push(rel);
      }
    } catch {
      // Gone already, or not ours to remove: the next run tries again.
    }
  });
  return removed;
}
