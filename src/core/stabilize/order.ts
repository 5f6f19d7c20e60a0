// Stage 10 (order): sections in the policy's `order`; inside a section, original chronology.
import { ORDER_SECTIONS } from '../policy/schema.js';
import type { OrderSection } from '../policy/schema.js';
import type { ArtifactKind } from '../types.js';

export const SECTIONS = ORDER_SECTIONS;
export type Section = OrderSection;

export function sectionOf(kind: ArtifactKind): Section {
  switch (kind) {
    case 'system':
      return 'system';
    case 'policy':
      return 'policy';
    case 'task':
    case 'phase':
      return 'task';
    case 'summary':
      return 'summaries';
    default:
      return 'conversation';
  }
}

/** Rank of each section: the policy's order first, any section it leaves out after, in default order. */
export function sectionRanks(order: readonly string[]): Map<Section, number> {
  const ranks = new Map<Section, number>();
  for (const s of order) if ((SECTIONS as readonly string[]).includes(s)) ranks.set(s as Section, ranks.size);
  for (const s of SECTIONS) if (!ranks.has(s)) ranks.set(s, ranks.size);
  return ranks;
}

export function orderItems<T extends { kind: ArtifactKind; index: number }>(
  items: readonly T[],
  order: readonly string[],
): T[] {
  const ranks = sectionRanks(order);
  return [...items].sort(
    (a, b) => (ranks.get(sectionOf(a.kind)) ?? 0) - (ranks.get(sectionOf(b.kind)) ?? 0) || a.index - b.index,
  );
}
