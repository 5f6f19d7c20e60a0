// Compaction (docs/compaction.md) under arbitrary transcripts and policies with `compaction.enabled`:
// the budget stays a hard limit, every compacted artifact is in the summary's provenance, the ledger
// has exactly one decision per input artifact, and pairing stays valid (the validator's own checks).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateResult } from '../../src/core/validate/validate.js';
import { fcOptions } from '../support/fc.js';
import { policyInputArb, toPolicy } from './support/policy-arb.js';
import { recount, stabilize } from './support/run.js';
import { wordTokenizer } from './support/tokenizer.js';
import { caseArb } from './support/transcript-arb.js';

const compactionPolicyArb = fc
  .record({
    input: policyInputArb,
    max_tokens: fc.integer({ min: 32, max: 200 }),
    request_chars: fc.integer({ min: 20, max: 120 }),
  })
  .map(({ input, max_tokens, request_chars }) => {
    const raw = { ...input, compaction: { enabled: true, max_tokens, request_chars } };
    const policy = { ...toPolicy(raw) };
    Object.defineProperty(policy, fc.toStringMethod, { value: () => JSON.stringify(raw) });
    return policy;
  });

describe('compaction', () => {
  it('never exceeds the budget, covers what it compacts, keeps the ledger and pairing valid', () => {
    let compactions = 0;
    fc.assert(
      fc.property(caseArb, compactionPolicyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const used = recount(r.context, policy);
        expect(r.budget.used).toBe(used);
        if (r.status !== 'escalated') expect(used).toBeLessThanOrEqual(policy.budget);
        const summary = r.compaction?.[0];
        const compacted = r.ledger.filter((e) => e.reason === 'compacted_into');
        if (summary) {
          compactions++;
          const inContext = r.context.find((x) => x.id === summary.id);
          expect(inContext?.kind).toBe('summary');
          expect(inContext?.tokens).toBeLessThanOrEqual(policy.compaction?.max_tokens ?? 0);
          expect(c.transcript.artifacts.some((a) => a.id === summary.id)).toBe(false);
        }
        // Into this run's summary, or into the transcript's own compaction summary it stands for.
        const covered = new Set(summary?.covers ?? []);
        for (const e of compacted) {
          const into = /^compacted into (.+)$/.exec(e.detail ?? '')?.[1];
          expect(into).toBeDefined();
          if (into === summary?.id) expect(covered.has(e.id)).toBe(true);
          else expect(c.transcript.artifacts.find((a) => a.id === into)?.provenance).toContain(e.id);
          expect(e.tokens_after).toBe(0);
        }
        const checks = validateResult(c.transcript, r, { policy, tokenizer: wordTokenizer });
        const by = Object.fromEntries(checks.map((k) => [k.name, k]));
        expect(by['ledger']?.violations).toEqual([]);
        expect(by['pairing']?.violations ?? []).toEqual([]);
        expect(by['order']?.violations ?? []).toEqual([]);
        expect(by['summaries']?.violations ?? []).toEqual([]);
        if (r.status !== 'escalated') expect(by['budget']?.violations ?? []).toEqual([]);
        expect(r.ledger.map((e) => e.id)).toEqual(c.transcript.artifacts.map((a) => a.id));
      }),
      fcOptions(400),
    );
    // The arbitrary must reach compaction at all, or the property says nothing.
    expect(compactions).toBeGreaterThan(0);
  });
});
