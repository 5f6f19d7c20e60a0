import { describe, expect, it } from 'vitest';
import { isLangChainDocument } from '../../../src/core/readers/langchain.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const j = (value: unknown): string => JSON.stringify(value);
const ctor = (cls: string, kwargs: object): object => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'messages', cls],
  kwargs,
});

describe('LangChain reader: `lc: 1` constructors (dumpd / JSON.stringify)', () => {
  const FILE = 'transcripts/constructor.json';
  const t = load(fixture('langchain/constructor.json'), { file: FILE });

  it('detects the format; message i is artifact m<i>, chunks read as their message', () => {
    expect(t.format).toBe('langchain');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'm0:system',
      'm1:user',
      'm2:assistant',
      'm3:tool',
      'm4:tool',
      'm5:assistant',
      'm6:tool',
      'm7:user',
      'm8:assistant',
      'm9:tool',
      'm10:assistant',
    ]);
  });

  it('positions every artifact at its serialized object', () => {
    expect(t.artifacts.map((a) => `${a.source.line}:${a.source.column}`)).toEqual([
      '2:3',
      '8:3',
      '21:3',
      '42:3',
      '48:3',
      '54:3',
      '68:3',
      '74:3',
      '80:3',
      '93:3',
      '99:3',
    ]);
    expect(t.artifacts.every((a) => a.source.file === FILE)).toBe(true);
  });

  it('reads text blocks as text and keeps image blocks unaltered', () => {
    expect(t.artifacts[1]?.content).toEqual([
      {
        type: 'text',
        text: 'Order 5521 arrived with a bent front wheel. Photo attached. Can you replace it?',
      },
      { type: 'image_url', image_url: { url: 'https://cdn.example.com/uploads/5521-wheel.jpg' } },
    ]);
  });

  it('reads tool_calls with serialized args and drops the tool_use blocks repeating them', () => {
    expect(t.artifacts[2]?.tool_calls).toEqual([
      { id: 'toolu_a', name: 'lookup_order', arguments: '{"order_id":5521}' },
      { id: 'toolu_b', name: 'check_stock', arguments: '{"sku":"WHL-700C-F"}' },
    ]);
    expect(t.artifacts[2]?.content).toEqual([
      { type: 'text', text: 'Sorry about that. Let me look up the order and check wheel stock.' },
    ]);
    expect(t.artifacts[8]?.tool_calls).toEqual([
      { id: 'toolu_d', name: 'issue_refund', arguments: '{"order_id":5521,"amount":149}' },
    ]);
  });

  it('reads ToolMessages by tool_call_id, status error as is_error', () => {
    expect(t.artifacts[3]).toMatchObject({ call_id: 'toolu_a', tool: 'lookup_order' });
    expect(t.artifacts[3]?.is_error).toBeUndefined();
    expect(t.artifacts[4]).toMatchObject({
      call_id: 'toolu_b',
      is_error: true,
      content: [{ type: 'text', text: 'Error: inventory service timed out' }],
    });
  });

  it('reports invalid_tool_calls as warnings, not calls, and the result answering one as unpaired', () => {
    expect(t.artifacts[5]?.tool_calls).toBeUndefined();
    expect(t.pairing.resultToCall).toEqual({ m3: 'm2', m4: 'm2', m9: 'm8' });
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm6', call_id: 'toolu_c', line: 68 }]);
    expect(t.pairing.unpairedCalls).toEqual([]);
    expect(where(t.diagnostics)).toEqual(['62:9 warning invalid-tool-call', '68:3 warning unpaired-result']);
  });

  it('takes the model from the first AI message that names one', () => {
    expect(t.meta).toEqual({ model: 'claude-3-5-sonnet-20241022' });
  });

  it('is read the same when the format is forced', () => {
    expect(
      load(fixture('langchain/constructor.json'), { file: FILE, format: 'langchain' }).artifacts,
    ).toEqual(t.artifacts);
  });
});

