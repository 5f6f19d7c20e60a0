// Seed 000 ("Example Execution (Agent)") as a test. Setup: an 800-token budget, the authority model
// system > policy > tool > retrieval > user, scope task=resolve_ticket / phase=analysis, 12 user
// turns whose last 4 are near-duplicates, 2 verbose tool logs and 1 stale summary. Expected: within
// 800 tokens, duplicates dropped, the verbose logs masked to result/status/error, the stale summary
// expired and logged, constraints first.
//
// Where our semantics differ from the seed's text, the test asserts what we do:
// - "Compresses turns 5–8 into deltas; refreshes a current summary with delta content": the stabilizer
//   never writes new text (DESIGN §4: it keeps, masks, collapses or drops what exists). Older turns
//   stay verbatim while they fit; a current summary present in the input is validated and kept.
// - "Deduplicates the last 4 turns; drops 2 near-duplicates": cutting stages act only under
//   pressure (issue 27), and with stable_prefix on (the default) cleanup touches only what came
//   before the cut plan's freeze, the length at which the recorded history first went over the
//   budget (here: with the two verbose logs). Masking those logs makes the history fit, and the four
//   copies, appended after the freeze, go out as recorded, so that the next call repeats this
//   request as a prefix. With `stable_prefix: { enabled: false }` (re-decided at every call) the
//   seed's rule holds: the two newest copies are the keep_recent window and stay verbatim; the two
//   older copies are deduplicated onto the latest one.
// - "Masks tool logs": the newest outcome of a command family is protected evidence and never
//   masked (seed 002), so the two verbose logs are earlier runs of the log tool, followed by a short
//   latest check. They are masked because the history as recorded is over the budget (pressure)
//   and both are older than the recent window: with room to spare nothing would be masked.
import { beforeAll, describe, expect, it } from 'vitest';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../src/core/types.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import type { Draft } from '../support/artifacts.js';
import { asst, call, calls, phase, pol, result, summary, sys, task, t, user } from '../support/artifacts.js';
import { check, entry, fate, ids, item, policy, run } from '../core/stabilize/helpers.js';

let o200k: Tokenizer;
beforeAll(async () => {
  o200k = await loadTokenizer('o200k_base');
});

const EXCHANGES: [string, string][] = [
  [
    'Hi, I cannot log in to my account since this morning.',
    'Sorry to hear that. Do you see an error message when you try?',
  ],
  ['It says my password is wrong, but I am sure it is right.', 'Did you change your password recently?'],
  [
    'Yes, I reset it yesterday with the link from your email.',
    'Thanks. I will check the authentication logs for your account.',
  ],
  ['Okay, my username is jdoe_42.', 'Got it. I am looking at the recent sign-in attempts for jdoe_42 now.'],
  [
    'I also tried the mobile app, same problem there.',
    'That suggests the problem is with the account itself, not one device.',
  ],
  [
    'Could the reset have failed halfway?',
    'Possibly: a reset token can be consumed without the new password being saved.',
  ],
  ['What should I do then?', 'We may need to issue a fresh reset link once I confirm what happened.'],
  ['Fine, but I need access today for work.', 'Understood. I am treating this as urgent.'],
];

const REPEAT =
  'I still cannot log in after resetting my password and the page keeps saying that my reset token is invalid, please help me';
const REPEATS = [REPEAT, `${REPEAT} now`, `${REPEAT} now please`, `${REPEAT} today`];

/** A verbose auth-log response: the three keep_fields plus the noise a log API returns. */
function authLog(window: string, entries: number): string {
  return JSON.stringify(
    {
      result: `${entries} failed sign-ins in the last ${window}`,
      status: 'reset_token_consumed',
      error: 'INVALID_CREDENTIALS',
      request_id: `req-${window}-7f3a9c`,
      events: Array.from({ length: entries }, (_, i) => ({
        at: `2024-05-14T0${i % 10}:1${i % 6}:00Z`,
        outcome: 'failure',
        reason: 'password_mismatch',
        client: i % 2 === 0 ? 'web' : 'ios',
        region: 'eu-west-1',
      })),
    },
    null,
    2,
  );
}

