import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import { loadTokenizer } from '../../src/tokens/load.js';
import { TOKENIZER_NAMES } from '../../src/core/tokens/tokenizer.js';
import type { TokenizerName } from '../../src/core/tokens/tokenizer.js';

// Expected counts were checked piece by piece by decoding each token id back to its text
// (e.g. o200k "alice@example.com" → "alice" | "@example" | ".com").
const KNOWN: Record<TokenizerName, [string, number][]> = {
  o200k_base: [
    ['hello world', 2],
    ['The quick brown fox jumps over the lazy dog.', 10],
    ['alice@example.com', 3],
    ['日本語のテキスト', 6],
    ['retrieve_entity_info', 3],
  ],
  cl100k_base: [
    ['hello world', 2],
    ['The quick brown fox jumps over the lazy dog.', 10],
    ['alice@example.com', 3],
    ['日本語のテキスト', 8],
  ],
  p50k_base: [
    ['hello world', 2],
    ['alice@example.com', 6],
    // p50k has tokens for runs of spaces: the 7 leading spaces are one token.
    ['def f():\n        return 1', 7],
  ],
  r50k_base: [
    ['hello world', 2],
    ['alice@example.com', 6],
    // r50k (GPT-2/3) spends one token per space of indentation.
    ['def f():\n        return 1', 13],
  ],
};

describe('loadTokenizer', () => {
  for (const name of TOKENIZER_NAMES) {
    describe(name, () => {
      for (const [text, expected] of KNOWN[name]) {
        it(`counts ${JSON.stringify(text)} as ${expected} tokens`, async () => {
          const tok = await loadTokenizer(name);
          expect(tok.count(text)).toBe(expected);
        });
      }

      it('counts special-token strings as ordinary text instead of throwing', async () => {
        const tok = await loadTokenizer(name);
        // "<" "|" "end…" … "|" ">": 7 ordinary tokens, never the single control token.
        expect(tok.count('<|endoftext|>')).toBe(7);
        expect(tok.count('<|endoftext|> hi')).toBe(8);
        expect(() => tok.count('<|im_start|>user<|im_end|><|fim_prefix|><|endofprompt|>')).not.toThrow();
      });

      it('counts the empty string as 0', async () => {
        const tok = await loadTokenizer(name);
        expect(tok.count('')).toBe(0);
      });
    });
  }

  it('names the encoding and the gpt-tokenizer version', async () => {
    const pkg = createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string };
    const tok = await loadTokenizer('cl100k_base');
    expect(tok.name).toBe('cl100k_base');
    expect(tok.version).toBe(pkg.version);
    expect(tok.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('returns the same instance for repeated loads of one encoding', async () => {
    const [a, b] = await Promise.all([loadTokenizer('o200k_base'), loadTokenizer('o200k_base')]);
    expect(a).toBe(b);
    expect(await loadTokenizer('p50k_base')).not.toBe(a);
  });

  it('rejects an unknown encoding name with the accepted names', async () => {
    await expect(loadTokenizer('gpt2' as TokenizerName)).rejects.toThrow(
      /o200k_base, cl100k_base, p50k_base, r50k_base/,
    );
  });
});
