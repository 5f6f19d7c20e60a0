// The picture in Markdown (src/core/golden/render-picture.ts): the budget bar and the session map.
// A reviewer reads them at a glance, so what matters most must never be averaged away: a context
// over budget is marked, and a dropped artifact shows as 🟥 however long the session is.
import { describe, expect, it } from 'vitest';
import type { MapFate, MapRun, SessionPicture } from '../../../src/core/golden/picture.js';
import {
  BAR_CELLS,
  FATE_CELL,
  MAP_CELLS,
  budgetBar,
  legend,
  mapCells,
  sessionMap,
} from '../../../src/core/golden/render-picture.js';

/** The cells of a bar: what is between <code> and </code>. */
function barCells(bar: string): string {
  return /^<code>([▰▱]*)<\/code>/.exec(bar)?.[1] ?? '';
}

/** Cells as characters (each fate square is one code point). */
function cellsOf(cells: string): string[] {
  return Array.from(cells);
}

/** A picture of runs given as [fate, count] pairs, lines numbered along the session. */
function picture(runs: [MapFate, number][]): SessionPicture {
  let line = 1;
  const out: MapRun[] = runs.map(([fate, count]) => {
    const run = { fate, count, line, id: `m${line}`, tokens: fate === 'dropped' ? 0 : count * 10 };
    line += count;
    return run;
  });
  return { runs: out, by_kind: {}, consumers: [] };
}

/** One run per artifact: `total` artifacts alternating kept and protected, with some set apart. */
function alternating(total: number, special: Record<number, MapFate> = {}): SessionPicture {
  const runs: [MapFate, number][] = [];
  for (let i = 0; i < total; i++) runs.push([special[i] ?? (i % 2 === 0 ? 'kept' : 'protected'), 1]);
  return picture(runs);
}

describe('budgetBar', () => {
  it.each([
    [0, 100, 0, '(0%)'],
    [50, 100, 10, '(50%)'],
    [100, 100, 20, '(100%)'],
    [26, 100, 5, '(26%)'],
  ])('fills the cells for %i of %i tokens', (used, limit, filled, percent) => {
    const bar = budgetBar({ used, limit }, undefined);
    expect(barCells(bar)).toBe('▰'.repeat(filled) + '▱'.repeat(BAR_CELLS - filled));
    expect(bar).toContain(`${used} / ${limit} tokens ${percent}`);
    expect(bar).not.toContain('over by');
  });

  it('fills every cell and says by how much when the context is over budget', () => {
    const bar = budgetBar({ used: 9_500, limit: 8_000 }, undefined);
    expect(barCells(bar)).toBe('▰'.repeat(BAR_CELLS));
    expect(bar).toBe(`<code>${'▰'.repeat(BAR_CELLS)}</code> 9,500 / 8,000 tokens (119%) · ⚠️ over by 1,500`);
  });

  it('has a bar of the same width with a budget of 0', () => {
    const empty = budgetBar({ used: 0, limit: 0 }, undefined);
    expect(barCells(empty)).toBe('▱'.repeat(BAR_CELLS));
    expect(empty).not.toContain('over by');
    const some = budgetBar({ used: 5, limit: 0 }, undefined);
    expect(barCells(some)).toBe('▰'.repeat(BAR_CELLS));
    expect(some).toContain('5 / 0 tokens (no budget) · ⚠️ over by 5');
    expect(some).not.toMatch(/NaN|Infinity/);
  });

  it('writes thousands with a separator and the share of each kind, largest first, zero kinds left out', () => {
    const p: SessionPicture = { runs: [], by_kind: { assistant: 400, system: 0, tool: 3_840, user: 720 }, consumers: [] };
    const bar = budgetBar({ used: 4_960, limit: 8_000 }, p);
    expect(bar).toBe(
      `<code>${'▰'.repeat(12)}${'▱'.repeat(8)}</code> 4,960 / 8,000 tokens (62%) · tool 48% · user 9% · assistant 5%`,
    );
  });
});

