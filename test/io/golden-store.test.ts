import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTempName, tempNameFor, writeFileAtomic } from '../../src/io/atomic-write.js';
import {
  cleanStaleTempFiles,
  listGoldenFiles,
  readGoldenFile,
  removeGoldenFile,
  resolveGoldenDir,
  writeGoldenFile,
} from '../../src/io/golden-store.js';

let root: string;
let repo: string;
const store = () => ({ cwd: repo, goldenDir: 'golden' });

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'golden-store-'));
  repo = path.join(root, 'repo');
  mkdirSync(repo);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function put(rel: string, text: string): void {
  const abs = path.join(repo, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

/** A pid that belonged to a process which has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid ?? 999_999;
}

describe('resolveGoldenDir', () => {
  it('gives the folder relative to cwd with / separators', () => {
    expect(resolveGoldenDir('golden', repo)).toEqual({ ok: true, dir: 'golden' });
    expect(resolveGoldenDir('./snap//goldens/', repo)).toEqual({ ok: true, dir: 'snap/goldens' });
    expect(resolveGoldenDir(path.join(repo, 'g'), repo)).toEqual({ ok: true, dir: 'g' });
  });

  it('refuses the working directory itself and anything outside it', () => {
    for (const dir of ['.', '..', '../golden', path.join(root, 'elsewhere'), 'golden/../..']) {
      expect(resolveGoldenDir(dir, repo).ok, dir).toBe(false);
    }
  });
});

describe('writeGoldenFile', () => {
  it('creates the folders, writes the text exactly and leaves no temp file', async () => {
    const result = await writeGoldenFile('golden/a/b/t.jsonl.golden.json', '{\n  "x": 1\n}\n', store());
    expect(result).toEqual({ ok: true });
    expect(readFileSync(path.join(repo, 'golden/a/b/t.jsonl.golden.json'), 'utf8')).toBe('{\n  "x": 1\n}\n');
    expect(readdirSync(path.join(repo, 'golden/a/b'))).toEqual(['t.jsonl.golden.json']);
  });

  it('replaces an existing golden', async () => {
    put('golden/t.json.golden.json', 'old\n');
    expect(await writeGoldenFile('golden/t.json.golden.json', 'new\n', store())).toEqual({ ok: true });
    expect(readFileSync(path.join(repo, 'golden/t.json.golden.json'), 'utf8')).toBe('new\n');
    expect(readdirSync(path.join(repo, 'golden'))).toEqual(['t.json.golden.json']);
  });

  it('refuses a golden that is a symbolic link, and leaves the link target untouched', async () => {
    writeFileSync(path.join(root, 'outside.txt'), 'precious');
    mkdirSync(path.join(repo, 'golden'));
    symlinkSync(path.join(root, 'outside.txt'), path.join(repo, 'golden/t.json.golden.json'));
    const result = await writeGoldenFile('golden/t.json.golden.json', 'overwritten', store());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostic.code).toBe('golden-symlink');
    expect(readFileSync(path.join(root, 'outside.txt'), 'utf8')).toBe('precious');
    expect(lstatSync(path.join(repo, 'golden/t.json.golden.json')).isSymbolicLink()).toBe(true);
  });

  it('refuses a folder inside the golden folder that is a symbolic link', async () => {
    mkdirSync(path.join(root, 'outside'));
    mkdirSync(path.join(repo, 'golden'));
    symlinkSync(path.join(root, 'outside'), path.join(repo, 'golden/sub'));
    const result = await writeGoldenFile('golden/sub/deep/t.json.golden.json', 'x', store());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.diagnostic.code).toBe('golden-symlink');
      expect(result.diagnostic.message).not.toContain(root);
    }
    expect(readdirSync(path.join(root, 'outside'))).toEqual([]);
  });

  it('refuses when a file stands where a folder is needed, or a folder where the golden goes', async () => {
    put('golden/sub', 'a file');
    const blocked = await writeGoldenFile('golden/sub/t.json.golden.json', 'x', store());
    expect(blocked.ok || blocked.diagnostic.code).toBe('golden-not-a-folder');
    mkdirSync(path.join(repo, 'golden/dir.json.golden.json'));
    const dir = await writeGoldenFile('golden/dir.json.golden.json', 'x', store());
    expect(dir.ok || dir.diagnostic.code).toBe('golden-not-a-file');
  });

  it('refuses a path outside the golden folder', async () => {
    const result = await writeGoldenFile('other/t.json.golden.json', 'x', store());
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(repo, 'other'))).toBe(false);
  });
});

describe('writeFileAtomic', () => {
  it('leaves the old file and no temp file behind when the write fails', async () => {
    const dir = path.join(repo, 'd');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'f.json'), 'old');
    // A folder in the target's place: the rename fails after the temp file was written.
    mkdirSync(path.join(dir, 'blocked.json'));
    writeFileSync(path.join(dir, 'blocked.json', 'keep'), '');
    await expect(writeFileAtomic(path.join(dir, 'blocked.json'), 'new')).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['blocked.json', 'f.json']);
  });

  it('names temp files after the target and this process', () => {
    const name = tempNameFor('/x/t.jsonl.golden.json');
    expect(name).toMatch(new RegExp(`^\\.t\\.jsonl\\.golden\\.json\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`));
    expect(isTempName(name)).toBe(true);
    expect(isTempName('t.jsonl.golden.json')).toBe(false);
  });
});

describe('readGoldenFile', () => {
  it('reads a golden, and tells a missing one apart', async () => {
    put('golden/t.json.golden.json', '{}\n');
    expect(await readGoldenFile('golden/t.json.golden.json', store())).toEqual({
      kind: 'found',
      text: '{}\n',
    });
    expect(await readGoldenFile('golden/none.json.golden.json', store())).toEqual({ kind: 'missing' });
    expect(await readGoldenFile('golden/no/such/dir.json.golden.json', store())).toEqual({ kind: 'missing' });
  });

  it('refuses to read through a symbolic link', async () => {
    writeFileSync(path.join(repo, 'real.json'), '{}\n');
    mkdirSync(path.join(repo, 'golden'));
    symlinkSync(path.join(repo, 'real.json'), path.join(repo, 'golden/t.json.golden.json'));
    const result = await readGoldenFile('golden/t.json.golden.json', store());
    expect(result.kind === 'error' && result.diagnostic.code).toBe('golden-symlink');
  });

  it('reports an empty golden with a hint to regenerate it', async () => {
    put('golden/t.json.golden.json', '');
    const result = await readGoldenFile('golden/t.json.golden.json', store());
    expect(result.kind).toBe('error');
    if (result.kind === 'error') {
      expect(result.diagnostic.code).toBe('empty');
      expect(result.diagnostic.hint).toContain('update');
    }
  });
});

describe('listGoldenFiles', () => {
  it('lists every golden below the folder, sorted by code unit, skipping temp files and other files', async () => {
    put('golden/b/z.json.golden.json', '');
    put('golden/B.json.golden.json', '');
    put('golden/a.jsonl.golden.json', '');
    put('golden/notes.txt', '');
    put('golden/.a.jsonl.golden.json.123.0123456789ab.tmp', '');
    put('elsewhere/x.json.golden.json', '');
    expect(await listGoldenFiles(store())).toEqual([
      'golden/B.json.golden.json',
      'golden/a.jsonl.golden.json',
      'golden/b/z.json.golden.json',
    ]);
  });

  it('lists a symlinked golden (so it gets reported) but does not enter symlinked folders', async () => {
    put('outside/x.json.golden.json', '');
    mkdirSync(path.join(repo, 'golden'));
    symlinkSync(path.join(repo, 'outside'), path.join(repo, 'golden/linked-dir'));
    symlinkSync(path.join(repo, 'outside/x.json.golden.json'), path.join(repo, 'golden/l.json.golden.json'));
    expect(await listGoldenFiles(store())).toEqual(['golden/l.json.golden.json']);
  });

  it('is empty when the golden folder does not exist', async () => {
    expect(await listGoldenFiles(store())).toEqual([]);
  });
});

describe('removeGoldenFile', () => {
  it('removes the golden and the folders it leaves empty, but not the golden folder', async () => {
    put('golden/a/b/t.json.golden.json', '');
    put('golden/a/keep.json.golden.json', '');
    expect(await removeGoldenFile('golden/a/b/t.json.golden.json', store())).toEqual({ ok: true });
    expect(existsSync(path.join(repo, 'golden/a/b'))).toBe(false);
    expect(existsSync(path.join(repo, 'golden/a/keep.json.golden.json'))).toBe(true);
    expect(await removeGoldenFile('golden/a/keep.json.golden.json', store())).toEqual({ ok: true });
    expect(readdirSync(path.join(repo, 'golden'))).toEqual([]);
  });

  it('never deletes through a symlinked folder', async () => {
    put('outside/t.json.golden.json', 'precious');
    mkdirSync(path.join(repo, 'golden'));
    symlinkSync(path.join(repo, 'outside'), path.join(repo, 'golden/sub'));
    const result = await removeGoldenFile('golden/sub/t.json.golden.json', store());
    expect(result.ok).toBe(false);
    expect(readFileSync(path.join(repo, 'outside/t.json.golden.json'), 'utf8')).toBe('precious');
  });
});

describe('cleanStaleTempFiles', () => {
  it('removes temp files of writers that are gone, and keeps those of live ones', async () => {
    const dead = `.t.json.golden.json.${deadPid()}.0123456789ab.tmp`;
    const live = `.u.json.golden.json.${process.ppid}.0123456789ab.tmp`;
    const mine = `.v.json.golden.json.${process.pid}.0123456789ab.tmp`;
    put(`golden/sub/${dead}`, 'partial');
    put(`golden/${live}`, 'in progress');
    put(`golden/${mine}`, 'in progress');
    put('golden/t.json.golden.json', 'kept');
    expect(await cleanStaleTempFiles(store())).toEqual([`golden/sub/${dead}`]);
    expect(readdirSync(path.join(repo, 'golden')).sort()).toEqual(
      [live, mine, 'sub', 't.json.golden.json'].sort(),
    );
  });

  it('removes a temp file older than an hour whatever its pid', async () => {
    const old = `.t.json.golden.json.${process.ppid}.0123456789ab.tmp`;
    put(`golden/${old}`, 'partial');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(path.join(repo, 'golden', old), twoHoursAgo, twoHoursAgo);
    expect(await cleanStaleTempFiles(store())).toEqual([`golden/${old}`]);
  });
});
