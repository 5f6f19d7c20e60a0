import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../src/core/readers/index.js';
import { isResponsesDocument } from '../../../src/core/readers/responses.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const DIR = 'responses/';

describe('Responses reader: a request body with instructions, messages, calls and outputs', () => {
  const t = load(fixture(`${DIR}session.json`), { file: 'session.json' });

  it('detects the format and names artifacts after their items, instructions first', () => {
    expect(t.format).toBe('responses');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.role ? `/${a.role}` : ''}`)).toEqual([
      'instructions:system',
      'm0:system/developer',
      'm1:user',
      'm2:assistant',
      'm5:tool',
      'm6:tool',
      'm7:assistant',
      'm8:user',
      'm9:assistant',
      'm11:tool',
      'm12:assistant',
      'm13:tool',
      'm14:assistant',
      'm15:tool',
      'm16:assistant',
    ]);
  });

  it('positions every artifact at its item (the instructions at the request object)', () => {
    expect(t.artifacts.map((a) => `${a.source.line}:${a.source.column}`)).toEqual([
      '1:1',
      '7:5',
      '8:5',
      '17:5',
      '39:5',
      '44:5',
      '52:5',
      '65:5',
      '66:5',
      '80:5',
      '81:5',
      '87:5',
      '88:5',
      '94:5',
      '95:5',
    ]);
  });

  it('reads easy messages as strings and input_text parts as text, keeping images and files', () => {
    expect(t.artifacts[1]?.content).toBe('Answer in English. Prices are in EUR.');
    expect(t.artifacts[2]?.content).toEqual([
      {
        type: 'text',
        text: 'Find me a flight from Lisbon to Oslo on May 3 and check my loyalty status.',
      },
      { type: 'input_image', image_url: 'https://img.example/boarding-pass.png', detail: 'low' },
      { type: 'input_file', file_id: 'file-7Qm2', filename: 'itinerary.pdf' },
    ]);
  });

  it('keeps reasoning untouched as part of the turn that calls two tools in parallel', () => {
    const m2 = t.artifacts[3];
    expect(m2?.content).toEqual([
      {
        type: 'reasoning',
        id: 'rs_01',
        summary: [{ type: 'summary_text', text: 'Two lookups, in parallel.' }],
        encrypted_content: 'gAAAAB-opaque-reasoning-01',
      },
    ]);
    expect(m2?.tool_calls).toEqual([
      {
        id: 'call_flights',
        name: 'search_flights',
        arguments: '{"from":"LIS","to":"OSL","date":"2025-05-03"}',
      },
      { id: 'call_member', name: 'get_member', arguments: '{"member":"NW-4471"}' },
    ]);
  });

  it('reads output_text as text (annotations left) and keeps a refusal as an opaque part', () => {
    expect(t.artifacts[6]?.content).toEqual([
      {
        type: 'text',
        text: 'NW218 at 15:10 is the cheapest (EUR 142). As a gold member you get a free checked bag.',
      },
    ]);
    expect(t.artifacts[8]?.content).toEqual([
      { type: 'text', text: "I'll book it." },
      { type: 'refusal', refusal: "I can't read card numbers back." },
    ]);
    expect(t.artifacts[14]?.content).toEqual([{ type: 'text', text: 'Booked: NWX9QK. Receipt sent.' }]);
  });

  it('reads an output array as parts and pairs results out of order and through a reused call id', () => {
    expect(t.artifacts[5]?.content).toEqual([
      { type: 'text', text: 'NW212 07:40-12:55 EUR 189; NW218 15:10-20:20 EUR 142' },
      { type: 'input_image', image_url: 'https://img.example/seatmap.png', detail: 'auto' },
    ]);
    expect(t.pairing.resultToCall).toEqual({ m5: 'm2', m6: 'm2', m11: 'm9', m13: 'm12' });
    expect(t.artifacts.filter((a) => a.kind === 'tool').map((a) => [a.id, a.tool ?? null])).toEqual([
      ['m5', 'get_member'],
      ['m6', 'search_flights'],
      ['m11', 'book_flight'],
      ['m13', 'send_receipt'],
      ['m15', null],
    ]);
  });

  it('reports the unpaired call and the unpaired output as warnings at their items', () => {
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'm14', call_id: 'call_seat', line: 88 }]);
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm15', call_id: 'call_lost', line: 94 }]);
    expect(where(t.diagnostics)).toEqual(['88:5 warning unpaired-call', '94:5 warning unpaired-result']);
  });

  it('keeps settings as meta, never text', () => {
    expect(t.meta).toEqual({ model: 'gpt-5', store: false });
  });
});

describe('Responses reader: built-in tools', () => {
  const t = load(fixture(`${DIR}builtin-tools.json`), { file: 'builtin.json' });
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));

  it('reads a bare array of typed items', () => {
    expect(t.format).toBe('responses');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.role ? `/${a.role}` : ''}`)).toEqual([
      'm0:system',
      'm1:user',
      'm2:assistant',
      'm7:tool/computer_call_output',
      'm8:assistant',
      'm9:tool/local_shell_call_output',
      'm10:assistant',
      'm11:tool/shell_call_output',
      'm12:assistant',
      'm13:tool/apply_patch_call_output',
      'm14:assistant',
      'm15:tool/custom_tool_call_output',
      'm16:assistant',
    ]);
  });

  it('keeps server-side tool items untouched as parts of the model turn', () => {
    const parts = byId.get('m2')?.content;
    expect(Array.isArray(parts) && parts.map((p) => p.type)).toEqual([
      'web_search_call',
      'file_search_call',
      'code_interpreter_call',
      'image_generation_call',
    ]);
    expect(Array.isArray(parts) && parts[2]).toEqual({
      type: 'code_interpreter_call',
      id: 'ci_1',
      status: 'completed',
      container_id: 'cntr_1',
      code: 'print(sum([3, 5, 8]))',
      outputs: [{ type: 'logs', logs: '16' }],
    });
    // The MCP approval flow stays one turn: tool list, request, the client's answer, the call.
    const mcp = byId.get('m16')?.content;
    expect(Array.isArray(mcp) && mcp.map((p) => p.type)).toEqual([
      'mcp_list_tools',
      'mcp_approval_request',
      'mcp_approval_response',
      'mcp_call',
      'text',
    ]);
    expect(Array.isArray(mcp) && mcp[2]).toEqual({
      type: 'mcp_approval_response',
      approval_request_id: 'mcpr_1',
      approve: true,
    });
    // The client's answer is the user's decision (issue 31): protected by `decision`.
    expect(byId.get('m16')?.tags).toEqual(['decision']);
  });

  it('reads client-run built-in calls as tool calls named after the tool, with their fields as arguments', () => {
    expect(t.artifacts.flatMap((a) => a.tool_calls ?? [])).toEqual([
      {
        id: 'call_cu_1',
        name: 'computer',
        arguments:
          '{"id":"cu_1","status":"completed","action":{"type":"screenshot"},"pending_safety_checks":[]}',
      },
      {
        id: 'call_ls_1',
        name: 'local_shell',
        arguments: '{"type":"exec","command":["cat","CHANGELOG.md"],"env":{}}',
      },
      {
        id: 'call_sh_1',
        name: 'shell',
        arguments:
          '{"id":"sh_1","status":"completed","action":{"commands":["npm test"],"timeout_ms":60000,"max_output_length":4096}}',
      },
      {
        id: 'call_ap_1',
        name: 'apply_patch',
        arguments:
          '{"id":"ap_1","status":"completed","operation":{"type":"update_file","path":"CHANGELOG.md","diff":"@@\\n-## 4.1\\n+## 4.2\\n"}}',
      },
      { id: 'call_sql_1', name: 'run_sql', arguments: 'SELECT count(*) FROM crashes WHERE week = 18' },
    ]);
  });

  it('pairs every built-in output with its call (a local shell output names it by id)', () => {
    expect(t.pairing.resultToCall).toEqual({ m7: 'm2', m9: 'm8', m11: 'm10', m13: 'm12', m15: 'm14' });
    expect(t.pairing.unpairedCalls).toEqual([]);
    expect(t.pairing.unpairedResults).toEqual([]);
  });

  it('keeps a screenshot output whole, and reads shell and patch outcomes', () => {
    expect(byId.get('m7')?.content).toEqual([
      {
        type: 'computer_call_output',
        call_id: 'call_cu_1',
        output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      },
    ]);
    expect(byId.get('m11')).toMatchObject({
      content: '[{"stdout":"1 failing","stderr":"","outcome":{"type":"exit","exit_code":1}}]',
      exit_code: 1,
      is_error: true,
    });
    expect(byId.get('m13')).toMatchObject({ content: 'context mismatch', is_error: true });
    expect(byId.get('m15')).toMatchObject({ content: '16', tool: 'run_sql' });
    expect(byId.get('m9')?.is_error).toBeUndefined();
  });

  it('leaves out unknown item types with one warning per type, as if absent', () => {
    expect(where(t.diagnostics)).toEqual(['99:3 warning skipped-item']);
    expect(t.diagnostics[0]?.message).toContain('2 items of type tool_search_call');
  });
});

