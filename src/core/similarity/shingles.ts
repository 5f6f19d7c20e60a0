// What "the same text" and "similar text" mean for dedup: the normalization, the shingles a text
// is cut into, and the exact Jaccard similarity of two shingle sets. MinHash only estimates this
// Jaccard to find candidates; every reported pair is verified with `jaccard` below.

import { murmur3_32, murmur3_32Words } from './hash.js';

/** Texts with at least this many words are compared by word 3-shingles, shorter ones by character 5-grams. */
export const MIN_WORDS_FOR_WORD_SHINGLES = 10;
export const WORD_SHINGLE_SIZE = 3;
export const CHAR_SHINGLE_SIZE = 5;

const WORD_HASH_SEED = 0x3c6ef372;
const SHINGLE_HASH_SEED = 0xa54ff53a;

/**
 * `words`: word 3-shingles; `chars`: character (code point) 5-grams. Texts of different modes never
 * count as similar: their shingles are not comparable.
 */
export type ShingleMode = 'words' | 'chars';

/** Unicode NFKC, lower-case, every whitespace run collapsed to one space, trimmed. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Length in code points, so that a non-BMP character counts once. */
export function codePointLength(text: string): number {
  // charCodeAt, not for…of: iterating a string allocates a string per character (a GB of garbage
  // on a 50 MB session).
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

export function shingleMode(normalized: string): ShingleMode {
  // Words are separated by exactly one space in a normalized text: count them without splitting.
  let words = 1;
  for (
    let i = normalized.indexOf(' ');
    i !== -1 && words < MIN_WORDS_FOR_WORD_SHINGLES;
    i = normalized.indexOf(' ', i + 1)
  ) {
    words++;
  }
  return words >= MIN_WORDS_FOR_WORD_SHINGLES ? 'words' : 'chars';
}

function codePoints(normalized: string): number[] {
  const points: number[] = [];
  for (const ch of normalized) points.push(ch.codePointAt(0) ?? 0);
  return points;
}

/** Start offsets of the n-grams of a sequence; a sequence shorter than n is one n-gram. */
function gramCount(length: number, n: number): number {
  return length < n ? 1 : length - n + 1;
}

/** Sorts and removes repeats in place; returns the distinct prefix. */
function sortedDistinct(hashes: Uint32Array): Uint32Array {
  hashes.sort();
  let n = 0;
  for (let i = 0; i < hashes.length; i++) {
    if (i === 0 || hashes[i] !== hashes[i - 1]) hashes[n++] = hashes[i] ?? 0;
  }
  return hashes.subarray(0, n);
}

/**
 * Sorted, distinct 32-bit hashes of the shingles of a normalized, non-empty text: the input of
 * MinHash and of the cheap pre-verification. Words are hashed once and shingles are hashed from
 * the word hashes, so no shingle string is built. Repeated shingles (boilerplate lines) count once.
 */
export function shingleHashes(normalized: string, mode: ShingleMode): Uint32Array {
  const units =
    mode === 'words'
      ? normalized.split(' ').map((w) => murmur3_32(w, WORD_HASH_SEED))
      : codePoints(normalized);
  const n = mode === 'words' ? WORD_SHINGLE_SIZE : CHAR_SHINGLE_SIZE;
  const count = gramCount(units.length, n);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    out[i] = murmur3_32Words(units, i, Math.min(i + n, units.length), SHINGLE_HASH_SEED);
  }
  return sortedDistinct(out);
}

/** The shingles of a normalized, non-empty text as strings: the ground truth that verification uses. */
export function shingleSet(normalized: string, mode: ShingleMode): Set<string> {
  const units = mode === 'words' ? normalized.split(' ') : Array.from(normalized);
  const n = mode === 'words' ? WORD_SHINGLE_SIZE : CHAR_SHINGLE_SIZE;
  // Words never contain a space, so joining word shingles with one is unambiguous.
  const separator = mode === 'words' ? ' ' : '';
  const set = new Set<string>();
  const count = gramCount(units.length, n);
  for (let i = 0; i < count; i++) set.add(units.slice(i, i + n).join(separator));
  return set;
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical (1). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const s of small) if (large.has(s)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/**
 * Jaccard of two sorted distinct hash arrays. Equals `jaccard` of the shingle sets unless two
 * different shingles share a 32-bit hash, so it may only be used to reject, with a slack.
 */
export function hashedJaccard(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] ?? 0;
    const y = b[j] ?? 0;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) {
      i++;
    } else {
      j++;
    }
  }
  const union = a.length + b.length - shared;
  return union === 0 ? 1 : shared / union;
}
