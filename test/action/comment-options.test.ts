// The action's comment options against a fake GitHub: comment-header (one sticky comment per
// header, side by side with the default one), pr-number (comment on any event, e.g. workflow_run
// posting a fork PR's report), comment-on (always, failure, change), the count outputs and
// comment-url, and bad values refused before anything runs. The runs take the steps of
// src/action/main.ts in this process (runInProcess); pr-number winning over the event's pull
// request runs the built bundle as a process.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MARKER, commentMarker } from '../../src/github/comment.js';
import { startFakeGitHub } from '../support/fake-github.js';
import type { FakeGitHub } from '../support/fake-github.js';
import {
  byLevel,
  ensureDist,
  makeWorkspace,
  pullRequestEvent,
  removeTempDirs,
  runDist,
  runInProcess,
} from './support.js';
import type { RunResult } from './support.js';

beforeAll(() => ensureDist());
afterAll(removeTempDirs);

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Several runs of the action each: room above the default 60 s when the machine is busy. */
const SLOW = { timeout: 240_000 };
const BOT = { login: 'github-actions[bot]', type: 'Bot' };
const PASSING = { transcripts: 'transcripts', policy: 'policy.yml' };
/** policy-tight.yml makes transcripts/session.jsonl drift from the goldens policy.yml wrote. */
const FAILING = { transcripts: 'transcripts', policy: 'policy-tight.yml' };

async function withGoldens(): Promise<string> {
  const workspace = await makeWorkspace();
  const update = await runInProcess({ workspace, inputs: { mode: 'update', ...PASSING } });
  expect(update.code).toBe(0);
  return workspace;
}

function writes(f: FakeGitHub, from = 0): string[] {
  return f.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);
}

function commentUrl(issue: number, id: number | undefined): string {
  return `https://github.com/acme/agents/pull/${issue}#issuecomment-${id}`;
}

describe('action: comment-header', () => {
  it(
    'keeps one comment per header next to the default one, each updated by its own rerun',
    SLOW,
    async () => {
      const defaultBody = `${COMMENT_MARKER}\nthe default comment of another workflow\n`;
      fake = await startFakeGitHub({ seedComments: [{ body: defaultBody, issueNumber: 7, user: BOT }] });
      const workspace = await withGoldens();
      const common = { workspace, apiUrl: fake.url, event: pullRequestEvent(7) };
      const run = (header: string, runId: string): Promise<RunResult> =>
        runInProcess({ ...common, runId, inputs: { ...FAILING, 'comment-header': header } });

      const check1 = await run('check', '101');
      const policy1 = await run('policy-review', '102');
      expect(fake.comments).toHaveLength(3);
      const [, check, policy] = fake.comments;
      expect(check?.body.split('\n').slice(0, 2)).toEqual([
        commentMarker('check'),
        '## context-stability check · `check`',
      ]);
      expect(policy?.body.split('\n').slice(0, 2)).toEqual([
        commentMarker('policy-review'),
        '## context-stability check · `policy-review`',
      ]);
      expect(check1.outputs['comment-url']).toBe(commentUrl(7, check?.id));
      expect(policy1.outputs['comment-url']).toBe(commentUrl(7, policy?.id));

      // Reruns (new run ids, so new bodies) edit their own comment only.
      const before = fake.requests.length;
      const check2 = await run('check', '103');
      const policy2 = await run('policy-review', '104');
      expect(writes(fake, before)).toEqual([
        `PATCH /repos/acme/agents/issues/comments/${check?.id}`,
        `PATCH /repos/acme/agents/issues/comments/${policy?.id}`,
      ]);
      expect(check2.outputs['comment-url']).toBe(commentUrl(7, check?.id));
      expect(policy2.outputs['comment-url']).toBe(commentUrl(7, policy?.id));
      expect(fake.comments).toHaveLength(3);
      expect(fake.comments[0]?.body).toBe(defaultBody);
      expect(check?.body).toContain('actions/runs/103');
      expect(policy?.body).toContain('actions/runs/104');
    },
  );
});

