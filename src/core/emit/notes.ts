// What the emitters change on the way out, per context item, for the ledger (issue 10): parts
// converted to the target's shape or left out (parts.ts), call ids renamed to be unique, built-ins
// written as function calls. Each emitter counts its own changes while it writes the request, so
// the notes say what the request holds. Types, counts and ids only, never content (the stabilizer
// masks the notes like every ledger detail).
import type { ProviderTarget } from '../policy/schema.js';
import type { ContextItem } from '../stabilize/types.js';
import type { TranscriptFormat } from '../types.js';
import { toAnthropicWithOrigins } from './anthropic.js';
import type { EmitFormat } from './index.js';
import { toOpenAIWithOrigins } from './openai.js';
import type { EmitApi } from './parts.js';
import { toResponsesWithOrigins } from './responses.js';
import { SOURCE_API } from './source-api.js';

const NOTES: Readonly<Record<EmitApi, (context: readonly ContextItem[]) => Map<string, string[]>>> = {
  openai: (context) => toOpenAIWithOrigins(context).notes,
  anthropic: (context) => toAnthropicWithOrigins(context).notes,
  responses: (context) => toResponsesWithOrigins(context).notes,
};

/**
 * The requests the context is written as: `--emit openai|anthropic|responses` (`same` resolved to
 * the transcript's own, a Responses request for Responses and Codex transcripts), else the policy's
 * `target`, else the request `--emit same` writes (a native transcript, and a format that names no
 * single API, must suit both chat APIs).
 */
export function emitApis(source: TranscriptFormat, target: ProviderTarget, emit?: EmitFormat): EmitApi[] {
  const own = SOURCE_API[source];
  const format = emit === 'same' ? own.emit : emit;
  if (format === 'openai' || format === 'anthropic' || format === 'responses') return [format];
  if (target !== 'same') return [target];
  return own.emit === 'responses' ? ['responses'] : [...own.apis];
}

/** Notes by context item id, for the requests the context is written as (in that order). */
export function emitNotes(context: readonly ContextItem[], apis: readonly EmitApi[]): Map<string, string[]> {
  const notes = new Map<string, string[]>();
  for (const api of apis)
    for (const [id, list] of NOTES[api](context)) notes.set(id, [...(notes.get(id) ?? []), ...list]);
  return notes;
}
