import { describe, it, expect } from 'vitest';
import { MAX_CANDIDATES_PER_ITEM, findDuplicates } from '../../../src/core/similarity/dedup.js';
import type { DedupItem } from '../../../src/core/similarity/dedup.js';
import { referencePairs } from './reference.js';

const POLICY = { similarity: 0.9 };

/** `n` distinct words, so every word 3-shingle is distinct and Jaccard values are exact fractions. */
const longText = (n: number, prefix = 'tok'): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const withWord = (words: string[], at: number, word: string): string[] =>
  words.map((w, i) => (i === at ? word : w));
const items = (...texts: string[]): DedupItem[] => texts.map((text, i) => ({ id: `a${i}`, text }));

/** A pytest-like tool output: a long shared header and footer around a body of its own. */
function testRunOutput(failing: string[]): string {
  const header = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0',
    'rootdir: /workspace/project',
    'configfile: pyproject.toml',
    'plugins: anyio-4.4.0, cov-5.0.0',
    'collected 214 items',
  ];
  const body = failing.map(
    (name, i) =>
      `FAILED tests/test_${name}.py::test_${name}_case_${i} - AssertionError: expected ${name} value`,
  );
  const footer = [`=================== ${failing.length} failed, 210 passed in 12.31s ===================`];
  return [...header, ...body, ...footer].join('\n');
}

describe('findDuplicates: exact duplicates', () => {
  it('treats texts that differ only in case and whitespace as exact duplicates', () => {
    const found = findDuplicates(
      items(
        'Build FAILED at step 3:\n  missing module left-pad',
        'build failed   at step 3: missing MODULE left-pad',
      ),
      POLICY,
    );
    expect(found).toEqual([{ id: 'a0', duplicate_of: 'a1', similarity: 1, exact: true }]);
  });

  it('keeps the latest copy: every earlier copy points at it', () => {
    const text = 'npm ERR! code ERESOLVE unable to resolve dependency tree';
    const found = findDuplicates(items(text, 'something else entirely', text, text), POLICY);
    expect(found).toEqual([
      { id: 'a0', duplicate_of: 'a3', similarity: 1, exact: true },
      { id: 'a2', duplicate_of: 'a3', similarity: 1, exact: true },
    ]);
  });

  it('collapses thousands of identical boilerplate lines onto the last one', () => {
    const line = 'Waiting for the build container to become ready...';
    const texts = Array.from({ length: 5000 }, (_, i) =>
      i % 1000 === 999 ? `unique output number ${i}` : line,
    );
    const found = findDuplicates(items(...texts), POLICY);
    expect(found).toHaveLength(4994);
    expect(new Set(found.map((f) => f.duplicate_of))).toEqual(new Set(['a4998']));
  });
});

describe('findDuplicates: near duplicates', () => {
  it('finds a long message with one word changed at similarity 0.9, with its exact Jaccard', () => {
    const original = longText(120);
    const edited = withWord(original, 60, 'CHANGED');
    const found = findDuplicates(items(original.join(' '), edited.join(' ')), POLICY);
    // 118 shingles each; the changed word touches 3 of them: 115 shared out of 121.
    expect(found).toEqual([{ id: 'a0', duplicate_of: 'a1', similarity: 115 / 121, exact: false }]);
  });

  it('does not merge two different tool outputs that share boilerplate', () => {
    const a = testRunOutput(['parser', 'lexer', 'emitter', 'scheduler']);
    const b = testRunOutput(['network', 'storage', 'billing', 'auth']);
    expect(findDuplicates(items(a, b), POLICY)).toEqual([]);
    expect(referencePairs([a, b], { similarity: 0.9, minChars: 32 })[0]![1]!.similarity).toBeGreaterThan(0.3);
  });

  it('points at the latest matching item, even when an exact copy comes earlier', () => {
    const base = longText(120);
    const near = withWord(base, 10, 'other').join(' ');
    const found = findDuplicates(items(base.join(' '), base.join(' '), near), POLICY);
    expect(found.map((f) => [f.id, f.duplicate_of, f.exact])).toEqual([
      ['a0', 'a2', false],
      ['a1', 'a2', false],
    ]);
  });

  it('points at an exact copy when it is the latest match', () => {
    const base = longText(120).join(' ');
    const near = withWord(longText(120), 10, 'other').join(' ');
    const found = findDuplicates(items(near, base, base), POLICY);
    expect(found).toEqual([
      { id: 'a0', duplicate_of: 'a2', similarity: 115 / 121, exact: false },
      { id: 'a1', duplicate_of: 'a2', similarity: 1, exact: true },
    ]);
  });

  it('does not follow chains: A≈B, B≈C, A≉C gives A→B and B→C', () => {
    const a = longText(120);
    const b = withWord(a, 40, 'first');
    const c = withWord(withWord(b, 80, 'second'), 100, 'third');
    const pairs = referencePairs(
      [a, b, c].map((w) => w.join(' ')),
      { similarity: 0.9, minChars: 32 },
    );
    expect(pairs[0]![2]!.similarity).toBeLessThan(0.9);

    const found = findDuplicates(items(a.join(' '), b.join(' '), c.join(' ')), POLICY);
    expect(found).toEqual([
      { id: 'a0', duplicate_of: 'a1', similarity: 115 / 121, exact: false },
      { id: 'a1', duplicate_of: 'a2', similarity: 112 / 124, exact: false },
    ]);
  });

  it('with similarity 1 reports exact duplicates only', () => {
    const base = longText(200);
    const near = withWord(base, 100, 'x');
    const found = findDuplicates(items(base.join(' '), near.join(' '), 'Same  text', 'same text'), {
      similarity: 1,
    });
    expect(found).toEqual([{ id: 'a2', duplicate_of: 'a3', similarity: 1, exact: true }]);
  });

  it('follows drifting polling output step by step: each poll points at the next one', () => {
    // Every poll bumps the version of one row away from the edges, so it touches 3 of 98 shingles:
    // neighbours are at 95/101, two polls apart at 92/104, below 0.9.
    const versions = new Array<number>(100).fill(0);
    const texts = Array.from({ length: 400 }, (_, poll) => {
      if (poll > 0) versions[2 + ((poll * 37) % 96)]!++;
      return versions.map((v, row) => `pod${row}-v${v}`).join(' ');
    });
    const pairs = referencePairs(texts, { similarity: 0.9, minChars: 32 });
    expect(pairs.slice(0, -2).every((row, i) => row[i + 1]!.match && !row[i + 2]!.match)).toBe(true);

    const found = findDuplicates(items(...texts), POLICY);
    expect(found).toEqual(
      texts.slice(0, -1).map((_, i) => ({
        id: `a${i}`,
        duplicate_of: `a${i + 1}`,
        similarity: pairs[i]![i + 1]!.similarity,
        exact: false,
      })),
    );
  });

  describe(`examines at most ${MAX_CANDIDATES_PER_ITEM} later candidates per text`, () => {
    // X, then X' (one word changed: a true match), then many Y_k: each 0.86 similar to X, so
    // LSH candidates that fail verification, and examined before X' because they are newer.
    const x = longText(120);
    const xPrime = withWord(x, 110, 'changed').join(' ');
    const ys = (n: number): string[] =>
      Array.from({ length: n }, (_, k) =>
        withWord(withWord(withWord(x, 20, `y${k}a`), 60, `y${k}b`), 100, `y${k}c`).join(' '),
      );

    it('finds a match buried under fewer non-matching newer candidates', () => {
      const found = findDuplicates(items(x.join(' '), xPrime, ...ys(MAX_CANDIDATES_PER_ITEM - 10)), POLICY);
      expect(found).toEqual([{ id: 'a0', duplicate_of: 'a1', similarity: 115 / 121, exact: false }]);
    });

    it('past the limit misses that match rather than reporting a false one', () => {
      const found = findDuplicates(items(x.join(' '), xPrime, ...ys(MAX_CANDIDATES_PER_ITEM + 10)), POLICY);
      expect(found).toEqual([]);
    });
  });
});