describe('LangChain reader: messages_to_dict under `messages`', () => {
  const t = load(fixture('langchain/messages-to-dict.json'), { file: 'chat.json' });

  it('detects the format and leaves out the RemoveMessage with a warning', () => {
    expect(t.format).toBe('langchain');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.role ? `/${a.role}` : ''}`)).toEqual([
      'm0:system',
      'm1:user',
      'm2:assistant',
      'm3:tool',
      'm4:assistant',
      'm5:tool/function',
      'm6:system/developer',
      'm7:assistant',
      'm8:tool',
      'm10:assistant',
    ]);
    expect(where(t.diagnostics)).toEqual(['54:5 warning langchain-remove-message']);
    expectNoQuote(t.diagnostics, ['run-1']);
  });

  it('reads OpenAI-shaped additional_kwargs.tool_calls when tool_calls is absent', () => {
    expect(t.artifacts[2]?.tool_calls).toEqual([
      {
        id: 'call_trains',
        name: 'search_trains',
        arguments: '{"from": "Vienna", "to": "Prague", "date": "2024-11-09"}',
      },
    ]);
    expect(t.artifacts[2]?.content).toBe('');
  });

  it('pairs a FunctionMessage with the legacy function_call before it', () => {
    expect(t.artifacts[4]?.tool_calls).toEqual([
      { id: 'fc_4', name: 'seat_map', arguments: '{"train": "RJX 73"}' },
    ]);
    expect(t.artifacts[5]).toMatchObject({ call_id: 'fc_4', tool: 'seat_map' });
  });

  it('keeps v1 reasoning blocks opaque and drops the tool_call block repeating tool_calls', () => {
    expect(t.artifacts[7]?.content).toEqual([
      { type: 'reasoning', reasoning: 'The 06:58 train is cheaper and has window seats; book it.' },
      { type: 'text', text: 'Booking RJX 73 with a window seat.' },
    ]);
    expect(t.artifacts[7]?.tool_calls).toEqual([
      { id: 'call_book', name: 'book_train', arguments: '{"train":"RJX 73","seat":"24/61"}' },
    ]);
  });

  it('pairs every result and keeps scalar fields and the model as meta', () => {
    expect(t.pairing.resultToCall).toEqual({ m3: 'm2', m5: 'm4', m8: 'm7' });
    expect(t.pairing.unpairedCalls).toEqual([]);
    expect(t.pairing.unpairedResults).toEqual([]);
    expect(t.meta).toEqual({ session_id: 'chat-2024-11-08-0042', model: 'gpt-4o-2024-08-06' });
  });
});

describe('LangChain reader: other shapes', () => {
  it('unwraps a LangSmith run input batch `messages: [[...]]`', () => {
    const text = j({
      messages: [[ctor('SystemMessage', { content: 's' }), ctor('HumanMessage', { content: 'q' })]],
    });
    const t = load(text, { file: 'run.json' });
    expect(t.format).toBe('langchain');
    expect(t.artifacts.map((a) => [a.id, a.kind, a.content])).toEqual([
      ['m0', 'system', 's'],
      ['m1', 'user', 'q'],
    ]);
  });

  it('reads Python namespaces, developer system messages, JS generic chat messages and string list items', () => {
    const text = j([
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain', 'schema', 'messages', 'HumanMessage'],
        kwargs: { content: ['a', { type: 'text', text: 'b' }] },
      },
      ctor('SystemMessage', { content: 'd', additional_kwargs: { __openai_role__: 'developer' } }),
      { type: 'generic', data: { content: 'c', role: 'assistant' } },
      { type: 'developer', data: { content: 'e' } },
    ]);
    const t = load(text, { file: 'x.json' });
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.role ? `/${a.role}` : ''}`)).toEqual([
      'm0:user',
      'm1:system/developer',
      'm2:assistant',
      'm3:system/developer',
    ]);
    expect(t.artifacts[0]?.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });

  it('prefers tool_calls over additional_kwargs.tool_calls when both are there', () => {
    const oa = { id: 'x', type: 'function', function: { name: 'old', arguments: '{}' } };
    const text = j([
      ctor('AIMessage', { content: '', tool_calls: [], additional_kwargs: { tool_calls: [oa] } }),
      ctor('AIMessage', { content: '', tool_calls: [{ name: 'f', args: { a: 1 }, id: 'c' }] }),
      ctor('ToolMessage', { content: 'ok', tool_call_id: 'c' }),
    ]);
    const t = load(text, { file: 'x.json' });
    expect(t.artifacts[0]?.tool_calls).toBeUndefined();
    expect(t.artifacts[1]?.tool_calls).toEqual([{ id: 'c', name: 'f', arguments: '{"a":1}' }]);
    expect(t.pairing.resultToCall).toEqual({ m2: 'm1' });
  });

  it('reports a call left without its ToolMessage', () => {
    const text =
      '[\n' + j(ctor('AIMessage', { content: 'x', tool_calls: [{ name: 'f', args: {}, id: 'c' }] })) + '\n]';
    const t = load(text, { file: 'x.json' });
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'm0', call_id: 'c', line: 2 }]);
    expect(where(t.diagnostics)).toEqual(['2:1 warning unpaired-call']);
  });
});

