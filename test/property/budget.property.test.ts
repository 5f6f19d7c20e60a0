// Invariant 1 (DESIGN §4 stage 9, §5 `budget`): the stabilized context never exceeds the budget
// unless the run is escalated with a safety event saying why (the budget is a hard limit: protected
// evidence is cut to excerpts before it may take the context over), and the
// reported usage is the context's real size, recounted here from scratch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { recount, recountItem, stabilize } from './support/run.js';
import { caseArb } from './support/transcript-arb.js';

describe('budget', () => {
  it('only an escalated result exceeds the budget, and says why; every count is the recounted one', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const used = recount(r.context, policy);
        expect(r.budget).toEqual({ limit: policy.budget, used });
        for (const item of r.context) expect(item.tokens).toBe(recountItem(item, policy));
        if (used <= policy.budget) return;
        expect(r.status).toBe('escalated');
        const safety = r.events.filter((e) => e.level === 'safety').map((e) => e.code);
        expect(safety).toContainEqual(expect.stringMatching(/^(protected|authority)_over_budget$/));
      }),
      fcOptions(1000),
    );
  });
});
