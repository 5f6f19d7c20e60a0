import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { fmix32, hash64Hex, murmur3_32, murmur3_32Words } from '../../../src/core/similarity/hash.js';
import { fcOptions } from '../../support/fc.js';

/** MurmurHash3 x86_32 over a byte array, written from the reference C code (one byte at a time). */
function referenceMurmur(bytes: Uint8Array, seed: number): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
  let h = seed | 0;
  const blocks = Math.floor(bytes.length / 4);
  for (let b = 0; b < blocks; b++) {
    const i = b * 4;
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(rotl(Math.imul(k, c1), 15), c2);
    h = (Math.imul(rotl(h ^ k, 13), 5) + 0xe6546b64) | 0;
  }
  // The 1–3 trailing bytes, little-endian, mixed without the rotate-multiply-add step.
  const tail = blocks * 4;
  if (bytes.length > tail) {
    let k = 0;
    for (let i = bytes.length - 1; i >= tail; i--) k = (k << 8) | bytes[i]!;
    h ^= Math.imul(rotl(Math.imul(k, c1), 15), c2);
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Any UTF-16 text: code points of every UTF-8 length, and lone surrogates. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'Z', ' ', '\0'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 40,
});

// Published MurmurHash3 x86_32 test vectors (SMHasher / reference implementation).
const SEED = 0x9747b28c;
const VECTORS: [string, number, number][] = [
  ['', 0, 0],
  ['', 1, 0x514e28b7],
  ['', 0xffffffff, 0x81f16f39],
  ['\0\0\0\0', 0, 0x2362f9de],
  ['a', SEED, 0x7fa09ea6],
  ['aa', SEED, 0x5d211726],
  ['aaa', SEED, 0x283e0130],
  ['aaaa', SEED, 0x5a97808a],
  ['ab', SEED, 0x74875592],
  ['abc', SEED, 0xc84a62dd],
  ['abcd', SEED, 0xf0478627],
  ['Hello, world!', SEED, 0x24884cba],
  ['ππππππππ', SEED, 0xd58063c1],
  ['The quick brown fox jumps over the lazy dog', SEED, 0x2fa826cd],
  ['The quick brown fox jumps over the lazy dog', 0, 0x2e4ff723],
  ['test', 0, 0xba6bd213],
];

describe('murmur3_32', () => {
  it.each(VECTORS)('hashes %j with seed %i like the reference implementation', (text, seed, expected) => {
    expect(murmur3_32(text, seed)).toBe(expected);
  });

  it('hashes the UTF-8 encoding, including characters outside the BMP', () => {
    const viaBytes = (text: string): number => {
      const bytes = new TextEncoder().encode(text);
      const words: number[] = [];
      for (let i = 0; i + 4 <= bytes.length; i += 4) {
        words.push((bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0);
      }
      if (bytes.length % 4 !== 0) throw new Error('test input must encode to a multiple of 4 bytes');
      return murmur3_32Words(words, 0, words.length, 7);
    };
    // 4-byte multiples, so the word variant hashes exactly the same bytes.
    expect(murmur3_32('🙂€x', 7)).toBe(viaBytes('🙂€x'));
    expect(murmur3_32('é€xé€x', 7)).toBe(viaBytes('é€xé€x'));
    expect(murmur3_32('日本語の', 7)).toBe(viaBytes('日本語の'));
  });

  it('encodes a lone surrogate as U+FFFD, like TextEncoder', () => {
    expect(murmur3_32('a\ud800b', 3)).toBe(murmur3_32('a\ufffdb', 3));
    expect(murmur3_32('\udc00', 3)).toBe(murmur3_32('\ufffd', 3));
    expect(murmur3_32('x\ud83d', 3)).toBe(murmur3_32('x\ufffd', 3));
  });

  it('equals the byte-wise reference over the UTF-8 encoding of any text (TextEncoder)', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 0xffffffff }), (text, seed) => {
        expect(murmur3_32(text, seed)).toBe(referenceMurmur(encoder.encode(text), seed));
      }),
      fcOptions(),
    );
  });

  it('is pinned: dedup shingle hashes and shard assignment must not change between versions', () => {
    expect(murmur3_32('ﬁle 🙂 \ud800', 7)).toBe(1792269619);
    expect(murmur3_32('日本語のテキスト', 0)).toBe(3493079026);
    expect(murmur3_32('x\ud83d\ude42y', 99)).toBe(2306014658);
  });

  it('returns unsigned 32-bit integers and depends on the seed', () => {
    const h = murmur3_32('context', 1);
    expect(Number.isInteger(h) && h >= 0 && h <= 0xffffffff).toBe(true);
    expect(murmur3_32('context', 2)).not.toBe(h);
  });
});

describe('murmur3_32Words', () => {
  it('equals murmur3_32 of the same little-endian bytes', () => {
    expect(murmur3_32Words([0x64636261], 0, 1, SEED)).toBe(murmur3_32('abcd', SEED));
    expect(murmur3_32Words([0, 0, 0x64636261], 2, 3, SEED)).toBe(murmur3_32('abcd', SEED));
    expect(murmur3_32Words([], 0, 0, 1)).toBe(murmur3_32('', 1));
  });
});

describe('fmix32', () => {
  it('is a bijection on a sample (no two inputs collide) and stays unsigned', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 50_000; i++) seen.add(fmix32(i * 2654435761));
    expect(seen.size).toBe(50_000);
    expect(fmix32(-1)).toBeGreaterThanOrEqual(0);
  });
});

describe('hash64Hex', () => {
  it('is 16 lower-case hex digits', () => {
    for (const text of ['', 'a', 'context-stability', '🙂'.repeat(100)]) {
      expect(hash64Hex(text)).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('is pinned: fingerprints and ids built on it must not change between versions', () => {
    expect(hash64Hex('')).toBe('ebb6c228d9aaf7d3');
    expect(hash64Hex('context-stability')).toBe('6269da2c5a77a76d');
    expect(hash64Hex('ππ')).toBe('3096da44c2c08f05');
  });

  it('has no collisions over many similar inputs', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(hash64Hex(`artifact-${i}`));
    expect(seen.size).toBe(20_000);
  });
});
