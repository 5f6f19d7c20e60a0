// The Vercel AI SDK adapter (AI SDK 6 and 7; middleware v3, which 7 accepts): a language-model
// middleware whose transformParams stabilizes the provider-level prompt of every call, generateText
// and streamText alike, each step of a tool loop included. Only types come from the SDK, so it is
// needed only by those who use this adapter.
import type { LanguageModelMiddleware } from 'ai';
import type { ContextStabilizer } from '../runtime/stabilizer.js';
import { readablePrompt, rebuildPrompt } from './ai-sdk-prompt.js';
import type { AiSdkCallParams, AiSdkPrompt } from './ai-sdk-prompt.js';

export type { AiSdkCallParams, AiSdkPrompt } from './ai-sdk-prompt.js';

/** The providerOptions key a call can name its session under: `{ contextStability: { session } }`. */
export const SESSION_OPTION_KEY = 'contextStability';

export interface AiSdkMiddlewareOptions {
  /**
   * The conversation a call belongs to (state and recordings are per session): a name, or a
   * function of the call's parameters. Default: the call's
   * `providerOptions.contextStability.session`, else `default`.
   */
  session?: string | ((params: AiSdkCallParams) => string | undefined);
}

function sessionOf(params: AiSdkCallParams, opts: AiSdkMiddlewareOptions): string | undefined {
  if (typeof opts.session === 'string') return opts.session;
  if (opts.session) return opts.session(params);
  const own = params.providerOptions?.[SESSION_OPTION_KEY]?.['session'];
  return typeof own === 'string' && own !== '' ? own : undefined;
}

/**
 * The prompt stabilized under the stabilizer's policy, as a provider-valid prompt: the kept messages
 * in the context's order, each rebuilt from its original parts, and a placeholder user message
 * (repair.leading_user_text) before a leading assistant message when the policy's target requires a
 * user turn first (`anthropic`, or `same`: both APIs). Throws ContextEscalatedError when the context
 * is escalated and the policy says stop.
 */
export async function stabilizeAiSdkPrompt(
  stabilizer: ContextStabilizer,
  prompt: AiSdkPrompt,
  call: { session?: string } = {},
): Promise<AiSdkPrompt> {
  // `native`: the request is rebuilt here, not emitted; the verdict then applies the rules of the
  // policy's target (default: both chat APIs, as the check of a recording does).
  const out = await stabilizer.stabilize(readablePrompt(prompt), 'native', {
    ...(call.session !== undefined ? { session: call.session } : {}),
    format: 'vercel-ai',
  });
  const rebuilt = rebuildPrompt(prompt, out.transcript.artifacts, out.result.context);
  // A context that opens with an assistant turn, checked for an API that requires a user turn first
  // (the model may be Anthropic's): the placeholder user turn the verdict checked is sent.
  const first = rebuilt.findIndex((m) => m.role !== 'system');
  if (out.repair && rebuilt[first]?.role === 'assistant')
    rebuilt.splice(first, 0, { role: 'user', content: [{ type: 'text', text: out.repair.text }] });
  return rebuilt;
}

/**
 * `wrapLanguageModel({ model, middleware: contextStabilityMiddleware(stabilizer) })`: every call of
 * the wrapped model sends the stabilized prompt. ContextEscalatedError propagates to the caller of
 * generateText/streamText before the model is called.
 */
export function contextStabilityMiddleware(
  stabilizer: ContextStabilizer,
  opts: AiSdkMiddlewareOptions = {},
): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const session = sessionOf(params, opts);
      const prompt = await stabilizeAiSdkPrompt(
        stabilizer,
        params.prompt,
        session !== undefined ? { session } : {},
      );
      return { ...params, prompt };
    },
  };
}
