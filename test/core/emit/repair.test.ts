// Repair before escalating (issue 27, DESIGN §4 stage 9): a chat that opens with an assistant turn is
// sent to the Anthropic Messages API (which requires a user turn first) with a placeholder user turn
// before it, holding the policy's `repair.leading_user_text`; the ledger and the events say so, and
// the run is not escalated for it. Only what no repair can make valid escalates.
import { describe, expect, it } from 'vitest';
import { toTranscript } from '../../../src/api/input.js';
import type { TranscriptInput } from '../../../src/api/input.js';
import { resolvePolicy } from '../../../src/api/policy.js';
import { policyFromObject } from '../../../src/core/policy/index.js';
import type { PolicyOption } from '../../../src/api/policy.js';
import { emitContext, toAnthropic, toOpenAI, toResponses } from '../../../src/core/emit/index.js';
import type { AnthropicRequest } from '../../../src/core/emit/anthropic.js';
import { toAnthropicWithOrigins } from '../../../src/core/emit/anthropic.js';
import { emitEffects } from '../../../src/core/emit/notes.js';
import { DEFAULT_LEADING_USER_TEXT, emitOptionsOf } from '../../../src/core/emit/repair.js';
import { verifyAnthropic, verifyOpenAI } from '../../../src/core/emit/verify.js';
import type { EmitFormat } from '../../../src/core/emit/index.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import type { Transcript } from '../../../src/core/types.js';
import { loadPolicyTokenizer } from '../../../src/tokens/load.js';
import { ci } from './helpers.js';

const NOTE =
  'anthropic: repaired: a placeholder user turn was put before it (repair.leading_user_text) because the Anthropic Messages API requires a user turn first';

/** The chat: a system prompt, an assistant greeting, then the user's request. */
const GREETING = [
  { role: 'system', content: 'You are the booking agent of a travel shop.' },
  { role: 'assistant', content: 'Hi! How can I help?' },
  { role: 'user', content: 'book a flight' },
];

async function run(
  input: TranscriptInput,
  format: 'openai' | 'native',
  policy: PolicyOption = {},
  emit?: EmitFormat,
): Promise<{ transcript: Transcript; result: StabilizeResult; checks: ReturnType<typeof validateResult> }> {
  const parsed = resolvePolicy(policy);
  const tokenizer = await loadPolicyTokenizer(parsed.policy);
  const transcript = toTranscript(input, { format });
  const opts = { policy: parsed.policy, tokenizer, rules: parsed.rules, ...(emit ? { emit } : {}) };
  const result = stabilizeTranscript(transcript, opts);
  return { transcript, result, checks: validateResult(transcript, result, opts) };
}

