// `check --shard i/n --report` and `merge`: the shard reports combine into the report of one
// unsharded run, and merge refuses what does not belong together.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { TempRepo } from './check-support.js';

let repo: TempRepo;

function session(i: number): string {
  return [
    { kind: 'system', content: 'You keep the team notes.' },
    { kind: 'user', content: `Note ${i}: the build for service ${i} moves to runner pool ${i % 3}.` },
    { kind: 'assistant', content: `Noted for service ${i}.` },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
}

beforeAll(async () => {
  repo = new TempRepo();
  for (let i = 0; i < 12; i++)
    repo.write(`transcripts/gen/s${String(i).padStart(2, '0')}.jsonl`, `${session(i)}\n`);
  await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
  // One drift, one new, one obsolete golden: every part of the report has something to merge.
  repo.write(
    'transcripts/gen/s03.jsonl',
    `${session(3)}\n${JSON.stringify({ kind: 'user', content: 'More.' })}\n`,
  );
  repo.write('transcripts/gen/s99.jsonl', `${session(99)}\n`);
  repo.write(
    'golden/transcripts/gen/removed.jsonl.golden.json',
    repo.read('golden/transcripts/gen/s00.jsonl.golden.json'),
  );
});
afterAll(() => {
  repo.remove();
});

const CHECK = ['check', '--policy', 'policy.yml', 'transcripts'];

describe('sharded check and merge', () => {
  it('merging the reports of shards 1/3, 2/3 and 3/3 gives the unsharded report byte for byte', async () => {
    const full = await repo.cli([...CHECK, '--report', 'full.json'], { CI: 'true' });
    expect(full.code).toBe(1);
    const shards: CheckReport[] = [];
    for (const i of [1, 2, 3]) {
      const run = await repo.cli([...CHECK, '--shard', `${i}/3`, '--report', `shard-${i}.json`], {
        CI: 'true',
      });
      expect(run.code).toBeLessThanOrEqual(1);
      const report = JSON.parse(repo.read(`shard-${i}.json`)) as CheckReport;
      expect(report.shard).toEqual({ index: i, total: 3 });
      expect(report.obsolete).toBeNull();
      shards.push(report);
    }
    const sizes = shards.map((r) => r.transcripts.length);
    expect(sizes.every((n) => n > 0)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(16);

    const merged = await repo.cli([
      'merge',
      'shard-3.json',
      'shard-1.json',
      'shard-2.json',
      '--report',
      'merged.json',
    ]);
    expect(merged.code).toBe(full.code);
    expect(repo.read('merged.json')).toBe(repo.read('full.json'));
    const report = JSON.parse(repo.read('merged.json')) as CheckReport;
    expect(report.obsolete).toEqual(['golden/transcripts/gen/removed.jsonl.golden.json']);
    expect(report.summary).toMatchObject({ checked: 16, drift: 1, new: 1, pass: 14, obsolete: 1 });
    expect(merged.stdout).toContain('golden/transcripts/gen/removed.jsonl.golden.json');
    expect(existsSync(repo.path('golden/transcripts/gen/s99.jsonl.golden.json'))).toBe(false);
  });

  it('prints the merged report in the chosen format', async () => {
    for (const i of [1, 2])
      await repo.cli([...CHECK, '--shard', `${i}/2`, '--report', `two-${i}.json`], { CI: '1' });
    const json = await repo.cli(['merge', '--format', 'json', 'two-1.json', 'two-2.json']);
    expect((JSON.parse(json.stdout) as CheckReport).shard).toBeNull();
    const markdown = await repo.cli(['merge', '--format', 'markdown', 'two-1.json', 'two-2.json']);
    // The whole run in one report: every shard's transcripts counted, what broke first.
    expect(markdown.stdout).toContain(
      '**❌ 2 of 16 transcripts fail** — 0 with violations · 1 drifted · 1 new · 0 errors · 14 passed',
    );
    expect(markdown.stdout).toContain('**transcripts/gen/s03.jsonl** — ❌ drift');
    // The 14 passes (11 generated, 3 fixtures) are rows of the collapsed table.
    expect(markdown.stdout.match(/^\| transcripts\/[^ ]+ \| \d+ \/ \d+ \|/gm)).toHaveLength(14);
  });

  it('refuses a missing shard, a shard given twice, and reports of different policies', async () => {
    for (const i of [1, 2, 3])
      await repo.cli([...CHECK, '--shard', `${i}/3`, '--report', `s-${i}.json`], { CI: '1' });
    await repo.cli(
      ['check', '--policy', 'policy-tight.yml', 'transcripts', '--shard', '3/3', '--report', 'tight-3.json'],
      { CI: '1' },
    );
    const cases: [string[], string][] = [
      [['s-1.json', 's-2.json'], 'shard 3/3 missing'],
      [['s-1.json', 's-2.json', 's-2.json'], 'shard 2/3 is given more than once'],
      [['s-1.json', 's-2.json', 'tight-3.json'], 'different policies'],
    ];
    for (const [files, reason] of cases) {
      const run = await repo.cli(['merge', ...files, '--report', 'never.json']);
      expect(run.code, reason).toBe(2);
      expect(run.stderr, reason).toContain(reason);
      expect(run.stdout).toBe('');
      expect(existsSync(repo.path('never.json'))).toBe(false);
    }
  });

  it('refuses files that are not check reports, without quoting them', async () => {
    repo.write('not-json.json', 'dana.miller@example.org is not JSON');
    repo.write('other.json', '{"name": "dana.miller@example.org"}');
    repo.write('future.json', '{"schema_version": 7}');
    const run = await repo.cli(['merge', 'not-json.json', 'other.json', 'future.json', 'absent.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^not-json\.json:1:1: error\[/m);
    expect(run.stderr).toContain('other.json:1:1: error[not-a-check-report]');
    expect(run.stderr).toContain(
      'future.json:1:1: error[not-a-check-report]: The report has schema version 7',
    );
    expect(run.stderr).toContain('absent.json:1:1: error[not-found]');
    expect(run.stderr).not.toContain('dana.miller');
  });
});
