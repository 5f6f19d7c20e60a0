import { beforeEach, describe, expect, it } from 'vitest';
import { pairingDiagnostics, pairToolResults } from '../../../src/core/readers/index.js';
import type { Artifact } from '../../../src/core/types.js';

// Each helper call takes the next line, so sources follow the order artifacts are built in.
let line = 0;
function call(id: string, ...callIds: string[]): Artifact {
  line++;
  return {
    id,
    kind: 'assistant',
    content: '',
    tool_calls: callIds.map((c) => ({ id: c, name: 'bash', arguments: '{}' })),
    source: { file: 't.jsonl', line, column: 3 },
  };
}
function result(id: string, ...callIds: string[]): Artifact {
  line++;
  const ids = callIds.length > 1 ? { call_id: callIds[0], call_ids: callIds } : { call_id: callIds[0] };
  return { id, kind: 'tool', content: 'out', ...ids, source: { file: 't.jsonl', line, column: 1 } };
}

describe('pairToolResults', () => {
  beforeEach(() => {
    line = 0;
  });

  it('pairs parallel calls answered in any order', () => {
    const p = pairToolResults([
      call('a', 'x', 'y', 'z'),
      result('rz', 'z'),
      result('rx', 'x'),
      result('ry', 'y'),
    ]);
    expect(p).toEqual({
      resultToCall: { rz: 'a', rx: 'a', ry: 'a' },
      unpairedCalls: [],
      unpairedResults: [],
    });
  });

  it('pairs a reused id with the nearest earlier pending call', () => {
    // Two calls with the same id pending at once: the later one is answered first.
    const p = pairToolResults([call('a1', 'x'), call('a2', 'x'), result('r1', 'x'), result('r2', 'x')]);
    expect(p.resultToCall).toEqual({ r1: 'a2', r2: 'a1' });
  });

  it('re-pairs an id reused after its first call was answered (tau-bench)', () => {
    const p = pairToolResults([call('a1', 'x'), result('r1', 'x'), call('a2', 'x'), result('r2', 'x')]);
    expect(p).toEqual({ resultToCall: { r1: 'a1', r2: 'a2' }, unpairedCalls: [], unpairedResults: [] });
  });

  it('never pairs a result with a call that comes after it', () => {
    const p = pairToolResults([result('r', 'x'), call('a', 'x')]);
    expect(p).toEqual({
      resultToCall: {},
      unpairedCalls: [{ artifact: 'a', call_id: 'x', line: 2 }],
      unpairedResults: [{ artifact: 'r', call_id: 'x', line: 1 }],
    });
  });

  it('leaves a second result for the same call unpaired', () => {
    const p = pairToolResults([call('a', 'x'), result('r1', 'x'), result('r2', 'x')]);
    expect(p.resultToCall).toEqual({ r1: 'a' });
    expect(p.unpairedResults).toEqual([{ artifact: 'r2', call_id: 'x', line: 3 }]);
  });

  it('leaves an output without a call id out of the pairing: it answers nothing and is no broken pair', () => {
    const standalone: Artifact = {
      id: 'o',
      kind: 'tool',
      content: 'x',
      source: { file: 'f', line: 9, column: 1 },
    };
    expect(pairToolResults([standalone])).toEqual({
      resultToCall: {},
      unpairedCalls: [],
      unpairedResults: [],
    });
  });

  it('pairs a result answering several calls (call_ids) and reports the ids it could not match', () => {
    const p = pairToolResults([call('a', 'x', 'y'), result('r', 'x', 'y', 'w')]);
    expect(p.resultToCall).toEqual({ r: 'a' });
    expect(p.unpairedCalls).toEqual([]);
    expect(p.unpairedResults).toEqual([{ artifact: 'r', call_id: 'w', line: 2 }]);
  });

  it('lists unpaired calls in transcript order across ids', () => {
    const p = pairToolResults([call('a', 'y', 'x'), call('b', 'y'), result('r', 'y')]);
    expect(p.resultToCall).toEqual({ r: 'b' });
    expect(p.unpairedCalls).toEqual([
      { artifact: 'a', call_id: 'y', line: 1 },
      { artifact: 'a', call_id: 'x', line: 1 },
    ]);
  });

  it('only tool artifacts are results', () => {
    const user: Artifact = {
      id: 'u',
      kind: 'user',
      content: 'x',
      call_id: 'x',
      source: { file: 'f', line: 2, column: 1 },
    };
    const p = pairToolResults([call('a', 'x'), user]);
    expect(p.resultToCall).toEqual({});
    expect(p.unpairedResults).toEqual([]);
    expect(p.unpairedCalls).toHaveLength(1);
  });
});

describe('pairingDiagnostics', () => {
  beforeEach(() => {
    line = 0;
  });

  it('warns at the exact position of each unpaired call and result, without quoting call ids', () => {
    const artifacts = [call('a', 'call_SECRET1'), result('r', 'call_SECRET2')];
    const diagnostics = pairingDiagnostics(pairToolResults(artifacts), artifacts);
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual([
      't.jsonl:1:3 warning unpaired-call',
      't.jsonl:2:1 warning unpaired-result',
    ]);
    expect(diagnostics.map((d) => d.message).join(' ')).not.toContain('SECRET');
  });
});
