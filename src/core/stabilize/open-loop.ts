// The open tool loop (DESIGN §4 stages 5 and 9, issue 27): the calls of the latest assistant turn and
// their results, which the model is about to read. They are must-keep: an agent that asked to read a
// file gets the file, or it asks again and loops. Parallel calls count as one turn whether the format
// writes them as one assistant message with several calls or as consecutive assistant records (Claude
// Code writes one record per tool_use block).
import type { Work, WorkSet } from './work.js';
import { isAlive } from './work.js';

const SECTION_KINDS = new Set(['summary', 'phase', 'system', 'policy', 'task']);

/** Side-chain and off-chain records are not the main agent's history. */
function onMainLine(w: Work): boolean {
  return w.a.sidechain !== true && w.a.offChain === undefined;
}

/**
 * The open loop's members: the trailing tool results of the history and the assistant records
 * whose calls they answer. Empty when the history ends with anything else (a user message, an
 * assistant answer): then no result is waiting to be read.
 */
export function openLoop(ws: WorkSet): Set<Work> {
  const out = new Set<Work>();
  const main = ws.items.filter((w) => isAlive(w) && onMainLine(w));
  let i = main.length - 1;
  // Sections the order stage may put last (summaries, markers, constraints) are not turns: a
  // stabilized context read back ends with them and still has its open loop before them.
  while (i >= 0 && SECTION_KINDS.has((main[i] as Work).a.kind)) i--;
  const results: Work[] = [];
  for (; i >= 0 && (main[i] as Work).a.kind === 'tool'; i--) results.push(main[i] as Work);
  if (results.length === 0) return out;
  for (const r of results) {
    out.add(r);
    if (r.owner) out.add(r.owner);
  }
  // Consecutive assistant records that made calls of the same step (their results come after all of
  // them) belong to the loop too, with every result of theirs.
  for (; i >= 0; i--) {
    const w = main[i] as Work;
    if (w.a.kind !== 'assistant' || !w.toolCalls || w.toolCalls.length === 0) break;
    if (!out.has(w)) break;
    for (const r of w.results) if (isAlive(r)) out.add(r);
  }
  return out;
}