function seed000(): Transcript {
  const turns: Draft[] = [];
  EXCHANGES.forEach(([u, a], i) => {
    const n = i + 1;
    turns.push(user(`u${n}`, u));
    if (n === 4) {
      // The two verbose logs, then the latest (short) check of the same tool.
      turns.push(
        calls('t1', [call('c1', 'fetch_auth_log', { user: 'jdoe_42', window: '24h' })]),
        result('log1', 'c1', authLog('24h', 14)),
        calls('t2', [call('c2', 'fetch_auth_log', { user: 'jdoe_42', window: '1h' })]),
        result('log2', 'c2', authLog('1h', 9)),
        calls('t3', [call('c3', 'fetch_auth_log', { user: 'jdoe_42', window: '5m' })]),
        result('log3', 'c3', '{"result": "no new events", "status": "ok"}'),
      );
    }
    turns.push(asst(`a${n}`, a));
  });
  return t(
    sys('sys', 'You are a support agent for Acme accounts. Follow the policy and resolve the ticket.'),
    pol('pol', 'Never reveal internal log fields to the customer. Never reset a password without consent.'),
    phase('ph', { task: 'resolve_ticket', phase: 'analysis' }),
    task('tk', 'Ticket 4821: customer cannot log in after a password reset.'),
    summary('stale', 'Customer reported a billing question.', ['sys'], { created_at: 1, ttl: 5 }),
    ...turns,
    summary(
      'current',
      'Login fails since a password reset; the auth log shows the reset token was consumed.',
      ['u3', 'log1', 'log2'],
      { ttl: 10 },
    ),
    ...REPEATS.map((text, i) => user(`u${9 + i}`, text)),
  );
}

const POLICY = policy({ budget: 800, message_overhead: 3 });

function stabilized(): { tr: Transcript; r: StabilizeResult } {
  const tr = seed000();
  return { tr, r: run(tr, POLICY, o200k) };
}

describe('seed 000: example execution', () => {
  it('stays within the 800-token budget without escalating', () => {
    const { r } = stabilized();
    expect(r.status).toBe('ok');
    expect(r.budget.limit).toBe(800);
    expect(r.budget.used).toBeLessThanOrEqual(800);
    // The session as recorded would not fit (pressure): masking the two verbose logs is what does it.
    const before = r.ledger.reduce((s, e) => s + (e.tokens_before ?? 0), 0);
    expect(before).toBeGreaterThan(800);
  });

  it('puts the constraints first, then task and phase, the conversation, and summaries last', () => {
    const { r } = stabilized();
    expect(ids(r).slice(0, 4)).toEqual(['sys', 'pol', 'ph', 'tk']);
    expect(ids(r).at(-1)).toBe('current');
  });

  it('keeps the four near-duplicate turns appended after the cut plan froze: the history fits once the logs are masked', () => {
    const { r } = stabilized();
    // Dedup cleans up only what came before the freeze (stable_prefix): the copies go out as recorded.
    for (const [i, id] of ['u9', 'u10', 'u11', 'u12'].entries()) {
      expect(item(r, id).content).toBe(REPEATS[i]);
    }
    expect(fate(r, 'u9')).toBe('kept/in_budget');
    expect(r.events.map((e) => e.code)).not.toContain('deduplicated');
  });

  it('with stable_prefix off, drops two of the four near-duplicate turns, naming the copy that stays', () => {
    const p = policy({ budget: 800, message_overhead: 3, stable_prefix: { enabled: false } });
    const tr = seed000();
    const r = run(tr, p, o200k);
    for (const id of ['u9', 'u10']) {
      expect(fate(r, id)).toBe('deduplicated/near_duplicate');
      expect(entry(r, id).duplicate_of).toBe('u12');
    }
    // The two newest copies are the keep_recent window: verbatim.
    expect(item(r, 'u11').content).toBe(REPEATS[2]);
    expect(item(r, 'u12').content).toBe(REPEATS[3]);
    expect(Object.values(check(tr, r, p, o200k)).filter((c) => !c.ok)).toEqual([]);
  });

  it('masks both verbose tool logs to result, status and error', () => {
    const { r } = stabilized();
    for (const [id, window, n] of [
      ['log1', '24h', 14],
      ['log2', '1h', 9],
    ] as const) {
      expect(fate(r, id)).toBe('masked/tool_output_fields');
      expect(JSON.parse(item(r, id).content as string)).toEqual({
        result: `${n} failed sign-ins in the last ${window}`,
        status: 'reset_token_consumed',
        error: 'INVALID_CREDENTIALS',
      });
    }
    expect(entry(r, 'log3').protected_by).toEqual(['latest:fetch_auth_log']);
  });

  it('expires the stale summary, logs it, and keeps the current one as validated', () => {
    const { r } = stabilized();
    expect(fate(r, 'stale')).toBe('expired/summary_expired');
    expect(r.summaries.map((s) => ({ id: s.id, status: s.status, reasons: s.reasons, age: s.age }))).toEqual([
      { id: 'stale', status: 'expired', reasons: ['expired'], age: 11 },
      { id: 'current', status: 'valid', reasons: [], age: 4 },
    ]);
    expect(r.events.map((e) => e.code)).toContain('summary_expired');
  });

  it('keeps the older turns verbatim instead of rewriting them into deltas', () => {
    const { tr, r } = stabilized();
    for (const n of [5, 6, 7, 8]) {
      const original = tr.artifacts.find((a) => a.id === `u${n}`);
      expect(item(r, `u${n}`).content).toBe(original?.content);
    }
  });

  it('passes every required check', () => {
    const { tr, r } = stabilized();
    expect(Object.values(check(tr, r, POLICY, o200k)).filter((c) => !c.ok)).toEqual([]);
  });
});
