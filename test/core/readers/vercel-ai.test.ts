import { describe, expect, it } from 'vitest';
import { isVercelAiDocument } from '../../../src/core/readers/vercel-ai.js';
import { DENIED_TEXT } from '../../../src/core/readers/vercel-ai-parts.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const FILE = 'transcripts/session.json';
const j = (value: unknown): string => JSON.stringify(value);

describe('Vercel AI reader: a v5 {system, messages} session', () => {
  const t = load(fixture('vercel-ai/session.json'), { file: FILE });

  it('detects the format; one artifact per message and per tool result', () => {
    expect(t.format).toBe('vercel-ai');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'system:system',
      'm0:user',
      'm1:assistant',
      'm2.0:tool',
      'm2.1:tool',
      'm3:assistant',
      'm4.0:tool',
      'm5:user',
      'm6:assistant',
      'm7.1:tool',
      'm8:assistant',
      'm9:assistant',
    ]);
  });

  it('positions messages at their objects and tool results at their parts', () => {
    expect(t.artifacts.map((a) => `${a.source.line}:${a.source.column}`)).toEqual([
      '1:1',
      '5:5',
      '12:5',
      '24:9',
      '25:9',
      '28:5',
      '40:9',
      '43:5',
      '50:5',
      '61:9',
      '64:5',
      '68:5',
    ]);
    expect(t.artifacts.every((a) => a.source.file === FILE)).toBe(true);
  });

  it('reads the top-level system prompt and keeps scalar options as meta', () => {
    expect(t.artifacts[0]?.content).toMatch(/^You are a release assistant/);
    expect(t.meta).toEqual({ model: 'anthropic/claude-sonnet-4' });
  });

  it('keeps images and files as opaque parts, unaltered', () => {
    expect(t.artifacts[1]?.content).toEqual([
      {
        type: 'text',
        text: 'The nightly build failed. Here is the screenshot of the CI page; find out why and file an issue.',
      },
      { type: 'image', image: 'https://ci.example.com/screens/nightly-1432.png', mediaType: 'image/png' },
    ]);
    expect(t.artifacts[7]?.content).toEqual([
      { type: 'text', text: 'Use the attached template for the issue body.' },
      { type: 'file', data: 'IyBCdWcgcmVwb3J0Cg==', mediaType: 'text/markdown', filename: 'bug-template.md' },
    ]);
  });

  it('keeps reasoning untouched and reads tool-call parts as calls with serialized input', () => {
    const m1 = t.artifacts[2];
    expect(m1?.content).toEqual([
      {
        type: 'reasoning',
        text: 'The screenshot shows job 1432 failing in the test step. I should fetch the log and the recent commits.',
        providerOptions: { anthropic: { signature: 'EqQBCkYIBxgCKkD1' } },
      },
      { type: 'text', text: 'Let me pull the job log and the commits merged since the last green build.' },
    ]);
    expect(m1?.tool_calls).toEqual([
      { id: 'toolu_01', name: 'getJobLog', arguments: '{"job":1432}' },
      { id: 'toolu_02', name: 'listCommits', arguments: '{"since":"2025-06-01","branch":"main"}' },
    ]);
  });

  it('reads text outputs as they are and json outputs serialized', () => {
    expect(t.artifacts[3]).toMatchObject({
      call_id: 'toolu_01',
      tool: 'getJobLog',
      content: 'FAIL src/parser.test.ts > parses nested arrays\nExpected 3, received 2',
    });
    expect(t.artifacts[4]?.content).toBe('[{"sha":"9f2c1ab","title":"parser: flatten arrays eagerly"}]');
    expect(t.artifacts[3]?.is_error).toBeUndefined();
  });

  it('keeps provider-executed tool calls and their results as opaque parts of the assistant turn', () => {
    const m3 = t.artifacts[5];
    expect(m3?.content).toHaveLength(3);
    expect((m3?.content as { type: string }[]).map((p) => p.type)).toEqual([
      'tool-call',
      'tool-result',
      'text',
    ]);
    expect(m3?.tool_calls).toEqual([
      { id: 'toolu_04', name: 'searchIssues', arguments: '{"q":"nested arrays"}' },
    ]);
  });

  it('marks error outputs and denied executions as errors', () => {
    expect(t.artifacts[6]).toMatchObject({ content: 'GitHub API rate limit exceeded', is_error: true });
    expect(t.artifacts[9]).toMatchObject({
      id: 'm7.1',
      content: 'Assign it to the parser team first.',
      is_error: true,
    });
  });

  it('leaves out tool approval requests and responses', () => {
    expect(t.artifacts[8]).toMatchObject({ id: 'm6', content: [] });
    expect(t.artifacts.some((a) => a.id === 'm7.0')).toBe(false);
  });

  it('pairs each result with its call and reports the call left without a result', () => {
    expect(t.pairing.resultToCall).toEqual({ 'm2.0': 'm1', 'm2.1': 'm1', 'm4.0': 'm3', 'm7.1': 'm6' });
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'm9', call_id: 'toolu_06', line: 68 }]);
    expect(t.pairing.unpairedResults).toEqual([]);
    expect(where(t.diagnostics)).toEqual(['68:5 warning unpaired-call']);
  });

  it('is read the same when the format is forced', () => {
    const forced = load(fixture('vercel-ai/session.json'), { file: FILE, format: 'vercel-ai' });
    expect(forced.artifacts).toEqual(t.artifacts);
  });
});

