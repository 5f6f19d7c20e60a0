// The lines a recording appends: each artifact of the history as a native JSONL record (DESIGN §2),
// its content and tool arguments masked with the policy's detectors. Pure: the recorder does the I/O.
import { maskContent, maskString } from '../core/stabilize/finalize.js';
import type { Masker } from '../core/stabilize/finalize.js';
import type { Artifact, TranscriptFormat } from '../core/types.js';

/** The artifact with its content and tool arguments masked: what a recording or a summarizer gets. */
export function maskArtifact(a: Artifact, masker: Masker): Artifact {
  const pii: Record<string, number> = {};
  const out: Artifact = { ...a, content: maskContent(a.content, masker, pii) };
  if (a.tool_calls)
    out.tool_calls = a.tool_calls.map((c) => ({ ...c, arguments: maskString(c.arguments, masker, pii) }));
  return out;
}

/** The first line of a recording: what wrote it and which reader the history came through. */
export function metaLine(session: string, format: TranscriptFormat): string {
  return JSON.stringify({ meta: { recorded_by: 'context-stability', session, source_format: format } });
}

/**
 * One artifact as a native record. Everything the stabilizer decides on is kept (kind, tool,
 * pairing ids, outcome, tags, scope, summaries' provenance); the source position is not, since the
 * recording has its own lines. With `masker`, content and tool arguments are masked.
 */
export function artifactLine(artifact: Artifact, masker: Masker | undefined): string {
  const a = masker ? maskArtifact(artifact, masker) : artifact;
  const r: Record<string, unknown> = { id: a.id, kind: a.kind };
  if (a.role !== undefined) r['role'] = a.role;
  r['content'] = a.content;
  if (a.tool !== undefined) r['tool'] = a.tool;
  if (a.call_id !== undefined) r['call_id'] = a.call_id;
  if (a.call_ids !== undefined) r['call_ids'] = a.call_ids;
  if (a.tool_calls !== undefined)
    r['tool_calls'] = a.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
  if (a.exit_code !== undefined) r['exit_code'] = a.exit_code;
  if (a.is_error !== undefined) r['is_error'] = a.is_error;
  if (a.tags !== undefined) r['tags'] = a.tags;
  if (a.scope !== undefined) r['scope'] = a.scope;
  if (a.provenance !== undefined) r['provenance'] = a.provenance;
  if (a.created_at !== undefined) r['created_at'] = a.created_at;
  if (a.ttl !== undefined) r['ttl'] = a.ttl;
  if (a.pin !== undefined) r['pin'] = a.pin;
  if (a.pressure !== undefined) r['pressure'] = a.pressure;
  return JSON.stringify(r);
}

/** Compared to tell whether a call's history extends what was recorded (its kind and content). */
export function signatureOf(a: Artifact): string {
  return JSON.stringify([a.id, a.kind, a.content, a.tool_calls ?? null, a.call_id ?? null]);
}
