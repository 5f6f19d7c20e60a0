// Compaction (issue 17, docs/compaction.md): the turns the budget must drop become one deterministic
// summary inside the budget; a compaction summary already in the history is refreshed with the delta.
//
// The seed 000 fixture below is the seed's example with compaction on: turns 1–4 belong to an earlier
// task (triage) and leave by the scope reset, so what the budget forces out is exactly turns 5–8; the
// last four turns repeat one request (two copies are deduplicated, the keep_recent window stays).
import { beforeAll, describe, expect, it } from 'vitest';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../../src/core/types.js';
import { loadTokenizer } from '../../../src/tokens/load.js';
import type { Draft } from '../../support/artifacts.js';
import {
  asst,
  call,
  calls,
  phase,
  pol,
  result,
  retrieval,
  summary,
  sys,
  task,
  t,
  user,
  words,
} from '../../support/artifacts.js';
import { check, entry, fate, ids, item, policy, run } from './helpers.js';

let o200k: Tokenizer;
beforeAll(async () => {
  o200k = await loadTokenizer('o200k_base');
});

const TRIAGE: [string, string][] = [
  ['Hello, I have a problem with my Acme account.', 'Sorry to hear that. What happens exactly?'],
  ['I cannot log in since this morning.', 'Is it the web site, the app, or both?'],
  ['Both of them, the web site and the app.', 'Thanks, I am opening a ticket for this.'],
  ['The ticket number would be useful for me.', 'It is ticket 4821; a specialist takes it from here.'],
];

const REPEAT =
  'I still cannot log in after resetting my password and the page keeps saying that my reset token is invalid, please help me';
const REPEATS = [REPEAT, `${REPEAT} now`, `${REPEAT} now please`, `${REPEAT} today`];

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
  const triage: Draft[] = TRIAGE.flatMap(([u, a], i) => [user(`u${i + 1}`, u), asst(`a${i + 1}`, a)]);
  const analysis: Draft[] = [
    user(
      'u5',
      'I reset my password yesterday evening with the link from your email, and since then every sign-in attempt fails with a message saying the password is wrong, although I typed it very carefully several times on both devices.',
    ),
    asst(
      'a5',
      'Thank you for the details. A password that is rejected right after a reset usually means the reset did not complete on our side, so I will look at your account record and the reset history before we change anything else.',
    ),
    user(
      'u6',
      'My username is jdoe_42 and the email on the account is the one you wrote to yesterday evening, in case you need it to find the record on your side.',
    ),
    calls('t6', [call('c6', 'lookup_account', { user: 'jdoe_42' })]),
    result('r6', 'c6', '{"result": "account active, last reset 2024-05-13 19:42", "status": "ok"}'),
    asst(
      'a6',
      'I found the account: it is active, and the last reset was made yesterday at 19:42. The reset history shows the token as used, so the reset itself went through the first step at least.',
    ),
    user(
      'u7',
      'Is my account locked now because of all the failed attempts? I really need to get into it today for my work, so please tell me if I should stop trying.',
    ),
    calls('t7', [call('c7', 'read', { path: 'runbooks/password-reset.md' })]),
    result(
      'r7',
      'c7',
      'Password reset runbook: if the reset token is consumed but the password hash is unchanged, the reset failed halfway; issue a new reset link and invalidate the old token.',
    ),
    user(
      'u8',
      'I also tried the mobile app once more just now and it showed exactly the same error message as the web site, so it does not seem to depend on the device I use.',
    ),
    asst(
      'a8',
      'Decision: we issue a fresh reset link once the auth log confirms that the old token was consumed without saving the new password. That matches the runbook case of a reset that failed halfway through.',
    ),
  ];
  const recent: Draft[] = [
    user('u9', REPEATS[0] as string),
    asst(
      'a9',
      'I am checking the auth logs for your account now. They record every sign-in attempt with its outcome and the client it came from, and every password reset with the moment its token was used, so they tell us whether the reset stopped between using the token and saving the new password, which is what the runbook describes for this kind of failure. I will also compare the times of the failed attempts with the reset, to be sure no other change was made to the account in between.',
    ),
    user('u10', REPEATS[1] as string),
    calls('t1', [call('c1', 'fetch_auth_log', { user: 'jdoe_42', window: '24h' })]),
    result('log1', 'c1', authLog('24h', 14)),
    calls('t2', [call('c2', 'fetch_auth_log', { user: 'jdoe_42', window: '1h' })]),
    result('log2', 'c2', authLog('1h', 9)),
    calls('t3', [call('c3', 'fetch_auth_log', { user: 'jdoe_42', window: '5m' })]),
    result('log3', 'c3', '{"result": "no new events", "status": "ok"}'),
    calls('t10', [call('c10', 'lookup_account', { user: 'jdoe_42', fields: 'lock' })]),
    result('r10', 'c10', '{"result": "account active, not locked", "status": "ok"}'),
    retrieval(
      'kb',
      'Knowledge base, article 112 (password resets): a reset consists of two steps, using the emailed token and saving the new password hash. When the second step fails, for example because the session expired while the customer typed the new password, the token is consumed and the old password stays in force. The customer sees "password is wrong" for the new password on every client. Fix: invalidate the consumed token, send a fresh link, and ask the customer to finish the reset within ten minutes.',
    ),
    asst(
      'a10',
      'The logs confirm it: the reset token was consumed yesterday at 19:42 but the new password was never saved, so every sign-in since then was checked against your old password. Your account is not locked. I will send a fresh reset link and invalidate the old token, as the runbook says; after that, the new password you choose will work on the web site and in the app alike.',
    ),
    user('u11', REPEATS[2] as string),
    asst('a11', 'I am sending you a fresh reset link right now.'),
    user('u12', REPEATS[3] as string),
  ];
  return t(
    sys('sys', 'You are a support agent for Acme accounts. Follow the policy and resolve the ticket.'),
    pol('pol', 'Never reveal internal log fields to the customer. Never reset a password without consent.'),
    phase('ph0', { task: 'triage' }),
    ...triage,
    phase('ph', { task: 'resolve_ticket', phase: 'analysis' }),
    task('tk', 'Ticket 4821: customer cannot log in after a password reset.'),
    summary('stale', 'Customer asked about a reset link.', ['u5'], { created_at: 5, ttl: 3 }),
    ...analysis,
    ...recent,
  );
}

