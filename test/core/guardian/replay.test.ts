import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../../src/core/guardian/gate.js';
import { replayGuardian } from '../../../src/core/guardian/replay.js';
import { DEFAULT_POLICY } from '../../../src/core/policy/default.js';
import { readTranscript } from '../../../src/core/readers/index.js';
import type { Transcript } from '../../../src/core/types.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../../fixtures/guardian');

type Rec = Record<string, unknown>;

/** A native JSONL transcript: line 1 is meta, record i is on line i + 2. */
function transcript(records: Rec[]): Transcript {
  const text = [JSON.stringify({ meta: { agent: 'test' } }), ...records.map((r) => JSON.stringify(r))].join(
    '\n',
  );
  const r = readTranscript(text, { file: 'session.jsonl', format: 'native' });
  if (!r.ok) throw new Error('fixture did not parse');
  return r.transcript;
}

function load(name: string): Transcript {
  const file = path.join(FIXTURES, name);
  const r = readTranscript(readFileSync(file, 'utf8'), { file: name });
  if (!r.ok) throw new Error('fixture did not parse');
  return r.transcript;
}

const call = (id: string, name: string, args: Rec = {}) => ({ id, name, arguments: JSON.stringify(args) });
const user = (id: string, pressure?: number): Rec => ({
  id,
  kind: 'user',
  content: 'go on',
  ...(pressure === undefined ? {} : { pressure }),
});
const act = (id: string, calls: ReturnType<typeof call>[], pressure?: number, content = 'working'): Rec => ({
  id,
  kind: 'assistant',
  content,
  tool_calls: calls,
  ...(pressure === undefined ? {} : { pressure }),
});
const result = (id: string, callId: string, tool: string, extra: Rec = {}): Rec => ({
  id,
  kind: 'tool',
  tool,
  call_id: callId,
  content: 'ok',
  ...extra,
});

const replay = (records: Rec[]) => replayGuardian(transcript(records), DEFAULT_THRESHOLDS);

