// Linear-time token counting (issue 12). A BPE tokenizer merges each pre-token (a run of letters, of
// punctuation or of whitespace) on its own, in time quadratic in the pre-token's length: one run of
// 512 Ki letters took minutes. So every count cuts each unbroken run longer than RUN_CHUNK UTF-16
// code units (a maximal run of non-whitespace, or of whitespace) into pieces of RUN_CHUNK and counts
// the text between cuts separately. A text without such a run is counted whole, exactly as the
// encoder counts it; a text with one gets the sum of its pieces, which can differ from the exact
// count only at the cuts (see RUN_CHUNK_SLACK and docs/architecture.md §3, "Token counting is linear").

/** Longest unbroken run counted in one piece. Chosen by measurement: per-character cost of the
 * o200k encoder stays within ~1.5x of its minimum up to here and grows linearly beyond. */
export const RUN_CHUNK = 512;

/**
 * Documented bound on the error per cut: for a text with `c` cuts (`cutCount`), the chunked count
 * lies within `c × RUN_CHUNK_SLACK` tokens of the exact count, either way. Empirical, not proven
 * (BPE promises nothing for split input): on 20,000-unit runs under every encoding the error ranged
 * from −0.8 to +0.8 tokens per cut (runs of one letter, CJK, emoji, whitespace: exact), and a fuzz
 * over short mixed-case runs found −1 to +2 for a single cut.
 */
export const RUN_CHUNK_SLACK = 2;

const WHITESPACE = /\s+/g;

/**
 * Offsets where `text` is cut: inside each maximal run (of whitespace or of non-whitespace) longer
 * than `chunk`, every `chunk` code units from the run's start, moved one unit back rather than
 * splitting a surrogate pair. Empty for ordinary text.
 */
export function runCuts(text: string, chunk: number = RUN_CHUNK): number[] {
  const cuts: number[] = [];
  if (text.length <= chunk) return cuts;
  const cutRun = (start: number, end: number): void => {
    let at = start + chunk;
    while (at < end) {
      const c = text.charCodeAt(at);
      // A low surrogate at `at` means a pair straddles the cut: cut before the pair instead.
      if (c >= 0xdc00 && c <= 0xdfff && at - 1 > start) at--;
      cuts.push(at);
      at += chunk;
    }
  };
  let last = 0;
  WHITESPACE.lastIndex = 0;
  for (let m = WHITESPACE.exec(text); m !== null; m = WHITESPACE.exec(text)) {
    if (m.index - last > chunk) cutRun(last, m.index);
    const end = m.index + m[0].length;
    if (end - m.index > chunk) cutRun(m.index, end);
    last = end;
  }
  if (text.length - last > chunk) cutRun(last, text.length);
  return cuts;
}

/** Number of cuts `chunkedCount` makes in `text`. */
export function cutCount(text: string, chunk: number = RUN_CHUNK): number {
  return runCuts(text, chunk).length;
}

/** Tokens of `text`, counting any run longer than `chunk` in pieces (exact for every other text). */
export function chunkedCount(text: string, count: (s: string) => number, chunk: number = RUN_CHUNK): number {
  const cuts = runCuts(text, chunk);
  if (cuts.length === 0) return count(text);
  let total = 0;
  let from = 0;
  for (const at of cuts) {
    total += count(text.slice(from, at));
    from = at;
  }
  return total + count(text.slice(from));
}

/**
 * The same count with early stopping: `countUpTo(piece, limit)` must be exact up to `limit` and
 * above it once exceeded. Returns `chunkedCount` when that is ≤ `limit`, else a number > `limit`.
 */
export function chunkedCountUpTo(
  text: string,
  limit: number,
  countUpTo: (s: string, limit: number) => number,
  chunk: number = RUN_CHUNK,
): number {
  const cuts = runCuts(text, chunk);
  if (cuts.length === 0) return countUpTo(text, limit);
  let total = 0;
  let from = 0;
  for (let i = 0; i <= cuts.length; i++) {
    const at = i < cuts.length ? (cuts[i] as number) : text.length;
    total += countUpTo(text.slice(from, at), limit - total);
    if (total > limit) return limit + 1;
    from = at;
  }
  return total;
}
