// A cheap deterministic tokenizer for property tests: one token per whitespace-separated word. It
// keeps the runs fast, and its counts are easy to reason about when a counterexample is shrunk.
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';

export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = /\s/.test(text.charAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

export const wordTokenizer: Tokenizer = {
  name: 'words',
  version: 'test',
  count: countWords,
  // Exact up to `limit`, limit + 1 beyond it: the contract of Tokenizer.countUpTo.
  countUpTo: (text, limit) => Math.min(countWords(text), limit + 1),
};
