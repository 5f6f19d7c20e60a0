// A token cache bounded by the bytes of its keys. `check` keeps one per transcript; the bound keeps
// one huge transcript from taking the memory (an unbounded run-wide cache made a 600 MB corpus peak
// at 2.2 GB). A count is a pure function of the text, so dropping an entry only costs a recount:
// results never change. Eviction is first-in, first-out (Map keeps insertion order): a hit costs no
// bookkeeping.

/** 64 MiB of cached text: more than a typical transcript's distinct texts, well below the memory goal. */
export const DEFAULT_TOKEN_CACHE_BYTES = 64 * 1024 * 1024;

export class BoundedTokenCache extends Map<string, number> {
  private bytes = 0;

  constructor(private readonly maxBytes: number = DEFAULT_TOKEN_CACHE_BYTES) {
    super();
  }

  /** Bytes of the cached keys (UTF-16 code units × 2, as V8 holds a two-byte string at most). */
  get keyBytes(): number {
    return this.bytes;
  }

  override set(key: string, value: number): this {
    if (!super.has(key)) {
      this.bytes += key.length * 2;
      this.evict(key.length * 2);
    }
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    if (super.has(key)) this.bytes -= key.length * 2;
    return super.delete(key);
  }

  override clear(): void {
    this.bytes = 0;
    super.clear();
  }

  /** Drops the oldest entries until the new key fits (a key larger than the bound stays alone). */
  private evict(incoming: number): void {
    if (this.bytes <= this.maxBytes) return;
    for (const oldest of super.keys()) {
      if (this.bytes <= this.maxBytes || this.bytes === incoming) break;
      this.delete(oldest);
    }
  }
}
