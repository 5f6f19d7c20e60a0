// `--emit same|native|openai|anthropic|responses`: the stabilized context in a provider's request shape.
import type { ContextItem } from '../stabilize/types.js';
import type { Transcript, TranscriptFormat } from '../types.js';
import { toAnthropic } from './anthropic.js';
import { toNative } from './native.js';
import { toOpenAI } from './openai.js';
import type { EmitOptions } from './repair.js';
import { toResponses } from './responses.js';
import { SOURCE_API } from './source-api.js';

export const EMIT_FORMATS = ['same', 'native', 'openai', 'anthropic', 'responses'] as const;
export type EmitFormat = (typeof EMIT_FORMATS)[number];

/** `same` writes the request of the API the transcript's format talks to (source-api.ts). */
export function resolveEmitFormat(emit: EmitFormat, source: TranscriptFormat): Exclude<EmitFormat, 'same'> {
  return emit === 'same' ? SOURCE_API[source].emit : emit;
}

/**
 * `transcript` (the one the context was made from) lets the native document carry its original
 * fields. `opts` carries what the policy says of the request (`emitOptionsOf(policy)`, repair.ts):
 * the placeholder user turn's text, the policy default when not given.
 */
export function emitContext(
  context: readonly ContextItem[],
  format: Exclude<EmitFormat, 'same'>,
  transcript?: Transcript,
  opts: EmitOptions = {},
): unknown {
  switch (format) {
    case 'openai':
      return { messages: toOpenAI(context) };
    case 'anthropic':
      return toAnthropic(context, opts);
    case 'responses':
      return toResponses(context);
    case 'native':
      return toNative(context, transcript?.meta ?? {}, transcript);
  }
}

export { toAnthropic, toNative, toOpenAI, toResponses };
export type { EmitOptions };
