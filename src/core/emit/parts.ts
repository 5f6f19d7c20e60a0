// What each content part the readers keep becomes in each request the emitters write: kept as it
// is (the target's own shape, byte for byte), converted to the target's shape, or left out with
// the reason. Readers keep every non-text part as parsed, in its source format's shape (content.ts),
// so a part is first read for what it is (READ: images, files, audio, refusals, whatever the format
// wrote them as), then written by the target's table (WRITE). The three emitters (openai.ts,
// anthropic.ts, responses.ts) convert through partFor and count through PartLog, which writes the
// ledger's `emit` notes (notes.ts): the requests and the notes cannot disagree.
//
// Pure: nothing is decoded or fetched. A base64 file is never turned into text (its text would
// reach the request unmasked and unseen by the `pii` check), and a URL or file id is only passed
// to a target that can reach it.
import { MODEL_ITEMS } from '../readers/responses-items.js';
import type { ContentPart } from '../types.js';
import { whatOf, type Media } from './part-kind.js';
import { ANTHROPIC_BLOCK_TYPES, TOOL_RESULT_CONTENT_TYPES } from './anthropic-rules.js';
import { OPENAI_PART_TYPES } from './openai-rules.js';
import { isObject } from './rule-hit.js';

/** The request formats with content parts (`native` writes parts as they are). */
export type EmitApi = 'openai' | 'anthropic' | 'responses';
/**
 * Where a part goes: a user turn (user-side items, outputs that name no call), an assistant turn,
 * the system text, or a tool result's content.
 */
export type Slot = 'user' | 'assistant' | 'system' | 'tool';

export type PartFate =
  | { fate: 'kept'; part: unknown }
  /** `to`: what it became, a singular noun ending in `part` or `block` (`image block`). */
  | { fate: 'converted'; part: unknown; to: string }
  | { fate: 'left'; why: string };

type Obj = Record<string, unknown>;

// ---- what each target keeps as it is ---------------------------------------------------------------

/** The shape a part of the target's own type must have to be passed through unchanged. */
const SHAPE: Readonly<Record<string, (p: Obj) => boolean>> = {
  image_url: (p) => isObject(p['image_url']) && typeof p['image_url']['url'] === 'string',
  input_audio: (p) => isObject(p['input_audio']),
  file: (p) => isObject(p['file']),
  refusal: (p) => typeof p['refusal'] === 'string',
  image: (p) => isObject(p['source']),
  document: (p) => isObject(p['source']),
  // The Responses reader keeps every field of its parts; an input_image names a URL or a file.
  input_image: (p) => typeof p['image_url'] === 'string' || typeof p['file_id'] === 'string',
  input_file: (p) => ['file_id', 'file_data', 'file_url'].some((k) => typeof p[k] === 'string'),
  thinking: (p) => typeof p['thinking'] === 'string',
  redacted_thinking: (p) => typeof p['data'] === 'string',
};

const except = (list: readonly string[], ...gone: string[]): string[] =>
  list.filter((t) => !gone.includes(t));

/** Part types each target takes as they are, per slot (text parts are written by each emitter). */
const NATIVE: Readonly<Record<EmitApi, Readonly<Record<Slot, readonly string[]>>>> = {
  openai: {
    user: except(OPENAI_PART_TYPES['user'] ?? [], 'text'),
    assistant: except(OPENAI_PART_TYPES['assistant'] ?? [], 'text'),
    system: except(OPENAI_PART_TYPES['system'] ?? [], 'text'),
    tool: except(OPENAI_PART_TYPES['tool'] ?? [], 'text'),
  },
  anthropic: {
    // tool_use and tool_result blocks are the emitter's own, written from tool calls and results.
    user: except(ANTHROPIC_BLOCK_TYPES.user, 'text', 'tool_result'),
    assistant: except(ANTHROPIC_BLOCK_TYPES.assistant, 'text', 'tool_use'),
    system: [],
    tool: except(TOOL_RESULT_CONTENT_TYPES, 'text'),
  },
  responses: {
    user: ['input_image', 'input_file'],
    system: ['input_image', 'input_file'],
    assistant: ['refusal'],
    tool: ['input_image', 'input_file'],
  },
};

