import { describe, it, expect } from 'vitest';
import { LshIndex } from '../../../src/core/similarity/lsh-index.js';

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
