// Context items for the emitter tests: the shape stabilize() produces, built tersely.
import type { ContextItem } from '../../../src/core/stabilize/types.js';
import type { ArtifactKind, Content, ToolCall } from '../../../src/core/types.js';

let line = 0;

export function ci(
  id: string,
  kind: ArtifactKind,
  content: Content,
  extra: Partial<Omit<ContextItem, 'id' | 'kind' | 'content'>> = {},
): ContextItem {
  line++;
  return { id, kind, content, tokens: 1, line, ...extra };
}

export function tc(id: string, name: string, args: string): ToolCall {
  return { id, name, arguments: args };
}

/** A small agent turn: system + policy, a user question, two parallel calls and their results. */
export function turn(): ContextItem[] {
  return [
    ci('s', 'system', 'You are a support agent.'),
    ci('p', 'policy', 'Never promise refunds.'),
    ci('u1', 'user', 'Where are orders 1 and 2?'),
    ci('a1', 'assistant', 'Let me check both.', {
      tool_calls: [tc('c1', 'get_order', '{"id":1}'), tc('c2', 'get_order', '{"id":2}')],
    }),
    ci('r2', 'tool', 'order 2: shipped', { tool: 'get_order', call_id: 'c2' }),
    ci('r1', 'tool', 'order 1: lost', { tool: 'get_order', call_id: 'c1', is_error: true }),
    ci('a2', 'assistant', 'Order 2 shipped; order 1 is lost.'),
    ci('u2', 'user', 'Thanks.'),
  ];
}
