// The action in check and update mode, run the way the runner runs it: annotations, job summary,
// outputs, the sticky comment against a fake GitHub, the 403 path, and inputs rejected before
// anything runs. The built bundle runs as a process for update then check on a push, and for the
// check on a pull request that creates the sticky comment; the other runs take the same steps in
// this process (runInProcess).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/github/comment.js';
import { startFakeGitHub } from '../support/fake-github.js';
import type { FakeGitHub } from '../support/fake-github.js';
import {
  byLevel,
  ensureDist,
  makeWorkspace,
  pullRequestEvent,
  runDist,
  runInProcess,
  removeTempDirs,
} from './support.js';
import type { RunOptions, RunResult } from './support.js';

beforeAll(() => ensureDist());
afterAll(removeTempDirs);

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A workspace whose goldens were written by the action's update mode with policy.yml. */
async function withGoldens(run: (opts: RunOptions) => Promise<RunResult> = runInProcess): Promise<string> {
  const workspace = await makeWorkspace();
  const update = await run({
    workspace,
    inputs: { mode: 'update', transcripts: 'transcripts', policy: 'policy.yml' },
  });
  expect(update.code).toBe(0);
  return workspace;
}

describe('action: update and check', () => {
  it('update writes the goldens; check then passes with pass outputs and a summary table', async () => {
    const workspace = await withGoldens(runDist);
    expect(existsSync(path.join(workspace, 'golden/transcripts/session.jsonl.golden.json'))).toBe(true);

    const run = await runDist({ workspace, inputs: { transcripts: 'transcripts/*', policy: 'policy.yml' } });
    expect(run.code).toBe(0);
    expect(run.outputs).toEqual({
      status: 'pass',
      checked: '3',
      passed: '3',
      violations: '0',
      drifted: '0',
      new: '0',
      errors: '0',
      obsolete: '0',
      'report-path': expect.stringMatching(/context-stability-report\.json$/) as unknown as string,
      'html-path': expect.stringMatching(/context-stability-report\.html$/) as unknown as string,
      'comment-url': '',
    });
    const report = JSON.parse(await readFile(run.outputs['report-path'] as string, 'utf8')) as {
      summary: { pass: number };
    };
    expect(report.summary.pass).toBe(3);
    expect(run.log.annotations).toEqual([]);
    expect(run.summary).toContain(
      '**✅ No transcript fails** — 0 with violations · 0 drifted · 0 new · 0 errors · 3 passed',
    );
    // The passes are collapsed, one row each.
    expect(run.summary).toContain('<details><summary>✅ 3 transcripts pass</summary>');
    expect(run.summary).toMatch(/^\| transcripts\/session\.jsonl \| \d+ \/ 4000 \|/m);
  });

  it('drift: one error annotation at the first changed artifact, outputs and a failed step', async () => {
    const workspace = await withGoldens();
    const run = await runInProcess({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'policy-tight.yml', 'report-path': 'out/report.json' },
    });
    expect(run.code).toBe(1);
    expect(run.outputs['status']).toBe('fail');
    // Only session.jsonl changes what the model sees; notes and support differ in metadata only.
    expect(run.outputs['drifted']).toBe('1');
    expect(run.outputs['report-path']).toBe(path.join(workspace, 'out/report.json'));
    expect(existsSync(path.join(workspace, 'out/report.json'))).toBe(true);

    const errors = byLevel(run.log, 'error');
    // 22 artifacts changed fate (21 before issue 27: under the base policy the whole history fits,
    // so nothing is cut there and one more artifact leaves under the tight one): one annotation,
    // at the first of them.
    expect(errors.filter((a) => a.file !== undefined)).toEqual([
      {
        level: 'error',
        file: 'transcripts/session.jsonl',
        line: 3,
        title: 'context-stability drift: u1',
        message: expect.stringMatching(
          /^First change: u1 \(line 3\): kept \(in_budget, \d+ tokens\) → dropped \(budget, 0 tokens\)\. Artifacts: 22 changed fate\..* accept it: npx context-stability update transcripts\/session\.jsonl --policy policy-tight\.yml$/,
        ) as unknown as string,
      },
    ]);
    // The failure itself is the last error, without a file, naming the category.
    expect(errors.at(-1)).toMatchObject({ message: expect.stringContaining('1 transcript drifted') });
    expect(errors.at(-1)?.file).toBeUndefined();
    expect(run.summary).not.toContain('not annotated');
    expect(run.summary).toContain(
      '**❌ 1 of 3 transcripts fails** — 0 with violations · 1 drifted · 0 new · 0 errors · 2 passed',
    );
    expect(run.summary).toContain(
      '- accept the change: <code>npx context-stability update transcripts/session.jsonl --policy policy-tight.yml</code>',
    );
    expect(run.summary).toContain(
      '<details><summary>✅ 2 transcripts pass, 2 with a note (metadata changed; the context did not)</summary>',
    );
  });

  it('fail-on: none reports the findings in status without failing the step', async () => {
    const workspace = await withGoldens();
    const run = await runInProcess({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'policy-tight.yml', 'fail-on': 'none' },
    });
    expect(run.code).toBe(0);
    expect(run.outputs['status']).toBe('fail');
    expect(byLevel(run.log, 'error').every((a) => a.file !== undefined)).toBe(true);
  });

  it('a missing golden fails in check mode and writes nothing (CI semantics)', async () => {
    const workspace = await makeWorkspace();
    const run = await runInProcess({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'policy.yml' },
    });
    expect(run.code).toBe(1);
    expect(existsSync(path.join(workspace, 'golden'))).toBe(false);
    expect(byLevel(run.log, 'notice').map((a) => a.file)).toEqual([
      'transcripts/notes.jsonl',
      'transcripts/session.jsonl',
      'transcripts/support.json',
    ]);
  });

  it('base-policy: the summary shows the policy impact of every transcript', async () => {
    const workspace = await withGoldens();
    const run = await runInProcess({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'policy-tight.yml', 'base-policy': 'policy.yml' },
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(await readFile(run.outputs['report-path'] as string, 'utf8')) as {
      base_policy?: { source: string };
    };
    expect(report.base_policy?.source).toBe('policy.yml');
    expect(run.summary).toContain('Policy impact (base → head)');
  });

  it('an invalid policy stops the run with an annotation at the policy file', async () => {
    const workspace = await makeWorkspace();
    await writeFile(path.join(workspace, 'broken.yml'), 'version: 1\nbudget: -5\n');
    const run = await runInProcess({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'broken.yml' },
    });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({
      status: 'fail',
      checked: '0',
      passed: '0',
      obsolete: '',
      'report-path': '',
      'comment-url': '',
    });
    const errors = byLevel(run.log, 'error');
    expect(errors[0]).toMatchObject({ file: 'broken.yml', line: 2 });
    expect(errors.at(-1)?.message).toContain('The policy could not be loaded');
    expect(run.summary).toContain('The policy could not be loaded');
  });

  it('rejects bad inputs before anything runs, naming each input and what it accepts', async () => {
    const workspace = await makeWorkspace();
    const run = await runInProcess({
      workspace,
      inputs: { transcripts: 'transcripts', mode: 'fix', 'fail-on': 'drift,sometimes', annotate: 'yes' },
    });
    expect(run.code).toBe(1);
    expect(run.log.annotations).toHaveLength(1);
    const message = run.log.annotations[0]?.message ?? '';
    expect(message).toContain('Input mode must be one of: check, update, merge.');
    expect(message).toContain('Input fail-on accepts');
    expect(message).toContain('Input annotate must be true or false.');
    expect(message).not.toContain('sometimes');
    expect(run.summary).toBe('');
    expect(run.outputs).toEqual({});
  });
});

