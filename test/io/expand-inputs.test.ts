import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expandInputs } from '../../src/io/expand-inputs.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cs-expand-'));
  const files = [
    'runs/b.json',
    'runs/a.jsonl',
    'runs/notes.md',
    'runs/nested/c.traj',
    'runs/nested/d.ndjson',
    'runs/nested/deeper/e.json',
    'runs/.hidden/f.json',
    'runs/node_modules/g.json',
    'top.json',
    'swe/run-1.json',
    'swe/run-2.json',
    'swe/run-3.json',
    'swe/run-10.json',
    'swe/Run-A.json',
    'swe/skip/s.json',
    'swe/.cache/h.json',
    'swe/node_modules/n.json',
    'odd/a*b.json',
    'odd/axb.json',
    'odd/run[1].json',
    'odd/run1.json',
    'odd/!bang.json',
  ];
  for (const f of files) {
    await mkdir(path.dirname(path.join(root, f)), { recursive: true });
    await writeFile(path.join(root, f), '{}');
  }
  await mkdir(path.join(root, 'empty'));
  await symlink(path.join(root, 'runs'), path.join(root, 'runs/nested/loop'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('expandInputs', () => {
  it('walks directories for transcript extensions, sorted, skipping hidden, node_modules and dir links', async () => {
    const result = await expandInputs(['runs'], { cwd: root });
    expect(result).toEqual({
      files: [
        'runs/a.jsonl',
        'runs/b.json',
        'runs/nested/c.traj',
        'runs/nested/d.ndjson',
        'runs/nested/deeper/e.json',
      ],
      diagnostics: [],
    });
  });

  it('expands globs relative to cwd, one level per * segment', async () => {
    const { files } = await expandInputs(['runs/*.json*'], { cwd: root });
    expect(files).toEqual(['runs/a.jsonl', 'runs/b.json']);
    const deep = await expandInputs(['runs/**/*.json'], { cwd: root });
    expect(deep.files).toEqual(['runs/b.json', 'runs/nested/deeper/e.json']);
  });

  it('matches hidden entries only when the pattern names them', async () => {
    const { files } = await expandInputs(['runs/.hidden/*.json'], { cwd: root });
    expect(files).toEqual(['runs/.hidden/f.json']);
  });

  it('normalizes, de-duplicates and sorts across arguments', async () => {
    const { files } = await expandInputs(
      ['./top.json', 'runs/b.json', 'top.json', 'runs//./b.json', '*.json'],
      {
        cwd: root,
      },
    );
    expect(files).toEqual(['runs/b.json', 'top.json']);
  });

  it('keeps missing explicit files so the reader reports them', async () => {
    const result = await expandInputs(['missing.json'], { cwd: root });
    expect(result).toEqual({ files: ['missing.json'], diagnostics: [] });
  });

  it('reports a glob or a directory that matches nothing, without losing the other inputs', async () => {
    const result = await expandInputs(['nothing/*.json', 'empty', 'top.json'], { cwd: root });
    expect(result.files).toEqual(['top.json']);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.severity])).toEqual([
      ['no-match', 'nothing/*.json', 1, 1, 'error'],
      ['no-match', 'empty', 1, 1, 'error'],
    ]);
  });

  it('keeps absolute arguments absolute', async () => {
    const abs = path.join(root, 'top.json').split(path.sep).join('/');
    const { files } = await expandInputs([abs], { cwd: '/' });
    expect(files).toEqual([abs]);
  });

  it('keeps the walk inside the base: a directory link is never followed by a glob either', async () => {
    const { files } = await expandInputs(['runs/nested/**/*.json'], { cwd: root });
    expect(files).toEqual(['runs/nested/deeper/e.json']);
  });
});