/**
 * A part the Responses request writes as a whole input item (reasoning, server tool calls…: what
 * responses-items.ts keeps of a model turn); an SDK's own reasoning part is not one.
 */
export function isResponsesItem(p: ContentPart): boolean {
  return MODEL_ITEMS.has(p.type) && (p.type !== 'reasoning' || Array.isArray(p['summary']));
}

// ---- what each target makes of the rest ---------------------------------------------------------

const API_NAME: Readonly<Record<EmitApi, string>> = {
  openai: 'Chat Completions',
  anthropic: 'the Messages API',
  responses: 'the Responses API',
};
/** Where each target takes media (images, files, audio) from. */
const MEDIA_SLOTS: Readonly<Record<EmitApi, { slots: readonly Slot[]; where: string }>> = {
  openai: { slots: ['user'], where: 'from the user' },
  anthropic: { slots: ['user', 'tool'], where: 'in user turns and tool results' },
  responses: { slots: ['user', 'system', 'tool'], where: 'in input messages and tool outputs' },
};
const NOUN: Readonly<Record<Media['kind'], string>> = { image: 'images', file: 'files', audio: 'audio' };
const PDF = 'application/pdf';
/** Image media types the Messages API takes. */
const ANTHROPIC_IMAGES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** Audio formats Chat Completions takes, by media type. */
const OPENAI_AUDIO: Readonly<Record<string, string>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};
/** Base64 openings of the formats a part may hold without a media type. */
const MAGIC: readonly [string, string][] = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
  ['JVBERi0', PDF],
];

/** The media type a part declares, else the one its base64 opens with. */
function typeOf(m: Media): string | undefined {
  return (
    m.mediaType ?? (m.data !== undefined ? MAGIC.find(([head]) => m.data?.startsWith(head))?.[1] : undefined)
  );
}

