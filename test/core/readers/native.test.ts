import { describe, expect, it } from 'vitest';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

describe('native reader: JSONL', () => {
  const t = load(fixture('native.jsonl'), { file: 'native.jsonl' });
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));

  it('reads the meta record and one artifact per line, default ids L<line>, positions line:1', () => {
    expect(t.format).toBe('native');
    expect(t.meta).toEqual({ task: 'refactor', agent: 'ci-bot' });
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}@${a.source.line}:${a.source.column}`)).toEqual([
      'sys:system@2:1',
      'L3:policy@3:1',
      'L4:task@4:1',
      'L5:phase@5:1',
      'a1:assistant@6:1',
      'L7:tool@7:1',
      'L8:tool@8:1',
      'L10:summary@10:1',
      'L11:user@11:1',
      'L12:retrieval@12:1',
    ]);
  });

  it('reads every field of the DESIGN table', () => {
    expect(byId.get('sys')).toMatchObject({ pin: true, content: 'You are careful.' });
    expect(byId.get('L3')).toMatchObject({ kind: 'policy', role: 'constraint' });
    expect(byId.get('L5')).toMatchObject({ content: '', scope: { task: 'T1', phase: 'edit' } });
    expect(byId.get('L7')).toEqual({
      id: 'L7',
      kind: 'tool',
      content: 'FAIL parser.test.ts',
      tool: 'bash',
      call_id: 'c1',
      exit_code: 1,
      is_error: true,
      tags: ['error'],
      source: { file: 'native.jsonl', line: 7, column: 1 },
    });
    expect(byId.get('L10')).toMatchObject({ provenance: ['a1', 'L7'], created_at: 3, ttl: 10 });
    expect(byId.get('L11')).toMatchObject({ pressure: 0.42, sidechain: false });
  });

  it('stores object arguments as a JSON string and reduces text parts to type + text', () => {
    expect(byId.get('a1')?.tool_calls).toEqual([
      { id: 'c1', name: 'bash', arguments: '{"cmd":"npm test"}' },
      { id: 'c2', name: 'read', arguments: '{"path":"a.ts"}' },
    ]);
    expect(byId.get('L8')?.content).toEqual([
      { type: 'text', text: 'export {}' },
      { type: 'image', source: { data: 'AAAA' } },
    ]);
  });

  it('pairs results and names the unnamed one after its call', () => {
    expect(t.pairing.resultToCall).toEqual({ L7: 'a1', L8: 'a1' });
    expect(byId.get('L8')?.tool).toBe('read');
  });

  it('warns once per unknown field name', () => {
    expect(where(t.diagnostics)).toEqual(['11:1 warning unknown-field', '11:1 warning unknown-field']);
    expect(t.diagnostics.map((d) => d.message)).toEqual([
      'Field `note` is not an artifact field and is ignored.',
      'Field `note2` is not an artifact field and is ignored.',
    ]);
  });

  it('reports bad lines and skips them, loading the rest', () => {
    const text = [
      '{"kind":"user","content":"first"}',
      '{"kind":"human","content":"alice@example.com"}',
      '"just a string"',
      '{"id":"L1","kind":"user","content":"clashes with the default id of line 1"}',
      '{"meta":{"late":true}}',
      '{"kind":"tool","pressure":7,"exit_code":"0","call_id":"b","call_ids":["a","b"],"scope":{"owner":"x"}}',
      '{"kind":"user","content":[{"type":"text","text":5}]}',
      '{"kind":"user","tool_calls":[{"id":"c","name":""}]}',
      '{"kind":"user","content":"last"}',
    ].join('\n');
    const t2 = load(text, { file: 'bad.jsonl' });
    expect(t2.artifacts.map((a) => a.id)).toEqual(['L1', 'L9']);
    expect(where(t2.diagnostics)).toEqual([
      '2:1 error invalid-artifact',
      '3:1 error invalid-artifact',
      '4:1 error duplicate-id',
      '5:1 error misplaced-meta',
      '6:1 error invalid-artifact',
      '6:1 error invalid-artifact',
      '6:1 error invalid-artifact',
      '6:1 error invalid-artifact',
      '7:27 error invalid-artifact',
      '8:30 error invalid-artifact',
    ]);
    const messages = t2.diagnostics.map((d) => d.message);
    expect(messages[0]).toBe(
      '`kind` must be one of system, policy, task, user, assistant, tool, retrieval, summary, phase, constraint, message, tool_output; found an unsupported kind.',
    );
    expect(messages[2]).toBe('This artifact has the same id as the artifact at line 1.');
    expect(messages.slice(4, 8)).toEqual([
      '`exit_code` must be an integer; found a string.',
      '`pressure` must be a number from 0.0 to 1.0; found a number.',
      '`scope` must be an object with only task and phase; found an object.',
      '`call_id` must be the first of call_ids; found a string.',
    ]);
    expect(messages[8]).toBe('`content[0].text` of a text part must be a string; found a number.');
    expect(messages[9]).toBe('`tool_calls[0].name` must be a non-empty string; found a string.');
    expectNoQuote(t2.diagnostics, ['human', 'alice@example.com', 'just a string', 'owner']);
  });
});

describe('native reader: JSON document', () => {
  const t = load(fixture('native.json'), { file: 'native.json' });

  it('reads {meta, artifacts} with default ids a<index> at the exact object positions', () => {
    expect(t.format).toBe('native');
    expect(t.meta).toEqual({ source: 'hand-written' });
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}@${a.source.line}:${a.source.column}`)).toEqual([
      'a0:system@4:5',
      'ask:user@5:5',
      'a2:assistant@11:5',
      'a3:tool@12:5',
    ]);
    expect(t.artifacts[1]?.tags).toEqual(['decision']);
    expect(t.artifacts[3]).toMatchObject({ tool: 'bash', exit_code: 0, content: 'a.ts\nb.ts' });
    expect(t.pairing.resultToCall).toEqual({ a3: 'a2' });
    expect(t.diagnostics).toEqual([]);
  });

  it('fails as a whole on an invalid artifact, naming its path in artifacts[]', () => {
    const text = '{"artifacts": [\n  {"kind": "user", "content": "hi"},\n  {"kind": 3}\n]}';
    const diagnostics = failure(text, { file: 'bad.json' });
    expect(where(diagnostics)).toEqual(['3:3 error invalid-artifact']);
    expect(diagnostics[0]?.message).toContain('`artifacts[1].kind` must be one of');
    expect(diagnostics[0]?.message).toContain('found a number');
  });

  it('fails on duplicate ids and warns about unknown top-level fields', () => {
    const text =
      '{"version": 2, "artifacts": [\n{"id": "x", "kind": "user"},\n{"id": "x", "kind": "assistant"}\n]}';
    const diagnostics = failure(text, { file: 'dup.json' });
    expect(where(diagnostics)).toEqual(['1:1 warning unknown-field', '3:1 error duplicate-id']);
    expect(diagnostics[1]?.message).toBe('`artifacts[1]` has the same id as the artifact at line 2.');
  });

  it('does not load a document without artifacts', () => {
    expect(where(failure('{"meta": {}, "artifacts": []}', { file: 'e.json' }))).toEqual([
      '1:1 error empty-transcript',
    ]);
  });
});
