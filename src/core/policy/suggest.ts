// "Did you mean …?" for misspelt keys and enum values.

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions (`trunaction`). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `input`, or undefined when none is close enough to be a plausible
 * typo. Close means: within 40% of the longer word (at least 2 edits), or one is a prefix of
 * the other (`trunc` → `truncation_mode`, `o200k` → `o200k_base`). Ties go to the earlier candidate.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase().replace(/-/g, '_');
  if (needle === '' || needle.length > 100) return undefined;
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const target = candidate.toLowerCase();
    if (target === needle) return candidate;
    const distance = editDistance(needle, target);
    const limit = Math.max(2, Math.floor(Math.max(needle.length, target.length) * 0.4));
    const prefix = needle.length >= 3 && (target.startsWith(needle) || needle.startsWith(target));
    if (distance > limit && !prefix) continue;
    // A prefix match ranks like a close typo but never beats a genuinely closer word.
    const score = prefix ? Math.min(distance, limit) : distance;
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** A key with case and separators (`_`, `-`, spaces) ignored: `Keep-Recent` → `keeprecent`. */
function foldKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

/** Most edits a misspelling of a known key may be from it: 1 for keys of 4 letters or fewer, else 2. */
export function typoLimit(known: string): number {
  return foldKey(known).length <= 4 ? 1 : 2;
}

/**
 * The known key `key` is an unmistakable misspelling of, or undefined. Both are compared with case
 * and separators ignored (`Budget`, `keep-recent`, `keepRecent`, `keeprecent` are variants of their
 * key); beyond that, `key` must be within `typoLimit(known)` edits of it (optimal string alignment:
 * `budjet`, `bugdet`, `keep_recnt`). Abbreviations such as `trunc_mode` are not typos: `closest`
 * suggests a key for them, but they stay unknown keys. Ties go to the earlier candidate.
 */
export function typoOf(key: string, candidates: readonly string[]): string | undefined {
  const folded = foldKey(key);
  if (folded === '' || folded.length > 100) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(folded, foldKey(candidate));
    if (distance <= typoLimit(candidate) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
