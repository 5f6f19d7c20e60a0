// Writes a stabilized context as OpenAI Chat Completions messages. Tool messages are placed right
// after the assistant message whose calls they answer, as the API requires.
import { isStandaloneOutput } from './standalone.js';
import type { ContextItem } from '../stabilize/types.js';
import type { Content, ContentPart } from '../types.js';
import { isObject } from './rule-hit.js';

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | unknown[] | null;
  tool_calls?: OpenAIToolCall[];
  tool_call_id?: string;
}

const USER_PARTS = ['image_url', 'input_audio', 'file'];

/**
 * A part as Chat Completions takes it from this role, or undefined when the API has no such part:
 * Anthropic's thinking, redacted thinking and server-tool blocks exist only in Anthropic requests
 * (the model sees them only there), so they are left out. An Anthropic image becomes an image_url
 * (data URL or URL) and a plain-text document its text, so the model still sees what the user sent.
 */
export function openaiPart(p: ContentPart, role: OpenAIMessage['role']): unknown {
  if (p.type === 'text') return { type: 'text', text: p.text };
  const allowed = role === 'user' ? USER_PARTS : role === 'assistant' ? ['refusal'] : [];
  if (allowed.includes(p.type)) return p;
  if (role !== 'user') return undefined;
  const source = (p as Record<string, unknown>)['source'];
  if (p.type === 'image' && isObject(source)) {
    if (source['type'] === 'base64' && typeof source['data'] === 'string')
      return {
        type: 'image_url',
        image_url: { url: `data:${String(source['media_type'])};base64,${source['data']}` },
      };
    if (source['type'] === 'url' && typeof source['url'] === 'string')
      return { type: 'image_url', image_url: { url: source['url'] } };
  }
  if (
    p.type === 'document' &&
    isObject(source) &&
    source['type'] === 'text' &&
    typeof source['data'] === 'string'
  )
    return { type: 'text', text: source['data'] };
  return undefined;
}

function openaiContent(content: Content, role: OpenAIMessage['role']): string | unknown[] {
  if (typeof content === 'string') return content;
  return content.map((p) => openaiPart(p, role)).filter((p) => p !== undefined);
}

function textOnly(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text')
    .map((p) => String(p.text))
    .join('\n');
}

export function roleOf(item: ContextItem): OpenAIMessage['role'] {
  switch (item.kind) {
    case 'system':
    case 'policy':
    case 'phase':
    case 'summary':
      return item.role === 'developer' ? 'developer' : 'system';
    case 'assistant':
      return 'assistant';
    case 'tool':
      return 'tool';
    default:
      return 'user';
  }
}

/** The message of an item; undefined for an assistant turn with nothing the API takes (only thinking). */
function message(item: ContextItem): OpenAIMessage | undefined {
  const role = roleOf(item);
  if (role === 'assistant') {
    const m: OpenAIMessage = { role, content: openaiContent(item.content, role) };
    const empty = m.content === '' || (Array.isArray(m.content) && m.content.length === 0);
    // A tool-call-only turn has `content: null`: the API refuses an empty array (and an empty text).
    if (empty && item.tool_calls?.length) m.content = null;
    else if (empty) return undefined;
    if (item.tool_calls?.length) {
      m.tool_calls = item.tool_calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    return m;
  }
  return { role, content: openaiContent(item.content, role) };
}

function idsOf(item: ContextItem): string[] {
  return item.call_ids ?? (item.call_id !== undefined ? [item.call_id] : []);
}

/** OpenAI messages and, per message, the ids of the context items it was written from. */
export interface OpenAIWithOrigins {
  messages: OpenAIMessage[];
  origins: string[][];
}

/** Messages in context order, each tool message moved to directly follow the group of its call. */
export function toOpenAI(context: readonly ContextItem[]): OpenAIMessage[] {
  return toOpenAIWithOrigins(context).messages;
}

/** toOpenAI, also saying which context item each message came from (for findings on the request). */
export function toOpenAIWithOrigins(context: readonly ContextItem[]): OpenAIWithOrigins {
  // call id -> results answering it, in context order; consumed as calls are met (ids are reused).
  const results = new Map<string, ContextItem[]>();
  for (const item of context) {
    if (item.kind !== 'tool') continue;
    for (const id of idsOf(item)) results.set(id, [...(results.get(id) ?? []), item]);
  }
  const answered = new Map<ContextItem, Set<string>>();
  const out: OpenAIMessage[] = [];
  const origins: string[][] = [];
  const emit = (m: OpenAIMessage, from: ContextItem): void => {
    out.push(m);
    origins.push([from.id]);
  };
  for (const item of context) {
    if (isStandaloneOutput(item)) {
      emit({ role: 'user', content: textOnly(item.content) }, item);
      continue;
    }
    if (item.kind === 'tool') {
      // Answers no call in the context: kept in place (the pairing check reports it).
      const done = answered.get(item) ?? new Set<string>();
      for (const id of idsOf(item)) {
        if (!done.has(id)) emit({ role: 'tool', tool_call_id: id, content: textOnly(item.content) }, item);
      }
      continue;
    }
    const m = message(item);
    if (m) emit(m, item);
    for (const call of item.tool_calls ?? []) {
      const r = results.get(call.id)?.shift();
      if (!r) continue;
      const done = answered.get(r) ?? new Set<string>();
      done.add(call.id);
      answered.set(r, done);
      emit({ role: 'tool', tool_call_id: call.id, content: textOnly(r.content) }, r);
    }
  }
  return { messages: out, origins };
}
