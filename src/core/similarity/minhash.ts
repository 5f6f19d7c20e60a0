// MinHash signatures and LSH banding: the sub-quadratic candidate search for near duplicates.
// Two texts land in a common bucket with probability 1 - (1 - J^rows)^bands, an S-curve in their
// Jaccard J. Candidates are only candidates: dedup verifies each one exactly.

import { murmur3_32Words } from './hash.js';

/** Hash functions available to a signature; bands × rows never exceeds it. */
export const MINHASH_FUNCTIONS = 128;

/**
 * Largest accepted probability that a pair exactly at the threshold shares no bucket. At Jaccard
 * threshold + 0.05 the miss probability is orders of magnitude lower still.
 */
export const LSH_MISS_TARGET = 1e-6;

/** Probability that the signature pre-filter rejects a pair exactly at the threshold. */
export const ESTIMATE_MISS_TARGET = 1e-9;

export interface LshParams {
  bands: number;
  rows: number;
}

const PERMUTATION_SEED = 0x510e527f;
const BAND_SEED = 0x9b05688c;

// One seed per hash function: h_i(x) = fmix32(x ^ seed_i) is a bijection of 32-bit values, i.e. a
// pseudo-random permutation of the shingle hashes, as MinHash needs. Held as signed 32-bit values:
// only their bits matter to `^`, and V8 keeps them in integer registers.
const PERMUTATION_SEEDS: Int32Array = Int32Array.from({ length: MINHASH_FUNCTIONS }, (_, i) =>
  murmur3_32Words([i], 0, 1, PERMUTATION_SEED),
);

/** Probability that a pair of Jaccard `j` shares no band, i.e. is never compared. */
export function lshMissProbability(j: number, params: LshParams): number {
  return (1 - j ** params.rows) ** params.bands;
}

/** Where the S-curve rises steepest, (1/bands)^(1/rows). */
export function lshThreshold(params: LshParams): number {
  return (1 / params.bands) ** (1 / params.rows);
}

/**
 * The most selective banding (most rows per band, hence fewest false candidates) whose miss
 * probability at `similarity` stays within LSH_MISS_TARGET. This puts the S-curve's threshold below
 * the policy threshold. For very low thresholds no banding meets the target and the most
 * permissive one (one row per band) is used.
 */
export function lshParams(similarity: number, functions = MINHASH_FUNCTIONS): LshParams {
  let best: LshParams = { bands: functions, rows: 1 };
  for (let rows = 2; rows <= functions; rows++) {
    const candidate = { bands: Math.floor(functions / rows), rows };
    if (lshMissProbability(similarity, candidate) <= LSH_MISS_TARGET) best = candidate;
  }
  return best;
}

const SIGN_BIT = 0x80000000 | 0;
/** Largest value of `permuted`: the unsigned 0xffffffff with its top bit flipped. */
const PERMUTED_MAX = 0x7fffffff;
/** Hash functions computed per pass over the shingles (see minhashSignature). */
const LANES = 8;

/**
 * fmix32(value ^ seed) with its top bit flipped: signed comparison of the results orders them as
 * the unsigned hashes, so the minimum stays in 32-bit integer arithmetic (no unsigned conversion).
 */
function permuted(value: number, seed: number): number {
  let x = value ^ seed;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16) ^ SIGN_BIT;
}

/**
 * The first `count` MinHash values of a non-empty set of shingle hashes: value f is the least
 * fmix32(hash ^ seed_f) over the set, so a shorter signature is a prefix of a longer one. Eight
 * functions share each pass over the hashes: one load feeds eight independent chains of
 * multiplications, which the CPU overlaps (this loop is dedup's hottest).
 */
export function minhashSignature(distinctHashes: Uint32Array, count: number): Uint32Array {
  const signature = new Uint32Array(count);
  const n = distinctHashes.length;
  let f = 0;
  for (; f + LANES <= count; f += LANES) {
    const s0 = PERMUTATION_SEEDS[f]!;
    const s1 = PERMUTATION_SEEDS[f + 1]!;
    const s2 = PERMUTATION_SEEDS[f + 2]!;
    const s3 = PERMUTATION_SEEDS[f + 3]!;
    const s4 = PERMUTATION_SEEDS[f + 4]!;
    const s5 = PERMUTATION_SEEDS[f + 5]!;
    const s6 = PERMUTATION_SEEDS[f + 6]!;
    const s7 = PERMUTATION_SEEDS[f + 7]!;
    let m0 = PERMUTED_MAX;
    let m1 = PERMUTED_MAX;
    let m2 = PERMUTED_MAX;
    let m3 = PERMUTED_MAX;
    let m4 = PERMUTED_MAX;
    let m5 = PERMUTED_MAX;
    let m6 = PERMUTED_MAX;
    let m7 = PERMUTED_MAX;
    for (let i = 0; i < n; i++) {
      const v = distinctHashes[i]!;
      m0 = Math.min(m0, permuted(v, s0));
      m1 = Math.min(m1, permuted(v, s1));
      m2 = Math.min(m2, permuted(v, s2));
      m3 = Math.min(m3, permuted(v, s3));
      m4 = Math.min(m4, permuted(v, s4));
      m5 = Math.min(m5, permuted(v, s5));
      m6 = Math.min(m6, permuted(v, s6));
      m7 = Math.min(m7, permuted(v, s7));
    }
    signature[f] = m0 ^ SIGN_BIT;
    signature[f + 1] = m1 ^ SIGN_BIT;
    signature[f + 2] = m2 ^ SIGN_BIT;
    signature[f + 3] = m3 ^ SIGN_BIT;
    signature[f + 4] = m4 ^ SIGN_BIT;
    signature[f + 5] = m5 ^ SIGN_BIT;
    signature[f + 6] = m6 ^ SIGN_BIT;
    signature[f + 7] = m7 ^ SIGN_BIT;
  }
  for (; f < count; f++) {
    const seed = PERMUTATION_SEEDS[f]!;
    let min = PERMUTED_MAX;
    for (let i = 0; i < n; i++) min = Math.min(min, permuted(distinctHashes[i]!, seed));
    signature[f] = min ^ SIGN_BIT;
  }
  return signature;
}

/** How many positions two signatures agree on: ~Binomial(length, Jaccard). */
export function matchingRows(a: Uint32Array, b: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) n++;
  return n;
}

/**
 * The fewest agreeing positions out of `functions` that a pair of Jaccard ≥ `similarity` shows
 * except with probability ≤ `tolerance` (a lower binomial tail). Fewer agreements reject a
 * candidate without looking at its shingles.
 */
export function minMatchingRows(
  similarity: number,
  functions: number,
  tolerance = ESTIMATE_MISS_TARGET,
): number {
  if (similarity >= 1) return functions;
  // P(X = k) for X ~ Binomial(functions, similarity), summed from k = 0 while the tail stays tiny.
  let pmf = (1 - similarity) ** functions;
  let below = 0;
  let k = 0;
  while (k < functions && below + pmf <= tolerance) {
    below += pmf;
    pmf *= ((functions - k) / (k + 1)) * (similarity / (1 - similarity));
    k++;
  }
  return k;
}

/**
 * One bucket key per band. `salt` separates families of texts that must never be compared (for
 * example the two shingle modes); a key collision only costs one extra verified candidate.
 */
export function bandKeys(signature: Uint32Array, params: LshParams, salt: number): Uint32Array {
  const keys = new Uint32Array(params.bands);
  for (let b = 0; b < params.bands; b++) {
    keys[b] = murmur3_32Words(signature, b * params.rows, (b + 1) * params.rows, BAND_SEED ^ salt);
  }
  return keys;
}
