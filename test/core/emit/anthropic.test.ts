// toAnthropic: a Messages request body the API accepts — system text at the top level, tool_use
// blocks answered by tool_result blocks at the start of the very next user message.
import { describe, expect, it } from 'vitest';
import { toAnthropic } from '../../../src/core/emit/anthropic.js';
import { verifyAnthropic } from '../../../src/core/emit/verify.js';
import { ci, tc, turn } from './helpers.js';

describe('toAnthropic', () => {
  it('writes a turn with parallel calls as tool_use and tool_result blocks', () => {
    expect(toAnthropic(turn())).toEqual({
      system: 'You are a support agent.\n\nNever promise refunds.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Where are orders 1 and 2?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check both.' },
            { type: 'tool_use', id: 'c1', name: 'get_order', input: { id: 1 } },
            { type: 'tool_use', id: 'c2', name: 'get_order', input: { id: 2 } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'c1',
              content: [{ type: 'text', text: 'order 1: lost' }],
              is_error: true,
            },
            { type: 'tool_result', tool_use_id: 'c2', content: [{ type: 'text', text: 'order 2: shipped' }] },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Order 2 shipped; order 1 is lost.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] },
      ],
    });
    expect(verifyAnthropic(toAnthropic(turn()))).toEqual([]);
  });

  it('merges adjacent user-side items into one turn, after any tool results', () => {
    const req = toAnthropic([
      ci('tk', 'task', 'Fix the build.'),
      ci('u', 'user', 'It fails on CI.'),
      ci('a', 'assistant', '', { tool_calls: [tc('c', 'bash', '{"command":"npm test"}')] }),
      ci('r', 'tool', 'FAIL', { call_id: 'c' }),
      ci('u2', 'user', 'Any luck?'),
    ]);
    expect(req.messages.map((m) => [m.role, m.content.map((b) => b.type)])).toEqual([
      ['user', ['text', 'text']],
      ['assistant', ['tool_use']],
      ['user', ['tool_result', 'text']],
    ]);
    expect(verifyAnthropic(req)).toEqual([]);
  });

  it('sends tool input as an object, wrapping arguments that are not a JSON object', () => {
    const req = toAnthropic([
      ci('a', 'assistant', '', {
        tool_calls: [tc('c1', 'bash', 'ls -la'), tc('c2', 'calc', '[1,2]'), tc('c3', 'x', '{"k":true}')],
      }),
      ci('r1', 'tool', 'ok', { call_id: 'c1' }),
      ci('r2', 'tool', 'ok', { call_id: 'c2' }),
      ci('r3', 'tool', 'ok', { call_id: 'c3' }),
    ]);
    // messages[0] is the placeholder user turn put before the leading assistant turn.
    const inputs = req.messages[1]?.content.map((b) => b['input']);
    expect(inputs).toEqual([{ input: 'ls -la' }, { input: [1, 2] }, { k: true }]);
  });

  it('omits system when the context has none', () => {
    expect(toAnthropic([ci('u', 'user', 'hi')])).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });
});

describe('toAnthropic: reused call ids', () => {
  const reused = (): ReturnType<typeof turn> => [
    ci('u', 'user', 'Change the flight twice.'),
    ci('a1', 'assistant', '', { tool_calls: [tc('c1', 'update', '{"day":"Fri"}')] }),
    ci('r1', 'tool', 'Friday', { call_id: 'c1' }),
    ci('a2', 'assistant', '', { tool_calls: [tc('c1', 'update', '{"day":"Sat"}'), tc('c1_2', 'get', '{}')] }),
    ci('r2', 'tool', 'Saturday', { call_id: 'c1' }),
    ci('r3', 'tool', 'R1', { call_id: 'c1_2' }),
  ];

  it('renames each later use, skipping names the context holds, and answers each with its result', () => {
    const req = toAnthropic(reused());
    const uses = req.messages.flatMap((m) =>
      m.content.filter((b) => b.type === 'tool_use').map((b) => b['id']),
    );
    expect(uses).toEqual(['c1', 'c1_3', 'c1_2']);
    const results = req.messages.flatMap((m) =>
      m.content.filter((b) => b.type === 'tool_result').map((b) => [b['tool_use_id'], b['content']]),
    );
    expect(results).toEqual([
      ['c1', [{ type: 'text', text: 'Friday' }]],
      ['c1_3', [{ type: 'text', text: 'Saturday' }]],
      ['c1_2', [{ type: 'text', text: 'R1' }]],
    ]);
    expect(verifyAnthropic(req)).toEqual([]);
  });

  it('gives the same names every time', () => {
    expect(toAnthropic(reused())).toEqual(toAnthropic(reused()));
  });
});
