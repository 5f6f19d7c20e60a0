// Stage 2 (scope): phase markers set the scope; artifacts of an earlier task leave unless the author
// or the policy protects them; a marker that names nothing makes the reset ambiguous (escalated).
import { describe, expect, it } from 'vitest';
import { asst, bash, calls, phase, pol, result, sys, task, t, user } from '../../support/artifacts.js';
import { check, entry, fate, ids, policy, run } from './helpers.js';

function twoTasks() {
  return t(
    sys('s', 'You are a support agent.'),
    phase('p1', { task: 'refund', phase: 'analysis' }),
    task('t1', 'Refund order 1182.'),
    user('u1', 'I want my money back for order 1182.'),
    calls('a1', [bash('c1', 'orders show 1182')]),
    result('r1', 'c1', 'order 1182: shipped'),
    asst('d1', 'Refund approved for order 1182.', { tags: ['decision'] }),
    user('keep', 'Remember: never call me before noon.', { pin: true }),
    pol('rule', 'Refunds over 100 need a manager.'),
    phase('p2', { task: 'address_change', phase: 'analysis' }),
    task('t2', 'Change the delivery address.'),
    user('u2', 'Please ship my next order to my office instead.'),
    asst('a2', 'Sure, what is the office address?'),
  );
}

describe('scope reset', () => {
  it('drops the artifacts of an earlier task, with their tool units', () => {
    const r = run(twoTasks());
    for (const id of ['p1', 't1', 'u1', 'a1']) expect(fate(r, id)).toBe('dropped/scope_reset');
    // The result leaves with the call it answers.
    expect(fate(r, 'r1')).toBe('dropped/pair_unit');
    expect(entry(r, 'u1').detail).toBe('belongs to task "refund", the current task is "address_change"');
    expect(r.events).toContainEqual(
      expect.objectContaining({
        level: 'major',
        code: 'scope_reset',
        message: 'scope reset to task "address_change" dropped 4 artifacts of earlier tasks',
      }),
    );
  });

  it('keeps system, policy, pinned and protected-tag artifacts of an earlier task', () => {
    const r = run(twoTasks());
    expect(ids(r)).toEqual(['s', 'rule', 'p2', 't2', 'd1', 'keep', 'u2', 'a2']);
    expect(entry(r, 'd1').protected_by).toEqual(['tag:decision']);
    // Pinned, and a user message: the second newest turn of what the reset left (keep_recent 2).
    expect(entry(r, 'keep').protected_by).toEqual(['pinned', 'recent']);
  });

  it('passes every check: the task of an earlier task is not required any more', () => {
    const tr = twoTasks();
    const p = policy();
    const failing = Object.values(check(tr, run(tr, p), p)).filter((c) => !c.ok);
    expect(failing).toEqual([]);
  });

  it('keeps everything when the task stays the same and only the phase changes', () => {
    const tr = t(
      phase('p1', { task: 'refund', phase: 'analysis' }),
      user('u1', 'what happened to order 1182?'),
      phase('p2', { phase: 'resolution' }),
      user('u2', 'ok, refund it'),
    );
    const r = run(tr);
    expect(ids(r)).toEqual(['p1', 'p2', 'u1', 'u2']);
    expect(r.events.map((e) => e.code)).not.toContain('scope_reset');
  });

  it('keeps the current task when the session switches away and back', () => {
    const tr = t(
      phase('p1', { task: 'refund' }),
      user('u1', 'refund order 1182 please'),
      phase('p2', { task: 'address_change' }),
      user('u2', 'also change my address'),
      phase('p3', { task: 'refund' }),
      user('u3', 'back to the refund'),
    );
    const r = run(tr, policy({ keep_recent: 0 }));
    expect(fate(r, 'u1')).toBe('kept/in_budget');
    expect(fate(r, 'u2')).toBe('dropped/scope_reset');
    expect(fate(r, 'p2')).toBe('dropped/scope_reset');
  });

  it('drops nothing when the transcript has no phase marker', () => {
    const tr = t(user('u1', 'hello'), asst('a1', 'hi'), user('u2', 'bye'));
    expect(ids(run(tr))).toEqual(['u1', 'a1', 'u2']);
  });
});

describe('ambiguous scope', () => {
  it('escalates and resets nothing when a phase marker names neither a task nor a phase', () => {
    const tr = t(
      sys('s', 'You are a support agent.'),
      phase('p1', { task: 'refund' }),
      user('u1', 'refund order 1182 please'),
      phase('p2', {}),
      phase('p3', { task: 'address_change' }),
      user('u2', 'change my address'),
    );
    const r = run(tr);
    expect(r.status).toBe('escalated');
    expect(r.events).toContainEqual({
      level: 'safety',
      code: 'scope_ambiguous',
      message: 'scope reset is ambiguous: phase marker p2 (line 4) names neither a task nor a phase',
    });
    expect(ids(r)).toEqual(['s', 'p1', 'p2', 'p3', 'u1', 'u2']);
    expect(r.ledger.map((e) => e.reason)).not.toContain('scope_reset');
  });

  it('reports the escalation even at notification level quiet', () => {
    const tr = t(phase('p1', {}), user('u1', 'hello'));
    const r = run(tr, policy({ resilience: { notification_level: 'quiet' } }));
    expect(r.events.map((e) => e.code)).toEqual(['scope_ambiguous']);
  });
});
