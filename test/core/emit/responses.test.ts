// toResponses: a Responses API request body — messages, call items and their outputs, the items
// an assistant turn held (reasoning, server tools) written back in place, built-ins kept built-in.
import { describe, expect, it } from 'vitest';
import { emitContext, EMIT_FORMATS, resolveEmitFormat } from '../../../src/core/emit/index.js';
import { providerApis } from '../../../src/core/emit/provider-rules.js';
import { responsesNotes, toResponses, toResponsesWithOrigins } from '../../../src/core/emit/responses.js';
import { readTranscript } from '../../../src/core/readers/index.js';
import { ci, tc, turn } from './helpers.js';

const REASONING = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAA-opaque' };

describe('toResponses', () => {
  it('writes a turn: system messages, calls, then outputs in the order the results came', () => {
    expect(toResponses(turn())).toEqual({
      input: [
        { type: 'message', role: 'system', content: 'You are a support agent.' },
        { type: 'message', role: 'system', content: 'Never promise refunds.' },
        { type: 'message', role: 'user', content: 'Where are orders 1 and 2?' },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Let me check both.', annotations: [] }],
        },
        { type: 'function_call', call_id: 'c1', name: 'get_order', arguments: '{"id":1}' },
        { type: 'function_call', call_id: 'c2', name: 'get_order', arguments: '{"id":2}' },
        { type: 'function_call_output', call_id: 'c2', output: 'order 2: shipped' },
        { type: 'function_call_output', call_id: 'c1', output: 'order 1: lost' },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Order 2 shipped; order 1 is lost.', annotations: [] }],
        },
        { type: 'message', role: 'user', content: 'Thanks.' },
      ],
    });
  });

  it('says which context item each input item came from', () => {
    expect(toResponsesWithOrigins(turn()).origins).toEqual([
      's',
      'p',
      'u1',
      'a1',
      'a1',
      'a1',
      'r2',
      'r1',
      'a2',
      'u2',
    ]);
  });

  it('maps kinds to message roles, keeping developer and a source role the API has', () => {
    const roles = toResponses([
      ci('s', 'system', 'a', { role: 'developer' }),
      ci('env', 'system', '<environment_context/>', { role: 'user' }),
      ci('ph', 'phase', ''),
      ci('tk', 'task', 'fix it'),
      ci('kb', 'retrieval', 'doc'),
      ci('sum', 'summary', 'so far'),
    ]).input.map((i) => i['role']);
    expect(roles).toEqual(['developer', 'user', 'system', 'user', 'user', 'system']);
  });

  it('writes text parts as input_text, keeps Responses parts and converts chat and Anthropic images', () => {
    const [m] = toResponses([
      ci('u', 'user', [
        { type: 'text', text: 'look' },
        { type: 'input_image', image_url: 'https://x/a.png', detail: 'low' },
        { type: 'image_url', image_url: { url: 'https://x/b.png' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
        { type: 'document', source: { type: 'text', data: 'doc text' } },
      ]),
    ]).input;
    expect(m).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'look' },
        { type: 'input_image', image_url: 'https://x/a.png', detail: 'low' },
        { type: 'input_image', image_url: 'https://x/b.png', detail: 'auto' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'auto' },
        { type: 'input_text', text: 'doc text' },
      ],
    });
  });

  it('writes reasoning and server tool items back in place, and a refusal inside the message', () => {
    const search = { type: 'web_search_call', id: 'ws', status: 'completed', action: { type: 'search' } };
    const { input } = toResponses([
      ci('a', 'assistant', [
        REASONING,
        { type: 'text', text: 'Found it.' },
        { type: 'refusal', refusal: 'No card numbers.' },
        search,
        { type: 'text', text: 'Done.' },
      ]),
    ]);
    expect(input).toEqual([
      REASONING,
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Found it.', annotations: [] },
          { type: 'refusal', refusal: 'No card numbers.' },
        ],
      },
      search,
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
      },
    ]);
  });

  it('leaves out Anthropic thinking, with a ledger note naming the part type', () => {
    const context = [
      ci('a', 'assistant', [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: 'Hi.' },
      ]),
    ];
    expect(toResponses(context).input).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hi.', annotations: [] }],
      },
    ]);
    expect([...responsesNotes(context)]).toEqual([
      ['a', ['responses: left out 1 thinking part (only the Messages API takes thinking blocks)']],
    ]);
    expect(responsesNotes(turn()).size).toBe(0);
  });

  it('writes built-in calls back as the built-in their output was read from', () => {
    const screenshot = {
      type: 'computer_call_output',
      call_id: 'cu',
      output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AA' },
    };
    const { input } = toResponses([
      ci('a', 'assistant', [], {
        tool_calls: [
          tc('cu', 'computer', '{"id":"cu_1","action":{"type":"screenshot"},"pending_safety_checks":[]}'),
          tc('ls', 'local_shell', '{"type":"exec","command":["ls"],"env":{}}'),
          tc('sh', 'shell', '{"action":{"commands":["npm test"]}}'),
          tc('ap', 'apply_patch', '{"operation":{"type":"delete_file","path":"a.txt"}}'),
          tc('cx', 'apply_patch', '*** Begin Patch'),
        ],
      }),
      ci('r1', 'tool', [screenshot], { call_id: 'cu', role: 'computer_call_output' }),
      ci('r2', 'tool', 'a.txt', { call_id: 'ls', role: 'local_shell_call_output' }),
      ci('r3', 'tool', '[{"stdout":"ok","stderr":"","outcome":{"type":"exit","exit_code":0}}]', {
        call_id: 'sh',
        role: 'shell_call_output',
      }),
      ci('r4', 'tool', 'no such file', { call_id: 'ap', role: 'apply_patch_call_output', is_error: true }),
      ci('r5', 'tool', 'Done!', { call_id: 'cx', role: 'custom_tool_call_output' }),
    ]);
    expect(input).toEqual([
      {
        type: 'computer_call',
        call_id: 'cu',
        id: 'cu_1',
        action: { type: 'screenshot' },
        pending_safety_checks: [],
      },
      {
        type: 'local_shell_call',
        call_id: 'ls',
        status: 'completed',
        action: { type: 'exec', command: ['ls'], env: {} },
      },
      { type: 'shell_call', call_id: 'sh', action: { commands: ['npm test'] } },
      { type: 'apply_patch_call', call_id: 'ap', operation: { type: 'delete_file', path: 'a.txt' } },
      { type: 'custom_tool_call', call_id: 'cx', name: 'apply_patch', input: '*** Begin Patch' },
      screenshot,
      { type: 'local_shell_call_output', id: 'ls', output: 'a.txt' },
      {
        type: 'shell_call_output',
        call_id: 'sh',
        output: [{ stdout: 'ok', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
      },
      { type: 'apply_patch_call_output', call_id: 'ap', status: 'failed', output: 'no such file' },
      { type: 'custom_tool_call_output', call_id: 'cx', output: 'Done!' },
    ]);
  });

  it('writes a shell output cut past parsing as one chunk of text', () => {
    const { input } = toResponses([
      ci('a', 'assistant', '', { tool_calls: [tc('sh', 'shell', '{"action":{"commands":["make"]}}')] }),
      ci('r', 'tool', '[{"stdout":"lots… [cut]', {
        call_id: 'sh',
        role: 'shell_call_output',
        is_error: true,
      }),
    ]);
    expect(input[1]).toEqual({
      type: 'shell_call_output',
      call_id: 'sh',
      output: [{ stdout: '[{"stdout":"lots… [cut]', stderr: '', outcome: { type: 'exit', exit_code: 1 } }],
    });
  });

  it('writes a built-in whose output lost its shape as a function call and output, with a note', () => {
    const context = [
      ci('a', 'assistant', '', { tool_calls: [tc('cu', 'computer', '{"action":{"type":"screenshot"}}')] }),
      ci('r', 'tool', '[result removed]', { call_id: 'cu', role: 'computer_call_output', placeholder: true }),
    ];
    expect(toResponses(context).input).toEqual([
      {
        type: 'function_call',
        call_id: 'cu',
        name: 'computer',
        arguments: '{"action":{"type":"screenshot"}}',
      },
      { type: 'function_call_output', call_id: 'cu', output: '[result removed]' },
    ]);
    expect(responsesNotes(context).get('a')).toEqual([
      "responses: a computer_call written as a function_call (its output no longer has the built-in's shape)",
    ]);
  });

  it('pairs reused call ids with the call each result answers', () => {
    const { input } = toResponses([
      ci('a1', 'assistant', '', { tool_calls: [tc('call_0', 'bash', '{"command":"ls"}')] }),
      ci('r1', 'tool', 'first', { call_id: 'call_0' }),
      ci('a2', 'assistant', '', { tool_calls: [tc('call_0', 'bash', '{"command":"pwd"}')] }),
      ci('r2', 'tool', 'second', { call_id: 'call_0' }),
    ]);
    expect(input.map((i) => [i.type, i['output'] ?? i['arguments']])).toEqual([
      ['function_call', '{"command":"ls"}'],
      ['function_call_output', 'first'],
      ['function_call', '{"command":"pwd"}'],
      ['function_call_output', 'second'],
    ]);
  });

  it('keeps a result that answers no call in place, and sends an output without a call id as user input', () => {
    const { input } = toResponses([
      ci('r0', 'tool', 'stray', { call_id: 'gone' }),
      ci('log', 'tool', 'captured log'),
      ci('u', 'user', 'next'),
    ]);
    expect(input).toEqual([
      { type: 'function_call_output', call_id: 'gone', output: 'stray' },
      { type: 'message', role: 'user', content: 'captured log' },
      { type: 'message', role: 'user', content: 'next' },
    ]);
  });

  it('writes an output array as input parts, and one output per call a multi-call result answers', () => {
    const { input } = toResponses([
      ci('a', 'assistant', '', { tool_calls: [tc('x', 'f', '{}'), tc('y', 'f', '{}')] }),
      ci('r', 'tool', [{ type: 'text', text: 'both' }], { call_id: 'x', call_ids: ['x', 'y'] }),
    ]);
    expect(input.slice(2)).toEqual([
      { type: 'function_call_output', call_id: 'x', output: [{ type: 'input_text', text: 'both' }] },
      { type: 'function_call_output', call_id: 'y', output: [{ type: 'input_text', text: 'both' }] },
    ]);
  });

  it('leaves out an assistant turn with nothing the API takes, but keeps its calls', () => {
    const { input } = toResponses([
      ci('a', 'assistant', [{ type: 'redacted_thinking', data: 'x' }], { tool_calls: [tc('c', 'f', '{}')] }),
      ci('r', 'tool', 'ok', { call_id: 'c' }),
    ]);
    expect(input.map((i) => i.type)).toEqual(['function_call', 'function_call_output']);
  });
});

