// The stabilizer's verdict on what it built (issue 10: no run is `ok` with a violation). A context
// with no conversation, or one the target API would refuse, cannot be sent whatever else went right:
// the run escalates with a safety event naming why (rule names and counts, never content). The
// `nonempty` and `provider` checks report the same findings at their lines. What the emitter
// repairs (a placeholder user turn before a leading assistant turn, emit/repair.ts) is no reason to
// escalate: the rules run on the repaired request.
import type { EmitFormat } from '../emit/index.js';
import { providerApis, providerIssues } from '../emit/provider-rules.js';
import type { EmitOptions } from '../emit/repair.js';
import type { ProviderTarget } from '../policy/schema.js';
import { CONVERSATION } from '../scope/conversation.js';
import type { Transcript } from '../types.js';
import type { ContextItem, LedgerEntry, StabilizeEvent } from './types.js';
import { findPiiIn } from '../pii/mask-json.js';
import type { Detector } from '../pii/types.js';
import { visibleTexts } from '../pii/visible-texts.js';

/** What the `pii` check searches with: every built-in typed detector, and the policy's own rules. */
export interface PiiSearch {
  detectors: readonly Detector[];
  allow: readonly string[];
  replacement: string;
  /** Whether a text holds PII, for texts searched before (a session's memo, memo.ts). */
  memo?: Map<string, boolean>;
}

/**
 * PII the masker could not reach: a signed thinking block, a document, a detector the policy turned
 * off. The `pii` check fails on it, so the run cannot be ok; the event names the artifact unless its
 * id is itself the leak.
 */
export function unmaskedPiiEvent(
  context: readonly ContextItem[],
  search: PiiSearch,
  skip: ReadonlySet<string>,
): StabilizeEvent | undefined {
  const found = (t: string): boolean => {
    const known = search.memo?.get(t);
    if (known !== undefined) return known;
    const has = findPiiIn(t, search.detectors, search.allow, search.replacement).length > 0;
    search.memo?.set(t, has);
    return has;
  };
  const items = context.filter((c) => !skip.has(c.id) && visibleTexts(c).some(found));
  if (items.length === 0) return undefined;
  const first = items.find((c) => !found(c.id));
  return {
    level: 'safety',
    code: 'pii_unmasked',
    message: `${items.length} artifact${items.length === 1 ? '' : 's'} of the context hold PII the masker did not reach (a signed thinking block, a document, or a detector the policy turned off): the pii check fails`,
    ...(first ? { id: first.id } : {}),
  };
}

/** PII masked in the context's artifacts, by type, and the artifacts holding it (ledger order). */
export function contextPii(
  context: readonly ContextItem[],
  ledger: readonly LedgerEntry[],
): { counts: Record<string, number>; ids: string[] } {
  const kept = new Set(context.map((c) => c.id));
  const counts: Record<string, number> = {};
  const ids: string[] = [];
  for (const e of ledger) {
    if (!e.pii || !kept.has(e.id)) continue;
    ids.push(e.id);
    for (const [type, n] of Object.entries(e.pii)) counts[type] = (counts[type] ?? 0) + n;
  }
  return { counts, ids };
}

/** `2 email, 1 phone`: counts by type, in type order. */
export function countsText(counts: Readonly<Record<string, number>>): string {
  return Object.keys(counts)
    .sort()
    .map((type) => `${counts[type]} ${type}`)
    .join(', ');
}

/**
 * pii.strategy block: the context holds PII (masked, as redact masks it), so the call must not be
 * made. Counts by type only, never a value.
 */
export function blockedPiiEvent(
  context: readonly ContextItem[],
  ledger: readonly LedgerEntry[],
): StabilizeEvent | undefined {
  const { counts, ids } = contextPii(context, ledger);
  if (ids.length === 0) return undefined;
  return {
    level: 'safety',
    code: 'pii_blocked',
    message: `${ids.length} artifact${ids.length === 1 ? '' : 's'} of the context hold PII (${countsText(counts)}) and pii.strategy is block: the call is refused`,
    id: ids[0] as string,
  };
}

/** `repair`: the policy's emit options (emitOptionsOf), so the request checked is the one written. */
export function verdictEvents(
  context: readonly ContextItem[],
  transcript: Transcript,
  target: ProviderTarget,
  emit?: EmitFormat,
  repair: EmitOptions = {},
): StabilizeEvent[] {
  if (!context.some((c) => CONVERSATION.has(c.kind))) {
    return [
      {
        level: 'safety',
        code: 'empty_context',
        message:
          'the context holds no conversation after the system prompt: both APIs reject a request without messages',
      },
    ];
  }
  const original = new Map(transcript.artifacts.map((a) => [a.id, a]));
  const events: StabilizeEvent[] = [];
  for (const api of providerApis(transcript.format, target, emit)) {
    const issues = providerIssues(context, api, original, repair);
    const rules = [...new Set(issues.map((i) => i.rule))].sort();
    if (rules.length === 0) continue;
    const id = issues.find((i) => i.ids.length > 0)?.ids[0];
    events.push({
      level: 'safety',
      code: 'provider_rejects',
      message: `the ${api} API would refuse this request (${rules.join(', ')}): it cannot be sent as it is`,
      // The status is annotated where the request breaks, as the provider check is.
      ...(id !== undefined ? { id } : {}),
    });
  }
  return events;
}
