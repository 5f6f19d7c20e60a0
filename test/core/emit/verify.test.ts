// The providers' rules on a request body: each broken rule is named with where it is in the request
// and the error the API answers, and nothing of the content is quoted.
import { describe, expect, it } from 'vitest';
import type { AnthropicRequest } from '../../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../../src/core/emit/verify.js';

function call(id: string) {
  return { id, type: 'function' as const, function: { name: 'bash', arguments: '{}' } };
}
const asking: OpenAIMessage = { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] };
const answer = (id: string): OpenAIMessage => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const rules = (found: string[]): string[] => found.map((f) => f.slice(0, f.indexOf(':')));

describe('verifyOpenAI', () => {
  it('accepts calls answered right after their assistant message, in any order', () => {
    expect(verifyOpenAI([{ role: 'user', content: 'go' }, asking, answer('c2'), answer('c1')])).toEqual([]);
  });

  it('rejects a tool message that follows no assistant call, with the API error', () => {
    const found = verifyOpenAI([{ role: 'user', content: 'go' }, answer('c1')]);
    expect(found).toEqual([
      "openai-tool-answers-call: messages[1]: tool message does not follow an assistant message with tool_calls (OpenAI answers 400: \"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.\")",
    ]);
  });

  it('rejects a call left without an answer, even when it is answered later', () => {
    const found = verifyOpenAI([asking, answer('c1'), { role: 'user', content: 'hm' }, answer('c2')]);
    expect(rules(found)).toEqual(['openai-call-answered', 'openai-tool-answers-call']);
    expect(found[0]).toContain('messages[0]: tool call c2 of the assistant message has no tool message');
  });

  it('rejects a tool message answering a call twice, and duplicate call ids', () => {
    const again = verifyOpenAI([asking, answer('c1'), answer('c2'), answer('c1')]);
    expect(again).toHaveLength(1);
    expect(again[0]).toContain("Duplicate value for 'tool_call_id' of 'c1', in messages[1] and messages[3]");
    const dup: OpenAIMessage = { role: 'assistant', content: null, tool_calls: [call('c1'), call('c1')] };
    expect(rules(verifyOpenAI([dup, answer('c1')]))).toEqual(['openai-call-ids-unique']);
  });

  it('rejects no messages, an empty assistant message and an empty content array', () => {
    expect(rules(verifyOpenAI([]))).toEqual(['openai-messages-nonempty']);
    expect(
      rules(
        verifyOpenAI([
          { role: 'user', content: 'go' },
          { role: 'assistant', content: null },
        ]),
      ),
    ).toEqual(['openai-assistant-empty']);
    expect(rules(verifyOpenAI([{ role: 'user', content: [] }]))).toEqual(['openai-empty-array']);
  });

  it('rejects Anthropic-only parts in an assistant message, naming the part and the allowed types', () => {
    const m: OpenAIMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'secret reasoning', signature: 's' },
        { type: 'text', text: 'done' },
      ],
    };
    const found = verifyOpenAI([{ role: 'user', content: 'go' }, m]);
    expect(found).toEqual([
      "openai-part-type: messages[1].content[0]: a thinking part is not allowed in an assistant message (allowed: text, refusal) (OpenAI answers 400: \"Invalid value: 'thinking'. Supported values are: 'text' and 'refusal'.\")",
    ]);
    expect(found.join()).not.toContain('secret reasoning');
  });

  it('accepts user image and file parts, and rejects a document block in a user message', () => {
    const ok: OpenAIMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'see' },
        { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
      ],
    };
    expect(verifyOpenAI([ok])).toEqual([]);
    const bad: OpenAIMessage = {
      role: 'user',
      content: [{ type: 'document', source: { type: 'text', data: 'x' } }],
    };
    expect(rules(verifyOpenAI([bad]))).toEqual(['openai-part-type']);
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

  it('rejects no messages and a first message from the assistant', () => {
    expect(rules(verifyAnthropic({ messages: [] }))).toEqual(['anthropic-messages-nonempty']);
    expect(verifyAnthropic({ messages: [{ role: 'assistant', content: [text('hi')] }] })).toEqual([
      'anthropic-first-message-user: messages.0: the first message is an assistant turn (Anthropic answers 400: "messages: first message must use the "user" role")',
    ]);
  });

  it('rejects a tool_result placed after other blocks', () => {
    const req: AnthropicRequest = {
      messages: [
        { role: 'user', content: [text('go')] },
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [text('first'), res('u1')] },
      ],
    };
    const found = verifyAnthropic(req);
    expect(rules(found)).toEqual(['anthropic-tool-result-first']);
    expect(found[0]).toContain('messages.2.content.1: tool_result block after a text block');
  });

  it('combines consecutive messages of one role into one turn, as the API does', () => {
    const ok: AnthropicRequest = {
      messages: [
        { role: 'user', content: [text('go')] },
        { role: 'user', content: [text('and quickly')] },
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [res('u1')] },
        { role: 'user', content: [text('thanks')] },
      ],
    };
    expect(verifyAnthropic(ok)).toEqual([]);
    const split: AnthropicRequest = {
      messages: [
        { role: 'user', content: [text('go')] },
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [text('hm')] },
        { role: 'user', content: [res('u1')] },
      ],
    };
    expect(rules(verifyAnthropic(split))).toEqual(['anthropic-tool-result-first']);
  });

  it('rejects a tool_use without a result and a result without a tool_use', () => {
    const req: AnthropicRequest = {
      messages: [
        { role: 'user', content: [text('go')] },
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [res('u9')] },
      ],
    };
    expect(rules(verifyAnthropic(req))).toEqual([
      'anthropic-tool-use-answered',
      'anthropic-tool-result-matches-use',
    ]);
  });

  it('rejects a tool_use id used twice in the request, at the second use', () => {
    const req: AnthropicRequest = {
      messages: [
        { role: 'user', content: [text('go')] },
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [res('u1')] },
        { role: 'assistant', content: [use('u1')] },
        { role: 'user', content: [res('u1')] },
      ],
    };
    expect(verifyAnthropic(req)).toEqual([
      'anthropic-tool-use-ids-unique: messages.3.content.0: tool_use id u1 is used again (first at messages.1.content.0) (Anthropic answers 400: "messages.3.content.0: `tool_use` ids must be unique")',
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
    expect(rules(verifyAnthropic(req))).toEqual([
      'anthropic-empty-content',
      'anthropic-block-type',
      'anthropic-tool-use-answered',
    ]);
  });

  it('rejects an empty text block and a thinking block in a user message', () => {
    const req: AnthropicRequest = {
      messages: [{ role: 'user', content: [text(' '), { type: 'thinking', thinking: 't', signature: 's' }] }],
    };
    expect(rules(verifyAnthropic(req))).toEqual(['anthropic-empty-text', 'anthropic-block-type']);
  });

  it('rejects a role other than user or assistant', () => {
    const req = { messages: [{ role: 'system', content: [text('x')] }] } as unknown as AnthropicRequest;
    expect(rules(verifyAnthropic(req))).toEqual(['anthropic-role']);
  });
});
