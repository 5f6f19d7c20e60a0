// The warm rows, in this process over src/ (tsx): one session per adapter and history size, called
// as an agent loop calls it, each call adding 1–3 messages, the framework's message objects of
// earlier calls reused. One more row, `ai-sdk-rebuilt`: generateText and streamText build the
// provider prompt anew at every step (convertToLanguageModelPrompt), so there no message object of
// an earlier call comes back; the copy is made outside the timed region. Also the workload of
// `--profile`.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from 'langchain';
import type { BaseMessage } from 'langchain';
import { contextStabilityMiddleware } from '../../src/adapters/ai-sdk.js';
import type { AiSdkCallParams } from '../../src/adapters/ai-sdk.js';
import { stabilizeLangChainMessages } from '../../src/adapters/langchain.js';
import { contextStabilityInputFilter } from '../../src/adapters/openai-agents.js';
import { stabilizeOpenAIRequest } from '../../src/adapters/request-body.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import { median } from '../timing.js';
import { AI_SDK_REBUILT } from './names.js';
import type { WarmName } from './names.js';
import { POLICY, callPoints } from './shapes.js';
import type { Histories, LcSpec } from './shapes.js';

export interface WarmRow {
  adapter: WarmName;
  messages: number;
  /** Timed calls (the session's first call is not one of them). */
  calls: number;
  /** The session's first call (tokenizer already loaded), ms. */
  firstMs: number;
  medianMs: number;
  p90Ms: number;
  /** Messages or items sent by the last call, of those given: the bench measured real work. */
  sent: number;
  given: number;
}

/**
 * One call of the adapter on the history up to OpenAI message k: the call's input is made (untimed:
 * the framework's work), then the returned function is the call (timed); it gives what it sent
 * and was given.
 */
export type Caller = (k: number) => () => Promise<{ sent: number; given: number }>;

const LC_CLASSES = { system: SystemMessage, human: HumanMessage, ai: AIMessage, tool: ToolMessage };

/** LangChain message objects from their specs (bench/adapter-cost/child.mjs does the same). */
export function langchainMessages(specs: readonly LcSpec[]): BaseMessage[] {
  return specs.map((s) => new LC_CLASSES[s.cls](s.fields as never));
}

function stabilizer() {
  // A generated session may escalate at this budget: the cost is what is measured, so it goes on.
  return createContextStabilizer({ policy: POLICY, onEscalated: 'continue', onWarning: () => {} });
}

/** A new stabilizer and session for `adapter` over `h`; the framework objects are made here, once. */
export function caller(adapter: WarmName, h: Histories, session: string): Caller {
  const cs = stabilizer();
  switch (adapter) {
    case 'stabilizer':
      return (k) => {
        const messages = h.openai.slice(0, k);
        return async () => {
          const out = await cs.stabilize<{ messages: unknown[] }>({ messages }, 'openai', {
            session,
            format: 'openai',
          });
          return { sent: out.payload.messages.length, given: k };
        };
      };
    case 'request-body':
      return (k) => {
        const body = { model: 'gpt-4.1', temperature: 0, messages: h.openai.slice(0, k) };
        return async () => {
          const out = await stabilizeOpenAIRequest(cs, body, { session });
          return { sent: out.messages.length, given: k };
        };
      };
    case 'ai-sdk':
    case AI_SDK_REBUILT: {
      const transform = contextStabilityMiddleware(cs, { session }).transformParams!;
      const prompt = h.aiSdk.items as unknown as AiSdkCallParams['prompt'];
      const fresh = adapter === AI_SDK_REBUILT;
      return (k) => {
        const sliced = prompt.slice(0, h.aiSdk.ends[k]);
        const params: AiSdkCallParams = {
          prompt: fresh ? structuredClone(sliced) : sliced,
          maxOutputTokens: 1024,
        };
        return async () => {
          const out = await transform({ type: 'generate', params, model: undefined as never });
          return { sent: out.prompt.length, given: params.prompt.length };
        };
      };
    }
    case 'langchain': {
      // createAgent keeps the system prompt out of the state and hands it over beside the messages.
      const [system, ...rest] = langchainMessages(h.langchain.items);
      const systemMessage = system as SystemMessage;
      return (k) => {
        const messages = rest.slice(0, h.langchain.ends[k]! - 1);
        return async () => {
          const out = await stabilizeLangChainMessages(cs, messages, { session, systemMessage });
          return { sent: out.messages.length, given: messages.length };
        };
      };
    }
    case 'openai-agents': {
      const filter = contextStabilityInputFilter(cs, { session });
      const agent = { name: 'coder' };
      return (k) => {
        const modelData = {
          input: h.agents.items.slice(0, h.agents.ends[k]),
          instructions: h.agents.instructions,
        };
        return async () => {
          const out = await filter({ modelData, agent, context: undefined });
          return { sent: out.input.length, given: modelData.input.length };
        };
      };
    }
  }
}

/** The value at `q` of sorted values (p90: 0.9), as agent-loop.ts takes it. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Calls measured per size: 40 (10 at 10,000 messages and more), as agent-loop.ts. */
export function callsAt(n: number): number {
  return n >= 10_000 ? 10 : 40;
}

/** One session through `adapter`: the first call apart, then the timed consecutive calls. */
export async function warmRow(
  adapter: WarmName,
  h: Histories,
  seed: number,
  n: number,
  calls = callsAt(n),
): Promise<WarmRow> {
  const points = callPoints(seed, n, calls + 1);
  const call = caller(adapter, h, `${adapter}-${n}`);
  const times: number[] = [];
  let firstMs = 0;
  let last = { sent: 0, given: 0 };
  for (const [i, k] of points.entries()) {
    const run = call(k);
    const t = performance.now();
    last = await run();
    const ms = performance.now() - t;
    if (last.sent === 0) throw new Error(`${adapter}: an empty context, the bench measured nothing`);
    if (i === 0) firstMs = ms;
    else times.push(ms);
  }
  times.sort((a, b) => a - b);
  return {
    adapter,
    messages: n,
    calls: times.length,
    firstMs,
    medianMs: median(times),
    p90Ms: quantile(times, 0.9),
    ...last,
  };
}

/**
 * The workload `--profile` samples: a session's first call outside it (returned as `prepare`),
 * then `calls` consecutive calls at `n` messages.
 */
export function profiledCalls(
  adapter: WarmName,
  h: Histories,
  seed: number,
  n: number,
  calls: number,
): { prepare: () => Promise<void>; run: () => Promise<void> } {
  const [first, ...points] = callPoints(seed, n, calls + 1);
  const call = caller(adapter, h, `${adapter}-profile`);
  return {
    prepare: async () => {
      await call(first!)();
    },
    // The inputs of every call are made before the profiler starts.
    run: ((runs) => async () => {
      for (const r of runs) await r();
    })(points.map(call)),
  };
}
