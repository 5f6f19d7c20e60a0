// Stage 1 (normalize), the part that changes fates: what a provider would reject or what is not
// part of the main conversation leaves before any budget decision, and says so in the ledger.
import type { Pairing } from '../types.js';
import type { WorkSet } from './work.js';
import { hasText, remove } from './work.js';

export interface NormalizeCounts {
  unpairedCalls: number;
  unpairedResults: number;
  sidechain: number;
  offChain: number;
}

export function normalizeFates(ws: WorkSet, pairing: Pairing): NormalizeCounts {
  const counts: NormalizeCounts = { unpairedCalls: 0, unpairedResults: 0, sidechain: 0, offChain: 0 };
  for (const w of ws.items) {
    if (w.a.sidechain === true) {
      remove(w, {
        stage: 'normalize',
        action: 'dropped',
        reason: 'sidechain',
        detail: 'side-chain (sub-agent) record, not part of the main conversation',
      });
      counts.sidechain++;
    } else if (w.a.offChain !== undefined) {
      remove(w, {
        stage: 'normalize',
        action: 'dropped',
        reason: w.a.offChain,
        detail:
          w.a.offChain === 'compacted'
            ? 'before the compaction boundary the session continues from: its summary stands for it'
            : 'on a branch the session abandoned (a rewind): not part of the conversation',
      });
      counts.offChain++;
    }
  }
  for (const u of pairing.unpairedResults) {
    const w = ws.byId.get(u.artifact);
    if (!w || w.removed) continue;
    remove(w, {
      stage: 'normalize',
      action: 'dropped',
      reason: 'unpaired_result',
      detail: 'answers no earlier tool call; a provider would reject it',
    });
    counts.unpairedResults++;
  }
  for (const u of pairing.unpairedCalls) {
    const w = ws.byId.get(u.artifact);
    if (!w || w.removed || !w.toolCalls) continue;
    const i = w.toolCalls.findIndex((c) => c.id === u.call_id);
    if (i === -1) continue;
    w.toolCalls = w.toolCalls.filter((_, j) => j !== i);
    counts.unpairedCalls++;
    if (w.toolCalls.length === 0 && !hasText(w)) {
      remove(w, {
        stage: 'normalize',
        action: 'dropped',
        reason: 'unpaired_call',
        detail: 'its tool calls have no results; a provider would reject them',
      });
    } else {
      w.changed = {
        stage: 'normalize',
        action: 'compressed',
        reason: 'unpaired_call',
        detail: 'tool calls without results were removed; a provider would reject them',
      };
    }
  }
  return counts;
}
