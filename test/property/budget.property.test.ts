// Invariant 1 (DESIGN §4 stage 9, §5 `budget`): the stabilized context never exceeds the budget
// unless the status says why (a recovery warning or an escalation), and the reported usage is the
// context's real size, recounted here from scratch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { recount, recountItem, stabilize } from './support/run.js';
import { caseArb } from './support/transcript-arb.js';

describe('budget', () => {
  it('an ok result fits the budget, and every reported count is the recounted one', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const used = recount(r.context, policy);
        expect(r.budget.used).toBe(used);
        expect(r.budget.limit).toBe(policy.budget);
        for (const item of r.context) expect(item.tokens).toBe(recountItem(item, policy));
        if (r.status === 'ok') expect(used).toBeLessThanOrEqual(policy.budget);
      }),
      fcOptions(1000),
    );
  });

  it('a result over the budget is never ok and says so with a safety event', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        if (r.budget.used <= r.budget.limit) return;
        expect(r.status).not.toBe('ok');
        const codes = r.events.filter((e) => e.level === 'safety').map((e) => e.code);
        expect(codes).toContainEqual(expect.stringMatching(/^(protected|authority)_over_budget$/));
      }),
      fcOptions(1000),
    );
  });
});
