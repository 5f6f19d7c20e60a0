// What a content part is, whatever format wrote it: an image, a file or a sound (with its URL,
// base64 data, text or file id), a refusal, a part only one API takes back, or a part only the
// recording's provider takes back. parts.ts decides from this what each request makes of it.
import { MODEL_ITEMS } from '../readers/responses-items.js';
import type { ContentPart } from '../types.js';
import { ANTHROPIC_BLOCK_TYPES } from './anthropic-rules.js';
import { isObject } from './rule-hit.js';
import type { EmitApi } from './parts.js';

type Obj = Record<string, unknown>;

/** Whose Files API a file id belongs to: an id is only sent to that provider's requests. */
export type FileOwner = 'openai' | 'anthropic' | 'other';

/** An image, a file or a sound, whatever format wrote it. */
export interface Media {
  kind: 'image' | 'file' | 'audio';
  /** An http(s) URL. */
  url?: string;
  /** A URI no provider but the recording's can fetch (gs://, a Gemini Files API URI…). */
  uri?: string;
  /** Base64, with its media type when known. */
  data?: string;
  mediaType?: string;
  /** A plain-text document's own text (never decoded from base64). */
  text?: string;
  fileId?: { id: string; owner: FileOwner };
  filename?: string;
  /** OpenAI image detail (low, high, auto). */
  detail?: string;
  /** Audio format (wav, mp3). */
  format?: string;
}

export type What =
  | Media
  | { kind: 'refusal'; text: string }
  /** A part only `api` takes (Anthropic thinking and server tools, Responses items). */
  | { kind: 'own'; api: EmitApi }
  /** A part only the recording's provider takes back (Gemini thoughts, AI SDK reasoning…). */
  | { kind: 'foreign'; why: string };

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s;

/** A URL as a Media's fields: a data URL's base64 and media type, an http(s) URL, or another URI. */
function fromUrl(url: string, mediaType?: string): Partial<Media> {
  const m = DATA_URL.exec(url);
  if (m)
    return {
      data: m[3] as string,
      ...((str(m[1]) ?? mediaType) ? { mediaType: str(m[1]) ?? mediaType } : {}),
    };
  const typed = mediaType ? { mediaType } : {};
  return /^https?:\/\//i.test(url) ? { url, ...typed } : { uri: url, ...typed };
}

