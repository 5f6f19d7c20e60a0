// The summary rule of the `retention` check (issue 28): a summary in the final context keeps the
// instructions, decisions, last error per command family and pending calls of the turns it replaces.
// Each transcript puts every artifact at line = its 1-based position (test/support/artifacts.ts `t`).
import { describe, expect, it } from 'vitest';
import { checkSummaryRetention } from '../../../src/core/retention/summary.js';
import type { Policy } from '../../../src/core/policy/index.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Transcript } from '../../../src/core/types.js';
import type { Draft } from '../../support/artifacts.js';
import { asst, call, calls, result, summary, sys, t, task, user, words } from '../../support/artifacts.js';
import { fate, ids, policy, run } from '../stabilize/helpers.js';

const HEAD: Draft[] = [sys('sys', 'You are a support agent.'), task('tk', 'Resolve the ticket.')];

/** Later turns, no two alike and with no identifier (`j0`…`j10`: under four characters). */
function later(from: number, to: number): Draft[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i).flatMap((n) => [
    user(`u${n}`, `Question ${words(11, String.fromCharCode(100 + 2 * n))}`),
    asst(`a${n}`, `Answer ${words(11, String.fromCharCode(101 + 2 * n))}`),
  ]);
}

/** A compaction summary the runtime recorded into the history (docs/compaction.md, cs-summary-<n>). */
function recorded(text: string, covers: string[], at = 1): Draft {
  return summary('cs-summary-1', text, covers, { tags: ['compaction'], created_at: at });
}

const COMPACTING = policy({ compaction: { enabled: true } });

function check(tr: Transcript, p: Policy = COMPACTING): { r: StabilizeResult; found: string[] } {
  const r = run(tr, p);
  return { r, found: checkSummaryRetention(tr, r, { policy: p }).map((v) => `${v.line}: ${v.message}`) };
}

describe('summary rule: a compaction summary made in this run', () => {
  // An ordinary support session: the first turns hold ids, a decision and a lookup; the budget
  // forces them out and the deterministic compaction summary stands for them.
  const session = (): Transcript =>
    t(
      ...HEAD,
      user('u1', 'Please check order 8JX2WO for the customer jdoe_42, it never arrived.'),
      calls('c1', [call('k1', 'get_order', { order_id: '8JX2WO' })]),
      result('o1', 'k1', '{"status": "lost in transit", "carrier": "UPS"}'),
      asst('a1', 'Decision: we refund order 8JX2WO in full. The carrier lost the parcel.'),
      user('u2', 'Thanks. Was invoice INV-2024-0117 paid as well?'),
      asst('a2', 'Yes, it was paid on the first of the month.'),
      ...later(3, 6),
    );
  const compacting = (budget: number): Policy =>
    policy({ stable_prefix: { enabled: false }, budget, keep_recent: 1, compaction: { enabled: true } });
  const p = compacting(140);

  it('passes: the summary keeps the ids of the requests and the decision', () => {
    const tr = session();
    const { r, found } = check(tr, p);
    const log = r.compaction?.[0];
    expect(log?.covers).toEqual(expect.arrayContaining(['u1', 'a1', 'u2', 'a2']));
    expect(ids(r)).not.toContain('u1');
    const text = r.context.find((c) => c.id === log?.id)?.content as string;
    for (const id of ['8JX2WO', 'jdoe_42', 'INV-2024-0117']) expect(text).toContain(id);
    expect(found).toEqual([]);
  });

  it('goes red at the user message when that summary loses an id (same run, text edited)', () => {
    const tr = session();
    const r = run(tr, p);
    const id = r.compaction?.[0]?.id as string;
    const context = r.context.map((c) =>
      c.id === id ? { ...c, content: (c.content as string).replaceAll('INV-2024-0117', 'the invoice') } : c,
    );
    const found = checkSummaryRetention(tr, { ...r, context }, { policy: p });
    expect(found).toEqual([
      {
        id: 'u2',
        line: 7,
        column: 1,
        message: `the compaction summary ${id} replaced this user message (line 7) but keeps no \`INV-2024-0117\` (an instruction)`,
      },
    ]);
  });

  it('reports the ids of the oldest requests a tighter budget made it leave out', () => {
    // Over its room the summary drops requests oldest first (docs/compaction.md "Cap"): u1's
    // customer id and u2's invoice go with them; 8JX2WO survives in the decision line.
    const tr = session();
    const { r, found } = check(tr, compacting(120));
    const id = r.compaction?.[0]?.id as string;
    expect(r.context.find((c) => c.id === id)?.content).toContain('- … 2 more requests');
    expect(found).toEqual([
      `3: the compaction summary ${id} replaced this user message (line 3) but keeps no \`jdoe_42\` (an instruction)`,
      `7: the compaction summary ${id} replaced this user message (line 7) but keeps no \`INV-2024-0117\` (an instruction)`,
    ]);
  });

  it('says so when an id stands past the request_chars cut', () => {
    const tr = t(
      ...HEAD,
      user('u1', `Please refund the customer, ${words(8, 'x')} and the order id is 8JX2WO`),
      asst('a1', 'I will look into it.'),
      ...later(2, 5),
    );
    const cut = policy({
      stable_prefix: { enabled: false },
      budget: 120,
      keep_recent: 1,
      compaction: { enabled: true, max_tokens: 100, request_chars: 40 },
    });
    const { r, found } = check(tr, cut);
    const id = r.compaction?.[0]?.id as string;
    expect(r.compaction?.[0]?.covers).toContain('u1');
    // words(8, 'x') holds `x0`…`x7`: two characters, no fact; only the order id is.
    expect(found).toEqual([
      `3: the compaction summary ${id} replaced this user message (line 3) but keeps no \`8JX2WO\` (an instruction); it stands past the first 40 characters of that line, where compaction cuts it`,
    ]);
  });
});

