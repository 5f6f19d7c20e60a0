// Issue 34, item 10: the Action writes `report-path` and `html-path` only inside the workspace or
// RUNNER_TEMP. `..` and absolute paths elsewhere are refused with the inputs; a folder that a pull
// request commits as a symbolic link to outside is refused before anything runs, and nothing is
// written through it.
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_NAMES, parseInputs } from '../../src/action/inputs.js';
import type { RawInputs } from '../../src/action/inputs.js';
import { byLevel, makeWorkspace, removeTempDirs, runInProcess } from './support.js';

let outside: string;
beforeAll(() => {
  outside = mkdtempSync(path.join(tmpdir(), 'cs-outside-'));
});
afterAll(async () => {
  rmSync(outside, { recursive: true, force: true });
  await removeTempDirs();
});

function problemsOf(inputs: Partial<RawInputs>, runnerTemp?: string): string[] {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, ''])) as RawInputs;
  Object.assign(raw, { mode: 'check', transcripts: 'transcripts', 'fail-on': 'violations,drift,error' });
  Object.assign(raw, inputs);
  const parsed = parseInputs(raw, '/ws/repo', runnerTemp);
  return parsed.ok ? [] : parsed.problems.map((p) => p.input);
}

describe('report-path and html-path as written', () => {
  for (const input of ['report-path', 'html-path'] as const) {
    it(`${input}: inside the workspace or RUNNER_TEMP is accepted`, () => {
      expect(problemsOf({ [input]: 'out/r.json' })).toEqual([]);
      expect(problemsOf({ [input]: 'out/../r.json' })).toEqual([]);
      expect(problemsOf({ [input]: '/ws/repo/out/r.json' })).toEqual([]);
      expect(problemsOf({ [input]: '/runner/temp/r.json' }, '/runner/temp')).toEqual([]);
    });

    it(`${input}: \`..\` out of the workspace, an absolute path elsewhere, the workspace itself are refused`, () => {
      expect(problemsOf({ [input]: '../r.json' })).toEqual([input]);
      expect(problemsOf({ [input]: 'out/../../r.json' })).toEqual([input]);
      expect(problemsOf({ [input]: '/etc/r.json' })).toEqual([input]);
      expect(problemsOf({ [input]: '/runner/temp/r.json' })).toEqual([input]);
      expect(problemsOf({ [input]: '.' })).toEqual([input]);
    });
  }
});

describe('a folder linked outside the workspace', () => {
  for (const input of ['report-path', 'html-path'] as const) {
    it(`${input} through the link: refused before the run, nothing written outside`, async () => {
      const workspace = await makeWorkspace();
      symlinkSync(outside, path.join(workspace, 'out'), 'dir');
      const run = await runInProcess({
        workspace,
        inputs: { transcripts: 'transcripts', policy: 'policy.yml', [input]: 'out/deep/file.out' },
      });
      expect(run.code).toBe(1);
      expect(readdirSync(outside)).toEqual([]);
      const errors = byLevel(run.log, 'error');
      expect(errors.some((a) => a.title?.includes('output-outside-workspace'))).toBe(true);
      expect(run.summary).toContain(`The ${input} folder resolves outside the workspace`);
      expect(run.outputs['status']).toBe('fail');
    });
  }

  it('a link that stays inside the workspace is followed', async () => {
    const workspace = await makeWorkspace();
    symlinkSync(path.join(workspace, 'transcripts'), path.join(workspace, 'linked'), 'dir');
    const run = await runInProcess({
      workspace,
      inputs: {
        transcripts: 'transcripts',
        policy: 'policy.yml',
        'report-path': 'linked/r.json',
        comment: 'false',
      },
    });
    expect(run.outputs['report-path']).toBe(path.join(workspace, 'linked/r.json'));
    expect(readdirSync(path.join(workspace, 'transcripts'))).toContain('r.json');
  });
});
