// Writes a stabilized context as OpenAI Chat Completions messages. Tool messages are placed right
// after the assistant message whose calls they answer (by the readers' pairing rule, answers.ts), as
// the API requires. Parts of other formats are converted or left out by parts.ts.
import { answersOf } from './answers.js';
import { isStandaloneOutput } from './standalone.js';
import type { ContextItem } from '../stabilize/types.js';
import { PartLog, type Slot } from './parts.js';

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

/** Where a message of this role puts its parts (parts.ts). */
const SLOT: Readonly<Record<OpenAIMessage['role'], Slot>> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
};

/**
 * The parts of a message of this role as Chat Completions takes them (parts.ts): the API's own
 * parts as they are, images, files and audio of other formats converted, the rest (thinking,
 * other APIs' items, provider-specific parts) left out and counted in `log`.
 */
function openaiContent(item: ContextItem, role: OpenAIMessage['role'], log: PartLog): string | unknown[] {
  const content = item.content;
  if (typeof content === 'string') return content;
  const out: unknown[] = [];
  content.forEach((p, i) => {
    if (p.type === 'text') return void out.push({ type: 'text', text: p.text });
    const fate = log.part(item.id, i, p, SLOT[role]);
    if (fate.fate !== 'left') out.push(fate.part);
  });
  return out;
}

/** Tool messages (and outputs sent as user text) carry text only: the rest is counted in `log`. */
function textOnly(item: ContextItem, log: PartLog): string {
  const content = item.content;
  if (typeof content === 'string') return content;
  content.forEach((p, i) => {
    if (p.type !== 'text') log.part(item.id, i, p, 'tool');
  });
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
function message(item: ContextItem, log: PartLog): OpenAIMessage | undefined {
  const role = roleOf(item);
  if (role === 'assistant') {
    const m: OpenAIMessage = { role, content: openaiContent(item, role, log) };
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
  return { role, content: openaiContent(item, role, log) };
}

/** OpenAI messages, per message the ids of the context items it was written from, and the ledger notes. */
export interface OpenAIWithOrigins {
  messages: OpenAIMessage[];
  origins: string[][];
  /** Context item id → what the request changed in it (parts converted or left out). */
  notes: Map<string, string[]>;
}

/** Messages in context order, each tool message moved to directly follow the group of its call. */
export function toOpenAI(context: readonly ContextItem[]): OpenAIMessage[] {
  return toOpenAIWithOrigins(context).messages;
}

/** toOpenAI, also saying which context item each message came from (for findings on the request). */
export function toOpenAIWithOrigins(context: readonly ContextItem[]): OpenAIWithOrigins {
  // Which result answers which call: the nearest earlier pending call of its id (ids are reused).
  const answers = answersOf(context);
  const log = new PartLog('openai');
  const out: OpenAIMessage[] = [];
  const origins: string[][] = [];
  const emit = (m: OpenAIMessage, from: ContextItem): void => {
    out.push(m);
    origins.push([from.id]);
  };
  for (const item of context) {
    if (isStandaloneOutput(item)) {
      emit({ role: 'user', content: textOnly(item, log) }, item);
      continue;
    }
    if (item.kind === 'tool') {
      // The ids it answers no call of the context with: kept in place (the pairing check reports it).
      for (const id of answers.unanswered(item))
        emit({ role: 'tool', tool_call_id: id, content: textOnly(item, log) }, item);
      continue;
    }
    const m = message(item, log);
    if (m) emit(m, item);
    (item.tool_calls ?? []).forEach((call, k) => {
      const r = answers.resultOf(item, k);
      if (r) emit({ role: 'tool', tool_call_id: call.id, content: textOnly(r, log) }, r);
    });
  }
  return { messages: out, origins, notes: log.notes() };
}
