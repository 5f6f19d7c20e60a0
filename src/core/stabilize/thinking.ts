// Thinking blocks that hold PII (issue 10). A thinking block is signed by the API: masking it would
// break the signature, so it cannot be masked, only left out. The Anthropic API strips the thinking
// of earlier turns itself, so leaving it out there changes nothing the model sees; only the last
// assistant turn of an open tool loop must pass its thinking back unchanged. Its PII stays, and the
// `pii` check fails on it: nothing can be done about it but to say so.
import { findPii } from '../pii/mask.js';
import type { ContentPart } from '../types.js';
import type { Masker } from './finalize.js';
import type { Work, WorkSet } from './work.js';
import { hasText, isAlive, remove } from './work.js';

function thinkingPii(p: ContentPart, masker: Masker): Record<string, number> | undefined {
  const text = (p as Record<string, unknown>)['thinking'];
  if (p.type !== 'thinking' || typeof text !== 'string') return undefined;
  const found = findPii(text, masker.detectors, masker.allow);
  if (found.length === 0) return undefined;
  const counts: Record<string, number> = {};
  for (const m of found) counts[m.type] = (counts[m.type] ?? 0) + 1;
  return counts;
}

/**
 * The assistant artifacts of the last assistant turn while its tool loop is open (it made tool calls
 * and only their results follow): the API checks their thinking against its signatures.
 */
function openLoopTurn(ws: WorkSet): Set<Work> {
  const alive = ws.items.filter(isAlive);
  let end = alive.length - 1;
  while (end >= 0 && alive[end]?.a.kind === 'tool') end--;
  const turn = new Set<Work>();
  if (end < 0 || alive[end]?.a.kind !== 'assistant') return turn;
  for (let i = end; i >= 0 && alive[i]?.a.kind === 'assistant'; i--) turn.add(alive[i] as Work);
  const open = [...turn].some((w) => (w.toolCalls?.length ?? 0) > 0);
  return open ? turn : new Set();
}

export interface ThinkingOutcome {
  /** Thinking blocks left out. */
  dropped: number;
  /** Artifacts of the open tool loop whose thinking holds PII that must stay: the run cannot be ok. */
  unmaskable: string[];
}

/** Leaves out the thinking blocks that hold PII wherever the API allows it. */
export function dropThinkingPii(ws: WorkSet, masker: Masker): ThinkingOutcome {
  const out: ThinkingOutcome = { dropped: 0, unmaskable: [] };
  if (masker.detectors.length === 0) return out;
  const keep = openLoopTurn(ws);
  for (const w of keep) {
    if (typeof w.content !== 'string' && w.content.some((p) => thinkingPii(p, masker)))
      out.unmaskable.push(w.a.id);
  }
  for (const w of ws.items) {
    if (!isAlive(w) || w.a.kind !== 'assistant' || keep.has(w) || typeof w.content === 'string') continue;
    const counts: Record<string, number> = { ...w.piiCarried };
    let n = 0;
    const content = w.content.filter((p) => {
      const found = thinkingPii(p, masker);
      if (!found) return true;
      for (const [k, v] of Object.entries(found)) counts[k] = (counts[k] ?? 0) + v;
      n++;
      return false;
    });
    if (n === 0) continue;
    out.dropped += n;
    const detail = `left out ${n} thinking block${n === 1 ? '' : 's'} holding PII: a signed block cannot be masked, and the API does not need the thinking of this turn`;
    w.content = content;
    w.piiCarried = counts;
    if (!hasText(w) && (w.toolCalls?.length ?? 0) === 0 && content.length === 0) {
      remove(w, { stage: 'pii', action: 'dropped', reason: 'pii_thinking', detail });
      continue;
    }
    // An earlier change (a call that left with its result) stays the decision; the detail says both.
    w.changed = w.changed
      ? { ...w.changed, detail: `${w.changed.detail ?? w.changed.reason}; ${detail}` }
      : { stage: 'pii', action: 'masked', reason: 'pii_thinking', detail };
  }
  return out;
}
