import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { LshIndex } from '../../../src/core/similarity/lsh-index.js';
import { fcOptions } from '../../support/fc.js';

const keys = (...rows: number[][]): Uint32Array[] => rows.map((r) => Uint32Array.from(r));

describe('LshIndex.newerCandidates', () => {
  it('yields every later entry sharing a bucket, newest first, each once', () => {
    const index = new LshIndex(
      keys(
        [1, 10], // 0
        [1, 99], // 1: shares band 0 with 0
        [7, 10], // 2: shares band 1 with 0
        [1, 10], // 3: shares both bands with 0
        [5, 6], // 4: shares nothing
      ),
      2,
    );
    expect([...index.newerCandidates(0)]).toEqual([3, 2, 1]);
    expect([...index.newerCandidates(1)]).toEqual([3]);
    expect([...index.newerCandidates(3)]).toEqual([]);
    expect([...index.newerCandidates(4)]).toEqual([]);
  });
});

describe('LshIndex.newerCandidates against a brute-force scan', () => {
  it('yields exactly the later entries sharing at least one band key, newest first', () => {
    // Few distinct key values, so that buckets are shared often.
    const entries = fc.integer({ min: 1, max: 6 }).chain((bands) =>
      fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: bands, maxLength: bands }), {
        maxLength: 30,
      }),
    );
    fc.assert(
      fc.property(entries, (rows) => {
        const bands = rows[0]?.length ?? 1;
        const index = new LshIndex(keys(...rows), bands);
        rows.forEach((row, entry) => {
          const expected: number[] = [];
          for (let later = rows.length - 1; later > entry; later--) {
            if (row.some((key, band) => rows[later]![band] === key)) expected.push(later);
          }
          expect([...index.newerCandidates(entry)]).toEqual(expected);
        });
      }),
      fcOptions(),
    );
  });
});
