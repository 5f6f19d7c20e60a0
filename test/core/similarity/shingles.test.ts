import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import { fcOptions } from '../../support/fc.js';
import {
  MIN_WORDS_FOR_WORD_SHINGLES,
  codePointLength,
  hashedJaccard,
  jaccard,
  normalizeText,
  shingleHashes,
  shingleMode,
  shingleSet,
} from '../../../src/core/similarity/shingles.js';

const words = (n: number, prefix = 'w'): string =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('normalizeText', () => {
  it('ignores case and whitespace differences', () => {
    expect(normalizeText('  Build FAILED\n\tat  step 3 \r\n')).toBe('build failed at step 3');
  });

  it('applies NFKC: full-width forms, ligatures and ideographic spaces become their plain forms', () => {
    expect(normalizeText('ＲＥＳＵＬＴ：\u3000ｏｋ')).toBe('result: ok');
    expect(normalizeText('ﬁle\u00a0not found')).toBe('file not found');
    expect(normalizeText('e\u0301cole')).toBe(normalizeText('\u00e9cole'));
  });

  it('turns whitespace-only text into the empty string', () => {
    expect(normalizeText(' \n\t\u2003')).toBe('');
  });
});

describe('codePointLength', () => {
  it('counts a character outside the BMP once', () => {
    expect(codePointLength('🙂🙂a')).toBe(3);
    expect('🙂🙂a'.length).toBe(5);
  });

  it('equals the number of code points for any string, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => codePointLength(s) === [...s].length),
      fcOptions(2000),
    );
  });
});

describe('shingleMode', () => {
  it(`uses word shingles from ${MIN_WORDS_FOR_WORD_SHINGLES} words on, character 5-grams below`, () => {
    expect(shingleMode(words(MIN_WORDS_FOR_WORD_SHINGLES))).toBe('words');
    expect(shingleMode(words(MIN_WORDS_FOR_WORD_SHINGLES - 1))).toBe('chars');
  });

  it('counts the words of a normalized text as splitting on its spaces would (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { minLength: 1, maxLength: 20 }), (w) => {
        const text = w.join(' ');
        return (
          shingleMode(text) === (text.split(' ').length >= MIN_WORDS_FOR_WORD_SHINGLES ? 'words' : 'chars')
        );
      }),
      fcOptions(2000),
    );
  });
});

describe('shingleSet', () => {
  it('cuts a long text into word 3-shingles', () => {
    const set = shingleSet(words(12), 'words');
    expect(set.size).toBe(10);
    expect(set.has('w0 w1 w2')).toBe(true);
    expect(set.has('w9 w10 w11')).toBe(true);
  });

  it('cuts a short text into character 5-grams without splitting surrogate pairs', () => {
    expect([...shingleSet('ab🙂cde', 'chars')]).toEqual(['ab🙂cd', 'b🙂cde']);
  });

  it('makes a text shorter than one shingle a single shingle', () => {
    expect([...shingleSet('ok', 'chars')]).toEqual(['ok']);
  });

  it('counts a repeated shingle once', () => {
    expect(shingleSet('abcdeabcdeabcde', 'chars').size).toBe(5);
  });
});

describe('jaccard', () => {
  it('is |A∩B| / |A∪B|', () => {
    expect(jaccard(new Set(['a', 'b', 'c']), new Set(['b', 'c', 'd']))).toBe(2 / 4);
    expect(jaccard(new Set(['a']), new Set(['a']))).toBe(1);
    expect(jaccard(new Set(['a']), new Set(['b']))).toBe(0);
  });
});

describe('shingleHashes and hashedJaccard', () => {
  it('gives sorted distinct hashes, one per distinct shingle', () => {
    const text = `${words(30)} ${words(30)}`;
    const hashes = shingleHashes(text, 'words');
    expect(hashes.length).toBe(shingleSet(text, 'words').size);
    for (let i = 1; i < hashes.length; i++) expect(hashes[i]!).toBeGreaterThan(hashes[i - 1]!);
  });

  it('agrees with the exact Jaccard when no shingle hashes collide', () => {
    const a = words(100);
    const b = a.replace('w50', 'changed');
    const exact = jaccard(shingleSet(a, 'words'), shingleSet(b, 'words'));
    expect(exact).toBe(95 / 101);
    expect(hashedJaccard(shingleHashes(a, 'words'), shingleHashes(b, 'words'))).toBe(exact);
  });
});