describe('action: the sticky pull request comment', () => {
  it('is created on the first run, updated in place on the second, left alone when unchanged', async () => {
    fake = await startFakeGitHub({
      perPage: 2,
      seedComments: [{ body: 'LGTM' }, { body: `${COMMENT_MARKER} by a human` }],
    });
    const workspace = await withGoldens();
    const common = { workspace, apiUrl: fake.url, event: pullRequestEvent(7) };

    const first = await runDist({
      ...common,
      inputs: { transcripts: 'transcripts', policy: 'policy-tight.yml' },
    });
    expect(first.code).toBe(1);
    const ours = () => fake?.comments.filter((c) => c.user.login === 'github-actions[bot]') ?? [];
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body.startsWith(COMMENT_MARKER)).toBe(true);
    expect(ours()[0]?.body).toContain('transcripts/session.jsonl');
    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.path).toBe('/repos/acme/agents/issues/7/comments');
    expect(posts[0]?.headers['authorization']).toMatch(/ghs_faketoken/);

    const second = await runInProcess({
      ...common,
      runId: '555',
      inputs: { transcripts: 'transcripts', policy: 'policy.yml' },
    });
    expect(second.code).toBe(0);
    expect(ours()).toHaveLength(1);
    const patches = fake.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]?.path).toBe(`/repos/acme/agents/issues/comments/${ours()[0]?.id}`);
    // The lookup followed the Link header past the first page of two.
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.includes('page=2'))).toBe(true);

    const before = fake.requests.length;
    const third = await runInProcess({
      ...common,
      runId: '555',
      inputs: { transcripts: 'transcripts', policy: 'policy.yml' },
    });
    expect(third.code).toBe(0);
    const writes = fake.requests.slice(before).filter((r) => r.method !== 'GET');
    expect(writes).toEqual([]);
    expect(fake.comments).toHaveLength(3);
  });

  it.each(['forbidden', 'read-only'] as const)(
    'without permission (%s) the step still passes, with one notice and the results in the summary',
    async (mode) => {
      fake = await startFakeGitHub();
      fake.setMode(mode);
      const workspace = await withGoldens();
      const run = await runInProcess({
        workspace,
        apiUrl: fake.url,
        event: pullRequestEvent(9),
        inputs: { transcripts: 'transcripts', policy: 'policy.yml' },
      });
      expect(run.code).toBe(0);
      expect(run.outputs['status']).toBe('pass');
      const notices = byLevel(run.log, 'notice');
      expect(notices).toHaveLength(1);
      expect(notices[0]?.message).toMatch(/^No pull request comment: .*HTTP 403/);
      expect(byLevel(run.log, 'error')).toEqual([]);
      expect(run.summary).toContain('No pull request comment');
      expect(run.summary).toContain('transcripts/session.jsonl');
      expect(fake.comments).toEqual([]);
    },
  );

  it('comment: false and push events make no request', async () => {
    fake = await startFakeGitHub();
    const workspace = await withGoldens();
    const inputs = { transcripts: 'transcripts', policy: 'policy.yml' };
    await runInProcess({
      workspace,
      apiUrl: fake.url,
      event: pullRequestEvent(3),
      inputs: { ...inputs, comment: 'false' },
    });
    await runInProcess({ workspace, apiUrl: fake.url, inputs });
    expect(fake.requests).toEqual([]);
  });

  it('finds the comment by the comment-author input when the token is not the job token', async () => {
    fake = await startFakeGitHub({ botLogin: 'release-bot' });
    const workspace = await withGoldens();
    const common = { workspace, apiUrl: fake.url, event: pullRequestEvent(4), runId: '77' };
    const inputs = { transcripts: 'transcripts', policy: 'policy.yml', 'comment-author': 'release-bot' };
    await runInProcess({ ...common, inputs });
    await writeFile(path.join(workspace, 'policy.yml'), 'version: 1\nbudget: 3900\nkeep_recent: 2\n');
    await runInProcess({ ...common, inputs });
    expect(fake.comments).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });
});
