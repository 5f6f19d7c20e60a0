// What dedup derives from one text, memoized. The stabilizer compares a growing suffix of the same
// transcript several times (stabilize/dedup.ts, SuffixDedup), so most texts of a call were already
// normalized and signed by the previous one. Every value here is a pure function of the
// text (and of the signature length), so a cached value is exactly the one a fresh call computes:
// sharing a cache changes the cost of findDuplicates, never its findings.

import { minhashSignature } from './minhash.js';
import { codePointLength, normalizeText, shingleHashes, shingleMode } from './shingles.js';
import type { ShingleMode } from './shingles.js';

/** One normalized, non-empty text; the costly parts are filled in on first use. */
export interface TextFeatures {
  readonly text: string;
  readonly mode: ShingleMode;
  /** Length of `text` in code points. */
  readonly length: number;
  signature?: Uint32Array;
  /**
   * Exact Jaccard similarity with texts this one was verified against (undefined: below the
   * threshold it was verified at). Kept with the features, so a session's later calls reuse them.
   */
  verified?: Map<TextFeatures, { threshold: number; similarity: number | undefined }>;
}

/**
 * Memo of normalization and MinHash signatures, keyed by text. Create one per run
 * over related texts (one transcript) and drop it with the run: it keeps every text it has seen.
 */
export class DedupCache {
  private readonly normalized = new Map<string, string>();
  private readonly features = new Map<string, TextFeatures>();

  /** `normalizeText(raw)`. */
  normalize(raw: string): string {
    let text = this.normalized.get(raw);
    if (text === undefined) {
      text = normalizeText(raw);
      this.normalized.set(raw, text);
    }
    return text;
  }

  /** Features of a normalized, non-empty text. */
  featuresOf(text: string): TextFeatures {
    let features = this.features.get(text);
    if (features === undefined) {
      features = { text, mode: shingleMode(text), length: codePointLength(text) };
      this.features.set(text, features);
    }
    return features;
  }

  /** Forgets every text. */
  clear(): void {
    this.normalized.clear();
    this.features.clear();
  }
}

/**
 * `shingleHashes` of the text, computed afresh: kept only by the caller that needs them (a
 * verification). Cached per text they held about 4 bytes per character of every text for the
 * whole run, a few hundred MB on a long session, where the signature alone is enough.
 */
export function hashesOf(features: TextFeatures): Uint32Array {
  return shingleHashes(features.text, features.mode);
}

/**
 * `minhashSignature` of the text's shingle hashes, `count` values long. A shorter signature is a
 * prefix of a longer one, so a longer cached signature serves a shorter request.
 */
export function signatureOf(features: TextFeatures, count: number): Uint32Array {
  const cached = features.signature;
  if (cached !== undefined && cached.length >= count) {
    return cached.length === count ? cached : cached.subarray(0, count);
  }
  const signature = minhashSignature(hashesOf(features), count);
  features.signature = signature;
  return signature;
}
