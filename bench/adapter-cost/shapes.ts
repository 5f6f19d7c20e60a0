// The seeded session of bench/agent-loop.ts (OpenAI chat, coding archetype, same seeds) converted
// once into each framework's own message shapes, with where each OpenAI message ends in them, so
// that a call at OpenAI message k sends a prefix of the SAME framework objects every time (a real
// framework keeps its message objects from call to call).
import { deriveSeed, generateCorpus } from '../../test/support/generate/index.js';
import { Rng } from '../../test/support/generate/rng.js';
import type { AdapterName } from './names.js';

/** The policy of bench/agent-loop.ts: budget 8,000 (escalations continue, warnings dropped). */
export const POLICY = Object.freeze({ budget: 8000 });

type Obj = Record<string, unknown>;

export interface ChatCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ChatCall[];
  tool_call_id?: string;
}

/** A LangChain message as plain data: the class and its constructor fields (JSON, for the child). */
export interface LcSpec {
  cls: 'system' | 'human' | 'ai' | 'tool';
  fields: Obj;
}

/** One framework's history: its items, and `ends[k]` = items standing for OpenAI messages [0, k). */
export interface Shaped<T> {
  items: T[];
  ends: number[];
}

export interface Histories {
  openai: ChatMessage[];
  /** LanguageModelV3Prompt messages (plain data). */
  aiSdk: Shaped<Obj>;
  /** LangChain messages as specs; the first (a system message) is the agent's system prompt. */
  langchain: Shaped<LcSpec>;
  /** AgentInputItem-shaped items; the first system message is the agent's instructions instead. */
  agents: Shaped<Obj> & { instructions: string };
}

/** The seeded coding session of agent-loop.ts: at least `n` OpenAI chat messages (its seed per size). */
export function session(seed: number, n: number): ChatMessage[] {
  const [entry] = generateCorpus({
    seed: deriveSeed(seed, n),
    count: 1,
    messages: Math.ceil(n * 1.1) + 10,
    formats: ['openai'],
    archetypes: ['coding'],
  });
  const doc = JSON.parse(entry!.text) as ChatMessage[] | { messages: ChatMessage[] };
  const messages = Array.isArray(doc) ? doc : doc.messages;
  if (messages.length < n) throw new Error(`the generator gave ${messages.length} messages, fewer than ${n}`);
  if (messages[0]?.role !== 'system')
    throw new Error('the generated session does not open with a system prompt');
  return messages.slice(0, n);
}

/** Call points of agent-loop.ts: from `n - span` to `n`, advancing 1–3 messages a call (seeded). */
export function callPoints(seed: number, n: number, calls: number): number[] {
  const rng = new Rng(deriveSeed(seed, `calls-${n}`));
  const points: number[] = [];
  let at = n;
  for (let i = 0; i < calls && at > 1; i++) {
    points.unshift(at);
    at -= rng.int(1, 3);
  }
  return points;
}

function parsed(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return { input: args };
  }
}

function objectArgs(args: string): Obj {
  const v = parsed(args);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : { input: args };
}

function toolNames(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
  return names;
}

function shaped<T>(messages: readonly ChatMessage[], convert: (m: ChatMessage, i: number) => T[]): Shaped<T> {
  const items: T[] = [];
  const ends = [0];
  messages.forEach((m, i) => {
    items.push(...convert(m, i));
    ends.push(items.length);
  });
  return { items, ends };
}

/**
 * AI SDK provider prompt (what transformParams receives): system and developer → system; user →
 * a text part; assistant → text part + tool-call parts (input parsed); tool → one tool message
 * with one tool-result part (text output) per OpenAI tool message.
 */