describe('expandInputs: picomatch syntax', () => {
  const expand = async (...args: string[]) => expandInputs(args, { cwd: root });

  it('expands braces and ranges', async () => {
    expect((await expand('swe/run-{1,3}.json')).files).toEqual(['swe/run-1.json', 'swe/run-3.json']);
    expect((await expand('swe/run-{1..2}.json')).files).toEqual(['swe/run-1.json', 'swe/run-2.json']);
    expect((await expand('{runs,swe}/b.json', 'swe/run-{2..3}.json')).files).toEqual([
      'runs/b.json',
      'swe/run-2.json',
      'swe/run-3.json',
    ]);
  });

  it('supports POSIX classes and extglobs', async () => {
    expect((await expand('swe/run-[[:digit:]].json')).files).toEqual([
      'swe/run-1.json',
      'swe/run-2.json',
      'swe/run-3.json',
    ]);
    expect((await expand('swe/[[:upper:]]*.json')).files).toEqual(['swe/Run-A.json']);
    expect((await expand('swe/run-+([0-9]).json')).files).toEqual([
      'swe/run-1.json',
      'swe/run-10.json',
      'swe/run-2.json',
      'swe/run-3.json',
    ]);
    expect((await expand('swe/!(run-*).json')).files).toEqual(['swe/Run-A.json']);
  });

  it('takes an escaped character literally, in a pattern and in a plain path', async () => {
    expect((await expand('odd/a\\*b.json')).files).toEqual(['odd/a*b.json']);
    expect((await expand('odd/*\\*b.json')).files).toEqual(['odd/a*b.json']);
    expect((await expand('odd/run\\[1\\].json')).files).toEqual(['odd/run[1].json']);
    // unescaped, the brackets are a class; picomatch also matches a path spelt exactly as the pattern
    expect((await expand('odd/run[1].json')).files).toEqual(['odd/run1.json', 'odd/run[1].json']);
  });

  it('names a file starting with ! as ./!name or \\!name', async () => {
    expect(await expand('./!bang.json')).toEqual({ files: ['!bang.json'], diagnostics: [] });
    expect((await expand('odd/!bang.json')).files).toEqual(['odd/!bang.json']);
    expect((await expand('./odd/!*.json')).files).toEqual(['odd/!bang.json']);
    expect(await expand('\\!bang.json')).toEqual({ files: ['!bang.json'], diagnostics: [] });
  });

  it('skips hidden entries and node_modules unless the pattern names them', async () => {
    expect((await expand('swe/**/*.json')).files).not.toContain('swe/.cache/h.json');
    expect((await expand('swe/**/*.json')).files).not.toContain('swe/node_modules/n.json');
    expect((await expand('swe/.cache/*.json')).files).toEqual(['swe/.cache/h.json']);
    expect((await expand('swe/.*/*.json')).files).toEqual(['swe/.cache/h.json']);
    expect((await expand('swe/node_modules/*.json')).files).toEqual(['swe/node_modules/n.json']);
    expect((await expand('swe/**/node_modules/*.json')).files).toEqual(['swe/node_modules/n.json']);
  });
});

describe('expandInputs: exclusions', () => {
  const expand = async (...args: string[]) => expandInputs(args, { cwd: root });
  const SWE = ['swe/Run-A.json', 'swe/run-1.json', 'swe/run-10.json', 'swe/run-2.json', 'swe/run-3.json'];

  it('drops what a ! pattern matches from a glob, whatever the order', async () => {
    const after = await expand('swe/**/*.json', '!swe/skip/**');
    expect(after).toEqual({ files: SWE, diagnostics: [] });
    expect(await expand('!swe/skip/**', 'swe/**/*.json')).toEqual(after);
    expect((await expand('swe/*.json', '!swe/run-{1..3}.json', '!**/Run-*')).files).toEqual([
      'swe/run-10.json',
    ]);
  });

  it('drops from a walked folder, a folder exclusion dropping everything below it', async () => {
    expect((await expand('.', '!runs/**', '!odd', '!top.json', '!swe/skip')).files).toEqual(SWE);
    expect((await expand('runs', '!runs/nested')).files).toEqual(['runs/a.jsonl', 'runs/b.json']);
    expect((await expand('runs', '!**/*.jsonl', '!**/*.ndjson')).files).toEqual([
      'runs/b.json',
      'runs/nested/c.traj',
      'runs/nested/deeper/e.json',
    ]);
  });

  it('drops a file named directly, however its path is spelt', async () => {
    expect((await expand('top.json', 'runs/b.json', '!./top.json')).files).toEqual(['runs/b.json']);
    expect((await expand('./top.json', 'runs/b.json', '!top.json')).files).toEqual(['runs/b.json']);
    const abs = path.join(root, 'runs').split(path.sep).join('/');
    expect((await expandInputs([abs, '!runs/nested/**'], { cwd: root })).files).toEqual([
      `${abs}/a.jsonl`,
      `${abs}/b.json`,
    ]);
    expect((await expandInputs(['runs/*.json*', `!${abs}/a.jsonl`], { cwd: root })).files).toEqual([
      'runs/b.json',
    ]);
  });

  it('is no error when an exclusion matches nothing', async () => {
    expect(await expand('top.json', '!nothing/**', '!missing.json')).toEqual({
      files: ['top.json'],
      diagnostics: [],
    });
  });

  it('still reports a positive pattern that matches nothing', async () => {
    const result = await expand('top.json', 'nothing/*.json', '!top.json', 'runs/b.json');
    expect(result.files).toEqual(['runs/b.json']);
    expect(result.diagnostics.map((d) => [d.code, d.file])).toEqual([['no-match', 'nothing/*.json']]);
  });

  it('refuses a list of exclusions only: nothing to include', async () => {
    const result = await expand('!swe/skip/**', '!top.json');
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.severity])).toEqual([
      ['nothing-to-include', '!swe/skip/**', 1, 1, 'error'],
    ]);
    expect(result.diagnostics[0]?.message).toMatch(/^Nothing to include/);
  });

  it('reports exclusions that drop every file found', async () => {
    const result = await expand('swe/skip/*.json', '!swe/skip');
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.file])).toEqual([['all-excluded', '!swe/skip']]);
  });

  it('refuses an empty exclusion', async () => {
    const result = await expand('top.json', '!');
    expect(result.files).toEqual(['top.json']);
    expect(result.diagnostics.map((d) => [d.code, d.file])).toEqual([['bad-pattern', '!']]);
  });
});
