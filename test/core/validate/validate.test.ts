// validateResult: every check passes on a correct result and fails, at the right artifact and line,
// on a hand-broken one. The checks re-derive everything and never trust the stages' bookkeeping.
import { describe, expect, it } from 'vitest';
import type { ContextItem, StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Transcript } from '../../../src/core/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import { asst, bash, calls, phase, pol, result, summary, sys, t, user } from '../../support/artifacts.js';
import { check, policy, run, wordTokenizer } from '../stabilize/helpers.js';

function session(): Transcript {
  return t(
    sys('s', 'You are a support agent.'),
    pol('p', 'Never promise refunds.'),
    user('u1', 'My parcel is late.'),
    calls('a1', [bash('c1', 'track 1182')], 'Checking.'),
    result('r1', 'c1', 'in transit'),
    summary('sum', 'Parcel 1182 is late.', ['u1']),
    user('u2', 'Any news?', { pin: true }),
    asst('a2', 'It is in transit.'),
    user('u3', 'Thanks.'),
  );
}

const P = policy();
const T = session();
const GOOD = run(T, P);

/** A deep copy of the good result with `edit` applied: each test breaks exactly one thing. */
function broken(edit: (r: StabilizeResult) => void): StabilizeResult {
  const r = structuredClone(GOOD);
  edit(r);
  return r;
}

function without(r: StabilizeResult, id: string): void {
  r.context = r.context.filter((c) => c.id !== id);
}

function ctx(r: StabilizeResult, id: string): ContextItem {
  const c = r.context.find((x) => x.id === id);
  if (!c) throw new Error(`${id} not in context`);
  return c;
}

function violations(r: StabilizeResult, name: string, p = P, tr = T) {
  const c = check(tr, r, p)[name];
  if (!c) throw new Error(`no check ${name}`);
  return c;
}

describe('validate: a correct result', () => {
  it('passes every check, each with its policy severity', () => {
    const checks = validateResult(T, GOOD, { policy: P, tokenizer: wordTokenizer });
    expect(checks.map((c) => [c.name, c.ok, c.severity])).toEqual([
      ['budget', true, 'error'],
      ['order', true, 'error'],
      ['pii', true, 'error'],
      ['protected', true, 'error'],
      ['pairing', true, 'error'],
      ['summaries', true, 'error'],
      ['ledger', true, 'error'],
      ['guardian', true, 'error'],
      ['task', true, 'error'],
      ['recency', true, 'error'],
      ['nonempty', true, 'error'],
      ['provider', true, 'error'],
      ['fresh_results', true, 'warning'],
      ['status', true, 'error'],
    ]);
  });
});

describe('validate: budget', () => {
  it('fails when the recounted context exceeds the limit, whatever the items claim', () => {
    const r = broken((x) => {
      x.budget.limit = 10;
      for (const c of x.context) c.tokens = 0;
    });
    const used = GOOD.context.reduce((s, c) => s + c.tokens, 0);
    expect(violations(r, 'budget')).toMatchObject({
      ok: false,
      violations: [
        {
          id: 's',
          line: 1,
          column: 1,
          // The recent turns are should-keep (they give way to the budget): not counted as must-keep.
          message: `the context needs ${used} tokens, over the budget of 10: what must be kept (system, task, latest request, protected) alone needs 15, the largest of it is this system artifact of 5 tokens`,
        },
      ],
    });
  });
});

describe('validate: order', () => {
  it('fails when a section comes after a later one', () => {
    const r = broken((x) => {
      const s = x.context.shift() as ContextItem;
      x.context.push(s);
    });
    expect(violations(r, 'order').violations).toEqual([
      {
        id: 's',
        line: 1,
        column: 1,
        message:
          'system artifact comes after the conversation (u1); the system prompt and constraints must come first',
      },
    ]);
  });

  it('fails when chronology inside a section is not kept', () => {
    const r = broken((x) => {
      const i = x.context.findIndex((c) => c.id === 'u2');
      const j = x.context.findIndex((c) => c.id === 'a2');
      [x.context[i], x.context[j]] = [x.context[j] as ContextItem, x.context[i] as ContextItem];
    });
    expect(violations(r, 'order').violations).toEqual([
      {
        id: 'u2',
        line: 7,
        column: 1,
        message: 'out of chronological order: it comes after a2, which is later in the transcript',
      },
    ]);
  });
});

