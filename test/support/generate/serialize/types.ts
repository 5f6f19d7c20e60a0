// Shared shapes of the on-disk serializers.

import type { Artifact, Content } from '../../../../src/core/types.js';

export const CORPUS_FORMATS = ['native-jsonl', 'native-json', 'openai', 'anthropic', 'claude-code'] as const;
export type CorpusFormat = (typeof CORPUS_FORMATS)[number];

/** Where an artifact lands in a serialized file: the id a reader assigns there (DESIGN §2) and its line. */
export interface ArtifactRef {
  id: string;
  line: number;
}

export interface Serialized {
  text: string;
  /** Native artifact id → its place in `text`; artifacts the format cannot carry are absent. */
  refs: Map<string, ArtifactRef>;
}

export interface SerializeOptions {
  /** Seeds record uuids and timestamps (Claude Code); never the clock. Default 0. */
  seed?: number;
}

export type Serializer = (artifacts: readonly Artifact[], opts: SerializeOptions) => Serialized;

export function contentText(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

/** Anthropic-style blocks: text parts as text blocks, any other part passed through unchanged. */
export function contentBlocks(content: Content): Record<string, unknown>[] {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  return content.map((p) => ({ ...p }));
}

export function parseArguments(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    // Provider-malformed arguments stay visible as data rather than being dropped.
    return { raw: args };
  }
}

/** One JSON value per line inside a wrapper, so every message has its own line (and `line` is exact). */
export function linesInWrapper(head: string, items: readonly unknown[], tail: string): string {
  const body = items.map((m, i) => JSON.stringify(m) + (i < items.length - 1 ? ',' : ''));
  return `${[head, ...body, tail].join('\n')}\n`;
}
