import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { DedupCache, findDuplicates } from '../../../src/core/similarity/dedup.js';
import type { DedupItem, DuplicateFinding } from '../../../src/core/similarity/dedup.js';
import { normalizeText } from '../../../src/core/similarity/shingles.js';
import { fcOptions } from '../../support/fc.js';
import { referencePairs } from './reference.js';

// A new seed each run, printed (test/support/fc.ts); FC_SEED=<seed> replays one.
const RUNS = fcOptions(1000);

/** Recall must be complete this far above the threshold; closer to it LSH may (very rarely) miss. */
const RECALL_MARGIN = 0.05;

// A small vocabulary, so that shingles repeat and near duplicates actually occur; it holds case
// variants and NFKC-equivalent spellings, so exact duplicates arise through normalization.
const VOCAB = [
  'ok',
  'error',
  'Error',
  'build',
  'test',
  'passed',
  'FAILED',
  'src/app.ts',
  'ﬁle',
  'ｆｉｌｅ',
  'file',
  'e\u0301',
  'é',
  '日本',
  '🙂',
  'x',
  'y',
];
// Digits only: never shares a word, a character 5-gram or a normalized text with VOCAB.
const OTHER_VOCAB = ['0', '12', '345', '6789', '42', '7'];
const SEPARATORS = [' ', '  ', '\n', '\t', ' \u3000 '];

type Op =
  | { kind: 'fresh'; words: string[]; sep: string }
  | {
      kind: 'copy';
      from: number;
      edits: { at: number; word: string; how: string }[];
      upper: boolean;
      sep: string;
    };

const opArb = (vocab: string[]): fc.Arbitrary<Op> => {
  const word = fc.constantFrom(...vocab);
  const sep = fc.constantFrom(...SEPARATORS);
  return fc.oneof(
    fc.record({
      kind: fc.constant('fresh' as const),
      words: fc.array(word, { maxLength: 60, size: 'max' }),
      sep,
    }),
    // Copies are more frequent than fresh texts, so that most items have relatives.
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('copy' as const),
        from: fc.nat(),
        edits: fc.array(
          fc.record({ at: fc.nat(), word, how: fc.constantFrom('replace', 'insert', 'delete') }),
          { maxLength: 3 },
        ),
        upper: fc.boolean(),
        sep,
      }),
    },
  );
};

/** Texts from ops: a copy takes an earlier item's words, edits a few and may change case and spacing. */
function build(ops: Op[]): string[] {
  const words: string[][] = [];
  return ops.map((op) => {
    let w: string[];
    if (op.kind === 'fresh' || words.length === 0) {
      w = op.kind === 'fresh' ? op.words : [];
    } else {
      w = [...words[op.from % words.length]!];
      for (const e of op.edits) {
        const at = e.at % (w.length + 1);
        if (e.how === 'insert') w.splice(at, 0, e.word);
        else if (e.how === 'replace' && at < w.length) w[at] = e.word;
        else if (e.how === 'delete') w.splice(at, 1);
      }
    }
    words.push(w);
    const text = w.join(op.sep);
    return op.kind === 'copy' && op.upper ? text.toUpperCase() : text;
  });
}

const optionsArb = fc.record({
  similarity: fc.oneof(fc.double({ min: 0.3, max: 1, noNaN: true }), fc.constant(1), fc.constant(0.9)),
  minChars: fc.constantFrom(0, 5, 32),
});

const asItems = (texts: string[], prefix: string): DedupItem[] =>
  texts.map((text, i) => ({ id: `${prefix}${i}`, text }));

