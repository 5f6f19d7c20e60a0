// Writes a stabilized context as an Anthropic Messages request body: system and policy text go to
// the top-level `system`; each assistant turn with tool_use blocks is followed by a user turn that
// starts with every matching tool_result block; adjacent turns of one role are merged.
import type { ContextItem } from '../stabilize/types.js';
import type { Content } from '../types.js';

export type AnthropicBlock = Record<string, unknown> & { type: string };
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}
export interface AnthropicRequest {
  system?: string;
  messages: AnthropicMessage[];
}

function blocks(content: Content): AnthropicBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : { ...p }));
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

function push(
  out: AnthropicMessage[],
  role: AnthropicMessage['role'],
  content: AnthropicBlock[],
  mergeable: boolean,
): void {
  if (content.length === 0) return;
  const last = out[out.length - 1];
  if (mergeable && last && last.role === role && !last.content.some((b) => b.type === 'tool_use')) {
    last.content.push(...content);
    return;
  }
  out.push({ role, content });
}

export function toAnthropic(context: readonly ContextItem[]): AnthropicRequest {
  const system: string[] = [];
  const results = new Map<string, ContextItem[]>();
  for (const item of context) {
    if (item.kind !== 'tool') continue;
    for (const id of item.call_ids ?? (item.call_id !== undefined ? [item.call_id] : [])) {
      results.set(id, [...(results.get(id) ?? []), item]);
    }
  }
  const used = new Set<ContextItem>();
  const messages: AnthropicMessage[] = [];
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
    if (item.kind === 'tool') {
      // Results already placed after their call are skipped; one without a call stays where it is.
      if (!used.has(item)) push(messages, 'user', [resultBlock(item, item.call_id ?? '')], false);
      continue;
    }
    if (item.kind === 'assistant') {
      const content = blocks(item.content);
      for (const c of item.tool_calls ?? [])
        content.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.arguments) });
      push(messages, 'assistant', content, true);
      const answers: AnthropicBlock[] = [];
      for (const c of item.tool_calls ?? []) {
        const r = results.get(c.id)?.shift();
        if (!r) continue;
        used.add(r);
        answers.push(resultBlock(r, c.id));
      }
      if (answers.length > 0) messages.push({ role: 'user', content: answers });
      continue;
    }
    // user, task, retrieval, phase and summary items are user-turn text.
    push(messages, 'user', blocks(item.content), true);
  }
  const req: AnthropicRequest = { messages };
  if (system.length > 0) req.system = system.join('\n\n');
  return req;
}
