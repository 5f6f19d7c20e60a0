// Stage 6 (dedup): exact and near duplicates leave and name the copy that stays (the latest); results
// superseded by a later run of the same command are stale and leave too. Both act only under pressure
// (issue 27): the tests that expect a removal put the history one token over the budget (`pressed`).
import { describe, expect, it } from 'vitest';
import { asst, bash, call, calls, result, t, user } from '../../support/artifacts.js';
import type { Policy } from '../../../src/core/policy/index.js';
import type { Transcript } from '../../../src/core/types.js';
import { check, entry, fate, ids, item, policy, run } from './helpers.js';

const REPORT =
  'The deployment failed because the database migration timed out after thirty seconds while holding a lock on the orders table so every checkout request queued behind it';
const REPORT_AGAIN = `${REPORT} again`;
// keep_recent 0: the recent window would protect the copies under test.
const P = policy({ keep_recent: 0 });
// The first user message is the task statement, always kept: the copies under test come after it.
const ASK = user('u0', 'Please look at the outage.');

/** `P` with the budget one token below what the whole history takes: dedup acts only then. */
function pressed(tr: Transcript): Policy {
  return policy({ keep_recent: 0, budget: run(tr, P).budget.used - 1 });
}

/**
 * `pressed`, re-decided newest first (stable_prefix off): dedup then widens with the part of the
 * history that can fit, so the earlier copy is compared and leaves as a duplicate. With the stable
 * prefix on, a copy older than the cut point leaves with the cut instead (`budget`), and dedup only
 * cleans up the kept part.
 */
function pressedNewestFirst(tr: Transcript): Policy {
  const off = { keep_recent: 0, stable_prefix: { enabled: false } };
  return policy({ ...off, budget: run(tr, policy(off)).budget.used - 1 });
}

