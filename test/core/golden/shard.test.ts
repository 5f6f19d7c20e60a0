import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inShard, parseShard } from '../../../src/core/golden/shard.js';
import { fcOptions } from '../../support/fc.js';

const PATHS = Array.from({ length: 1000 }, (_, i) => `examples/transcripts/session-${i}.jsonl`);

describe('parseShard', () => {
  it('parses i/n', () => {
    expect(parseShard('1/1')).toEqual({ ok: true, index: 1, total: 1 });
    expect(parseShard('3/4')).toEqual({ ok: true, index: 3, total: 4 });
    expect(parseShard('1000/1000')).toEqual({ ok: true, index: 1000, total: 1000 });
  });

  it.each([
    ['', /form i\/n/],
    ['2', /form i\/n/],
    ['1/2/3', /form i\/n/],
    [' 1/2', /form i\/n/],
    ['-1/2', /form i\/n/],
    ['1.5/2', /form i\/n/],
    ['a/b', /form i\/n/],
    ['0/4', /1-based/],
    ['5/4', /from 1 to the shard count \(4\)/],
    ['1/0', /shard count must be from 1 to 1000/],
    ['1/1001', /shard count must be from 1 to 1000/],
    ['1/99999999', /form i\/n/],
  ])('rejects %j', (spec, why) => {
    const r = parseShard(spec);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(why);
  });
});

describe('inShard', () => {
  it('puts every path in exactly one shard, for any shard count (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 1000 }), (path, total) => {
        let owners = 0;
        for (let index = 1; index <= total; index++) if (inShard(path, { index, total })) owners++;
        expect(owners).toBe(1);
      }),
      fcOptions(200),
    );
  });

  it('is stable: the same path always lands in the same shard, whatever else exists', () => {
    const owner = (p: string): number => [1, 2, 3, 4].find((index) => inShard(p, { index, total: 4 })) ?? 0;
    const first = PATHS.map(owner);
    expect(PATHS.map(owner)).toEqual(first);
    // Pinned: a change of the hash would silently reshuffle every CI matrix and its reports.
    expect(['a.jsonl', 'b.jsonl', 'examples/transcripts/session-0.jsonl', 'x/y.json'].map(owner)).toEqual([
      3, 1, 4, 3,
    ]);
  });

  it('splits 1,000 paths roughly evenly over 4 shards', () => {
    const sizes = [1, 2, 3, 4].map((index) => PATHS.filter((p) => inShard(p, { index, total: 4 })).length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1000);
    for (const size of sizes) expect(Math.abs(size - 250)).toBeLessThan(50);
  });

  it('keeps everything in the only shard of 1/1', () => {
    expect(PATHS.every((p) => inShard(p, { index: 1, total: 1 }))).toBe(true);
  });
});
