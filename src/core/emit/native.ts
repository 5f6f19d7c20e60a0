// Writes a stabilized context in the native format (DESIGN §2): `{ meta, artifacts }`.
import { maskText } from '../pii/mask.js';
import { defaultDetectors } from '../pii/registry.js';
import type { ContextItem } from '../stabilize/types.js';
import { scopesOf } from '../stabilize/scope.js';
import { HISTORY_META_KEY, historySources, turnNumbers } from '../stabilize/summaries.js';
import type { Artifact, Transcript } from '../types.js';

export interface NativeDocument {
  meta: Record<string, unknown>;
  artifacts: Record<string, unknown>[];
}

/**
 * With `transcript` (the one the context was made from), the document is itself a transcript that
 * stabilizes to the same context: each artifact carries the original fields the stabilizer decides
 * on (tags, pin, exit_code, a summary's provenance and ttl) and the scope it had (DESIGN §4 stage 2,
 * whether set on it or by a phase marker before it); a summary's `created_at` keeps its
 * age in user turns within the shorter document; and the sources kept summaries cite that the
 * context no longer holds are listed, with their kind, under `meta.history` for the summaries stage.
 */
export function toNative(
  context: readonly ContextItem[],
  meta: Record<string, unknown> = {},
  transcript?: Transcript,
): NativeDocument {
  const original = new Map(transcript?.artifacts.map((a, i) => [a.id, { a, i }]));
  const scopes = transcript ? scopesOf(transcript.artifacts).scopes : [];
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
    // The scope it had: the phase marker that set it may be gone, or come later in the context.
    // A phase marker keeps its own, which is what it sets.
    const scope = c.kind === 'phase' ? o.a.scope : scopes[o.i];
    if (scope && (scope.task !== undefined || scope.phase !== undefined)) a['scope'] = scope;
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
  const out = maskMeta(meta) as Record<string, unknown>;
  delete out[HISTORY_META_KEY];
  if (history.size > 0) out[HISTORY_META_KEY] = [...history].map(([id, kind]) => ({ id, kind }));
  return { meta: out, artifacts };
}

function copyOriginal(into: Record<string, unknown>, a: Artifact): void {
  if (a.exit_code !== undefined) into['exit_code'] = a.exit_code;
  if (a.tags !== undefined) into['tags'] = a.tags;
  if (a.pin !== undefined) into['pin'] = a.pin;
  if (a.provenance !== undefined) into['provenance'] = a.provenance;
  if (a.ttl !== undefined) into['ttl'] = a.ttl;
}

/**
 * The transcript's meta record is written back, so it is masked too: with the built-in typed
 * detectors, as the `pii` check would search it (the emitter does not see the policy's rules).
 */
function maskMeta(value: unknown): unknown {
  if (typeof value === 'string') {
    return maskText(value, META_DETECTORS, { replacement: '[REDACTED_{TYPE}]', allow: [] }).text;
  }
  if (Array.isArray(value)) return value.map(maskMeta);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskMeta(v)]));
  }
  return value;
}

const META_DETECTORS = defaultDetectors();
