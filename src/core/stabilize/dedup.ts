// Stage 6 (dedup): exact and near-duplicate texts leave, the latest copy stays; results superseded by
// a later result of the same command family are stale and leave too (seed 002, default mode).
import { findDuplicates } from '../similarity/dedup.js';
import type { DedupItem } from '../similarity/dedup.js';
import type { Fate, Work, WorkSet } from './work.js';
import { isAlive, isProtected, remove, removeResult, textOf } from './work.js';

/** Short turns ("yes", "ok, go on") repeat by nature; removing an earlier one changes the dialogue. */
export const MIN_DEDUP_CHARS = 40;

const DEDUP_KINDS = new Set(['user', 'assistant', 'tool', 'retrieval']);

/** Can take part in the comparison: as a copy to remove, or as the later copy that stays. */
function comparable(w: Work): boolean {
  if (!DEDUP_KINDS.has(w.a.kind)) return false;
  if (w.removed && w.removed.stage !== 'dedup') return false;
  if (w.changed?.reason === 'pair_placeholder') return false;
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
 * for the budget without being compared (their ledger reason is `budget`).
 */
export class SuffixDedup {
  private checkedFrom = Number.POSITIVE_INFINITY;
  private readonly ws: WorkSet;
  private readonly similarity: number;
  removed = 0;

  constructor(ws: WorkSet, similarity: number) {
    this.ws = ws;
    this.similarity = similarity;
  }

  /** Compare every artifact at or after `from`; true when that removed something new. */
  extendTo(from: number): boolean {
    if (from >= this.checkedFrom) return false;
    this.checkedFrom = from;
    const items: DedupItem[] = [];
    for (let i = Math.max(0, from); i < this.ws.items.length; i++) {
      const w = this.ws.items[i] as Work;
      if (!comparable(w)) continue;
      const text = textOf(w.content);
      if (text.trim().length < MIN_DEDUP_CHARS) continue;
      // The kind is part of the text compared: a user message is never a copy of a tool result.
      items.push({ id: w.a.id, text: `${w.a.kind}\u0000${text}` });
    }
    const findings = findDuplicates(items, { similarity: this.similarity, minChars: MIN_DEDUP_CHARS });
    const next = new Map(findings.map((f) => [f.id, f.duplicate_of]));
    let changed = false;
    for (const f of findings) {
      const w = this.ws.byId.get(f.id);
      if (!w || !isAlive(w) || isProtected(w)) continue;
      // Name the copy that stays: follow A→B→C to the end of the chain.
      let target = f.duplicate_of;
      for (let hops = 0; next.has(target) && hops < items.length; hops++) target = next.get(target) as string;
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
    }
    return changed;
  }
}

export function applySuperseded(ws: WorkSet): number {
  const latest = new Map<string, Work>();
  for (const w of ws.items) if (isAlive(w) && w.supersede !== undefined) latest.set(w.supersede, w);
  let removed = 0;
  for (const w of ws.items) {
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
