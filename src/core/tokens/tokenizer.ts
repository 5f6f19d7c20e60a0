// The token-counting contract the pure core depends on. The BPE tables themselves are loaded at
// the edge (src/tokens/load.ts) so the core never imports multi-megabyte encodings it may not use.

export const TOKENIZER_NAMES = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

export interface Tokenizer {
  /** Encoding name, e.g. `o200k_base`. */
  name: string;
  /** Version of the implementation: part of golden hashes, so an upgrade shows up as drift. */
  version: string;
  /** Tokens of `text` as plain data: special-token strings such as `<|endoftext|>` are ordinary text. */
  count(text: string): number;
  /** Optional early-stopping count: exact up to `limit`, any number above `limit` once it is exceeded. */
  countUpTo?(text: string, limit: number): number;
}

export function isTokenizerName(value: string): value is TokenizerName {
  return (TOKENIZER_NAMES as readonly string[]).includes(value);
}
