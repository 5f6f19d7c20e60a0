// The decisions bench (bench/decisions/): the naive trim, the argument values, the metrics.
import { describe, expect, it } from 'vitest';
import { HistoryText, argumentValues, holds } from '../../src/core/retention/facts.js';
import { naiveTrim } from '../../bench/decisions/naive.js';
import {
  benchPolicy,
  freshResults,
  historyAt,
  mustHoldCost,
  prefixShare,
  reachesWhole,
  replayDecisions,
} from '../../bench/decisions/replay.js';
import { decisionsTable, share } from '../../bench/decisions/report.js';
import type { DecisionsRow } from '../../bench/decisions/report.js';
import type { ContextItem, LedgerEntry } from '../../src/core/stabilize/types.js';
import { asst, bash, call, calls, result, sys, t, user } from '../support/artifacts.js';
import { policy, wordTokenizer } from '../core/stabilize/helpers.js';

// Overhead 0 and one token per word: each artifact costs its word count.
const cost = policy();

/** s 2, u1 3, a1 2, r1 10, a2 5, r2 2, r3 6, u2 3 (33 tokens in all). */
function session() {
  return t(
    sys('s', 'be brief'),
    user('u1', 'fix the bug'),
    calls('a1', [bash('c1', 'ls')]),
    result('r1', 'c1', 'one two three four five six seven eight nine ten'),
    calls('a2', [bash('c2', 'ls'), call('c3', 'read', { p: 'x' })], 'reading'),
    result('r2', 'c2', 'x y'),
    result('r3', 'c3', 'a b c d e f'),
    user('u2', 'thanks now go'),
  );
}

const ids = (items: readonly ContextItem[]): string[] => items.map((i) => i.id);

describe('naiveTrim', () => {
  it('keeps everything that fits', () => {
    const r = naiveTrim(session(), { tokenizer: wordTokenizer, cost, budget: 100 });
    expect(ids(r.context)).toEqual(['s', 'u1', 'a1', 'r1', 'a2', 'r2', 'r3', 'u2']);
    expect(r.used).toBe(33);
  });

  it('keeps the newest that fit, stops at the first that does not, and orphans no result', () => {
    // s 2 + u2 3 + r3 6 + r2 2 = 13; a2 (5) does not fit in 16: its results go with it.
    const r = naiveTrim(session(), { tokenizer: wordTokenizer, cost, budget: 16 });
    expect(ids(r.context)).toEqual(['s', 'u2']);
    expect(r.used).toBe(5);
    // 18 fits a2 too, then r1 (10) does not: a1 stays out although it would fit.
    const wider = naiveTrim(session(), { tokenizer: wordTokenizer, cost, budget: 20 });
    expect(ids(wider.context)).toEqual(['s', 'a2', 'r2', 'r3', 'u2']);
    expect(wider.used).toBe(18);
  });

  it('does not skip over what does not fit to keep something older', () => {
    const tr = t(sys('s', 'sys'), user('u1', 'hi'), user('u2', 'a b c d e f g h'), user('u3', 'x'));
    const r = naiveTrim(tr, { tokenizer: wordTokenizer, cost, budget: 5 });
    expect(ids(r.context)).toEqual(['s', 'u3']);
    expect(r.used).toBe(2);
  });

  it('always keeps the system artifacts, even over the budget', () => {
    const r = naiveTrim(session(), { tokenizer: wordTokenizer, cost, budget: 1 });
    expect(ids(r.context)).toEqual(['s']);
    expect(r.used).toBe(2);
  });

  it('takes unanswered calls off a kept assistant, and drops one left with nothing', () => {
    const tr = t(
      sys('s', 'sys'),
      calls('a1', [bash('c1', 'ls'), bash('c9', 'pwd')], 'two calls'),
      result('r1', 'c1', 'out'),
      calls('a2', [bash('c8', 'date')]),
      user('u', 'next'),
    );
    const r = naiveTrim(tr, { tokenizer: wordTokenizer, cost, budget: 100 });
    expect(ids(r.context)).toEqual(['s', 'a1', 'r1', 'u']);
    expect(r.context[1]?.tool_calls?.map((c) => c.id)).toEqual(['c1']);
    // sys 1 + a1 ("two calls" 2 + bash 1 + args 1) 4 + out 1 + next 1
    expect(r.used).toBe(7);
  });
});

