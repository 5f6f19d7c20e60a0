// What the emitters change on the way out, per context item, for the ledger (issue 10): parts
// converted to the target's shape or left out (parts.ts), call ids renamed to be unique, built-ins
// written as function calls. Each emitter counts its own changes while it writes the request, so
// the notes say what the request holds. Types, counts and ids only, never content (the stabilizer
// masks the notes like every ledger detail). A request repaired with a placeholder user turn
// (repair.ts) also gives a `repaired` event.
import type { ProviderTarget } from '../policy/schema.js';
import type { ContextItem, StabilizeEvent } from '../stabilize/types.js';
import type { TranscriptFormat } from '../types.js';
import { toAnthropicWithOrigins } from './anthropic.js';
import type { EmitFormat } from './index.js';
import { toOpenAIWithOrigins } from './openai.js';
import type { EmitApi } from './parts.js';
import { USER_FIRST_APIS, repairedEvent, type EmitOptions } from './repair.js';
import { toResponsesWithOrigins } from './responses.js';
import { SOURCE_API } from './source-api.js';

interface Written {
  notes: Map<string, string[]>;
  /** The item a placeholder user turn was put before, when the request was repaired. */
  repairedBefore?: string;
}

const WRITE: Readonly<Record<EmitApi, (context: readonly ContextItem[], opts: EmitOptions) => Written>> = {
  openai: (context) => toOpenAIWithOrigins(context),
  anthropic: (context, opts) => toAnthropicWithOrigins(context, opts),
  responses: (context) => toResponsesWithOrigins(context),
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

export interface EmitEffects {
  /** Notes by context item id, for the requests the context is written as (in that order). */
  notes: Map<string, string[]>;
  /** One `repaired` event (level major) per request that was repaired. */
  events: StabilizeEvent[];
}

/** What writing the context as each of `apis`' requests changes: the ledger notes and events. */
export function emitEffects(
  context: readonly ContextItem[],
  apis: readonly EmitApi[],
  opts: EmitOptions = {},
): EmitEffects {
  const notes = new Map<string, string[]>();
  const events: StabilizeEvent[] = [];
  for (const api of apis) {
    const written = WRITE[api](context, opts);
    for (const [id, list] of written.notes) notes.set(id, [...(notes.get(id) ?? []), ...list]);
    if (written.repairedBefore !== undefined) events.push(repairedEvent(api, written.repairedBefore));
  }
  return { notes, events };
}

/** Notes by context item id, for the requests the context is written as (in that order). */
export function emitNotes(
  context: readonly ContextItem[],
  apis: readonly EmitApi[],
  opts: EmitOptions = {},
): Map<string, string[]> {
  return emitEffects(context, apis, opts).notes;
}

/**
 * The context item a placeholder user turn goes before in the requests of `apis` (the first of
 * them that must open with a user turn and would not): for adapters that rebuild their
 * framework's messages from the context instead of sending an emitted request.
 */
export function repairedBefore(
  context: readonly ContextItem[],
  apis: readonly EmitApi[],
  opts: EmitOptions = {},
): string | undefined {
  for (const api of apis) {
    if (USER_FIRST_APIS[api] === undefined) continue;
    const before = WRITE[api](context, opts).repairedBefore;
    if (before !== undefined) return before;
  }
  return undefined;
}
