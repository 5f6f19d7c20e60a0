// Stage 1 (normalize): token counts with the framing overhead, and what a provider would reject or
// what is not part of the main conversation leaving before any budget decision.
import { describe, expect, it } from 'vitest';
import { asst, bash, calls, result, sys, t, user } from '../../support/artifacts.js';
import { check, entry, fate, ids, item, policy, run } from './helpers.js';

describe('normalize: token counts', () => {
  it('counts every artifact as its text plus message_overhead', () => {
    const tr = t(sys('s', 'be brief'), user('u', 'one two three'));
    const r = run(tr, policy({ message_overhead: 3 }));
    expect(entry(r, 's')).toMatchObject({ tokens_before: 5, tokens_after: 5 });
    expect(entry(r, 'u')).toMatchObject({ tokens_before: 6, tokens_after: 6 });
    expect(r.budget.used).toBe(11);
  });

  it('counts tool call names and arguments as part of the assistant that made them', () => {
    // `bash` is 1 word, `{"command":"npm test"}` is 2 words.
    const tr = t(user('u', 'run them'), calls('a', [bash('c1', 'npm test')]), result('r', 'c1', 'ok'));
    const r = run(tr);
    expect(item(r, 'a').tokens).toBe(3);
  });
});

describe('normalize: side chains', () => {
  it('leaves side-chain (sub-agent) records out and says so', () => {
    const tr = t(
      user('u', 'look around'),
      asst('side', 'sub-agent notes', { sidechain: true }),
      asst('a', 'done'),
    );
    const r = run(tr);
    expect(ids(r)).toEqual(['u', 'a']);
    expect(fate(r, 'side')).toBe('dropped/sidechain');
    expect(r.events).toContainEqual(expect.objectContaining({ level: 'major', code: 'sidechain' }));
  });
});

describe('normalize: unpaired tool calls and results', () => {
  it('drops a result that answers no earlier call', () => {
    const tr = t(user('u', 'hi'), result('orphan', 'nope', 'some output'), asst('a', 'hello'));
    const r = run(tr);
    expect(fate(r, 'orphan')).toBe('dropped/unpaired_result');
    expect(ids(r)).toEqual(['u', 'a']);
    expect(r.events).toContainEqual(
      expect.objectContaining({
        code: 'unpaired',
        message: 'removed 0 tool calls without results and 1 results without calls',
      }),
    );
  });

  it('drops an assistant whose only content is a call that was never answered', () => {
    const tr = t(user('u', 'run it'), calls('a', [bash('c1', 'npm test')]), user('u2', 'well?'));
    const r = run(tr);
    expect(fate(r, 'a')).toBe('dropped/unpaired_call');
    expect(ids(r)).toEqual(['u', 'u2']);
  });

  it('keeps the text of an assistant and removes only its unanswered call', () => {
    const tr = t(
      user('u', 'run it'),
      calls('a', [bash('c1', 'npm test')], 'Running the tests now.'),
      user('u2', 'never mind, stop'),
    );
    const r = run(tr);
    expect(fate(r, 'a')).toBe('compressed/unpaired_call');
    expect(item(r, 'a')).not.toHaveProperty('tool_calls');
    expect(item(r, 'a').content).toBe('Running the tests now.');
    expect(check(tr, r, policy()).pairing?.ok).toBe(true);
  });

  it('a call the history ends on is pending: a note in its message says so (issue 31)', () => {
    const tr = t(user('u', 'run it'), calls('a', [bash('c1', 'npm test')], 'Running the tests now.'));
    const r = run(tr);
    expect(fate(r, 'a')).toBe('compressed/pending_call');
    expect(item(r, 'a')).not.toHaveProperty('tool_calls');
    expect(item(r, 'a').content).toBe(
      'Running the tests now.\n\n[tool call bash is pending: its result has not come back yet]',
    );
    expect(check(tr, r, policy()).pairing?.ok).toBe(true);
  });

  it('a pending call of a call-only turn keeps the turn, with the note as its text', () => {
    const tr = t(
      user('u', 'check both'),
      calls('a', [bash('c1', 'npm test'), bash('c2', 'npm run lint')]),
      result('r1', 'c1', 'all tests pass'),
    );
    const r = run(tr);
    expect(fate(r, 'a')).toBe('compressed/pending_call');
    expect(ids(r)).toEqual(['u', 'a', 'r1']);
    expect(item(r, 'a').tool_calls?.map((c) => c.id)).toEqual(['c1']);
    expect(item(r, 'a').content).toBe('[tool call bash is pending: its result has not come back yet]');
    expect(check(tr, r, policy()).pairing?.ok).toBe(true);
  });

  it('a call waiting for approval says so', () => {
    const call = { ...bash('c1', 'rm -rf build'), approval: 'requested' as const };
    const tr = t(user('u', 'clean up'), calls('a', [call], 'Cleaning the build folder.'));
    const r = run(tr);
    expect(fate(r, 'a')).toBe('compressed/pending_approval');
    expect(item(r, 'a').content).toBe(
      "Cleaning the build folder.\n\n[tool call bash is waiting for the user's approval]",
    );
  });

  it('keeps the answered call of a parallel pair whose other call was never answered', () => {
    const tr = t(
      user('u', 'check both'),
      calls('a', [bash('c1', 'npm test'), bash('c2', 'npm run lint')]),
      result('r1', 'c1', 'all tests pass'),
      user('u2', 'and lint?'),
    );
    const r = run(tr);
    expect(fate(r, 'a')).toBe('compressed/unpaired_call');
    expect(item(r, 'a').tool_calls?.map((c) => c.id)).toEqual(['c1']);
    expect(ids(r)).toContain('r1');
    expect(check(tr, r, policy()).pairing?.ok).toBe(true);
  });
});

describe('normalize: reused call ids', () => {
  it('pairs each result with the nearest earlier pending call of its id', () => {
    // tau-bench style: every turn reuses `call_0`.
    const tr = t(
      user('u1', 'first'),
      calls('a1', [bash('call_0', 'npm test')]),
      result('r1', 'call_0', 'tests pass'),
      user('u2', 'second'),
      calls('a2', [bash('call_0', 'npm run build')]),
      result('r2', 'call_0', 'build ok'),
    );
    const r = run(tr);
    expect(ids(r)).toEqual(['u1', 'a1', 'r1', 'u2', 'a2', 'r2']);
    // Each result is the latest outcome of its own command family.
    expect(entry(r, 'r1').protected_by).toEqual(['latest:bash:npm test']);
    // r2 is also the open loop: the result the agent just asked for.
    expect(entry(r, 'r2').protected_by).toEqual(['latest:bash:npm run build', 'open_loop']);
    expect(check(tr, r, policy()).pairing?.ok).toBe(true);
  });

  it('leaves the older of two pending calls with the same id unanswered, and removes it', () => {
    const tr = t(
      user('u1', 'go'),
      calls('a1', [bash('call_0', 'npm test')]),
      calls('a2', [bash('call_0', 'npm test')]),
      result('r', 'call_0', 'tests pass'),
      user('u2', 'thanks'),
    );
    const r = run(tr);
    expect(fate(r, 'a1')).toBe('dropped/unpaired_call');
    expect(ids(r)).toEqual(['u1', 'a2', 'r', 'u2']);
    expect(check(tr, r, policy()).pairing?.ok).toBe(true);
  });
});
