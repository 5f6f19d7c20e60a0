// MinHash signatures and LSH banding: the sub-quadratic candidate search for near duplicates.
// Two texts land in a common bucket with probability 1 - (1 - J^rows)^bands, an S-curve in their
// Jaccard J. Candidates are only candidates: dedup verifies each one exactly.

import { fmix32, murmur3_32Words } from './hash.js';

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
// pseudo-random permutation of the shingle hashes, as MinHash needs.
const PERMUTATION_SEEDS: Uint32Array = Uint32Array.from({ length: MINHASH_FUNCTIONS }, (_, i) =>
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

/** The first `count` MinHash values of a non-empty set of shingle hashes. */
export function minhashSignature(distinctHashes: Uint32Array, count: number): Uint32Array {
  const signature = new Uint32Array(count);
  for (let f = 0; f < count; f++) {
    const seed = PERMUTATION_SEEDS[f] ?? 0;
    let min = 0xffffffff;
    for (let i = 0; i < distinctHashes.length; i++) {
      const v = fmix32((distinctHashes[i] ?? 0) ^ seed);
      if (v < min) min = v;
    }
    signature[f] = min;
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
