// A sharded run as a matrix workflow does it: three `shard: i/3` processes each write a report,
// the reports are gathered (as actions/download-artifact would), and a `mode: merge` process
// combines them. The merged result equals an unsharded run, and only merge lists obsolete goldens
// and posts the comment. The unsharded run, the shards and the merge are the built bundle as
// processes; the goldens and the refused merge take the same steps in this process (runInProcess).
import { appendFile, copyFile, cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import type { RunResult } from './support.js';

const STRAY = 'golden/transcripts/removed.jsonl.golden.json';

let fake: FakeGitHub;
let workspace: string;
let unsharded: RunResult;
let shards: RunResult[];
let merged: RunResult;
let requestsAfterShards: number;

beforeAll(async () => {
  ensureDist();
  fake = await startFakeGitHub();
  workspace = await makeWorkspace({ inject: true });
  const update = await runInProcess({
    workspace,
    inputs: { mode: 'update', transcripts: 'transcripts', policy: 'policy.yml' },
  });
  expect(update.code).toBe(0);
  // One of each outcome: pass, drift (an appended turn), new (no golden), obsolete (a stray golden).
  await appendFile(
    path.join(workspace, 'transcripts/notes.jsonl'),
    '{"id":"u2","kind":"user","content":"And who signs the release off?"}\n',
  );
  await mkdir(path.join(workspace, 'transcripts/extra'));
  for (const name of ['a', 'b', 'c']) {
    await cp(
      path.join(workspace, 'transcripts/support.json'),
      path.join(workspace, `transcripts/extra/${name}.json`),
    );
  }
  await copyFile(
    path.join(workspace, 'golden/transcripts/support.json.golden.json'),
    path.join(workspace, STRAY),
  );

  const inputs = { transcripts: 'transcripts', policy: 'policy.yml' };
  const pr = { apiUrl: fake.url, event: pullRequestEvent(21) };
  // The reference is the bundle too: its report must be byte-identical to the merged one.
  unsharded = await runDist({
    workspace,
    inputs: { ...inputs, comment: 'false', 'report-path': 'unsharded.json' },
  });
  shards = [];
  await mkdir(path.join(workspace, 'downloaded'));
  for (const i of [1, 2, 3]) {
    const shard = await runDist({ workspace, ...pr, inputs: { ...inputs, shard: `${i}/3` } });
    shards.push(shard);
    const report = shard.outputs['report-path'] as string;
    await copyFile(report, path.join(workspace, 'downloaded', path.basename(report)));
  }
  requestsAfterShards = fake.requests.length;
  merged = await runDist({
    workspace,
    ...pr,
    inputs: { mode: 'merge', reports: 'downloaded/*.json', 'report-path': 'merged.json' },
  });
});

afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

describe('action: sharded check and merge', () => {
  it('each shard checks its part and writes its report under a name of its own', () => {
    const names = shards.map((s) => path.basename(s.outputs['report-path'] ?? ''));
    expect(names).toEqual([1, 2, 3].map((i) => `context-stability-report-shard-${i}-of-3.json`));
    const checked = shards.map((s) => Number(s.outputs['checked']));
    expect(checked.reduce((a, b) => a + b, 0)).toBe(Number(unsharded.outputs['checked']));
    expect(checked.filter((n) => n > 0).length).toBeGreaterThan(1);
  });

  it('shards neither comment nor list obsolete goldens', () => {
    expect(requestsAfterShards).toBe(0);
    for (const shard of shards) {
      // A shard cannot tell which goldens are obsolete: the output is empty, not 0.
      expect(shard.outputs['obsolete']).toBe('');
      expect(shard.outputs['comment-url']).toBe('');
      expect(shard.log.annotations.some((a) => a.title?.includes('obsolete'))).toBe(false);
      expect(shard.summary).toContain('come from the merge step');
    }
  });

  it('merge gives the totals, outputs and report of the unsharded run', async () => {
    expect(unsharded.code).toBe(1);
    expect(merged.code).toBe(1);
    const {
      'report-path': _a,
      'html-path': mergedHtml,
      'comment-url': url,
      ...mergedOutputs
    } = merged.outputs;
    const {
      'report-path': _b,
      'html-path': unshardedHtml,
      'comment-url': noUrl,
      ...unshardedOutputs
    } = unsharded.outputs;
    expect(mergedOutputs).toEqual(unshardedOutputs);
    // Only merge commented (the unsharded run had comment: false).
    expect(url).toMatch(/^https:\/\/github\.com\/acme\/agents\/pull\/21#issuecomment-\d+$/);
    expect(noUrl).toBe('');
    // The viewer page is written where the goldens are (check); merge has none, so no page.
    expect(unshardedHtml).toMatch(/\.html$/);
    expect(mergedHtml).toBe('');
    expect(mergedOutputs).toMatchObject({
      status: 'fail',
      checked: '7',
      passed: '3',
      drifted: '1',
      new: '3',
      errors: '0',
      obsolete: '1',
    });
    const mergedReport = await readFile(path.join(workspace, 'merged.json'), 'utf8');
    expect(mergedReport).toBe(await readFile(path.join(workspace, 'unsharded.json'), 'utf8'));
    expect(JSON.parse(mergedReport)).toMatchObject({
      shard: null,
      obsolete: [STRAY],
      summary: { checked: 7, pass: 3, drift: 1, new: 3, obsolete: 1 },
    });
  });

  it('merge annotates the findings and the obsolete golden, and posts the one comment', () => {
    expect(byLevel(merged.log, 'warning')).toContainEqual(
      expect.objectContaining({
        file: STRAY,
        title: 'context-stability obsolete: golden without transcript',
      }),
    );
    expect(byLevel(merged.log, 'error').some((a) => a.file === 'transcripts/notes.jsonl')).toBe(true);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.body.startsWith(COMMENT_MARKER)).toBe(true);
    expect(fake.comments[0]?.body).toContain('removed.jsonl');
    expect(merged.summary).toContain('removed.jsonl');
  });

  it('refuses an incomplete set of shard reports, naming the missing shard', async () => {
    const run = await runInProcess({
      workspace,
      inputs: { mode: 'merge', reports: 'downloaded/*-1-of-3.json\ndownloaded/*-3-of-3.json' },
    });
    expect(run.code).toBe(1);
    expect(run.outputs['status']).toBe('fail');
    const errors = byLevel(run.log, 'error');
    expect(
      errors.some((a) => a.title === 'context-stability input: merge-refused' && a.message.includes('2/3')),
    ).toBe(true);
  });
});
