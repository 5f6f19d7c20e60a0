// `keep_recent` counts turns (issue 10): a turn starts at a user message, and what the agent did in
// it (assistant messages, tool calls, results) belongs to it. Of each of the N newest turns, the
// user message and the turn's latest assistant message with text (its answer so far) are kept. The
// tool steps in between are not kept for being recent: a turn of an agent loop can hold hundreds of
// steps, which no budget could keep whole; the latest outcome of each command is protected by its
// own rule, and the rest competes on budget newest first. Shared by the stabilizer (protect.ts) and
// the `protected` check, so that both mean the same artifacts.

interface TurnItem {
  kind: string;
  /** An assistant message that says something (not only tool calls or thinking). */
  hasText: boolean;
}

/**
 * The recent messages among `items` (chronological, already limited to what is in play), for
 * `keepRecent` turns; in chronological order. Messages before the first user message form a turn of
 * their own only when there are fewer turns than asked for.
 */
export function recentTurnMessages<T extends TurnItem>(items: readonly T[], keepRecent: number): T[] {
  const out: T[] = [];
  if (keepRecent <= 0) return out;
  let turns = 0;
  let answered = false;
  for (let i = items.length - 1; i >= 0 && turns < keepRecent; i--) {
    const item = items[i] as T;
    if (item.kind === 'assistant' && item.hasText && !answered) {
      out.push(item);
      answered = true;
    } else if (item.kind === 'user') {
      out.push(item);
      turns++;
      answered = false;
    }
  }
  return out.reverse();
}

/** Position in `items` where the `keepRecent` newest turns begin: 0 when there are fewer. */
export function recentTurnStart<T extends { kind: string }>(items: readonly T[], keepRecent: number): number {
  if (keepRecent <= 0) return items.length;
  let turns = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]?.kind !== 'user') continue;
    turns++;
    if (turns === keepRecent) return i;
  }
  return 0;
}

/**
 * The turn a history ends in: its last assistant message with text (or the first of its call-only
 * records, which some formats write one per call) and every record after it, when nothing but tool
 * results and call-only assistant records follow. A call there without a result has not come back
 * yet (or waits for approval): normalize notes it in the message instead of leaving it out. Shared
 * by normalize and the `protected` check, so both see the same answers of the latest turn.
 */
export function openTurn<T extends TurnItem>(items: readonly T[]): Set<T> {
  const out = new Set<T>();
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as T;
    if (item.kind === 'tool') continue;
    if (item.kind !== 'assistant') break;
    out.add(item);
    if (item.hasText) break;
  }
  return out;
}
