// The run-wide token cache is bounded by bytes: memory stays flat in corpus size, and since a
// count is a pure function of its text, eviction never changes a result.
import { describe, expect, it } from 'vitest';
import { BoundedTokenCache } from '../../../src/core/tokens/bounded-cache.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import { DEFAULT_POLICY } from '../../../src/core/policy/default.js';
import { wordTokenizer } from '../../property/support/tokenizer.js';
import { readTranscript } from '../../../src/core/readers/index.js';

describe('BoundedTokenCache', () => {
  it('evicts the oldest entries once the keys pass the bound, and keeps its byte count exact', () => {
    const cache = new BoundedTokenCache(20); // 10 UTF-16 code units
    cache.set('aaaa', 1); // 8 bytes
    cache.set('bbbb', 2); // 16
    cache.set('aaaa', 9); // an update adds nothing
    expect(cache.keyBytes).toBe(16);
    cache.set('cc', 3); // 20: at the bound, nothing goes
    expect([...cache.keys()]).toEqual(['aaaa', 'bbbb', 'cc']);
    cache.set('d', 4); // 22: the oldest goes
    expect([...cache.keys()]).toEqual(['bbbb', 'cc', 'd']);
    expect(cache.keyBytes).toBe(14);
    expect(cache.get('aaaa')).toBeUndefined();
    expect(cache.get('bbbb')).toBe(2);
  });

  it('keeps a key larger than the bound on its own', () => {
    const cache = new BoundedTokenCache(8);
    cache.set('ab', 1);
    cache.set('x'.repeat(50), 7);
    expect([...cache.entries()]).toEqual([['x'.repeat(50), 7]]);
    expect(cache.keyBytes).toBe(100);
    cache.set('y', 1);
    expect([...cache.keys()]).toEqual(['y']);
  });

  it('counts delete and clear', () => {
    const cache = new BoundedTokenCache(100);
    cache.set('abc', 1);
    cache.set('de', 2);
    cache.delete('abc');
    cache.delete('zz');
    expect(cache.keyBytes).toBe(4);
    cache.clear();
    expect(cache.keyBytes).toBe(0);
  });

  it('gives the stabilizer the same result as an unbounded cache, however small', () => {
    const messages = Array.from({ length: 40 }, (_, i) => ({
      role: i === 0 ? 'system' : i % 2 ? 'user' : 'assistant',
      content: `message ${i % 7} ${'word '.repeat(i * 3)}`,
    }));
    const read = readTranscript(JSON.stringify(messages), { file: 't.json' });
    if (!read.ok) throw new Error('the test transcript must read');
    const t = read.transcript;
    const policy = { ...DEFAULT_POLICY, budget: 300 };
    const plain = stabilizeTranscript(t, { policy, tokenizer: wordTokenizer, cache: new Map() });
    const tiny = stabilizeTranscript(t, {
      policy,
      tokenizer: wordTokenizer,
      cache: new BoundedTokenCache(64),
    });
    expect(tiny).toEqual(plain);
    expect(plain.context.length).toBeLessThan(messages.length); // the budget cut something
  });
});
