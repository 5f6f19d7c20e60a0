// The retention replay (issue 28): each tool call's argument values that the history already held
// must reach the model at that call. Word-count tokenizer: budgets are counted by hand.
import { describe, expect, it } from 'vitest';
import { pickReplayed, replayRetention, toolCallPoints } from '../../../src/core/retention/replay.js';
import { retentionCheck } from '../../../src/core/retention/check.js';
import { StabilizeMemo } from '../../../src/core/stabilize/memo.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import { asst, call, calls, result, sys, t, user } from '../../support/artifacts.js';
import { policy, wordTokenizer as tokenizer } from '../stabilize/helpers.js';

const filler = (n: number): string => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

/** A support session: the reservation id is given early, chatter follows, then the id is used. */
function session(email = false) {
  return t(
    sys('s', 'You are an airline support agent.'),
    user('u1', 'I want to cancel a reservation.'),
    user('u2', email ? 'My e-mail is rosa.quintero@example.net' : 'The reservation is 8JX2WO.', {
      source: { file: 'x', line: 41, column: 3 },
    }),
    asst('a2', `Noted. ${filler(40)}`),
    user('u3', `A question first. ${filler(40)}`),
    asst('a3', `An answer. ${filler(40)}`),
    user('u4', 'Cancel it now.'),
    calls(
      'a4',
      [
        email
          ? call('c1', 'find_user', { email: 'rosa.quintero@example.net' })
          : call('c1', 'cancel_reservation', { reservation_id: '8JX2WO' }),
      ],
      '',
      { source: { file: 'x', line: 88, column: 5 } },
    ),
    result('r1', 'c1', 'cancelled'),
  );
}

describe('replayRetention', () => {
  it('reports a value the history held but the context at the call dropped, with both lines', () => {
    const r = replayRetention(session(), { policy: policy({ budget: 70 }), tokenizer });
    expect(r.summary).toMatchObject({ calls: 1, replayed: 1, facts: 1, lost: 1 });
    expect(r.lost).toEqual([
      {
        value: '8JX2WO',
        needed: { id: 'a4', line: 88, column: 5, tool: 'cancel_reservation' },
        source: { id: 'u2', line: 41, kind: 'user' },
        cause: 'dropped (budget)',
      },
    ]);
    const check = retentionCheck(r.lost, [], 'error');
    expect(check.violations).toEqual([
      {
        id: 'a4',
        line: 88,
        column: 5,
        message:
          'the cancel_reservation call at line 88 used `8JX2WO`, first seen at line 41 (user); the context at that call had lost it: dropped (budget)',
      },
    ]);
  });

  it('reports nothing when the budget keeps the value', () => {
    const r = replayRetention(session(), { policy: policy({ budget: 1000 }), tokenizer });
    expect(r.summary).toMatchObject({ facts: 1, lost: 0 });
    expect(r.lost).toEqual([]);
  });

  it('never counts or quotes personal data: the PII rules keep it from the model on purpose', () => {
    const r = replayRetention(session(true), { policy: policy({ budget: 70 }), tokenizer });
    expect(r.summary).toMatchObject({ facts: 0, lost: 0 });
    expect(JSON.stringify(r)).not.toContain('rosa.quintero');
  });

  it('a value first written by the call itself is no fact the history held', () => {
    const tr = t(
      sys('s', 'sys'),
      user('u1', `Write the config. ${filler(30)}`),
      calls('a1', [call('c1', 'write_file', { path: 'conf/new-file.yml' })]),
      result('r1', 'c1', 'written'),
    );
    const r = replayRetention(tr, { policy: policy({ budget: 10 }), tokenizer });
    expect(r.summary).toMatchObject({ calls: 1, facts: 0, lost: 0 });
  });

  it('side-chain calls are not the agent’s', () => {
    const tr = t(
      sys('s', 'sys'),
      user('u1', 'Look at src/app.ts'),
      calls('a1', [call('c1', 'read', { path: 'src/app.ts' })], '', { sidechain: true }),
      result('r1', 'c1', 'x', { sidechain: true }),
    );
    expect(toolCallPoints(tr.artifacts)).toEqual([]);
  });

  it('replays at most maxCalls calls, the newest always', () => {
    const drafts = [sys('s', 'sys'), user('u1', 'Read every file.')];
    for (let i = 0; i < 30; i++) {
      drafts.push(calls(`a${i}`, [call(`c${i}`, 'read', { path: `src/file${i}.ts` })]));
      drafts.push(result(`r${i}`, `c${i}`, `contents of src/file${i + 1}.ts`));
    }
    const r = replayRetention(t(...drafts), { policy: policy({ budget: 1000 }), tokenizer, maxCalls: 10 });
    expect(r.summary).toMatchObject({ calls: 30, replayed: 10, facts: 9, lost: 0 });
    const picked = pickReplayed(30, 10);
    expect(picked).toHaveLength(10);
    expect(picked.slice(-8)).toEqual([22, 23, 24, 25, 26, 27, 28, 29]);
    expect(picked[0]).toBe(0);
    expect(pickReplayed(5, 10)).toEqual([0, 1, 2, 3, 4]);
  });

  // issue 32: check stabilizes the whole transcript first and hands its memo to the replay.
  it('gives the same findings with the memo of the whole transcript’s run as with a fresh one', () => {
    for (const email of [false, true]) {
      const tr = session(email);
      for (const budget of [70, 90, 400]) {
        const p = policy({ budget });
        const memo = new StabilizeMemo();
        stabilizeTranscript(tr, { policy: p, tokenizer, memo });
        const shared = replayRetention(tr, { policy: p, tokenizer, memo });
        expect(shared, `budget ${budget}`).toEqual(replayRetention(tr, { policy: p, tokenizer }));
        expect(memo.tokens.size).toBeGreaterThan(0);
      }
    }
  });

  it('reads of each replayed call only what decisionsOnly keeps: the same context and ledger as a full run', () => {
    const tr = session(true);
    for (const budget of [70, 400]) {
      const opts = { policy: policy({ budget }), tokenizer };
      const full = stabilizeTranscript(tr, opts);
      const lean = stabilizeTranscript(tr, { ...opts, decisionsOnly: true });
      expect(lean.context).toEqual(full.context);
      expect(lean.ledger.map(({ emit: _, ...e }) => e)).toEqual(full.ledger.map(({ emit: _, ...e }) => e));
      expect(lean.events).toEqual([]);
    }
  });
});
