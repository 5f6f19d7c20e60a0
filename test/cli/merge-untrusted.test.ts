// `merge` on report files it cannot trust (issue 34, items 2 and 8): one example per crash class the
// outside campaign and the fuzz suite (merge-fuzz.test.ts) found, each a one-line diagnostic at the
// bad value, exit 2, the other files still read; workflow commands planted in a report never reach
// the runner; real reports with every optional part keep the contract.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { TempRepo } from './check-support.js';
import { reportDir, reportText, runMerge, runnerCommands, shardReports } from './merge-reports.js';

const dir = reportDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, unknown>;
const PLANTED = 'dana.miller@example.org';

/** Merges shard 1 as `edit` leaves it with an intact shard 2. */
async function mergeEdited(edit: (r: Json) => void, args: string[] = [], env: Record<string, string> = {}) {
  const [first, second] = shardReports();
  edit(first as unknown as Json);
  return runMerge(dir, { 's1.json': reportText(first), 's2.json': reportText(second) }, args, env);
}

function transcript(r: Json, i: number): Json {
  return (r['transcripts'] as Json[])[i] as Json;
}

describe('merge refuses a report that breaks the contract, at the bad value', () => {
  // Each of these threw a TypeError or RangeError before (the Action step failed, no comment).
  it.each<[string, (r: Json) => void, RegExp]>([
    [
      'a transcript without violations',
      (r) => delete transcript(r, 0)['violations'],
      /^s1\.json:\d+:\d+: .*\$\.transcripts\[0\]\.violations must be present/,
    ],
    [
      'a violation that is not an object',
      (r) => (transcript(r, 1)['violations'] = [null]),
      /\$\.transcripts\[1\]\.violations\[0\] must be an object/,
    ],
    [
      'a negative token count (repeat with a negative count)',
      (r) => (transcript(r, 1)['budget'] = { limit: 10, used: -5 }),
      /\$\.transcripts\[1\]\.budget\.used must be a whole number from 0/,
    ],
    [
      'a shard count of a billion (an array of a billion shards)',
      (r) => (r['shard'] = { index: 1, total: 1e9 }),
      /\$\.shard\.total must be a shard count from 1 to 1000/,
    ],
    [
      'a negative shard count',
      (r) => (r['shard'] = { index: 1, total: -2 }),
      /\$\.shard\.total must be a whole number from 0/,
    ],
    [
      'a shard index past the count',
      (r) => (r['shard'] = { index: 3, total: 2 }),
      /\$\.shard\.index must be a shard index/,
    ],
    [
      'a number written as a string',
      (r) => ((transcript(r, 1)['budget'] as Json)['limit'] = '2000'),
      /\$\.transcripts\[1\]\.budget\.limit must be a whole number from 0/,
    ],
    [
      'an unknown outcome',
      (r) => (transcript(r, 0)['outcome'] = 'skipped'),
      /\$\.transcripts\[0\]\.outcome must be one of pass, drift, new, violations, error/,
    ],
    [
      'an unknown fate in the session map',
      (r) => (((transcript(r, 1)['picture'] as Json)['runs'] as Json[])[0]!['fate'] = 'gone'),
      /picture\.runs\[0\]\.fate must be one of/,
    ],
    [
      'a diff without its token figures',
      (r) => delete (transcript(r, 1)['diff'] as Json)['tokens'],
      /\$\.transcripts\[1\]\.diff\.tokens must be present/,
    ],
    [
      'an impact side that is a string',
      (r) => ((transcript(r, 1)['impact'] as Json)['head'] = PLANTED),
      /\$\.transcripts\[1\]\.impact\.head must be an object/,
    ],
    [
      'a cache share over 1',
      (r) => ((transcript(r, 1)['cache_prefix'] as Json)['mean_share'] = 7),
      /cache_prefix\.mean_share must be a number from 0 to 1, or null/,
    ],
    [
      'lost facts that are not a list',
      (r) => ((transcript(r, 1)['retention'] as Json)['lost_facts'] = {}),
      /retention\.lost_facts must be an array/,
    ],
    [
      'a diagnostic without a line',
      (r) => delete ((transcript(r, 2)['diagnostics'] as Json[])[0] as Json)['line'],
      /diagnostics\[0\]\.line must be present/,
    ],
    [
      'a diagnostic code that is not a code',
      (r) => (((transcript(r, 2)['diagnostics'] as Json[])[0] as Json)['code'] = `##[error]${PLANTED}`),
      /diagnostics\[0\]\.code must be a kebab-case code/,
    ],
    [
      'a unified diff with a line the runner would run',
      (r) => (transcript(r, 1)['unified'] = `--- a\n+++ b\n\u00a0::set-output name=x::${PLANTED}\n`),
      /\$\.transcripts\[1\]\.unified must be a unified diff of two goldens/,
    ],
    [
      'golden files that are not a list of strings',
      (r) => (r['golden_files'] = [1, 2]),
      /\$\.golden_files\[0\] must be a string/,
    ],
    ['a summary without its counts', (r) => (r['summary'] = {}), /\$\.summary\.checked must be present/],
    [
      'a session label that is not a plain identifier',
      (r) => (transcript(r, 1)['session_label'] = `\u00a0::add-mask::${PLANTED}`),
      /\$\.transcripts\[1\]\.session_label must be a plain identifier/,
    ],
    [
      'a by-kind key that is no artifact kind',
      (r) => ((transcript(r, 1)['picture'] as Json)['by_kind'] = { [PLANTED]: 3 }),
      /picture\.by_kind\[…\] must be one of system/,
    ],
  ])('%s', async (_name, edit, expected) => {
    const run = await mergeEdited(edit, ['--report', 'never.json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^s1\.json:\d+:\d+: error\[not-a-check-report\]: .+ Hint: /);
    expect(lines[0]).toMatch(expected);
    expect(run.stderr).not.toContain(PLANTED);
  });

  it('points at the line and column of the object holding the bad value', async () => {
    const [first] = shardReports();
    const text = reportText(first);
    const run = await mergeEdited((r) => ((transcript(r, 1)['budget'] as Json)['used'] = -1));
    // The bad value is a number: the diagnostic points at the `{` of the budget holding it, the
    // second `"budget": {` of the file (transcripts are sorted, keys too).
    const lines = text.split('\n');
    const budgets = lines.flatMap((l, i) => (l.trim() === '"budget": {' ? [i + 1] : []));
    const line = budgets[1] as number;
    const column = (lines[line - 1] as string).indexOf('{') + 1;
    expect(run.stderr).toContain(`s1.json:${line}:${column}: error[not-a-check-report]`);
  });

  it('reads every file and names each bad one, so one run shows them all', async () => {
    const [first, second] = shardReports();
    (first as unknown as Json)['ci'] = 'yes';
    const run = await runMerge(dir, {
      's1.json': reportText(first),
      's2.json': reportText(second).slice(0, 200),
      's3.json': reportText(second),
    });
    expect(run.code).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^s1\.json:1:1: error\[not-a-check-report\]: .*\$\.ci must be true or false/);
    expect(lines[1]).toMatch(/^s2\.json:\d+:\d+: error\[truncated\]/);
  });

  it('turns numbers beyond a double (1e400) and deep nesting into diagnostics, not crashes', async () => {
    const [first, second] = shardReports();
    const huge = reportText(first).replace('"used": 1770', '"used": 1e400');
    let deep = '1';
    for (let i = 0; i < 300; i++) deep = `[${deep}]`;
    const nested = reportText(first).replace('"notes": [', `"deep": ${deep}, "notes": [`);
    for (const text of [huge, nested]) {
      const run = await runMerge(dir, { 's1.json': text, 's2.json': reportText(second) });
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
      expect(run.stderr).toMatch(/^s1\.json:\d+:\d+: error\[(not-a-check-report|too-deep)\]/);
    }
  });

  it('refuses a number beyond a double in a field it does not know (it could not write it back)', async () => {
    const [first, second] = shardReports();
    const text = reportText(first).replace(
      '"transcript": "t/d.jsonl",',
      '"transcript": "t/d.jsonl", "later": {"figure": 1e400},',
    );
    const run = await runMerge(dir, { 's1.json': text, 's2.json': reportText(second) }, ['--format', 'json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^s1\.json:\d+:\d+: error\[not-a-check-report\]: .*\$\.transcripts\[1\]\.later\.figure must be a finite number/,
    );
  });

  it('refuses a transcript reported twice without quoting its name', async () => {
    const run = await mergeEdited(
      (r) => {
        const list = r['transcripts'] as Json[];
        list[0] = { ...list[0], transcript: `${PLANTED}\n::error::forged` };
        list.push({ ...list[0] });
      },
      [],
      { GITHUB_ACTIONS: 'true' },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'context-stability merge: the reports cannot be merged: a transcript is reported by more than one shard or twice by one (shard 1/2 twice).\n',
    );
  });
});

describe('merge under GitHub Actions hands the runner no command from a report', () => {
  // A name starting with a Unicode space, then `::`: the runner trims every Unicode whitespace.
  const NAMES = [
    '\u00a0::set-output name=a::b',
    '\u2003::add-mask::x',
    '\u3000::error::forged',
    '##[error]forged',
  ];

  it.each(['text', 'json', 'markdown', 'github'])('in --format %s', async (format) => {
    const run = await mergeEdited(
      (r) => {
        const list = r['transcripts'] as Json[];
        list.forEach((t, i) => (t['transcript'] = NAMES[i % NAMES.length]));
        const d = list[1] as Json;
        ((d['violations'] as Json[])[0] as Json)['id'] = NAMES[2];
        ((d['violations'] as Json[])[0] as Json)['message'] = NAMES[3];
        ((d['diagnostics'] as Json[])[0] as Json)['file'] = NAMES[0];
        ((d['diagnostics'] as Json[])[0] as Json)['message'] = NAMES[1];
        (d['notes'] as string[])[0] = NAMES[3] as string;
        ((d['diff'] as Json)['first'] as Json)['id'] = NAMES[0];
      },
      ['--format', format, '--verbose'],
      { GITHUB_ACTIONS: 'true' },
    );
    expect(run.code).toBe(2); // the report holds an unreadable transcript
    expect(run.stdout).not.toBe('');
    expect(runnerCommands(`${run.stdout}\n${run.stderr}`)).toEqual([]);
    if (format === 'json') {
      // Inert, and still the same report.
      expect(run.stdout).not.toContain('##[');
      const parsed = JSON.parse(run.stdout) as CheckReport;
      expect(parsed.transcripts.flatMap((t) => t.violations.map((v) => v.message))).toContain(
        '##[error]forged',
      );
    }
  });
});

describe('merge accepts the reports check writes', () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = new TempRepo();
  });
  afterAll(() => repo.remove());

  it('with the policy impact and the prompt-cache replay in them', async () => {
    const check = [
      'check',
      '--policy',
      'policy.yml',
      '--base-policy',
      'policy-tight.yml',
      '--cache-report',
      'transcripts',
    ];
    for (const i of [1, 2])
      await repo.cli([...check, '--shard', `${i}/2`, '--report', `r-${i}.json`], { CI: '1' });
    await repo.cli([...check, '--report', 'full.json'], { CI: '1' });
    const full = JSON.parse(repo.read('full.json')) as CheckReport;
    expect(full.transcripts.some((t) => t.impact !== undefined && t.cache_prefix !== undefined)).toBe(true);
    const merged = await repo.cli(['merge', 'r-1.json', 'r-2.json', '--report', 'merged.json']);
    expect(merged.stderr).not.toContain('not-a-check-report');
    expect(repo.read('merged.json')).toBe(repo.read('full.json'));
  });
});
