// Stage 7 (collapse, aggressive mode only): a retry run of failures becomes one compact artifact plus
// the latest failure verbatim; aggressive mode also drops old assistant chatter (stage 9).
import { describe, expect, it } from 'vitest';
import { firstErrorLine } from '../../../src/core/stabilize/collapse.js';
import type { Draft } from '../../support/artifacts.js';
import { asst, bash, call, calls, result, t, user } from '../../support/artifacts.js';
import { check, entry, fate, ids, item, policy, pressed, run } from './helpers.js';

const AGGRESSIVE = policy({ resilience: { truncation_mode: 'aggressive' } });

function jestFailure(received: number): string {
  return `> jest\n\nFAIL src/cart.test.ts\n  ● total › adds tax\n    Expected: 108\n    Received: ${received}`;
}

/** edit → test fails, three times over; failures tagged as an Anthropic transcript tags them. */
function retrySession(): Draft[] {
  const steps: Draft[] = [user('u', 'make the cart tests pass')];
  for (let i = 1; i <= 3; i++) {
    steps.push(
      calls(`e${i}`, [call(`ce${i}`, 'edit', { path: 'src/cart.ts', patch: `attempt ${i}` })]),
      result(`re${i}`, `ce${i}`, 'edit applied'),
      calls(`a${i}`, [bash(`c${i}`, 'npm test')]),
      result(`r${i}`, `c${i}`, jestFailure(100 + i), { is_error: true, tags: ['error'] }),
    );
  }
  steps.push(asst('x', 'Still failing; the tax rate is read before it is loaded.'));
  return steps;
}

describe('collapse: retry runs', () => {
  it('collapses all but the latest failure into one compact artifact in aggressive mode', () => {
    const tr = t(...retrySession());
    const r = run(tr, AGGRESSIVE);
    expect(fate(r, 'r1')).toBe('collapsed/retry_run');
    expect(item(r, 'r1').content).toBe(
      '[2 failed attempts of `npm test` collapsed; first error: FAIL src/cart.test.ts]',
    );
    expect(entry(r, 'r1').detail).toBe(
      '2 failed attempts collapsed into this one; the latest failure r3 stays verbatim',
    );
    expect(entry(r, 'r2')).toMatchObject({
      action: 'collapsed',
      reason: 'retry_run',
      detail: 'collapsed into r1',
      tokens_after: 0,
    });
    // The call whose result was folded away leaves too; the head's call stays for its compact result.
    expect(fate(r, 'a2')).toBe('dropped/pair_unit');
    expect(ids(r)).toContain('a1');
    expect(item(r, 'r3').content).toBe(jestFailure(103));
    expect(r.events).toContainEqual({
      level: 'major',
      code: 'retry_collapse',
      message: 'collapsed 2 failed retries',
    });
    const failing = Object.values(check(tr, r, AGGRESSIVE)).filter((c) => !c.ok);
    expect(failing).toEqual([]);
  });

  it('collapses nothing in default mode: every tagged failure stays verbatim', () => {
    const r = run(t(...retrySession()));
    for (const id of ['r1', 'r2', 'r3']) expect(fate(r, id)).toBe('kept/protected');
    expect(item(r, 'r1').content).toBe(jestFailure(101));
    expect(r.ledger.map((e) => e.reason)).not.toContain('retry_run');
  });

  it('starts a new run after a success of the same command', () => {
    const tr = t(
      user('u', 'go'),
      calls('a1', [bash('c1', 'npm test')]),
      result('r1', 'c1', jestFailure(101), { tags: ['error'] }),
      calls('a2', [bash('c2', 'npm test')]),
      result('r2', 'c2', 'Tests: 12 passed'),
      calls('a3', [bash('c3', 'npm test')]),
      result('r3', 'c3', jestFailure(103), { tags: ['error'] }),
    );
    const r = run(tr, AGGRESSIVE);
    expect(r.ledger.map((e) => e.reason)).not.toContain('retry_run');
  });

  it('leaves failures that nothing protects to the superseded rule, in both modes', () => {
    // A failure (exit code 1) is the `error` kind; with `error` not a protected kind nothing
    // protects it, so it is stale once the same command ran again (stage 6, which runs before
    // collapse): it leaves as superseded and there is nothing left to collapse.
    const steps = retrySession().map((d) =>
      /^r\d$/.test(d.id) ? { ...d, tags: [], is_error: undefined, exit_code: 1 } : d,
    );
    // Supersession is a cleanup under pressure: the history is one token over the budget.
    const kinds = { protected_message_kinds: ['decision'] };
    const tr = t(...steps);
    for (const p of [
      pressed(tr, { resilience: kinds }),
      pressed(tr, { resilience: { ...kinds, truncation_mode: 'aggressive' } }),
    ]) {
      const r = run(tr, p);
      expect(fate(r, 'r1')).toBe('dropped/superseded');
      expect(fate(r, 'r2')).toBe('dropped/superseded');
      expect(item(r, 'r3').content).toBe(jestFailure(103));
    }
  });
});

describe('collapse: first error line', () => {
  it('takes the first line that names a problem, else the first non-empty line', () => {
    expect(firstErrorLine('> build\n\nsrc/a.ts: error TS2322: bad type\nmore')).toBe(
      'src/a.ts: error TS2322: bad type',
    );
    expect(firstErrorLine('\n  exit status 2\n')).toBe('exit status 2');
  });

  it('caps the line so the compact artifact stays compact', () => {
    const line = firstErrorLine(`Error: ${'x'.repeat(400)}`);
    expect(line).toHaveLength(160);
    expect(line.endsWith('...')).toBe(true);
  });
});

describe('aggressive chatter', () => {
  function chatty(): Draft[] {
    return [
      user('u1', 'refactor the parser'),
      asst('think1', 'First I will read the grammar file.'),
      asst('think2', 'The grammar has three entry points.'),
      asst('dec', 'Decision: keep the recursive descent design.', { tags: ['decision'] }),
      user('u2', 'sounds good'),
      asst('think3', 'Now writing the new tokenizer.'),
    ];
  }

  it('drops unprotected assistant messages older than the recent window in aggressive mode', () => {
    // keep_recent 1: the recent window is the turn that starts at u2.
    const r = run(t(...chatty()), policy({ keep_recent: 1, resilience: { truncation_mode: 'aggressive' } }));
    expect(fate(r, 'think1')).toBe('dropped/aggressive_chatter');
    expect(fate(r, 'think2')).toBe('dropped/aggressive_chatter');
    expect(entry(r, 'think1').detail).toBe(
      'assistant chatter older than the recent window (aggressive mode)',
    );
    // Protected and recent messages, and user messages, stay.
    expect(ids(r)).toEqual(['u1', 'dec', 'u2', 'think3']);
    expect(r.events).toContainEqual({
      level: 'major',
      code: 'aggressive_chatter',
      message: 'dropped 2 old assistant messages (aggressive mode)',
    });
  });

  it('keeps the chatter in default mode when it fits', () => {
    expect(ids(run(t(...chatty())))).toEqual(['u1', 'think1', 'think2', 'dec', 'u2', 'think3']);
  });
});
