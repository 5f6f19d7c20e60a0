// Writes a stabilized context as OpenAI Chat Completions messages. Tool messages are placed right
// after the assistant message whose calls they answer (by the readers' pairing rule, answers.ts), as
// the API requires.
import { answersOf } from './answers.js';
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
  // Which result answers which call: the nearest earlier pending call of its id (ids are reused).
  const answers = answersOf(context);
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
      // The ids it answers no call of the context with: kept in place (the pairing check reports it).
      for (const id of answers.unanswered(item))
        emit({ role: 'tool', tool_call_id: id, content: textOnly(item.content) }, item);
      continue;
    }
    const m = message(item);
    if (m) emit(m, item);
    (item.tool_calls ?? []).forEach((call, k) => {
      const r = answers.resultOf(item, k);
      if (r) emit({ role: 'tool', tool_call_id: call.id, content: textOnly(r.content) }, r);
    });
  }
  return { messages: out, origins };
}