describe('argumentValues', () => {
  it('takes leaf strings and numbers of 4+ characters', () => {
    const args = {
      path: 'src/app.py',
      limit: 2000,
      offset: 10,
      flags: ['--all', '-x'],
      nested: { q: 'needle' },
    };
    expect(argumentValues({ name: 'read_file', arguments: JSON.stringify(args) })).toEqual([
      'src/app.py',
      '2000',
      '--all',
      'needle',
    ]);
  });

  it('splits a shell command into its words', () => {
    const command = JSON.stringify({ command: 'kubectl get pods -n web' });
    expect(argumentValues({ name: 'bash', arguments: command })).toEqual([
      'kubectl get pods -n web',
      'kubectl',
      'pods',
    ]);
    const cmd = JSON.stringify({ cmd: 'grep -rn needle src' });
    expect(argumentValues({ name: 'run', arguments: cmd })).toEqual([
      'grep -rn needle src',
      'grep',
      'needle',
    ]);
    expect(argumentValues({ name: 'shell', arguments: 'ls -la /tmp/foo' })).toEqual([
      'ls -la /tmp/foo',
      '/tmp/foo',
    ]);
  });

  it('finds a value raw or JSON-escaped, only in the history up to a call', () => {
    const tr = t(
      user('u', 'open "my file".txt'),
      calls('a', [call('c', 'read', { path: 'C:\\tmp\\x.log' })]),
      result('r', 'c', 'later'),
    );
    const text = new HistoryText(tr.artifacts);
    expect(text.seenBy(0, '"my file".txt')).toBe(true);
    // The arguments hold it escaped (C:\\tmp\\x.log).
    expect(text.seenBy(0, 'C:\\tmp\\x.log')).toBe(false);
    expect(text.seenBy(1, 'C:\\tmp\\x.log')).toBe(true);
    expect(text.seenBy(1, 'later')).toBe(false);
    expect(text.seenBy(2, 'later')).toBe(true);
    expect(holds(JSON.stringify({ m: 'say "hi"' }), 'say "hi"')).toBe(true);
    expect(holds('say hi', 'say "hi"')).toBe(false);
  });
});