describe('summary rule: a recorded summary', () => {
  it('reports an instruction id the summary dropped, at the user message, naming the value', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Cancel order 8JX2WO and refund it to the original card.'),
      asst('a1', 'Done, the order is cancelled.'),
      recorded('The user asked to cancel an order; it is cancelled.', ['u1', 'a1']),
      ...later(2, 3),
    );
    const { r, found } = check(tr);
    expect(fate(r, 'u1')).toBe('collapsed/compacted_into');
    expect(found).toEqual([
      '3: the compaction summary cs-summary-1 replaced this user message (line 3) but keeps no `8JX2WO` (an instruction)',
    ]);
  });

  it('passes when the summary keeps the id; prose, hyphenated words and all-caps words are no facts', () => {
    const text = 'URGENT: my sign-in and/or the follow-up fail, cancel order 8JX2WO today.';
    const kept = t(...HEAD, user('u1', text), recorded('Cancel order 8JX2WO.', ['u1']), ...later(2, 3));
    expect(check(kept).found).toEqual([]);
  });

  it('reports a decision id at the assistant message', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'What do we do about the delayed shipment?'),
      asst('a1', 'I checked the depot. Decision: we reroute via depot DEP_4411 tomorrow.'),
      recorded('We decided to reroute the shipment.', ['u1', 'a1']),
      ...later(2, 3),
    );
    expect(check(tr).found).toEqual([
      '4: the compaction summary cs-summary-1 replaced this assistant message (line 4) but keeps no `DEP_4411` (a decision)',
    ]);
  });

  it('lists three values per replaced artifact and counts the rest in one note', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Refund orders ORD-1001, ORD-1002, ORD-1003, ORD-1004 and ORD-1005.'),
      recorded('Refund five orders.', ['u1']),
      ...later(2, 3),
    );
    expect(check(tr).found).toEqual([
      '3: the compaction summary cs-summary-1 replaced this user message (line 3) and lost 2 more of its values (not listed)',
      '3: the compaction summary cs-summary-1 replaced this user message (line 3) but keeps no `ORD-1001` (an instruction)',
      '3: the compaction summary cs-summary-1 replaced this user message (line 3) but keeps no `ORD-1002` (an instruction)',
      '3: the compaction summary cs-summary-1 replaced this user message (line 3) but keeps no `ORD-1003` (an instruction)',
    ]);
  });

  it('does not require what the context still holds elsewhere', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Cancel order 8JX2WO.'),
      recorded('The user asked to cancel an order.', ['u1']),
      ...later(2, 3),
      user('u4', 'Is 8JX2WO cancelled now?'),
    );
    expect(check(tr).found).toEqual([]);
  });
});

describe('summary rule: last error per command family', () => {
  // Failures are protected while resilience protects errors; off, the summary stands for them.
  const OFF = policy({ resilience: { enabled: false }, compaction: { enabled: true } });
  const failing = (summaryText: string, after: Draft[] = []): Transcript =>
    t(
      ...HEAD,
      user('u1', 'Run the tests.'),
      calls('c1', [call('k1', 'bash', { command: 'npm test -- --run' })]),
      result('o1', 'k1', 'FAIL src/cart.test.ts\nError: expected 3 to be 4', { exit_code: 1 }),
      ...after,
      recorded(summaryText, ['u1', 'c1', 'o1', ...after.map((d) => d.id)]),
      ...later(2, 3),
    );

  it('passes when the summary names the family and the first error line', () => {
    const tr = failing('Last error per command:\n- bash:npm test: FAIL src/cart.test.ts');
    expect(check(tr, OFF).found).toEqual([]);
  });

  it('reports a family the summary does not name, at the failed result', () => {
    const { r, found } = check(failing('The tests were run.'), OFF);
    expect(fate(r, 'o1')).toBe('collapsed/compacted_into');
    expect(found).toEqual([
      '5: the compaction summary cs-summary-1 replaced this failed bash result (line 5) but does not name its command family `bash:npm test` (the last error of that family)',
    ]);
  });

  it('reports an identifier of the first error line the summary lost', () => {
    expect(check(failing('npm test failed: expected 3 to be 4.'), OFF).found).toEqual([
      '5: the compaction summary cs-summary-1 replaced this failed bash result (line 5) but keeps no `src/cart.test.ts` (from its first error line, the last error of `bash:npm test`)',
    ]);
  });

  it('does not require an error a later run of the family resolved', () => {
    const fixed = [
      calls('c2', [call('k2', 'bash', { command: 'npm test -- --run' })]),
      result('o2', 'k2', 'Tests: 12 passed', { exit_code: 0 }),
    ];
    expect(check(failing('The tests pass now.', fixed), OFF).found).toEqual([]);
  });
});

