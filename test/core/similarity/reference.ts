// Brute-force, all-pairs reference for findDuplicates, written from the documented definition and
// independently of the implementation (no MinHash, no LSH, no shared helpers).

export interface ReferenceOptions {
  similarity: number;
  minChars: number;
}

interface Prepared {
  text: string;
  codePoints: number;
  mode: 'words' | 'chars';
  shingles: Set<string>;
}

function prepare(raw: string): Prepared {
  const words = raw
    .normalize('NFKC')
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => w !== '');
  const text = words.join(' ');
  const chars = [...text];
  const mode = words.length >= 10 ? 'words' : 'chars';
  const units = mode === 'words' ? words : chars;
  const size = mode === 'words' ? 3 : 5;
  const shingles = new Set<string>();
  if (units.length < size) shingles.add(units.join(mode === 'words' ? ' ' : ''));
  for (let i = 0; i + size <= units.length; i++) {
    shingles.add(units.slice(i, i + size).join(mode === 'words' ? ' ' : ''));
  }
  return { text, codePoints: chars.length, mode, shingles };
}

function jaccardOf(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return shared / (a.size + b.size - shared);
}

export interface PairVerdict {
  exact: boolean;
  /** 1 for exact pairs, otherwise the Jaccard of the shingle sets (0 when not comparable). */
  similarity: number;
  match: boolean;
}

/** `verdicts[i][j]` for i < j: does item j duplicate item i, and how similar are they. */
export function referencePairs(texts: readonly string[], opts: ReferenceOptions): PairVerdict[][] {
  const prepared = texts.map(prepare);
  return prepared.map((a, i) =>
    prepared.map((b, j) => {
      if (j <= i || a.text === '' || b.text === '') return { exact: false, similarity: 0, match: false };
      if (a.text === b.text) return { exact: true, similarity: 1, match: true };
      const comparable =
        opts.similarity < 1 &&
        a.mode === b.mode &&
        a.codePoints >= opts.minChars &&
        b.codePoints >= opts.minChars;
      const similarity = comparable ? jaccardOf(a.shingles, b.shingles) : 0;
      return { exact: false, similarity, match: comparable && similarity >= opts.similarity };
    }),
  );
}

/** For each item, the index of the latest later item that duplicates it, or -1. */
export function referenceLatest(verdicts: PairVerdict[][]): number[] {
  return verdicts.map((row) => row.findLastIndex((v) => v.match));
}
