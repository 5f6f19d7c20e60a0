// The ledger: exactly one final decision per input artifact, honest token counts, PII counts by type,
// and no field that carries raw PII.
import { describe, expect, it } from 'vitest';
import { asst, bash, call, calls, result, summary, sys, t, user, words } from '../../support/artifacts.js';
import { check, entry, fate, item, policy, run } from './helpers.js';

function busy() {
  return t(
    sys('s', 'You are a coding agent.'),
    user('u1', 'Reach me at jane.doe@example.com or call 415-555-0134 if it breaks.'),
    calls('a1', [bash('c1', 'npm test')]),
    result('r1', 'c1', 'ran 2 tests'),
    calls('a2', [call('c2', 'get_order', { id: 1 })], 'Checking the order.'),
    result('r2', 'c2', words(300, 'log')),
    calls('a5', [call('c5', 'get_order', { id: 2 })]),
    result('r5', 'c5', 'order 2 shipped'),
    summary('sum', 'Old summary.', ['ghost']),
    calls('a3', [bash('c3', 'npm test')]),
    result('r3', 'c3', 'all passing'),
    user('u2', words(20, 'x')),
    user('u3', words(20, 'y')),
    asst('a4', 'Tests pass now.'),
    user('u4', 'great'),
  );
}

describe('ledger', () => {
  it('has exactly one entry per input artifact, in input order', () => {
    const tr = busy();
    const p = policy({ budget: 40 });
    const r = run(tr, p);
    expect(r.ledger.map((e) => e.id)).toEqual(tr.artifacts.map((a) => a.id));
    expect(r.ledger.map((e) => e.line)).toEqual(tr.artifacts.map((a) => a.source.line));
    expect(check(tr, r, p).ledger).toMatchObject({ ok: true, severity: 'error' });
  });

  it('records the stage and reason of each fate', () => {
    const r = run(busy(), policy({ budget: 40 }));
    expect(Object.fromEntries(r.ledger.map((e) => [e.id, `${e.stage}:${e.action}/${e.reason}`]))).toEqual({
      s: 'protect:kept/protected',
      // The task statement: kept, with its PII masked.
      u1: 'pii:masked/pii',
      a1: 'dedup:dropped/pair_unit',
      r1: 'dedup:dropped/superseded',
      // Its result went (too long); then it did not fit what the newer ones left.
      a2: 'budget:dropped/budget',
      r2: 'tool_output:dropped/verbose_tool_output',
      // A lookup's content is not a command outcome: nothing protects r5, and it is older than the cut.
      a5: 'budget:dropped/budget',
      r5: 'budget:dropped/budget',
      sum: 'summaries:expired/summary_invalid',
      // The latest npm test is should-keep evidence; with the recent turn it does not fit 40, so the
      // stable cut degrades it (dropped, status warning) rather than the turn before the request.
      a3: 'budget:dropped/degraded',
      r3: 'budget:dropped/degraded',
      u2: 'budget:dropped/budget',
      // keep_recent 2 counts turns: u3 and its answer a4 are the turn before u4.
      u3: 'protect:kept/protected',
      a4: 'protect:kept/protected',
      u4: 'protect:kept/protected',
    });
  });

  it('gives tokens_after 0 to what left and the context size to what stayed', () => {
    const r = run(busy(), policy({ budget: 40 }));
    for (const e of r.ledger) {
      const inContext = r.context.find((c) => c.id === e.id);
      expect(e.tokens_after).toBe(inContext ? inContext.tokens : 0);
    }
  });

  it('reports tokens_before of a masked artifact as its original size', () => {
    const r = run(busy(), policy({ budget: 1000 }));
    expect(fate(r, 'u1')).toBe('masked/pii');
    // "Reach me at jane.doe@example.com or call 415-555-0134 if it breaks." = 10 words either way.
    expect(entry(r, 'u1')).toMatchObject({
      tokens_before: 10,
      tokens_after: 10,
      pii: { email: 1, phone: 1 },
    });
    expect(item(r, 'u1').content).toBe('Reach me at [EMAIL_1] or call [PHONE_1] if it breaks.');
  });

  it('names why a protected artifact could not be dropped', () => {
    const r = run(busy(), policy({ budget: 1000 }));
    expect(entry(r, 'a3').protected_by).toEqual(['latest:bash:npm test', 'pair:r3']);
    expect(entry(r, 'u4').protected_by).toEqual(['recent', 'latest_request']);
    expect(entry(r, 'u3').protected_by).toEqual(['recent']);
    expect(entry(r, 'u2').protected_by).toBeUndefined();
  });

  it('never carries raw PII: not in content, tool arguments, details or protection reasons', () => {
    const email = 'ops-team@example.com';
    const tr = t(
      user('u', `Mail the report to ${email} please.`),
      calls('a1', [bash('c1', `mail ${email} < report.txt`)]),
      result('r1', 'c1', 'sent'),
      calls('a2', [bash('c2', `mail ${email} < report.txt`)]),
      result('r2', 'c2', 'sent again'),
      user('u2', 'thanks'),
    );
    const r = run(tr, policy({ resilience: { notification_level: 'verbose' } }));
    expect(entry(r, 'r2').protected_by).toEqual(['latest:bash:mail [EMAIL_1]']);
    expect(item(r, 'a2').tool_calls?.[0]?.arguments).toBe('{"command":"mail [EMAIL_1] < report.txt"}');
    expect(JSON.stringify(r)).not.toContain(email);
  });
});
