// Real paths of files that may not exist yet: where a write would land once every symbolic link
// on the way is followed. The golden store and the Action's output files use it to refuse a
// folder that a link committed in a pull request points outside the workspace.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
}

/** `real` is `base` or lies below it (both real paths). */
export function isWithin(real: string, base: string): boolean {
  const rel = path.relative(base, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * The real path `abs` has or will have once created: the real path of its nearest existing
 * ancestor joined with the rest. `null` when a part of it is a link that points nowhere (or in
 * a loop): what creating it would make cannot be told.
 */
export async function realPathOf(abs: string): Promise<string | null> {
  const rest: string[] = [];
  let current = abs;
  let retried = false;
  for (;;) {
    try {
      return path.join(await realpath(current), ...rest.reverse());
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'ELOOP') return null;
      if (errno !== 'ENOENT' && errno !== 'ENOTDIR') throw error;
      // ENOENT also comes from a link whose target is missing: it exists, so it is not creatable.
      // A folder that exists now but not a moment ago was made by a concurrent run: look again.
      const kind = await lstat(current).then(
        (st) => (st.isSymbolicLink() ? 'link' : 'made'),
        () => 'missing',
      );
      if (kind === 'link' || (kind === 'made' && retried)) return null;
      if (kind === 'made') {
        retried = true;
        continue;
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return null;
    rest.push(path.basename(current));
    current = parent;
  }
}
