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
});
