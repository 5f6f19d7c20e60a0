// Repair before escalating in the agent (issue 27): a history that opens with an assistant greeting
// no longer throws ContextEscalatedError. The Anthropic request-body adapter sends the placeholder
// user turn the emitter puts first; the AI SDK and LangChain adapters, whose model may be Anthropic's
// (the policy's `target: same` checks both APIs), put the same placeholder before their leading
// assistant message; with `target: openai` (a leading assistant turn is fine) nothing is added.
import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage } from 'langchain';
import { stabilizeAiSdkPrompt } from '../../src/adapters/ai-sdk.js';
import type { AiSdkPrompt } from '../../src/adapters/ai-sdk.js';
import { stabilizeLangChainMessages } from '../../src/adapters/langchain.js';
import { stabilizeAnthropicRequest, stabilizeOpenAIRequest } from '../../src/adapters/request-body.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import { DEFAULT_LEADING_USER_TEXT } from '../../src/core/emit/repair.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import type { PolicyOption } from '../../src/api/policy.js';

const NOTE =
  'anthropic: repaired: a placeholder user turn was put before it (repair.leading_user_text) because the Anthropic Messages API requires a user turn first';

const stabilizer = (policy: PolicyOption = {}) =>
  createContextStabilizer({ policy: { budget: 2000, ...(policy as object) }, onWarning: () => {} });

describe('the Anthropic request-body adapter', () => {
  it('sends a chat that opens with an assistant greeting with a placeholder user turn first', async () => {
    const body = {
      model: 'claude-test',
      max_tokens: 256,
      system: 'You are the booking agent of a travel shop.',
      messages: [
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'book a flight' },
      ],
    };
    const out = await stabilizeAnthropicRequest(stabilizer(), body, { session: 'greeting' });
    expect(verifyAnthropic(out)).toEqual([]);
    expect(out.model).toBe('claude-test');
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out.messages[0]?.content).toEqual([{ type: 'text', text: DEFAULT_LEADING_USER_TEXT }]);
  });

  it('uses the policy text, masked like every text; the call says what it repaired', async () => {
    const text = 'Earlier turns were left out; write to ops@example.com.';
    const cs = stabilizer({ repair: { leading_user_text: text } });
    const call = await cs.stabilize(
      {
        messages: [
          { role: 'assistant', content: 'Hi! How can I help?' },
          { role: 'user', content: 'book a flight' },
        ],
      },
      'anthropic',
      { format: 'anthropic', session: 's' },
    );
    const payload = call.payload as Parameters<typeof verifyAnthropic>[0];
    expect(verifyAnthropic(payload)).toEqual([]);
    const sent = payload.messages[0]?.content[0]?.['text'];
    expect(sent).toContain('Earlier turns were left out; write to ');
    expect(sent).not.toContain('ops@example.com');
    expect(call.repair).toEqual({ before: 'm0', text: sent });
    expect(call.result.status).toBe('ok');
    expect(call.result.events.find((e) => e.code === 'repaired')).toMatchObject({ level: 'major', id: 'm0' });
    expect(call.result.ledger.find((e) => e.id === 'm0')?.emit).toEqual([NOTE]);
  });

  it('an OpenAI body that opens with an assistant turn is sent as it is (Chat Completions accepts it)', async () => {
    const messages = [
      { role: 'system', content: 'You are the booking agent.' },
      { role: 'assistant', content: 'Hi! How can I help?' },
      { role: 'user', content: 'book a flight' },
    ];
    const out = await stabilizeOpenAIRequest(stabilizer(), { messages });
    expect(out.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(verifyOpenAI(out.messages)).toEqual([]);
  });
});

describe('the AI SDK adapter', () => {
  const prompt: AiSdkPrompt = [
    { role: 'system', content: 'You are the booking agent of a travel shop.' },
    { role: 'assistant', content: [{ type: 'text', text: 'Hi! How can I help?' }] },
    { role: 'user', content: [{ type: 'text', text: 'book a flight' }] },
  ];

  it('target same (both APIs): a placeholder user message goes before the greeting, with the policy text', async () => {
    const cs = stabilizer({ repair: { leading_user_text: 'Earlier turns were left out.' } });
    const out = await stabilizeAiSdkPrompt(cs, prompt, { session: 'ai' });
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(out[1]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Earlier turns were left out.' }],
    });
    expect(out[2]).toBe(prompt[1]);
    expect(out[3]).toBe(prompt[2]);
  });

  it('target openai: the prompt is sent as it is', async () => {
    const out = await stabilizeAiSdkPrompt(stabilizer({ target: 'openai' }), prompt);
    expect(out).toEqual(prompt);
  });
});

describe('the LangChain adapter', () => {
  const system = new SystemMessage('You are the booking agent of a travel shop.');
  const greeting = new AIMessage({ content: 'Hi! How can I help?', id: 'a1' });
  const request = new HumanMessage({ content: 'book a flight', id: 'h1' });

  it('target same (both APIs): a placeholder HumanMessage goes before the greeting', async () => {
    const out = await stabilizeLangChainMessages(stabilizer(), [greeting, request], {
      systemMessage: system,
      session: 'lc',
    });
    expect(out.systemMessage).toBe(system);
    expect(out.messages).toHaveLength(3);
    expect(HumanMessage.isInstance(out.messages[0])).toBe(true);
    expect(out.messages[0]?.text).toBe(DEFAULT_LEADING_USER_TEXT);
    expect(out.messages[1]).toBe(greeting);
    expect(out.messages[2]).toBe(request);
    expect(out.call.result.status).toBe('ok');
  });

  it('target openai: the messages are sent as they are', async () => {
    const out = await stabilizeLangChainMessages(stabilizer({ target: 'openai' }), [greeting, request], {
      systemMessage: system,
    });
    expect(out.messages).toEqual([greeting, request]);
    expect(out.call.repair).toBeUndefined();
  });
});