describe('the emitters and a leading assistant turn', () => {
  const context = [
    ci('s', 'system', 'You are the booking agent.'),
    ci('a', 'assistant', 'Hi! How can I help?'),
    ci('u', 'user', 'book a flight'),
  ];

  it('Anthropic: a placeholder user turn with the default text comes first, and the rules accept it', () => {
    const req = toAnthropic(context);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(req.messages[0]?.content).toEqual([{ type: 'text', text: DEFAULT_LEADING_USER_TEXT }]);
    expect(DEFAULT_LEADING_USER_TEXT).toBe('[The conversation continues from earlier turns.]');
    expect(verifyAnthropic(req)).toEqual([]);
    // Without the repair the API would answer 400: the rule still holds on a raw request.
    expect(verifyAnthropic({ ...req, messages: req.messages.slice(1) })).toEqual([
      'anthropic-first-message-user: messages.0: the first message is an assistant turn (Anthropic answers 400: "messages: first message must use the "user" role")',
    ]);
  });

  it('Anthropic: the text comes from the options; the note is on the item the turn stands before', () => {
    const out = toAnthropicWithOrigins(context, { leadingUserText: 'Earlier turns were left out.' });
    expect(out.request.messages[0]?.content).toEqual([
      { type: 'text', text: 'Earlier turns were left out.' },
    ]);
    expect(out.repairedBefore).toBe('a');
    expect(out.blocks[0]).toEqual(['a']);
    expect(out.notes.get('a')).toEqual([NOTE]);
    const body = emitContext(context, 'anthropic', undefined, {
      leadingUserText: 'Earlier turns were left out.',
    });
    expect((body as AnthropicRequest).messages[0]?.content).toEqual([
      { type: 'text', text: 'Earlier turns were left out.' },
    ]);
  });

  it('a history with no user message at all is repaired the same way', () => {
    const req = toAnthropic([ci('s', 'system', 'Be brief.'), ci('a', 'assistant', 'Hello there.')]);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(verifyAnthropic(req)).toEqual([]);
  });

  it('a request that starts with a user turn is not touched', () => {
    const out = toAnthropicWithOrigins([ci('u', 'user', 'hi'), ci('a', 'assistant', 'hello')]);
    expect(out.request.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(out.repairedBefore).toBeUndefined();
    expect(out.notes.size).toBe(0);
  });

  it('Chat Completions and Responses take an assistant turn first: no placeholder, no note', () => {
    const messages = toOpenAI(context);
    expect(messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(verifyOpenAI(messages)).toEqual([]);
    expect(JSON.stringify(toResponses(context))).not.toContain(DEFAULT_LEADING_USER_TEXT);
    const { notes, events } = emitEffects(context, ['openai', 'responses']);
    expect(notes.size).toBe(0);
    expect(events).toEqual([]);
  });

  it('emitEffects gives the note and one `repaired` event (major) for the Anthropic request', () => {
    const { notes, events } = emitEffects(context, ['openai', 'anthropic']);
    expect(notes.get('a')).toEqual([NOTE]);
    expect(events).toEqual([
      {
        level: 'major',
        code: 'repaired',
        message:
          'the anthropic request starts with an assistant turn: a placeholder user turn (repair.leading_user_text) was put before it, because the Anthropic Messages API requires a user turn first',
        id: 'a',
      },
    ]);
  });
});

describe('stabilize: a chat that opens with an assistant greeting', () => {
  it('OpenAI chat emitted for Anthropic: not escalated, the provider check passes, ledger note and event', async () => {
    const { result, checks } = await run(GREETING, 'openai', {}, 'anthropic');
    expect(result.status).toBe('ok');
    expect(result.events.map((e) => e.code)).not.toContain('provider_rejects');
    expect(result.events.filter((e) => e.code === 'repaired')).toEqual([
      expect.objectContaining({ level: 'major', code: 'repaired', id: 'm1' }),
    ]);
    expect(result.ledger.find((e) => e.id === 'm1')?.emit).toEqual([NOTE]);
    expect(checks.find((c) => c.name === 'provider')).toMatchObject({ ok: true, violations: [] });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    const body = emitContext(result.context, 'anthropic') as AnthropicRequest;
    expect(verifyAnthropic(body)).toEqual([]);
    expect(body.messages[0]?.content).toEqual([{ type: 'text', text: DEFAULT_LEADING_USER_TEXT }]);
  });

  it('a native transcript (checked for both APIs) is not escalated; the policy text is used', async () => {
    const native = {
      format: 'context-stability/v1',
      artifacts: GREETING.map((m, i) => ({ id: `n${i}`, kind: m.role, content: m.content })),
    };
    const text = 'Earlier turns were left out; ask ops@example.com.';
    const policy = { repair: { leading_user_text: text } };
    const { result } = await run(native, 'native', policy);
    expect(result.status).toBe('ok');
    expect(result.events.find((e) => e.code === 'repaired')).toMatchObject({ id: 'n1', level: 'major' });
    const parsed = resolvePolicy(policy).policy;
    const body = emitContext(
      result.context,
      'anthropic',
      undefined,
      emitOptionsOf(parsed),
    ) as AnthropicRequest;
    expect(body.messages[0]?.content).toEqual([{ type: 'text', text }]);
    expect(verifyAnthropic(body)).toEqual([]);
  });

  it('the budget cut leaves a history starting with an answer: repaired, not escalated', async () => {
    const long = (n: number): string => `Step ${n} of the plan. ` + 'More notes on the plan. '.repeat(60);
    const history = [
      { role: 'system', content: 'You are a planning agent.' },
      ...[1, 2, 3, 4, 5].map((n) => ({ role: 'assistant', content: long(n) })),
      { role: 'user', content: 'go on with the last step' },
    ];
    const { result, checks } = await run(history, 'openai', { budget: 900 }, 'anthropic');
    expect(result.ledger.some((e) => e.action !== 'kept')).toBe(true);
    expect(result.status).not.toBe('escalated');
    const body = emitContext(result.context, 'anthropic') as AnthropicRequest;
    expect(verifyAnthropic(body)).toEqual([]);
    // The oldest answers are left out; the kept history starts with a later one.
    const first = result.context.find((c) => c.kind !== 'system');
    expect(first).toMatchObject({ kind: 'assistant' });
    expect(first?.id).not.toBe('m1');
    expect(result.events.find((e) => e.code === 'repaired')?.id).toBe(first?.id);
    expect(body.messages[0]?.content).toEqual([{ type: 'text', text: DEFAULT_LEADING_USER_TEXT }]);
    expect(checks.find((c) => c.name === 'provider')?.ok).toBe(true);
  });

  it('refuses a blank placeholder in the policy: no request could open with it', () => {
    const parsed = policyFromObject({ repair: { leading_user_text: '   ' } }, { file: 'policy.yml' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.diagnostics[0]?.message).toContain('only spaces');
  });

  it('a context with no conversation still escalates (nothing to put a user turn before)', async () => {
    const { result } = await run([{ role: 'system', content: 'Be brief.' }], 'openai', {}, 'anthropic');
    expect(result.status).toBe('escalated');
    expect(result.events.map((e) => e.code)).toContain('empty_context');
    expect(result.events.map((e) => e.code)).not.toContain('repaired');
  });
});
