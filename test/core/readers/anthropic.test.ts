import { describe, expect, it } from 'vitest';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

describe('Anthropic Messages reader: fixture with thinking, parallel tool_use, is_error, images', () => {
  const text = fixture('anthropic-messages.json');
  const t = load(text, { file: 'anthropic-messages.json' });
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));

  it('detects the format and orders artifacts: system, messages, tool results before the rest of their turn', () => {
    expect(t.format).toBe('anthropic');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'system:system',
      'm0:user',
      'm1:assistant',
      'm2.0:tool',
      'm2.1:tool',
      'm2:user',
      'm3:assistant',
      'm4.0:tool',
      'm5:assistant',
    ]);
  });

  it('positions messages at their object and tool results at their block', () => {
    expect(t.artifacts.map((a) => `${a.id}@${a.source.line}:${a.source.column}`)).toEqual([
      'system@4:13',
      'm0@8:5',
      'm1@9:5',
      'm2.0@22:9',
      'm2.1@23:9',
      'm2@19:5',
      'm3@33:5',
      'm4.0@39:19',
      'm5@41:5',
    ]);
  });

  it('reads system text blocks as text parts', () => {
    expect(byId.get('system')?.content).toEqual([
      { type: 'text', text: 'You maintain the repo. Run tests before committing.' },
    ]);
  });

  it('keeps thinking and redacted_thinking blocks unaltered and turns tool_use into tool_calls', () => {
    const m1 = byId.get('m1');
    expect(m1?.content).toEqual([
      { type: 'thinking', thinking: 'Check the log and the config.', signature: 'EqQBCkYIARgCIkD0sig' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
      { type: 'text', text: 'Reading both in parallel.' },
    ]);
    expect(m1?.tool_calls).toEqual([
      { id: 'toolu_01', name: 'read', arguments: '{"path":"build.log"}' },
      { id: 'toolu_02', name: 'bash', arguments: '{"command":"cat tsconfig.json"}' },
    ]);
  });

  it('makes each tool_result its own tool artifact; is_error sets the flag', () => {
    expect(byId.get('m2.0')).toEqual({
      id: 'm2.0',
      kind: 'tool',
      content: 'error TS2307: Cannot find module',
      tool: 'read',
      call_id: 'toolu_01',
      source: { file: 'anthropic-messages.json', line: 22, column: 9 },
    });
    expect(byId.get('m2.1')).toMatchObject({
      tool: 'bash',
      call_id: 'toolu_02',
      is_error: true,
      content: [{ type: 'text', text: 'cat: tsconfig.json: No such file' }],
    });
    // A failure is an error through is_error, as in every format; the reader adds no tag of its own.
    expect(byId.get('m2.1')?.tags).toBeUndefined();
    expect(byId.get('m4.0')?.content).toBe('');
  });

  it('keeps the rest of a user turn that held tool results, and drops the turn when nothing is left', () => {
    expect(byId.get('m2')?.content).toEqual([
      { type: 'text', text: 'Also, here is a screenshot.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    expect(byId.has('m4')).toBe(false);
    expect(byId.get('m3')?.content).toEqual([]);
  });

  it('pairs every tool_result with its tool_use and reports nothing', () => {
    expect(t.pairing.resultToCall).toEqual({ 'm2.0': 'm1', 'm2.1': 'm1', 'm4.0': 'm3' });
    expect(t.pairing.unpairedCalls).toEqual([]);
    expect(t.pairing.unpairedResults).toEqual([]);
    expect(t.diagnostics).toEqual([]);
    expect(t.meta).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 1024 });
  });
});

describe('Anthropic Messages reader: other shapes and errors', () => {
  it('reads a string system prompt as artifact `system` and needs no tool blocks to be detected', () => {
    const t = load('{"system":"Be brief.","messages":[{"role":"user","content":"hi"}]}', { file: 'a.json' });
    expect(t.format).toBe('anthropic');
    expect(t.artifacts.map((a) => [a.id, a.kind, a.content])).toEqual([
      ['system', 'system', 'Be brief.'],
      ['m0', 'user', 'hi'],
    ]);
  });

  it('detects Anthropic by its blocks when there is no system prompt', () => {
    const text = JSON.stringify({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't9', content: 'x' }] },
      ],
    });
    const t = load(text, { file: 'a.json' });
    expect(t.format).toBe('anthropic');
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'm0', call_id: 't1', line: 1 }]);
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm1.0', call_id: 't9', line: 1 }]);
    expect(where(t.diagnostics)).toEqual(['1:14 warning unpaired-call', '1:126 warning unpaired-result']);
  });

  it('rejects a tool_use without an id, a system role message and a bad is_error, without quoting content', () => {
    const text = [
      '{"messages": [',
      '{"role": "assistant", "content": [{"type": "tool_use", "name": "secret-tool-name-x", "input": {}}]},',
      '{"role": "system", "content": "private system text"},',
      '{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": "yes"}]}',
      ']}',
    ].join('\n');
    const diagnostics = failure(text, { file: 'bad.json', format: 'anthropic' });
    expect(where(diagnostics)).toEqual([
      '2:35 error invalid-message',
      '3:1 error invalid-message',
      '4:30 error invalid-message',
    ]);
    expect(diagnostics.map((d) => d.message.split(' ')[0])).toEqual([
      '`messages[0].content[0].id`',
      '`messages[1].role`',
      '`messages[2].content[0].is_error`',
    ]);
    expectNoQuote(diagnostics, ['secret-tool-name-x', 'private system text', 'yes']);
  });
});
