// The plain adapter: an OpenAI Chat Completions or Anthropic Messages request body in, the same body
// with its history stabilized out. Every other field (model, tools, max_tokens…) passes through.
import type { AnthropicRequest } from '../core/emit/anthropic.js';
import type { OpenAIMessage } from '../core/emit/openai.js';
import type { CallOptions, ContextStabilizer } from '../runtime/stabilizer.js';

/** The part of a Chat Completions request this reads and replaces. */
export interface OpenAIChatBody {
  messages: readonly unknown[];
  [key: string]: unknown;
}

/** The part of a Messages request this reads and replaces. */
export interface AnthropicMessagesBody {
  system?: unknown;
  messages: readonly unknown[];
  [key: string]: unknown;
}

/** `body` with `messages` stabilized (OpenAI Chat Completions; tool calls and results stay paired). */
export async function stabilizeOpenAIRequest<B extends OpenAIChatBody>(
  stabilizer: ContextStabilizer,
  body: B,
  call: Omit<CallOptions, 'format'> = {},
): Promise<B & { messages: OpenAIMessage[] }> {
  const out = await stabilizer.stabilize<{ messages: OpenAIMessage[] }>(
    { messages: body.messages },
    'openai',
    {
      ...call,
      format: 'openai',
    },
  );
  return { ...body, messages: out.payload.messages };
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
): Promise<Omit<B, 'system' | 'messages'> & AnthropicRequest> {
  const history =
    body.system === undefined
      ? { messages: body.messages }
      : { system: body.system, messages: body.messages };
  const out = await stabilizer.stabilize<AnthropicRequest>(history, 'anthropic', {
    ...call,
    format: 'anthropic',
  });
  const { system: _system, messages: _messages, ...rest } = body;
  return { ...rest, ...out.payload };
}
