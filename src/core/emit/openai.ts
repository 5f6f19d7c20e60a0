// Writes a stabilized context as OpenAI Chat Completions messages. Tool messages are placed right
// after the assistant message whose calls they answer, as the API requires.
import type { ContextItem } from '../stabilize/types.js';
import type { Content } from '../types.js';

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

function openaiContent(content: Content): string | unknown[] {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : p));
}

function textOnly(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text')
    .map((p) => String(p.text))
    .join('\n');
}

function roleOf(item: ContextItem): OpenAIMessage['role'] {
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

function message(item: ContextItem): OpenAIMessage {
  const role = roleOf(item);
  if (role === 'assistant') {
    const m: OpenAIMessage = { role, content: openaiContent(item.content) };
    if (typeof m.content === 'string' && m.content === '' && item.tool_calls?.length) m.content = null;
    if (item.tool_calls?.length) {
      m.tool_calls = item.tool_calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    return m;
  }
  return { role, content: openaiContent(item.content) };
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
    if (item.kind === 'tool') {
      // Answers no call in the context: kept in place (the pairing check reports it).
      const done = answered.get(item) ?? new Set<string>();
      for (const id of idsOf(item)) {
        if (!done.has(id)) emit({ role: 'tool', tool_call_id: id, content: textOnly(item.content) }, item);
      }
      continue;
    }
    emit(message(item), item);
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