describe('the metrics', () => {
  it('prefix share: the previous request’s tokens this one starts with', () => {
    expect(prefixShare('a b c\n', 'a b x\n', wordTokenizer)).toBeCloseTo(2 / 3, 10);
    expect(prefixShare('a b c\n', 'a b c\nd e\n', wordTokenizer)).toBe(1);
    expect(prefixShare('', 'x', wordTokenizer)).toBe(1);
    expect(prefixShare('x y', 'z', wordTokenizer)).toBe(0);
  });

  it('a result reaches the request whole: kept, or with PII masked only', () => {
    const item: ContextItem = { id: 'r', kind: 'tool', tokens: 1, content: 'x', line: 1 };
    const entry = (action: LedgerEntry['action'], reason: string): LedgerEntry => ({
      id: 'r',
      stage: 'budget',
      action,
      reason,
      tokens_before: 1,
      tokens_after: 1,
      line: 1,
    });
    expect(reachesWhole(item, entry('kept', 'in_budget'))).toBe(true);
    expect(reachesWhole(item, entry('masked', 'pii'))).toBe(true);
    expect(reachesWhole(item, entry('masked', 'tool_output_fields'))).toBe(false);
    expect(reachesWhole(item, entry('compressed', 'pair_placeholder'))).toBe(false);
    expect(reachesWhole({ ...item, excerpt: true }, entry('excerpted', 'excerpt'))).toBe(false);
    expect(reachesWhole({ ...item, placeholder: true }, undefined)).toBe(false);
    expect(reachesWhole(undefined, undefined)).toBe(false);
  });

  it('fresh results: the paired tool results that end the history', () => {
    const tr = session();
    expect(freshResults(historyAt(tr, 6)).map((a) => a.id)).toEqual(['r2', 'r3']);
    expect(freshResults(historyAt(tr, 3)).map((a) => a.id)).toEqual(['r1']);
    expect(freshResults(tr)).toEqual([]);
  });

  it('what must be held: system, task statement and latest request', () => {
    // Default overhead 3: s (2 + 3) + u1 (3 + 3) + u2 (3 + 3).
    expect(mustHoldCost(session(), wordTokenizer, benchPolicy(1000, 'openai'))).toBe(17);
    expect(mustHoldCost(historyAt(session(), 3), wordTokenizer, benchPolicy(1000, 'openai'))).toBe(11);
  });

  // Overhead 3 (the default policy): s 6, u1 7, a1 9, r1 7, a2 9, r2 43, a3 9, r3 5.
  function kubectl() {
    const db = Array.from({ length: 40 }, (_, i) => `db-${i}`).join(' ');
    return t(
      sys('s', 'You run commands.'),
      user('u1', 'find the failing pod'),
      calls('a1', [bash('c1', 'kubectl get pods -n web')]),
      result('r1', 'c1', 'web-api-1 Running\nweb-api-2 CrashLoop'),
      calls('a2', [bash('c2', 'kubectl get pods -n db')]),
      result('r2', 'c2', db),
      calls('a3', [bash('c3', 'kubectl logs web-api-2 -n web')]),
      result('r3', 'c3', 'error: upstream'),
      asst('a4', 'done'),
    );
  }

  it('the naive trim loses the pod name the next call needs', () => {
    const r = replayDecisions(kubectl(), { budget: 60, target: 'openai', tokenizer: wordTokenizer });
    expect(r.total_calls).toBe(4);
    expect(r.replayed).toBe(4);
    const n = r.counts.naive;
    expect(n.calls).toBe(4);
    // Three open tool loops, each result kept.
    expect([n.fresh_calls, n.fresh_whole]).toEqual([3, 3]);
    // a2's kubectl and pods (seen in a1's arguments), a3's kubectl and web-api-2 (seen in r1): r1
    // is gone at the third call (s 6 + r2 43 + a2 9 = 58, r1 does not fit).
    expect([n.arg_values, n.args_kept]).toEqual([4, 3]);
    expect([n.over_budget, n.escalated, n.escalated_fits]).toEqual([0, 0, 0]);
    expect(n.prefix_pairs).toBe(3);
    // The second call only appends to the first.
    expect(n.prefix_sum).toBeLessThan(3);
    expect(n.prefix_sum).toBeGreaterThan(1);
  });

  it('a budget that holds everything: both keep every fresh result and every value', () => {
    const r = replayDecisions(kubectl(), { budget: 10_000, target: 'anthropic', tokenizer: wordTokenizer });
    for (const c of [r.counts.stabilizer, r.counts.naive]) {
      expect([c.calls, c.fresh_calls, c.fresh_whole, c.arg_values, c.args_kept]).toEqual([4, 3, 3, 4, 4]);
      expect([c.prefix_pairs, c.prefix_sum, c.over_budget, c.escalated_fits]).toEqual([3, 3, 0, 0]);
    }
    expect(r.notes).toEqual([]);
  });

  it('skips values the PII detectors would mask, and caps the replay at the newest calls', () => {
    const tr = t(
      sys('s', 'You send mail.'),
      user('u1', 'mail alice@example.com the Weekly report'),
      calls('a1', [
        call('c1', 'send_mail', { to: 'alice@example.com', subject: 'Weekly report', n: 'Weekly' }),
      ]),
      result('r1', 'c1', 'sent'),
      asst('a2', 'done'),
    );
    const r = replayDecisions(tr, { budget: 10_000, target: 'openai', tokenizer: wordTokenizer });
    // 'Weekly report' and 'Weekly' are in u1; the address is PII and not counted.
    expect([r.counts.naive.arg_values, r.counts.naive.args_kept]).toEqual([2, 2]);
    const capped = replayDecisions(tr, {
      budget: 10_000,
      target: 'openai',
      tokenizer: wordTokenizer,
      maxCalls: 1,
    });
    expect([capped.total_calls, capped.replayed, capped.counts.naive.arg_values]).toEqual([2, 1, 0]);
  });
});

describe('the table', () => {
  it('puts the two strategies side by side', () => {
    const counts = (fresh: number, args: number) => ({
      calls: 10,
      fresh_calls: 4,
      fresh_whole: fresh,
      arg_values: 8,
      args_kept: args,
      prefix_pairs: 9,
      prefix_sum: 4.5,
      over_budget: 1,
      escalated: 2,
      escalated_fits: 1,
    });
    const row: DecisionsRow = {
      source: 'x',
      budget: 3000,
      target: 'openai',
      transcripts: 1,
      total_calls: 10,
      replayed: 10,
      stabilizer: counts(3, 8),
      naive: counts(4, 2),
    };
    const lines = decisionsTable([row], []).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]?.split('|').map((c) => c.trim())).toEqual([
      '',
      'x',
      '3000',
      'openai',
      '10',
      '4',
      '75.0%',
      '100.0%',
      '8',
      '100.0%',
      '25.0%',
      '50.0%',
      '50.0%',
      '1',
      '1',
      '1',
      '1',
      '',
    ]);
    expect(share(1, 0)).toBe('—');
  });
});
