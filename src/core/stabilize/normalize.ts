// Stage 1 (normalize), the part that changes fates: what a provider would reject or what is not
// part of the main conversation leaves before any budget decision, and says so in the ledger.
import type { Pairing, ToolCall } from '../types.js';
import type { Work, WorkSet } from './work.js';
import { hasText, remove } from './work.js';
import { openTurn } from '../scope/recent.js';

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
  const tail = openTurnOf(ws);
  const pending = new Map<Work, ToolCall[]>();
  for (const u of pairing.unpairedCalls) {
    const w = ws.byId.get(u.artifact);
    if (!w || w.removed || !w.toolCalls) continue;
    const i = w.toolCalls.findIndex((c) => c.id === u.call_id);
    if (i === -1) continue;
    const call = w.toolCalls[i] as ToolCall;
    w.toolCalls = w.toolCalls.filter((_, j) => j !== i);
    counts.unpairedCalls++;
    if (tail.has(w)) {
      pending.set(w, [...(pending.get(w) ?? []), call]);
      continue;
    }
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
  for (const [w, calls] of pending) notePending(w, calls);
  return counts;
}

/** normalize's view of the open turn (scope/recent.ts): what is not removed, with its text. */
function openTurnOf(ws: WorkSet): Set<Work> {
  const items = ws.items.filter((w) => !w.removed).map((w) => ({ w, kind: w.a.kind, hasText: hasText(w) }));
  return new Set([...openTurn(items)].map((i) => i.w));
}

/** `[tool call bash is waiting for approval]`: what the model would otherwise not know. */
export function pendingNote(call: ToolCall): string {
  if (call.approval === 'requested') return `[tool call ${call.name} is waiting for the user's approval]`;
  if (call.approval === 'denied') return `[tool call ${call.name} was denied by the user; no result]`;
  return `[tool call ${call.name} is pending: its result has not come back yet]`;
}

/**
 * A call still waiting (for its result or for approval) cannot stay: every provider API rejects a
 * call without its result. The message says so instead, so the context does not read as if the
 * call was never made.
 */
function notePending(w: Work, calls: ToolCall[]): void {
  const note = calls.map(pendingNote).join('\n');
  const c = w.content;
  if (typeof c === 'string') w.content = c.trim() === '' ? note : `${c}\n\n${note}`;
  else w.content = [...c, { type: 'text', text: note }];
  const approval = calls.some((call) => call.approval === 'requested');
  const names = [...new Set(calls.map((call) => call.name))].join(', ');
  w.changed = {
    stage: 'normalize',
    action: 'compressed',
    reason: approval ? 'pending_approval' : 'pending_call',
    detail: `${calls.length} tool call${calls.length === 1 ? '' : 's'} (${names}) ${approval ? 'waiting for approval' : 'still waiting for a result'}: a note in the message says so, since a provider rejects a call without its result`,
  };
}
