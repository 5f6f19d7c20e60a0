// `--emit same|native|openai|anthropic`: the stabilized context in a provider's request shape.
import type { ContextItem } from '../stabilize/types.js';
import type { Transcript, TranscriptFormat } from '../types.js';
import { toAnthropic } from './anthropic.js';
import { toNative } from './native.js';
import { toOpenAI } from './openai.js';

export const EMIT_FORMATS = ['same', 'native', 'openai', 'anthropic'] as const;
export type EmitFormat = (typeof EMIT_FORMATS)[number];

/** `same` writes what the transcript came in; Claude Code sessions talk to the Anthropic API. */
export function resolveEmitFormat(emit: EmitFormat, source: TranscriptFormat): Exclude<EmitFormat, 'same'> {
  if (emit !== 'same') return emit;
  if (source === 'claude-code') return 'anthropic';
  return source;
}

/** `transcript` (the one the context was made from) lets the native document carry its original fields. */
export function emitContext(
  context: readonly ContextItem[],
  format: Exclude<EmitFormat, 'same'>,
  transcript?: Transcript,
): unknown {
  switch (format) {
    case 'openai':
      return { messages: toOpenAI(context) };
    case 'anthropic':
      return toAnthropic(context);
    case 'native':
      return toNative(context, transcript?.meta ?? {}, transcript);
  }
}

export { toAnthropic, toNative, toOpenAI };
