// PII in the fields that are not content (issue 11): ids become aliases that still pair, names,
// scopes and provenance follow them, labels and meta are masked, and nothing else changes.
import { describe, expect, it } from 'vitest';
import { checkDetectors } from '../../../src/core/pii/registry.js';
import { sanitizeTranscript } from '../../../src/core/pii/sanitize-transcript.js';
import { calls, phase, result, summary, t, user } from '../../support/artifacts.js';
import { check, policy, run } from '../stabilize/helpers.js';

const S = {
  detectors: checkDetectors({ detectors: [], digit_run: 0, rules: [] }),
  allow: [] as string[],
  replacement: '[REDACTED_{TYPE}]',
};
const EMAIL = 'ann.lee@example.org';
const PHONE = '+44 20 7946 0958';

function leaky() {
  const tr = t(
    phase(`p-${EMAIL}`, { task: `refund for ${EMAIL}`, phase: `call ${PHONE}` }),
    user(`u-${EMAIL}`, 'Hi.', { tags: ['decision', `who:${EMAIL}`] }),
    calls('a1', [{ id: `call-${PHONE}`, name: `crm_${EMAIL}`, arguments: '{}' }]),
    result('r1', `call-${PHONE}`, 'ok', { tool: `crm_${EMAIL}` }),
    summary('s1', 'summary', [`u-${EMAIL}`, 'a1']),
    user('u2', 'Thanks.', { scope: { task: `refund for ${EMAIL}` } }),
  );
  tr.meta = {
    session: `s-${EMAIL}`,
    history: [{ id: `old-${PHONE}`, kind: 'tool' }],
    nested: { [EMAIL]: 1 },
  };
  return tr;
}

describe('sanitizeTranscript', () => {
  it('leaves a transcript without PII in its labels as the same object', () => {
    const tr = t(user('u1', `mail ${EMAIL}`), calls('a1', [{ id: 'c1', name: 'bash', arguments: '{}' }]));
    expect(sanitizeTranscript(tr, S)).toBe(tr);
  });

  it('removes PII from every field that is not content, and keeps content for the masker', () => {
    const out = sanitizeTranscript(leaky(), S);
    const text = JSON.stringify({ artifacts: out.artifacts, meta: out.meta, pairing: out.pairing });
    expect(text).not.toContain('ann.lee');
    expect(text).not.toContain('7946');
  });

  it('gives the same value the same alias everywhere, so pairing, provenance and scopes hold', () => {
    const out = sanitizeTranscript(leaky(), S);
    const [p, u, a, r, s, u2] = out.artifacts;
    expect(p?.id).toBe('redacted-id-a');
    expect(p?.scope).toEqual({ task: 'redacted-task-a', phase: 'redacted-phase-a' });
    expect(u?.id).toBe('redacted-id-b');
    expect(u?.tags).toEqual(['decision', 'who:[REDACTED_EMAIL]']);
    expect(a?.tool_calls?.[0]).toMatchObject({ id: 'redacted-id-c', name: 'redacted_tool_a' });
    expect(r).toMatchObject({ call_id: 'redacted-id-c', tool: 'redacted_tool_a' });
    expect(s?.provenance).toEqual(['redacted-id-b', 'a1']);
    expect(u2?.scope?.task).toBe('redacted-task-a');
    expect(out.pairing.resultToCall).toEqual({ r1: 'a1' });
    expect(out.meta).toEqual({
      session: '[REDACTED_EMAIL]',
      history: [{ id: 'redacted-id-d', kind: 'tool' }],
      nested: { '[REDACTED_EMAIL]': 1 },
    });
  });

  it('is idempotent and never reuses an id the transcript already has', () => {
    const tr = t(user('redacted-id-a', 'x'), user(`u-${EMAIL}`, 'y'));
    const once = sanitizeTranscript(tr, S);
    expect(once.artifacts.map((x) => x.id)).toEqual(['redacted-id-a', 'redacted-id-b']);
    expect(sanitizeTranscript(once, S)).toBe(once);
  });

  it('the stabilizer applies it: no output of a run holds the values, and every check passes', () => {
    const tr = leaky();
    const P = policy();
    const r = run(tr, P);
    expect(JSON.stringify(r)).not.toContain('ann.lee');
    expect(JSON.stringify(r)).not.toContain('7946');
    const checks = check(tr, r, P);
    expect(checks['pii']?.ok).toBe(true);
    expect(checks['pairing']?.ok).toBe(true);
  });
});
