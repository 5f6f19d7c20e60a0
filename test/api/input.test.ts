import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEMORY_FILE, isTranscript, toTranscript } from '../../src/api/input.js';
import { InputError } from '../../src/core/diagnostics.js';
import { readTranscript } from '../../src/core/readers/index.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/stabilize');

const OPENAI_MESSAGES = [
  { role: 'system', content: 'You answer questions about orders.' },
  { role: 'user', content: 'Where is order 7?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"order":7}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'shipped' },
  { role: 'assistant', content: 'Order 7 has shipped.' },
];

const ANTHROPIC_REQUEST = {
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'Find order 7.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking it up.' },
        { type: 'tool_use', id: 'tu_1', name: 'lookup', input: { order: 7 } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'shipped' }] },
  ],
};

function catchError(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('toTranscript', () => {
  it('reads an OpenAI messages array and {messages} alike, with OpenAI ids and pairing', () => {
    const bare = toTranscript(OPENAI_MESSAGES);
    const wrapped = toTranscript({ messages: OPENAI_MESSAGES });
    for (const t of [bare, wrapped]) {
      expect(t.format).toBe('openai');
      expect(t.file).toBe(MEMORY_FILE);
      expect(t.artifacts.map((a) => [a.id, a.kind])).toEqual([
        ['m0', 'system'],
        ['m1', 'user'],
        ['m2', 'assistant'],
        ['m3', 'tool'],
        ['m4', 'assistant'],
      ]);
      expect(t.pairing.resultToCall).toEqual({ m3: 'm2' });
    }
  });

  it('reads an Anthropic request: system on top, tool_result blocks as tool artifacts', () => {
    const t = toTranscript(ANTHROPIC_REQUEST, { file: 'agent-turn' });
    expect(t.format).toBe('anthropic');
    expect(t.artifacts.map((a) => [a.id, a.kind, a.source.file])).toEqual([
      ['system', 'system', 'agent-turn'],
      ['m0', 'user', 'agent-turn'],
      ['m1', 'assistant', 'agent-turn'],
      ['m2.0', 'tool', 'agent-turn'],
    ]);
  });

  it('reads a native {artifacts} document, one source line per artifact', () => {
    const t = toTranscript({
      artifacts: [
        { kind: 'system', content: 'Be brief.' },
        { kind: 'user', content: 'hello' },
      ],
    });
    expect(t.format).toBe('native');
    const lines = t.artifacts.map((a) => a.source.line);
    expect(new Set(lines).size).toBe(2);
  });

  it('gives the same transcript as reading the payload from a file', () => {
    const text = readFileSync(path.join(FIXTURES, 'openai-chat.json'), 'utf8');
    const fromFile = readTranscript(text, { file: 'chat.json' });
    expect(fromFile.ok).toBe(true);
    if (!fromFile.ok) return;
    const fromMemory = toTranscript(JSON.parse(text) as unknown[], { file: 'chat.json' });
    const shape = (t: typeof fromMemory) => t.artifacts.map(({ source: _source, ...rest }) => rest);
    expect(shape(fromMemory)).toEqual(shape(fromFile.transcript));
    expect(fromMemory.pairing.resultToCall).toEqual(fromFile.transcript.pairing.resultToCall);
  });

  it('keeps a .jsonl display name without reading the payload as JSON Lines', () => {
    const t = toTranscript(OPENAI_MESSAGES, { file: 'session.jsonl' });
    expect(t.file).toBe('session.jsonl');
    expect(t.format).toBe('openai');
    expect(t.artifacts.every((a) => a.source.file === 'session.jsonl')).toBe(true);
  });

  it('honours a format override', () => {
    const error = catchError(() => toTranscript(OPENAI_MESSAGES, { format: 'anthropic' }));
    expect(error).toBeInstanceOf(InputError);
  });

  it('returns a Transcript unchanged', () => {
    const t = toTranscript(OPENAI_MESSAGES);
    expect(isTranscript(t)).toBe(true);
    expect(toTranscript(t)).toBe(t);
    expect(isTranscript({ artifacts: [] })).toBe(false);
    expect(isTranscript(OPENAI_MESSAGES)).toBe(false);
  });

  it('throws an InputError with positioned diagnostics that never quote the payload', () => {
    const unknown = catchError(() => toTranscript({ note: 'CANARY-PAYLOAD-91' }));
    expect(unknown).toBeInstanceOf(InputError);
    const { message, diagnostics } = unknown as InputError;
    expect(diagnostics.map((d) => d.code)).toEqual(['unknown-format']);
    expect(message).toMatch(/^<memory>:1:1: error\[unknown-format\]/);
    expect(message).not.toContain('CANARY-PAYLOAD-91');

    const empty = catchError(() => toTranscript([]));
    expect((empty as InputError).diagnostics.map((d) => d.code)).toEqual(['empty-transcript']);
  });

  it('refuses values that are not JSON data', () => {
    const cyclic: Record<string, unknown> = { messages: [] };
    cyclic['self'] = cyclic;
    const error = catchError(() => toTranscript(cyclic));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).diagnostics[0]?.code).toBe('not-json-data');
  });
});
