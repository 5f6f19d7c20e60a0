import { describe, it, expect } from 'vitest';
import { minhashSignature } from '../../../src/core/similarity/minhash.js';
import {
  codePointLength,
  normalizeText,
  shingleHashes,
  shingleMode,
} from '../../../src/core/similarity/shingles.js';
import { DedupCache, hashesOf, signatureOf } from '../../../src/core/similarity/text-features.js';

const WORDS = 'Build FAILED at step 3:\n  missing module left-pad, run npm ci again after cleaning';
const CHARS = 'ERR! ﬁle 🙂 not found';

describe('DedupCache', () => {
  it('normalizes like normalizeText', () => {
    const cache = new DedupCache();
    for (const raw of [WORDS, CHARS, '  ', 'ｆｉｌｅ\tE\u0301']) {
      expect(cache.normalize(raw)).toBe(normalizeText(raw));
      expect(cache.normalize(raw)).toBe(normalizeText(raw)); // second call: from the memo
    }
  });

  it('gives one features object per text, with its mode and length in code points', () => {
    const cache = new DedupCache();
    const text = normalizeText(CHARS);
    const features = cache.featuresOf(text);
    expect(cache.featuresOf(text)).toBe(features);
    expect(features).toMatchObject({ text, mode: shingleMode(text), length: codePointLength(text) });
    expect(cache.featuresOf(normalizeText(WORDS)).mode).toBe('words');
  });
});

describe('hashesOf and signatureOf', () => {
  it('equal shingleHashes and minhashSignature of the text', () => {
    for (const raw of [WORDS, CHARS]) {
      const text = normalizeText(raw);
      const features = new DedupCache().featuresOf(text);
      expect(hashesOf(features)).toEqual(shingleHashes(text, features.mode));
      expect(signatureOf(features, 64)).toEqual(minhashSignature(shingleHashes(text, features.mode), 64));
    }
  });

  it('serve a shorter signature from a longer one and recompute a longer one, with the same values', () => {
    const text = normalizeText(WORDS);
    const expected = (count: number): Uint32Array =>
      minhashSignature(shingleHashes(text, shingleMode(text)), count);
    const features = new DedupCache().featuresOf(text);
    expect(signatureOf(features, 40)).toEqual(expected(40));
    expect(signatureOf(features, 128)).toEqual(expected(128));
    expect(signatureOf(features, 40)).toEqual(expected(40));
    expect(signatureOf(features, 40)).toHaveLength(40);
  });
});
