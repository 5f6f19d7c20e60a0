// Issue 12, item 1: a golden folder that is itself a symbolic link (or lies below one) to a place
// outside the repository is refused: nothing is read, written or deleted there.
import {
  existsSync,
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
import {
  checkGoldenRoot,
  cleanStaleTempFiles,
  listGoldenFiles,
  readGoldenFile,
  removeGoldenFile,
  writeGoldenFile,
} from '../../src/io/golden-store.js';

let root: string;
let repo: string;
let outside: string;
const store = (goldenDir = 'golden') => ({ cwd: repo, goldenDir });

/** Every file below `dir` with its content. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const abs = path.join(dir, entry);
    try {
      out[entry] = readFileSync(abs, 'utf8');
    } catch {
      out[entry] = '<folder>';
    }
  }
  return out;
}

const STALE_TEMP = '.x.golden.json.1.0123456789ab.tmp';

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'golden-outside-'));
  repo = path.join(root, 'repo');
  outside = path.join(root, 'outside');
  mkdirSync(repo);
  mkdirSync(path.join(outside, 'sub'), { recursive: true });
  writeFileSync(path.join(outside, 'x.golden.json'), 'precious x\n');
  writeFileSync(path.join(outside, 'sub', 'y.golden.json'), 'precious y\n');
  writeFileSync(path.join(outside, STALE_TEMP), 'temp\n');
  const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
  utimesSync(path.join(outside, STALE_TEMP), old, old);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('a golden folder that is a symbolic link to outside the repository', () => {
  let before: Record<string, string>;
  beforeEach(() => {
    symlinkSync(outside, path.join(repo, 'golden'), 'dir');
    before = snapshot(outside);
  });
  afterEach(() => {
    expect(snapshot(outside)).toEqual(before);
  });

  it('is refused up front, naming the folder and saying what to do', async () => {
    const result = await checkGoldenRoot(store());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostic).toMatchObject({
      severity: 'error',
      code: 'golden-outside-workspace',
      file: 'golden',
      line: 1,
      column: 1,
    });
    expect(result.diagnostic.message).toContain('outside the repository');
    expect(result.diagnostic.hint).toMatch(/regular folder inside the repository/);
    expect(JSON.stringify(result.diagnostic)).not.toContain(root);
  });

  it('is never written through', async () => {
    const result = await writeGoldenFile('golden/new.json.golden.json', 'x', store());
    expect(result.ok || result.diagnostic.code).toBe('golden-outside-workspace');
    if (!result.ok) expect(result.diagnostic.file).toBe('golden/new.json.golden.json');
    const existing = await writeGoldenFile('golden/x.golden.json', 'overwritten', store());
    expect(existing.ok).toBe(false);
    const deep = await writeGoldenFile('golden/sub/y.golden.json', 'overwritten', store());
    expect(deep.ok).toBe(false);
  });

  it('is never pruned through', async () => {
    const result = await removeGoldenFile('golden/x.golden.json', store());
    expect(result.ok || result.diagnostic.code).toBe('golden-outside-workspace');
    const deep = await removeGoldenFile('golden/sub/y.golden.json', store());
    expect(deep.ok).toBe(false);
    expect(existsSync(path.join(outside, 'x.golden.json'))).toBe(true);
  });

  it('is not read, listed or cleaned', async () => {
    const read = await readGoldenFile('golden/x.golden.json', store());
    expect(read.kind === 'error' && read.diagnostic.code).toBe('golden-outside-workspace');
    expect(await listGoldenFiles(store())).toEqual([]);
    expect(await cleanStaleTempFiles(store())).toEqual([]);
  });
});

describe('a golden folder below a symbolic link to outside the repository', () => {
  it('is refused and nothing is created outside', async () => {
    symlinkSync(outside, path.join(repo, 'snap'), 'dir');
    const before = snapshot(outside);
    expect((await checkGoldenRoot(store('snap/golden'))).ok).toBe(false);
    const result = await writeGoldenFile('snap/golden/t.json.golden.json', 'x', store('snap/golden'));
    expect(result.ok || result.diagnostic.code).toBe('golden-outside-workspace');
    if (!result.ok) expect(result.diagnostic.file).toBe('snap/golden/t.json.golden.json');
    expect(snapshot(outside)).toEqual(before);
  });

  it('is refused when the link points nowhere', async () => {
    symlinkSync(path.join(root, 'missing'), path.join(repo, 'golden'), 'dir');
    const result = await writeGoldenFile('golden/t.json.golden.json', 'x', store());
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(root, 'missing'))).toBe(false);
  });
});

describe('links that stay inside the repository', () => {
  it('a golden folder linked to a folder inside the repository is used', async () => {
    mkdirSync(path.join(repo, 'shared', 'goldens'), { recursive: true });
    symlinkSync(path.join(repo, 'shared', 'goldens'), path.join(repo, 'golden'), 'dir');
    expect(await checkGoldenRoot(store())).toEqual({ ok: true });
    expect(await writeGoldenFile('golden/a/t.json.golden.json', 'x\n', store())).toEqual({ ok: true });
    expect(readFileSync(path.join(repo, 'shared/goldens/a/t.json.golden.json'), 'utf8')).toBe('x\n');
    expect(await removeGoldenFile('golden/a/t.json.golden.json', store())).toEqual({ ok: true });
    expect(existsSync(path.join(repo, 'shared/goldens/a/t.json.golden.json'))).toBe(false);
  });

  it('a repository reached through a symbolic link works as usual', async () => {
    const alias = path.join(root, 'alias');
    symlinkSync(repo, alias, 'dir');
    const viaAlias = { cwd: alias, goldenDir: 'golden' };
    expect(await checkGoldenRoot(viaAlias)).toEqual({ ok: true });
    expect(await writeGoldenFile('golden/t.json.golden.json', 'x\n', viaAlias)).toEqual({ ok: true });
    expect(await listGoldenFiles(viaAlias)).toEqual(['golden/t.json.golden.json']);
    expect(await removeGoldenFile('golden/t.json.golden.json', viaAlias)).toEqual({ ok: true });
  });

  it('a missing golden folder is fine (update creates it)', async () => {
    expect(await checkGoldenRoot(store('not/yet'))).toEqual({ ok: true });
    expect((await readGoldenFile('not/yet/t.json.golden.json', store('not/yet'))).kind).toBe('missing');
  });
});