function aiSdkPrompt(messages: readonly ChatMessage[]): Shaped<Obj> {
  const names = toolNames(messages);
  return shaped(messages, (m): Obj[] => {
    const text = m.content ?? '';
    switch (m.role) {
      case 'system':
      case 'developer':
        return [{ role: 'system', content: text }];
      case 'user':
        return [{ role: 'user', content: [{ type: 'text', text }] }];
      case 'assistant':
        return [
          {
            role: 'assistant',
            content: [
              ...(text === '' ? [] : [{ type: 'text', text }]),
              ...(m.tool_calls ?? []).map((c) => ({
                type: 'tool-call',
                toolCallId: c.id,
                toolName: c.function.name,
                input: parsed(c.function.arguments),
              })),
            ],
          },
        ];
      case 'tool':
        return [
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: m.tool_call_id,
                toolName: names.get(m.tool_call_id ?? '') ?? 'tool',
                output: { type: 'text', value: text },
              },
            ],
          },
        ];
    }
  });
}

/** LangChain: system → SystemMessage (developer with `__openai_role__`), user → HumanMessage, … */
function langchainSpecs(messages: readonly ChatMessage[]): Shaped<LcSpec> {
  const names = toolNames(messages);
  return shaped(messages, (m): LcSpec[] => {
    const content = m.content ?? '';
    switch (m.role) {
      case 'system':
        return [{ cls: 'system', fields: { content } }];
      case 'developer':
        return [{ cls: 'system', fields: { content, additional_kwargs: { __openai_role__: 'developer' } } }];
      case 'user':
        return [{ cls: 'human', fields: { content } }];
      case 'assistant':
        return [
          {
            cls: 'ai',
            fields: {
              content,
              tool_calls: (m.tool_calls ?? []).map((c) => ({
                type: 'tool_call',
                id: c.id,
                name: c.function.name,
                args: objectArgs(c.function.arguments),
              })),
            },
          },
        ];
      case 'tool':
        return [
          {
            cls: 'tool',
            fields: { content, tool_call_id: m.tool_call_id, name: names.get(m.tool_call_id ?? '') },
          },
        ];
    }
  });
}

/**
 * OpenAI Agents SDK items as a run holds them: user → message item; assistant → an output message
 * (output_text) then one function_call item per call; tool → function_call_result with a text
 * output; system and developer → system message items. Message 0 (the system prompt) is the
 * agent's instructions, so it stands for no item.
 */
function agentsItems(messages: readonly ChatMessage[]): Shaped<Obj> {
  const names = toolNames(messages);
  return shaped(messages, (m, i): Obj[] => {
    const text = m.content ?? '';
    if (i === 0) return [];
    switch (m.role) {
      case 'system':
      case 'developer':
        return [{ type: 'message', role: 'system', content: text }];
      case 'user':
        return [{ type: 'message', role: 'user', content: text }];
      case 'assistant':
        return [
          ...(text === ''
            ? []
            : [
                {
                  type: 'message',
                  role: 'assistant',
                  status: 'completed',
                  content: [{ type: 'output_text', text }],
                },
              ]),
          ...(m.tool_calls ?? []).map((c) => ({
            type: 'function_call',
            callId: c.id,
            name: c.function.name,
            arguments: c.function.arguments,
            status: 'completed',
          })),
        ];
      case 'tool':
        return [
          {
            type: 'function_call_result',
            callId: m.tool_call_id,
            name: names.get(m.tool_call_id ?? '') ?? 'tool',
            status: 'completed',
            output: { type: 'text', text },
          },
        ];
    }
  });
}

export function histories(openai: ChatMessage[]): Histories {
  return {
    openai,
    aiSdk: aiSdkPrompt(openai),
    langchain: langchainSpecs(openai),
    agents: { ...agentsItems(openai), instructions: openai[0]?.content ?? '' },
  };
}

/**
 * What the child process needs for its first call, as JSON: the first `k` OpenAI messages in the
 * adapter's shape (bench/adapter-cost/child.mjs turns LangChain specs into messages).
 */
export function childHistory(h: Histories, adapter: AdapterName, k: number): unknown {
  switch (adapter) {
    case 'stabilizer':
    case 'request-body':
      return { messages: h.openai.slice(0, k) };
    case 'ai-sdk':
      return { prompt: h.aiSdk.items.slice(0, h.aiSdk.ends[k]) };
    case 'langchain':
      return { specs: h.langchain.items.slice(0, h.langchain.ends[k]) };
    case 'openai-agents':
      return { instructions: h.agents.instructions, input: h.agents.items.slice(0, h.agents.ends[k]) };
  }
}
