// Stage 10 (order): sections in the policy's `order`, original chronology inside each section.
import { describe, expect, it } from 'vitest';
import { asst, phase, pol, retrieval, summary, sys, task, t, user } from '../../support/artifacts.js';
import { check, ids, policy, run } from './helpers.js';

function mixed() {
  return t(
    user('u1', 'hello'),
    sys('s1', 'You are a support agent.'),
    summary('sum', 'Earlier: the user greeted us.', ['u1']),
    phase('ph', { task: 'resolve_ticket', phase: 'analysis' }),
    task('tk', 'Resolve ticket 42.'),
    pol('p1', 'Never share internal notes.'),
    retrieval('kb', 'KB article: resetting passwords.'),
    asst('a1', 'How can I help?'),
    sys('s2', 'Answer in English.'),
    user('u2', 'my password expired'),
  );
}

describe('order', () => {
  it('puts constraints first by default: system, policy, task, conversation, summaries', () => {
    expect(ids(run(mixed()))).toEqual(['s1', 's2', 'p1', 'ph', 'tk', 'u1', 'kb', 'a1', 'u2', 'sum']);
  });

  it('follows a custom order of all five sections', () => {
    const p = policy({ order: ['policy', 'system', 'task', 'summaries', 'conversation'] });
    const tr = mixed();
    const r = run(tr, p);
    expect(ids(r)).toEqual(['p1', 's1', 's2', 'ph', 'tk', 'sum', 'u1', 'kb', 'a1', 'u2']);
    expect(check(tr, r, p).order).toMatchObject({ ok: true });
  });

  it('places the sections a custom order leaves out after it, in the default order', () => {
    const r = run(mixed(), policy({ order: ['system', 'policy', 'task', 'summaries'] }));
    expect(ids(r)).toEqual(['s1', 's2', 'p1', 'ph', 'tk', 'sum', 'u1', 'kb', 'a1', 'u2']);
  });

  it('is checked against the policy that produced it', () => {
    const tr = mixed();
    const r = run(tr, policy({ order: ['system', 'policy', 'task', 'summaries', 'conversation'] }));
    expect(check(tr, r, policy()).order?.ok).toBe(false);
  });

  it('refuses an order that breaks the invariant: system and constraints, then the task, first', () => {
    expect(() => policy({ order: ['summaries', 'conversation', 'task', 'policy', 'system'] })).toThrow(
      /task comes before system.*the system prompt and constraints must come first/,
    );
  });
});
