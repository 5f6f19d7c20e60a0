// The LangChain.js adapter: an agent middleware for `createAgent` (langchain v1) that stabilizes
// what the model receives before each model call. It works in `wrapModelCall`, which changes only
// the request handed to the model: the agent's state (and so a checkpointer's thread) keeps the
// full history, which is what the stabilizer records and what the next call is stabilized from.
// `beforeModel` would have to rewrite the state, losing for good what one call left out.
// 'langchain' is the one package imported at run time (it re-exports @langchain/core's messages).
import { HumanMessage, SystemMessage, createMiddleware } from 'langchain';
import type { BaseMessage, ModelRequest } from 'langchain';
import type { Artifact } from '../core/types.js';
import { ContextEscalatedError, ContextHaltedError } from '../runtime/errors.js';
import type { ContextStabilizer, StabilizedCall } from '../runtime/stabilizer.js';
import { messageFor, toStoredMessage } from './langchain-messages.js';

export interface LangChainMiddlewareOptions {
  /**
   * The stabilizer session of a model call: a name, or a function of the request. Default: the
   * run's `configurable.thread_id` when there is one, else `default`.
   */
  session?: string | ((request: ModelRequest) => string);
}

export interface StabilizeMessagesOptions {
  /** Default `default`. */
  session?: string;
  /** The system prompt sent ahead of `messages` (createAgent keeps it out of the state). */
  systemMessage?: SystemMessage;
}

export interface StabilizedMessages {
  /**
   * The system prompt to send, when one was given: the original object when unchanged, an empty
   * one when the system message moved into `messages` or left the context.
   */
  systemMessage?: SystemMessage;
  /** The messages to send after the system prompt. */
  messages: BaseMessage[];
  call: StabilizedCall;
}

/** The session of a request: the option, else the run's thread id, else `default`. */
export function sessionOf(request: ModelRequest, option?: LangChainMiddlewareOptions['session']): string {
  if (typeof option === 'function') return option(request);
  if (option !== undefined) return option;
  const thread: unknown = request.runtime?.configurable?.thread_id;
  return typeof thread === 'string' || typeof thread === 'number' ? String(thread) : 'default';
}

/** The system prompt as createAgent prepends it: left out when its text is empty. */
function sentSystem(system: SystemMessage | undefined): boolean {
  return system !== undefined && system.text !== '';
}

/**
 * Stabilizes LangChain messages (and the system prompt sent ahead of them) under the stabilizer's
 * policy and returns what to send: the original message objects where the stabilizer kept them
 * unchanged, copies of the same class with its text where it changed them, in the context's order,
 * and a placeholder HumanMessage (repair.leading_user_text) before a leading AIMessage when the
 * policy's target requires a user turn first (`anthropic`, or `same`: both APIs).
 * Throws ContextEscalatedError when escalated and the policy says stop.
 */
export async function stabilizeLangChainMessages(
  stabilizer: ContextStabilizer,
  messages: readonly BaseMessage[],
  opts: StabilizeMessagesOptions = {},
): Promise<StabilizedMessages> {
  const system = opts.systemMessage;
  const originals: BaseMessage[] = sentSystem(system) ? [system!, ...messages] : [...messages];
  // `native` checks the context against the policy's `target` API, or both APIs when it is `same`
  // (a LangChain agent can call any model): the same verdict CI gives the recording.
  const call = await stabilizer.stabilize(originals.map(toStoredMessage), 'native', {
    ...(opts.session !== undefined ? { session: opts.session } : {}),
    format: 'langchain',
  });
  const read = new Map<string, Artifact>(call.transcript.artifacts.map((a) => [a.id, a]));
  const out: BaseMessage[] = [];
  // A system prompt the context left out, or moved among the messages, is sent empty (not at all).
  let systemOut: SystemMessage | undefined = sentSystem(system) ? new SystemMessage('') : system;
  call.result.context.forEach((item, position) => {
    // Message i was read as artifact `m<i>` (src/core/readers/langchain.ts).
    const index = /^m(\d+)$/.exec(item.id)?.[1];
    const original = index === undefined ? undefined : originals[Number(index)];
    const artifact = read.get(item.id);
    if (original === undefined || artifact === undefined)
      throw new Error(
        `context-stability: the stabilized context names an item (${item.id}) that is not one of the messages`,
      );
    const message = messageFor(original, artifact, item);
    if (original === system && position === 0) systemOut = message as SystemMessage;
    else out.push(message);
  });
  // A context that opens with an assistant turn, checked for an API that requires a user turn first
  // (a LangChain agent can call Anthropic): the placeholder user turn the verdict checked is sent.
  const first = out.findIndex((m) => m.type !== 'system');
  if (call.repair && out[first]?.type === 'ai') out.splice(first, 0, new HumanMessage(call.repair.text));
  return { ...(systemOut !== undefined ? { systemMessage: systemOut } : {}), messages: out, call };
}

/**
 * The error a LangChain agent run rejected with, as the ContextEscalatedError the middleware threw:
 * LangChain wraps errors thrown in a middleware (MiddlewareError, with the original as `cause`).
 */
export function contextEscalationOf(error: unknown): ContextEscalatedError | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (e instanceof ContextEscalatedError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The same for the guardian's halt (ContextHaltedError), when the stabilizer has a guardian link. */
export function contextHaltOf(error: unknown): ContextHaltedError | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (e instanceof ContextHaltedError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Agent middleware for LangChain.js v1 `createAgent`: before each model call, the messages and the
 * system prompt are stabilized under the stabilizer's policy (budget, PII masking, tool-call
 * pairing, protection); the agent's state keeps the full history. An escalated context rejects the
 * run before the model is called (`contextEscalationOf(error)` finds the ContextEscalatedError)
 * unless the policy's `runtime.on_escalated` is `continue`.
 *
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [contextStabilityMiddleware(createContextStabilizer())] });
 * ```
 */
export function contextStabilityMiddleware(
  stabilizer: ContextStabilizer,
  opts: LangChainMiddlewareOptions = {},
) {
  return createMiddleware({
    name: 'ContextStabilityMiddleware',
    wrapModelCall: async (request, handler) => {
      const session = sessionOf(request, opts.session);
      const systemMessage: SystemMessage | undefined =
        request.systemMessage ??
        (request.systemPrompt !== undefined && request.systemPrompt !== ''
          ? new SystemMessage(request.systemPrompt)
          : undefined);
      const out = await stabilizeLangChainMessages(stabilizer, request.messages, {
        session,
        ...(systemMessage !== undefined ? { systemMessage } : {}),
      });
      if (request.systemMessage !== undefined || out.systemMessage === undefined)
        return handler({
          ...request,
          messages: out.messages,
          ...(out.systemMessage ? { systemMessage: out.systemMessage } : {}),
        });
      // A langchain without `systemMessage` takes the prompt as text; changing both is refused.
      return handler({ ...request, messages: out.messages, systemPrompt: out.systemMessage.text });
    },
  });
}
