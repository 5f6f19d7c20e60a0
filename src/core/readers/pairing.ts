// Tool call ↔ result pairing (DESIGN §2). A result answers the NEAREST EARLIER PENDING call with
// its id: real runs reuse call ids (tau-bench), so "the call with this id" is ambiguous, and the
// latest unanswered one is what the model was answering. A call stops being pending once
// answered. Nothing is dropped: unpaired calls and results are listed and reported.
import { diagnostic } from '../diagnostics.js';
import type { Artifact, Diagnostic, Pairing } from '../types.js';
import { buildArtifact } from './artifact-builder.js';

/** The call ids a result answers: SWE-agent results may answer several calls at once. */
export function resultCallIds(artifact: Artifact): string[] {
  if (artifact.call_ids && artifact.call_ids.length > 0) return artifact.call_ids;
  return artifact.call_id === undefined ? [] : [artifact.call_id];
}

interface PendingCall {
  artifact: string;
  line: number;
  /** Order of the call in the transcript, to list unpaired calls chronologically. */
  seq: number;
}

export function pairToolResults(artifacts: Artifact[]): Pairing {
  // Stack of pending calls per id: the top is the nearest earlier one.
  const pending = new Map<string, PendingCall[]>();
  const pairing: Pairing = { resultToCall: {}, unpairedCalls: [], unpairedResults: [] };
  let seq = 0;
  for (const artifact of artifacts) {
    const line = artifact.source.line;
    if (artifact.kind === 'tool') {
      // An output that names no call (native transcripts allow it) answers nothing and is no
      // broken pair: it stays an artifact of its own (emitted to the chat APIs as user text).
      const ids = resultCallIds(artifact);
      for (const id of ids) {
        const call = pending.get(id)?.pop();
        if (!call) {
          pairing.unpairedResults.push({ artifact: artifact.id, call_id: id, line });
          continue;
        }
        // Results answering several calls are keyed to the call of their first id that pairs.
        pairing.resultToCall[artifact.id] ??= call.artifact;
      }
    }
    for (const call of artifact.tool_calls ?? []) {
      const stack = pending.get(call.id) ?? [];
      stack.push({ artifact: artifact.id, line, seq: seq++ });
      pending.set(call.id, stack);
    }
  }
  const left: (PendingCall & { call_id: string })[] = [];
  for (const [callId, stack] of pending) for (const call of stack) left.push({ ...call, call_id: callId });
  left.sort((a, b) => a.seq - b.seq);
  pairing.unpairedCalls = left.map(({ artifact, call_id, line }) => ({ artifact, call_id, line }));
  return pairing;
}

/** One warning per unpaired call and per unpaired result, at the artifact's position. */
export function pairingDiagnostics(pairing: Pairing, artifacts: Artifact[]): Diagnostic[] {
  const byId = new Map(artifacts.map((a) => [a.id, a]));
  const out: Diagnostic[] = [];
  for (const call of pairing.unpairedCalls) {
    const source = byId.get(call.artifact)?.source;
    if (!source) continue;
    out.push(
      diagnostic(
        'warning',
        'unpaired-call',
        source,
        'A tool call of this artifact has no result after it.',
        'The stabilizer removes the call (a provider rejects a call without a result) and records it in the ledger: add the result or remove the call.',
      ),
    );
  }
  for (const result of pairing.unpairedResults) {
    const source = byId.get(result.artifact)?.source;
    if (!source) continue;
    out.push(
      diagnostic(
        'warning',
        'unpaired-result',
        source,
        'This tool result answers no earlier pending call with its id.',
        'The stabilizer drops the result (a provider rejects a result without its call) and records it in the ledger: fix the call id or add the call.',
      ),
    );
  }
  return out;
}

/**
 * A paired result takes the name of the call it answers (the call is what was invoked); an
 * unpaired one keeps whatever name its source gave it.
 */
export function nameResultsByCall(
  artifacts: Artifact[],
  pairing: Pairing,
  /** Renamed results of earlier calls over the same artifacts (an agent session), reused. */
  renamed?: WeakMap<Artifact, Artifact>,
): Artifact[] {
  const callers = new Map(artifacts.map((a) => [a.id, a]));
  return artifacts.map((artifact) => {
    const caller = callers.get(pairing.resultToCall[artifact.id] ?? '');
    if (!caller) return artifact;
    const ids = resultCallIds(artifact);
    const call = caller.tool_calls?.find((c) => ids.includes(c.id));
    if (!call || call.name === artifact.tool) return artifact;
    const known = renamed?.get(artifact);
    if (known?.tool === call.name) return known;
    const out = buildArtifact({ ...artifact, tool: call.name });
    renamed?.set(artifact, out);
    return out;
  });
}
