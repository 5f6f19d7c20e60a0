// Invariants 2 and 3 (DESIGN §4 stage 10, §5 `order`): the context is in the policy's section
// order, system and policy first under the default order, and each section keeps the original
// chronology of the transcript.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../src/core/policy/index.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { sectionRank, stabilize } from './support/run.js';
import { caseArb } from './support/transcript-arb.js';

describe('order', () => {
  it('sections follow the policy order, each in transcript chronology', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const position = new Map(c.transcript.artifacts.map((a, i) => [a.id, i]));
        // (section rank, position in the transcript) must increase along the context.
        const keys = r.context.map((item) => [
          sectionRank(item.kind, policy.order).rank,
          position.get(item.id) ?? -1,
        ]);
        expect(keys.flat()).not.toContain(-1);
        expect(keys).toEqual(
          [...keys].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0)),
        );
      }),
      fcOptions(1000),
    );
  });

  it('system, then policy artifacts lead the context under the default order', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, base) => {
        const order: Policy['order'] = ['system', 'policy', 'task', 'conversation', 'summaries'];
        const r = stabilize(c.transcript, { ...base, order });
        const kinds = r.context.map((item) => item.kind);
        const lead: string[] = [
          ...kinds.filter((k) => k === 'system'),
          ...kinds.filter((k) => k === 'policy'),
        ];
        expect(kinds.slice(0, lead.length)).toEqual(lead);
      }),
      fcOptions(1000),
    );
  });
});
