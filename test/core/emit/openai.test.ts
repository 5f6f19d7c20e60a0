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
