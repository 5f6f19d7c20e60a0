// Spill folders (issue 32) are named after their process; a new one first removes the folders of
// processes that are gone (killed outright, so their exit handler never ran), and only those.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STALE_MS, makeSpillDir } from '../../src/io/spill-dir.js';

const root = mkdtempSync(path.join(tmpdir(), 'cs-spill-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('makeSpillDir', () => {
  it("removes a gone process's spill folders, keeps live ones and anything else", () => {
    const gone = path.join(root, `context-stability-goldens-${deadPid()}-abc123`);
    const live = path.join(root, `context-stability-outcomes-${process.ppid}-def456`);
    const other = path.join(root, 'context-stability-notes');
    // A pid not seen here, but a file written a minute ago: another PID namespace's live run.
    const unseen = path.join(root, `context-stability-outcomes-${deadPid()}-ghi789`);
    for (const dir of [gone, live, other, unseen]) mkdirSync(dir);
    writeFileSync(path.join(gone, 'goldens.jsonl'), '');
    writeFileSync(path.join(unseen, 'outcomes.jsonl'), '');
    const old = (Date.now() - STALE_MS - 60_000) / 1000;
    const recent = (Date.now() - 60_000) / 1000;
    utimesSync(path.join(gone, 'goldens.jsonl'), old, old);
    utimesSync(gone, old, old);
    utimesSync(path.join(unseen, 'outcomes.jsonl'), recent, recent);
    utimesSync(unseen, old, old);
    const made = makeSpillDir(root, 'outcomes');
    expect(path.basename(made)).toMatch(
      new RegExp(`^context-stability-outcomes-${process.pid}-[A-Za-z0-9]{6}$`),
    );
    if (process.platform !== 'win32') expect(statSync(made).mode & 0o777).toBe(0o700);
    expect(existsSync(gone)).toBe(false);
    expect(readdirSync(root).sort()).toEqual(
      [path.basename(live), path.basename(other), path.basename(unseen), path.basename(made)].sort(),
    );
  });
});
