// Issue 12, item 1, through the CLI: `update` (with --prune-obsolete) and `check` outside CI never
// write or delete through a golden folder that is a symbolic link to outside the repository.
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TempRepo } from './check-support.js';

let repo: TempRepo;
let outside: string;

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    try {
      out[entry] = readFileSync(path.join(dir, entry), 'utf8');
    } catch {
      out[entry] = '<folder>';
    }
  }
  return out;
}

beforeEach(() => {
  repo = new TempRepo();
  outside = path.join(repo.root, 'outside');
  mkdirSync(path.join(outside, 'transcripts'), { recursive: true });
  // An obsolete golden (no such transcript) and an unrelated golden-named file.
  writeFileSync(path.join(outside, 'transcripts', 'gone.jsonl.golden.json'), 'precious 1\n');
  writeFileSync(path.join(outside, 'other.golden.json'), 'precious 2\n');
});
afterEach(() => {
  repo.remove();
});

const DIAGNOSTIC = 'golden:1:1: error[golden-outside-workspace]';

describe('a golden folder linked to outside the repository', () => {
  let before: Record<string, string>;
  beforeEach(() => {
    symlinkSync(outside, repo.path('golden'), 'dir');
    before = snapshot(outside);
  });

  it('update --prune-obsolete refuses with exit 2 and deletes and writes nothing there', async () => {
    const run = await repo.cli(['update', '--prune-obsolete', '--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(DIAGNOSTIC);
    expect(run.stderr).toContain('outside the repository');
    expect(run.stderr).toMatch(/Hint: .*regular folder inside the repository/);
    expect(run.stderr).not.toContain(repo.root);
    expect(run.stdout).not.toContain('removed');
    expect(snapshot(outside)).toEqual(before);
    expect(existsSync(path.join(outside, 'transcripts', 'gone.jsonl.golden.json'))).toBe(true);
  });

  it('update without pruning writes nothing there', async () => {
    const run = await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(DIAGNOSTIC);
    expect(snapshot(outside)).toEqual(before);
  });

  it('check outside CI writes no missing golden there', async () => {
    const run = await repo.cli(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain('golden-outside-workspace');
    expect(snapshot(outside)).toEqual(before);
  });
});

it('a golden folder linked inside the repository is updated and pruned as usual', async () => {
  mkdirSync(repo.path('shared/goldens/transcripts'), { recursive: true });
  writeFileSync(repo.path('shared/goldens/transcripts/gone.jsonl.golden.json'), 'obsolete\n');
  symlinkSync(repo.path('shared/goldens'), repo.path('golden'), 'dir');
  const run = await repo.cli(['update', '--prune-obsolete', '--policy', 'policy.yml', 'transcripts']);
  expect(run.stderr).not.toContain('golden-outside-workspace');
  expect(run.stdout).toContain('removed golden/transcripts/gone.jsonl.golden.json (obsolete)');
  expect(existsSync(repo.path('shared/goldens/transcripts/gone.jsonl.golden.json'))).toBe(false);
  expect(readdirSync(repo.path('shared/goldens/transcripts')).length).toBeGreaterThan(0);
  expect(snapshot(outside)).toEqual({
    transcripts: '<folder>',
    'transcripts/gone.jsonl.golden.json': 'precious 1\n',
    'other.golden.json': 'precious 2\n',
  });
});
