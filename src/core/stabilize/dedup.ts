// Stage 6 (dedup): exact and near-duplicate texts leave, the latest copy stays; a result superseded by
// a later result of the identical invocation (same tool, same normalized arguments: families.ts) is
// stale and leaves too (seed 002, default mode). A shared command family never supersedes.
import { DedupCache, findDuplicates } from '../similarity/dedup.js';
import type { DedupItem } from '../similarity/dedup.js';
import type { Fate, Work, WorkSet } from './work.js';
import { isAlive, isPlaceholder, isProtected, remove, removeResult, textOf } from './work.js';

/** Short turns ("yes", "ok, go on") repeat by nature; removing an earlier one changes the dialogue. */
export const MIN_DEDUP_CHARS = 40;

const DEDUP_KINDS = new Set(['user', 'assistant', 'tool', 'retrieval']);

/** Can take part in the comparison: as a copy to remove, or as the later copy that stays. */
function comparable(w: Work): boolean {
  if (!DEDUP_KINDS.has(w.a.kind)) return false;
  if (w.removed && w.removed.stage !== 'dedup') return false;
  if (isPlaceholder(w)) return false;
  // An assistant that made calls is a unit with its results: it is never a mere copy of another text.
  return !(w.toolCalls && w.toolCalls.length > 0);
}

function removeWork(w: Work, fate: Fate): void {
  if (w.owner) removeResult(w, fate);
  else remove(w, fate);
}

/**
 * Dedup runs over the part of the transcript that can still reach the context: the budget stage
 * widens that suffix as room is freed, and every artifact in it is compared with every later one,
 * exactly as a pass over the whole transcript would. Artifacts older than what fits are dropped
 * for the budget without being compared (their ledger reason is `budget`), except the results of
 * protected calls, which stay whatever the budget and so are compared too.
 */
export class SuffixDedup {
  private checkedFrom = Number.POSITIVE_INFINITY;
  private readonly ws: WorkSet;
  private readonly similarity: number;
  private readonly shown: (w: Work) => string;
  /** Each widening compares mostly the same texts again: their hashes and signatures are reused. */
  private readonly cache: DedupCache;
  /** Only artifacts before this index are compared (the stable cut's freeze, cut-plan.ts). */
  private readonly before: number;
  removed = 0;

  /**
   * `shown` is the text as the context would show it: PII masking comes before dedup (DESIGN §4
   * stages 4 and 6), so two texts that differ only in masked values are copies.
   */
  constructor(
    ws: WorkSet,
    similarity: number,
    shown: (w: Work) => string = (w) => textOf(w.content),
    cache: DedupCache = new DedupCache(),
    before = Number.POSITIVE_INFINITY,
  ) {
    this.before = before;
    this.cache = cache;
    this.ws = ws;
    this.similarity = similarity;
    this.shown = shown;
  }

  /** Compare every artifact at or after `from`; true when that removed something new. */
  extendTo(from: number): boolean {
    if (from >= this.checkedFrom) return false;
    this.checkedFrom = from;
    let changed = false;
    // A copy removed with its call can leave an assistant with text only, which is comparable
    // now (and may be a copy itself): compare again until no assistant is freed that way.
    for (;;) {
      const pass = this.compare(from);
      changed ||= pass.changed;
      if (!pass.freed) return changed;
    }
  }

  private compare(from: number): { changed: boolean; freed: boolean } {
    // Texts are compared within one kind only: a user message is never a copy of a tool result
    // (a kind prefix on the text is not enough: a long shared text outweighs it).
    const byKind = new Map<string, DedupItem[]>();
    let count = 0;
    for (let i = 0; i < Math.min(this.ws.items.length, this.before); i++) {
      const w = this.ws.items[i] as Work;
      // Before the suffix, only results kept with their protected call reach the context: compared too.
      if (i < from && !(w.owner && isAlive(w.owner) && isProtected(w.owner))) continue;
      if (!comparable(w)) continue;
      const text = this.shown(w);
      if (text.trim().length < MIN_DEDUP_CHARS) continue;
      const group = byKind.get(w.a.kind) ?? [];
      group.push({ id: w.a.id, text });
      byKind.set(w.a.kind, group);
      count++;
    }
    const indexOf = (id: string): number => this.ws.byId.get(id)?.index ?? 0;
    const findings = [...byKind.values()]
      .flatMap((items) =>
        findDuplicates(items, { similarity: this.similarity, minChars: MIN_DEDUP_CHARS, cache: this.cache }),
      )
      .sort((x, y) => indexOf(x.id) - indexOf(y.id));
    const next = new Map(findings.map((f) => [f.id, f.duplicate_of]));
    let changed = false;
    let freed = false;
    for (const f of findings) {
      const w = this.ws.byId.get(f.id);
      if (!w || !isAlive(w) || isProtected(w)) continue;
      const owner = w.owner;
      const calls = owner?.toolCalls?.length ?? 0;
      // Name the copy that stays: follow A→B→C to the end of the chain.
      let target = f.duplicate_of;
      for (let hops = 0; next.has(target) && hops < count; hops++) target = next.get(target) as string;
      removeWork(w, {
        stage: 'dedup',
        action: 'deduplicated',
        reason: f.exact ? 'duplicate' : 'near_duplicate',
        detail: f.exact
          ? `same text as ${target}`
          : `similarity ${f.similarity.toFixed(2)} with ${f.duplicate_of}`,
        duplicate_of: target,
      });
      this.removed++;
      changed = true;
      if (owner && calls > 0 && isAlive(owner) && (owner.toolCalls?.length ?? 0) === 0) freed = true;
    }
    return { changed, freed };
  }
}

/** `before`: only artifacts before this index take part (the stable cut's freeze, cut-plan.ts). */
export function applySuperseded(ws: WorkSet, before = ws.items.length): number {
  const latest = new Map<string, Work>();
  const items = ws.items.slice(0, before);
  for (const w of items) if (isAlive(w) && w.supersede !== undefined) latest.set(w.supersede, w);
  let removed = 0;
  for (const w of items) {
    if (!isAlive(w) || w.supersede === undefined || isProtected(w)) continue;
    const newest = latest.get(w.supersede);
    if (!newest || newest === w) continue;
    removeResult(w, {
      stage: 'dedup',
      action: 'dropped',
      reason: 'superseded',
      detail: `a later result of the same command (${newest.a.id}) supersedes it`,
    });
    removed++;
  }
  return removed;
}