describe('action: pr-number', () => {
  it('a workflow_run merge of one downloaded report posts to the given pull request', async () => {
    fake = await startFakeGitHub();
    const workspace = await withGoldens();
    // The pull request workflow: no comment (a fork's token could not), the report for the artifact.
    const check = await runInProcess({
      workspace,
      apiUrl: fake.url,
      event: pullRequestEvent(12),
      inputs: { ...FAILING, comment: 'false', 'report-path': 'artifact/report.json' },
    });
    expect(check.code).toBe(1);
    expect(fake.requests).toEqual([]);

    // The workflow_run workflow: the event names no pull request (empty for a fork).
    const event = {
      name: 'workflow_run',
      payload: { action: 'completed', workflow_run: { pull_requests: [] } },
    };
    const posted = await runInProcess({
      workspace,
      apiUrl: fake.url,
      event,
      inputs: { mode: 'merge', reports: 'artifact/report.json', 'pr-number': '12', 'fail-on': 'none' },
    });
    expect(posted.code).toBe(0);
    expect(writes(fake)).toEqual(['POST /repos/acme/agents/issues/12/comments']);
    expect(fake.comments[0]?.body.startsWith(`${COMMENT_MARKER}\n`)).toBe(true);
    expect(fake.comments[0]?.body).toContain('transcripts/session.jsonl');
    const { 'report-path': _a, 'html-path': _b, 'comment-url': url, ...counts } = posted.outputs;
    const { 'report-path': _c, 'html-path': _d, 'comment-url': none, ...checkCounts } = check.outputs;
    expect(url).toBe(commentUrl(12, fake.comments[0]?.id));
    expect(none).toBe('');
    // The report as it was: the same counts as the check that wrote it.
    expect(counts).toEqual(checkCounts);

    // Without pr-number, a workflow_run names no pull request: no comment, no request.
    const before = fake.requests.length;
    const silent = await runInProcess({
      workspace,
      apiUrl: fake.url,
      event,
      inputs: { mode: 'merge', reports: 'artifact/report.json', 'fail-on': 'none' },
    });
    expect(silent.outputs['comment-url']).toBe('');
    expect(fake.requests.length).toBe(before);
  });

  it('wins over the pull request of the event', async () => {
    fake = await startFakeGitHub();
    const workspace = await withGoldens();
    const run = await runDist({
      workspace,
      apiUrl: fake.url,
      event: pullRequestEvent(7),
      inputs: { ...PASSING, 'pr-number': '8' },
    });
    expect(run.code).toBe(0);
    expect(writes(fake)).toEqual(['POST /repos/acme/agents/issues/8/comments']);
    expect(run.outputs['comment-url']).toBe(commentUrl(8, fake.comments[0]?.id));
  });
});

describe('action: comment inputs refused before anything runs', () => {
  it('names a bad pr-number and comment-header (and comment-on) in one message, without their values', async () => {
    fake = await startFakeGitHub();
    const workspace = await makeWorkspace();
    const run = await runInProcess({
      workspace,
      apiUrl: fake.url,
      event: pullRequestEvent(7),
      inputs: {
        ...PASSING,
        'pr-number': '-7',
        'comment-header': 'x --><img src=x>',
        'comment-on': 'sometimes',
      },
    });
    expect(run.code).toBe(1);
    expect(run.log.annotations).toHaveLength(1);
    const message = run.log.annotations[0]?.message ?? '';
    expect(message).toContain('Input pr-number must be a pull request number');
    expect(message).toContain('Input comment-header must be 1 to 64 letters');
    expect(message).toContain('Input comment-on must be one of: always, failure, change.');
    expect(message).not.toMatch(/img|sometimes|-7/);
    expect(run.outputs).toEqual({});
    expect(fake.requests).toEqual([]);
  });

  it('refuses pr-number in mode update, which never comments', async () => {
    const workspace = await makeWorkspace();
    const run = await runInProcess({ workspace, inputs: { mode: 'update', ...PASSING, 'pr-number': '3' } });
    expect(run.code).toBe(1);
    expect(byLevel(run.log, 'error')[0]?.message).toContain(
      'Input pr-number applies to mode check or merge only (mode is update).',
    );
  });
});

