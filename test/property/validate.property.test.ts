// Invariant 9 (DESIGN §5): the independent validation suite agrees with the stabilizer. Every check
// passes on an ok result; a warning or escalation may fail only `protected` and `budget`, the
// checks its status is about; and the ledger holds exactly one decision per input artifact, in
// input order, consistent with the context.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateResult } from '../../src/core/validate/validate.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { stabilize } from './support/run.js';
import { wordTokenizer } from './support/tokenizer.js';
import { caseArb } from './support/transcript-arb.js';

const GONE = ['dropped', 'deduplicated', 'expired', 'collapsed'];

describe('validate', () => {
  it('agrees with the status, and the ledger has one entry per input artifact', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const checks = validateResult(c.transcript, r, { policy, tokenizer: wordTokenizer });
        const failed = checks.filter((k) => !k.ok).map((k) => ({ name: k.name, violations: k.violations }));
        if (r.status === 'ok') expect(failed).toEqual([]);
        else expect(failed.filter((f) => f.name !== 'budget' && f.name !== 'protected')).toEqual([]);

        expect(r.ledger.map((e) => e.id)).toEqual(c.transcript.artifacts.map((a) => a.id));
        const inContext = new Map(r.context.map((item) => [item.id, item]));
        for (const e of r.ledger) {
          const item = inContext.get(e.id);
          expect(e.tokens_after).toBe(item?.tokens ?? 0);
          if (!item) expect(GONE).toContain(e.action);
        }
      }),
      fcOptions(1000),
    );
  });
});
