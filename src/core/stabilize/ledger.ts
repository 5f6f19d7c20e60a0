// The ledger: exactly one final decision per input artifact, in input order (DESIGN §4, §5 `ledger`).
import type { Masker } from './finalize.js';
import { maskString, peekFinal } from './finalize.js';
import type { TokenMeter } from './meter.js';
import type { LedgerEntry } from './types.js';
import type { Work } from './work.js';
import { isProtected } from './work.js';

function hasPii(pii: Record<string, number>): boolean {
  return Object.keys(pii).length > 0;
}

/**
 * Details and protection reasons can name commands and paths taken from tool arguments; they go
 * through the same masker as the content, so no report field ever carries raw PII.
 */
function clean(text: string, masker: Masker): string {
  // The same reasons and details repeat across a ledger (`recent`, `tag:error`…): mask each once.
  let seen = cleaned.get(masker);
  if (!seen) cleaned.set(masker, (seen = new Map()));
  let out = seen.get(text);
  if (out === undefined) seen.set(text, (out = maskString(text, masker, {})));
  return out;
}

const cleaned = new WeakMap<Masker, Map<string, string>>();

export function ledgerEntry(w: Work, masker: Masker, meter: TokenMeter): LedgerEntry {
  const final = peekFinal(w);
  // Work holds a copy of the calls array: compare the calls, not the arrays.
  const sameCalls =
    w.toolCalls === w.a.tool_calls ||
    (w.toolCalls?.length === w.a.tool_calls?.length &&
      (w.toolCalls ?? []).every((c, i) => c === w.a.tool_calls?.[i]));
  const original = w.content === w.a.content && sameCalls;
  const base = { id: w.a.id, line: w.a.source.line };
  const protectedBy = isProtected(w) ? { protected_by: w.protectedBy.map((p) => clean(p, masker)) } : {};
  if (w.removed) {
    const f = w.removed;
    // A removed artifact was counted only when a stage needed its size; an unchanged, unmasked
    // count is its original size. Otherwise it is reported as not counted (null), never guessed.
    const tokensBefore = final && original && !hasPii(final.pii) ? final.tokens : null;
    return {
      ...base,
      stage: f.stage,
      action: f.action,
      reason: f.reason,
      ...(f.detail ? { detail: clean(f.detail, masker) } : {}),
      tokens_before: tokensBefore,
      tokens_after: 0,
      ...(f.duplicate_of ? { duplicate_of: f.duplicate_of } : {}),
      ...protectedBy,
    };
  }
  if (!final) throw new Error(`internal: artifact ${w.a.id} is kept but was never finalized`);
  const unchanged = original && !hasPii(final.pii);
  const tokensBefore = unchanged
    ? final.tokens
    : meter.artifact({ content: w.a.content, tool_calls: w.a.tool_calls });
  const pii = hasPii(final.pii) ? { pii: final.pii } : {};
  if (w.changed) {
    const c = w.changed;
    return {
      ...base,
      stage: c.stage,
      action: c.action,
      reason: c.reason,
      ...(c.detail ? { detail: clean(c.detail, masker) } : {}),
      tokens_before: tokensBefore,
      tokens_after: final.tokens,
      ...(c.duplicate_of ? { duplicate_of: c.duplicate_of } : {}),
      ...protectedBy,
      ...pii,
    };
  }
  if (hasPii(final.pii)) {
    const kinds = Object.entries(final.pii)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    return {
      ...base,
      stage: 'pii',
      action: 'masked',
      reason: 'pii',
      detail: `masked ${kinds}`,
      tokens_before: tokensBefore,
      tokens_after: final.tokens,
      ...protectedBy,
      ...pii,
    };
  }
  return {
    ...base,
    stage: isProtected(w) ? 'protect' : 'budget',
    action: 'kept',
    reason: isProtected(w) ? 'protected' : 'in_budget',
    tokens_before: tokensBefore,
    tokens_after: final.tokens,
    ...protectedBy,
  };
}
