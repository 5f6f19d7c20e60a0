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

// Part types of every reader's formats that carry binary payloads (OpenAI Chat/Responses, Anthropic,
// Vercel AI SDK, LangChain, Gemini).
const PART_CATEGORIES: Readonly<Record<string, PartCategory>> = {
  image_url: 'image',
  image: 'image',
  input_image: 'image',
  'image-data': 'image',
  'image-url': 'image',
  input_audio: 'audio',
  audio: 'audio',
  file: 'file',
  document: 'file',
  input_file: 'file',
  'file-data': 'file',
  'file-url': 'file',
  media: 'file',
  inlineData: 'file',
  fileData: 'file',
};

/** The fixed-cost category of a non-text part type; unknown types fall back to `other`. */
export function partCategory(type: string): PartCategory {
  return Object.hasOwn(PART_CATEGORIES, type) ? (PART_CATEGORIES[type] as PartCategory) : 'other';
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * The media type a part declares (Vercel `mediaType`, Gemini `inlineData.mimeType`, LangChain
 * `mime_type`…): a file that is an image costs an image, whatever its part type says.
 */
function declaredMedia(part: OpaquePart): string | undefined {
  const inner = part['inlineData'] ?? part['fileData'];
  const nested = typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {};
  return str(part['mediaType']) ?? str(part['mimeType']) ?? str(part['mime_type']) ?? str(nested['mimeType']);
}

function categoryOf(part: OpaquePart): PartCategory {
  const category = partCategory(part.type);
  if (category === 'image' || category === 'audio') return category;
  const media = declaredMedia(part);
  if (media?.startsWith('image/')) return 'image';
  if (media?.startsWith('audio/')) return 'audio';
  return category;
}

/** Texts of a Responses reasoning item's `summary` / `content` lists (`{type, text}` entries). */
function listTexts(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((e) => {
    const text = typeof e === 'object' && e !== null ? (e as Record<string, unknown>)['text'] : undefined;
    return typeof text === 'string' ? [text] : [];
  });
}

/**
 * The words of a reasoning part, which the model reads back as they are: Anthropic `thinking`,
 * LangChain v1 `reasoning`, Vercel `reasoning` / Gemini `thought` / LangChain `text-plain` text, and
 * the readable summary of a Responses `reasoning` item. Undefined for payloads we cannot read
 * (redacted or encrypted reasoning), which cost `other`.
 */
function readableText(part: OpaquePart): string | undefined {
  const thinking = str(part['thinking']) ?? str(part['reasoning']);
  if (thinking !== undefined) return thinking;
  if (part.type !== 'reasoning' && part.type !== 'thought' && part.type !== 'text-plain') return undefined;
  const text = str(part['text']);
  if (text !== undefined) return text;
  const texts = [...listTexts(part['summary']), ...listTexts(part['content'])];
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function countPart(part: ContentPart, tok: Tokenizer, cfg: TokenCostConfig): number {
  if (part.type === 'text' && typeof part.text === 'string') return tok.count(part.text);
  // Reasoning is sent back verbatim, so its text costs what it says; a redacted or encrypted
  // payload's size we cannot know.
  const text = readableText(part as OpaquePart);
  if (text !== undefined) return tok.count(text);
  // A Gemini thought signature is opaque bookkeeping no emitter sends (emit/parts.ts): no cost.
  if (part.type === 'thoughtSignature') return 0;
  return cfg.part_tokens[categoryOf(part as OpaquePart)];
}

/**
 * `message_overhead` + text content + each tool call's name and arguments + declared part costs.
 * Call ids and a tool result's `tool` name are not counted: providers send the id as opaque framing
 * already covered by the overhead, and a result's tool name is derived by pairing, not sent.
 */
export function countArtifactTokens(
  a: Pick<Artifact, 'content' | 'tool_calls'>,
  tok: Tokenizer,
  cfg: TokenCostConfig,
): number {
  let total = cfg.message_overhead;
  if (typeof a.content === 'string') {
    total += tok.count(a.content);
  } else {
    for (const part of a.content) total += countPart(part, tok, cfg);
  }
  for (const call of a.tool_calls ?? []) total += tok.count(call.name) + tok.count(call.arguments);
  return total;
}
