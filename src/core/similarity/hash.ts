// Fixed-seed, non-cryptographic hashing for the pure core: MinHash signatures, LSH bucket keys,
// stable ids and fingerprints. MurmurHash3 (x86, 32-bit) is implemented here rather than taken
// from `crypto` because the core may not import node modules and must give the same value on
// every platform and run. Not collision-resistant against an adversary: never use it for security.

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** Seeds of the two halves of `hash64Hex`; changing them changes every fingerprint. */
const HEX64_SEED_HIGH = 0x9747b28c;
const HEX64_SEED_LOW = 0x5bd1e995;

function rotl32(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function mixBlock(h: number, block: number): number {
  let k = Math.imul(block, C1);
  k = rotl32(k, 15);
  k = Math.imul(k, C2);
  const mixed = rotl32(h ^ k, 13);
  return (Math.imul(mixed, 5) + 0xe6546b64) | 0;
}

function mixTail(h: number, tail: number): number {
  let k = Math.imul(tail, C1);
  k = rotl32(k, 15);
  k = Math.imul(k, C2);
  return h ^ k;
}

/** MurmurHash3's finalizer: a bijection on 32-bit integers with full avalanche. */
export function fmix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * MurmurHash3 x86 32-bit of the UTF-8 encoding of `text` (unsigned result). Matches the reference
 * implementation byte for byte; a lone surrogate is encoded as U+FFFD, as `TextEncoder` does.
 * The UTF-8 bytes are streamed into the hash, so no buffer is allocated.
 */
export function murmur3_32(text: string, seed = 0): number {
  let h = seed | 0;
  // Pending bytes, little-endian: `block` holds `shift / 8` of them. Kept in locals with no inner
  // closure: this runs for every word of every deduplicated text.
  let block = 0;
  let shift = 0;
  let byteLength = 0;

  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    // The code point's UTF-8 bytes packed little-endian (first byte lowest), and their count.
    let bytes: number;
    let count: number;
    if (cp < 0x80) {
      bytes = cp;
      count = 1;
    } else {
      if (cp >= 0xd800 && cp <= 0xdfff) {
        const low = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
        if (cp <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i++;
        } else {
          cp = 0xfffd;
        }
      }
      if (cp < 0x800) {
        bytes = 0xc0 | (cp >> 6) | ((0x80 | (cp & 0x3f)) << 8);
        count = 2;
      } else if (cp < 0x10000) {
        bytes = 0xe0 | (cp >> 12) | ((0x80 | ((cp >> 6) & 0x3f)) << 8) | ((0x80 | (cp & 0x3f)) << 16);
        count = 3;
      } else {
        bytes =
          0xf0 |
          (cp >> 18) |
          ((0x80 | ((cp >> 12) & 0x3f)) << 8) |
          ((0x80 | ((cp >> 6) & 0x3f)) << 16) |
          ((0x80 | (cp & 0x3f)) << 24);
        count = 4;
      }
    }
    byteLength += count;
    // Append the bytes to the pending block; a full block of 4 is mixed in, the rest carries over.
    block |= bytes << shift;
    shift += count * 8;
    if (shift >= 32) {
      h = mixBlock(h, block);
      shift -= 32;
      // `bytes >>> 32` would be `bytes`, not 0: shifts count modulo 32.
      block = shift === 0 ? 0 : bytes >>> (count * 8 - shift);
    }
  }

  if (shift > 0) h = mixTail(h, block);
  return fmix32(h ^ byteLength);
}

/**
 * MurmurHash3 x86 32-bit of `values[start..end)` read as little-endian 32-bit blocks. Used to
 * hash sequences that are already numbers (word hashes, code points, MinHash rows) without
 * building strings.
 */
export function murmur3_32Words(values: ArrayLike<number>, start: number, end: number, seed = 0): number {
  let h = seed | 0;
  for (let i = start; i < end; i++) h = mixBlock(h, values[i] ?? 0);
  return fmix32(h ^ ((end - start) * 4));
}

function hex32(x: number): string {
  return (x >>> 0).toString(16).padStart(8, '0');
}

/**
 * A 64-bit fingerprint of `text` as 16 lower-case hex digits: two MurmurHash3 32-bit values of the
 * same UTF-8 bytes under two fixed seeds. Stable across runs, platforms and versions of this
 * library (the seeds are part of the contract).
 */
export function hash64Hex(text: string): string {
  return hex32(murmur3_32(text, HEX64_SEED_HIGH)) + hex32(murmur3_32(text, HEX64_SEED_LOW));
}