describe('replayGuardian', () => {
  it('ignores transcripts that carry no pressure at all', () => {
    expect(
      replay([
        user('u1'),
        act('a1', [call('c1', 'edit')]),
        result('t1', 'c1', 'edit'),
        act('a2', [call('c2', 'bash')]),
      ]),
    ).toEqual([]);
  });

  it("takes the policy's guardian block as thresholds", () => {
    expect(replayGuardian(load('replay-violation.jsonl'), DEFAULT_POLICY.guardian)).toHaveLength(2);
  });

  it('passes a session that follows the contract (fixture)', () => {
    expect(replayGuardian(load('replay-clean.jsonl'), DEFAULT_THRESHOLDS)).toEqual([]);
  });

  it('flags a replayed transcript at the lines of its violations (fixture)', () => {
    const violations = replayGuardian(load('replay-violation.jsonl'), DEFAULT_THRESHOLDS);
    expect(violations.map((v) => [v.id, v.line])).toEqual([
      ['t2', 8],
      ['a5', 14],
    ]);
    expect(violations[0]?.message).toContain('no checkpoint');
    expect(violations[1]?.message).toContain('went on after STATUS:HALT_CONTEXT_LIMIT');
    expect(violations[1]?.message).toContain('line 13');
  });

  describe('halt', () => {
    it('flags the first activity after pressure reaches critical, once', () => {
      const v = replay([
        user('u1', 0.9),
        act('a1', [call('c1', 'bash', { command: 'ls' })]),
        result('t1', 'c1', 'bash'),
        act('a2', [call('c2', 'bash', { command: 'ls' })], 0.95),
      ]);
      expect(v.map((x) => x.id)).toEqual(['a1']);
    });

    it('flags assistant text after a halt too', () => {
      const v = replay([
        user('u1', 0.2),
        { id: 'a0', kind: 'assistant', content: 'thinking', pressure: 0.86 },
        { id: 'a1', kind: 'assistant', content: 'more' },
      ]);
      expect(v.map((x) => x.id)).toEqual(['a0']);
    });

    it('allows the halt bookkeeping: checkpoint, announcement, results of earlier calls', () => {
      const v = replay([
        user('u1', 0.2),
        act('a1', [call('c1', 'bash', { command: 'npm test' })], 0.3),
        result('t1', 'c1', 'bash', { pressure: 0.9 }),
        act(
          'a2',
          [call('c2', 'guardian', { command: 'checkpoint' })],
          undefined,
          'STATUS:HALT_CONTEXT_LIMIT',
        ),
        result('t2', 'c2', 'guardian'),
        { id: 'a3', kind: 'assistant', content: 'Stopping. STATUS:HALT_CONTEXT_LIMIT' },
      ]);
      expect(v).toEqual([]);
    });

    it('ends at a user or system override', () => {
      const v = replay([
        user('u1', 0.9),
        user('u2', 0.2),
        act('a1', [call('c1', 'bash', { command: 'ls' })], 0.2),
      ]);
      expect(v).toEqual([]);
    });

    it('uses the given thresholds', () => {
      const records = [user('u1', 0.65), act('a1', [call('c1', 'bash', { command: 'ls' })], 0.65)];
      expect(replayGuardian(transcript(records), DEFAULT_THRESHOLDS)).toEqual([]);
      expect(
        replayGuardian(transcript(records), { warning: 0.3, compress: 0.5, critical: 0.6 }),
      ).toHaveLength(1);
    });
  });

  describe('missing pressure after the first value (fallback rule)', () => {
    it('counts a major action with no reading since the previous one as critical', () => {
      const v = replay([
        user('u1', 0.1),
        act('a1', [call('c1', 'bash', { command: 'ls' })]),
        result('t1', 'c1', 'bash'),
        act('a2', [call('c2', 'bash', { command: 'ls' })]),
        result('t2', 'c2', 'bash'),
        act('a3', [call('c3', 'bash', { command: 'ls' })]),
      ]);
      expect(v.map((x) => x.id)).toEqual(['a2']);
      expect(v[0]?.message).toContain('missing pressure counts as critical');
    });

    it('does not apply before the first pressure value', () => {
      const v = replay([
        act('a1', [call('c1', 'bash', { command: 'ls' })]),
        act('a2', [call('c2', 'bash', { command: 'ls' })]),
        user('u1', 0.1),
        act('a3', [call('c3', 'bash', { command: 'ls' })]),
      ]);
      expect(v).toEqual([]);
    });
  });

  describe('state change without a fresh checkpoint', () => {
    it('flags an edit followed by a major action, at the edit result', () => {
      const v = replay([
        user('u1', 0.1),
        act('a1', [call('c1', 'edit', { path: 'a.ts' })], 0.1),
        result('t1', 'c1', 'edit'),
        act('a2', [call('c2', 'bash', { command: 'npm test' })], 0.1),
      ]);
      expect(v).toEqual([
        {
          id: 't1',
          line: 4,
          message:
            'the edit tool changed state, and the next major action (line 5) came with no checkpoint in between',
        },
      ]);
    });

    it('accepts a checkpoint between the change and the next action', () => {
      const v = replay([
        user('u1', 0.1),
        act('a1', [call('c1', 'Write', { path: 'a.ts' })], 0.1),
        result('t1', 'c1', 'Write'),
        act(
          'a2',
          [call('c2', 'bash', { command: 'context-stability guardian checkpoint --completed x' })],
          0.1,
        ),
        result('t2', 'c2', 'bash'),
        act('a3', [call('c3', 'bash', { command: 'npm test' })], 0.1),
      ]);
      expect(v).toEqual([]);
    });

    it('counts failed writes, shell commands that write, and the state_change tag', () => {
      const v = replay([
        user('u1', 0.1),
        act('a1', [call('c1', 'apply_patch')], 0.1),
        result('t1', 'c1', 'apply_patch', { is_error: true }),
        act('a2', [call('c2', 'bash', { command: 'echo x > notes.txt' })], 0.1),
        result('t2', 'c2', 'bash'),
        act('a3', [call('c3', 'deploy')], 0.1),
        result('t3', 'c3', 'deploy', { tags: ['state_change'] }),
        act('a4', [call('c4', 'bash', { command: 'cat notes.txt' })], 0.1),
      ]);
      expect(v.map((x) => x.id)).toEqual(['t1', 't2', 't3']);
    });

    it('does not count read-only tools and commands', () => {
      const v = replay([
        user('u1', 0.1),
        act('a1', [call('c1', 'str_replace_based_edit_tool', { command: 'view', path: 'a.ts' })], 0.1),
        result('t1', 'c1', 'str_replace_based_edit_tool'),
        act('a2', [call('c2', 'bash', { command: 'npm test 2>&1 | tail -5' })], 0.1),
        result('t2', 'c2', 'bash'),
        act('a3', [call('c3', 'read')], 0.1),
      ]);
      expect(v).toEqual([]);
    });

    it('flags a change the session ended on without a checkpoint', () => {
      const v = replay([user('u1', 0.1), act('a1', [call('c1', 'edit')], 0.1), result('t1', 'c1', 'edit')]);
      expect(v.map((x) => [x.id, x.message.includes('session ended')])).toEqual([['t1', true]]);
    });
  });

  describe('no fresh summary at compress pressure', () => {
    const bash = (id: string, c: string, p?: number) => act(id, [call(c, 'bash', { command: 'ls' })], p);

    it('lets the action in progress finish but flags the next one without a summary', () => {
      const v = replay([
        user('u1', 0.72),
        bash('a1', 'c1', 0.72),
        result('t1', 'c1', 'bash'),
        bash('a2', 'c2', 0.73),
      ]);
      expect(v.map((x) => x.id)).toEqual(['a2']);
      expect(v[0]?.message).toContain('no fresh summary');
    });

    it('accepts a summary artifact, a summary tag or a checkpoint in between', () => {
      for (const marker of [
        { id: 's1', kind: 'summary', content: 'state so far', provenance: ['u1'] },
        { id: 's1', kind: 'user', content: 'summary written', tags: ['summary'], pressure: 0.72 },
        act('s1', [call('cs', 'checkpoint')]),
      ]) {
        const v = replay([
          user('u1', 0.72),
          bash('a1', 'c1', 0.72),
          result('t1', 'c1', 'bash'),
          marker,
          bash('a2', 'c2', 0.73),
        ]);
        expect(v).toEqual([]);
      }
    });
  });

  it('skips side-chain records', () => {
    const v = replay([
      user('u1', 0.1),
      { ...act('a1', [call('c1', 'edit')], 0.1), sidechain: true },
      { ...result('t1', 'c1', 'edit'), sidechain: true },
      act('a2', [call('c2', 'bash', { command: 'ls' })], 0.1),
    ]);
    expect(v).toEqual([]);
  });
});