describe('summary rule: pending calls', () => {
  const pending = (summaryText: string): Transcript =>
    t(
      ...HEAD,
      user('u1', 'Where is my parcel?'),
      calls('c1', [call('k1', 'get_order', { order_id: 'ZX81QP' })], 'Let me look that up.'),
      recorded(summaryText, ['u1', 'c1']),
      ...later(2, 3),
    );

  it('reports a pending call the summary does not name, at its assistant turn', () => {
    expect(check(pending('The user asked about a parcel.')).found).toEqual([
      '4: the compaction summary cs-summary-1 replaced this assistant turn (line 4), but the call to get_order is still pending and the summary does not name it',
    ]);
  });

  it('reports an argument value of a pending call the summary lost', () => {
    expect(check(pending('A get_order lookup is pending.')).found).toEqual([
      '4: the compaction summary cs-summary-1 replaced this assistant turn (line 4), but the call to get_order is still pending and the summary keeps no `ZX81QP` of its arguments',
    ]);
  });

  it('passes when the summary names the call and its arguments', () => {
    expect(check(pending('Pending: get_order for ZX81QP.')).found).toEqual([]);
  });

  it('does not count an answered call as pending', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Where is my parcel?'),
      calls('c1', [call('k1', 'get_order', { order_id: 'ZX81QP' })]),
      result('o1', 'k1', '{"status": "delivered"}'),
      recorded('The user asked about a parcel; it was delivered.', ['u1', 'c1', 'o1']),
      ...later(2, 3),
    );
    expect(check(tr).found).toEqual([]);
  });
});

describe('summary rule: PII and sources still in the context', () => {
  it('never reports or quotes a value a PII detector matches', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Send the receipt for 8JX2WO to jane.doe@example.com please.'),
      calls('c1', [call('k1', 'send_mail', { to: 'jane.doe@example.com' })], 'Sending it.'),
      recorded('Receipt requested; send_mail is pending.', ['u1', 'c1']),
      ...later(2, 3),
    );
    const { found } = check(tr);
    expect(found).toEqual([
      '3: the compaction summary cs-summary-1 replaced this user message (line 3) but keeps no `8JX2WO` (an instruction)',
    ]);
    expect(found.join('\n')).not.toMatch(/jane|example\.com/);
  });

  it('requires nothing of a source that is still in the context', () => {
    const drafts = (extra: object): Draft[] => [
      ...HEAD,
      user('u1', 'Cancel order 8JX2WO.'),
      calls('c1', [call('k1', 'bash', { command: 'npm test' })]),
      result('o1', 'k1', 'FAIL src/cart.test.ts', { exit_code: 1 }),
      summary('s1', 'The user asked to cancel an order.', ['u1', 'c1', 'o1'], { created_at: 1, ...extra }),
      ...later(2, 3),
    ];
    // A plain summary takes none of its sources out: the failure and u1 stay, nothing was lost,
    // although the summary names neither the id nor the failed family.
    const plain = t(...drafts({}));
    const r = run(plain, COMPACTING);
    expect(ids(r)).toEqual(expect.arrayContaining(['u1', 'c1', 'o1', 's1']));
    expect(checkSummaryRetention(plain, r, { policy: COMPACTING })).toEqual([]);
    // As a compaction summary it stands for u1, which leaves (the protected failure stays): now
    // only u1's id is lost.
    const { r: rc, found } = check(t(...drafts({ tags: ['compaction'] })));
    expect(ids(rc)).toEqual(expect.arrayContaining(['c1', 'o1']));
    expect(found).toEqual([
      '3: the compaction summary s1 replaced this user message (line 3) but keeps no `8JX2WO` (an instruction)',
    ]);
  });

  it('is deterministic and ordered by line, then message', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Refund ORD-2002 and ORD-1001.'),
      calls('c1', [call('k1', 'get_order', { order_id: 'ZX81QP' })], 'Looking.'),
      recorded('Refunds asked.', ['u1', 'c1']),
      ...later(2, 3),
    );
    const first = check(tr).found;
    expect(first.map((f) => f.slice(0, 2))).toEqual(['3:', '3:', '4:']);
    expect(first[0]).toContain('`ORD-1001`');
    expect(check(tr).found).toEqual(first);
  });
});
