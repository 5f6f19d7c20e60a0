// Token cost of one artifact as the model would see it (DESIGN §4 stage 1, "normalize").
import type { Artifact, ContentPart, OpaquePart } from '../types.js';
import type { Tokenizer } from './tokenizer.js';

/** Declared fixed cost per non-text part category (policy `part_tokens`). */
export interface PartTokens {
  image: number;
  audio: number;
  file: number;
  other: number;
}

export interface TokenCostConfig {
  /** Framing tokens per artifact (role markers, separators): policy `message_overhead`. */
  message_overhead: number;
  part_tokens: PartTokens;
}

export type PartCategory = keyof PartTokens;

// Part types across OpenAI Chat/Responses and Anthropic Messages that carry binary payloads.
const PART_CATEGORIES: Readonly<Record<string, PartCategory>> = {
  image_url: 'image',
  image: 'image',
  input_image: 'image',
  input_audio: 'audio',
  audio: 'audio',
  file: 'file',
  document: 'file',
  input_file: 'file',
};

/** The fixed-cost category of a non-text part type; unknown types fall back to `other`. */
export function partCategory(type: string): PartCategory {
  return Object.hasOwn(PART_CATEGORIES, type) ? (PART_CATEGORIES[type] as PartCategory) : 'other';
}

function countPart(part: ContentPart, tok: Tokenizer, cfg: TokenCostConfig): number {
  if (part.type === 'text' && typeof part.text === 'string') return tok.count(part.text);
  // Anthropic thinking blocks are sent back verbatim, so their text costs what it says; a
  // redacted_thinking block carries only an encrypted payload whose size we cannot know.
  const thinking = (part as OpaquePart)['thinking'];
  if (typeof thinking === 'string') return tok.count(thinking);
  return cfg.part_tokens[partCategory(part.type)];
}

/**
 * `message_overhead` + text content + each tool call's name and arguments + declared part costs.
 * Call ids and a tool result's `tool` name are not counted: providers send the id as opaque framing
 * already covered by the overhead, and a result's tool name is derived by pairing, not sent.
 */
export function countArtifactTokens(a: Artifact, tok: Tokenizer, cfg: TokenCostConfig): number {
  let total = cfg.message_overhead;
  if (typeof a.content === 'string') {
    total += tok.count(a.content);
  } else {
    for (const part of a.content) total += countPart(part, tok, cfg);
  }
  for (const call of a.tool_calls ?? []) total += tok.count(call.name) + tok.count(call.arguments);
  return total;
}