// The content and coverage of a summary are tested on the ranked cut (stable_prefix off), where what
// the budget drops is decided per artifact; 'compaction: stable cut' tests it with the default cut.
const RANKED = { stable_prefix: { enabled: false } };

const SEED_POLICY = policy({
  ...RANKED,
  budget: 800,
  message_overhead: 3,
  compaction: { enabled: true, max_tokens: 200, request_chars: 100 },
});

/** Turns `from`..`to` (user `u<n>`, assistant `a<n>`), each message `size` words, no two alike. */
function turns(from: number, to: number, size = 20): Draft[] {
  const out: Draft[] = [];
  for (let n = from; n <= to; n++) {
    out.push(user(`u${n}`, `Request ${n}: ${words(size - 2, `q${n}x`)}`));
    out.push(asst(`a${n}`, `Answer ${n}: ${words(size - 2, `r${n}x`)}`));
  }
  return out;
}

const HEAD: Draft[] = [sys('sys', 'You are a helpful agent.'), task('tk', 'Fix the build.')];
const SMALL = policy({
  ...RANKED,
  budget: 150,
  compaction: { enabled: true, max_tokens: 80, request_chars: 40 },
});

/** What the runtime records after a call: the compaction summary as an artifact of the history. */
function recorded(r: StabilizeResult, at: number): Draft {
  const log = r.compaction?.[0];
  const c = r.context.find((x) => x.id === log?.id);
  if (!log || !c) throw new Error('no compaction summary');
  return summary(log.id, c.content as string, log.covers, { tags: ['compaction'], created_at: at });
}

function failing(tr: Transcript, r: StabilizeResult, p = SMALL, tok?: Tokenizer): string[] {
  return Object.values(check(tr, r, p, tok))
    .filter((c) => !c.ok)
    .map((c) => `${c.name}: ${c.violations.map((v) => v.message).join('; ')}`);
}

