// Invariant 1 (DESIGN §4 stage 9, §5 `budget`): the stabilized context never exceeds the budget
// unless the run is escalated with a safety event saying why (the budget is a hard limit: protected
// evidence is cut to excerpts before it may take the context over), and the
// reported usage is the context's real size, recounted here from scratch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import { calibrateTokenizer } from '../../src/core/tokens/calibrate.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { recount, recountItem, stabilize } from './support/run.js';
import { countWords, wordTokenizer } from './support/tokenizer.js';
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

describe('budget for a calibrated model family', () => {
  // A Claude budget counted as o200k × factor: the same hard limit, on the scaled counts.
  it('holds on the scaled counts, and each count is the local count × factor rounded up', () => {
    const factorArb = fc.integer({ min: 250, max: 4000 }).map((milli) => milli / 1000);
    fc.assert(
      fc.property(caseArb, policyArb, factorArb, (c, policy, factor) => {
        const tokenizer = calibrateTokenizer(wordTokenizer, { family: 'anthropic', factor });
        const r = stabilizeTranscript(c.transcript, { policy, tokenizer });
        const scaled = (text: string) => Math.ceil((countWords(text) * Math.round(factor * 1000)) / 1000);
        const used = recount(r.context, policy, scaled);
        expect(r.budget).toEqual({ limit: policy.budget, used });
        if (used > policy.budget) expect(r.status).toBe('escalated');
      }),
      fcOptions(300),
    );
  });
});
