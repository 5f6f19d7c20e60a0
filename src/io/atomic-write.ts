// Crash-safe file replacement: a reader (or a CI run after a killed `update`) sees either the old
// file or the new one, never a partial write. Temp files carry the writer's pid so that a later
// run can tell an abandoned temp file from one that is still being written.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/** `.<target name>.<pid>.<12 hex>.tmp`, next to the target (rename is only atomic on one file system). */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/** A temp file this old is abandoned whatever its pid says (pids are reused, hosts differ). */
const STALE_AFTER_MS = 60 * 60 * 1000;

export function tempNameFor(target: string): string {
  return `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** True for names `tempNameFor` produces. */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A temp file left behind by a writer that is gone (killed mid-write) or that is too old to matter. */
export function isStaleTemp(name: string, mtimeMs: number, nowMs: number): boolean {
  const match = TEMP_NAME.exec(name);
  if (!match) return false;
  const pid = Number(match[1]);
  if (pid === process.pid) return false;
  return nowMs - mtimeMs > STALE_AFTER_MS || !processIsAlive(pid);
}

async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) and file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}

/**
 * Writes `text` to `target` atomically: a uniquely named temp file in the same directory (created
 * exclusively, so never through a pre-planted link), written and fsynced, renamed over the
 * target, then the directory fsynced so that the rename itself survives a crash. The directory
 * must exist. On failure the temp file is removed and the target is left as it was.
 */
export async function writeFileAtomic(target: string, text: string): Promise<void> {
  await writeFileAtomicParts(target, [text]);
}

/**
 * Parts are gathered up to this many UTF-16 units before a write: a file made in parts (the HTML
 * viewer page of a large run, issues 32 and 34) is never one string.
 */
const BATCH = 1 << 20;

/** Thrown by writeFileAtomicParts when the file would exceed its `maxBytes`; nothing is written. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file would be over ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export interface PartsOptions {
  /** Give up (FileTooLargeError) once more than this many bytes would be written. */
  maxBytes?: number;
}

/**
 * Writes the concatenation of `parts` (UTF-8) to `target` atomically: a uniquely named temp file
 * in the same directory (created exclusively), written a batch of parts at a time and fsynced,
 * renamed over the target, then the directory fsynced. The directory must exist. On failure (a
 * write, an exception from `parts`, or `maxBytes` passed) the temp file is removed and the target
 * is left as it was.
 */
export async function writeFileAtomicParts(
  target: string,
  parts: Iterable<string> | AsyncIterable<string>,
  options: PartsOptions = {},
): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(dir, tempNameFor(target));
  const limit = options.maxBytes ?? Infinity;
  const handle = await open(temp, 'wx', 0o644);
  try {
    try {
      let batch: string[] = [];
      let size = 0;
      let written = 0;
      const flush = async (): Promise<void> => {
        const bytes = Buffer.from(batch.join(''), 'utf8');
        batch = [];
        size = 0;
        written += bytes.length;
        if (written > limit) throw new FileTooLargeError(limit);
        // writeFile goes on from the current position and writes the whole buffer.
        await handle.writeFile(bytes);
      };
      for await (const part of parts) {
        batch.push(part);
        size += part.length;
        if (size >= BATCH) await flush();
      }
      if (size > 0) await flush();
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(dir);
}
