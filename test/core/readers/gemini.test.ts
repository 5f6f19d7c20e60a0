import { describe, expect, it } from 'vitest';
import { isGeminiDocument } from '../../../src/core/readers/gemini.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const FILE = 'transcripts/generate-content.json';
const text = fixture('gemini/generate-content.json');

describe('Gemini reader: a generateContent request with calls, thoughts and code execution', () => {
  const t = load(text, { file: FILE });

  it('detects the format and makes the system instruction, each content and each response an artifact', () => {
    expect(t.format).toBe('gemini');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.role ? `/${a.role}` : ''}`)).toEqual([
      'system:system',
      'm0:user',
      'm1:assistant',
      'm2.0:tool',
      'm2.1:tool',
      'm3:assistant',
      'm4.0:tool',
      'm4:user',
      'm5:assistant',
      'm6.0:tool/function',
      'm6.1:tool/function',
      'm6.2:tool/function',
      'm6.3:tool/function',
      'm7:assistant',
    ]);
  });

  it('positions contents at their objects and function responses at their parts', () => {
    expect(t.artifacts.map((a) => `${a.source.line}:${a.source.column}`)).toEqual([
      '3:24',
      '20:5',
      '28:5',
      '39:9',
      '40:9',
      '43:5',
      '55:9',
      '52:5',
      '59:5',
      '70:9',
      '71:9',
      '72:9',
      '73:9',
      '76:5',
    ]);
    expect(t.artifacts.every((a) => a.source.file === FILE)).toBe(true);
  });

  it('reads the system instruction as text', () => {
    expect(t.artifacts[0]?.content).toEqual([
      {
        type: 'text',
        text: 'You are a coding agent working in the weather-cli repository. Use the tools to read and change files.',
      },
    ]);
  });

  it('keeps text as text and inlineData, fileData, code execution parts opaque and unaltered', () => {
    expect(t.artifacts[1]?.content).toEqual([
      { type: 'text', text: 'The forecast command crashes for Zürich. Find out why and fix it.' },
      { type: 'inlineData', inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' } },
      {
        type: 'fileData',
        fileData: {
          mimeType: 'text/plain',
          fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/crash-log-7',
        },
      },
    ]);
    expect(t.artifacts[5]?.content).toEqual([
      { type: 'text', text: '`slug` encodes city names as ASCII, which fails on the ü. Let me confirm.' },
      {
        type: 'executableCode',
        executableCode: { language: 'PYTHON', code: "print('Zürich'.encode('ascii'))" },
      },
      {
        type: 'codeExecutionResult',
        codeExecutionResult: {
          outcome: 'OUTCOME_FAILED',
          output: "UnicodeEncodeError: 'ascii' codec can't encode character",
        },
      },
    ]);
  });

  it('keeps a thought part whole and each thought signature with its part', () => {
    expect(t.artifacts[2]?.content).toEqual([
      {
        type: 'thought',
        text: 'The crash is probably in how city names become slugs.',
        thought: true,
        thoughtSignature: 'dGhvdWdodC0x',
      },
      { type: 'thoughtSignature', thoughtSignature: 'Y2FsbC0x' },
    ]);
    expect(t.artifacts[13]?.content).toEqual([
      {
        type: 'text',
        text: 'Fixed: slugs are now normalized before lowercasing, and all tests pass. Opening a pull request.',
      },
      { type: 'thoughtSignature', thoughtSignature: 'dGV4dC0x' },
    ]);
  });

  it('makes the functionCall parts of a model content its tool calls, ids given or fc_<content>_<part>', () => {
    expect(t.artifacts[2]?.tool_calls).toEqual([
      { id: 'fc_1_1', name: 'read_file', arguments: '{"path":"src/cities.py"}' },
      { id: 'fc_1_2', name: 'grep', arguments: '{"pattern":"encode\\\\("}' },
    ]);
    expect(t.artifacts[5]?.tool_calls?.map((c) => c.id)).toEqual(['call-edit-1']);
    expect(t.artifacts[8]?.tool_calls?.map((c) => `${c.id} ${c.name} ${c.arguments}`)).toEqual([
      'fc_5_0 edit_file {"path":"src/cities.py","branch":"fix-unicode-slug"}',
      'fc_5_1 run_tests {}',
      'fc_5_2 run_tests {"k":"cities"}',
    ]);
    expect(t.artifacts[8]?.content).toEqual([]);
  });

  it('matches responses without ids by name, the oldest unanswered call of that name first', () => {
    const calls = Object.fromEntries(t.artifacts.map((a) => [a.id, a.call_id]));
    // m2 answers grep before read_file: each response takes the call of its own name.
    expect(calls['m2.0']).toBe('fc_1_2');
    expect(calls['m2.1']).toBe('fc_1_1');
    // Two run_tests calls answered in order: the first response answers the first call.
    expect(calls['m6.1']).toBe('fc_5_1');
    expect(calls['m6.2']).toBe('fc_5_2');
    expect(calls['m4.0']).toBe('call-edit-1');
    expect(t.pairing.resultToCall).toEqual({
      'm2.0': 'm1',
      'm2.1': 'm1',
      'm4.0': 'm3',
      'm6.0': 'm5',
      'm6.1': 'm5',
      'm6.2': 'm5',
    });
  });

  it('reads a response as its JSON text, is_error when it holds `error` and no `output`', () => {
    const edit = t.artifacts.find((a) => a.id === 'm4.0');
    expect(edit).toMatchObject({
      tool: 'edit_file',
      is_error: true,
      content: [{ type: 'text', text: '{"error":"src/cities.py is read-only in this checkout"}' }],
    });
    expect(t.artifacts.filter((a) => a.is_error).map((a) => a.id)).toEqual(['m4.0']);
  });

  it('puts the text of a user content after its function responses', () => {
    const ids = t.artifacts.map((a) => a.id);
    expect(ids.indexOf('m4')).toBe(ids.indexOf('m4.0') + 1);
    expect(t.artifacts[7]?.content).toEqual([
      { type: 'text', text: 'Write the fix on a new branch instead of editing main.' },
    ]);
  });

  it('reports a response no call waits for and a call never answered, as warnings', () => {
    expect(t.artifacts.find((a) => a.id === 'm6.3')?.call_id).toBe('fr_6_3');
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm6.3', call_id: 'fr_6_3', line: 73 }]);
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'm7', call_id: 'fc_7_1', line: 76 }]);
    expect(where(t.diagnostics)).toEqual(['73:9 warning unpaired-result', '76:5 warning unpaired-call']);
  });

  it('keeps top-level scalars as meta, not the tools or the generation config', () => {
    expect(t.meta).toEqual({ model: 'gemini-2.5-pro' });
  });

  it('reads the same when the format is forced', () => {
    const forced = load(text, { file: FILE, format: 'gemini' });
    expect(forced.artifacts).toEqual(t.artifacts);
  });
});

describe('Gemini reader: other shapes', () => {
  it('reads a bare array of contents, snake_case system_instruction and contents without a role', () => {
    const bare = load(
      JSON.stringify([
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
      ]),
      { file: 'a.json' },
    );
    expect(bare.format).toBe('gemini');
    expect(bare.artifacts.map((a) => [a.id, a.kind])).toEqual([
      ['m0', 'user'],
      ['m1', 'assistant'],
    ]);
    const snake = load(
      JSON.stringify({
        system_instruction: { parts: [{ text: 'be brief' }] },
        contents: [{ parts: [{ text: 'q' }] }],
      }),
      { file: 'b.json' },
    );
    expect(snake.format).toBe('gemini');
    expect(snake.artifacts.map((a) => [a.id, a.kind, a.content])).toEqual([
      ['system', 'system', [{ type: 'text', text: 'be brief' }]],
      ['m0', 'user', [{ type: 'text', text: 'q' }]],
    ]);
  });

  it('gives a response without an id the id of the call it answers, when that call has one', () => {
    const t = load(
      JSON.stringify({
        contents: [
          { role: 'model', parts: [{ functionCall: { id: 'c-7', name: 'f', args: { a: 1 } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 2 } } }] },
        ],
      }),
      { file: 'c.json' },
    );
    expect(t.artifacts[1]).toMatchObject({ id: 'm1.0', kind: 'tool', call_id: 'c-7', tool: 'f' });
    expect(t.pairing.resultToCall).toEqual({ 'm1.0': 'm0' });
    expect(t.diagnostics).toEqual([]);
  });

  it('keeps the parts of a multimodal function response opaque after its JSON text', () => {
    const t = load(
      JSON.stringify({
        contents: [
          { role: 'model', parts: [{ functionCall: { name: 'screenshot', args: {} } }] },
          {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  name: 'screenshot',
                  response: { output: 'taken' },
                  parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }],
                },
              },
            ],
          },
        ],
      }),
      { file: 'd.json' },
    );
    expect(t.artifacts[1]?.content).toEqual([
      { type: 'text', text: '{"output":"taken"}' },
      { type: 'inlineData', inlineData: { mimeType: 'image/png', data: 'AAAA' } },
    ]);
  });

  it('is not fooled by `parts` arrays of typed parts (Vercel AI UI messages)', () => {
    const ui = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }];
    expect(isGeminiDocument(ui)).toBe(false);
    expect(isGeminiDocument({ contents: ui })).toBe(false);
    expect(isGeminiDocument({ contents: [] })).toBe(false);
    expect(isGeminiDocument({ contents: [], systemInstruction: { parts: [{ text: 's' }] } })).toBe(true);
  });
});

describe('Gemini reader: invalid contents', () => {
  const canaries = [
    'CANARY-call-ada.lovelace@example.org',
    'CANARY-two-fields grace.hopper@example.org',
    'CANARY-parts-string alan.turing@example.org',
    'ada.lovelace',
    'grace.hopper',
    'alan.turing',
  ];

  it('reports every malformed part at its line:column as an error, and does not load', () => {
    const diagnostics = failure(fixture('gemini/malformed.json'), { file: 'malformed.json' });
    expect(where(diagnostics)).toEqual([
      '6:25 error invalid-message',
      '12:7 error invalid-message',
      '15:3 error invalid-message',
    ]);
    expect(diagnostics.map((d) => d.message.split(' ')[0])).toEqual([
      '`[1].parts[0].functionCall.name`',
      '`[2].parts[0]`',
      '`[3].parts`',
    ]);
    expectNoQuote(diagnostics, canaries);
  });

  it('rejects calls in user contents, responses in model contents, unknown parts and roles', () => {
    const text = [
      '{"contents": [',
      '{"role": "user", "parts": [{"functionCall": {"name": "f"}}]},',
      '{"role": "model", "parts": [{"functionResponse": {"name": "f", "response": {}}}]},',
      '{"role": "user", "parts": [{"videoMetadata": {"fps": 1}}]},',
      '{"role": "assistant", "parts": [{"text": "x"}]}',
      ']}',
    ].join('\n');
    const diagnostics = failure(text, { file: 'bad.json', format: 'gemini' });
    expect(where(diagnostics)).toEqual([
      '2:28 error invalid-message',
      '3:29 error invalid-message',
      '4:28 error invalid-message',
      '5:1 error invalid-message',
    ]);
    expect(diagnostics[3]?.message).toContain('must be user, model or function; found another role');
  });

  it('refuses a document without contents when the format is forced', () => {
    const diagnostics = failure('{"messages": []}', { file: 'x.json', format: 'gemini' });
    expect(where(diagnostics)).toEqual(['1:1 error invalid-message']);
  });
});