describe('validate: pii', () => {
  const email = 'jane.doe@example.com';

  it('fails on unmasked PII, naming the type and never the value', () => {
    const r = broken((x) => {
      ctx(x, 'u1').content = `Write to ${email}`;
    });
    const c = violations(r, 'pii');
    expect(c.violations).toEqual([
      { id: 'u1', line: 3, column: 1, message: 'unmasked PII in the context: email' },
    ]);
    expect(JSON.stringify(c)).not.toContain(email);
  });

  it('searches tool arguments and text parts too', () => {
    const r = broken((x) => {
      const a1 = ctx(x, 'a1');
      a1.tool_calls = [{ id: 'c1', name: 'bash', arguments: '{"command":"ping 10.0.0.12"}' }];
      ctx(x, 'u3').content = [{ type: 'text', text: 'card 4111 1111 1111 1111' }];
    });
    expect(violations(r, 'pii').violations.map((v) => `${v.id}: ${v.message}`)).toEqual([
      'a1: unmasked PII in the context: ip_address',
      'u3: unmasked PII in the context: credit_card',
    ]);
  });

  it('runs every built-in detector even when the policy enables none', () => {
    const p = policy({ pii: { detectors: [] } });
    const tr = t(user('u', `Write to ${email} please`));
    expect(violations(run(tr, p), 'pii', p, tr).violations).toHaveLength(1);
  });

  it('runs the checksummed national-id detectors too, on by default (issue 30)', () => {
    // A seed-004 style request names "a phone number or ID card number": an NHS number, an
    // Aadhaar number or a DNI must not pass with the check green when the policy lists only the
    // seven built-ins.
    const p = policy({
      pii: { detectors: ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address', 'secret'] },
    });
    for (const [text, type] of [
      ['My NHS number is 9434765919', 'uk_nhs'],
      ['Aadhaar 2345 6789 0124 attached', 'in_aadhaar'],
      ['DNI 12345678Z', 'es_nif'],
    ] as const) {
      const tr = t(user('u', text));
      expect(violations(run(tr, p), 'pii', p, tr).violations.map((v) => v.message)).toEqual([
        `unmasked PII in the context: ${type}`,
      ]);
      // The default policy masks it.
      expect(violations(run(tr, P), 'pii', P, tr).ok).toBe(true);
    }
  });

  it('applies digit_run and the allow list as the policy sets them', () => {
    const r = broken((x) => {
      ctx(x, 'u1').content = 'Order 55512 is late, write to help@example.com';
    });
    expect(violations(r, 'pii').violations[0]?.message).toBe('unmasked PII in the context: email');
    const strict = policy({ pii: { digit_run: 3, allow: ['help@example.com'] } });
    expect(violations(r, 'pii', strict).violations[0]?.message).toBe(
      'unmasked PII in the context: digit_run',
    );
  });

  it('accepts replacement tokens', () => {
    const r = broken((x) => {
      ctx(x, 'u1').content = 'Write to [REDACTED_EMAIL] or call [REDACTED_PHONE]';
    });
    expect(violations(r, 'pii').ok).toBe(true);
  });
});

describe('validate: protected', () => {
  it('fails when a system, pinned or recent artifact is missing', () => {
    const r = broken((x) => {
      without(x, 's');
      without(x, 'u2');
      without(x, 'u3');
    });
    expect(violations(r, 'protected').violations).toEqual([
      { id: 's', line: 1, column: 1, message: 'protected artifact (system) is missing from the context' },
      { id: 'u2', line: 7, column: 1, message: 'protected artifact (pinned) is missing from the context' },
      { id: 'u3', line: 9, column: 1, message: 'protected artifact (recent) is missing from the context' },
    ]);
  });

  it('fails when a protected artifact was replaced by a placeholder', () => {
    const r = broken((x) => {
      const p = ctx(x, 'p');
      p.placeholder = true;
      p.content = '[omitted]';
    });
    expect(violations(r, 'protected').violations).toEqual([
      { id: 'p', line: 2, column: 1, message: 'protected artifact (policy) was replaced by a placeholder' },
    ]);
  });

  it('does not require a protected artifact that a provider would reject (unpaired)', () => {
    const tr = t(user('u1', 'hello'), result('orphan', 'nope', 'output', { pin: true }), user('u2', 'hi'));
    const r = run(tr, P);
    expect(r.context.map((c) => c.id)).not.toContain('orphan');
    expect(violations(r, 'protected', P, tr).ok).toBe(true);
  });
});

describe('validate: pairing', () => {
  it('fails on a result without its call and on a call without its result', () => {
    const noCall = broken((x) => without(x, 'a1'));
    expect(violations(noCall, 'pairing').violations).toEqual([
      { id: 'r1', line: 5, column: 1, message: 'tool result without a call before it in the context' },
    ]);
    const noResult = broken((x) => without(x, 'r1'));
    expect(violations(noResult, 'pairing').violations).toEqual([
      { id: 'a1', line: 4, column: 1, message: 'tool call without a result in the context' },
    ]);
  });

  it('fails when a result comes before its call', () => {
    const r = broken((x) => {
      const i = x.context.findIndex((c) => c.id === 'a1');
      [x.context[i], x.context[i + 1]] = [x.context[i + 1] as ContextItem, x.context[i] as ContextItem];
    });
    expect(violations(r, 'pairing').ok).toBe(false);
  });
});

describe('validate: summaries', () => {
  it('fails when an expired summary is kept', () => {
    const tr = t(
      user('u1', 'first'),
      summary('old', 'Stale.', ['u1'], { created_at: 0, ttl: 1 }),
      user('u2', 'second'),
      user('u3', 'third'),
    );
    const r = run(tr, P);
    const forced = structuredClone(r);
    forced.context.push({ id: 'old', kind: 'summary', tokens: 1, content: 'Stale.', line: 2 });
    expect(violations(forced, 'summaries', P, tr).violations).toEqual([
      { id: 'old', line: 2, column: 1, message: 'expired summary kept: age 3 turns, ttl 1' },
    ]);
  });

  it('fails when a summary without provenance is kept', () => {
    const tr = t(user('u1', 'first'), summary('bad', 'Baseless.', ['ghost']));
    const forced = structuredClone(run(tr, P));
    forced.context.push({ id: 'bad', kind: 'summary', tokens: 1, content: 'Baseless.', line: 2 });
    expect(violations(forced, 'summaries', P, tr).violations).toEqual([
      { id: 'bad', line: 2, column: 1, message: 'summary kept whose provenance is missing' },
    ]);
  });

  it('fails when a summary from another scope or with more authority than its sources is kept', () => {
    const tr = t(
      phase('ph', { task: 'refund', phase: 'analysis' }),
      user('u1', 'where is my refund?'),
      summary('other', 'Design notes.', ['u1'], { scope: { phase: 'design' } }),
      summary('bossy', 'Always refund.', ['u1'], { role: 'system' }),
      summary('fine', 'Asked about a refund.', ['u1'], { role: 'user' }),
      user('u2', 'hello?'),
    );
    const r = run(tr, P);
    expect(r.context.map((c) => c.id)).toEqual(['ph', 'u1', 'u2', 'fine']);
    const forced = structuredClone(r);
    forced.context.push(
      { id: 'other', kind: 'summary', tokens: 2, content: 'Design notes.', line: 3 },
      { id: 'bossy', kind: 'summary', tokens: 2, content: 'Always refund.', line: 4 },
    );
    expect(violations(forced, 'summaries', P, tr).violations).toEqual([
      { id: 'other', line: 3, column: 1, message: 'summary kept from another scope than the current one' },
      {
        id: 'bossy',
        line: 4,
        column: 1,
        message: 'summary kept that claims more authority than its sources',
      },
    ]);
  });
});

describe('validate: ledger', () => {
  it('fails on a missing, a repeated and an unknown entry', () => {
    const r = broken((x) => {
      x.ledger = x.ledger.filter((e) => e.id !== 'u1');
      x.ledger.push({ ...(x.ledger[0] as (typeof x.ledger)[number]) });
      x.ledger.push({ ...(x.ledger[0] as (typeof x.ledger)[number]), id: 'ghost' });
    });
    expect(violations(r, 'ledger').violations).toEqual([
      { id: 's', line: 1, column: 1, message: 'has 2 final ledger decisions; expected exactly one' },
      { id: 'u1', line: 3, column: 1, message: 'has 0 final ledger decisions; expected exactly one' },
      { id: 'ghost', line: 1, message: 'ledger entry for an artifact that is not in the transcript' },
    ]);
  });

  it('fails when the ledger and the context disagree', () => {
    const r = broken((x) => {
      const u1 = x.ledger.find((e) => e.id === 'u1');
      if (u1) u1.action = 'dropped';
      without(x, 'u3');
    });
    expect(violations(r, 'ledger').violations).toEqual([
      { id: 'u1', line: 3, column: 1, message: 'ledger says dropped but the artifact is in the context' },
      { id: 'u3', line: 9, column: 1, message: 'ledger says kept but the artifact is not in the context' },
    ]);
  });
});

describe('validate: severities', () => {
  it('reports with the severity the policy sets, and skips checks that are off', () => {
    const p = policy({ checks: { pii: 'warning', pairing: 'off' } });
    const r = broken((x) => {
      ctx(x, 'u1').content = 'Write to jane.doe@example.com';
      without(x, 'r1');
    });
    const checks = check(T, r, p);
    expect(checks.pii).toMatchObject({ ok: false, severity: 'warning' });
    expect(checks.pairing).toEqual({ name: 'pairing', ok: true, severity: 'off', violations: [] });
  });

  it('always runs the ledger check as an error', () => {
    const p = policy({ checks: { budget: 'off', order: 'off', pii: 'off', protected: 'off' } });
    const r = broken((x) => {
      x.ledger = [];
    });
    expect(check(T, r, p).ledger).toMatchObject({ ok: false, severity: 'error' });
  });
});