describe('action: comment-on', () => {
  it(
    'failure: a passing run creates nothing; a failing one does; a later pass updates it',
    SLOW,
    async () => {
      fake = await startFakeGitHub();
      const workspace = await withGoldens();
      const common = { workspace, apiUrl: fake.url, event: pullRequestEvent(5) };
      const on = { 'comment-on': 'failure' };

      const pass = await runInProcess({ ...common, inputs: { ...PASSING, ...on } });
      expect(pass.code).toBe(0);
      expect(writes(fake)).toEqual([]);
      expect(fake.comments).toEqual([]);
      expect(pass.outputs['comment-url']).toBe('');
      expect(byLevel(pass.log, 'notice')).toEqual([]);

      const fail = await runInProcess({ ...common, inputs: { ...FAILING, ...on } });
      expect(fail.code).toBe(1);
      expect(writes(fake)).toEqual(['POST /repos/acme/agents/issues/5/comments']);
      expect(fake.comments[0]?.body).toContain('❌');

      // The fix: the red comment is brought up to date rather than left behind.
      const fixed = await runInProcess({ ...common, inputs: { ...PASSING, ...on } });
      expect(fixed.code).toBe(0);
      expect(writes(fake)).toEqual([
        'POST /repos/acme/agents/issues/5/comments',
        `PATCH /repos/acme/agents/issues/comments/${fake.comments[0]?.id}`,
      ]);
      expect(fake.comments).toHaveLength(1);
      expect(fake.comments[0]?.body).toContain('✅ No transcript fails');
      expect(fixed.outputs['comment-url']).toBe(commentUrl(5, fake.comments[0]?.id));

      // Passing again (a new run link only): the comment already shows it.
      const before = fake.requests.length;
      await runInProcess({ ...common, inputs: { ...PASSING, ...on } });
      expect(writes(fake, before)).toEqual([]);
    },
  );

  it(
    'change: an identical report makes no API write, even from a new run; a changed one does',
    SLOW,
    async () => {
      fake = await startFakeGitHub();
      const workspace = await withGoldens();
      const common = { workspace, apiUrl: fake.url, event: pullRequestEvent(6) };
      const on = { 'comment-on': 'change' };

      // Nothing to say for a passing pull request without a comment.
      await runInProcess({ ...common, inputs: { ...PASSING, ...on } });
      expect(fake.comments).toEqual([]);

      const first = await runInProcess({ ...common, runId: '201', inputs: { ...FAILING, ...on } });
      expect(fake.comments).toHaveLength(1);
      const body = fake.comments[0]?.body;

      const before = fake.requests.length;
      const same = await runInProcess({ ...common, runId: '202', inputs: { ...FAILING, ...on } });
      expect(same.code).toBe(1);
      expect(fake.requests.slice(before).map((r) => r.method)).toEqual(['GET']);
      expect(fake.comments[0]?.body).toBe(body);
      expect(same.outputs['comment-url']).toBe(first.outputs['comment-url']);
      expect(same.outputs['comment-url']).toBe(commentUrl(6, fake.comments[0]?.id));

      // The default (always) edits for the new run link alone.
      await runInProcess({ ...common, runId: '203', inputs: FAILING });
      expect(writes(fake, before)).toEqual([
        `PATCH /repos/acme/agents/issues/comments/${fake.comments[0]?.id}`,
      ]);

      const passing = await runInProcess({ ...common, runId: '204', inputs: { ...PASSING, ...on } });
      expect(writes(fake, before)).toHaveLength(2);
      expect(fake.comments[0]?.body).toContain('✅ No transcript fails');
      expect(passing.outputs['comment-url']).toBe(commentUrl(6, fake.comments[0]?.id));
    },
  );
});

describe('action: count outputs', () => {
  it('sets passed, new, errors and obsolete from the report summary', async () => {
    const workspace = await withGoldens();
    const run = await runInProcess({ workspace, inputs: { ...FAILING, 'golden-dir': 'golden' } });
    expect(run.outputs).toMatchObject({
      status: 'fail',
      checked: '3',
      passed: '2',
      violations: '0',
      drifted: '1',
      new: '0',
      errors: '0',
      obsolete: '0',
      'comment-url': '',
    });
    const fresh = await makeWorkspace();
    const none = await runInProcess({ workspace: fresh, inputs: PASSING });
    expect(none.outputs).toMatchObject({ checked: '3', passed: '0', new: '3', obsolete: '0' });
    expect(path.isAbsolute(none.outputs['report-path'] ?? '')).toBe(true);
  });
});
