// Invariant 4 (DESIGN §2, §4 stage 9, §5 `pairing`): a tool call and its results are kept or
// dropped together, so the context has no orphaned call or result, and the emitted OpenAI and
// Anthropic request bodies pass the providers' structural rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import type { AnthropicRequest } from '../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import type { ContextItem } from '../../src/core/stabilize/types.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { stabilize } from './support/run.js';
import { caseArb } from './support/transcript-arb.js';

/**
 * Orphans in context order: a result pairs with the nearest earlier pending call of its id
 * (DESIGN §2); a call still pending at the end has no result.
 */
function orphans(context: readonly ContextItem[]): string[] {
  const pending = new Map<string, string[]>();
  const found: string[] = [];
  for (const item of context) {
    if (item.kind === 'tool') {
      for (const id of item.call_ids ?? (item.call_id !== undefined ? [item.call_id] : [])) {
        if (pending.get(id)?.pop() === undefined) found.push(`result ${item.id} (${id})`);
      }
    }
    for (const call of item.tool_calls ?? [])
      pending.set(call.id, [...(pending.get(call.id) ?? []), item.id]);
  }
  for (const [id, owners] of pending) for (const owner of owners) found.push(`call ${id} of ${owner}`);
  return found;
}

describe('pairing', () => {
  it('no call without its result, no result without its call, and the provider payloads are valid', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        expect(orphans(r.context)).toEqual([]);
        for (const item of r.context) {
          if (item.tool_calls) expect(item.kind).toBe('assistant');
          if (item.call_id !== undefined) expect(item.kind).toBe('tool');
        }
        const openai = emitContext(r.context, 'openai') as { messages: OpenAIMessage[] };
        expect(verifyOpenAI(openai.messages)).toEqual([]);
        expect(verifyAnthropic(emitContext(r.context, 'anthropic') as AnthropicRequest)).toEqual([]);
      }),
      fcOptions(1000),
    );
  });
});
