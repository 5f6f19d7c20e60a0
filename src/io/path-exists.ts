// Whether something is at a path, link or not (lstat: a dangling symlink is still "there").
import { lstat } from 'node:fs/promises';

export async function pathExists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}