describe('mapCells', () => {
  it('draws one cell per artifact up to 80 artifacts, in session order', () => {
    const p = picture([
      ['kept', 3],
      ['dropped', 1],
      ['protected', 2],
      ['masked', 1],
      ['excerpt', 2],
    ]);
    expect(mapCells(p)).toEqual({ cells: '🟩🟩🟩🟥🟦🟦🟨🟪🟪', unit: 'one cell per artifact' });
    const full = mapCells(picture([['kept', 79], ['dropped', 1]]));
    expect(cellsOf(full.cells)).toHaveLength(MAP_CELLS);
    expect(full.unit).toBe('one cell per artifact');
    expect(cellsOf(full.cells).at(-1)).toBe('🟥');
  });

  it('draws one cell per run past 80 artifacts, every run shown', () => {
    const p = picture([
      ['protected', 2],
      ['kept', 200],
      ['dropped', 1],
      ['kept', 300],
    ]);
    expect(mapCells(p)).toEqual({
      cells: '🟦🟩🟥🟩',
      unit: 'one cell per run of artifacts with the same fate (503 artifacts)',
    });
  });

  it('draws 80 cells for a session of more than 80 runs, each stretch by its most telling fate', () => {
    const p = alternating(1000);
    const { cells, unit } = mapCells(p);
    expect(cellsOf(cells)).toHaveLength(MAP_CELLS);
    // Every stretch holds kept and protected artifacts: protected is the more telling.
    expect(new Set(cellsOf(cells))).toEqual(new Set(['🟦']));
    expect(unit).toBe(
      'one cell per 13 artifacts, showing the most telling fate in it (1000 artifacts)',
    );
  });

  it('shows a single dropped artifact among a thousand others: a dropped task shows at a glance', () => {
    // 1000 one-artifact runs (kept and protected alternating, so that the session has more than
    // 80 runs and is drawn by stretches of 12 or 13), with one masked, one dropped, one excerpt.
    const p = alternating(1000, { 100: 'masked', 500: 'dropped', 900: 'excerpt' });
    const cells = cellsOf(mapCells(p).cells);
    expect(cells).toHaveLength(MAP_CELLS);
    expect(cells.filter((c) => c === '🟥')).toHaveLength(1);
    expect(cells.indexOf('🟥')).toBe(40);
    expect(cells.filter((c) => c === '🟨')).toHaveLength(1);
    expect(cells.filter((c) => c === '🟪')).toHaveLength(1);
  });

  it('shows a dropped artifact inside a long run of kept ones, drawn by stretches', () => {
    // 200 one-artifact runs first (so the map is drawn by stretches), then 400 kept artifacts
    // with one dropped in the middle: its stretch is all kept but for it.
    const runs: [MapFate, number][] = [];
    for (let i = 0; i < 200; i++) runs.push([i % 2 === 0 ? 'protected' : 'masked', 1]);
    runs.push(['kept', 200], ['dropped', 1], ['kept', 199]);
    const cells = cellsOf(mapCells(picture(runs)).cells);
    expect(cells).toHaveLength(MAP_CELLS);
    expect(cells.filter((c) => c === '🟥')).toHaveLength(1);
    // Artifact 400 of 600 (cells of 7 or 8 artifacts): cell 53, with kept cells on either side.
    expect(cells.indexOf('🟥')).toBe(53);
    expect(cells[52]).toBe('🟩');
    expect(cells[54]).toBe('🟩');
  });

  it('shows a dropped artifact at either end of a long session', () => {
    const first = cellsOf(mapCells(alternating(999, { 0: 'dropped' })).cells);
    expect(first[0]).toBe('🟥');
    expect(first.filter((c) => c === '🟥')).toHaveLength(1);
    const last = cellsOf(mapCells(alternating(999, { 998: 'dropped' })).cells);
    expect(last.at(-1)).toBe('🟥');
    expect(last.filter((c) => c === '🟥')).toHaveLength(1);
  });

  it('prefers dropped over excerpt over masked over protected over kept in one stretch', () => {
    // 200 one-artifact runs: each stretch of the map covers 2 or 3 artifacts.
    const stretch = (a: MapFate, b: MapFate): string => {
      const runs: [MapFate, number][] = [];
      for (let i = 0; i < 200; i++) runs.push([i % 2 === 0 ? a : b, 1]);
      return cellsOf(mapCells(picture(runs)).cells)[0] ?? '';
    };
    expect(stretch('kept', 'dropped')).toBe(FATE_CELL.dropped);
    expect(stretch('excerpt', 'dropped')).toBe(FATE_CELL.dropped);
    expect(stretch('masked', 'excerpt')).toBe(FATE_CELL.excerpt);
    expect(stretch('protected', 'masked')).toBe(FATE_CELL.masked);
    expect(stretch('kept', 'protected')).toBe(FATE_CELL.protected);
  });
});

describe('sessionMap and legend', () => {
  it('names every fate with its cell, in a fixed order', () => {
    expect(legend()).toBe('🟩 kept · 🟦 protected · 🟨 masked · 🟪 excerpt · 🟥 dropped');
  });

  it('gives the cells, then a line saying what a cell is, with the legend', () => {
    expect(sessionMap(picture([['kept', 2], ['dropped', 1]]))).toEqual([
      '🟩🟩🟥',
      '',
      '<sub>one cell per artifact: 🟩 kept · 🟦 protected · 🟨 masked · 🟪 excerpt · 🟥 dropped</sub>',
    ]);
  });

  it('draws nothing for a session without artifacts', () => {
    expect(sessionMap(picture([]))).toEqual([]);
  });
});
