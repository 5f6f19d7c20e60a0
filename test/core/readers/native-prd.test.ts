// The PRD's artifact shape in the native format (seed 004, issue 31): kinds `message` (a chat
// message; `role` user, assistant or system, user when left out) and `tool_output` (a tool's
// output) are read as the artifact model's kinds. A `tool_output` with a `call_id` answers its call
// as any tool artifact does; one without answers no call and stays an artifact of its own.
import { describe, expect, it } from 'vitest';
import { emitContext } from '../../../src/core/emit/index.js';
import { DEFAULT_POLICY } from '../../../src/core/policy/index.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import { wordTokenizer } from '../stabilize/helpers.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

describe('native reader: the PRD aliases message and tool_output (JSONL)', () => {
  const t = load(fixture('native-prd.jsonl'), { file: 'native-prd.jsonl' });
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));

  it('reads each message as the kind its role names (user when left out), and tool_output as tool', () => {
    expect(t.format).toBe('native');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}@${a.source.line}:${a.source.column}`)).toEqual([
      'sys:system@2:1',
      'task:task@3:1',
      'm1:user@4:1',
      'm2:assistant@5:1',
      'o1:tool@6:1',
      'o2:tool@7:1',
      'm3:system@8:1',
      'm4:user@9:1',
      'm5:assistant@10:1',
    ]);
    expect(t.diagnostics).toEqual([]);
  });

  it('keeps no role on a message: the kind says it (an emitted native document holds no alias)', () => {
    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) expect(byId.get(id)).not.toHaveProperty('role');
    expect(byId.get('m4')).toEqual({
      id: 'm4',
      kind: 'user',
      content: 'So what do we do?',
      source: { file: 'native-prd.jsonl', line: 9, column: 1 },
    });
  });

  it('pairs a tool_output that names its call, and names it after the call', () => {
    expect(t.pairing).toEqual({ resultToCall: { o1: 'm2' }, unpairedCalls: [], unpairedResults: [] });
    expect(byId.get('o1')).toMatchObject({ kind: 'tool', call_id: 'c1', tool: 'read_log' });
  });

  it('reads a tool_output without call_id as an output of its own: no unpaired result, no synthetic call', () => {
    expect(byId.get('o2')).toEqual({
      id: 'o2',
      kind: 'tool',
      content: '/dev/sda1  100%',
      tool: 'df',
      source: { file: 'native-prd.jsonl', line: 7, column: 1 },
    });
    expect(t.artifacts).toHaveLength(9);
  });

  it('keeps the call-less output when it fits, and sends it to the chat APIs as user text', () => {
    const r = stabilizeTranscript(t, { policy: DEFAULT_POLICY, tokenizer: wordTokenizer });
    expect(r.ledger.find((e) => e.id === 'o2')).toMatchObject({ action: 'kept' });
    expect(r.ledger.some((e) => e.reason === 'unpaired_result')).toBe(false);
    const body = emitContext(r.context, 'openai') as { messages: { role: string; content: unknown }[] };
    const df = body.messages.filter((m) => JSON.stringify(m.content).includes('/dev/sda1'));
    expect(df.map((m) => m.role)).toEqual(['user']);
    expect(body.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
  });
});

describe('native reader: the PRD aliases in a JSON document', () => {
  it('reads {meta, artifacts} with message and tool_output at their object positions', () => {
    const text = [
      '{"artifacts": [',
      '  {"kind": "message", "content": "hi"},',
      '  {"kind": "message", "role": "assistant", "content": "hello"},',
      '  {"kind": "tool_output", "content": "42 files"}',
      ']}',
    ].join('\n');
    const t = load(text, { file: 'prd.json' });
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}@${a.source.line}:${a.source.column}`)).toEqual([
      'a0:user@2:3',
      'a1:assistant@3:3',
      'a2:tool@4:3',
    ]);
    expect(t.pairing.unpairedResults).toEqual([]);
  });

  it('still pairs nothing for a tool_output whose call_id names no call (unpaired, as kind tool)', () => {
    const text =
      '{"artifacts": [{"kind": "message", "content": "hi"}, {"kind": "tool_output", "call_id": "zz", "content": "x"}]}';
    const t = load(text, { file: 'prd.json' });
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'a1', call_id: 'zz', line: 1 }]);
  });
});

describe('native reader: a message role it does not know', () => {
  it('is an error at the artifact, naming the field, the accepted roles and what to do', () => {
    const text = [
      '{"artifacts": [',
      '  {"kind": "message", "content": "hi"},',
      '  {"kind": "message", "role": "developer", "content": "be brief"}',
      ']}',
    ].join('\n');
    const diagnostics = failure(text, { file: 'roles.json' });
    expect(where(diagnostics)).toEqual(['3:3 error invalid-artifact']);
    expect(diagnostics[0]).toMatchObject({
      file: 'roles.json',
      message:
        '`artifacts[1].role` of a `message` artifact must be user, assistant or system; found role `developer`.',
      hint: 'Write the role as user, assistant or system (left out: user), or give the artifact a kind of its own (task, tool_output, summary...).',
    });
  });

  it('points a tool role at tool_output', () => {
    const diagnostics = failure('{"kind": "message", "role": "tool", "content": "x"}\n', { file: 'r.jsonl' });
    expect(where(diagnostics)).toEqual(['1:1 error invalid-artifact']);
    expect(diagnostics[0]?.hint).toContain('"kind": "tool_output"');
  });

  it('never quotes a role that is not a plain name (it may hold personal data)', () => {
    const roles = ['jane.doe@example.com', 'Jane Doe', '+44 20 7946 0958', 'User'];
    const lines = roles.map((role) => JSON.stringify({ kind: 'message', role, content: 'x' }));
    const diagnostics = failure(lines.join('\n') + '\n', { file: 'r.jsonl' });
    expect(where(diagnostics)).toEqual([
      '1:1 error invalid-artifact',
      '2:1 error invalid-artifact',
      '3:1 error invalid-artifact',
      '4:1 error invalid-artifact',
    ]);
    expectNoQuote(diagnostics, roles.slice(0, 3));
    expect(diagnostics.slice(0, 3).map((d) => d.message)).toEqual(
      Array(3).fill(
        '`role` of a `message` artifact must be user, assistant or system; found an unsupported role.',
      ),
    );
    // Roles are case-sensitive, like kinds; a plain name is named.
    expect(diagnostics[3]?.message).toContain('found role `User`');
  });

  it('reports a role that is no string once, by the field rule', () => {
    const diagnostics = failure('{"kind": "message", "role": 7, "content": "x"}\n', { file: 'r.jsonl' });
    expect(diagnostics.map((d) => d.message)).toEqual(['`role` must be a string; found a number.']);
  });
});

describe('native reader: kinds outside the accepted list', () => {
  it('still fail, listing the kinds with the three aliases', () => {
    const diagnostics = failure('{"kind": "messages", "content": "x"}\n', { file: 'k.jsonl' });
    expect(diagnostics.map((d) => d.message)).toEqual([
      '`kind` must be one of system, policy, task, user, assistant, tool, retrieval, summary, phase, constraint, message, tool_output; found an unsupported kind.',
    ]);
  });
});