describe('findDuplicates against a brute-force all-pairs reference', () => {
  it('never reports a false duplicate and finds every pair above threshold + margin', () => {
    let near = 0;
    let exact = 0;
    fc.assert(
      fc.property(fc.array(opArb(VOCAB), { maxLength: 25, size: 'medium' }), optionsArb, (ops, opts) => {
        const texts = build(ops);
        const found = findDuplicates(asItems(texts, 'i'), opts);
        const pairs = referencePairs(texts, opts);
        const byItem = new Map<number, DuplicateFinding>();
        let previous = -1;
        for (const f of found) {
          const i = Number(f.id.slice(1));
          expect(i).toBeGreaterThan(previous); // input order, each item once
          previous = i;
          byItem.set(i, f);
        }
        texts.forEach((_, i) => {
          const row = pairs[i]!;
          const matches = row.flatMap((v, j) => (v.match ? [j] : []));
          const strong = row.flatMap((v, j) =>
            v.exact || v.similarity >= opts.similarity + RECALL_MARGIN ? [j] : [],
          );
          const f = byItem.get(i);
          if (f === undefined) {
            expect(strong).toEqual([]);
            return;
          }
          const d = Number(f.duplicate_of.slice(1));
          // No false positive: the target truly matches, with the reported similarity.
          expect(row[d]!.match).toBe(true);
          expect(f.exact).toBe(row[d]!.exact);
          expect(f.similarity).toBe(row[d]!.similarity);
          // The latest match, unless a later one sits within the margin of the threshold.
          for (const j of matches) if (j > d) expect(strong).not.toContain(j);
          if (f.exact) exact++;
          else near++;
        });
      }),
      RUNS,
    );
    // The generator must exercise both paths, or the property above proves little.
    expect(near).toBeGreaterThan(200);
    expect(exact).toBeGreaterThan(200);
  });
});

describe('findDuplicates stability', () => {
  it('is deterministic: the same input (or a copy of it) gives the same findings', () => {
    fc.assert(
      fc.property(fc.array(opArb(VOCAB), { maxLength: 25, size: 'medium' }), optionsArb, (ops, opts) => {
        const items = asItems(build(ops), 'i');
        const first = findDuplicates(items, opts);
        expect(findDuplicates(structuredClone(items), opts)).toEqual(first);
        expect(findDuplicates(items, opts)).toEqual(first);
      }),
      RUNS,
    );
  });

  it('gives the same findings for some items wherever unrelated items are placed among them', () => {
    fc.assert(
      fc.property(
        fc.array(opArb(VOCAB), { maxLength: 20 }),
        fc.array(opArb(OTHER_VOCAB), { maxLength: 12 }),
        fc.array(fc.nat()),
        optionsArb,
        (mainOps, otherOps, positions, opts) => {
          const main = asItems(build(mainOps), 'm');
          const others = asItems(build(otherOps), 'u');
          const mixed = [...main];
          others.forEach((item, k) => mixed.splice((positions[k] ?? k) % (mixed.length + 1), 0, item));
          const alone = findDuplicates(main, opts);
          const together = findDuplicates(mixed, opts).filter((f) => f.id.startsWith('m'));
          expect(together).toEqual(alone);
        },
      ),
      RUNS,
    );
  });
});

describe('findDuplicates with a cache shared across calls', () => {
  it('gives the same findings as without one, over growing suffixes and changing options', () => {
    // As the stabilizer calls it: ever longer suffixes of one transcript, the same cache each time;
    // the options may change between calls too (signature lengths follow the threshold).
    const calls = fc.array(fc.record({ from: fc.nat(), opts: optionsArb }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(opArb(VOCAB), { maxLength: 25, size: 'medium' }), calls, (ops, steps) => {
        const items = asItems(build(ops), 'i');
        const cache = new DedupCache();
        const starts = steps.map((s) => s.from % (items.length + 1)).sort((a, b) => b - a);
        steps.forEach((step, k) => {
          const suffix = items.slice(starts[k]);
          expect(findDuplicates(suffix, { ...step.opts, cache })).toEqual(findDuplicates(suffix, step.opts));
        });
      }),
      fcOptions(500),
    );
  });

  it('keeps the signatures it computed, so a later call does not recompute them', () => {
    const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const cache = new DedupCache();
    findDuplicates(asItems([text, `${text} more`], 'i'), { similarity: 0.8, cache });
    const features = cache.featuresOf(normalizeText(text));
    expect(features.signature).toBeDefined();
    // The shingle hashes are not kept: 4 bytes per character of every text for the whole run.
    expect(Object.keys(features)).not.toContain('hashes');
  });
});
