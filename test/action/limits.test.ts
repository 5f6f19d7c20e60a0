// GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and drops the rest
// without a word: the action picks the most important ones and the summary counts the others.
// The 10-per-level run takes the steps of src/action/main.ts in this process (runInProcess);
// annotate: false runs the built bundle as a process.
import { cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byLevel, ensureDist, makeWorkspace, runDist, runInProcess, removeTempDirs } from './support.js';

beforeAll(() => ensureDist());
afterAll(removeTempDirs);

const EXTRA = 12;

describe('action: annotation limits', () => {
  it('emits at most 10 per level, the most important first, and says in the summary how many more', async () => {
    const workspace = await makeWorkspace();
    // 12 copies of session.jsonl, which policy-tight.yml changes: with it, 13 drifted transcripts.
    await mkdir(path.join(workspace, 'transcripts/many'));
    for (let i = 10; i < 10 + EXTRA; i++) {
      await cp(
        path.join(workspace, 'transcripts/session.jsonl'),
        path.join(workspace, `transcripts/many/s${i}.jsonl`),
      );
    }
    const update = await runInProcess({
      workspace,
      inputs: { mode: 'update', transcripts: 'transcripts', policy: 'policy.yml' },
    });
    expect(update.code).toBe(0);
    // 12 transcripts without a golden (notices) and 12 goldens without a transcript (warnings).
    await mkdir(path.join(workspace, 'transcripts/new'));
    await mkdir(path.join(workspace, 'golden/gone'), { recursive: true });
    const golden = path.join(workspace, 'golden/transcripts/notes.jsonl.golden.json');
    for (let i = 10; i < 10 + EXTRA; i++) {
      await cp(
        path.join(workspace, 'transcripts/notes.jsonl'),
        path.join(workspace, `transcripts/new/n${i}.jsonl`),
      );
      await cp(golden, path.join(workspace, `golden/gone/g${i}.jsonl.golden.json`));
    }

    // policy-tight.yml drops most of session.jsonl and its copies: 13 drifts, one annotation each.
    const run = await runInProcess({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'policy-tight.yml' },
    });
    expect(run.code).toBe(1);

    const errors = byLevel(run.log, 'error');
    const warnings = byLevel(run.log, 'warning');
    const notices = byLevel(run.log, 'notice');
    // Nine findings and the step's failure make ten: GitHub drops none of them.
    expect(errors).toHaveLength(10);
    expect(errors.at(-1)?.file).toBeUndefined();
    // One annotation per drifted transcript, at its first changed artifact, by file.
    expect(errors.slice(0, 9).map((a) => `${a.file}:${a.line ?? ''}`)).toEqual(
      Array.from({ length: 9 }, (_, i) => `transcripts/many/s${10 + i}.jsonl:3`),
    );
    expect(errors.slice(0, 9).every((a) => a.title === 'context-stability drift: u1')).toBe(true);
    expect(warnings).toHaveLength(10);
    expect(warnings.map((a) => a.file)).toEqual(
      Array.from({ length: 10 }, (_, i) => `golden/gone/g${10 + i}.jsonl.golden.json`),
    );
    expect(warnings.every((a) => a.title === 'context-stability obsolete: golden without transcript')).toBe(
      true,
    );
    expect(notices).toHaveLength(10);
    expect(notices.map((a) => a.file)).toEqual(
      Array.from({ length: 10 }, (_, i) => `transcripts/new/n${10 + i}.jsonl`),
    );

    const report = JSON.parse(await readFile(run.outputs['report-path'] as string, 'utf8')) as {
      transcripts: { outcome: string }[];
    };
    const drifted = report.transcripts.filter((t) => t.outcome === 'drift').length;
    expect(drifted).toBe(EXTRA + 1);
    expect(run.summary).toContain(
      `${drifted - 9} more errors, 2 more warnings, 2 more notices not annotated`,
    );
  });

  it('annotate: false emits no annotation but still fails the step', async () => {
    const workspace = await makeWorkspace();
    const run = await runDist({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'policy.yml', annotate: 'false' },
    });
    expect(run.code).toBe(1);
    expect(run.log.annotations).toHaveLength(1);
    expect(run.log.annotations[0]).toMatchObject({
      level: 'error',
      message: expect.stringContaining('without a golden'),
    });
    expect(run.summary).not.toContain('not annotated');
  });
});
