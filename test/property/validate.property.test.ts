// Invariant 9 (DESIGN §5): the independent validation suite agrees with the stabilizer. Every check
// passes on an ok result; a warning or escalation may fail only `protected` and `budget`, the
// checks its status is about; and the ledger holds exactly one decision per input artifact.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateResult } from '../../src/core/validate/validate.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { stabilize } from './support/run.js';
import { wordTokenizer } from './support/tokenizer.js';
import { caseArb } from './support/transcript-arb.js';

describe('validate', () => {
  it('an ok result passes every check; otherwise only budget and protected may fail', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        const checks = validateResult(c.transcript, r, { policy, tokenizer: wordTokenizer });
        const failed = checks.filter((k) => !k.ok).map((k) => ({ name: k.name, violations: k.violations }));
        if (r.status === 'ok') expect(failed).toEqual([]);
        else expect(failed.filter((f) => f.name !== 'budget' && f.name !== 'protected')).toEqual([]);
      }),
      fcOptions(1000),
    );
  });

  it('the ledger has exactly one entry per input artifact, in input order, consistent with the context', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const r = stabilize(c.transcript, policy);
        expect(r.ledger.map((e) => e.id)).toEqual(c.transcript.artifacts.map((a) => a.id));
        const inContext = new Map(r.context.map((item) => [item.id, item]));
        for (const e of r.ledger) {
          const item = inContext.get(e.id);
          expect(e.tokens_after).toBe(item?.tokens ?? 0);
          if (!item) expect(['dropped', 'deduplicated', 'expired', 'collapsed']).toContain(e.action);
        }
      }),
      fcOptions(1000),
    );
  });
});
