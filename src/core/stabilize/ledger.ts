// The ledger: exactly one final decision per input artifact, in input order (DESIGN §4, §5 `ledger`).
import type { Masker } from './finalize.js';
import { maskString, peekFinal } from './finalize.js';
import type { TokenMeter } from './meter.js';
import type { Action, LedgerEntry, Reason, Stage } from './types.js';
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

/** Sets the optional fields in one place, in the order of the report, without temporary objects. */
function entry(
  w: Work,
  masker: Masker,
  decision: {
    stage: Stage;
    action: Action;
    reason: Reason;
    detail?: string | undefined;
    duplicate_of?: string | undefined;
  },
  tokensBefore: number | null,
  tokensAfter: number,
  pii: Record<string, number> | undefined,
): LedgerEntry {
  // A fixed shape: a session of a million records holds a million entries, and objects built by
  // spreading optional parts take several times the memory.
  // Keys in the order reports and goldens have always printed them.
  const e = {
    id: w.a.id,
    line: w.a.source.line,
    stage: decision.stage,
    action: decision.action,
    reason: decision.reason,
  } as LedgerEntry;
  if (decision.detail) e.detail = decision.detail;
  e.tokens_before = tokensBefore;
  e.tokens_after = tokensAfter;
  if (decision.duplicate_of) e.duplicate_of = decision.duplicate_of;
  if (isProtected(w)) e.protected_by = w.protectedBy.map((p) => clean(p, masker));
  if (pii) e.pii = pii;
  return e;
}

export function ledgerEntry(w: Work, masker: Masker, meter: TokenMeter): LedgerEntry {
  const final = peekFinal(w);
  // Work holds a copy of the calls array: compare the calls, not the arrays.
  const sameCalls =
    w.toolCalls === w.a.tool_calls ||
    (w.toolCalls?.length === w.a.tool_calls?.length &&
      (w.toolCalls ?? []).every((c, i) => c === w.a.tool_calls?.[i]));
  const original = w.content === w.a.content && sameCalls;
  const cleanDetail = (d: string | undefined): string | undefined => (d ? clean(d, masker) : undefined);
  if (w.removed) {
    const f = w.removed;
    // A removed artifact was counted only when a stage needed its size; an unchanged, unmasked
    // count is its original size. Otherwise it is reported as not counted (null), never guessed.
    const tokensBefore = final && original && !hasPii(final.pii) ? final.tokens : null;
    return entry(w, masker, { ...f, detail: cleanDetail(f.detail) }, tokensBefore, 0, undefined);
  }
  if (!final) throw new Error(`internal: artifact ${w.a.id} is kept but was never finalized`);
  const masked = hasPii(final.pii);
  const tokensBefore =
    original && !masked ? final.tokens : meter.artifact({ content: w.a.content, tool_calls: w.a.tool_calls });
  const pii = masked ? final.pii : undefined;
  if (w.changed) {
    const c = w.changed;
    return entry(w, masker, { ...c, detail: cleanDetail(c.detail) }, tokensBefore, final.tokens, pii);
  }
  if (masked) {
    const kinds = Object.entries(final.pii)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    const decision = { stage: 'pii', action: 'masked', reason: 'pii', detail: `masked ${kinds}` } as const;
    return entry(w, masker, decision, tokensBefore, final.tokens, pii);
  }
  const kept = isProtected(w)
    ? ({ stage: 'protect', action: 'kept', reason: 'protected' } as const)
    : ({ stage: 'budget', action: 'kept', reason: 'in_budget' } as const);
  return entry(w, masker, kept, tokensBefore, final.tokens, undefined);
}