describe('dedup: exact and near duplicates', () => {
  it('removes an earlier exact copy and names the one that stays', () => {
    const tr = t(ASK, user('u1', REPORT), asst('a1', 'Looking into it.'), user('u2', REPORT));
    const r = run(tr, pressedNewestFirst(tr));
    expect(fate(r, 'u1')).toBe('deduplicated/duplicate');
    expect(entry(r, 'u1')).toMatchObject({ stage: 'dedup', duplicate_of: 'u2', detail: 'same text as u2' });
    expect(ids(r)).toEqual(['u0', 'a1', 'u2']);
    expect(r.events).toContainEqual({
      level: 'major',
      code: 'deduplicated',
      message: 'removed 1 duplicate or near-duplicate artifacts',
    });
  });

  it('points every earlier copy at the latest one', () => {
    const tr = t(ASK, user('u1', REPORT), user('u2', REPORT), user('u3', REPORT));
    const r = run(tr, pressed(tr));
    expect(entry(r, 'u1').duplicate_of).toBe('u3');
    expect(entry(r, 'u2').duplicate_of).toBe('u3');
    expect(ids(r)).toEqual(['u0', 'u3']);
  });

  it('removes a near duplicate at or above the similarity threshold', () => {
    const tr = t(asst('a1', REPORT), user('u', 'and?'), asst('a2', REPORT_AGAIN));
    const r = run(tr, pressedNewestFirst(tr));
    expect(fate(r, 'a1')).toBe('deduplicated/near_duplicate');
    expect(entry(r, 'a1')).toMatchObject({ duplicate_of: 'a2', detail: 'similarity 0.96 with a2' });
  });

  it('keeps near duplicates below the threshold, and with similarity 1 keeps every near copy', () => {
    const tr = t(asst('a1', REPORT), user('u', 'and?'), asst('a2', REPORT_AGAIN));
    expect(ids(run(tr, policy({ keep_recent: 0, dedup: { similarity: 0.99 } })))).toEqual(['a1', 'u', 'a2']);
    expect(ids(run(tr, policy({ keep_recent: 0, dedup: { similarity: 1 } })))).toEqual(['a1', 'u', 'a2']);
  });

  it('never deduplicates short messages: repeated short turns are part of the dialogue', () => {
    const tr = t(
      user('u1', 'yes, go ahead'),
      asst('a1', 'Done with step one.'),
      user('u2', 'yes, go ahead'),
      asst('a2', 'Done with step two.'),
      user('u3', 'yes, go ahead'),
    );
    expect(ids(run(tr, P))).toEqual(['u1', 'a1', 'u2', 'a2', 'u3']);
  });

  it('never treats texts of different kinds as copies of each other', () => {
    // The assistant quotes the user's report back: both stay.
    const tr = t(user('u1', REPORT), asst('a1', REPORT), user('u2', 'right'));
    expect(ids(run(tr, P))).toEqual(['u1', 'a1', 'u2']);
  });

  it('keeps the task statement even when the user repeats it later', () => {
    const tr = t(user('u1', REPORT), asst('a1', 'Looking into it.'), user('u2', REPORT));
    expect(ids(run(tr, P))).toEqual(['u1', 'a1', 'u2']);
  });

  it('never removes a protected copy, but a protected later copy still replaces earlier ones', () => {
    const pinned = t(ASK, user('u1', REPORT, { pin: true }), user('u2', REPORT));
    expect(ids(run(pinned, pressedNewestFirst(pinned)))).toEqual(['u0', 'u1', 'u2']);
    const later = t(ASK, user('u1', REPORT), user('u2', REPORT, { pin: true }));
    const r = run(later, pressedNewestFirst(later));
    expect(entry(r, 'u1').duplicate_of).toBe('u2');
  });

  it('keeps every copy when dedup is disabled', () => {
    const tr = t(user('u1', REPORT), user('u2', REPORT));
    expect(ids(run(tr, policy({ keep_recent: 0, dedup: { enabled: false } })))).toEqual(['u1', 'u2']);
  });

  it('removes a duplicated tool result together with its call', () => {
    const tr = t(
      user('u', 'search twice'),
      calls('a1', [call('c1', 'search', { q: 'migration timeout' })]),
      result('r1', 'c1', REPORT),
      calls('a2', [call('c2', 'search', { q: 'checkout queue' })]),
      result('r2', 'c2', REPORT),
    );
    const r = run(tr, pressedNewestFirst(tr));
    expect(fate(r, 'r1')).toBe('deduplicated/duplicate');
    expect(fate(r, 'a1')).toBe('dropped/pair_unit');
    expect(ids(r)).toEqual(['u', 'a2', 'r2']);
    expect(check(tr, r, P).pairing?.ok).toBe(true);
  });
});

