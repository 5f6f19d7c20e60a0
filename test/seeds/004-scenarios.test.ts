// Seed 004 ("Long Session Stability Harness") key scenarios 1, 2 and 4 under the default policy and
// the o200k tokenizer, each with the context it must produce. Scenario 3 (a verbose tool output
// must be dropped to stay within budget, even when it is the newest result of its tool) needs the
// budget as a hard limit with excerpts of protected evidence: issue 10, not done yet.
import { beforeAll, describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import { DEFAULT_POLICY } from '../../src/core/policy/index.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { asst, sys, t, user } from '../support/artifacts.js';
import { check, ids, run } from '../core/stabilize/helpers.js';

let o200k: Tokenizer;
beforeAll(async () => {
  o200k = await loadTokenizer('o200k_base');
});

const SYSTEM = 'You are the billing assistant of Acme. Never promise refunds; escalate disputes to a human.';

describe('seed 004, scenario 1: a long conversation', () => {
  it('keeps the system prompt, the task and the latest request within the budget, all checks passing', () => {
    const turns = [];
    for (let i = 0; i < 300; i++) {
      turns.push(
        user(`u${i}`, `Question ${i}: what does line ${i} of invoice 7 mean, and is the amount right?`),
      );
      turns.push(
        asst(`a${i}`, `Line ${i} is a usage charge for week ${i % 52}; the amount matches the tariff.`),
      );
    }
    const tr = t(
      sys('s', SYSTEM),
      ...turns,
      user('last', 'Thanks. Now please explain the late fee on the last page.'),
    );
    const r = run(tr, DEFAULT_POLICY, o200k);
    const kept = ids(r);
    expect(kept[0]).toBe('s');
    expect(kept).toContain('u0'); // the task statement: the first user message
    expect(kept.at(-1)).toBe('last'); // the latest request, last in chronology
    expect(r.budget.used).toBeLessThanOrEqual(8000);
    expect(r.context.length).toBeLessThan(tr.artifacts.length);
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, DEFAULT_POLICY, o200k)).filter((c) => !c.ok)).toEqual([]);
  });
});

describe('seed 004, scenario 2: PII pasted into the chat', () => {
  it('masks a phone number and an ID number before the model sees them', () => {
    const tr = t(
      sys('s', SYSTEM),
      user('u1', 'My invoice is wrong. Call me at +1 415 555 2671; my SSN is 078-05-1120 if you need it.'),
      asst('a1', 'I will look at the invoice now.'),
    );
    const r = run(tr, DEFAULT_POLICY, o200k);
    const text = JSON.stringify(emitContext(r.context, 'openai'));
    expect(text).not.toContain('415 555 2671');
    expect(text).not.toContain('078-05-1120');
    expect(text).toContain('[REDACTED_PHONE]');
    expect(text).toContain('[REDACTED_SSN]');
    expect(r.ledger.find((e) => e.id === 'u1')).toMatchObject({
      action: 'masked',
      pii: { phone: 1, ssn: 1 },
    });
    expect(check(tr, r, DEFAULT_POLICY, o200k)['pii']).toMatchObject({ ok: true });
  });
});

describe('seed 004, scenario 4: control degradation', () => {
  const tr = t(
    sys('s', SYSTEM),
    user('u1', 'Why was I charged twice?'),
    asst('a1', 'Let me check.'),
    user('u2', 'Any news?'),
  );

  it('fails when the system prompt was pushed out of the context', () => {
    const r = run(tr, DEFAULT_POLICY, o200k);
    const broken = { ...structuredClone(r), context: r.context.filter((c) => c.id !== 's') };
    broken.ledger = broken.ledger.map((e) =>
      e.id === 's' ? { ...e, action: 'dropped', reason: 'budget', tokens_after: 0 } : e,
    );
    expect(check(tr, broken, DEFAULT_POLICY, o200k)['protected']).toMatchObject({
      ok: false,
      violations: [expect.objectContaining({ id: 's', line: 1 })],
    });
  });

  it('fails when the system prompt no longer comes first', () => {
    const r = run(tr, DEFAULT_POLICY, o200k);
    const moved = { ...structuredClone(r) };
    moved.context = [...r.context.filter((c) => c.id !== 's'), ...r.context.filter((c) => c.id === 's')];
    expect(check(tr, moved, DEFAULT_POLICY, o200k)['order']).toMatchObject({ ok: false });
  });
});
