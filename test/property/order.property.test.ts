// Invariants 2 and 3 (DESIGN §4 stage 10, §5 `order`): the context is in the policy's section
// order (system and policy first with the default order), and each section keeps the original
// chronology of the transcript.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { sectionRank, stabilize } from './support/run.js';
import { caseArb } from './support/transcript-arb.js';

describe('order', () => {
  it('sections follow the policy order', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const ranks = r.context.map((item) => sectionRank(item.kind, policy.order).rank);
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        const first = policy.order[0];
        if (first === 'system' || first === 'policy') {
          // The first section configured leads the context whenever any of it survives.
          const lead = r.context.findIndex((item) => sectionRank(item.kind, policy.order).section === first);
          if (lead !== -1) expect(lead).toBe(0);
        }
      }),
      fcOptions(1000),
    );
  });

  it('system and policy artifacts come first under the default order', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, base) => {
        const policy = {
          ...base,
          order: ['system', 'policy', 'task', 'conversation', 'summaries'] as typeof base.order,
        };
        const r = stabilize(c.transcript, policy);
        const authority = r.context.filter((item) => item.kind === 'system' || item.kind === 'policy');
        expect(r.context.slice(0, authority.length)).toEqual(authority);
        const systems = authority.filter((item) => item.kind === 'system');
        expect(authority.slice(0, systems.length)).toEqual(systems);
      }),
      fcOptions(1000),
    );
  });

  it('inside a section, items keep the chronology of the transcript', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const position = new Map(c.transcript.artifacts.map((a, i) => [a.id, i]));
        const bySection = new Map<string, number[]>();
        for (const item of r.context) {
          const { section } = sectionRank(item.kind, policy.order);
          bySection.set(section, [...(bySection.get(section) ?? []), position.get(item.id) ?? -1]);
        }
        for (const positions of bySection.values()) {
          expect(positions).not.toContain(-1);
          expect(positions).toEqual([...positions].sort((a, b) => a - b));
        }
      }),
      fcOptions(1000),
    );
  });
});
