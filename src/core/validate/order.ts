// `order`: the sections the policy configures, chronology inside each, and always the seeds'
// invariant whatever `order:` says: system and constraints first, then the task, then the rest.
import { sectionOf, sectionRanks } from '../stabilize/order.js';
import type { ContextItem, StabilizeResult } from '../stabilize/types.js';
import type { ArtifactKind } from '../types.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

/** 0 system and constraints, 1 the task section (task statements, scope markers), 2 the rest. */
function invariantRank(kind: ArtifactKind): number {
  const s = sectionOf(kind);
  return s === 'system' || s === 'policy' ? 0 : s === 'task' ? 1 : 2;
}

const INVARIANT_NAMES = ['the system prompt and constraints', 'the task', 'the conversation'];

export function checkOrder(
  result: StabilizeResult,
  index: ReadonlyMap<string, number>,
  order: readonly string[],
  where: Locator,
): Violation[] {
  const ranks = sectionRanks(order);
  const out: Violation[] = [];
  let prev: ContextItem | undefined;
  let highest = 0;
  let highestItem: ContextItem | undefined;
  for (const c of result.context) {
    const inv = invariantRank(c.kind);
    if (inv < highest && highestItem) {
      out.push(
        where.at(
          c.id,
          `${c.kind} artifact comes after ${INVARIANT_NAMES[highest] ?? 'later sections'} (${highestItem.id}); ${INVARIANT_NAMES[inv] ?? ''} must come first`,
        ),
      );
    } else if (prev) {
      const rank = ranks.get(sectionOf(c.kind)) ?? 0;
      const prevRank = ranks.get(sectionOf(prev.kind)) ?? 0;
      if (rank < prevRank) {
        out.push(
          where.at(
            c.id,
            `${c.kind} artifact comes after the ${sectionOf(prev.kind)} section; sections must follow ${order.join(' → ')}`,
          ),
        );
      } else if (rank === prevRank && (index.get(c.id) ?? -1) < (index.get(prev.id) ?? -1)) {
        out.push(
          where.at(
            c.id,
            `out of chronological order: it comes after ${prev.id}, which is later in the transcript`,
          ),
        );
      }
    }
    if (inv > highest) {
      highest = inv;
      highestItem = c;
    }
    prev = c;
  }
  return out;
}
