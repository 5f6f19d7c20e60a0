// The providers' rules checked on an emitted request body, as plain messages: a request that breaks
// one would be answered with HTTP 400. The same rules back the `provider` check
// (provider-rules.ts), which also says which transcript line each finding came from.
import type { AnthropicRequest } from './anthropic.js';
import { anthropicRuleHits } from './anthropic-rules.js';
import type { OpenAIMessage } from './openai.js';
import { openaiRuleHits } from './openai-rules.js';

/** Chat Completions: every rule `messages` breaks, in request order; empty when the API accepts it. */
export function verifyOpenAI(messages: readonly OpenAIMessage[]): string[] {
  return openaiRuleHits(messages).map((h) => `${h.rule}: ${h.message}`);
}

/** Messages API: every rule `req` breaks that can be seen in the request alone, in request order. */
export function verifyAnthropic(req: AnthropicRequest): string[] {
  return anthropicRuleHits(req).map((h) => `${h.rule}: ${h.message}`);
}
