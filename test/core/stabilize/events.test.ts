// Notification levels (seed 002): quiet shows only what could alter execution safety, normal adds major
// pruning and recovery events, verbose adds one event per decision and the protected count.
import { describe, expect, it } from 'vitest';
import { asst, bash, calls, result, sys, t, user, words } from '../../support/artifacts.js';
import { policy, run } from './helpers.js';

const SSN = '123-45-6789';

function session() {
  return t(
    sys('s', 'You are a support agent.'),
    user('u1', `My SSN is ${SSN}, and ${words(8)}`, { pin: true }),
    calls('a1', [bash('c1', 'npm test')]),
    result('r1', 'c1', 'partial'),
    calls('a2', [bash('c2', 'npm test')]),
    result('r2', 'c2', 'ok'),
    user('u2', words(6)),
    asst('a3', words(6)),
    user('u3', 'next'),
  );
}

/** Budget 16: the protected part (system, pinned u1, latest npm test unit, recent pair) cannot fit. */
function at(level: 'quiet' | 'normal' | 'verbose') {
  return run(session(), policy({ budget: 16, keep_recent: 1, resilience: { notification_level: level } }));
}

describe('notification levels', () => {
  it('quiet: only safety events', () => {
    const r = at('quiet');
    expect(r.status).toBe('escalated');
    expect(r.events.map((e) => `${e.level}:${e.code}`)).toEqual(['safety:protected_over_budget']);
  });

  it('normal: safety and major events, no per-artifact detail', () => {
    const r = at('normal');
    expect(r.events.map((e) => `${e.level}:${e.code}`)).toEqual([
      'major:superseded',
      'safety:protected_over_budget',
      'major:budget',
    ]);
  });

  it('verbose: one event per decision, and how many protected artifacts were preserved', () => {
    const r = at('verbose');
    const detail = r.events.filter((e) => e.level === 'detail');
    expect(detail.map((e) => e.code)).toEqual([
      'masked:pii',
      'dropped:pair_unit',
      'dropped:superseded',
      'dropped:budget',
      'dropped:budget',
      'protected_preserved',
    ]);
    expect(detail.find((e) => e.id === 'u2')?.message).toBe(
      'u2 (line 7) dropped: budget — no room left after protected artifacts',
    );
    expect(detail.at(-1)?.message).toBe('5 protected artifacts preserved');
    // The levels only filter: the same decisions at every level.
    expect(r.ledger).toEqual(at('quiet').ledger);
  });

  it('never quotes transcript content in an event', () => {
    expect(JSON.stringify(at('verbose').events)).not.toContain(SSN);
  });
});