describe('Vercel AI reader: a v4 CoreMessage[] array', () => {
  const t = load(fixture('vercel-ai/v4-core-messages.json'), { file: 'v4.json' });

  it('detects the format from the bare array and reads every message', () => {
    expect(t.format).toBe('vercel-ai');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'm0:system',
      'm1:user',
      'm2:assistant',
      'm3.0:tool',
      'm3.1:tool',
      'm3.2:tool',
      'm4:assistant',
    ]);
  });

  it('reads `args` as the call input and keeps v4 reasoning parts opaque', () => {
    expect(t.artifacts[2]?.tool_calls).toEqual([
      { id: 'call_lis', name: 'weather', arguments: '{"city":"Lisbon"}' },
      { id: 'call_img', name: 'weather', arguments: '{"city":"Porto"}' },
    ]);
    expect(t.artifacts[2]?.content).toEqual([
      { type: 'reasoning', text: 'Two lookups are needed.', signature: 'sig-v4' },
      { type: 'redacted-reasoning', data: 'b64-redacted' },
    ]);
  });

  it('reads `result` (serialized when not a string) and `isError`', () => {
    expect(t.artifacts[3]).toMatchObject({ content: '{"tempC":24,"sky":"clear"}', call_id: 'call_lis' });
    expect(t.artifacts[3]?.is_error).toBeUndefined();
    expect(t.artifacts[4]).toMatchObject({ content: 'station offline', is_error: true });
  });

  it('reports a result answering no call', () => {
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm3.2', call_id: 'call_old', line: 24 }]);
    expect(where(t.diagnostics)).toEqual(['24:7 warning unpaired-result']);
  });
});

describe('Vercel AI reader: other shapes', () => {
  const call = { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: { a: 1 } };

  it('reads a content output: text parts reduced, media parts kept', () => {
    const text = j([
      { role: 'assistant', content: [call] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'f',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'chart:', providerOptions: { x: 1 } },
                { type: 'image-data', data: 'iVBOR', mediaType: 'image/png' },
              ],
            },
          },
        ],
      },
    ]);
    const t = load(text, { file: 'c.json' });
    expect(t.artifacts[1]?.content).toEqual([
      { type: 'text', text: 'chart:' },
      { type: 'image-data', data: 'iVBOR', mediaType: 'image/png' },
    ]);
  });

  it('reads error-json outputs serialized, a denial without reason as the SDK words it', () => {
    const text = j([
      { role: 'assistant', content: [call, { ...call, toolCallId: 'c2' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'f',
            output: { type: 'error-json', value: { code: 7 } },
          },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'f', output: { type: 'execution-denied' } },
        ],
      },
    ]);
    const t = load(text, { file: 'e.json' });
    expect(t.artifacts[1]).toMatchObject({ content: '{"code":7}', is_error: true });
    expect(t.artifacts[2]).toMatchObject({ content: DENIED_TEXT, is_error: true });
  });

  it('reads v4 experimental_content as the result parts', () => {
    const text = j([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'shot', args: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'shot',
            result: { ok: true },
            experimental_content: [{ type: 'image', data: 'iVBOR', mimeType: 'image/png' }],
          },
        ],
      },
    ]);
    expect(load(text, { file: 'v4.json' }).artifacts[1]?.content).toEqual([
      { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
    ]);
  });

  it('reads {prompt: ModelMessage[]}, system messages given as `system` or `instructions`', () => {
    const text = j({
      instructions: [
        { role: 'system', content: 'a' },
        { role: 'system', content: 'b' },
      ],
      system: { role: 'system', content: 's' },
      prompt: [{ role: 'assistant', content: [call] }],
    });
    const t = load(text, { file: 'p.json', format: 'vercel-ai' });
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'system:system',
      'instructions.0:system',
      'instructions.1:system',
      'm0:assistant',
    ]);
  });

  it('reads a string prompt as one user message when forced', () => {
    const t = load(j({ system: 's', prompt: 'hello' }), { file: 'p.json', format: 'vercel-ai' });
    expect(t.artifacts.map((a) => [a.id, a.kind, a.content])).toEqual([
      ['system', 'system', 's'],
      ['prompt', 'user', 'hello'],
    ]);
  });

  it('leaves out an assistant turn that only asked for approval', () => {
    const text = j([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' }] },
    ]);
    expect(load(text, { file: 'a.json', format: 'vercel-ai' }).artifacts.map((a) => a.id)).toEqual(['m0']);
  });
});