describe('compaction: seed 000', () => {
  const stabilized = (): { tr: Transcript; r: StabilizeResult } => {
    const tr = seed000();
    return { tr, r: run(tr, SEED_POLICY, o200k) };
  };

  it('compresses turns 5–8 into one summary and keeps turns 9–12 within 800 tokens', () => {
    const { r } = stabilized();
    expect(r.status).toBe('ok');
    expect(r.budget.used).toBeLessThanOrEqual(800);
    const log = r.compaction?.[0];
    const analysis = ['u5', 'a5', 'u6', 't6', 'r6', 'a6', 'u7', 't7', 'r7', 'u8', 'a8'];
    expect(log).toMatchObject({
      id: 'compaction-u5-a8',
      covers: analysis,
      created_at: 12,
      scope: { task: 'resolve_ticket', phase: 'analysis' },
      status: 'valid',
    });
    expect(log?.refreshed_from).toBeUndefined();
    for (const id of analysis) {
      expect(fate(r, id)).toBe('collapsed/compacted_into');
      expect(entry(r, id).detail).toBe('compacted into compaction-u5-a8');
      expect(entry(r, id).tokens_after).toBe(0);
    }
    // Turns 9–12: what survives dedup is there verbatim.
    for (const id of ['a9', 'a10', 'kb', 'u11', 'a11', 'u12']) expect(fate(r, id)).toMatch(/^kept\//);
    expect(item(r, 'u12').content).toBe(REPEATS[3]);
    expect(r.events.map((e) => e.code)).toContain('compaction');
  });

  it('drops the two near-duplicates, masks the verbose logs, expires the stale summary', () => {
    const { r } = stabilized();
    for (const id of ['u9', 'u10']) expect(fate(r, id)).toBe('deduplicated/near_duplicate');
    for (const id of ['log1', 'log2']) {
      expect(fate(r, id)).toBe('masked/tool_output_fields');
      expect(Object.keys(JSON.parse(item(r, id).content as string) as object)).toEqual([
        'result',
        'status',
        'error',
      ]);
    }
    expect(fate(r, 'stale')).toBe('expired/summary_expired');
    expect(r.summaries.map((s) => [s.id, s.status])).toEqual([['stale', 'expired']]);
    for (const n of [1, 2, 3, 4]) expect(fate(r, `u${n}`)).toBe('dropped/scope_reset');
  });

  it('orders constraints → task → conversation → summaries, the compaction summary last', () => {
    const { r } = stabilized();
    expect(ids(r).slice(0, 4)).toEqual(['sys', 'pol', 'ph', 'tk']);
    expect(ids(r).at(-1)).toBe('compaction-u5-a8');
    expect(r.context.filter((c) => c.kind === 'summary').map((c) => c.id)).toEqual(['compaction-u5-a8']);
  });

  it('writes the requests, decision, files, commands and open question of turns 5–8', () => {
    const { r } = stabilized();
    const text = item(r, 'compaction-u5-a8').content as string;
    expect(text.split('\n')[0]).toBe(
      'Summary of earlier turns 5–8 (11 artifacts compacted by context-stability):',
    );
    expect(text).toContain('Decisions:\n- turn 8: Decision: we issue a fresh reset link');
    expect(text).toContain('Files touched:\n- runbooks/password-reset.md (read)');
    expect(text).toContain('Commands:\n- turn 6: lookup_account → ok');
    expect(text).toContain(
      'Open questions:\n- turn 7: Is my account locked now because of all the failed attempts?',
    );
    // Over max_tokens with every line: the replies go first (their section with them), then the
    // oldest request, and the text says so.
    expect(text).not.toContain('Replies:');
    expect(text).toContain('- … 1 more request');
    expect(text).not.toContain('turn 5: I reset my password');
    expect(item(r, 'compaction-u5-a8').tokens).toBeLessThanOrEqual(200);
    expect(r.compaction?.[0]?.lines_left_out).toBe(3);
  });

  it('passes every check', () => {
    const { tr, r } = stabilized();
    expect(failing(tr, r, SEED_POLICY, o200k)).toEqual([]);
  });

  it('is deterministic: the same input twice gives the same result', () => {
    expect(JSON.stringify(stabilized().r)).toBe(JSON.stringify(stabilized().r));
  });
});

describe('compaction: refresh', () => {
  it('call 1 compacts turns 1–4; call 2 refreshes that summary with turns 5–8', () => {
    const tr1 = t(...HEAD, ...turns(1, 6));
    const r1 = run(tr1, SMALL);
    const first = r1.compaction?.[0];
    expect(first?.covers).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4', 'a4']);
    expect(failing(tr1, r1)).toEqual([]);

    // The runtime records the summary into the history; four more turns follow.
    const tr2 = t(...HEAD, ...turns(1, 6), recorded(r1, 6), ...turns(7, 10));
    const r2 = run(tr2, SMALL);
    const log = r2.compaction?.[0];
    expect(log?.refreshed_from).toBe(first?.id);
    expect(log?.covers).toEqual([
      'u1',
      'a1',
      'u2',
      'a2',
      'u3',
      'a3',
      'u4',
      'a4',
      'u5',
      'a5',
      'u6',
      'a6',
      'u7',
      'a7',
      'u8',
      'a8',
    ]);
    expect(log?.id).toBe('compaction-u1-a8');
    expect(fate(r2, first?.id as string)).toBe('expired/summary_superseded');
    expect(entry(r2, first?.id as string).detail).toBe('superseded by compaction summary compaction-u1-a8');
    expect(r2.summaries.find((s) => s.id === first?.id)).toMatchObject({
      status: 'expired',
      reasons: ['superseded'],
    });
    // What the old summary covered leaves as compacted into it; the delta into the new one.
    expect(entry(r2, 'u1').detail).toBe(`compacted into ${first?.id}`);
    expect(entry(r2, 'u5').detail).toBe('compacted into compaction-u1-a8');
    const text = item(r2, 'compaction-u1-a8').content as string;
    expect(text.split('\n')[0]).toBe(
      `Summary of earlier turns 1–8 (16 artifacts compacted by context-stability; refreshes ${first?.id}):`,
    );
    expect(text).toContain('Earlier summary:');
    expect(r2.events.map((e) => e.code)).toContain('compaction_refreshed');
    expect(r2.budget.used).toBeLessThanOrEqual(150);
    expect(failing(tr2, r2)).toEqual([]);
  });

  it('keeps a recorded compaction summary as it is while nothing more must go', () => {
    const tr1 = t(...HEAD, ...turns(1, 6));
    const r1 = run(tr1, SMALL);
    const tr2 = t(...HEAD, ...turns(1, 6), recorded(r1, 6));
    const r2 = run(tr2, SMALL);
    const id = r1.compaction?.[0]?.id as string;
    expect(r2.compaction).toBeUndefined();
    expect(fate(r2, id)).toBe('kept/in_budget');
    expect(fate(r2, 'u2')).toBe('collapsed/compacted_into');
    expect(failing(tr2, r2)).toEqual([]);
  });
});

describe('compaction: content', () => {
  const OFF = policy({
    ...RANKED,
    budget: 120,
    keep_recent: 1,
    resilience: { enabled: false },
    compaction: { enabled: true, max_tokens: 90, request_chars: 60 },
  });

  it('lists commands with exit codes, the last error of each family and the files of tool calls', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Please run the tests and fix what fails.'),
      calls('c1', [call('k1', 'bash', { command: 'npm test -- --run' })]),
      result('o1', 'k1', 'FAIL src/a.test.ts\nError: expected 1 to be 2', { exit_code: 1 }),
      calls('c2', [call('k2', 'edit', { path: 'src/a.ts', old: 'x', new: 'y' })]),
      result('o2', 'k2', 'ok'),
      calls('c3', [
        call('k3', 'apply_patch', { input: '*** Begin Patch\n*** Update File: src/b.ts\n*** End Patch' }),
      ]),
      result('o3', 'k3', 'patched'),
      calls('c4', [call('k4', 'bash', { command: 'npm test -- --run' })]),
      result('o4', 'k4', 'Error: expected 2 to be 3', { exit_code: 1 }),
      asst('a1', 'Decided: keep the old parser for now.'),
      ...turns(2, 4),
    );
    const r = run(tr, OFF);
    const text = item(r, r.compaction?.[0]?.id as string).content as string;
    expect(text).toContain(
      'Commands:\n- turn 1: bash `npm test -- --run` → exit 1\n- turn 1: bash `npm test -- --run` → exit 1',
    );
    expect(text).toContain('Files touched:\n- src/a.ts (edit)\n- src/b.ts (apply_patch)');
    expect(text).toContain('Last error per command:\n- bash:npm test: Error: expected 2 to be 3');
    expect(text).toContain('Decisions:\n- turn 1: Decided: keep the old parser for now.');
    expect(failing(tr, r, OFF)).toEqual([]);
  });

  it('keeps what the assistant said, by its first sentence, when its replies made no decision', () => {
    // A support chat (tau-bench): the compacted turns are long assistant replies with no tool call,
    // no decision and no question; without them the summary would be a bare header.
    const tr = t(
      ...HEAD,
      user('u1', 'My flight was delayed.'),
      asst('a1', `I can assist you with your delayed flight. ${words(60, 'x')}.`),
      user('u2', 'It is mia_1.'),
      asst('a2', `I have retrieved your reservation 4OG6T3. ${words(60, 'y')}.`),
      ...turns(3, 4, 6),
    );
    const r = run(
      tr,
      policy({ ...RANKED, budget: 80, keep_recent: 1, compaction: { enabled: true, max_tokens: 60 } }),
    );
    expect(r.compaction?.[0]?.covers).toEqual(['a1', 'a2']);
    const text = item(r, r.compaction?.[0]?.id as string).content as string;
    expect(text).toBe(
      [
        'Summary of earlier turns 1–2 (2 artifacts compacted by context-stability):',
        'Replies:',
        '- turn 1: I can assist you with your delayed flight.',
        '- turn 2: I have retrieved your reservation 4OG6T3.',
      ].join('\n'),
    );
  });

  it('builds the summary from masked text: no PII reaches it', () => {
    const tr = t(
      ...HEAD,
      user('u1', 'Mail the report to jane.doe@example.com when done, or call +1 415 555 0100?'),
      ...turns(2, 5),
    );
    const r = run(tr, SMALL);
    const text = item(r, r.compaction?.[0]?.id as string).content as string;
    expect(text).toContain('[EMAIL_1]');
    expect(text).not.toContain('jane.doe@example.com');
    expect(failing(tr, r)).toEqual([]);
  });

  it('leaves the drops as they were, and says why, when no summary fits in the budget', () => {
    // Protected artifacts leave 10 tokens: too few for the header of any summary.
    const tight = policy({ budget: 90, keep_recent: 1, compaction: { enabled: true, max_tokens: 80 } });
    const tr = t(...HEAD, ...turns(1, 3, 20), user('u9', words(70, 'z')));
    const r = run(tr, tight);
    expect(r.compaction).toBeUndefined();
    expect(fate(r, 'u2')).toBe('dropped/budget');
    expect(r.events.find((e) => e.code === 'compaction_skipped')?.message).toMatch(
      /^no room for a compaction summary/,
    );
    expect(r.budget.used).toBeLessThanOrEqual(90);
  });
});

