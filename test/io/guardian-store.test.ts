import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseTaskState } from '../../src/core/guardian/parse-state.js';
import { initialState, serializeState } from '../../src/core/guardian/state.js';
import { renderSummary } from '../../src/core/guardian/summary.js';
import {
  GuardianStoreError,
  LATEST_SUMMARY,
  STATE_FILE,
  archiveGuardianFiles,
  archiveStamp,
  readGuardianFiles,
  saveCheckpoint,
  writeState,
  writeSummary,
} from '../../src/io/guardian-store.js';

const NOW = '2025-03-01T09:00:00.000Z';
let root: string;

beforeEach(async () => {
  root = path.join(await mkdtemp(path.join(tmpdir(), 'guardian-store-')), 'task');
});
afterEach(async () => {
  await rm(path.dirname(root), { recursive: true, force: true });
});

const state = (next = 'START') => ({ ...initialState({ updated_at: NOW, goal: 'g' }), next_action: next });

describe('readGuardianFiles', () => {
  it('reports both files absent for a root that does not exist yet', async () => {
    expect(await readGuardianFiles(root)).toEqual({ state: { kind: 'absent' }, summary: { kind: 'absent' } });
  });

  it('reads back what a checkpoint wrote (restart recovery from disk)', async () => {
    const s = state('run the tests');
    await saveCheckpoint(root, s, renderSummary(s));
    const files = await readGuardianFiles(root);
    expect(files.state.kind === 'text' && parseTaskState(files.state.text, STATE_FILE)).toEqual({
      kind: 'valid',
      state: s,
    });
    expect(files.summary).toEqual({ kind: 'text', text: renderSummary(s) });
  });

  it('refuses to read the state through a symbolic link', async () => {
    await mkdir(root, { recursive: true });
    const elsewhere = path.join(path.dirname(root), 'elsewhere.json');
    await writeFile(elsewhere, serializeState(state()));
    await symlink(elsewhere, path.join(root, STATE_FILE));
    const files = await readGuardianFiles(root);
    expect(files.state).toMatchObject({
      kind: 'unusable',
      diagnostic: { code: 'guardian-symlink', file: STATE_FILE },
    });
  });

  it('says so when the root is a file', async () => {
    await mkdir(path.dirname(root), { recursive: true });
    await writeFile(root, 'not a directory');
    const files = await readGuardianFiles(root);
    expect(files.state).toMatchObject({ kind: 'unusable', diagnostic: { code: 'guardian-root' } });
  });

  it('reports a directory in place of the state file as unusable', async () => {
    await mkdir(path.join(root, STATE_FILE), { recursive: true });
    expect((await readGuardianFiles(root)).state).toMatchObject({
      kind: 'unusable',
      diagnostic: { code: 'guardian-not-a-file' },
    });
  });
});

describe('writes', () => {
  it('numbers summaries and keeps the alias a regular-file copy of the newest', async () => {
    expect(await writeSummary(root, '# one\n')).toBe('summaries/summary-000001.md');
    expect(await writeSummary(root, '# two\n')).toBe('summaries/summary-000002.md');
    const alias = path.join(root, LATEST_SUMMARY);
    expect((await lstat(alias)).isFile()).toBe(true);
    expect(await readFile(alias, 'utf8')).toBe('# two\n');
    expect(await readFile(path.join(root, 'summaries/summary-000001.md'), 'utf8')).toBe('# one\n');
  });

  it('refuses a symbolic link at the state path and never writes through it', async () => {
    await mkdir(root, { recursive: true });
    const target = path.join(path.dirname(root), 'victim.txt');
    await writeFile(target, 'precious');
    await symlink(target, path.join(root, STATE_FILE));
    await expect(writeState(root, state())).rejects.toBeInstanceOf(GuardianStoreError);
    expect(await readFile(target, 'utf8')).toBe('precious');
  });

  it('refuses a summaries directory that is a link', async () => {
    await mkdir(root, { recursive: true });
    const outside = path.join(path.dirname(root), 'outside');
    await mkdir(outside);
    await symlink(outside, path.join(root, 'summaries'));
    await expect(writeSummary(root, '# x\n')).rejects.toMatchObject({
      diagnostic: { code: 'guardian-symlink' },
    });
    expect(await readdir(outside)).toEqual([]);
  });

  it('leaves no temp file behind and removes those of writers that died', async () => {
    await mkdir(root, { recursive: true });
    // A temp file as a killed writer leaves it: the pid of a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;
    const orphan = `.${STATE_FILE}.${dead}.0123456789ab.tmp`;
    await writeFile(path.join(root, orphan), '{"half": ');
    await utimes(path.join(root, orphan), new Date(0), new Date(0));
    await writeState(root, state());
    expect((await readdir(root)).sort()).toEqual([STATE_FILE]);
  });
});

describe('archiveGuardianFiles', () => {
  it('moves the state and the summary alias to archive/<stamp>/ unchanged', async () => {
    await mkdir(path.join(root, 'summaries'), { recursive: true });
    await writeFile(path.join(root, STATE_FILE), '{"legacy": true}');
    await writeFile(path.join(root, LATEST_SUMMARY), 'old summary');
    const stamp = archiveStamp(NOW);
    expect(stamp).toBe('2025-03-01T09-00-00-000Z');
    const moved = await archiveGuardianFiles(root, stamp);
    expect(moved).toEqual([
      `${STATE_FILE} -> archive/${stamp}/${STATE_FILE}`,
      `${LATEST_SUMMARY} -> archive/${stamp}/latest-summary.md`,
    ]);
    expect(await readFile(path.join(root, 'archive', stamp, STATE_FILE), 'utf8')).toBe('{"legacy": true}');
    expect(await readGuardianFiles(root)).toEqual({ state: { kind: 'absent' }, summary: { kind: 'absent' } });
  });

  it('never reuses an archive directory', async () => {
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, STATE_FILE), 'a');
    await archiveGuardianFiles(root, 'same');
    await writeFile(path.join(root, STATE_FILE), 'b');
    expect(await archiveGuardianFiles(root, 'same')).toEqual([
      `${STATE_FILE} -> archive/same-2/${STATE_FILE}`,
    ]);
    expect(await readFile(path.join(root, 'archive/same', STATE_FILE), 'utf8')).toBe('a');
  });
});
