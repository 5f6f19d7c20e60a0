// Writes a stabilized context in the native format (DESIGN §2): `{ meta, artifacts }`.
import type { ContextItem } from '../stabilize/types.js';
import { HISTORY_META_KEY, historySources, turnNumbers } from '../stabilize/summaries.js';
import type { Artifact, Transcript } from '../types.js';

export interface NativeDocument {
  meta: Record<string, unknown>;
  artifacts: Record<string, unknown>[];
}

/**
 * With `transcript` (the one the context was made from), the document is itself a transcript that
 * stabilizes to the same context: each artifact carries the original fields the stabilizer decides
 * on (tags, pin, scope, exit_code, a summary's provenance and ttl); a summary's `created_at` keeps its
 * age in user turns within the shorter document; and the sources kept summaries cite that the
 * context no longer holds are listed, with their kind, under `meta.history` for the summaries stage.
 */
export function toNative(
  context: readonly ContextItem[],
  meta: Record<string, unknown> = {},
  transcript?: Transcript,
): NativeDocument {
  const original = new Map(transcript?.artifacts.map((a, i) => [a.id, { a, i }]));
  const turns = transcript ? turnNumbers(transcript.artifacts) : [];
  const currentTurn = turns[turns.length - 1] ?? 0;
  const turnsHere = context.filter((c) => c.kind === 'user').length;
  const present = new Set(context.map((c) => c.id));
  const earlier = transcript ? historySources(transcript.meta) : new Map<string, string>();
  const history = new Map<string, string>();
  const artifacts = context.map((c) => {
    const a: Record<string, unknown> = { id: c.id, kind: c.kind };
    if (c.role !== undefined) a['role'] = c.role;
    a['content'] = c.content;
    if (c.tool !== undefined) a['tool'] = c.tool;
    if (c.call_id !== undefined) a['call_id'] = c.call_id;
    if (c.call_ids !== undefined) a['call_ids'] = c.call_ids;
    if (c.tool_calls !== undefined) a['tool_calls'] = c.tool_calls;
    if (c.is_error) a['is_error'] = true;
    const o = original.get(c.id);
    if (!o) return a;
    copyOriginal(a, o.a);
    if (c.kind === 'summary') {
      const createdAt = o.a.created_at ?? turns[o.i] ?? 0;
      a['created_at'] = Math.max(0, turnsHere - Math.max(0, currentTurn - createdAt));
      for (const id of o.a.provenance ?? []) {
        const kind = original.get(id)?.a.kind ?? earlier.get(id);
        if (kind !== undefined && !present.has(id)) history.set(id, kind);
      }
    }
    return a;
  });
  const out = { ...meta };
  delete out[HISTORY_META_KEY];
  if (history.size > 0) out[HISTORY_META_KEY] = [...history].map(([id, kind]) => ({ id, kind }));
  return { meta: out, artifacts };
}

function copyOriginal(into: Record<string, unknown>, a: Artifact): void {
  if (a.exit_code !== undefined) into['exit_code'] = a.exit_code;
  if (a.tags !== undefined) into['tags'] = a.tags;
  if (a.scope !== undefined) into['scope'] = a.scope;
  if (a.pin !== undefined) into['pin'] = a.pin;
  if (a.provenance !== undefined) into['provenance'] = a.provenance;
  if (a.ttl !== undefined) into['ttl'] = a.ttl;
}
