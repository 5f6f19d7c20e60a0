import { describe, expect, it } from 'vitest';
import { exitCodeFor, findObsolete, mergeReports, summarize } from '../../../src/core/golden/check-report.js';
import type { CheckReport, TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import { inShard } from '../../../src/core/golden/shard.js';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { checkReport, outcome } from './support.js';

const VIOLATION = { check: 'pii', severity: 'error', id: 'm3', line: 3, message: 'an email address is in the context' };

function mixedRun(): { transcripts: TranscriptOutcome[]; goldenFiles: string[] } {
  const transcripts = [
    ...Array.from({ length: 40 }, (_, i) => outcome(`t/s${i}.jsonl`)),
    outcome('t/drift.jsonl', 'drift'),
    outcome('t/new.jsonl', 'new', { written: true }),
    outcome('t/bad.jsonl', 'violations', { violations: [VIOLATION] }),
  ];
  const goldenFiles = [...transcripts.filter((o) => o.outcome !== 'new').map((o) => o.golden), 'golden/t/gone.jsonl.golden.json', 'golden/old.json.golden.json'];
  return { transcripts, goldenFiles };
}

function shardReports(total: number): CheckReport[] {
  const { transcripts, goldenFiles } = mixedRun();
  return Array.from({ length: total }, (_, i) => {
    const shard = { index: i + 1, total };
    return checkReport(
      transcripts.filter((o) => inShard(o.transcript, shard)),
      { shard, goldenFiles },
    );
  });
}

describe('summarize and findObsolete', () => {
  it('counts every outcome and the obsolete goldens', () => {
    const t = [outcome('a'), outcome('b', 'drift'), outcome('c', 'new'), outcome('d', 'violations'), outcome('e', 'error'), outcome('f')];
    expect(summarize(t, ['golden/x.golden.json'])).toEqual({ checked: 6, pass: 2, drift: 1, new: 1, violations: 1, errors: 1, obsolete: 1 });
    expect(summarize(t, null).obsolete).toBe(0);
  });

  it('finds goldens that no checked transcript claims, sorted and once each', () => {
    const files = ['golden/z.golden.json', 'golden/a.golden.json', 'golden/b.golden.json', 'golden/z.golden.json'];
    expect(findObsolete(files, [outcome('b')])).toEqual(['golden/a.golden.json', 'golden/z.golden.json']);
  });
});

describe('mergeReports', () => {
  it('gives byte for byte the report of one unsharded run', () => {
    const { transcripts, goldenFiles } = mixedRun();
    const unsharded = checkReport(transcripts, { goldenFiles });
    for (const total of [1, 2, 3, 7]) {
      const shards = shardReports(total);
      expect(shards.every((r) => r.obsolete === null)).toBe(true);
      const merged = mergeReports([...shards].reverse());
      expect(merged.ok).toBe(true);
      if (merged.ok) expect(stableStringify(merged.report)).toBe(stableStringify(unsharded));
    }
    expect(unsharded.obsolete).toEqual(['golden/old.json.golden.json', 'golden/t/gone.jsonl.golden.json']);
  });

  it('unions the golden lists: a golden written by one shard is not obsolete', () => {
    const shards = shardReports(2);
    const owner = shards.findIndex((r) => r.transcripts.some((o) => o.transcript === 't/new.jsonl'));
    shards[owner]!.golden_files = [...shards[owner]!.golden_files, 'golden/t/new.jsonl.golden.json'].sort();
    const merged = mergeReports(shards);
    expect(merged.ok && merged.report.golden_files).toContain('golden/t/new.jsonl.golden.json');
    expect(merged.ok && merged.report.obsolete).toEqual(['golden/old.json.golden.json', 'golden/t/gone.jsonl.golden.json']);
  });

  it('keeps the base policy of a policy review run', () => {
    const shards = shardReports(2).map((r) => ({ ...r, base_policy: { source: 'git-ref:main:p.yml', hash: 'ffff' } }));
    const merged = mergeReports(shards);
    expect(merged.ok && merged.report.base_policy).toEqual({ source: 'git-ref:main:p.yml', hash: 'ffff' });
  });

  it.each<[string, (r: CheckReport[]) => CheckReport[], RegExp]>([
    ['no reports', () => [], /no reports/],
    ['a newer schema', (r) => [r[0]!, { ...r[1]!, schema_version: 2 as 1 }], /report 2 has schema version 2/],
    ['an unsharded report', (r) => [r[0]!, { ...r[1]!, shard: null }], /report 2 is not a shard report/],
    ['another policy', (r) => [r[0]!, { ...r[1]!, policy: { source: 'p', hash: 'aaaa' } }], /different policies/],
    ['another base policy', (r) => [r[0]!, { ...r[1]!, base_policy: { source: 'p', hash: 'aaaa' } }], /different base policies/],
    ['another tokenizer', (r) => [r[0]!, { ...r[1]!, tokenizer: { name: 'gpt-tokenizer', version: '9' } }], /different tokenizers/],
    ['another tool version', (r) => [r[0]!, { ...r[1]!, tool: { name: 'context-stability', version: '9' } }], /different tool versions/],
    ['another CI mode', (r) => [r[0]!, { ...r[1]!, ci: true }], /different CI modes/],
    ['another golden folder', (r) => [r[0]!, { ...r[1]!, golden_dir: 'elsewhere' }], /different golden folders/],
    ['another shard count', (r) => [r[0]!, { ...r[1]!, shard: { index: 2, total: 3 } }], /different shard counts/],
    ['a shard twice', (r) => [r[0]!, r[0]!], /shard 1\/2 is given more than once/],
    ['a missing shard', (r) => [r[0]!], /shard 2\/2 missing/],
    [
      'a transcript in two shards',
      (r) => [r[0]!, { ...r[1]!, transcripts: [...r[1]!.transcripts, r[0]!.transcripts[0]!] }],
      /reported by more than one shard/,
    ],
  ])('rejects %s', (_name, edit, why) => {
    const merged = mergeReports(edit(shardReports(2)));
    expect(merged.ok).toBe(false);
    if (!merged.ok) expect(merged.reason).toMatch(why);
  });
});

describe('exitCodeFor', () => {
  it('is 0 when everything passes, obsolete goldens and new goldens outside CI included', () => {
    expect(exitCodeFor(checkReport([outcome('a'), outcome('b', 'new', { written: true })], { goldenFiles: ['golden/old.golden.json'] }))).toBe(0);
  });

  it('is 1 on drift, on violations, and on a missing golden in CI', () => {
    expect(exitCodeFor(checkReport([outcome('a'), outcome('b', 'drift')]))).toBe(1);
    expect(exitCodeFor(checkReport([outcome('a', 'violations', { violations: [VIOLATION] })]))).toBe(1);
    expect(exitCodeFor(checkReport([outcome('b', 'new')], { ci: true }))).toBe(1);
  });

  it('is 1 for a new golden with error violations, 0 when they are only warnings', () => {
    expect(exitCodeFor(checkReport([outcome('b', 'new', { violations: [VIOLATION] })]))).toBe(1);
    expect(exitCodeFor(checkReport([outcome('b', 'pass', { violations: [{ ...VIOLATION, severity: 'warning' }] })]))).toBe(0);
  });

  it('is 2 when an input could not be read, even alongside drift', () => {
    expect(exitCodeFor(checkReport([outcome('a', 'drift'), outcome('b', 'error')]))).toBe(2);
  });
});
