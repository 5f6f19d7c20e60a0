// Seed 001 (§5 "Example Walkthrough") as a test: system, a user message with an SSN, an assistant
// that looks the account up, a 500-token JSON blob, and the user's next question. Expected final
// context, exactly: the system prompt, the user message with the SSN masked, the assistant's reply,
// and the last user message; the tool output is gone.
//
// How each stage produces it, with the policy below:
// - normalize: the lookup result pairs with the assistant's call; counts use o200k_base + 3 framing tokens.
// - protect: the system prompt and the most recent message (keep_recent 1, the seed's "always
//   preserve the system prompt and the most recent message"). The lookup result is not evidence:
//   an account record with no status keys is contents, not a command outcome (outcome.ts), so
//   resilience on or off makes no difference (see the fourth test).
// - pii: `123-45-6789` → `[REDACTED_SSN]` (the seed's masking step: one text per type, which is
//   pii.strategy redact; the default, numbered, would write `[SSN_1]`).
// - tool output: the history (about 570 tokens) does not fit the budget of 256, so the cutting
//   stages act (pressure). The blob is older than the recent window (the last user message), over
//   tool_output.max_tokens (256, the seed's limit) and none of its top-level fields is in
//   keep_fields, so masking cannot save it: dropped (`verbose_tool_output`). Its call leaves with
//   it, so the assistant keeps only its text (`compressed`, `pair_unit`).
// - budget (256): the four remaining artifacts fit, so the stable cut keeps the whole conversation.
//   order: system first, then the conversation.
// Under the default policy (budget 8000) the history fits: it goes out unchanged (the last test).
import { beforeAll, describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import { verifyOpenAI } from '../../src/core/emit/verify.js';
import { DEFAULT_POLICY } from '../../src/core/policy/index.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../src/core/types.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { call, calls, result, sys, t, user } from '../support/artifacts.js';
import { check, entry, policy, run } from '../core/stabilize/helpers.js';

let o200k: Tokenizer;
beforeAll(async () => {
  o200k = await loadTokenizer('o200k_base');
});

/** An account record of exactly `tokens` o200k tokens; none of its top-level keys is a keep_field. */
function accountBlob(tok: Tokenizer, tokens: number): string {
  const orders = Array.from({ length: 12 }, (_, i) => ({
    order_id: `ORD-${1000 + i}`,
    placed: `2024-0${(i % 9) + 1}-1${i % 10}`,
    items: [{ sku: `SKU-${200 + i}`, qty: (i % 3) + 1 }],
    state: i === 11 ? 'in_transit' : 'delivered',
  }));
  for (let n = 0; n < 2000; n++) {
    const blob = JSON.stringify({ account: { tier: 'gold', since: 2019 }, orders, notes: ' note'.repeat(n) });
    const count = tok.count(blob);
    if (count === tokens) return blob;
    if (count > tokens) break;
  }
  throw new Error(`cannot build a blob of exactly ${tokens} tokens`);
}

function seed001(tok: Tokenizer): Transcript {
  return t(
    sys('m0', 'You are a helpful assistant.'),
    user('m1', 'I need help with my account. My SSN is 123-45-6789.'),
    calls('m2', [call('lookup-1', 'lookup_account', { customer: 'self' })], 'I see. Let me look that up.'),
    result('m3', 'lookup-1', accountBlob(tok, 500)),
    user('m4', "Okay, so what's the status of my last order?"),
  );
}

const POLICY = policy({
  message_overhead: 3,
  budget: 256,
  keep_recent: 1,
  tool_output: { max_tokens: 256 },
  resilience: { enabled: false },
  pii: { strategy: 'redact' },
});

describe('seed 001: the example walkthrough', () => {
  it('produces the final context of the walkthrough, exactly', () => {
    const r = run(seed001(o200k), POLICY, o200k);
    expect(r.context.map((c) => ({ kind: c.kind, content: c.content }))).toEqual([
      { kind: 'system', content: 'You are a helpful assistant.' },
      { kind: 'user', content: 'I need help with my account. My SSN is [REDACTED_SSN].' },
      { kind: 'assistant', content: 'I see. Let me look that up.' },
      { kind: 'user', content: "Okay, so what's the status of my last order?" },
    ]);
    expect(r.context[2]).not.toHaveProperty('tool_calls');
    expect(r.status).toBe('ok');
  });

  it('records why each artifact stayed, changed or left', () => {
    const r = run(seed001(o200k), POLICY, o200k);
    expect(r.ledger.map((e) => `${e.id} ${e.stage}:${e.action}/${e.reason}`)).toEqual([
      'm0 protect:kept/protected',
      'm1 pii:masked/pii',
      'm2 tool_output:compressed/pair_unit',
      'm3 tool_output:dropped/verbose_tool_output',
      'm4 protect:kept/protected',
    ]);
    expect(entry(r, 'm1').pii).toEqual({ ssn: 1 });
    // Counted whole: the pressure check sums the history before the tool output stage.
    expect(entry(r, 'm3').tokens_before).toBe(503);
    expect(entry(r, 'm3').detail).toBe('over tool_output.max_tokens (256)');
  });

  it('stays within the budget and passes every check; the emitted request is valid', () => {
    const tr = seed001(o200k);
    const r = run(tr, POLICY, o200k);
    expect(r.budget.used).toBeLessThanOrEqual(256);
    expect(r.budget.used).toBe(r.context.reduce((s, c) => s + c.tokens, 0));
    expect(Object.values(check(tr, r, POLICY, o200k)).filter((c) => !c.ok)).toEqual([]);
    const { messages } = emitContext(r.context, 'openai') as { messages: OpenAIMessage[] };
    expect(verifyOpenAI(messages)).toEqual([]);
  });

  it('with resilience on, drops the lookup result just the same: contents are not evidence', () => {
    // The blob has no exit code, error or status key: file or document contents, not an outcome
    // (outcome.ts), so nothing protects it and the run is the seed's walkthrough.
    const p = policy({ message_overhead: 3, budget: 256, keep_recent: 1, tool_output: { max_tokens: 256 } });
    const tr = seed001(o200k);
    const r = run(tr, p, o200k);
    expect(r.context.map((c) => c.id)).toEqual(['m0', 'm1', 'm2', 'm4']);
    expect(entry(r, 'm3')).toMatchObject({ action: 'dropped', reason: 'verbose_tool_output' });
    expect(entry(r, 'm2')).toMatchObject({ action: 'compressed', reason: 'pair_unit' });
    expect(r.budget.used).toBeLessThanOrEqual(256);
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, p, o200k)).filter((c) => !c.ok)).toEqual([]);
  });

  it('under the default policy, the history fits the budget of 8000 and goes out unchanged', () => {
    // No pressure: tool_output.max_tokens cuts nothing, the 503-token result arrives whole.
    const tr = seed001(o200k);
    const r = run(tr, DEFAULT_POLICY, o200k);
    expect(r.context.map((c) => c.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(JSON.stringify(r.context)).not.toContain('123-45-6789');
    expect(entry(r, 'm3')).toMatchObject({ action: 'kept', tokens_before: 503, tokens_after: 503 });
    expect(r.context[3]?.content).toBe(tr.artifacts[3]?.content);
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, DEFAULT_POLICY, o200k)).filter((c) => !c.ok)).toEqual([]);
    const { messages } = emitContext(r.context, 'openai') as { messages: OpenAIMessage[] };
    expect(verifyOpenAI(messages)).toEqual([]);
  });
});
