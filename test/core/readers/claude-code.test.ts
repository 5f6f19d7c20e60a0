import { describe, expect, it } from 'vitest';
import { failure, fixture, load, where } from './helpers.js';
import { readTranscript } from '../../../src/core/readers/index.js';

const FILE = 'sessions/claude-code-session.jsonl';

describe('Claude Code session reader: fixture with split turns, side chain, summary, bad lines', () => {
  const t = load(fixture('claude-code-session.jsonl'), { file: FILE });
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));

  it('detects the format and makes one artifact per usable record, ids from uuids', () => {
    expect(t.format).toBe('claude-code');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}@${a.source.line}:${a.source.column}`)).toEqual([
      'u1:user@3:1',
      'a1:assistant@4:1',
      'a2:assistant@5:1',
      'a3:assistant@6:1',
      'r1.0:tool@8:1',
      'r2.0:tool@9:1',
      's1:user@12:1',
      's2:assistant@13:1',
      's3.0:tool@14:1',
      's3:user@14:1',
      'L16:assistant@16:1',
      'L18:summary@18:1',
    ]);
  });

  it('reads message content like the Anthropic reader: thinking kept, tool_use as tool_calls', () => {
    expect(byId.get('u1')?.content).toBe('Fix the failing test in parser.ts');
    expect(byId.get('a1')?.content).toEqual([
      { type: 'thinking', thinking: 'Look at the test first.', signature: 'sigA' },
      { type: 'text', text: 'Running the tests and reading the file.' },
    ]);
    expect(byId.get('a2')).toMatchObject({
      content: [],
      tool_calls: [{ id: 'toolu_1', name: 'Bash', arguments: '{"command":"npm test"}' }],
    });
  });

  it('keeps an assistant turn split over records with the same message.id as separate artifacts', () => {
    expect(byId.get('a3')?.tool_calls).toEqual([
      { id: 'toolu_2', name: 'Read', arguments: '{"file_path":"src/parser.ts"}' },
    ]);
  });

  it('pairs results with the calls of earlier split records, in any order', () => {
    expect(t.pairing).toEqual({
      resultToCall: { 'r1.0': 'a3', 'r2.0': 'a2', 's3.0': 's2' },
      unpairedCalls: [],
      unpairedResults: [],
    });
    expect(byId.get('r2.0')).toMatchObject({
      tool: 'Bash',
      is_error: true,
      content: '1 failing',
    });
    expect(byId.get('r1.0')?.tool).toBe('Read');
  });

  it('flags side-chain records and keeps them', () => {
    expect(t.artifacts.filter((a) => a.sidechain).map((a) => a.id)).toEqual(['s1', 's2', 's3.0', 's3']);
    expect(byId.get('s3')?.content).toEqual([{ type: 'text', text: 'Summarise the callers.' }]);
  });

  it('gives a record whose uuid is already taken the id L<line>, and keeps special tokens as text', () => {
    expect(byId.get('L16')?.content).toEqual([
      { type: 'text', text: 'Fixed. Token <|endoftext|> is just text.' },
    ]);
  });

  it('reads summary records as summary artifacts, their leafUuid as provenance when it is in the file', () => {
    expect(byId.get('L18')).toEqual({
      id: 'L18',
      kind: 'summary',
      content: 'Fixed the parser test.',
      provenance: ['a1'],
      source: { file: FILE, line: 18, column: 1 },
    });
  });

  it('gives a summary no provenance when its leafUuid is in another file', () => {
    const other = readTranscript(
      [
        '{"type":"summary","summary":"Earlier work.","leafUuid":"not-here"}',
        '{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}',
      ].join('\n'),
      { file: 'other.jsonl' },
    );
    expect(other.ok && other.transcript.artifacts[0]?.provenance).toBeUndefined();
  });

  it('reports every skipped or bad line at its line, and still loads the session', () => {
    expect(where(t.diagnostics)).toEqual([
      '1:1 warning skipped-record',
      '2:1 warning skipped-record',
      '7:1 warning skipped-record',
      '11:32 error truncated',
      '15:1 warning malformed-record',
      '19:1 warning malformed-record',
    ]);
    const system = t.diagnostics[2];
    expect(system?.message).toContain('Skipped 2 record(s) of type `system`');
    expect(t.diagnostics[4]?.message).toContain('`message` must be an object');
    expect(t.diagnostics[5]?.message).toContain('`message.content[0].text`');
    expect(t.meta).toEqual({ sessionId: 'sess-42' });
  });
});

describe('Claude Code session reader: edge cases', () => {
  const line = (record: object): string => JSON.stringify(record);

  it('reports a result whose call is missing and a call that never got a result', () => {
    const text = [
      line({
        type: 'assistant',
        uuid: 'a',
        message: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
      }),
      line({
        type: 'user',
        uuid: 'u',
        message: { content: [{ type: 'tool_result', tool_use_id: 't2', content: 'x' }] },
      }),
    ].join('\n');
    const t = load(text, { file: 's.jsonl' });
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'a', call_id: 't1', line: 1 }]);
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'u.0', call_id: 't2', line: 2 }]);
    expect(where(t.diagnostics)).toEqual(['1:1 warning unpaired-call', '2:1 warning unpaired-result']);
  });

  it('falls back to L<line> ids when records have no uuid', () => {
    const text = `\n${line({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`;
    const t = load(text, { file: 's.jsonl' });
    expect(t.artifacts.map((a) => a.id)).toEqual(['L2']);
  });

  it('reads a one-line session without the .jsonl extension', () => {
    const t = load(line({ type: 'user', uuid: 'x', message: { content: 'hi' } }), { file: 'session.log' });
    expect(t.format).toBe('claude-code');
    expect(t.artifacts.map((a) => a.id)).toEqual(['x']);
  });

  it('does not load a session with no usable record, and says why', () => {
    const text = [line({ type: 'system', content: 'x' }), line({ type: 'user', message: 'oops' })].join('\n');
    const diagnostics = failure(text, { file: 's.jsonl', format: 'claude-code' });
    expect(where(diagnostics)).toEqual([
      '1:1 warning skipped-record',
      '1:1 error empty-transcript',
      '2:1 warning malformed-record',
    ]);
  });
});
