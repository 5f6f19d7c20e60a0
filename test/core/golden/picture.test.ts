// The picture of a transcript's context (src/core/golden/picture.ts): the fate of every artifact as
// runs in transcript order, tokens by kind, and the three largest consumers. It travels in the check
// report, so it must hold ids, kinds, lines and counts only: never content.
import { describe, expect, it } from 'vitest';
import { CONSUMERS_SHOWN, MAP_FATES, buildPicture, mapFate } from '../../../src/core/golden/picture.js';
import type { MapFate } from '../../../src/core/golden/picture.js';
import { ACTIONS } from '../../../src/core/stabilize/types.js';
import type { Action, LedgerEntry } from '../../../src/core/stabilize/types.js';
import { item, ledger } from './support.js';

/** A ledger entry (tokens in the context for kept and masked artifacts, else 0). */
function entry(id: string, line: number, action: Action, tokens = 10, extra: Partial<LedgerEntry> = {}): LedgerEntry {
  return { ...ledger(id, line, action, 'reason', tokens), ...extra };
}

describe('mapFate', () => {
  it('gives every ledger action the fate a reviewer reads at a glance', () => {
    const fates: Record<Action, MapFate> = {
      kept: 'kept',
      masked: 'masked',
      compressed: 'excerpt',
      excerpted: 'excerpt',
      collapsed: 'dropped',
      deduplicated: 'dropped',
      expired: 'dropped',
      dropped: 'dropped',
    };
    // Every action the stabilizer writes has a fate here (a new action must be placed on purpose).
    expect(Object.keys(fates).sort()).toEqual([...ACTIONS].sort());
    for (const action of ACTIONS) expect(mapFate({ action }), action).toBe(fates[action]);
    for (const action of ACTIONS) expect(MAP_FATES).toContain(mapFate({ action }));
  });

  it('calls a kept artifact protected only when a protection rule holds it', () => {
    expect(mapFate({ action: 'kept', protected_by: ['system'] })).toBe('protected');
    expect(mapFate({ action: 'kept', protected_by: ['tag:error', 'pinned'] })).toBe('protected');
    expect(mapFate({ action: 'kept', protected_by: [] })).toBe('kept');
    expect(mapFate({ action: 'kept' })).toBe('kept');
    // Protection is about keeping: a dropped or masked artifact keeps its own fate.
    expect(mapFate({ action: 'masked', protected_by: ['system'] })).toBe('masked');
    expect(mapFate({ action: 'dropped', protected_by: ['system'] })).toBe('dropped');
  });
});

describe('buildPicture runs', () => {
  it('merges consecutive equal fates, in transcript line order whatever the ledger order', () => {
    const entries = [
      entry('m5', 5, 'kept', 7),
      entry('m3', 3, 'dropped', 30),
      entry('m1', 1, 'kept', 10, { protected_by: ['system'] }),
      entry('m4', 4, 'deduplicated', 20),
      entry('m2', 2, 'kept', 20, { protected_by: ['pinned'] }),
      entry('m6', 6, 'masked', 4),
      entry('m7', 7, 'kept', 3),
    ];
    expect(buildPicture(entries, [], 100).runs).toEqual([
      { fate: 'protected', count: 2, line: 1, id: 'm1', tokens: 30 },
      // dropped and deduplicated are one fate: one run.
      { fate: 'dropped', count: 2, line: 3, id: 'm3', tokens: 0 },
      { fate: 'kept', count: 1, line: 5, id: 'm5', tokens: 7 },
      { fate: 'masked', count: 1, line: 6, id: 'm6', tokens: 4 },
      // Equal fates apart are separate runs.
      { fate: 'kept', count: 1, line: 7, id: 'm7', tokens: 3 },
    ]);
  });

  it('keeps the ledger order for artifacts on the same line (a record holding several)', () => {
    const runs = buildPicture([entry('b', 4, 'dropped'), entry('a', 4, 'kept'), entry('c', 4, 'dropped')], [], 100).runs;
    expect(runs.map((r) => [r.fate, r.id, r.count])).toEqual([
      ['dropped', 'b', 1],
      ['kept', 'a', 1],
      ['dropped', 'c', 1],
    ]);
  });

  it('counts every artifact exactly once', () => {
    const entries = Array.from({ length: 50 }, (_, i) => entry(`m${i}`, i + 1, ACTIONS[i % ACTIONS.length] as Action));
    const runs = buildPicture(entries, [], 100).runs;
    expect(runs.reduce((n, r) => n + r.count, 0)).toBe(50);
    for (let i = 1; i < runs.length; i++) expect(runs[i]?.fate).not.toBe(runs[i - 1]?.fate);
  });

  it('is empty for an empty ledger', () => {
    expect(buildPicture([], [], 100)).toEqual({ runs: [], by_kind: {}, consumers: [] });
  });
});

describe('buildPicture tokens', () => {
  const context = [
    item('u1', 2, 'mail dana.miller@example.org please', 10, 'user'),
    item('t1', 3, 'PASS src/date.test.ts', 30, 'tool'),
    item('s1', 1, 'You are a careful agent.', 5, 'system'),
    item('t2', 4, 'FAIL src/leap.test.ts', 12, 'tool'),
    item('a1', 5, 'The parser looks fine.', 30, 'assistant'),
  ];

  it('sums the tokens in the context by kind, kinds sorted by name', () => {
    const { by_kind } = buildPicture([], context, 100);
    expect(by_kind).toEqual({ assistant: 30, system: 5, tool: 42, user: 10 });
    expect(Object.keys(by_kind)).toEqual(['assistant', 'system', 'tool', 'user']);
    const total = Object.values(by_kind).reduce((n, k) => n + k, 0);
    expect(total).toBe(context.reduce((n, c) => n + c.tokens, 0));
  });

  it('names the three largest consumers, largest first (ties by line), with their share of the budget', () => {
    const { consumers } = buildPicture([], context, 80);
    expect(consumers).toHaveLength(CONSUMERS_SHOWN);
    expect(consumers).toEqual([
      { id: 't1', kind: 'tool', line: 3, tokens: 30, percent: 38 },
      { id: 'a1', kind: 'assistant', line: 5, tokens: 30, percent: 38 },
      { id: 't2', kind: 'tool', line: 4, tokens: 12, percent: 15 },
    ]);
  });

  it('leaves zero-token items out of the consumers', () => {
    const { consumers, by_kind } = buildPicture([], [item('a', 1, 'x', 0), item('b', 2, 'y', 4), item('c', 3, 'z', 0, 'tool')], 100);
    expect(consumers.map((c) => c.id)).toEqual(['b']);
    expect(by_kind).toEqual({ tool: 0, user: 4 });
  });

  it('gives a percent over 100 when one item is over the budget, and 0 with no budget', () => {
    expect(buildPicture([], [item('big', 1, 'x', 250)], 100).consumers[0]?.percent).toBe(250);
    expect(buildPicture([], [item('big', 1, 'x', 250)], 0).consumers[0]?.percent).toBe(0);
  });

  it('holds ids, kinds, lines and counts only: never the content', () => {
    const picture = buildPicture([entry('u1', 2, 'kept', 10)], context, 100);
    const text = JSON.stringify(picture);
    for (const c of context) expect(text).not.toContain(String(c.content));
    expect(text).not.toContain('dana.miller');
  });
});
