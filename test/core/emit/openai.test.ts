// toOpenAI: Chat Completions messages a provider accepts — roles mapped, each tool message right
// after the assistant message whose call it answers.
import { describe, expect, it } from 'vitest';
import { toOpenAI } from '../../../src/core/emit/openai.js';
import { verifyOpenAI } from '../../../src/core/emit/verify.js';
import { ci, tc, turn } from './helpers.js';

describe('toOpenAI', () => {
  it('writes a turn with parallel calls, results in call order after their assistant', () => {
    expect(toOpenAI(turn())).toEqual([
      { role: 'system', content: 'You are a support agent.' },
      { role: 'system', content: 'Never promise refunds.' },
      { role: 'user', content: 'Where are orders 1 and 2?' },
      {
        role: 'assistant',
        content: 'Let me check both.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_order', arguments: '{"id":1}' } },
          { id: 'c2', type: 'function', function: { name: 'get_order', arguments: '{"id":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'order 1: lost' },
      { role: 'tool', tool_call_id: 'c2', content: 'order 2: shipped' },
      { role: 'assistant', content: 'Order 2 shipped; order 1 is lost.' },
      { role: 'user', content: 'Thanks.' },
    ]);
    expect(verifyOpenAI(toOpenAI(turn()))).toEqual([]);
  });

  it('maps every kind to a role, keeping a developer role', () => {
    const roles = toOpenAI([
      ci('s', 'system', 'a', { role: 'developer' }),
      ci('ph', 'phase', ''),
      ci('tk', 'task', 'fix it'),
      ci('kb', 'retrieval', 'doc'),
      ci('sum', 'summary', 'so far'),
    ]).map((m) => m.role);
    expect(roles).toEqual(['developer', 'system', 'user', 'user', 'system']);
  });

  it('sends null content for an assistant that only makes calls', () => {
    const [m] = toOpenAI([ci('a', 'assistant', '', { tool_calls: [tc('c1', 'bash', '{}')] })]);
    expect(m).toMatchObject({ role: 'assistant', content: null });
  });

  it('pairs reused call ids with the call each result answers', () => {
    const messages = toOpenAI([
      ci('a1', 'assistant', '', { tool_calls: [tc('call_0', 'bash', '{"command":"ls"}')] }),
      ci('r1', 'tool', 'first', { call_id: 'call_0' }),
      ci('a2', 'assistant', '', { tool_calls: [tc('call_0', 'bash', '{"command":"pwd"}')] }),
      ci('r2', 'tool', 'second', { call_id: 'call_0' }),
    ]);
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['first', 'second']);
    expect(verifyOpenAI(messages)).toEqual([]);
  });

  it('writes one tool message per call a multi-call result answers', () => {
    const messages = toOpenAI([
      ci('a', 'assistant', '', { tool_calls: [tc('x', 'bash', 'ls'), tc('y', 'bash', 'pwd')] }),
      ci('r', 'tool', 'both', { call_id: 'x', call_ids: ['x', 'y'] }),
    ]);
    expect(messages.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'x', content: 'both' },
      { role: 'tool', tool_call_id: 'y', content: 'both' },
    ]);
  });

  it('keeps content parts for messages and flattens text parts for tool results', () => {
    const image = { type: 'image_url', image_url: { url: 'https://example.test/a.png' } };
    const messages = toOpenAI([
      ci('u', 'user', [{ type: 'text', text: 'look' }, image]),
      ci('a', 'assistant', '', { tool_calls: [tc('c', 'read', '{}')] }),
      ci(
        'r',
        'tool',
        [
          { type: 'text', text: 'line 1' },
          { type: 'text', text: 'line 2' },
        ],
        { call_id: 'c' },
      ),
    ]);
    expect(messages[0]?.content).toEqual([{ type: 'text', text: 'look' }, image]);
    expect(messages[2]?.content).toBe('line 1\nline 2');
  });
});

describe('toOpenAI: parts the API does not take', () => {
  it('writes a tool-call-only turn with content null, never an empty array', () => {
    const messages = toOpenAI([
      ci('u', 'user', 'run it'),
      ci('a', 'assistant', [{ type: 'thinking', thinking: 'plan', signature: 's' }], {
        tool_calls: [tc('c1', 'bash', '{}')],
      }),
      ci('r', 'tool', 'ok', { call_id: 'c1' }),
    ]);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } }],
    });
    expect(verifyOpenAI(messages)).toEqual([]);
  });

  it('leaves out thinking and server-tool blocks and a turn that held only those', () => {
    const messages = toOpenAI([
      ci('u', 'user', 'search'),
      ci('a1', 'assistant', [
        { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} },
        { type: 'web_search_tool_result', tool_use_id: 's1', content: [] },
        { type: 'text', text: 'found it' },
      ]),
      ci('a2', 'assistant', [{ type: 'redacted_thinking', data: 'xx' }]),
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'search' },
      { role: 'assistant', content: [{ type: 'text', text: 'found it' }] },
    ]);
  });

  it('turns an Anthropic image into an image_url and a plain-text document into text', () => {
    const messages = toOpenAI([
      ci('u', 'user', [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'the contract' } },
      ]),
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0=' } },
      { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
      { type: 'text', text: 'the contract' },
    ]);
    expect(verifyOpenAI(messages)).toEqual([]);
  });
});
