import { getOctokit } from '@actions/github';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COMMENT_LIMIT_CHARS,
  COMMENT_MARKER,
  buildCommentBody,
  commentMarker,
  commentRules,
  upsertStickyComment,
} from '../../src/github/comment.js';
import type { CommentTarget } from '../../src/github/comment.js';
import { startFakeGitHub } from '../support/fake-github.js';
import type { FakeGitHub, FakeGitHubOptions } from '../support/fake-github.js';
import {
  blocks,
  checkReport,
  driftOutcome,
  hugeReport,
  outcome,
  sampleReport,
  tableRows,
  violationsOutcome,
} from './support.js';

const TARGET: CommentTarget = { owner: 'acme', repo: 'agents', issueNumber: 7 };
const body = (text: string): string => `${COMMENT_MARKER}\n${text}\n`;

describe('buildCommentBody', () => {
  const md = buildCommentBody(sampleReport(), { runUrl: 'https://github.com/acme/agents/actions/runs/42' });

  it('starts with the hidden marker', () => {
    expect(md.startsWith(`${COMMENT_MARKER}\n`)).toBe(true);
  });

  it('lists only the transcripts that need a look, with their semantic diff and no unified diff', () => {
    // What broke first: violations, then drift, then input that could not be checked, then new.
    expect([...blocks(md).keys()]).toEqual(['t/pii.jsonl', 't/drift.jsonl', 't/broken.jsonl', 't/new.jsonl']);
    expect(md.split('\n')[3]).toBe(
      '**⚠️ Incomplete: 1 transcript could not be checked** — 1 with violations · 1 drifted · 1 new · 1 error · 1 passed',
    );
    // The passes are only counted: the job summary lists them.
    expect(md).toContain('✅ 1 passing transcript: see the job summary.');
    expect(md).not.toContain('t/pass.jsonl');
    expect(tableRows(md)).toEqual([]);
    const drift = blocks(md).get('t/drift.jsonl') ?? '';
    expect(drift).toContain(
      '- first change: m2 (line 2): kept (in&#95;budget, 20 tokens) → dropped (budget, 0 tokens)',
    );
    expect(drift).toContain('- accept the change: <code>npx context-stability update t/drift.jsonl</code>');
    expect(drift).toContain('<details><summary>Details</summary>');
    expect(drift).toContain('- m2 (line 2): kept (in&#95;budget, 20 tokens) → dropped (budget, 0 tokens)');
    expect(md).not.toContain('```');
  });

  it('links the run', () => {
    expect(md).toContain('[Details of this run](https://github.com/acme/agents/actions/runs/42)');
    expect(buildCommentBody(sampleReport(), { runUrl: 'javascript:alert(1)' })).not.toContain('](javascript');
  });

  it('cannot mention anyone or inject markup', () => {
    const out = buildCommentBody(
      checkReport([violationsOutcome('t/@octocat<b>x</b>.jsonl', 'ping @acme/team <img src=x>')]),
    );
    expect(out).not.toMatch(/@octocat|@acme|<b>|<img/);
    expect(out).toContain('@\u200Doctocat&lt;b&gt;x&lt;/b&gt;');
  });

  it('stays under 65,536 characters with a note when cut', () => {
    const big = buildCommentBody(hugeReport(2000, 100, 0));
    expect(big.length).toBeLessThan(COMMENT_LIMIT_CHARS);
    expect(big.length).toBeGreaterThan(60_000);
    expect(big.startsWith(COMMENT_MARKER)).toBe(true);
    expect(big).toMatch(
      /> ✂️ Cut to fit GitHub's 65,536-character comment limit; not shown: .*the details of \d+ failing transcripts/,
    );
  });

  it('honours a smaller maxChars, and never goes over the limit whatever it is given', () => {
    const report = hugeReport(50, 0, 0);
    expect(buildCommentBody(report, { maxChars: 5000 }).length).toBeLessThanOrEqual(5000);
    expect(buildCommentBody(report, { maxChars: 10_000_000 }).length).toBeLessThan(COMMENT_LIMIT_CHARS);
  });

  it('is the same body for the same report, so an unchanged result leaves the comment alone', () => {
    expect(buildCommentBody(sampleReport())).toBe(buildCommentBody(sampleReport()));
  });
});

