import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  LSH_MISS_TARGET,
  MINHASH_FUNCTIONS,
  bandKeys,
  lshMissProbability,
  lshParams,
  lshThreshold,
  matchingRows,
  minMatchingRows,
  minhashSignature,
} from '../../../src/core/similarity/minhash.js';
import { fmix32, murmur3_32, murmur3_32Words } from '../../../src/core/similarity/hash.js';
import { normalizeText, shingleHashes } from '../../../src/core/similarity/shingles.js';
import { fcOptions } from '../../support/fc.js';

const THRESHOLDS = [0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99];

/** Sorted distinct hashes of `n` synthetic shingles starting at `from`. */
function hashes(from: number, n: number): Uint32Array {
  const out = Uint32Array.from({ length: n }, (_, i) => murmur3_32(`s${from + i}`, 1));
  return Uint32Array.from(new Set(out)).sort();
}

describe('lshParams', () => {
  it.each(THRESHOLDS)('at %f keeps the miss probability within target and the S-curve below it', (s) => {
    const p = lshParams(s);
    expect(p.bands * p.rows).toBeLessThanOrEqual(MINHASH_FUNCTIONS);
    expect(lshMissProbability(s, p)).toBeLessThanOrEqual(LSH_MISS_TARGET);
    expect(lshThreshold(p)).toBeLessThan(s);
  });

  it.each(THRESHOLDS)('at %f is the most selective banding that meets the target', (s) => {
    const p = lshParams(s);
    const tighter = { rows: p.rows + 1, bands: Math.floor(MINHASH_FUNCTIONS / (p.rows + 1)) };
    expect(lshMissProbability(s, tighter)).toBeGreaterThan(LSH_MISS_TARGET);
  });

  it('falls back to one row per band when no banding reaches the target', () => {
    expect(lshParams(0.05)).toEqual({ bands: MINHASH_FUNCTIONS, rows: 1 });
  });
});

/**
 * The definition: value f is the least fmix32(hash ^ seed_f), seed_f = murmur3_32Words([f]) under a
 * fixed seed. Signatures decide which near duplicates are found, so they are part of the stable output.
 */
function referenceSignature(distinct: Uint32Array, count: number): number[] {
  return Array.from({ length: count }, (_, f) => {
    const seed = murmur3_32Words([f], 0, 1, 0x510e527f);
    return Math.min(...Array.from(distinct, (h) => fmix32(h ^ seed)));
  });
}

describe('minhashSignature', () => {
  it('equals the definition for any set of hashes and any length', () => {
    const sets = fc
      .uniqueArray(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 300 })
      .map((values) => Uint32Array.from(values).sort());
    fc.assert(
      fc.property(sets, fc.integer({ min: 0, max: MINHASH_FUNCTIONS }), (distinct, count) => {
        expect([...minhashSignature(distinct, count)]).toEqual(referenceSignature(distinct, count));
      }),
      fcOptions(200),
    );
  });

  it('is pinned on real shingles (word and character modes)', () => {
    const words = normalizeText(
      'The build FAILED at step 3: missing module left-pad; retry with npm ci and a clean cache 🙂 日本',
    );
    const chars = normalizeText('ERR! ﬁle not found: é\u0301 ｆｉｌｅ');
    expect([...minhashSignature(shingleHashes(words, 'words'), 12)]).toEqual([
      34050171, 7181569, 126853981, 498752248, 220617567, 72941454, 655840734, 46864662, 282543957, 151428555,
      303957429, 196121523,
    ]);
    expect([...minhashSignature(shingleHashes(chars, 'chars'), 12)]).toEqual([
      62577025, 111775317, 256630243, 145423841, 41132808, 168512103, 284581704, 2014319, 402173409,
      102592595, 67944518, 21488438,
    ]);
  });

  it('is identical for identical sets and has the requested length', () => {
    const a = minhashSignature(hashes(0, 200), 100);
    expect(a.length).toBe(100);
    expect(minhashSignature(hashes(0, 200), 100)).toEqual(a);
  });

  it.each([
    [0, 1],
    [100, 1 / 3],
    [50, 150 / 250],
  ])('estimates the Jaccard similarity (offset %i, J = %f)', (offset, j) => {
    const a = minhashSignature(hashes(0, 200), MINHASH_FUNCTIONS);
    const b = minhashSignature(hashes(offset, 200), MINHASH_FUNCTIONS);
    expect(Math.abs(matchingRows(a, b) / MINHASH_FUNCTIONS - j)).toBeLessThan(0.15);
  });

  it('shares almost no values between disjoint sets', () => {
    const a = minhashSignature(hashes(0, 200), MINHASH_FUNCTIONS);
    const b = minhashSignature(hashes(1000, 200), MINHASH_FUNCTIONS);
    expect(matchingRows(a, b)).toBeLessThanOrEqual(2);
  });
});

describe('minMatchingRows', () => {
  it('accepts every agreement count above the lower binomial tail and rises with the threshold', () => {
    let previous = 0;
    for (const s of THRESHOLDS) {
      const k = minMatchingRows(s, 126);
      expect(k).toBeGreaterThanOrEqual(previous);
      // Far enough below the mean that a pair at the threshold is essentially never rejected.
      expect(k).toBeLessThan(126 * s - 3 * Math.sqrt(126 * s * (1 - s)));
      previous = k;
    }
    // ...yet close enough to filter out most pairs at Jaccard 0.6 (polling output) at threshold 0.9.
    expect(minMatchingRows(0.9, 126)).toBeGreaterThan(126 * 0.6 + 2 * Math.sqrt(126 * 0.6 * 0.4));
  });

  it('demands every row for similarity 1', () => {
    expect(minMatchingRows(1, 126)).toBe(126);
  });
});

describe('bandKeys', () => {
  it('gives equal keys for equal bands and separates salts', () => {
    const params = { bands: 4, rows: 2 };
    const a = Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const b = Uint32Array.from([1, 2, 3, 4, 5, 6, 9, 9]);
    const ka = bandKeys(a, params, 1);
    const kb = bandKeys(b, params, 1);
    expect([...ka.subarray(0, 3)]).toEqual([...kb.subarray(0, 3)]);
    expect(ka[3]).not.toBe(kb[3]);
    expect(bandKeys(a, params, 2)[0]).not.toBe(ka[0]);
  });
});
