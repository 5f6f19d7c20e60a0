import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../../src/core/readers/index.js';
import { expectNoQuote, failure, load, where } from './helpers.js';

describe('readTranscript: format choice', () => {
  it('reports an unknown format at 1:1, listing the formats and the --input-format override', () => {
    const diagnostics = failure('{"patient": "John Smith"}', { file: 'notes.json' });
    expect(where(diagnostics)).toEqual(['1:1 error unknown-format']);
    expect(diagnostics[0]?.message).toContain('native, openai, anthropic, claude-code');
    expect(diagnostics[0]?.hint).toContain('--input-format');
    expectNoQuote(diagnostics, ['John Smith', 'patient']);
  });

  it.each([
    ['README.md', '# Notes\n\nThe patient John Smith called.\n\n#### Follow-up\n\n- call back\n'],
    ['notes.txt', 'John Smith called at 10:00 about the refund.\n'],
    ['policy.yml', 'patient: John Smith\nrefund: true\n'],
    ['rows.csv', 'name,refund\nJohn Smith,12\n'],
    ['page.html', '<html><body>John Smith</body></html>\n'],
  ])(
    'a file that is not JSON (%s) is an unknown format with the shapes we read, not a JSON error',
    (file, text) => {
      const diagnostics = failure(text, { file });
      expect(where(diagnostics)).toEqual(['1:1 error unknown-format']);
      const [d] = diagnostics;
      expect(d?.message).toContain('not JSON, JSON Lines or an aider chat history');
      for (const shape of [
        'OpenAI Responses',
        'Vercel AI SDK',
        'LangChain',
        'Gemini',
        'OpenHands',
        'aider',
        'Codex',
      ])
        expect(d?.message).toContain(shape);
      expect(d?.hint).toContain('--input-format');
      expect(`${d?.message} ${d?.hint}`).not.toMatch(/JSON syntax|Fix the JSON/);
      expectNoQuote(diagnostics, ['John Smith', 'patient']);
    },
  );

  it('passes JSON syntax errors through with their position, without quoting the input', () => {
    const diagnostics = failure('{"messages": [\n  {"role": "user", "content": "secret" oops}\n]}', {
      file: 'x.json',
    });
    expect(where(diagnostics)).toEqual(['2:40 error json-syntax']);
    expectNoQuote(diagnostics, ['secret', 'oops']);
  });

  it('lets `format` override detection', () => {
    const text = JSON.stringify([{ role: 'user', content: [{ type: 'image', source: { data: 'AA' } }] }]);
    expect(load(text, { file: 'x.json' }).format).toBe('anthropic');
    const forced = load(text, { file: 'x.json', format: 'openai' });
    expect(forced.format).toBe('openai');
    expect(forced.artifacts[0]?.content).toEqual([{ type: 'image', source: { data: 'AA' } }]);
  });

  it('reads a one-line native record as JSONL when native is forced', () => {
    const t = load('{"kind":"user","content":"x"}', { file: 'x.json', format: 'native' });
    expect(t.artifacts.map((a) => a.id)).toEqual(['L1']);
  });

  it('refuses a format whose container does not match the file', () => {
    const multiLine = '{\n"messages": []\n}';
    expect(where(failure(multiLine, { file: 'x.json', format: 'claude-code' }))).toEqual([
      '1:1 error format-mismatch',
    ]);
    const jsonl = '{"role":"user","content":"a"}\n{"role":"user","content":"b"}';
    expect(where(failure(jsonl, { file: 'x.jsonl', format: 'openai' }))).toEqual([
      '1:1 error format-mismatch',
    ]);
  });

  it('honours maxDepth', () => {
    const deep = `{"messages":[{"role":"user","content":[{"type":"x","a":${'['.repeat(20)}${']'.repeat(20)}}]}]}`;
    expect(where(failure(deep, { file: 'x.json', maxDepth: 10 }))).toEqual(['1:61 error too-deep']);
    expect(load(deep, { file: 'x.json' }).artifacts).toHaveLength(1);
  });
});

describe('readTranscript: when a transcript loads', () => {
  it('fails a JSON document with any error, keeping every diagnostic', () => {
    const text =
      '[\n{"role":"user","content":"ok"},\n{"role":"tool","tool_call_id":"c","content":"x"},\n{"role":"robot"}\n]';
    const result = readTranscript(text, { file: 'x.json' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(where(result.diagnostics)).toEqual(['4:1 error invalid-message']);
  });

  it('loads a JSON document with warnings only', () => {
    const t = load('[{"role":"tool","tool_call_id":"c","content":"x"}]', { file: 'x.json' });
    expect(where(t.diagnostics)).toEqual(['1:2 warning unpaired-result']);
  });

  it('loads JSONL with bad lines, reporting each at its line, sorted', () => {
    const text = '{"kind":"user","content":"a"}\r\n{"kind":\r\n\r\n{"kind":"user","content":"b"}\r\n[1,\r\n';
    const t = load(text, { file: 'x.jsonl' });
    expect(t.artifacts.map((a) => a.id)).toEqual(['L1', 'L4']);
    expect(where(t.diagnostics)).toEqual(['2:9 error truncated', '5:4 error truncated']);
  });

  it('does not load JSONL whose lines all fail, and reports only those lines', () => {
    expect(where(failure('{"kind":\n{"kind":', { file: 'x.jsonl' }))).toEqual([
      '1:9 error truncated',
      '2:9 error truncated',
    ]);
  });

  it('does not load an empty file', () => {
    expect(where(failure('\n\n', { file: 'x.jsonl' }))).toEqual(['1:1 error empty-transcript']);
    expect(failure('', { file: 'x.json' })[0]?.code).toBe('empty');
  });

  it('reads the same text to the same transcript every time', () => {
    const text = '{"kind":"user","content":"a"}\n{"kind":"assistant","content":"b"}';
    expect(readTranscript(text, { file: 'x.jsonl' })).toEqual(readTranscript(text, { file: 'x.jsonl' }));
  });
});
