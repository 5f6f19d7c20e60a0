// Budget pressure (issue 27): whether the history as it stands does not fit the budget. Cutting
// stages act only under pressure: with room to spare the history goes out unchanged. The sum runs
// newest first and stops as soon as the budget is passed, so a long history is not counted whole.
import type { Work, WorkSet } from './work.js';
import { isAlive } from './work.js';

export function overBudget(ws: WorkSet, budget: number, tokensOf: (w: Work) => number): boolean {
  let sum = 0;
  for (let i = ws.items.length - 1; i >= 0; i--) {
    const w = ws.items[i] as Work;
    if (!isAlive(w)) continue;
    sum += tokensOf(w);
    if (sum > budget) return true;
  }
  return false;
}

/**
 * Where each artifact starts in the history, in tokens, every artifact counted whatever its fate
 * (a grid over these stays put as the history grows); one more entry at the end: the total. Taken before any stage changes a content.
 */
export function historyPositions(ws: WorkSet, tokensOf: (w: Work) => number): number[] {
  const out: number[] = [];
  let pos = 0;
  for (const w of ws.items) {
    out.push(pos);
    pos += tokensOf(w);
  }
  out.push(pos);
  return out;
}
