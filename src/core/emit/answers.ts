// Which result answers which call, for the emitters: the readers' pairing rule (DESIGN §2,
// readers/pairing.ts: the nearest earlier pending call with its id) applied to the context, per
// call and per call id of a result. The chat APIs take a result only right after its call, so the
// emitters write it there, and the request reads back with the same result answering the same call.
// A result that answers no call of the context (it comes before its call, or its id was answered
// already, or its call was left out) stays where it is: read back, it answers none either.
import type { ContextItem } from '../stabilize/types.js';

/** The call ids a result answers: a SWE-agent result's `call_ids`, else its call_id. */
export function resultIds(item: ContextItem): string[] {
  if (item.call_ids && item.call_ids.length > 0) return item.call_ids;
  return item.call_id === undefined ? [] : [item.call_id];
}

export interface Answers {
  /** The result answering call `k` of `item`, if the context holds one. */
  resultOf(item: ContextItem, k: number): ContextItem | undefined;
  /** The ids of a result that answer no call of the context, in its order. */
  unanswered(item: ContextItem): string[];
}

export function answersOf(context: readonly ContextItem[]): Answers {
  const pending = new Map<string, { item: ContextItem; k: number }[]>();
  const byCall = new Map<ContextItem, (ContextItem | undefined)[]>();
  const loose = new Map<ContextItem, string[]>();
  for (const item of context) {
    if (item.kind === 'tool') {
      const left: string[] = [];
      for (const id of resultIds(item)) {
        const call = pending.get(id)?.pop();
        if (!call) {
          left.push(id);
          continue;
        }
        const slots = byCall.get(call.item) ?? [];
        slots[call.k] = item;
        byCall.set(call.item, slots);
      }
      loose.set(item, left);
    }
    // Only assistant turns carry calls in a request: a result of another kind's call answers none.
    if (item.kind !== 'assistant') continue;
    (item.tool_calls ?? []).forEach((c, k) => {
      const stack = pending.get(c.id) ?? [];
      stack.push({ item, k });
      pending.set(c.id, stack);
    });
  }
  return {
    resultOf: (item, k) => byCall.get(item)?.[k],
    unanswered: (item) => loose.get(item) ?? resultIds(item),
  };
}
