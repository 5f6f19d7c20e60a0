// A Claude Code session is a tree: the conversation is the chain from the last message back to its
// root or compaction boundary; a rewound branch and what a compaction summary stands for are marked
// off the chain (and left out by the stabilizer), never when the tree cannot be followed.
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../../src/core/readers/index.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { Transcript } from '../../../src/core/types.js';
import { policy, wordTokenizer } from '../stabilize/helpers.js';

function rec(type: 'user' | 'assistant', uuid: string, parent: string | null, text: string): string {
  const message =
    type === 'user'
      ? { role: 'user', content: text }
      : { id: `m-${uuid}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }] };
  return JSON.stringify({ type, uuid, parentUuid: parent, isSidechain: false, sessionId: 's', message });
}

function read(lines: string[]): Transcript {
  const r = readTranscript(lines.join('\n') + '\n', { file: 'session.jsonl' });
  if (!r.ok) throw new Error(r.diagnostics[0]?.message);
  return r.transcript;
}

const offChain = (t: Transcript) => Object.fromEntries(t.artifacts.map((a) => [a.id, a.offChain ?? '-']));

describe('Claude Code: the chain the model saw', () => {
  const rewound = [
    rec('user', 'u1', null, 'Start'),
    rec('assistant', 'a1', 'u1', 'Ready'),
    rec('user', 'b1', 'a1', 'First attempt'),
    rec('assistant', 'b1a', 'b1', 'First answer'),
    rec('user', 'b2', 'a1', 'Second attempt'),
    rec('assistant', 'b2a', 'b2', 'Second answer'),
  ];

  it('marks a branch abandoned by a rewind, and the stabilizer leaves it out with that reason', () => {
    const t = read(rewound);
    expect(offChain(t)).toEqual({
      u1: '-',
      a1: '-',
      b1: 'abandoned_branch',
      b1a: 'abandoned_branch',
      b2: '-',
      b2a: '-',
    });
    const r = stabilizeTranscript(t, { policy: policy(), tokenizer: wordTokenizer });
    expect(r.context.map((c) => c.id)).toEqual(['u1', 'a1', 'b2', 'b2a']);
    expect(r.ledger.find((e) => e.id === 'b1')).toMatchObject({
      action: 'dropped',
      reason: 'abandoned_branch',
    });
  });

  it('keeps only the compaction summary and what follows a compact boundary', () => {
    const t = read([
      ...rewound,
      JSON.stringify({
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'cb',
        parentUuid: null,
        logicalParentUuid: 'b2a',
      }),
      rec('user', 'cs', 'cb', 'This session is being continued from a previous conversation.'),
      rec('user', 'p1', 'cs', 'After compaction'),
      rec('assistant', 'p1a', 'p1', 'Final answer'),
    ]);
    expect(offChain(t)).toMatchObject({
      u1: 'compacted',
      a1: 'compacted',
      b1: 'abandoned_branch',
      b2a: 'compacted',
      cs: '-',
      p1: '-',
      p1a: '-',
    });
    const r = stabilizeTranscript(t, { policy: policy(), tokenizer: wordTokenizer });
    expect(r.context.map((c) => c.id)).toEqual(['cs', 'p1', 'p1a']);
  });

  it('reads in file order when the log has no tree (every parent null) or a parent is missing', () => {
    const flat = read([
      rec('user', 'x1', null, 'one'),
      rec('assistant', 'x2', null, 'two'),
      rec('user', 'x3', null, 'three'),
    ]);
    expect(flat.artifacts.every((a) => a.offChain === undefined)).toBe(true);
    const broken = read([rec('user', 'y1', null, 'one'), rec('assistant', 'y2', 'gone', 'two')]);
    expect(broken.artifacts.every((a) => a.offChain === undefined)).toBe(true);
  });
});