/** The AI SDK's data: a URL, a data URL or bare base64. */
function fromData(value: string, mediaType?: string): Partial<Media> {
  if (value.startsWith('data:') || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return fromUrl(value, mediaType);
  return { data: value, ...(mediaType ? { mediaType } : {}) };
}

function kindOf(mediaType: string | undefined, fallback: Media['kind']): Media['kind'] {
  if (mediaType?.startsWith('image/')) return 'image';
  if (mediaType?.startsWith('audio/')) return 'audio';
  return fallback;
}

export function media(kind: Media['kind'], fields: Partial<Media>, extra: Partial<Media> = {}): Media {
  const out: Media = { kind: kindOf(fields.mediaType, kind), ...fields };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (out as unknown as Obj)[k] = v;
  return out;
}

/** An Anthropic image or document: its `source` (base64, url, text or file). */
function anthropicSource(p: Obj, kind: Media['kind']): Media | undefined {
  const s = p['source'];
  if (!isObject(s)) return undefined;
  const mediaType = str(s['media_type']);
  const extra = { filename: str(p['title']) };
  switch (s['type']) {
    case 'base64':
      return str(s['data']) ? media(kind, { data: s['data'] as string, mediaType }, extra) : undefined;
    case 'url':
      return str(s['url']) ? media(kind, fromUrl(s['url'] as string, mediaType), extra) : undefined;
    case 'text':
      return typeof s['data'] === 'string'
        ? { kind: 'file', text: s['data'], ...(extra.filename ? extra : {}) }
        : undefined;
    case 'file':
      return str(s['file_id'])
        ? media(kind, { fileId: { id: s['file_id'] as string, owner: 'anthropic' } }, extra)
        : undefined;
    default:
      return undefined;
  }
}

/** The AI SDK's image `{image, mediaType}` (v4 `mimeType`) and file `{data, mediaType, filename}`. */
function vercelMedia(p: Obj, field: 'image' | 'data', kind: Media['kind']): Media | undefined {
  const value = str(p[field]);
  if (value === undefined) return undefined;
  const mediaType = str(p['mediaType']) ?? str(p['mimeType']);
  return media(kind, fromData(value, mediaType), { filename: str(p['filename']) });
}

/**
 * LangChain's standard blocks: v0 `{source_type: url|base64|id|text, url|data|id|text, mime_type}`,
 * v1 `{url | base64 | file_id, mime_type}` (a v1 `id` names the block, not a file).
 */
function langchainMedia(p: Obj, kind: Media['kind']): Media | undefined {
  const mediaType = str(p['mime_type']);
  const extra = {
    filename: str(p['filename']) ?? (isObject(p['extras']) ? str(p['extras']['filename']) : undefined),
  };
  const sourceType = str(p['source_type']);
  if (sourceType === 'text' && typeof p['text'] === 'string') return { kind: 'file', text: p['text'] };
  if (sourceType === 'id' && str(p['id']))
    return media(kind, { fileId: { id: p['id'] as string, owner: 'other' }, mediaType }, extra);
  const url = str(p['url']);
  if (url !== undefined) return media(kind, fromUrl(url, mediaType), extra);
  const data = str(p['base64']) ?? str(p['data']);
  if (data !== undefined) return media(kind, fromData(data, mediaType), extra);
  if (str(p['file_id']))
    return media(kind, { fileId: { id: p['file_id'] as string, owner: 'other' }, mediaType }, extra);
  return undefined;
}

/** OpenAI's file `{file: {file_id | file_data, filename}}` (Chat Completions) and input_file (Responses). */
function openaiFile(f: Obj): Media | undefined {
  const filename = str(f['filename']);
  const fileId = str(f['file_id']);
  if (fileId !== undefined) return media('file', { fileId: { id: fileId, owner: 'openai' } }, { filename });
  const data = str(f['file_data']);
  if (data !== undefined) return media('file', fromData(data), { filename });
  const url = str(f['file_url']);
  return url !== undefined ? media('file', fromUrl(url), { filename }) : undefined;
}

/** Gemini's `{inlineData: {mimeType, data}}` and `{fileData: {mimeType, fileUri}}`. */
function geminiMedia(p: Obj, field: 'inlineData' | 'fileData'): Media | undefined {
  const d = p[field];
  if (!isObject(d)) return undefined;
  const mediaType = str(d['mimeType']);
  if (field === 'inlineData')
    return str(d['data']) ? media('file', { data: d['data'] as string, mediaType }) : undefined;
  const uri = str(d['fileUri']);
  if (uri === undefined) return undefined;
  // A Gemini Files API URI is fetched with the recording's Google credentials: no other provider can.
  const typed = mediaType ? { mediaType } : {};
  return media('file', GEMINI_FILES.test(uri) ? { uri, ...typed } : fromUrl(uri, mediaType));
}

const GEMINI_FILES = /^https:\/\/generativelanguage\.googleapis\.com\//i;

/** Part types only one API takes back (besides the ones READ handles). */
const OWN: ReadonlyMap<string, EmitApi> = new Map<string, EmitApi>([
  ...[...ANTHROPIC_BLOCK_TYPES.user, ...ANTHROPIC_BLOCK_TYPES.assistant]
    .filter((t) => !['text', 'image', 'document', 'tool_use', 'tool_result'].includes(t))
    .map((t): [string, EmitApi] => [t, 'anthropic']),
  ...[...MODEL_ITEMS].map((t): [string, EmitApi] => [t, 'responses']),
]);

const SDK_REASONING = 'reasoning the SDK recorded for one provider: no request takes it back';
const GEMINI_ONLY = 'only Gemini takes it back';
/** Provider-specific parts no target takes, and why. */
const FOREIGN: Readonly<Record<string, string>> = {
  thought: `Gemini's thinking: ${GEMINI_ONLY}`,
  thoughtSignature: `a Gemini thought signature: ${GEMINI_ONLY}`,
  executableCode: `code Gemini ran itself: ${GEMINI_ONLY}`,
  codeExecutionResult: `code Gemini ran itself: ${GEMINI_ONLY}`,
  'redacted-reasoning': SDK_REASONING,
  'reasoning-file': SDK_REASONING,
  'tool-call': 'a tool the provider ran itself: only that provider can replay it',
  'tool-result': 'a tool the provider ran itself: only that provider can replay it',
  non_standard: 'a provider-specific block: no request takes it back',
};

/** Part type → what a part of it is; undefined when its shape is none this module knows. */
const READ: Readonly<Record<string, (p: Obj) => What | undefined>> = {
  // OpenAI Chat Completions (OpenHands too), LangChain (also as a bare string).
  image_url: (p) => {
    const v = p['image_url'];
    const url = isObject(v) ? str(v['url']) : str(v);
    if (url === undefined) return undefined;
    return media('image', fromUrl(url), { detail: isObject(v) ? str(v['detail']) : undefined });
  },
  input_image: (p) => {
    const url = str(p['image_url']);
    const fileId = str(p['file_id']);
    if (url === undefined && fileId === undefined) return undefined;
    return media(
      'image',
      url !== undefined ? fromUrl(url) : { fileId: { id: fileId as string, owner: 'openai' } },
      {
        detail: str(p['detail']),
      },
    );
  },
  // Anthropic (source), the AI SDK (image), LangChain standard blocks.
  image: (p) => anthropicSource(p, 'image') ?? vercelMedia(p, 'image', 'image') ?? langchainMedia(p, 'image'),
  document: (p) => anthropicSource(p, 'file'),
  // OpenAI Chat Completions (file object), the AI SDK (data), LangChain standard blocks.
  file: (p) =>
    (isObject(p['file']) ? openaiFile(p['file']) : undefined) ??
    vercelMedia(p, 'data', 'file') ??
    langchainMedia(p, 'file'),
  input_file: (p) => openaiFile(p),
  input_audio: (p) => {
    const a = p['input_audio'];
    if (!isObject(a) || !str(a['data']) || !str(a['format'])) return undefined;
    return { kind: 'audio', data: a['data'] as string, format: a['format'] as string };
  },
  audio: (p) => langchainMedia(p, 'audio'),
  'text-plain': (p) => (typeof p['text'] === 'string' ? { kind: 'file', text: p['text'] } : undefined),
  inlineData: (p) => geminiMedia(p, 'inlineData'),
  fileData: (p) => geminiMedia(p, 'fileData'),
  // A Responses computer_call_output's screenshot (its output item, when it lost its built-in shape).
  computer_call_output: (p) => {
    const o = p['output'];
    if (!isObject(o)) return undefined;
    const url = str(o['image_url']);
    const fileId = str(o['file_id']);
    if (url !== undefined) return media('image', fromUrl(url));
    return fileId !== undefined ? media('image', { fileId: { id: fileId, owner: 'openai' } }) : undefined;
  },
  refusal: (p) => (typeof p['refusal'] === 'string' ? { kind: 'refusal', text: p['refusal'] } : undefined),
  // A Responses reasoning item has a summary; the AI SDK's (`text`) and LangChain's (`reasoning`) do not.
  reasoning: (p) =>
    Array.isArray(p['summary']) ? { kind: 'own', api: 'responses' } : { kind: 'foreign', why: SDK_REASONING },
};

export function whatOf(p: ContentPart): What | undefined {
  const read = Object.hasOwn(READ, p.type) ? READ[p.type] : undefined;
  if (read) return read(p as Obj);
  const own = OWN.get(p.type);
  if (own) return { kind: 'own', api: own };
  const why = Object.hasOwn(FOREIGN, p.type) ? FOREIGN[p.type] : undefined;
  return why !== undefined ? { kind: 'foreign', why } : undefined;
}
