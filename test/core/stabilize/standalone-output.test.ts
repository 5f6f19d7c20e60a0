// Tool outputs without a call id (the seeds' own data model): valid artifacts that fit or are dropped
// by budget like any other, never reported as unpaired, and sent to the chat APIs as user text.
import { describe, expect, it } from 'vitest';
import { emitContext } from '../../../src/core/emit/index.js';
import type { AnthropicRequest } from '../../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../../src/core/emit/verify.js';
import { asst, result, sys, t, user, words } from '../../support/artifacts.js';
import { check, entry, fate, ids, policy, run } from './helpers.js';

function session() {
  const log = result('log', 'ignored', 'build finished: 3 warnings, 0 errors', { tool: 'ci_log' });
  delete (log as { call_id?: string }).call_id;
  return t(
    sys('s', 'You are a release assistant.'),
    user('u1', 'Is the build green?'),
    log,
    asst('a1', 'The build finished with three warnings.'),
    user('u2', 'Ship it then.'),
  );
}

describe('a tool output without a call id', () => {
  it('is kept like any artifact, not dropped as unpaired', () => {
    const tr = session();
    expect(tr.pairing.unpairedResults).toEqual([]);
    const p = policy({ budget: 1000 });
    const r = run(tr, p);
    expect(ids(r)).toEqual(['s', 'u1', 'log', 'a1', 'u2']);
    expect(fate(r, 'log')).toBe('kept/in_budget');
    expect(r.events.map((e) => e.code)).not.toContain('unpaired');
    expect(Object.values(check(tr, r, p)).filter((c) => !c.ok)).toEqual([]);
  });

  it('is dropped by the budget like any other artifact', () => {
    const tr = session();
    const r = run(tr, policy({ budget: 15, keep_recent: 1 }));
    expect(entry(r, 'log')).toMatchObject({ stage: 'budget', action: 'dropped', reason: 'budget' });
  });

  it('is sent to both chat APIs as user text, in place, and both accept the request', () => {
    const r = run(session(), policy({ budget: 1000 }));
    const openai = emitContext(r.context, 'openai') as { messages: OpenAIMessage[] };
    expect(openai.messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'user']);
    expect(openai.messages[2]).toEqual({ role: 'user', content: 'build finished: 3 warnings, 0 errors' });
    expect(verifyOpenAI(openai.messages)).toEqual([]);
    const anthropic = emitContext(r.context, 'anthropic') as AnthropicRequest;
    // Consecutive user texts are one user turn.
    expect(anthropic.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(anthropic.messages[0])).toContain('build finished: 3 warnings, 0 errors');
    expect(verifyAnthropic(anthropic)).toEqual([]);
  });

  it('competes on budget after protected artifacts, oldest first to go', () => {
    const outputs = [0, 1, 2].map((i) => {
      const o = result(`o${i}`, 'x', words(10, `line${i}`), { tool: 'ci_log' });
      delete (o as { call_id?: string }).call_id;
      return o;
    });
    const r = run(
      t(user('u', 'watch the logs'), ...outputs, user('u2', 'and now?')),
      policy({ budget: 25, keep_recent: 1 }),
    );
    expect(ids(r)).toEqual(['u', 'o1', 'o2', 'u2']);
  });
});