describe('upsertStickyComment', () => {
  let fake: FakeGitHub | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function setup(
    opts: FakeGitHubOptions = {},
  ): Promise<{ fake: FakeGitHub; octokit: ReturnType<typeof getOctokit> }> {
    fake = await startFakeGitHub(opts);
    return { fake, octokit: getOctokit('ghs_test-token', { baseUrl: fake.url }) };
  }

  const writes = (f: FakeGitHub): string[] =>
    f.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

  it('creates the comment on the first run and updates the same one on the second', async () => {
    const { fake, octokit } = await setup();
    const first = await upsertStickyComment(octokit, TARGET, body('run 1'));
    expect(first.action).toBe('created');
    const second = await upsertStickyComment(octokit, TARGET, body('run 2'));
    const id = first.action === 'created' ? first.id : -1;
    expect(second).toEqual({
      action: 'updated',
      id,
      url: `https://github.com/acme/agents/pull/7#issuecomment-${id}`,
    });
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]).toMatchObject({
      issueNumber: 7,
      body: body('run 2'),
      user: { login: 'github-actions[bot]' },
    });
    expect(writes(fake)).toEqual([
      'POST /repos/acme/agents/issues/7/comments',
      `PATCH /repos/acme/agents/issues/comments/${second.action === 'updated' ? second.id : -1}`,
    ]);
    expect(fake.requests[0]?.headers.authorization).toBe('token ghs_test-token');
  });

  it('leaves the comment alone when the body is unchanged', async () => {
    const { fake, octokit } = await setup();
    const first = await upsertStickyComment(octokit, TARGET, body('same'));
    const before = fake.requests.length;
    const again = await upsertStickyComment(octokit, TARGET, body('same'));
    expect(again).toMatchObject({ action: 'unchanged', id: first.action === 'created' ? first.id : -1 });
    expect(again.action === 'unchanged' && again.url).toMatch(/#issuecomment-\d+$/);
    expect(fake.requests.slice(before).map((r) => r.method)).toEqual(['GET']);
  });

  it('finds its comment on page 3 of a one-per-page listing', async () => {
    const { fake, octokit } = await setup({
      perPage: 1,
      seedComments: [
        { body: 'LGTM', issueNumber: 7 },
        { body: 'another bot', issueNumber: 7, user: { login: 'renovate[bot]', type: 'Bot' } },
        { body: body('old result'), issueNumber: 7, user: { login: 'github-actions[bot]', type: 'Bot' } },
        { body: 'a later remark', issueNumber: 7 },
      ],
    });
    const ours = fake.comments[2]?.id;
    expect(await upsertStickyComment(octokit, TARGET, body('new result'))).toMatchObject({
      action: 'updated',
      id: ours,
    });
    const pages = fake.requests
      .filter((r) => r.method === 'GET')
      .map((r) => new URL(r.path, fake.url).searchParams.get('page'));
    // Stops at the page where it found the comment.
    expect(pages).toEqual([null, '2', '3']);
    expect(writes(fake)).toEqual([`PATCH /repos/acme/agents/issues/comments/${ours}`]);
    expect(fake.comments.map((c) => c.body)).toEqual([
      'LGTM',
      'another bot',
      body('new result'),
      'a later remark',
    ]);
  });

  it("does not take another author's comment with the marker for its own", async () => {
    const { fake, octokit } = await setup({
      seedComments: [
        { body: body('quoted by a human'), issueNumber: 7, user: { login: 'mallory', type: 'User' } },
      ],
    });
    const outcome = await upsertStickyComment(octokit, TARGET, body('ours'));
    expect(outcome.action).toBe('created');
    expect(fake.comments.map((c) => [c.user.login, c.body])).toEqual([
      ['mallory', body('quoted by a human')],
      ['github-actions[bot]', body('ours')],
    ]);
  });

  it('finds comments of another author when told (a PAT or an App token)', async () => {
    const { fake, octokit } = await setup({
      botLogin: 'stability-app[bot]',
      seedComments: [
        { body: body('v1'), issueNumber: 7, user: { login: 'stability-app[bot]', type: 'Bot' } },
      ],
    });
    const outcome = await upsertStickyComment(octokit, TARGET, body('v2'), { author: 'Stability-App[bot]' });
    expect(outcome).toMatchObject({ action: 'updated', id: fake.comments[0]?.id });
  });

  it('only looks at the pull request it is given', async () => {
    const { fake, octokit } = await setup({
      seedComments: [
        { body: body('on PR 8'), issueNumber: 8, user: { login: 'github-actions[bot]', type: 'Bot' } },
      ],
    });
    expect((await upsertStickyComment(octokit, TARGET, body('on PR 7'))).action).toBe('created');
    expect(fake.comments).toHaveLength(2);
  });

  it('skips without throwing when the token may not read or write comments (403)', async () => {
    const { fake, octokit } = await setup();
    fake.setMode('forbidden');
    const outcome = await upsertStickyComment(octokit, TARGET, body('x'));
    expect(outcome.action).toBe('skipped');
    expect(outcome.action === 'skipped' && outcome.reason).toMatch(
      /listing the comments failed .*HTTP 403.*forks/,
    );
  });

  it('skips when a read-only token (a fork PR) cannot create the comment', async () => {
    const { fake, octokit } = await setup();
    fake.setMode('read-only');
    const outcome = await upsertStickyComment(octokit, TARGET, body('x'));
    expect(outcome.action === 'skipped' && outcome.reason).toMatch(
      /^No pull request comment: creating the comment failed/,
    );
    expect(fake.comments).toHaveLength(0);
  });

  it('skips when the pull request is not visible to the token (404)', async () => {
    const { fake, octokit } = await setup();
    fake.setMode('not-found');
    const outcome = await upsertStickyComment(octokit, TARGET, body('x'));
    expect(outcome.action === 'skipped' && outcome.reason).toMatch(/HTTP 404/);
  });

  it('throws on other failures', async () => {
    const { fake, octokit } = await setup();
    fake.setMode('server-error');
    await expect(upsertStickyComment(octokit, TARGET, body('x'))).rejects.toMatchObject({ status: 500 });
  });

  it('refuses a body without the marker or over the limit, before any request', async () => {
    const { fake, octokit } = await setup();
    await expect(upsertStickyComment(octokit, TARGET, 'no marker')).rejects.toThrow(/COMMENT_MARKER/);
    await expect(upsertStickyComment(octokit, TARGET, body('x'.repeat(COMMENT_LIMIT_CHARS)))).rejects.toThrow(
      /fewer than 65536/,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('posts what buildCommentBody gives and then recognises it', async () => {
    const { fake, octokit } = await setup();
    const report = checkReport([driftOutcome('t/a.jsonl'), outcome('t/b.jsonl')]);
    expect((await upsertStickyComment(octokit, TARGET, buildCommentBody(report))).action).toBe('created');
    expect((await upsertStickyComment(octokit, TARGET, buildCommentBody(report))).action).toBe('unchanged');
    expect(fake.comments).toHaveLength(1);
  });
});

describe('comment headers', () => {
  it('keep the default marker exactly, and put a header into the marker', () => {
    expect(COMMENT_MARKER).toBe('<!-- context-stability:sticky-comment -->');
    expect(commentMarker()).toBe(COMMENT_MARKER);
    expect(commentMarker('')).toBe(COMMENT_MARKER);
    expect(commentMarker('policy-review')).toBe(
      '<!-- context-stability:sticky-comment header=policy-review -->',
    );
    // Neither marker contains another: each header finds only its own comment.
    const markers = [commentMarker(), commentMarker('a'), commentMarker('ab'), commentMarker('a.b')];
    for (const m of markers) expect(markers.filter((other) => other.includes(m))).toEqual([m]);
  });

  it('refuse a header that could close the marker or inject markup', () => {
    for (const bad of ['x -->', 'x--!>', '<b>', 'a b', '@team', 'h'.repeat(65)]) {
      expect(() => commentMarker(bad)).toThrow(/comment header/);
      expect(() => buildCommentBody(sampleReport(), { header: bad })).toThrow(/comment header/);
    }
  });

  it('show the header in the heading of the comment, and stay under the limit', () => {
    const md = buildCommentBody(sampleReport(), { header: 'policy-review' });
    const lines = md.split('\n');
    expect(lines[0]).toBe(commentMarker('policy-review'));
    expect(lines[1]).toBe('## context-stability check · `policy-review`');
    expect(md).not.toContain(COMMENT_MARKER);
    // The rest is the report without a header.
    expect(lines.slice(2)).toEqual(buildCommentBody(sampleReport()).split('\n').slice(2));
    const header = 'h'.repeat(64);
    expect(buildCommentBody(hugeReport(50, 0, 0), { header, maxChars: 5000 }).length).toBeLessThanOrEqual(
      5000,
    );
  });
});

describe('commentRules (comment-on)', () => {
  it('always creates; failure and change create only for a failing run; change ignores the run link', () => {
    expect(commentRules('always', false)).toEqual({ create: true, ignoreRunLink: false });
    expect(commentRules('always', true)).toEqual({ create: true, ignoreRunLink: false });
    expect(commentRules('failure', true)).toEqual({ create: true, ignoreRunLink: false });
    expect(commentRules('failure', false)).toEqual({ create: false, ignoreRunLink: true });
    expect(commentRules('change', true)).toEqual({ create: true, ignoreRunLink: true });
    expect(commentRules('change', false)).toEqual({ create: false, ignoreRunLink: true });
  });
});

describe('upsertStickyComment with a header and comment-on rules', () => {
  let fake: FakeGitHub | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const BOT = { login: 'github-actions[bot]', type: 'Bot' };
  const writes = (f: FakeGitHub): string[] =>
    f.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

  it('finds only the comment of its header; the default finds only the default one', async () => {
    const policy = (text: string): string => `${commentMarker('policy')}\n${text}\n`;
    fake = await startFakeGitHub({
      seedComments: [
        { body: body('default v1'), issueNumber: 7, user: BOT },
        { body: `${commentMarker('policy-2')}\nother\n`, issueNumber: 7, user: BOT },
        { body: policy('policy v1'), issueNumber: 7, user: BOT },
      ],
    });
    const octokit = getOctokit('ghs_test-token', { baseUrl: fake.url });
    const ids = fake.comments.map((c) => c.id);
    expect(
      await upsertStickyComment(octokit, TARGET, policy('policy v2'), { header: 'policy' }),
    ).toMatchObject({
      action: 'updated',
      id: ids[2],
    });
    expect(await upsertStickyComment(octokit, TARGET, body('default v2'))).toMatchObject({
      action: 'updated',
      id: ids[0],
    });
    const created = await upsertStickyComment(octokit, TARGET, `${commentMarker('new')}\nx\n`, {
      header: 'new',
    });
    expect(created.action).toBe('created');
    expect(fake.comments.map((c) => c.body)).toEqual([
      body('default v2'),
      `${commentMarker('policy-2')}\nother\n`,
      policy('policy v2'),
      `${commentMarker('new')}\nx\n`,
    ]);
    // A body must carry the marker of the header it is posted under.
    await expect(upsertStickyComment(octokit, TARGET, body('x'), { header: 'policy' })).rejects.toThrow(
      /COMMENT_MARKER/,
    );
  });

  it('create: false leaves a pull request without a comment alone, but still updates one', async () => {
    fake = await startFakeGitHub();
    const octokit = getOctokit('ghs_test-token', { baseUrl: fake.url });
    expect(await upsertStickyComment(octokit, TARGET, body('pass'), { create: false })).toEqual({
      action: 'not-created',
      reason: 'there is no earlier comment to update',
    });
    expect(writes(fake)).toEqual([]);
    await upsertStickyComment(octokit, TARGET, body('fail'));
    expect((await upsertStickyComment(octokit, TARGET, body('pass'), { create: false })).action).toBe(
      'updated',
    );
    expect(fake.comments.map((c) => c.body)).toEqual([body('pass')]);
  });

  it('ignoreRunLink: a new run link alone is no change; a changed report is', async () => {
    fake = await startFakeGitHub();
    const octokit = getOctokit('ghs_test-token', { baseUrl: fake.url });
    const report = checkReport([driftOutcome('t/a.jsonl'), outcome('t/b.jsonl')]);
    const run = (id: number): string => `https://github.com/acme/agents/actions/runs/${id}`;
    await upsertStickyComment(octokit, TARGET, buildCommentBody(report, { runUrl: run(1) }));
    const again = buildCommentBody(report, { runUrl: run(2) });
    expect(again).not.toBe(fake.comments[0]?.body);
    expect((await upsertStickyComment(octokit, TARGET, again, { ignoreRunLink: true })).action).toBe(
      'unchanged',
    );
    // Without the option the link is a change, as before.
    expect((await upsertStickyComment(octokit, TARGET, again)).action).toBe('updated');
    const changed = buildCommentBody(checkReport([outcome('t/a.jsonl'), outcome('t/b.jsonl')]), {
      runUrl: run(3),
    });
    expect((await upsertStickyComment(octokit, TARGET, changed, { ignoreRunLink: true })).action).toBe(
      'updated',
    );
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.body).toBe(changed);
  });
});
