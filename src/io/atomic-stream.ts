// writeFileAtomic for a file made in parts (the HTML viewer page of a large run): the parts go to
// the temp file as they come, in writes of about a megabyte, so the whole text is never one
// string. The same guarantees: a reader sees the old file or the new one, never a partial write.
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { tempNameFor } from './atomic-write.js';

/** Parts are gathered up to this many UTF-16 units before a write. */
const BATCH = 1 << 20;

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
 * Writes the concatenation of `parts` (UTF-8) to `target` atomically: a uniquely named temp file
 * in the same directory (created exclusively), written part by part and fsynced, renamed over the
 * target, then the directory fsynced. The directory must exist. On failure (a write, or an
 * exception from `parts`) the temp file is removed and the target is left as it was.
 */
export async function writeFileAtomicParts(
  target: string,
  parts: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(dir, tempNameFor(target));
  const handle = await open(temp, 'wx', 0o644);
  try {
    try {
      let batch: string[] = [];
      let size = 0;
      for await (const part of parts) {
        batch.push(part);
        size += part.length;
        if (size < BATCH) continue;
        await handle.write(batch.join(''), null, 'utf8');
        batch = [];
        size = 0;
      }
      if (size > 0) await handle.write(batch.join(''), null, 'utf8');
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
