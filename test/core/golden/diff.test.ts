import { describe, expect, it } from 'vitest';
import { diffGoldens, unifiedGoldenDiff } from '../../../src/core/golden/diff.js';
import { buildGolden } from '../../../src/core/golden/golden.js';
import type { Golden } from '../../../src/core/golden/golden.js';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { asst, sys, t, user, words as text } from '../../support/artifacts.js';
import { checkResult, handReport, item, ledger, policy, realReport, TOKENIZER } from './support.js';

const P = policy();

function golden(overrides: Parameters<typeof handReport>[0] = {}, meta: Partial<Parameters<typeof buildGolden>[1]> = {}): Golden {
  return buildGolden(handReport(overrides), { transcript: 'a.jsonl', policy: P, tokenizer: TOKENIZER, ...meta });
}

describe('diffGoldens', () => {
  it('says equal, with nothing to report, for identical goldens', () => {
    const d = diffGoldens(golden(), golden());
    expect(d).toEqual({
      equal: true,
      causes: [],
      metadata: [],
      first: null,
      status: null,
      tokens: { before: 30, after: 30, delta: 0 },
      fates: [],
      contentChanged: [],
      checks: [],
    });
  });

  it('a check the golden predates is no drift while it passes, and drift once it finds something', () => {
    const before = golden();
    const base = before.checks;
    const passing = golden({ checks: [...base, checkResult('retention', 0, 'warning')] });
    const d = diffGoldens(before, passing);
    expect(d.equal).toBe(true);
    expect(d.checks).toEqual([]);
    expect(d.metadata).toEqual(['checks the golden predates: retention']);
    const finding = golden({ checks: [...base, checkResult('retention', 1, 'warning')] });
    const red = diffGoldens(before, finding);
    expect(red.equal).toBe(false);
    expect(red.checks).toEqual([{ name: 'retention', before: null, after: { ok: false, violations: 1 } }]);
    // A check the golden lists and the new run does not is still a change.
    expect(diffGoldens(passing, before).equal).toBe(false);
  });

  it('lists an artifact that changed fate, with both fates and its line', () => {
    const after = golden({
      budget: { limit: 100, used: 10 },
      context: [item('m1', 1, 'hello there', 10)],
      ledger: [
        ledger('m1', 1, 'kept', 'in_budget', 10),
        ledger('m2', 2, 'dropped', 'budget', 20),
        ledger('m3', 3, 'dropped', 'budget', 90),
      ],
    });
    const d = diffGoldens(golden(), after);
    expect(d.equal).toBe(false);
    expect(d.fates).toEqual([
      {
        id: 'm2',
        line: 2,
        before: { action: 'kept', reason: 'in_budget', tokens: 20 },
        after: { action: 'dropped', reason: 'budget', tokens: 0 },
      },
    ]);
    expect(d.tokens).toEqual({ before: 30, after: 10, delta: -20 });
    expect(d.contentChanged).toEqual([]);
  });

  it('shows artifacts that appear or disappear from the ledger as null fates, sorted by line', () => {
    const after = golden({
      ledger: [
        ledger('m0', 9, 'kept', 'in_budget', 1),
        ledger('m1', 1, 'kept', 'in_budget', 10),
        ledger('m2', 2, 'kept', 'in_budget', 20),
      ],
    });
    const d = diffGoldens(golden(), after);
    expect(d.fates.map((f) => [f.id, f.line, f.before === null, f.after === null])).toEqual([
      ['m3', 3, false, true],
      ['m0', 9, true, false],
    ]);
  });

  it('does not count a token change of a kept artifact as a fate change; a text change is content', () => {
    const after = golden({
      budget: { limit: 100, used: 32 },
      context: [item('m1', 1, 'hello there', 12), item('m2', 2, 'general [REDACTED_NAME]', 20)],
      ledger: [
        ledger('m1', 1, 'kept', 'in_budget', 12),
        ledger('m2', 2, 'kept', 'in_budget', 20),
        ledger('m3', 3, 'dropped', 'budget', 90),
      ],
    });
    const d = diffGoldens(golden(), after);
    expect(d.fates).toEqual([]);
    expect(d.contentChanged).toEqual([{ id: 'm2', line: 2 }]);
    expect(d.first).toEqual({ id: 'm2', line: 2 });
    expect(d.equal).toBe(false);
    expect(d.tokens.delta).toBe(2);
  });

  it('reports a status change', () => {
    const d = diffGoldens(golden(), golden({ status: 'warning' }));
    expect(d.status).toEqual({ before: 'ok', after: 'warning' });
  });

  it('reports checks newly failing, fixed, and changed in violation count', () => {
    const before = golden({ checks: [checkResult('budget', 0), checkResult('pii', 2), checkResult('order', 1)] });
    const after = golden({ checks: [checkResult('budget', 1), checkResult('pii', 0), checkResult('order', 3)] });
    expect(diffGoldens(before, after).checks).toEqual([
      { name: 'budget', before: { ok: true, violations: 0 }, after: { ok: false, violations: 1 } },
      { name: 'pii', before: { ok: false, violations: 2 }, after: { ok: true, violations: 0 } },
      { name: 'order', before: { ok: false, violations: 1 }, after: { ok: false, violations: 3 } },
    ]);
  });

  it('lists a check that only exists on one side', () => {
    const d = diffGoldens(golden(), golden({ checks: [checkResult('budget', 0)] }));
    expect(d.checks).toEqual([{ name: 'pii', before: { ok: true, violations: 0 }, after: null }]);
  });

  it('a changed policy that leaves the context as it was is not drift, only metadata', () => {
    const d = diffGoldens(golden(), golden({}, { policy: policy({ keep_recent: 5 }) }));
    expect(d.causes).toEqual(['policy changed']);
    expect(d.equal).toBe(true);
    expect(d.metadata).toEqual(['policy changed']);
    expect(d.fates).toEqual([]);
    expect(d.first).toBeNull();
  });

  it('token counts, the budget limit and bookkeeping alone are not drift, and are named', () => {
    const after = golden(
      {
        budget: { limit: 200, used: 33 },
        context: [item('m1', 1, 'hello there', 11), item('m2', 2, 'general kenobi', 22)],
        ledger: [
          { ...ledger('m1', 1, 'kept', 'in_budget', 11), protected_by: ['system'], detail: 'pinned' },
          ledger('m2', 2, 'kept', 'in_budget', 22),
          ledger('m3', 3, 'dropped', 'budget', 90),
        ],
      },
      { tokenizer: { name: 'gpt-tokenizer', version: '4.1.0' } },
    );
    const d = diffGoldens(golden(), after);
    expect(d.equal).toBe(true);
    expect(d.metadata).toEqual([
      'tokenizer changed: gpt-tokenizer 4.0.0 → 4.1.0',
      'token counts',
      'budget limit',
      'bookkeeping',
    ]);
  });

  it('is drift when the order changes, a fate reason changes, a check verdict or a summary verdict changes', () => {
    const base = golden();
    const reordered = golden({ context: [...base.context].reverse() });
    expect(diffGoldens(base, reordered).equal).toBe(false);
    const reason = golden({
      ledger: [
        ledger('m1', 1, 'kept', 'protected', 10),
        ledger('m2', 2, 'kept', 'in_budget', 20),
        ledger('m3', 3, 'dropped', 'budget', 90),
      ],
    });
    expect(diffGoldens(base, reason).equal).toBe(false);
    expect(diffGoldens(base, golden({ checks: [checkResult('budget', 1), checkResult('pii', 0)] })).equal).toBe(false);
    expect(diffGoldens(base, golden({ status: 'warning' })).equal).toBe(false);
  });

  it('names a changed tokenizer with both versions', () => {
    const d = diffGoldens(golden(), golden({}, { tokenizer: { name: 'gpt-tokenizer', version: '4.1.0' } }));
    expect(d.causes).toEqual(['tokenizer changed: gpt-tokenizer 4.0.0 → 4.1.0']);
    const other = diffGoldens(golden(), golden({}, { tokenizer: { name: 'tiktoken', version: '1.0.0' } }));
    expect(other.causes).toEqual(['tokenizer changed: gpt-tokenizer 4.0.0 → tiktoken 1.0.0']);
  });

  it('explains a real drift after a policy edit: budget cut drops the oldest chatter', () => {
    const session = t(
      sys('s', 'You are careful.'),
      user('u1', text(10, 'ask')),
      asst('a1', text(40, 'old')),
      user('u2', text(10, 'more')),
      asst('a2', text(10, 'reply')),
    );
    const roomy = policy({ budget: 1000, keep_recent: 1 });
    const tight = policy({ budget: 40, keep_recent: 1 });
    const meta = { transcript: 's.jsonl', tokenizer: TOKENIZER };
    const before = buildGolden(realReport(session, roomy), { ...meta, policy: roomy });
    const after = buildGolden(realReport(session, tight), { ...meta, policy: tight });
    const d = diffGoldens(before, after);
    expect(d.causes).toEqual(['policy changed']);
    expect(d.fates.map((f) => [f.id, f.before?.action, f.after?.action, f.after?.reason])).toContainEqual([
      'a1',
      'kept',
      'dropped',
      'budget',
    ]);
    expect(d.tokens.delta).toBeLessThan(0);
  });
});

