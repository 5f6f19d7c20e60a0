// The request-body adapters with the SDKs' own request types (issue 29): the bodies below are
// declared the way the OpenAI and Anthropic SDKs declare theirs (interfaces, so no index signature;
// unions of message params), and the stabilized body goes to a `create` that takes exactly that type.
// `npm test` type-checks this file: an adapter signature that refuses the SDK type (TS2345) or
// returns what `create` refuses (TS2769) fails the run before any test does.
import { describe, expect, it } from 'vitest';
import { stabilizeAnthropicRequest, stabilizeOpenAIRequest } from '../../src/adapters/request-body.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';

interface TextPart {
  type: 'text';
  text: string;
}
interface ChatCompletionSystemMessageParam {
  role: 'system';
  content: string | TextPart[];
  name?: string;
}
interface ChatCompletionUserMessageParam {
  role: 'user';
  content: string | TextPart[];
  name?: string;
}
interface ChatCompletionAssistantMessageParam {
  role: 'assistant';
  content?: string | TextPart[] | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}
interface ChatCompletionToolMessageParam {
  role: 'tool';
  content: string | TextPart[];
  tool_call_id: string;
}
type ChatCompletionMessageParam =
  | ChatCompletionSystemMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam;
interface ChatCompletionCreateParamsNonStreaming {
  model: string;
  messages: ChatCompletionMessageParam[];
  stream?: false | null;
  temperature?: number | null;
}

interface ToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}
interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | TextPart[];
  is_error?: boolean;
}
interface MessageParam {
  role: 'user' | 'assistant';
  content: string | (TextPart | ToolUseBlockParam | ToolResultBlockParam)[];
}
interface MessageCreateParamsNonStreaming {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | TextPart[];
  stream?: false;
}

/** What an SDK's `create` would receive: only a body of its own type compiles. */
const openai = { create: (body: ChatCompletionCreateParamsNonStreaming) => body };
const anthropic = { create: (body: MessageCreateParamsNonStreaming) => body };

describe('request bodies typed with the SDKs’ own types', () => {
  it('OpenAI: ChatCompletionCreateParamsNonStreaming in, a body its create accepts out', async () => {
    const cs = createContextStabilizer({ policy: { budget: 500 }, onWarning: () => {} });
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-4o',
      temperature: 0,
      messages: [
        { role: 'system', content: 'You help.' },
        { role: 'user', content: 'Mail jane.roe@example.com the report.' },
      ],
    };
    const sent = openai.create(await stabilizeOpenAIRequest(cs, body, { session: 'typed' }));
    expect(sent.model).toBe('gpt-4o');
    expect(sent.temperature).toBe(0);
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You help.' },
      { role: 'user', content: 'Mail [EMAIL_1] the report.' },
    ]);
  });

  it('Anthropic: MessageCreateParamsNonStreaming in, a body its create accepts out', async () => {
    const cs = createContextStabilizer({ policy: { budget: 500 }, onWarning: () => {} });
    const body: MessageCreateParamsNonStreaming = {
      model: 'claude',
      max_tokens: 100,
      system: 'You help.',
      messages: [{ role: 'user', content: 'Mail jane.roe@example.com the report.' }],
    };
    const sent = anthropic.create(await stabilizeAnthropicRequest(cs, body, { session: 'typed' }));
    expect(sent.max_tokens).toBe(100);
    expect(sent.system).toBe('You help.');
    expect(JSON.stringify(sent.messages)).toContain('[EMAIL_1]');
    expect(JSON.stringify(sent.messages)).not.toContain('jane.roe');
  });
});