describe('compaction: stable cut (the default)', () => {
  it('summarises everything before the cut point, which only moves forward, call after call', () => {
    // Replayed as an agent calls the model: the history so far, before each assistant turn.
    const P = policy({ budget: 300, compaction: { enabled: true, max_tokens: 80, request_chars: 40 } });
    let lastCut = -1;
    let unchanged = 0;
    let previous: string | undefined;
    for (let n = 6; n <= 16; n++) {
      const history = [...HEAD, ...turns(1, n)].slice(0, -1);
      const tr = t(...history);
      const r = run(tr, P);
      expect(r.status).toBe('ok');
      expect(r.budget.used).toBeLessThanOrEqual(300);
      expect(failing(tr, r, P)).toEqual([]);
      const kept = new Set(ids(r));
      const conversation = history.slice(HEAD.length).map((d) => d.id);
      const cut = conversation.findIndex((id) => kept.has(id));
      // One contiguous cut: everything before it is in the summary, everything from it is kept.
      expect(r.compaction?.[0]?.covers ?? []).toEqual(conversation.slice(0, cut));
      expect(conversation.slice(cut).every((id) => kept.has(id))).toBe(true);
      expect(cut).toBeGreaterThanOrEqual(lastCut);
      if (r.compaction?.[0]?.id === previous && previous !== undefined) unchanged++;
      lastCut = cut;
      previous = r.compaction?.[0]?.id;
    }
    // Turns of 40 tokens against a grid step of 45: the cut stays put for at least one call.
    expect(unchanged).toBeGreaterThan(0);
  });
});

describe('compaction: disabled', () => {
  it('changes nothing: a policy without the key and one with enabled: false give byte-identical results', async () => {
    const { loadTranscript } = await import('../../../src/io/load-transcript.js');
    const loaded = await loadTranscript('examples/transcripts/support-session.openai.json');
    if (!loaded.ok) throw new Error('example not readable');
    const base = { budget: 300, message_overhead: 3 };
    const without = run(loaded.transcript, policy(base), o200k);
    const off = run(loaded.transcript, policy({ ...base, compaction: { enabled: false } }), o200k);
    expect(JSON.stringify(off)).toBe(JSON.stringify(without));
    expect(without.compaction).toBeUndefined();
    // The budget did drop something here: with compaction on, the result would differ.
    const on = run(loaded.transcript, policy({ ...base, compaction: { enabled: true } }), o200k);
    expect(JSON.stringify(on)).not.toBe(JSON.stringify(without));
  });
});