describe('unifiedGoldenDiff', () => {
  it('is a unified diff of the golden against the actual text, without timestamps', () => {
    const before = stableStringify(golden());
    const after = stableStringify(golden({ status: 'warning' }));
    const patch = unifiedGoldenDiff('golden/a.jsonl.golden.json', before, after);
    const lines = patch.split('\n');
    expect(lines[0]).toBe('--- a/golden/a.jsonl.golden.json\tgolden');
    expect(lines[1]).toBe('+++ b/golden/a.jsonl.golden.json\tactual');
    expect(lines[2]).toMatch(/^@@ -\d+,7 \+\d+,7 @@$/);
    expect(lines).toContain('-  "status": "ok",');
    expect(lines).toContain('+  "status": "warning",');
    expect(patch.endsWith('\n')).toBe(true);
    expect(patch).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('honours the number of context lines and is empty for equal texts', () => {
    const before = stableStringify(golden());
    const after = stableStringify(golden({ status: 'warning' }));
    const hunk = unifiedGoldenDiff('g.json', before, after, 0).split('\n').slice(2, -1);
    expect(hunk).toHaveLength(3);
    expect(hunk[0]).toMatch(/^@@ -\d+(,1)? \+\d+(,1)? @@$/);
    expect(hunk.slice(1)).toEqual(['-  "status": "ok",', '+  "status": "warning",']);
    expect(unifiedGoldenDiff('g.json', before, before)).toBe('');
  });
});
