// stabilizeTranscript end to end: deterministic, pure, and producing contexts that pass every check
// and that the providers' structural rules accept, on hand-written and generated sessions.
import { beforeAll, describe, expect, it } from 'vitest';
import { emitContext } from '../../../src/core/emit/index.js';
import type { AnthropicRequest } from '../../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../../src/core/emit/verify.js';
import { pairToolResults } from '../../../src/core/readers/pairing.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../../src/core/types.js';
import { loadTokenizer } from '../../../src/tokens/load.js';
import {
  asst,
  bash,
  call,
  calls,
  phase,
  pol,
  result,
  summary,
  sys,
  task,
  t,
  user,
} from '../../support/artifacts.js';
import { generateTranscript } from '../../support/generate/index.js';
import { check, policy, run } from './helpers.js';

let o200k: Tokenizer;
beforeAll(async () => {
  o200k = await loadTokenizer('o200k_base');
});

function codingSession(): Transcript {
  return t(
    sys('s', 'You are a careful coding agent. Run the tests before you claim success.'),
    pol('p', 'Never commit secrets. Never push to main.'),
    phase('ph', { task: 'fix_cart', phase: 'debug' }),
    task('tk', 'Make the cart total include tax.'),
    user('u1', 'The cart total is wrong for orders shipped to 10.0.0.12, email me at dev@example.com.'),
    calls('a1', [call('c1', 'read', { path: 'src/cart.ts' })], 'Reading the cart module.'),
    result('r1', 'c1', 'export function total(items) { return items.reduce((s, i) => s + i.price, 0); }'),
    calls('a2', [bash('c2', 'npm test')]),
    result('r2', 'c2', 'FAIL src/cart.test.ts\n  Expected: 108\n  Received: 100', { exit_code: 1 }),
    calls('a3', [call('c3', 'edit', { path: 'src/cart.ts', patch: 'add tax' })], '', { tags: ['decision'] }),
    result('r3', 'c3', 'edit applied'),
    calls('a4', [bash('c4', 'cd app && npm test')]),
    result('r4', 'c4', 'Tests: 14 passed'),
    summary('sum', 'The total ignored tax; fixed in src/cart.ts.', ['u1', 'r2', 'r4']),
    asst('a5', 'The cart total now includes tax and all tests pass.'),
    user('u2', 'Great, thanks!'),
  );
}

function failing(transcript: Transcript, r: StabilizeResult, tok: Tokenizer, p = policy()) {
  return Object.values(check(transcript, r, p, tok)).filter((c) => !c.ok);
}

function providerErrors(r: StabilizeResult): string[] {
  const openai = emitContext(r.context, 'openai') as { messages: OpenAIMessage[] };
  const anthropic = emitContext(r.context, 'anthropic') as AnthropicRequest;
  return [...verifyOpenAI(openai.messages), ...verifyAnthropic(anthropic)];
}

describe('stabilizeTranscript', () => {
  it('is deterministic: the same input gives a byte-identical result', () => {
    const p = policy({ budget: 60 });
    const a = JSON.stringify(run(codingSession(), p, o200k));
    const b = JSON.stringify(run(codingSession(), p, o200k));
    expect(a).toBe(b);
  });

  it('never mutates its input', () => {
    const tr = codingSession();
    const before = structuredClone(tr);
    run(tr, policy({ budget: 40, resilience: { truncation_mode: 'aggressive' } }), o200k);
    expect(tr).toEqual(before);
  });

  it('gives the same result with a shared token cache', () => {
    const p = policy({ budget: 60 });
    const cache = new Map<string, number>();
    const first = stabilizeTranscript(codingSession(), { policy: p, tokenizer: o200k, cache });
    const second = stabilizeTranscript(codingSession(), { policy: p, tokenizer: o200k, cache });
    expect(second).toEqual(first);
    expect(first).toEqual(run(codingSession(), p, o200k));
  });

  // The protected part needs 166 tokens (o200k, overhead 3; the failed `npm test` run is error
  // evidence): 170 and 195 force budget drops. Under the stable cut, should-keep evidence older than
  // the cut point leaves with its step (`degraded`): a warning, and every other check passes.
  it.each([
    [170, 'warning'],
    [195, 'warning'],
    [8000, 'ok'],
  ] as const)('produces a context that passes every check at budget %i (%s)', (budget, status) => {
    const tr = codingSession();
    const p = policy({ budget, message_overhead: 3 });
    const r = run(tr, p, o200k);
    expect(r.status).toBe(status);
    expect(r.budget.used).toBeLessThanOrEqual(budget);
    const failed = failing(tr, r, o200k, p).map((c) => c.name);
    expect(failed).toEqual(status === 'ok' ? [] : ['status']);
    const degraded = r.ledger.filter((e) => e.reason === 'degraded');
    expect(degraded.length > 0).toBe(status === 'warning');
    expect(providerErrors(r)).toEqual([]);
    // With stable_prefix off the protected part fits whole at both budgets: nothing protected goes.
    const ranked = policy({ budget, message_overhead: 3, stable_prefix: { enabled: false } });
    const again = run(tr, ranked, o200k);
    expect(again.status).toBe('ok');
    expect(failing(tr, again, o200k, ranked)).toEqual([]);
  });

  it('keeps the constraints first and masks the PII of what it keeps', () => {
    const r = run(codingSession(), policy(), o200k);
    expect(r.context.slice(0, 4).map((c) => c.id)).toEqual(['s', 'p', 'ph', 'tk']);
    const u1 = r.context.find((c) => c.id === 'u1');
    expect(u1?.content).toBe(
      'The cart total is wrong for orders shipped to [IP_ADDRESS_1], email me at [EMAIL_1].',
    );
  });
});

describe('stabilizeTranscript on generated sessions', () => {
  const SEEDS = [3, 7, 11, 19, 23, 42];

  it.each(SEEDS)(
    'seed %i: every check but budget and status passes; budget fails only when escalated',
    (seed) => {
      // No host-reported pressure: the guardian replay judges the recorded session, not the stabilizer.
      const g = generateTranscript(seed, { pressure: false });
      const tr: Transcript = {
        file: `generated-${seed}.jsonl`,
        format: 'native',
        meta: {},
        artifacts: g.artifacts,
        pairing: pairToolResults(g.artifacts),
        diagnostics: [],
      };
      for (const mode of ['default', 'aggressive'] as const) {
        const p = policy({ budget: 2000, message_overhead: 3, resilience: { truncation_mode: mode } });
        const r = run(tr, p, o200k);
        const names = failing(tr, r, o200k, p).map((c) => c.name);
        expect(names.filter((n) => n !== 'budget' && n !== 'status')).toEqual([]);
        // The budget is a hard limit: protected evidence is cut to excerpts rather than exceed it,
        // unless even the smallest excerpts cannot fit, and then the run escalates.
        expect(names.includes('budget')).toBe(r.status === 'escalated');
        expect(r.budget.used <= r.budget.limit).toBe(r.status !== 'escalated');
        // A warning status is reported by the status check, at severity warning (it does not fail).
        expect(names.includes('status')).toBe(r.status !== 'ok');
        expect(providerErrors(r)).toEqual([]);
        for (const planted of g.planted) expect(JSON.stringify(r)).not.toContain(planted.value);
      }
    },
  );
});

it('keeps a session with only an assistant reply intact', () => {
  const tr = t(asst('a', 'Hello! How can I help?'));
  expect(run(tr).context.map((c) => c.id)).toEqual(['a']);
});