describe('LangChain reader: malformed messages', () => {
  const CANARY = 'CANARY-max.mustermann@example.com';

  it('reports each bad message at its line:column as an error, never quoting it', () => {
    const diagnostics = failure(fixture('langchain/malformed.json'), { file: 'bad.json' });
    expect(where(diagnostics)).toEqual([
      '8:24 error invalid-message',
      '11:45 error invalid-message',
      '12:31 error invalid-message',
    ]);
    expect(diagnostics.map((d) => d.message.split(' ')[0])).toEqual([
      '`messages[1].data.tool_calls[0].name`',
      '`messages[2].data.content[0]`',
      '`messages[3].data.tool_call_id`',
    ]);
    expectNoQuote(diagnostics, [CANARY, 'CANARY-ok', 'call_x']);
  });

  it('rejects an unknown message type or class and a chat message with an unknown role', () => {
    const text =
      '[\n' +
      j({ type: 'human', data: { content: 'ok' } }) +
      ',\n' +
      j({ type: 'SECRET role', data: { content: 'x' } }) +
      ',\n' +
      j({ lc: 1, type: 'constructor', id: ['x', 'Document'], kwargs: {} }) +
      ',\n' +
      j({ type: 'chat', data: { content: 'x', role: 'SECRET-ROLE' } }) +
      '\n]';
    const diagnostics = failure(text, { file: 'bad.json' });
    expect(where(diagnostics)).toEqual([
      '3:1 error invalid-message',
      '4:1 error invalid-message',
      '5:23 error invalid-message',
    ]);
    expectNoQuote(diagnostics, ['SECRET', 'Document']);
  });
});

describe('isLangChainDocument', () => {
  it('claims both serialized forms, bare or under `messages`', () => {
    expect(isLangChainDocument([ctor('HumanMessage', { content: 'x' })])).toBe(true);
    expect(isLangChainDocument({ messages: [{ type: 'ai', data: { content: 'x' } }] })).toBe(true);
    expect(isLangChainDocument([{ type: 'AIMessageChunk', data: { content: 'x' } }])).toBe(true);
  });

  it('does not claim other shapes', () => {
    const rejects = [
      [],
      [{ role: 'user', content: 'x' }],
      [{ type: 'user', message: { role: 'user', content: 'x' } }],
      [{ type: 'response_item', payload: {} }],
      [{ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'document', 'Document'], kwargs: {} }],
      [
        { type: 'human', data: { content: 'x' } },
        { role: 'user', content: 'y' },
      ],
      [{ type: 'message', data: {} }],
      { messages: 'x' },
      null,
    ];
    for (const root of rejects) expect(isLangChainDocument(root)).toBe(false);
  });
});