describe('findDuplicates: short, empty and unicode texts', () => {
  it('only exact-deduplicates texts shorter than minChars', () => {
    const texts = ['tests passed: 10', 'tests passed: 11', 'ok', 'OK'];
    expect(findDuplicates(items(...texts), { similarity: 0.8 })).toEqual([
      { id: 'a2', duplicate_of: 'a3', similarity: 1, exact: true },
    ]);
    // Without the minimum, the two counters are near duplicates by character 5-grams (11 of 13).
    expect(findDuplicates(items(...texts), { similarity: 0.8, minChars: 0 })).toEqual([
      { id: 'a0', duplicate_of: 'a1', similarity: 11 / 13, exact: false },
      { id: 'a2', duplicate_of: 'a3', similarity: 1, exact: true },
    ]);
  });

  it('never reports empty or whitespace-only texts (e.g. artifacts that only hold images)', () => {
    expect(findDuplicates(items('', '  ', '\n\t', ''), POLICY)).toEqual([]);
    expect(findDuplicates(items('', 'x', ''), { similarity: 0.1, minChars: 0 })).toEqual([]);
  });

  it('treats NFKC-equivalent texts as exact duplicates', () => {
    const found = findDuplicates(
      items(
        'ＲＥＳＵＬＴ：\u3000ｏｋ — ﬁle written',
        'result: ok — file written',
        'e\u0301cole',
        '\u00e9cole',
      ),
      POLICY,
    );
    expect(found).toEqual([
      { id: 'a0', duplicate_of: 'a1', similarity: 1, exact: true },
      { id: 'a2', duplicate_of: 'a3', similarity: 1, exact: true },
    ]);
  });

  it('counts minChars in code points, so emoji are not counted twice', () => {
    const emoji = ['😀', '😃', '😄', '😁', '😆', '😅', '🤣', '😂', '🙂', '🙃'];
    const row = (n: number, swapAt: number): string =>
      Array.from({ length: n }, (_, i) => (i === swapAt ? '🚀' : emoji[i % emoji.length])).join('');
    // 20 code points (40 UTF-16 units): below the default 32, so never a near duplicate.
    expect(findDuplicates(items(row(20, 19), row(20, -1)), { similarity: 0.5 })).toEqual([]);
    // 60 code points cycling through 10 emoji: 10 distinct 5-grams; the swapped last one adds one.
    const found = findDuplicates(items(row(60, 59), row(60, -1)), { similarity: 0.5 });
    expect(found).toEqual([{ id: 'a0', duplicate_of: 'a1', similarity: 10 / 11, exact: false }]);
  });

  it('compares non-Latin text word by word', () => {
    const words = Array.from({ length: 80 }, (_, i) => `データ${i}`);
    const found = findDuplicates(items(words.join(' '), withWord(words, 79, '終了').join(' ')), POLICY);
    expect(found).toEqual([{ id: 'a0', duplicate_of: 'a1', similarity: 77 / 79, exact: false }]);
  });
});

describe('findDuplicates: options', () => {
  it.each([0, -0.5, 1.5, Number.NaN])('rejects similarity %f', (similarity) => {
    expect(() => findDuplicates([], { similarity })).toThrow(RangeError);
  });

  it('rejects a negative minChars', () => {
    expect(() => findDuplicates([], { similarity: 0.9, minChars: -1 })).toThrow(RangeError);
  });

  it('returns nothing for no items', () => {
    expect(findDuplicates([], POLICY)).toEqual([]);
  });
});
