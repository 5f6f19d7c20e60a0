// The segment-by-segment reading of a Responses body (src/api/incremental-responses.ts): a model
// run that grows is read again, items seen in an earlier call are not, and what cannot be read by
// segments exactly is left to the whole read.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IncrementalReader } from '../../src/api/incremental-read.js';
import { toTranscript } from '../../src/api/input.js';
import * as readers from '../../src/core/readers/index.js';
import type { Transcript } from '../../src/core/types.js';

// The reader of new segments, spied on to see which items each call reads.
vi.mock('../../src/core/readers/index.js', async (original) => {
  const actual = await original<typeof readers>();
  return { ...actual, readArtifacts: vi.fn(actual.readArtifacts) };
});
const readArtifacts = vi.mocked(readers.readArtifacts);

afterEach(() => readArtifacts.mockClear());

function comparable(t: Transcript) {
  return {
    meta: t.meta,
    artifacts: t.artifacts.map(({ source: _source, ...rest }) => rest),
    resultToCall: t.pairing.resultToCall,
    unpairedCalls: t.pairing.unpairedCalls.map((u) => [u.artifact, u.call_id]),
    unpairedResults: t.pairing.unpairedResults.map((u) => [u.artifact, u.call_id]),
    diagnostics: t.diagnostics.map((d) => `${d.severity}:${d.code}`).sort(),
  };
}

function whole(body: unknown): Transcript {
  return toTranscript(JSON.parse(JSON.stringify(body)) as Record<string, unknown>, {
    file: 'p',
    format: 'responses',
  });
}

const user = { type: 'message', role: 'user', content: 'fix the build' };
const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] };
const call1 = { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{"cmd":"ls"}' };
const out1 = { type: 'function_call_output', call_id: 'c1', output: 'a.ts' };
const text = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'next' }] };
const call2 = { type: 'function_call', call_id: 'c2', name: 'bash', arguments: '{"cmd":"npm test"}' };
const out2 = { type: 'function_call_output', call_id: 'c2', output: 'ok' };

describe('Responses bodies read segment by segment', () => {
  it('reads a model run again when it grows, as one assistant turn', () => {
    const reader = new IncrementalReader();
    const first = { instructions: 'be brief', input: [user, reasoning, call1] };
    expect(comparable(reader.read(first, 'responses', 'p')!)).toEqual(comparable(whole(first)));
    const grown = { instructions: 'be brief', input: [user, reasoning, call1, call2] };
    const read = reader.read(grown, 'responses', 'p')!;
    expect(comparable(read)).toEqual(comparable(whole(grown)));
    expect(read.artifacts.find((a) => a.id === 'm1')?.tool_calls?.map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('splits a run where a part follows a call, and numbers its turns by their first item', () => {
    const reader = new IncrementalReader();
    const input = [user, reasoning, call1, text, call2, out1, out2];
    for (let n = 1; n <= input.length; n++) {
      const body = { input: input.slice(0, n) };
      expect(comparable(reader.read(body, 'responses', 'p')!)).toEqual(comparable(whole(body)));
    }
    const read = reader.read({ input }, 'responses', 'p')!;
    expect(read.artifacts.map((a) => [a.id, a.kind, a.source.line])).toEqual([
      ['m0', 'user', 1],
      ['m1', 'assistant', 2],
      ['m3', 'assistant', 4],
      ['m5', 'tool', 6],
      ['m6', 'tool', 7],
    ]);
  });

  it('does not read again the items of an earlier call, nor a call with nothing new', () => {
    const reader = new IncrementalReader();
    reader.read({ input: [user, reasoning, call1] }, 'responses', 'p');
    expect(readArtifacts).toHaveBeenCalledTimes(1);
    readArtifacts.mockClear();
    reader.read({ input: [user, reasoning, call1, out1, text] }, 'responses', 'p');
    // Only the new items: the call's output and the next model run.
    expect(readArtifacts).toHaveBeenCalledTimes(1);
    const read = readArtifacts.mock.calls[0]![0];
    expect(read).toContain('"a.ts"');
    expect(read).toContain('"next"');
    expect(read).not.toContain('fix the build');
    expect(read).not.toContain('rs_1');
    readArtifacts.mockClear();
    // New objects with the same JSON are known too.
    const copies = JSON.parse(JSON.stringify([user, reasoning, call1, out1, text])) as unknown[];
    reader.read({ input: copies }, 'responses', 'p');
    expect(readArtifacts).not.toHaveBeenCalled();
  });

  it('leaves to the whole read what segments do not read exactly', () => {
    const reader = new IncrementalReader();
    // A stored list may be newest first; `input` as a string; a response object.
    expect(reader.read({ object: 'list', data: [user, call1, out1] }, 'responses', 'p')).toBeUndefined();
    expect(reader.read({ object: 'list', input: [user] }, 'responses', 'p')).toBeUndefined();
    expect(reader.read({ input: 'hello' }, 'responses', 'p')).toBeUndefined();
    expect(reader.read({ object: 'response', output: [text] }, 'responses', 'p')).toBeUndefined();
    // One page of a list; instructions as items.
    expect(reader.read({ has_more: true, input: [user] }, 'responses', 'p')).toBeUndefined();
    expect(reader.read({ instructions: [user], input: [user] }, 'responses', 'p')).toBeUndefined();
    // An unknown item type (warned once per type over the document) and a malformed item.
    expect(reader.read({ input: [user, { type: 'new_thing' }] }, 'responses', 'p')).toBeUndefined();
    expect(reader.read({ input: [user, { type: 'function_call' }] }, 'responses', 'p')).toBeUndefined();
    expect(reader.read({ input: [{ role: 'tool', content: 'x' }] }, 'responses', 'p')).toBeUndefined();
    // Nothing to read: the whole read fails with an empty transcript.
    expect(reader.read({ input: [{ role: 'assistant', content: [] }] }, 'responses', 'p')).toBeUndefined();
  });
});
