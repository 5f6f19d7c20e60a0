// Serializes native artifacts to any of the on-disk formats the readers accept.

import type { Artifact } from '../../../../src/core/types.js';
import { serializeAnthropic } from './anthropic.js';
import { serializeClaudeCode } from './claude-code.js';
import { serializeNativeJson, serializeNativeJsonl } from './native.js';
import { serializeOpenAi } from './openai.js';
import type { CorpusFormat, SerializeOptions, Serialized, Serializer } from './types.js';

export { CORPUS_FORMATS, contentText } from './types.js';
export type { ArtifactRef, CorpusFormat, SerializeOptions, Serialized } from './types.js';

const SERIALIZERS: Record<CorpusFormat, Serializer> = {
  'native-jsonl': serializeNativeJsonl,
  'native-json': serializeNativeJson,
  openai: serializeOpenAi,
  anthropic: serializeAnthropic,
  'claude-code': serializeClaudeCode,
};

/** File name ending for each format (the readers auto-detect by content; the extension picks JSON vs JSONL). */
export const FORMAT_EXTENSIONS: Record<CorpusFormat, string> = {
  'native-jsonl': '.jsonl',
  'native-json': '.json',
  openai: '.openai.json',
  anthropic: '.anthropic.json',
  'claude-code': '.claude-code.jsonl',
};

export function serializeWithRefs(
  artifacts: readonly Artifact[],
  format: CorpusFormat,
  opts: SerializeOptions = {},
): Serialized {
  return SERIALIZERS[format](artifacts, opts);
}

export function serialize(
  artifacts: readonly Artifact[],
  format: CorpusFormat,
  opts: SerializeOptions = {},
): string {
  return serializeWithRefs(artifacts, format, opts).text;
}
