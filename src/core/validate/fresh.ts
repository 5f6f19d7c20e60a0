// `fresh_results` (issue 28): the model gets the results it just asked for. The open tool loop is
// recomputed from the input transcript: the tool results that end the main chain's history (after
// any section the order stage puts last) and answer a call. Each must be in the context whole; under
// budget pressure an excerpt (or a verbose output cut to its keep_fields) is a warning; a result that
// is gone or left as a placeholder is a violation at the line of the call that asked for it.
import { onMainChain } from '../scope/main-chain.js';
import { scopesOf } from '../stabilize/scope.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { Artifact, Transcript } from '../types.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

const SECTION_KINDS = new Set(['summary', 'phase', 'system', 'policy', 'task']);

/** The results of the open tool loop, oldest first: empty when the history ends otherwise. */
export function openLoopResults(t: Transcript): Artifact[] {
  const main = t.artifacts.filter(onMainChain);
  let i = main.length - 1;
  while (i >= 0 && SECTION_KINDS.has((main[i] as Artifact).kind)) i--;
  const trailing: Artifact[] = [];
  for (; i >= 0 && (main[i] as Artifact).kind === 'tool'; i--) trailing.push(main[i] as Artifact);
  // Only what the turn right before them asked for (its assistant records: some formats write one
  // per call): with a call id used twice, a second result pairs with an earlier turn's call, which
  // the model is not about to read (seed 1796658320).
  const turn = new Set<string>();
  for (let k = i; k >= 0 && (main[k] as Artifact).kind === 'assistant'; k--)
    turn.add((main[k] as Artifact).id);
  const out = trailing.filter((a) => turn.has(t.pairing.resultToCall[a.id] ?? ''));
  // A marker after the loop that switches the task closes it: the scope reset takes an earlier
  // task's loop out, and the model is no longer about to read it (seed 1631336666).
  const { scopes, outcome } = scopesOf(main);
  const index = new Map(main.map((a, k) => [a, k]));
  return out.reverse().filter((a) => scopes[index.get(a) as number]?.task === outcome.task);
}

export function checkFreshResults(t: Transcript, result: StabilizeResult, where: Locator): Violation[] {
  const items = new Map(result.context.map((c) => [c.id, c]));
  const ledger = new Map(result.ledger.map((e) => [e.id, e]));
  const out: Violation[] = [];
  for (const r of openLoopResults(t)) {
    const call = t.pairing.resultToCall[r.id] as string;
    const item = items.get(r.id);
    const e = ledger.get(r.id);
    const fate = e ? `${e.action} (${e.reason})` : 'left out';
    const asked = `the result at line ${r.source.line} that this turn's call${r.tool ? ` to ${r.tool}` : ''} asked for`;
    if (item === undefined || item.placeholder === true) {
      const how = item === undefined ? `is not in the context: ${fate}` : 'was replaced by a placeholder';
      out.push(where.at(call, `${asked} ${how}; the model is about to read it and will ask again`));
    } else if (
      item.excerpt === true ||
      (e !== undefined && e.action !== 'kept' && !e.reason.startsWith('pii'))
    ) {
      const v = where.at(call, `${asked} reaches the model cut (${fate}), not whole`);
      out.push({ ...v, severity: 'warning' });
    }
  }
  return out;
}
