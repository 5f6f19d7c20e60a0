// Glob inputs through the CLI in-process: `!` exclusions, braces and the errors for inputs that
// include nothing. The Action expands its `transcripts` input with the same function
// (expandInputs), so these semantics are the Action's too (docs/globs.md).
import { cpSync, existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TempRepo, outcomes } from './check-support.js';

let repo: TempRepo;
beforeEach(() => {
  repo = new TempRepo();
  // A sub-folder of transcripts that the exclusions below are meant to skip.
  cpSync(repo.path('transcripts/notes.jsonl'), repo.path('transcripts/skip/notes-copy.jsonl'));
  cpSync(repo.path('transcripts/coding.jsonl'), repo.path('transcripts/skip/deeper/coding-copy.jsonl'));
});
afterEach(() => {
  repo.remove();
});

const KEPT = ['transcripts/coding.jsonl', 'transcripts/notes.jsonl', 'transcripts/support.json'];

describe('check with glob exclusions', () => {
  it("check 'transcripts/**' '!transcripts/skip/**' skips those", async () => {
    const { run, report } = await repo.checkJson([
      '--policy',
      'policy.yml',
      'transcripts/**',
      '!transcripts/skip/**',
    ]);
    expect(run.code).toBe(0);
    expect(outcomes(report)).toEqual(Object.fromEntries(KEPT.map((t) => [t, 'new'])));
    expect(existsSync(repo.path('golden/transcripts/skip'))).toBe(false);
  });

  it('applies an exclusion to a folder input too, whatever the order', async () => {
    const { run, report } = await repo.checkJson([
      '--policy',
      'policy.yml',
      '!transcripts/skip',
      'transcripts',
    ]);
    expect(run.code).toBe(0);
    expect(Object.keys(outcomes(report))).toEqual(KEPT);
  });

  it('without the exclusion, the folder is checked', async () => {
    const { report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts/**']);
    expect(Object.keys(outcomes(report))).toEqual([
      ...KEPT.slice(0, 2),
      'transcripts/skip/deeper/coding-copy.jsonl',
      'transcripts/skip/notes-copy.jsonl',
      KEPT[2],
    ]);
  });

  it('expands braces', async () => {
    const { report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts/{coding,notes}.jsonl']);
    expect(Object.keys(outcomes(report))).toEqual(KEPT.slice(0, 2));
  });

  it('exits 2 when every input is an exclusion: nothing to include', async () => {
    const run = await repo.cli(['check', '--policy', 'policy.yml', '!transcripts/skip/**']);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain('Nothing to include');
    expect(existsSync(repo.path('golden'))).toBe(false);
  });

  it('an exclusion that matches nothing is no error', async () => {
    const { run, report } = await repo.checkJson([
      '--policy',
      'policy.yml',
      'transcripts/*.json*',
      '!transcripts/nothing/**',
    ]);
    expect(run.code).toBe(0);
    expect(Object.keys(outcomes(report))).toEqual(KEPT);
  });
});
