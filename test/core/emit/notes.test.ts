// The ledger says what the emitters change on the way out: parts the target API has no place for,
// and call ids renamed to be unique (issue 10).
import { describe, expect, it } from 'vitest';
import { asst, call, calls, result, t, user } from '../../support/artifacts.js';
import { entry, policy, run } from '../stabilize/helpers.js';

describe('ledger notes of the emitters', () => {
  it('names the thinking an OpenAI request leaves out', () => {
    const tr = t(
      user('u1', 'Why?'),
      asst('a1', [
        { type: 'thinking', thinking: 'Because.', signature: 's' },
        { type: 'text', text: 'It is so.' },
      ]),
      user('u2', 'Ok.'),
    );
    const r = run(tr, policy({ budget: 1000, target: 'openai' }));
    expect(entry(r, 'a1').emit).toEqual([
      'openai: left out 1 thinking part (only the Messages API takes thinking blocks)',
    ]);
    expect(entry(r, 'u1').emit).toBeUndefined();
    // Not for an Anthropic request, which takes thinking.
    expect(entry(run(tr, policy({ budget: 1000, target: 'anthropic' })), 'a1').emit).toBeUndefined();
  });

  it('maps a reused call id to the name the Anthropic request gives it', () => {
    const tr = t(
      user('u1', 'Check twice.'),
      calls('a1', [call('call_1', 'check', { n: 1 })]),
      result('r1', 'call_1', 'ok'),
      calls('a2', [call('call_1', 'check', { n: 2 })]),
      result('r2', 'call_1', 'ok again'),
      user('u2', 'Done?'),
    );
    const r = run(tr, policy({ budget: 1000, target: 'anthropic', keep_recent: 1 }));
    expect(entry(r, 'a1').emit).toBeUndefined();
    expect(entry(r, 'a2').emit).toEqual([
      'anthropic: tool call id call_1 sent as call_1_2 (tool_use ids must be unique in a request)',
    ]);
    expect(
      entry(run(tr, policy({ budget: 1000, target: 'openai', keep_recent: 1 })), 'a2').emit,
    ).toBeUndefined();
  });
});
