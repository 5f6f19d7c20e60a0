// The plain adapter: an OpenAI Chat Completions or Anthropic Messages request body in, the same body
// with its history stabilized out. Every other field (model, tools, max_tokens…) passes through.
// Typed for the SDKs' own request types without importing them (issue 29): the body type is kept,
// so the result goes to the SDK's `create` as it is. The SDKs declare interfaces, which have no
// index signature: the bounds below name only the fields read.
import type { AnthropicRequest } from '../core/emit/anthropic.js';
import type { OpenAIMessage } from '../core/emit/openai.js';
import type { CallOptions, ContextStabilizer } from '../runtime/stabilizer.js';

/** The part of a Chat Completions request this reads and replaces. */
export interface OpenAIChatBody {
  messages: readonly unknown[];
}

/** The part of a Messages request this reads and replaces. */
export interface AnthropicMessagesBody {
  system?: unknown;
  messages: readonly unknown[];
}

/**
 * `body` with `messages` stabilized (OpenAI Chat Completions; tool calls and results stay paired).
 * The messages are typed both as the body's own (an SDK's message type) and as OpenAIMessage: the
 * stabilized messages are messages of the same API.
 */
export async function stabilizeOpenAIRequest<B extends OpenAIChatBody>(
  stabilizer: ContextStabilizer,
  body: B,
  call: Omit<CallOptions, 'format'> = {},
): Promise<Omit<B, 'messages'> & { messages: B['messages'] & OpenAIMessage[] }> {
  const out = await stabilizer.stabilize<{ messages: OpenAIMessage[] }>(
    { messages: body.messages },
    'openai',
    {
      ...call,
      format: 'openai',
    },
  );
  return { ...body, messages: out.payload.messages as B['messages'] & OpenAIMessage[] };
}

/**
 * `body` with `system` and `messages` stabilized (Anthropic Messages: user first, alternation,
 * tool_result blocks first in their turn). `system` is left out when the context has none. A history
 * that opens with an assistant turn gets a placeholder user turn first (repair.leading_user_text).
 */
export async function stabilizeAnthropicRequest<B extends AnthropicMessagesBody>(
  stabilizer: ContextStabilizer,
  body: B,
  call: Omit<CallOptions, 'format'> = {},
): Promise<
  Omit<B, 'system' | 'messages'> & {
    system?: B['system'] & AnthropicRequest['system'];
    messages: B['messages'] & AnthropicRequest['messages'];
  }
> {
  const history =
    body.system === undefined
      ? { messages: body.messages }
      : { system: body.system, messages: body.messages };
  const out = await stabilizer.stabilize<AnthropicRequest>(history, 'anthropic', {
    ...call,
    format: 'anthropic',
  });
  const { system: _system, messages: _messages, ...rest } = body;
  // The stabilized system and messages are those of the same API: typed as the body's own too.
  const payload = out.payload as {
    system?: B['system'] & AnthropicRequest['system'];
    messages: B['messages'] & AnthropicRequest['messages'];
  };
  return { ...rest, ...payload };
}
