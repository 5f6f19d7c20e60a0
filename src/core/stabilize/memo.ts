// What the calls of one agent session can share: every value is a pure function of a text (its
// tokens, its masked form, its dedup features), so a memo changes the cost of a call, never its
// result (the PII numbering aside: see `aliases`). An agent that stabilizes before each model call re-reads the same history plus a few new
// messages; with a memo, the old messages cost a Map lookup.
import { PiiAliases } from '../pii/aliases.js';
import { DedupCache } from '../similarity/text-features.js';
import type { TokenCache } from './meter.js';

/** A text as masked by the policy's detectors, and what was found (counts by type). */
export interface MaskMemoEntry {
  text: string;
  counts: Readonly<Record<string, number>>;
}

/**
 * Per-session memo for stabilizeTranscript (`options.memo`). It keeps every distinct text of the
 * session: use one per session and drop it when the session ends. Masking depends on the policy, so
 * a memo serves one policy object: used with another, it starts empty again.
 */
export class StabilizeMemo {
  readonly tokens: TokenCache;
  /** Texts known to exceed a token limit (meter.ts `exceeds`), by the largest such limit. */
  readonly tokensOver: TokenCache = new Map();
  /** Excerpts of a text to a token target (meter.ts `derive`). */
  readonly derived = new Map<string, Map<number, unknown>>();
  readonly dedup = new DedupCache();
  readonly masked = new Map<string, MaskMemoEntry>();
  /**
   * The session's PII numbering (pii.strategy numbered) and restore map. Masked texts above hold
   * its aliases, so it lives and is emptied with them. Over a history that only grows it numbers
   * as a fresh run does (first occurrence in the history); when a host rewrites its history, a
   * value keeps the number the model has already seen, which a fresh run of the rewritten history
   * might not give it: the one way a memo changes a result, on purpose.
   */
  readonly aliases = new PiiAliases();
  /** Whether a text of the context still holds PII the `pii` check would find (verdict.ts). */
  readonly piiFound = new Map<string, boolean>();
  private policy: object | undefined;

  /** `tokens`: a token cache to fill (a bounded one, say); a new Map when absent. */
  constructor(tokens: TokenCache = new Map()) {
    this.tokens = tokens;
  }

  /** This memo, emptied first when it was filled under another policy object. */
  for(policy: object): this {
    if (this.policy !== policy) {
      if (this.policy !== undefined) {
        this.tokens.clear();
        this.tokensOver.clear();
        this.derived.clear();
        this.masked.clear();
        this.aliases.clear();
        this.piiFound.clear();
        this.dedup.clear();
      }
      this.policy = policy;
    }
    return this;
  }
}
