// Thinking blocks that hold PII: a signed block cannot be masked, so it is left out wherever the API
// allows (every turn but the last assistant turn of an open tool loop); there the `pii` check fails.
import { describe, expect, it } from 'vitest';
import { asst, call, calls, result, t, user } from '../../support/artifacts.js';
import { check, entry, fate, item, policy, run } from './helpers.js';

const EMAIL = 'mira.thinking@example.org';
const P = policy({ budget: 1000 });

function thought(text: string) {
  return { type: 'thinking', thinking: text, signature: 'sig-abc' };
}

describe('thinking that holds PII', () => {
  it('is left out of an earlier turn, with the rest of the message and a ledger reason', () => {
    const tr = t(
      user('u1', 'Who asked?'),
      asst('a1', [
        thought(`The user is ${EMAIL}.`),
        thought('Plain reasoning.'),
        { type: 'text', text: 'Someone.' },
      ]),
      user('u2', 'Thanks.'),
    );
    const r = run(tr, P);
    expect(item(r, 'a1').content).toEqual([thought('Plain reasoning.'), { type: 'text', text: 'Someone.' }]);
    expect(entry(r, 'a1')).toMatchObject({
      stage: 'pii',
      action: 'masked',
      reason: 'pii_thinking',
      pii: { email: 1 },
    });
    expect(JSON.stringify(r)).not.toContain(EMAIL);
    expect(r.events.map((e) => e.code)).toContain('pii_thinking');
    expect(Object.values(check(tr, r, P)).filter((c) => !c.ok)).toEqual([]);
  });

  it('leaves an assistant that held only that thinking out of the context', () => {
    const tr = t(user('u1', 'Hi.'), asst('a1', [thought(`Mail ${EMAIL}.`)]), user('u2', 'Still there?'));
    const r = run(tr, P);
    expect(fate(r, 'a1')).toBe('dropped/pii_thinking');
  });

  it('stays in the last assistant turn of an open tool loop, and the pii check fails there', () => {
    const tr = t(
      user('u1', 'Look the account up.'),
      { ...calls('a1', [call('c1', 'lookup', { q: 'account' })]), content: [thought(`It is ${EMAIL}.`)] },
      result('r1', 'c1', 'found'),
    );
    const r = run(tr, P);
    expect(item(r, 'a1').content).toEqual([thought(`It is ${EMAIL}.`)]);
    expect(entry(r, 'a1').reason).not.toBe('pii_thinking');
    expect(check(tr, r, P)['pii']).toMatchObject({ ok: false });
  });
});
