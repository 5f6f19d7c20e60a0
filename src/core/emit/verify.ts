// The providers' structural rules for tool use, checked on an emitted request body. A stabilized
// context that breaks one of these would be answered with HTTP 400.
import type { AnthropicRequest } from './anthropic.js';
import type { OpenAIMessage } from './openai.js';

/** OpenAI: every tool message answers a call of the assistant message right before its group, and every call is answered there. */
export function verifyOpenAI(messages: readonly OpenAIMessage[]): string[] {
  const errors: string[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i] as OpenAIMessage;
    if (m.role === 'tool') {
      errors.push(`message ${i}: tool message does not follow an assistant message with tool_calls`);
      i++;
      continue;
    }
    i++;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const pending = new Set(m.tool_calls.map((c) => c.id));
    if (pending.size !== m.tool_calls.length)
      errors.push(`message ${i - 1}: duplicate tool_call ids in one assistant message`);
    while (i < messages.length && (messages[i] as OpenAIMessage).role === 'tool') {
      const t = messages[i] as OpenAIMessage;
      if (t.tool_call_id === undefined || !pending.delete(t.tool_call_id)) {
        errors.push(
          `message ${i}: tool message answers no pending call of the assistant message before its group`,
        );
      }
      i++;
    }
    for (const id of pending) errors.push(`assistant message: tool call ${id} has no tool message after it`);
  }
  return errors;
}

/** Anthropic: tool_result blocks come first in the very next user message and answer that assistant's tool_use blocks. */
export function verifyAnthropic(req: AnthropicRequest): string[] {
  const errors: string[] = [];
  req.messages.forEach((m, i) => {
    if (m.role !== 'user' && m.role !== 'assistant')
      errors.push(`message ${i}: role must be user or assistant`);
    if (m.content.length === 0) errors.push(`message ${i}: empty content`);
    const prev = req.messages[i - 1];
    const uses =
      prev?.role === 'assistant'
        ? prev.content.filter((b) => b.type === 'tool_use').map((b) => String(b['id']))
        : [];
    const results = m.content.filter((b) => b.type === 'tool_result');
    if (m.role === 'assistant' && results.length > 0)
      errors.push(`message ${i}: tool_result in an assistant message`);
    if (m.role === 'user') {
      const firstOther = m.content.findIndex((b) => b.type !== 'tool_result');
      if (firstOther !== -1 && m.content.slice(firstOther).some((b) => b.type === 'tool_result')) {
        errors.push(`message ${i}: tool_result blocks must come before any other block`);
      }
      const pending = new Set(uses);
      for (const r of results) {
        if (!pending.delete(String(r['tool_use_id'])))
          errors.push(`message ${i}: tool_result answers no tool_use of the previous assistant message`);
      }
      for (const id of pending)
        errors.push(`message ${i}: tool_use ${id} of the previous assistant message has no tool_result here`);
    }
    if (m.role === 'assistant' && m.content.some((b) => b.type === 'tool_use')) {
      const next = req.messages[i + 1];
      if (!next || next.role !== 'user')
        errors.push(`message ${i}: tool_use blocks are not followed by a user message with their results`);
    }
  });
  return errors;
}
