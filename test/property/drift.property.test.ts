// Invariant (DESIGN §6, docs/goldens.md): drift is a change in what the model would see or in a
// verdict. For any stabilized transcript, a golden that differs only in metadata — policy hash,
// tokenizer, token counts, budget limit, ledger bookkeeping, lines — compares equal (a pass with a
// note naming what differs); any change to the context's text, its order, an artifact's fate or a
// check verdict is drift, with its first changed artifact when one changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGolden } from '../../src/core/golden/golden.js';
import type { Golden } from '../../src/core/golden/golden.js';
import { diffGoldens } from '../../src/core/golden/diff.js';
import { buildReport } from '../../src/core/report/report.js';
import { validateResult } from '../../src/core/validate/validate.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from './support/policy-arb.js';
import { stabilize } from './support/run.js';
import { wordTokenizer } from './support/tokenizer.js';
import { caseArb } from './support/transcript-arb.js';

const TOKENIZER = { name: 'words', version: '1' };

function copy(g: Golden): Golden {
  return JSON.parse(JSON.stringify(g)) as Golden;
}

const goldenArb = fc.tuple(caseArb, policyArb).map(([c, policy]) => {
  const result = stabilize(c.transcript, policy);
  const report = buildReport(
    result,
    validateResult(c.transcript, result, { policy, tokenizer: wordTokenizer }),
  );
  return buildGolden(report, { transcript: 't.jsonl', policy, tokenizer: TOKENIZER });
});

describe('drift', () => {
  it('metadata alone is never drift, and is named', () => {
    fc.assert(
      fc.property(goldenArb, fc.integer({ min: 1, max: 5 }), (golden, scale) => {
        const other = copy(golden);
        other.policy_hash = `${golden.policy_hash}x`;
        other.tokenizer = { name: 'words', version: '2' };
        other.budget = { limit: golden.budget.limit + 1, used: golden.budget.used * scale + 1 };
        for (const item of other.context) {
          item.tokens = item.tokens * scale + 1;
          item.line += 1;
        }
        for (const e of other.ledger) {
          e.tokens_after = e.tokens_after * scale + 1;
          e.protected_by = [...(e.protected_by ?? []), 'pinned'];
          e.detail = 'restated';
          e.line += 1;
        }
        for (const c of other.checks) for (const v of c.violations) v.message = `${v.message} (restated)`;
        const d = diffGoldens(golden, other);
        expect(d.equal).toBe(true);
        expect(d.first).toBeNull();
        expect(d.metadata).toEqual(
          expect.arrayContaining(['policy changed', 'token counts', 'budget limit', 'bookkeeping']),
        );
      }),
      fcOptions(200),
    );
  });

  it('a change of text, order, fate or verdict is drift', () => {
    fc.assert(
      fc.property(
        goldenArb,
        fc.nat(),
        fc.constantFrom('text', 'order', 'fate', 'verdict'),
        (golden, pick, what) => {
          const other = copy(golden);
          if (what === 'text') {
            if (other.context.length === 0) return;
            const item = other.context[pick % other.context.length];
            if (!item) return;
            item.content =
              typeof item.content === 'string'
                ? `${item.content}!`
                : [...item.content, { type: 'text', text: '!' }];
            const d = diffGoldens(golden, other);
            expect(d.equal).toBe(false);
            expect(d.first?.id).toBe(item.id);
          } else if (what === 'order') {
            if (other.context.length < 2) return;
            const i = pick % (other.context.length - 1);
            const [a, b] = [other.context[i], other.context[i + 1]];
            if (
              !a ||
              !b ||
              JSON.stringify({ ...a, line: 0, tokens: 0 }) === JSON.stringify({ ...b, line: 0, tokens: 0 })
            )
              return;
            other.context[i] = b;
            other.context[i + 1] = a;
            expect(diffGoldens(golden, other).equal).toBe(false);
          } else if (what === 'fate') {
            const entry = other.ledger[pick % Math.max(1, other.ledger.length)];
            if (!entry) return;
            entry.reason = `${entry.reason}_changed`;
            const d = diffGoldens(golden, other);
            expect(d.equal).toBe(false);
            expect(d.fates.map((f) => f.id)).toContain(entry.id);
            expect(d.first).not.toBeNull();
          } else {
            const check = other.checks[pick % Math.max(1, other.checks.length)];
            if (!check) return;
            check.ok = !check.ok;
            expect(diffGoldens(golden, other).equal).toBe(false);
          }
        },
      ),
      fcOptions(400),
    );
  });

  // Seed 220756030: every line shifted by one (a line added at the top of the transcript) made each
  // item "content changed" and `first` non-null although the diff was equal.
  it('regression (seed 220756030): a line shift alone changes no content and has no first change', () => {
    fc.assert(
      fc.property(goldenArb, (golden) => {
        const other = copy(golden);
        for (const item of other.context) item.line += 1;
        const d = diffGoldens(golden, other);
        expect(d.contentChanged).toEqual([]);
        expect(d.first).toBeNull();
      }),
      { ...fcOptions(1), seed: 220756030, path: '0', endOnFailure: true },
    );
  });
});
