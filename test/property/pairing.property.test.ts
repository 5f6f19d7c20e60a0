// Invariant 4 (DESIGN §2, §4 stage 9, §5 `pairing`): a tool call and its results are kept or
// dropped together, so the context has no orphaned call or result, and the emitted OpenAI and
// Anthropic request bodies break none of the providers' call/result pairing rules.
//
// The providers' other rules are not yet guaranteed by the stabilizer (issue 9): tool_use ids reused
// across rounds (unique per Anthropic request), image_url parts that Anthropic refuses or that OpenAI
// refuses in assistant messages, an assistant-first Anthropic request, an empty request. For those
// the invariant is that the `provider` check reports exactly the rules the verifiers find, so that
// a green never hides them (see also validate.property.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../../src/core/stabilize/types.js';
import { validateResult } from '../../src/core/validate/validate.js';
import { fcOptions } from '../support/fc.js';
import { APIS, failingErrors, providerRules, verifiedRules } from './support/green.js';
import { policyArb } from './support/policy-arb.js';
import { stabilize } from './support/run.js';
import { wordTokenizer } from './support/tokenizer.js';
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

/** The rules about tool calls and their results, which a context without orphans never breaks. */
const PAIRING_RULES = [
  'openai-call-ids-unique',
  'openai-tool-answers-call',
  'openai-call-answered',
  'anthropic-tool-result-first',
  'anthropic-tool-use-answered',
  'anthropic-tool-result-matches-use',
];

describe('pairing', () => {
  it('no call without its result, no result without its call; the payloads keep the pairing rules, and the provider check names what they break', () => {
    let refused = 0;
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        expect(orphans(r.context)).toEqual([]);
        for (const item of r.context) {
          if (item.tool_calls) expect(item.kind).toBe('assistant');
          if (item.call_id !== undefined) expect(item.kind).toBe('tool');
        }
        for (const api of APIS) {
          const verified = verifiedRules(r, api);
          expect(verified.filter((rule) => PAIRING_RULES.includes(rule))).toEqual([]);
          const checks = validateResult(c.transcript, r, { policy, tokenizer: wordTokenizer, emit: api });
          expect(providerRules(checks, api)).toEqual(verified);
          if (verified.length > 0) {
            refused++;
            expect(failingErrors(checks)).toContain('provider');
          }
        }
      }),
      fcOptions(1000),
    );
    // The generated contexts do reach requests an API refuses, so the agreement is tested.
    expect(refused).toBeGreaterThan(0);
  });
});
