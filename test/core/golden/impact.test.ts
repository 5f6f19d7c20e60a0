import { describe, expect, it } from 'vitest';
import { policyImpact } from '../../../src/core/golden/impact.js';
import { asst, sys, t, task, user, words as text } from '../../support/artifacts.js';
import { checkResult, handReport, item, ledger, policy, realReport } from './support.js';

describe('policyImpact', () => {
  it('compares two hand-made reports side by side', () => {
    const base = handReport({
      status: 'ok',
      budget: { limit: 100, used: 30 },
      ledger: [
        ledger('m1', 1, 'kept', 'in_budget', 10),
        ledger('m2', 2, 'masked', 'pii', 20),
        ledger('m3', 3, 'dropped', 'budget', 90),
        ledger('m4', 4, 'deduplicated', 'duplicate', 5),
      ],
      checks: [checkResult('budget', 0), checkResult('pii', 1), checkResult('order', 2, 'warning')],
    });
    const head = handReport({
      status: 'warning',
      budget: { limit: 20, used: 10 },
      context: [item('m1', 1, 'hello there', 10)],
      ledger: [
        ledger('m1', 1, 'kept', 'in_budget', 10),
        ledger('m2', 2, 'dropped', 'budget', 20),
        ledger('m3', 3, 'dropped', 'scope_reset', 90),
        ledger('m4', 4, 'expired', 'summary_expired', 5),
        ledger('m5', 5, 'collapsed', 'retry_run', 5),
      ],
      checks: [checkResult('budget', 1), checkResult('pii', 0), checkResult('order', 2, 'warning')],
    });
    expect(policyImpact('a.jsonl', base, head)).toEqual({
      transcript: 'a.jsonl',
      base: { status: 'ok', tokens: 30, kept: 1, masked: 1, dropped: { budget: 1, deduplicated: 1 }, failing: ['pii'] },
      head: {
        status: 'warning',
        tokens: 10,
        kept: 1,
        masked: 0,
        dropped: { budget: 1, collapsed: 1, expired: 1, scope_reset: 1 },
        failing: ['budget'],
      },
      newlyFailing: ['budget'],
      fixed: ['pii'],
    });
  });

  it('shows a real policy change: a smaller budget drops more and fails nothing', () => {
    const session = t(
      sys('s', 'You are careful.'),
      user('u1', text(10, 'ask')),
      asst('a1', text(40, 'old')),
      asst('a2', text(40, 'older')),
      user('u2', text(10, 'more')),
      asst('a3', text(10, 'reply')),
    );
    const impact = policyImpact('s.jsonl', realReport(session, policy({ budget: 1000, keep_recent: 1 })), realReport(session, policy({ budget: 40, keep_recent: 1 })));
    expect(impact.base.dropped['budget'] ?? 0).toBe(0);
    expect(impact.head.dropped['budget']).toBeGreaterThan(0);
    expect(impact.head.tokens).toBeLessThan(impact.base.tokens);
    expect(impact.head.kept + impact.head.masked).toBeLessThan(impact.base.kept + impact.base.masked);
    // 40 tokens keep the task statement and the newest turn and drop the long answers between.
    expect(impact.newlyFailing).toEqual([]);
  });

  it('names a check the head policy newly fails (budget smaller than what is protected)', () => {
    const session = t(sys('s', 'Be careful.'), task('k', text(30, 'goal')), user('u1', text(5, 'ask')));
    const impact = policyImpact('s.jsonl', realReport(session, policy({ budget: 1000 })), realReport(session, policy({ budget: 10 })));
    expect(impact.head.status).toBe('escalated');
    expect(impact.newlyFailing).toContain('budget');
    expect(impact.fixed).toEqual([]);
  });
});
