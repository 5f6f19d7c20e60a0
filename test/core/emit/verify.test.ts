// The providers' structural rules for tool use: broken payloads are rejected with the message index.
import { describe, expect, it } from 'vitest';
import type { AnthropicRequest } from '../../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../../src/core/emit/verify.js';

function call(id: string) {
  return { id, type: 'function' as const, function: { name: 'bash', arguments: '{}' } };
}
const asking: OpenAIMessage = { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] };
const answer = (id: string): OpenAIMessage => ({ role: 'tool', tool_call_id: id, content: 'ok' });

describe('verifyOpenAI', () => {
  it('accepts calls answered right after their assistant message, in any order', () => {
    expect(verifyOpenAI([{ role: 'user', content: 'go' }, asking, answer('c2'), answer('c1')])).toEqual([]);
  });

  it('rejects a tool message that follows no assistant call', () => {
    expect(verifyOpenAI([{ role: 'user', content: 'go' }, answer('c1')])).toEqual([
      'message 1: tool message does not follow an assistant message with tool_calls',
    ]);
  });

  it('rejects a call left without an answer, even when it is answered later', () => {
    expect(verifyOpenAI([asking, answer('c1'), { role: 'user', content: 'hm' }, answer('c2')])).toEqual([
      'assistant message: tool call c2 has no tool message after it',
      'message 3: tool message does not follow an assistant message with tool_calls',
    ]);
  });

  it('rejects a tool message answering a call that is not pending, and duplicate call ids', () => {
    expect(verifyOpenAI([asking, answer('c1'), answer('c2'), answer('c1')])).toEqual([
      'message 3: tool message answers no pending call of the assistant message before its group',
    ]);
    const dup: OpenAIMessage = { role: 'assistant', content: null, tool_calls: [call('c1'), call('c1')] };
    expect(verifyOpenAI([dup, answer('c1')])).toEqual([
      'message 0: duplicate tool_call ids in one assistant message',
    ]);
  });
});

const use = (id: string) => ({ type: 'tool_use', id, name: 'bash', input: {} });
const res = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const text = (t: string) => ({ type: 'text', text: t });

describe('verifyAnthropic', () => {
  it('accepts tool results first in the next user message', () => {
    const req: AnthropicRequest = {
      messages: [
        { role: 'user', content: [text('go')] },
        { role: 'assistant', content: [text('on it'), use('u1'), use('u2')] },
        { role: 'user', content: [res('u2'), res('u1'), text('and?')] },
      ],
    };
    expect(verifyAnthropic(req)).toEqual([]);
  });

  it('rejects a tool_result placed after other blocks', () => {
    const req: AnthropicRequest = {
      messages: [
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [text('first'), res('u1')] },
      ],
    };
    expect(verifyAnthropic(req)).toEqual(['message 1: tool_result blocks must come before any other block']);
  });

  it('rejects a tool_use without a result and a result without a tool_use', () => {
    const req: AnthropicRequest = {
      messages: [
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [res('u9')] },
      ],
    };
    expect(verifyAnthropic(req)).toEqual([
      'message 1: tool_result answers no tool_use of the previous assistant message',
      'message 1: tool_use u1 of the previous assistant message has no tool_result here',
    ]);
  });

  it('rejects tool_use as the last message, tool_result in an assistant message and empty content', () => {
    const req: AnthropicRequest = {
      messages: [
        { role: 'user', content: [] },
        { role: 'assistant', content: [res('u0')] },
        { role: 'assistant', content: [use('u1')] },
      ],
    };
    expect(verifyAnthropic(req)).toEqual([
      'message 0: empty content',
      'message 1: tool_result in an assistant message',
      'message 2: tool_use blocks are not followed by a user message with their results',
    ]);
  });

  it('rejects a role other than user or assistant', () => {
    const req = { messages: [{ role: 'system', content: [text('x')] }] } as unknown as AnthropicRequest;
    expect(verifyAnthropic(req)).toEqual(['message 0: role must be user or assistant']);
  });
});
