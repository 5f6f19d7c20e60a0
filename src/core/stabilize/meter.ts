// Token counting for the stabilizer: cached by text, and lazy. Artifacts that are certainly dropped
// are never counted, and "is this over N tokens" stops as soon as the answer is known.
import { countArtifactTokens } from '../tokens/count.js';
import type { TokenCostConfig } from '../tokens/count.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { Artifact } from '../types.js';

/** Share one across calls (e.g. an agent stabilizing before every model call) to count each text once. */
export type TokenCache = Map<string, number>;

/** UTF-8 length: an upper bound on BPE tokens (every token is at least one byte). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export class TokenMeter {
  readonly tokenizer: Tokenizer;
  private readonly cost: TokenCostConfig;
  private readonly cache: TokenCache;
  /** Texts known to have more tokens than a limit (an early-stopped count), by the largest such limit. */
  private readonly over: TokenCache;
  private readonly cached: Tokenizer;

  /** Results of a pure function of a text and a number (an excerpt of a text to a target), by both. */
  private readonly derived: Map<string, Map<number, unknown>> | undefined;

  constructor(
    tokenizer: Tokenizer,
    cost: TokenCostConfig,
    cache: TokenCache = new Map(),
    over: TokenCache = new Map(),
    derived?: Map<string, Map<number, unknown>>,
  ) {
    this.tokenizer = tokenizer;
    this.cost = cost;
    this.cache = cache;
    this.over = over;
    this.derived = derived;
    this.cached = { name: tokenizer.name, version: tokenizer.version, count: (t) => this.count(t) };
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    let n = this.cache.get(text);
    if (n === undefined) {
      n = this.tokenizer.count(text);
      this.cache.set(text, n);
    }
    return n;
  }

  /** True when `text` has more than `limit` tokens; counts only as far as needed. */
  exceeds(text: string, limit: number): boolean {
    // Every UTF-16 unit is at most 3 UTF-8 bytes, every token at least one byte. A session's texts
    // are asked about on every call: the caches (a string's hash is kept on the string) come before
    // the byte count, which walks the whole text.
    if (text.length * 3 <= limit) return false;
    const known = this.cache.get(text);
    if (known !== undefined) return known > limit;
    const above = this.over.get(text);
    if (above !== undefined && above >= limit) return true;
    if (utf8Length(text) <= limit) return false;
    if (!this.tokenizer.countUpTo) return this.count(text) > limit;
    // Exact up to the limit, so a count within it is the count; above it, only "more than limit" is known.
    const n = this.tokenizer.countUpTo(text, limit);
    if (n <= limit) {
      this.cache.set(text, n);
      return false;
    }
    this.over.set(text, Math.max(above ?? 0, limit));
    return true;
  }

  /**
   * `make()` for `text` and `n`, kept for the session when the meter has a memo: an agent's calls cut
   * the same long outputs to the same targets again and again. `make` must be a pure function of both.
   */
  derive<T>(text: string, n: number, make: () => T): T {
    if (!this.derived) return make();
    let byN = this.derived.get(text);
    if (!byN) this.derived.set(text, (byN = new Map()));
    if (byN.has(n)) return byN.get(n) as T;
    const value = make();
    byN.set(n, value);
    return value;
  }

  artifact(a: Pick<Artifact, 'content' | 'tool_calls'>): number {
    return countArtifactTokens(a as Artifact, this.cached, this.cost);
  }
}