describe('dedup: superseded results', () => {
  it('drops an earlier result of the same command, with its call', () => {
    const tr = t(
      user('u', 'run the tests'),
      calls('a1', [bash('c1', 'npm test')]),
      result('r1', 'c1', '12 passing'),
      calls('a2', [bash('c2', 'npm test')]),
      result('r2', 'c2', 'all passing'),
    );
    const r = run(tr, pressed(tr));
    expect(fate(r, 'r1')).toBe('dropped/superseded');
    expect(entry(r, 'r1').detail).toBe('a later result of the same command (r2) supersedes it');
    expect(fate(r, 'a1')).toBe('dropped/pair_unit');
    expect(r.events).toContainEqual({
      level: 'major',
      code: 'superseded',
      message: 'dropped 1 results superseded by a later run of the same command',
    });
  });

  it('treats `cd x && npm test` as another invocation than `npm test` (another directory), like `npm run build`', () => {
    const tr = t(
      user('u', 'check everything'),
      calls('a1', [bash('c1', 'npm test')]),
      result('r1', 'c1', '12 passing'),
      calls('a2', [bash('c2', 'npm run build')]),
      result('r2', 'c2', 'build ok'),
      calls('a3', [bash('c3', 'cd packages/app && npm test')]),
      result('r3', 'c3', 'all passing'),
    );
    const r = run(tr, P);
    expect(entry(r, 'r1').reason).not.toBe('superseded');
    expect(ids(r)).toEqual(['u', 'a1', 'r1', 'a2', 'r2', 'a3', 'r3']);
    // The identical invocation, with other spacing, does supersede.
    const again = t(
      ...tr.artifacts,
      calls('a4', [bash('c4', 'cd  packages/app &&npm test')]),
      result('r4', 'c4', 'all passing'),
    );
    // One token over the budget, so that the stabilizer has to cut (it cuts only under pressure).
    const tight = policy({ keep_recent: 0, budget: run(again, P).budget.used - 1 });
    expect(fate(run(again, tight), 'r3')).toBe('dropped/superseded');
  });

  it('supersedes a lookup only by one with the same arguments, a file read by one of the same path', () => {
    const tr = t(
      user('u', 'look things up'),
      calls('a1', [call('c1', 'get_order', { id: 1 })]),
      result('r1', 'c1', 'order 1: processing'),
      calls('a2', [call('c2', 'get_order', { id: 2 })]),
      result('r2', 'c2', 'order 2: shipped'),
      calls('a3', [call('c3', 'read', { path: 'src/app.ts' })]),
      result('r3', 'c3', 'export const a = 1;'),
      calls('a4', [call('c4', 'get_order', { id: 1 })]),
      result('r4', 'c4', 'order 1: shipped'),
      calls('a5', [call('c5', 'read', { path: 'src/app.ts' })]),
      result('r5', 'c5', 'export const a = 2;'),
    );
    const r = run(tr, pressed(tr));
    expect(fate(r, 'r1')).toBe('dropped/superseded');
    expect(fate(r, 'r2')).toBe('kept/in_budget');
    expect(fate(r, 'r3')).toBe('dropped/superseded');
    expect(item(r, 'r5').content).toBe('export const a = 2;');
  });

  it('never drops a protected earlier result, and supersedes nothing with resilience disabled', () => {
    const tr = t(
      user('u', 'run the tests'),
      calls('a1', [bash('c1', 'npm test')]),
      result('r1', 'c1', 'TypeError: x is undefined', { exit_code: 1, tags: ['error'] }),
      calls('a2', [bash('c2', 'npm test')]),
      result('r2', 'c2', 'all passing'),
    );
    expect(fate(run(tr, P), 'r1')).toBe('kept/protected');
    const off = run(tr, policy({ keep_recent: 0, resilience: { enabled: false } }));
    expect(ids(off)).toEqual(['u', 'a1', 'r1', 'a2', 'r2']);
  });
});

describe('dedup: superseded only by the same command', () => {
  // After a runner's sub-verb (`npm run`, `python -m`) the script name identifies the command.
  it('treats `npm run build` and `npm run lint` as different commands', () => {
    const tr = t(
      user('u', 'build and lint'),
      calls('a1', [bash('c1', 'npm run build')]),
      result('r1', 'c1', 'build ok'),
      calls('a2', [bash('c2', 'npm run lint')]),
      result('r2', 'c2', 'lint ok'),
    );
    expect(fate(run(tr, P), 'r1')).not.toBe('dropped/superseded');
  });

  // Every edit is a change of its own: a later edit of the same file never makes an earlier one stale.
  it('keeps an earlier edit of a file when the file is edited again', () => {
    const tr = t(
      user('u', 'fix both functions'),
      calls('a1', [call('c1', 'edit', { path: 'src/cart.ts', patch: 'fix total' })]),
      result('r1', 'c1', 'edit applied'),
      calls('a2', [call('c2', 'edit', { path: 'src/cart.ts', patch: 'fix tax' })]),
      result('r2', 'c2', 'edit applied'),
    );
    expect(ids(run(tr, P))).toEqual(['u', 'a1', 'r1', 'a2', 'r2']);
  });
});
