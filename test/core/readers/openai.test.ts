import { describe, expect, it } from 'vitest';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const FILE = 'transcripts/openai-chat.json';

describe('OpenAI chat reader: fixture with parallel calls, reused ids, legacy functions', () => {
  const t = load(fixture('openai-chat.json'), { file: FILE });

  it('detects the format and keeps one artifact per message, ids m<i>', () => {
    expect(t.format).toBe('openai');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.role ? `/${a.role}` : ''}`)).toEqual([
      'm0:system',
      'm1:system/developer',
      'm2:user',
      'm3:assistant',
      'm4:tool',
      'm5:tool',
      'm6:assistant',
      'm7:tool',
      'm8:assistant',
      'm9:tool/function',
      'm10:assistant',
      'm11:tool',
    ]);
  });

  it('gives every artifact the exact line:column of its message object', () => {
    expect(t.artifacts.map((a) => `${a.source.line}:${a.source.column}`)).toEqual([
      '4:5',
      '5:5',
      '6:5',
      '14:5',
      '22:5',
      '23:5',
      '24:5',
      '31:5',
      '32:5',
      '33:5',
      '34:5',
      '35:5',
    ]);
    expect(t.artifacts.every((a) => a.source.file === FILE)).toBe(true);
  });

  it('keeps text parts as text and other parts unchanged', () => {
    expect(t.artifacts[2]?.content).toEqual([
      { type: 'text', text: 'Book me the cheapest flight on this screenshot.' },
      { type: 'image_url', image_url: { url: 'https://img.example/itinerary.png', detail: 'low' } },
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
    ]);
    expect(t.artifacts[10]?.content).toEqual([
      { type: 'refusal', refusal: "I can't share the card number." },
    ]);
  });

  it('reads null content as empty text and keeps parallel tool calls in order', () => {
    const m3 = t.artifacts[3];
    expect(m3?.content).toBe('');
    expect(m3?.tool_calls).toEqual([
      { id: 'call_a', name: 'search_flights', arguments: '{"from":"JFK","to":"SEA"}' },
      { id: 'call_b', name: 'get_user', arguments: '{"user":"mia"}' },
    ]);
  });

  it('pairs parallel results out of order and a reused id with the nearest earlier pending call', () => {
    expect(t.pairing.resultToCall).toEqual({ m4: 'm3', m5: 'm3', m7: 'm6', m9: 'm8' });
    expect(t.pairing.unpairedCalls).toEqual([]);
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm11', call_id: 'call_zzz', line: 35 }]);
  });

  it('names each result after the call it answers', () => {
    expect(t.artifacts.filter((a) => a.kind === 'tool').map((a) => [a.id, a.tool ?? null])).toEqual([
      ['m4', 'get_user'],
      ['m5', 'search_flights'],
      ['m7', 'price_check'],
      ['m9', 'book'],
      ['m11', null],
    ]);
  });

  it('gives a legacy function_call and its function result the same synthesized id', () => {
    expect(t.artifacts[8]?.tool_calls).toEqual([
      { id: 'fc_8', name: 'book', arguments: '{"flight":"HAT136"}' },
    ]);
    expect(t.artifacts[9]?.call_id).toBe('fc_8');
  });

  it('treats special-token strings as plain data', () => {
    expect(t.artifacts[7]?.content).toEqual([{ type: 'text', text: 'HAT136: $250 <|endoftext|>' }]);
  });

  it('reports the unpaired result as a warning at its line and keeps it', () => {
    expect(where(t.diagnostics)).toEqual(['35:5 warning unpaired-result']);
    expect(t.artifacts.some((a) => a.id === 'm11')).toBe(true);
  });

  it('keeps top-level scalars as meta', () => {
    expect(t.meta).toEqual({ model: 'gpt-4o-2024-08-06' });
  });
});

describe('OpenAI chat reader: containers and agent records', () => {
  it('reads a bare array of messages', () => {
    const t = load('[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]', {
      file: 'a.json',
    });
    expect(t.format).toBe('openai');
    expect(t.artifacts.map((a) => [a.id, a.kind, a.content])).toEqual([
      ['m0', 'user', 'hi'],
      ['m1', 'assistant', 'hello'],
    ]);
  });

  it('reads tau-bench records under `traj` and keeps other top-level scalars as meta', () => {
    const text = JSON.stringify({
      task_id: 7,
      reward: 1,
      info: { x: 1 },
      traj: [{ role: 'user', content: 'q' }],
    });
    const t = load(text, { file: 'run.json' });
    expect(t.format).toBe('openai');
    expect(t.meta).toEqual({ task_id: 7, reward: 1 });
    expect(t.artifacts).toHaveLength(1);
  });

  it('prefers SWE-agent `history` (messages) over `trajectory` (steps without roles)', () => {
    const text = JSON.stringify({
      trajectory: [{ action: 'ls', observation: 'a.py' }],
      history: [
        { role: 'system', content: 's', agent: 'main' },
        {
          role: 'assistant',
          content: 'run both',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"ls"}' } },
            { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"cmd":"pwd"}' } },
          ],
        },
        { role: 'tool', content: 'a.py\n/testbed', tool_call_ids: ['c1', 'c2'] },
        { role: 'tool', content: 'single', tool_call_ids: ['c3'] },
      ],
    });
    const t = load(text, { file: 'x.traj' });
    expect(t.artifacts.map((a) => a.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(t.artifacts[2]).toMatchObject({ call_id: 'c1', call_ids: ['c1', 'c2'], tool: 'bash' });
    expect(t.artifacts[3]?.call_id).toBe('c3');
    expect(t.artifacts[3]?.call_ids).toBeUndefined();
    expect(t.pairing.resultToCall).toEqual({ m2: 'm1' });
    expect(t.pairing.unpairedCalls).toEqual([]);
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm3', call_id: 'c3', line: 1 }]);
  });

  it('reads an empty tool_call_id as no call id: an output of its own, not a result of call ""', () => {
    const text = JSON.stringify({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', tool_call_id: '', content: 'a log' },
      ],
    });
    const t = load(text, { file: 'x.json' });
    expect(t.artifacts[1]?.kind).toBe('tool');
    expect(t.artifacts[1]?.call_id).toBeUndefined();
    expect(t.pairing.unpairedResults).toEqual([]);
  });

  it('reads a SWE-agent thought/action observation as the output of the action before it', () => {
    const text = JSON.stringify({
      history: [
        { role: 'user', content: 'fix the bug', message_type: 'observation' },
        { role: 'assistant', content: 'DISCUSSION\nlook\n```\nls\n```', thought: 'look', action: 'ls\n' },
        { role: 'user', content: 'a.py', message_type: 'observation' },
      ],
    });
    const t = load(text, { file: 'x.traj' });
    expect(t.artifacts.map((a) => a.kind)).toEqual(['user', 'assistant', 'tool']);
    expect(t.artifacts[1]?.tool_calls).toEqual([
      { id: 'swe_m1', name: 'bash', arguments: '{"command":"ls"}' },
    ]);
    expect(t.artifacts[2]).toMatchObject({ role: 'user', tool: 'bash', call_id: 'swe_m1' });
    expect(t.pairing.resultToCall).toEqual({ m2: 'm1' });
    expect(t.diagnostics).toEqual([]);
  });

  it('reads a legacy function result with no function_call before it as an output of its own', () => {
    const text = JSON.stringify([
      { role: 'assistant', content: 'no call' },
      { role: 'function', name: 'book', content: 'done' },
    ]);
    const t = load(text, { file: 'f.json' });
    expect(t.artifacts[1]).toMatchObject({ kind: 'tool', role: 'function', tool: 'book' });
    expect(t.artifacts[1]?.call_id).toBeUndefined();
    expect(t.pairing.unpairedResults).toEqual([]);
    expect(t.diagnostics).toEqual([]);
  });

  it('accepts tool call arguments recorded as an object, as a JSON string', () => {
    const text = JSON.stringify([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: { a: 1 } } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ]);
    expect(load(text, { file: 'f.json' }).artifacts[0]?.tool_calls).toEqual([
      { id: 'c', name: 'f', arguments: '{"a":1}' },
    ]);
  });
});

describe('OpenAI chat reader: invalid messages', () => {
  it('rejects an unknown role with its path and position, naming accepted roles, not the value', () => {
    const text =
      '{"messages": [\n  {"role": "user", "content": "hi"},\n  {"role": "jane.doe@example.com", "content": "x"}\n]}';
    const diagnostics = failure(text, { file: 'bad.json', format: 'openai' });
    expect(where(diagnostics)).toEqual(['3:3 error invalid-message']);
    expect(diagnostics[0]?.message).toContain('`messages[1].role`');
    expect(diagnostics[0]?.message).toContain('system, developer, user, assistant, tool, function');
    expectNoQuote(diagnostics, ['jane.doe@example.com']);
  });

  it('reports every bad message, not just the first', () => {
    const text =
      '[\n{"role":"user","content":42},\n{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"custom","function":{"name":"f"}}]},\n{"role":"tool","tool_call_id":7,"content":"x"}\n]';
    const diagnostics = failure(text, { file: 'bad.json' });
    expect(where(diagnostics)).toEqual([
      '2:1 error invalid-message',
      '3:50 error invalid-message',
      '4:1 error invalid-message',
    ]);
    expect(diagnostics.map((d) => d.message.split(' ')[0])).toEqual([
      '`[0].content`',
      '`[1].tool_calls[0].type`',
      '`[2].tool_call_id`',
    ]);
  });

  it('rejects a content part without a type and never quotes its text', () => {
    const text = '[{"role":"user","content":[{"text":"SSN 123-45-6789"}]}]';
    const diagnostics = failure(text, { file: 'bad.json' });
    expect(where(diagnostics)).toEqual(['1:28 error invalid-message']);
    expect(diagnostics[0]?.message).toContain('`[0].content[0]`');
    expectNoQuote(diagnostics, ['123-45-6789', 'SSN']);
  });
});
