// c. The baseline: LangChain.js `trimMessages` over the same transcripts, converted to LangChain
// messages, with the options a user trimming chat history for the next model call would pick.
// It only trims: no PII masking, no protection, no dedup, no validation.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from '@langchain/core/messages';
import type { BaseMessage, TrimMessagesFields } from '@langchain/core/messages';
import type { Tokenizer } from '../src/core/tokens/tokenizer.js';
import type { Artifact, Content, Transcript } from '../src/core/types.js';
import type { BenchFile } from './corpus.js';
import { read } from './workloads.js';

/**
 * The trim options, documented in results.json:
 * - strategy `last`: keep the most recent history (what an agent loop needs);
 * - maxTokens 8000: the default policy's budget;
 * - includeSystem: the leading system prompt always stays;
 * - startOn `human`: the kept window opens on a user turn, never on an orphan tool result or a
 *   reply to a dropped question (LangChain's documented recipe for chat models);
 * - no endOn: a recorded transcript ends where it ends, cutting its last replies would be wrong;
 * - no allowPartial: messages are kept whole, like the stabilizer keeps them.
 */
export const TRIM_OPTIONS = {
  strategy: 'last',
  maxTokens: 8000,
  includeSystem: true,
  startOn: 'human',
  allowPartial: false,
} as const satisfies Omit<TrimMessagesFields, 'tokenCounter'>;

export function contentText(content: Content): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const p of content) if (p.type === 'text' && typeof p.text === 'string') texts.push(p.text);
  return texts.join('\n');
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Not JSON: LangChain wants an object, so the raw text becomes its one field.
  }
  return { input: text };
}

/**
 * Instructions (system, policy, developer) → SystemMessage; user, task, retrieval and summary →
 * HumanMessage; assistant → AIMessage with its tool_calls; tool → ToolMessage. Phase markers are
 * scope bookkeeping, not messages, and are left out.
 */
export function toLangChainMessage(a: Artifact): BaseMessage | undefined {
  const content = contentText(a.content);
  switch (a.kind) {
    case 'system':
    case 'policy':
      return new SystemMessage({ content, id: a.id });
    case 'user':
    case 'task':
    case 'retrieval':
    case 'summary':
      return new HumanMessage({ content, id: a.id });
    case 'assistant':
      return new AIMessage({
        content,
        id: a.id,
        tool_calls: (a.tool_calls ?? []).map((c) => ({
          type: 'tool_call' as const,
          id: c.id,
          name: c.name,
          args: parseArgs(c.arguments),
        })),
      });
    case 'tool':
      return new ToolMessage({ content, id: a.id, tool_call_id: a.call_id ?? '', name: a.tool });
    case 'phase':
      return undefined;
  }
}

export function toLangChainMessages(t: Transcript): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const a of t.artifacts) {
    const m = toLangChainMessage(a);
    if (m) out.push(m);
  }
  return out;
}

/**
 * The cheapest counter a careful user would write: the same o200k tokenizer and per-message
 * overhead as the stabilizer, memoized by message object (trimMessages asks for the same prefix
 * again and again) and below that by text.
 */
export function tokenCounter(tokenizer: Tokenizer, overhead: number): (messages: BaseMessage[]) => number {
  const byText = new Map<string, number>();
  const byMessage = new WeakMap<BaseMessage, number>();
  const count = (text: string): number => {
    let n = byText.get(text);
    if (n === undefined) {
      n = tokenizer.count(text);
      byText.set(text, n);
    }
    return n;
  };
  const messageTokens = (m: BaseMessage): number => {
    let n = byMessage.get(m);
    if (n !== undefined) return n;
    n = overhead + count(typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
    if (AIMessage.isInstance(m)) {
      for (const c of m.tool_calls ?? []) n += count(c.name) + count(JSON.stringify(c.args));
    }
    byMessage.set(m, n);
    return n;
  };
  return (messages) => {
    let total = 0;
    for (const m of messages) total += messageTokens(m);
    return total;
  };
}

/**
 * The counter LangChain's documentation shows for `trimMessages` (the tiktoken counter of the
 * "how to trim messages" guide): every call counts the text of every message it is given, with
 * no memo. Same tokenizer, overhead and texts as `tokenCounter`, so it returns the same numbers
 * and trimMessages keeps the same messages; only the cost differs.
 */
export function plainTokenCounter(
  tokenizer: Tokenizer,
  overhead: number,
): (messages: BaseMessage[]) => number {
  return (messages) => {
    let total = 0;
    for (const m of messages) {
      total +=
        overhead + tokenizer.count(typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
      if (AIMessage.isInstance(m)) {
        for (const c of m.tool_calls ?? [])
          total += tokenizer.count(c.name) + tokenizer.count(JSON.stringify(c.args));
      }
    }
    return total;
  };
}

export type CounterKind = 'memoized' | 'plain';

export interface TrimTally {
  transcripts: number;
  unreadable: number;
  messagesIn: number;
  messagesKept: number;
}

export async function trimOne(
  messages: BaseMessage[],
  tokenizer: Tokenizer,
  overhead: number,
  tally: TrimTally,
  counter: CounterKind = 'memoized',
): Promise<void> {
  const kept = await trimMessages(messages, {
    ...TRIM_OPTIONS,
    tokenCounter: (counter === 'plain' ? plainTokenCounter : tokenCounter)(tokenizer, overhead),
  });
  tally.messagesIn += messages.length;
  tally.messagesKept += kept.length;
}

export function emptyTrimTally(): TrimTally {
  return { transcripts: 0, unreadable: 0, messagesIn: 0, messagesKept: 0 };
}

/** c. From the same bytes as the pipeline: read, convert, trim (a fresh counter per transcript). */
export async function langchainTrim(
  files: readonly BenchFile[],
  tokenizer: Tokenizer,
  overhead: number,
): Promise<TrimTally> {
  const tally = emptyTrimTally();
  for (const f of files) {
    tally.transcripts++;
    const t = read(f);
    if (!t) {
      tally.unreadable++;
      continue;
    }
    await trimOne(toLangChainMessages(t), tokenizer, overhead, tally);
  }
  return tally;
}

/** c′. trimMessages alone, over messages converted beforehand (not timed). */
export async function langchainTrimOnly(
  conversations: readonly BaseMessage[][],
  tokenizer: Tokenizer,
  overhead: number,
  counter: CounterKind = 'memoized',
): Promise<TrimTally> {
  const tally = emptyTrimTally();
  for (const messages of conversations) {
    tally.transcripts++;
    await trimOne(messages, tokenizer, overhead, tally, counter);
  }
  return tally;
}
