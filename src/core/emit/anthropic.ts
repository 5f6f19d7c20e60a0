// Writes a stabilized context as an Anthropic Messages request body: system and policy text go to
// the top-level `system`; each assistant turn with tool_use blocks is followed by a user turn that
// starts with every matching tool_result block (by the readers' pairing rule, answers.ts); adjacent
// turns of one role are merged.
import { answersOf, resultIds } from './answers.js';
import { isStandaloneOutput } from './standalone.js';
import type { ContextItem } from '../stabilize/types.js';
import type { Content } from '../types.js';
import { pushAll } from '../collections.js';

export type AnthropicBlock = Record<string, unknown> & { type: string };
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}
export interface AnthropicRequest {
  system?: string;
  messages: AnthropicMessage[];
}

/**
 * Parts only the OpenAI Responses API has (a Codex rollout's reasoning and web search items): the
 * model saw them only there, and the Messages API rejects them, so they are left out (with a
 * ledger note, notes.ts), as Anthropic thinking is left out of OpenAI requests.
 */
export const OPENAI_ONLY_PARTS: ReadonlySet<string> = new Set(['reasoning', 'web_search_call']);

function blocks(content: Content): AnthropicBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content
    .filter((p) => !OPENAI_ONLY_PARTS.has(p.type))
    .map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : { ...p }));
}

function toolInput(args: string): unknown {
  try {
    const v: unknown = JSON.parse(args);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : { input: v };
  } catch {
    // tool_use input must be an object; text that is not JSON is carried as-is under one key.
    return { input: args };
  }
}

function resultBlock(item: ContextItem, id: string): AnthropicBlock {
  const b: AnthropicBlock = { type: 'tool_result', tool_use_id: id, content: blocks(item.content) };
  if (item.is_error) b['is_error'] = true;
  return b;
}

/** An Anthropic request and, per message and block, the id of the context item the block came from. */
export interface AnthropicWithOrigins {
  request: AnthropicRequest;
  /** blocks[m][b]: the context item block b of message m was written from. */
  blocks: string[][];
}

interface Out {
  messages: AnthropicMessage[];
  blocks: string[][];
}

function push(
  out: Out,
  role: AnthropicMessage['role'],
  content: AnthropicBlock[],
  from: string,
  mergeable: boolean,
): void {
  if (content.length === 0) return;
  const last = out.messages[out.messages.length - 1];
  if (mergeable && last && last.role === role && !last.content.some((b) => b.type === 'tool_use')) {
    pushAll(last.content, content);
    pushAll(
      out.blocks[out.blocks.length - 1] ?? [],
      content.map(() => from),
    );
    return;
  }
  out.messages.push({ role, content });
  out.blocks.push(content.map(() => from));
}

/**
 * tool_use ids must be unique in the whole request, but agents reuse call ids (tau-bench, SWE-agent).
 * The first use keeps its id; each later use of it is named `<id>_<n>`, n from 2, skipping names
 * the context already holds (call ids, and result ids: a result that answers no call keeps its id,
 * and a call renamed to it would be answered by it once read back): the same context always gives
 * the same names.
 */
export function uniqueToolUseIds(context: readonly ContextItem[]): { next: (id: string) => string } {
  const taken = new Set<string>();
  for (const item of context) {
    for (const c of item.tool_calls ?? []) taken.add(c.id);
    if (item.kind === 'tool') for (const id of resultIds(item)) taken.add(id);
  }
  const issued = new Set<string>();
  return {
    next(id) {
      let name = id;
      for (let n = 2; issued.has(name) || (name !== id && taken.has(name)); n++) name = `${id}_${n}`;
      issued.add(name);
      return name;
    },
  };
}

export function toAnthropic(context: readonly ContextItem[]): AnthropicRequest {
  return toAnthropicWithOrigins(context).request;
}

/** toAnthropic, also saying which context item each block came from (for findings on the request). */
export function toAnthropicWithOrigins(context: readonly ContextItem[]): AnthropicWithOrigins {
  const system: string[] = [];
  // Which result answers which call: the nearest earlier pending call of its id (ids are reused).
  const answers = answersOf(context);
  const out: Out = { messages: [], blocks: [] };
  const ids = uniqueToolUseIds(context);
  for (const item of context) {
    if (item.kind === 'system' || item.kind === 'policy') {
      system.push(
        typeof item.content === 'string'
          ? item.content
          : blocks(item.content)
              .map((b) => String(b['text'] ?? ''))
              .join('\n'),
      );
      continue;
    }
    if (isStandaloneOutput(item)) {
      push(out, 'user', blocks(item.content), item.id, true);
      continue;
    }
    if (item.kind === 'tool') {
      // Results are placed after the call they answer; the ids a result answers no call of the
      // context with stay where it is (the pairing check reports them).
      const loose = answers.unanswered(item).map((id) => resultBlock(item, id));
      push(out, 'user', loose, item.id, false);
      continue;
    }
    if (item.kind === 'assistant') {
      const content = blocks(item.content);
      const names = (item.tool_calls ?? []).map((c) => ids.next(c.id));
      (item.tool_calls ?? []).forEach((c, k) =>
        content.push({ type: 'tool_use', id: names[k], name: c.name, input: toolInput(c.arguments) }),
      );
      push(out, 'assistant', content, item.id, true);
      const placed: AnthropicBlock[] = [];
      const from: string[] = [];
      (item.tool_calls ?? []).forEach((_, k) => {
        const r = answers.resultOf(item, k);
        if (!r) return;
        placed.push(resultBlock(r, names[k] as string));
        from.push(r.id);
      });
      if (placed.length > 0) {
        out.messages.push({ role: 'user', content: placed });
        out.blocks.push(from);
      }
      continue;
    }
    // user, task, retrieval, phase and summary items are user-turn text.
    push(out, 'user', blocks(item.content), item.id, true);
  }
  const request: AnthropicRequest = { messages: out.messages };
  if (system.length > 0) request.system = system.join('\n\n');
  return { request, blocks: out.blocks };
}