describe('Vercel AI reader: malformed messages', () => {
  const CANARY = 'CANARY-jane.roe@example.com';

  it('reports each bad part at its line:column as an error, never quoting it', () => {
    const diagnostics = failure(fixture('vercel-ai/malformed.json'), { file: 'bad.json' });
    expect(where(diagnostics)).toEqual(['8:9 error invalid-message', '14:95 error invalid-message']);
    expect(diagnostics[0]?.message).toContain('`messages[1].content[0].toolCallId`');
    expect(diagnostics[1]?.message).toContain('`messages[2].content[0].output.type`');
    expectNoQuote(diagnostics, [CANARY, 'CANARY-markdown', 'lookupOrder', '7781']);
  });

  it('rejects tool calls outside assistant turns and other parts in tool messages', () => {
    const text =
      '[\n{"role":"user","content":[{"type":"tool-call","toolCallId":"c","toolName":"f","input":{}}]},\n' +
      '{"role":"tool","content":[{"type":"text","text":"SECRET-1"}]},\n' +
      '{"role":"tool","content":"SECRET-2"},\n' +
      '{"role":"robot","content":"x"}\n]';
    const diagnostics = failure(text, { file: 'bad.json' });
    expect(where(diagnostics)).toEqual([
      '2:27 error invalid-message',
      '3:27 error invalid-message',
      '4:1 error invalid-message',
      '5:1 error invalid-message',
    ]);
    expectNoQuote(diagnostics, ['SECRET-1', 'SECRET-2', 'robot']);
  });

  it('rejects an output of the wrong value type and a result without any output', () => {
    const text = j([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', input: {} }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'text', value: 42 } },
          { type: 'tool-result', toolCallId: 'c', toolName: 'f' },
        ],
      },
    ]);
    const diagnostics = failure(text, { file: 'bad.json' });
    expect(diagnostics.map((d) => d.message.split(' ')[0])).toEqual([
      '`[1].content[0].output.value`',
      '`[1].content[1].output`',
    ]);
  });
});

describe('isVercelAiDocument', () => {
  it('claims arrays with AI SDK parts and tool messages holding parts', () => {
    const user = { role: 'user', content: 'x' };
    const claims = [
      [
        user,
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', input: {} }] },
      ],
      { messages: [user, { role: 'assistant', content: [{ type: 'reasoning', text: 'r' }] }] },
      { system: 's', messages: [{ role: 'user', content: [{ type: 'image', image: 'https://x/y.png' }] }] },
      [{ role: 'user', content: [{ type: 'file', data: 'AA==', mediaType: 'application/pdf' }] }],
      [{ role: 'tool', content: [] }],
      {
        prompt: [
          {
            role: 'assistant',
            content: [{ type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' }],
          },
        ],
      },
    ];
    for (const root of claims) expect(isVercelAiDocument(root)).toBe(true);
  });

  it('does not claim OpenAI chat or Anthropic messages', () => {
    const rejects = [
      [{ role: 'user', content: 'x' }],
      [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u' } }] }],
      [{ role: 'user', content: [{ type: 'file', file: { file_id: 'f', data: 'x' } }] }],
      [{ role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'ok' }] }],
      {
        system: 's',
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }],
      },
      [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }] }],
      { artifacts: [] },
      'x',
      null,
    ];
    for (const root of rejects) expect(isVercelAiDocument(root)).toBe(false);
  });
});