describe('--emit responses', () => {
  it('is an emit format, the one `same` writes for Responses and Codex transcripts, checked by the OpenAI rules', () => {
    expect(EMIT_FORMATS).toContain('responses');
    expect(resolveEmitFormat('same', 'responses')).toBe('responses');
    expect(resolveEmitFormat('same', 'codex')).toBe('responses');
    expect(resolveEmitFormat('same', 'openai')).toBe('openai');
    expect(emitContext(turn(), 'responses')).toEqual(toResponses(turn()));
    expect(providerApis('responses', 'same', 'responses')).toEqual(['openai']);
    expect(providerApis('anthropic', 'same', 'responses')).toEqual(['openai']);
    expect(providerApis('codex', 'same')).toEqual(['openai']);
  });

  it('writes a request the Responses reader reads back to the same conversation', () => {
    const text = JSON.stringify(toResponses(turn()));
    const back = readTranscript(text, { file: 'request.json' });
    if (!back.ok) throw new Error('the emitted request could not be read back');
    expect(back.transcript.format).toBe('responses');
    expect(back.transcript.artifacts.map((a) => a.kind)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
    ]);
    expect(back.transcript.pairing.unpairedCalls).toEqual([]);
    expect(back.transcript.pairing.unpairedResults).toEqual([]);
  });
});