const isPdf = (m: Media): boolean =>
  typeOf(m) === PDF || (m.mediaType === undefined && m.url !== undefined && /\.pdf(?:[?#]|$)/i.test(m.url));

function dataUrl(m: Media, mediaType: string): string {
  return `data:${mediaType};base64,${m.data as string}`;
}

function filenameOf(m: Media): string {
  return m.filename ?? (isPdf(m) ? 'document.pdf' : 'file');
}

const converted = (part: unknown, to: string): PartFate => ({ fate: 'converted', part, to });
const left = (why: string): PartFate => ({ fate: 'left', why });

/** Why a media part with nothing the target can reach is left out. */
function unreachable(api: EmitApi, m: Media): PartFate {
  if (m.fileId) return left(`a file id ${API_NAME[api]} cannot reference`);
  if (m.uri !== undefined) return left(`a URI ${API_NAME[api]} cannot fetch`);
  return left(`${API_NAME[api]} cannot take this ${m.kind === 'file' ? 'file' : m.kind}`);
}

function openaiMedia(m: Media, slot: Slot): PartFate {
  if (slot !== 'user') return left(`Chat Completions takes ${NOUN[m.kind]} only ${MEDIA_SLOTS.openai.where}`);
  if (m.kind === 'image') {
    const type = typeOf(m);
    const url = m.url ?? (m.data !== undefined && type !== undefined ? dataUrl(m, type) : undefined);
    if (url === undefined) return unreachable('openai', m);
    return converted(
      { type: 'image_url', image_url: { url, ...(m.detail ? { detail: m.detail } : {}) } },
      'image_url part',
    );
  }
  if (m.kind === 'audio') {
    const format = m.format ?? (m.mediaType ? OPENAI_AUDIO[m.mediaType] : undefined);
    if (m.data === undefined) return unreachable('openai', m);
    if (format === undefined) return left('Chat Completions takes wav and mp3 audio only');
    return converted({ type: 'input_audio', input_audio: { data: m.data, format } }, 'input_audio part');
  }
  if (m.text !== undefined) return converted({ type: 'text', text: m.text }, 'text part');
  if (m.fileId?.owner === 'openai')
    return converted(
      { type: 'file', file: { file_id: m.fileId.id, ...(m.filename ? { filename: m.filename } : {}) } },
      'file part',
    );
  if (m.data !== undefined && isPdf(m))
    return converted(
      { type: 'file', file: { filename: filenameOf(m), file_data: dataUrl(m, PDF) } },
      'file part',
    );
  if (m.data !== undefined) return left('Chat Completions takes PDF files only');
  if (m.url !== undefined) return left('Chat Completions takes no file URLs');
  return unreachable('openai', m);
}

function anthropicMedia(m: Media, slot: Slot): PartFate {
  const { slots, where } = MEDIA_SLOTS.anthropic;
  if (!slots.includes(slot)) return left(`the Messages API takes ${NOUN[m.kind]} only ${where}`);
  if (m.kind === 'audio') return left('the Messages API takes no audio');
  if (m.kind === 'image') {
    if (m.url !== undefined)
      return converted({ type: 'image', source: { type: 'url', url: m.url } }, 'image block');
    if (m.data === undefined) return unreachable('anthropic', m);
    const type = typeOf(m);
    if (type === undefined || !ANTHROPIC_IMAGES.includes(type))
      return left('the Messages API takes jpeg, png, gif and webp images only');
    return converted(
      { type: 'image', source: { type: 'base64', media_type: type, data: m.data } },
      'image block',
    );
  }
  const title = m.filename ? { title: m.filename } : {};
  if (m.text !== undefined)
    return converted(
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: m.text }, ...title },
      'document block',
    );
  if (m.data !== undefined && isPdf(m))
    return converted(
      { type: 'document', source: { type: 'base64', media_type: PDF, data: m.data }, ...title },
      'document block',
    );
  if (m.url !== undefined && isPdf(m))
    return converted({ type: 'document', source: { type: 'url', url: m.url }, ...title }, 'document block');
  if (m.data !== undefined || m.url !== undefined)
    return left('the Messages API takes PDF and plain-text documents only');
  return unreachable('anthropic', m);
}

function responsesMedia(m: Media, slot: Slot): PartFate {
  const { slots, where } = MEDIA_SLOTS.responses;
  if (!slots.includes(slot)) return left(`the Responses API takes ${NOUN[m.kind]} only ${where}`);
  if (m.kind === 'audio') return left('the Responses API takes no audio');
  if (m.kind === 'image') {
    const type = typeOf(m);
    const url = m.url ?? (m.data !== undefined && type !== undefined ? dataUrl(m, type) : undefined);
    if (url !== undefined)
      return converted(
        { type: 'input_image', image_url: url, detail: m.detail ?? 'auto' },
        'input_image part',
      );
    if (m.fileId?.owner === 'openai')
      return converted(
        { type: 'input_image', file_id: m.fileId.id, detail: m.detail ?? 'auto' },
        'input_image part',
      );
    return unreachable('responses', m);
  }
  if (m.text !== undefined) return converted({ type: 'input_text', text: m.text }, 'input_text part');
  const name = m.filename ? { filename: m.filename } : {};
  if (m.fileId?.owner === 'openai')
    return converted({ type: 'input_file', file_id: m.fileId.id, ...name }, 'input_file part');
  const type = typeOf(m);
  if (m.data !== undefined && type !== undefined)
    return converted(
      { type: 'input_file', filename: filenameOf(m), file_data: dataUrl(m, type) },
      'input_file part',
    );
  if (m.url !== undefined)
    return converted({ type: 'input_file', file_url: m.url, ...name }, 'input_file part');
  return unreachable('responses', m);
}

const WRITE_MEDIA: Readonly<Record<EmitApi, (m: Media, slot: Slot) => PartFate>> = {
  openai: openaiMedia,
  anthropic: anthropicMedia,
  responses: responsesMedia,
};

function refusal(api: EmitApi, text: string, slot: Slot): PartFate {
  if (api === 'anthropic') {
    if (slot === 'system') return left('the Messages API takes only text in the system prompt');
    if (text.trim() === '') return left('an empty refusal: the Messages API takes no blank text');
    return converted({ type: 'text', text }, 'text block');
  }
  return left(`${API_NAME[api]} takes refusals only from the assistant`);
}

/** Why a part of another API is left out of `api`'s request. */
function ownWhy(api: EmitApi, owner: EmitApi, type: string): string {
  if (owner === api) return `${API_NAME[api]} takes no ${type} part here`;
  return owner === 'anthropic'
    ? `only the Messages API takes ${type} blocks`
    : `only the Responses API takes ${type} items`;
}

/**
 * What `p` (not a text part) becomes in `api`'s request at `slot`: kept as it is when it has the
 * target's own shape there, else converted to it, else left out with the reason.
 */
export function partFor(api: EmitApi, slot: Slot, p: ContentPart): PartFate {
  if (NATIVE[api][slot].includes(p.type) && (SHAPE[p.type]?.(p as Obj) ?? true))
    return { fate: 'kept', part: p };
  const what = whatOf(p);
  if (what === undefined) return left(`${API_NAME[api]} takes no such part here`);
  switch (what.kind) {
    case 'image':
    case 'file':
    case 'audio':
      return WRITE_MEDIA[api](what, slot);
    case 'refusal':
      return refusal(api, what.text, slot);
    case 'own':
      return left(ownWhy(api, what.api, p.type));
    case 'foreign':
      return left(what.why);
  }
}

// ---- the ledger notes --------------------------------------------------------------------------

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/**
 * What an emitter changed in each context item, for its ledger notes: parts converted or left
 * out (counted once per item and part, though a result answering several calls is written once
 * per call), and notes of the emitter's own (renamed call ids…). Types, counts and ids only.
 */
export class PartLog {
  private readonly seen = new Set<string>();
  private readonly counts = new Map<string, Map<string, { n: number; note: (n: number) => string }>>();

  constructor(readonly api: EmitApi) {}

  private count(id: string, key: string, note: (n: number) => string): void {
    const item = this.counts.get(id) ?? new Map<string, { n: number; note: (n: number) => string }>();
    this.counts.set(id, item);
    const c = item.get(key);
    if (c) c.n++;
    else item.set(key, { n: 1, note });
  }

  /** partFor for part `index` of item `id`, counting what it changed. */
  part(id: string, index: number, p: ContentPart, slot: Slot): PartFate {
    const fate = partFor(this.api, slot, p);
    this.record(id, index, p.type, fate);
    return fate;
  }

  /**
   * Counts a fate, once per part `index` of item `id` (an emitter that decides itself, on blocks
   * written once, gives no index).
   */
  record(id: string, index: number | undefined, type: string, fate: PartFate): void {
    if (fate.fate === 'kept') return;
    if (index !== undefined) {
      const once = `${id}\u0000${index}`;
      if (this.seen.has(once)) return;
      this.seen.add(once);
    }
    const api = this.api;
    if (fate.fate === 'converted') {
      const to = fate.to;
      this.count(
        id,
        `c\u0000${type}\u0000${to}`,
        (n) => `${api}: converted ${plural(n, `${type} part`)} to ${n === 1 ? withArticle(to) : `${to}s`}`,
      );
    } else {
      const why = fate.why;
      this.count(
        id,
        `l\u0000${type}\u0000${why}`,
        (n) => `${api}: left out ${plural(n, `${type} part`)} (${why})`,
      );
    }
  }

  /** A note of the emitter's own, prefixed with the API. */
  note(id: string, text: string): void {
    this.count(id, `n\u0000${text}`, () => `${this.api}: ${text}`);
  }

  /** Notes by context item id, in the order they were first made. */
  notes(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [id, item] of this.counts)
      out.set(
        id,
        [...item.values()].map((c) => c.note(c.n)),
      );
    return out;
  }
}
