// The stabilizer's verdict (issue 10: no run is ok with a violation): a context that cannot be sent
// as it is escalates, with a safety event that names why and never quotes content.
import { describe, expect, it } from 'vitest';
import { art, asst, call, result, sys, t, user } from '../../support/artifacts.js';
import { check, policy, run } from './helpers.js';

const EMAIL = 'lena.verdict@example.org';

function codes(r: ReturnType<typeof run>): string[] {
  return r.events.filter((e) => e.level === 'safety').map((e) => e.code);
}

describe('verdict', () => {
  it('escalates a context with no conversation', () => {
    const tr = t(sys('s', 'You are helpful.'));
    const p = policy();
    const r = run(tr, p);
    expect(r.status).toBe('escalated');
    expect(codes(r)).toEqual(['empty_context']);
    expect(check(tr, r, p)['nonempty']).toMatchObject({ ok: false });
  });

  it('escalates a request the target API refuses, at the message that breaks it', () => {
    // An unsigned thinking block in the open tool loop: it must be passed back as the model wrote it,
    // and the API refuses it without its signature. No repair can make that request valid.
    const tr = t(
      user('u', 'Refund me.'),
      art('assistant', 'a', [{ type: 'thinking', thinking: 'Check the order first.' }], {
        tool_calls: [call('c', 'get_order', { id: 7 })],
      }),
      result('r', 'c', 'order 7: paid'),
    );
    const p = policy({ target: 'anthropic' });
    const r = run(tr, p);
    expect(r.status).toBe('escalated');
    expect(r.events).toContainEqual(expect.objectContaining({ code: 'provider_rejects', id: 'a' }));
    expect(r.events.find((e) => e.code === 'provider_rejects')?.message).toContain('anthropic-block-shape');
    expect(check(tr, r, p)['provider']).toMatchObject({ ok: false });
  });

  it('repairs a request that opens with an assistant turn instead of escalating it', () => {
    const tr = t(asst('a', 'Hello! How can I help?'), user('u', 'Refund me.'));
    const p = policy({ target: 'anthropic' });
    const r = run(tr, p);
    expect(r.status).toBe('ok');
    expect(r.events).toContainEqual(expect.objectContaining({ code: 'repaired', id: 'a' }));
    expect(r.events.map((e) => e.code)).not.toContain('provider_rejects');
    expect(check(tr, r, p)['provider']).toMatchObject({ ok: true });
    // OpenAI takes an assistant turn first: nothing to repair.
    const openai = run(tr, policy({ target: 'openai' }));
    expect(openai.status).toBe('ok');
    expect(openai.events.map((e) => e.code)).not.toContain('repaired');
  });

  it('escalates PII the masker did not reach: a detector the policy turned off', () => {
    const tr = t(user('u', `Write to ${EMAIL}.`), asst('a', 'Done.'));
    const p = policy({ pii: { detectors: ['phone'] } });
    const r = run(tr, p);
    expect(r.status).toBe('escalated');
    expect(r.events).toContainEqual(expect.objectContaining({ code: 'pii_unmasked', id: 'u' }));
    expect(check(tr, r, p)['pii']).toMatchObject({ ok: false });
    expect(JSON.stringify(r.events)).not.toContain(EMAIL);
    // With the detector on, the value is masked and the run is ok.
    expect(run(tr, policy()).status).toBe('ok');
  });

  it('masks PII in a document (text and title), so the run is ok', () => {
    const tr = t(
      user('u', [
        { type: 'text', text: 'The contract:' },
        {
          type: 'document',
          title: `From ${EMAIL}`,
          source: { type: 'text', media_type: 'text/plain', data: `Signed ${EMAIL}` },
        },
      ]),
      asst('a', 'Noted.'),
    );
    const r = run(tr, policy());
    expect(r.status).toBe('ok');
    expect(codes(r)).not.toContain('pii_unmasked');
    expect(JSON.stringify(r.context)).not.toContain(EMAIL);
    expect(JSON.stringify(r.context)).toContain('Signed [EMAIL_1]');
  });
});
