// The folder of a run's spill file (src/cli/check/golden-spill.ts, outcome-spill.ts): one of its
// own under the OS temp dir, named after the process that owns it. A run removes its folder at the
// end or on exit; a process killed outright cannot, so each new folder first removes those of
// processes that are gone. A pid says nothing across PID namespaces (two containers sharing one temp
// dir): a folder is taken for abandoned only when nothing in it changed for STALE_MS as well.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { processIsAlive } from './atomic-write.js';

const SPILL_DIR = /^context-stability-[a-z]+-(\d+)-[A-Za-z0-9]{6}$/;

/** A spill folder untouched this long, whose process is not seen, is abandoned. */
export const STALE_MS = 60 * 60 * 1000;

/** The newest change time of the folder and what it holds (a live run appends to its file). */
function lastChange(dir: string): number {
  let newest = statSync(dir).mtimeMs;
  for (const name of readdirSync(dir)) newest = Math.max(newest, statSync(path.join(dir, name)).mtimeMs);
  return newest;
}

/** Removes the spill folders under `root` whose process is gone and that went stale; never fails. */
export function removeAbandonedSpills(root: string, now: number = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const match = SPILL_DIR.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || processIsAlive(pid)) continue;
    try {
      const dir = path.join(root, name);
      if (now - lastChange(dir) < STALE_MS) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another run removed it, or it is not ours to remove.
    }
  }
}

/** A new folder `context-stability-<kind>-<pid>-XXXXXX` under `root` (mode 0700, mkdtemp). */
export function makeSpillDir(root: string, kind: string): string {
  removeAbandonedSpills(root);
  return mkdtempSync(path.join(root, `context-stability-${kind}-${process.pid}-`));
}
