// AI SDK tool approvals (v5+): an assistant `tool-approval-request` part {approvalId, toolCallId}
// asks the user before a call runs; a tool message's `tool-approval-response` part {approvalId,
// approved, reason?} is the user's answer. The SDK sends neither to the model, but they say what the
// context must: a call still waiting for approval (its `approval` state, which normalize turns into
// a note when the call has no result), and a result that follows the user's decision (tag
// `decision`, matched by `resilience.protected_message_kinds`).
import type { Artifact, ToolCall } from '../types.js';
import { isObject } from './values.js';

type Approval = NonNullable<ToolCall['approval']>;

/** Each call's approval state, by tool call id, from the raw messages. */
export function approvalStates(messages: readonly unknown[]): Map<string, Approval> {
  const callOf = new Map<string, string>();
  const answer = new Map<string, boolean>();
  for (const m of messages) {
    if (!isObject(m) || !Array.isArray(m['content'])) continue;
    for (const part of m['content'] as unknown[]) {
      if (!isObject(part)) continue;
      const approvalId = part['approvalId'];
      if (typeof approvalId !== 'string') continue;
      if (part['type'] === 'tool-approval-request' && typeof part['toolCallId'] === 'string')
        callOf.set(approvalId, part['toolCallId']);
      else if (part['type'] === 'tool-approval-response' && typeof part['approved'] === 'boolean')
        answer.set(approvalId, part['approved']);
    }
  }
  const out = new Map<string, Approval>();
  for (const [approvalId, callId] of callOf) {
    const approved = answer.get(approvalId);
    out.set(callId, approved === undefined ? 'requested' : approved ? 'approved' : 'denied');
  }
  return out;
}

/**
 * The artifacts with the approval states applied: each call that asked for approval carries its
 * state, and a tool result of a call the user approved or denied is tagged `decision`.
 */
export function applyApprovals(artifacts: Artifact[], states: ReadonlyMap<string, Approval>): Artifact[] {
  if (states.size === 0) return artifacts;
  return artifacts.map((a) => {
    if (a.tool_calls?.some((c) => states.has(c.id))) {
      const tool_calls = a.tool_calls.map((c) => {
        const approval = states.get(c.id);
        return approval === undefined ? c : { ...c, approval };
      });
      return { ...a, tool_calls };
    }
    const state = a.kind === 'tool' && a.call_id !== undefined ? states.get(a.call_id) : undefined;
    if (state === 'approved' || state === 'denied') {
      const tags = [...(a.tags ?? []), 'decision'];
      return { ...a, tags };
    }
    return a;
  });
}