describe('Responses reader: stored lists and response objects', () => {
  it('reads a newest-first input_items page oldest first, and says it is one page', () => {
    const t = load(fixture(`${DIR}input-items-list.json`), { file: 'items.json' });
    expect(t.format).toBe('responses');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'm3:user',
      'm2:assistant',
      'm1:tool',
      'm0:assistant',
    ]);
    expect(t.pairing.resultToCall).toEqual({ m1: 'm2' });
    expect(where(t.diagnostics)).toEqual(['1:1 warning partial-list', '3:11 warning responses-list-order']);
    expect(t.meta).toEqual({ has_more: true });
  });

  it('keeps an oldest-first list in its order', () => {
    const t = load(
      JSON.stringify({
        object: 'list',
        data: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c', output: 'ok' },
        ],
        has_more: false,
      }),
      { file: 'asc.json' },
    );
    expect(t.artifacts.map((a) => a.id)).toEqual(['m0', 'm1', 'm2']);
    expect(t.diagnostics).toEqual([]);
  });

  it('reads a response object: its instructions and output items, ids and settings as meta', () => {
    const t = load(fixture(`${DIR}response.json`), { file: 'response.json' });
    expect(t.format).toBe('responses');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual(['instructions:system', 'm0:assistant']);
    expect(t.artifacts[1]?.tool_calls).toEqual([
      { id: 'call_t88', name: 'get_ticket', arguments: '{"id":88}' },
    ]);
    // output_text repeats the answer: text never goes to meta.
    expect(t.meta).toEqual({
      response_id: 'resp_6801',
      model: 'o4-mini',
      status: 'completed',
      created_at: 1745000000,
    });
    expect(where(t.diagnostics)).toEqual(['10:5 warning unpaired-call']);
  });

  it('reads instructions given as input items on a response object', () => {
    const t = load(
      JSON.stringify({
        object: 'response',
        instructions: [
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] },
        ],
        output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'OK.' }] }],
      }),
      { file: 'r.json' },
    );
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}:${a.role ?? ''}`)).toEqual([
      's0:system:developer',
      'm0:assistant:',
    ]);
  });

  it('reads `input` given as one string as the user message', () => {
    const t = load('{"instructions": "Be terse.", "input": "Hi there"}', { file: 's.json' });
    expect(t.format).toBe('responses');
    expect(t.artifacts.map((a) => [a.id, a.kind, a.content])).toEqual([
      ['instructions', 'system', 'Be terse.'],
      ['input', 'user', 'Hi there'],
    ]);
  });

  it('splits a turn where a model item follows a call, so reasoning stays before its call', () => {
    const t = load(
      JSON.stringify([
        { type: 'reasoning', id: 'r1', summary: [] },
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'reasoning', id: 'r2', summary: [] },
        { type: 'function_call', call_id: 'b', name: 'g', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: '1' },
        { type: 'function_call_output', call_id: 'b', output: '2' },
      ]),
      { file: 'split.json' },
    );
    expect(
      t.artifacts.map((a) => `${a.id}:${a.kind}:${(a.tool_calls ?? []).map((c) => c.id).join(',')}`),
    ).toEqual(['m0:assistant:a', 'm2:assistant:b', 'm4:tool:', 'm5:tool:']);
    expect(t.pairing.resultToCall).toEqual({ m4: 'm0', m5: 'm2' });
  });
});

describe('Responses reader: detection', () => {
  it('is chosen by content for each of its shapes, and by --format', () => {
    for (const name of [
      'session.json',
      'builtin-tools.json',
      'input-items-list.json',
      'response.json',
      'malformed.json',
    ])
      expect(detectFormat(fixture(`${DIR}${name}`), name)?.format).toBe('responses');
    const forced = load(fixture(`${DIR}session.json`), { file: 's.json', format: 'responses' });
    expect(forced.artifacts).toHaveLength(15);
  });

  it('takes a bare array of easy messages with Responses parts, and {instructions, input} messages', () => {
    expect(isResponsesDocument([{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }])).toBe(true);
    expect(isResponsesDocument({ instructions: 'x', input: [{ role: 'user', content: 'hi' }] })).toBe(true);
    expect(
      isResponsesDocument({ input: [{ type: 'function_call_output', call_id: 'c', output: 'x' }] }),
    ).toBe(true);
  });

  it('leaves chat messages, Anthropic message objects, embeddings requests and other inputs alone', () => {
    expect(isResponsesDocument([{ role: 'user', content: 'hi' }])).toBe(false);
    expect(isResponsesDocument({ messages: [{ role: 'user', content: 'hi' }] })).toBe(false);
    expect(
      isResponsesDocument([{ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }] }]),
    ).toBe(false);
    expect(isResponsesDocument({ model: 'text-embedding-3-small', input: ['a', 'b'] })).toBe(false);
    expect(isResponsesDocument({ model: 'text-embedding-3-small', input: 'a' })).toBe(false);
    expect(isResponsesDocument({ input: [{ role: 'user', content: 'hi' }] })).toBe(false);
    expect(isResponsesDocument({ object: 'list', data: [{ id: 'x', object: 'model' }] })).toBe(false);
    expect(isResponsesDocument({ type: 'response_item', payload: { type: 'message' } })).toBe(false);
    expect(isResponsesDocument('text')).toBe(false);
  });
});

describe('Responses reader: malformed items', () => {
  const diagnostics = failure(fixture(`${DIR}malformed.json`), { file: 'malformed.json' });

  it('reports each malformed item as an error at its line:column, and the document does not load', () => {
    expect(where(diagnostics)).toEqual([
      '2:12 error invalid-responses-item',
      '4:5 error invalid-responses-item',
      '5:5 error invalid-responses-item',
      '6:54 error invalid-responses-item',
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      '`input[4]` must be an item object; found a string.',
      'A function_call item must have a non-empty `name`.',
      '`input[2].role` must be user, system, developer or assistant; found another role.',
      "An input_text part's `text` must be a string; found a number.",
    ]);
  });

  it('never quotes the input', () => {
    expectNoQuote(diagnostics, ['CANARY', 'ada@example.com', 'pirate', 'Start the export']);
  });

  it('refuses a document with no items where --format responses is forced', () => {
    expect(where(failure('{"messages": []}', { file: 'x.json', format: 'responses' }))).toEqual([
      '1:1 error invalid-responses-item',
    ]);
    expect(where(failure('{"input": []}', { file: 'x.json', format: 'responses' }))).toEqual([
      '1:1 error empty-transcript',
    ]);
  });

  it('takes no role or item type from the object prototype', () => {
    const d = failure('[{"role": "constructor", "content": "x"}, {"type": "toString"}]', {
      file: 'x.json',
      format: 'responses',
    });
    expect(where(d)).toEqual(['1:2 error invalid-responses-item', '1:43 warning skipped-item']);
  });

  it('reports a missing call_id and a non-string item type', () => {
    const text = '[\n  {"type": "function_call_output", "output": "x"},\n  {"type": 7}\n]';
    const d = failure(text, { file: 'x.json', format: 'responses' });
    expect(where(d)).toEqual(['2:3 error invalid-responses-item', '3:3 error invalid-responses-item']);
    expect(d[0]?.message).toBe('A function_call_output item must have a non-empty `call_id`.');
  });
});
