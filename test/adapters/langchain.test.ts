// The LangChain.js adapter against the real framework: createAgent with its fake chat model and a
// tool, the middleware in between, no network. What the model receives is checked on every call,
// independently of the adapter (read back from LangChain's own serialization, counted with the
// policy's tokenizer), and the recording it leaves must pass the real CLI `check`.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  createAgent,
  fakeModel,
  tool,
} from 'langchain';
import type { BaseMessage } from 'langchain';
import { MemorySaver } from '@langchain/langgraph';
import { z } from 'zod';
import {
  contextEscalationOf,
  contextStabilityMiddleware,
  stabilizeLangChainMessages,
} from '../../src/adapters/langchain.js';
import { toTranscript } from '../../src/api/input.js';
import { countArtifactTokens } from '../../src/core/tokens/count.js';
import { ContextEscalatedError } from '../../src/runtime/errors.js';
import type { RuntimeWarning } from '../../src/runtime/errors.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import type { ContextStabilizer } from '../../src/runtime/stabilizer.js';
import { loadPolicyTokenizer } from '../../src/tokens/load.js';
import { updateThenCheck } from '../support/check-recording.js';

const EMAIL = 'jane.doe@example.com';
const PHONE = '+1 415 555 0134';
const TOOL_EMAIL = 'billing.contact@example.org';
const RAW_PII = [EMAIL, PHONE, TOOL_EMAIL];

const SYSTEM =
  'You are the support agent of Acme. Answer from the customer records the lookup tool returns, briefly.';
const QUESTIONS = [
  `My email is ${EMAIL} and my phone is ${PHONE}: what plan am I on?`,
  'When does my plan renew, and what will it cost next year?',
  'Which invoices are still open on my account?',
  'Can you summarize the support tickets I opened this quarter?',
];

/** A record of about 150 tokens, under tool_output.max_tokens: kept while it fits. */
function record(turn: number): string {
  const lines = [`Customer record (lookup ${turn}): contact ${TOOL_EMAIL}.`];
  for (let i = 0; i < 8; i++)
    lines.push(
      `Entry ${turn}.${i}: plan Business, seat count ${10 + i}, renewal on day ${i + 3} of the month, invoice ${4000 + turn * 10 + i} settled.`,
    );
  return lines.join('\n');
}

const lookup = tool(async ({ turn }: { turn: number }) => record(turn), {
  name: 'lookup',
  description: 'Looks up the customer record.',
  schema: z.object({ turn: z.number() }),
});

const POLICY_YAML = `budget: 420
keep_recent: 1
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-langchain-'));
  writeFileSync(path.join(dir, 'policy.yml'), POLICY_YAML);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  /** Messages the model received, per call. */
  calls: BaseMessage[][];
  tokens: number[];
}

/** What the model received, read back from LangChain's own serialization (not the adapter's). */
function readBack(messages: BaseMessage[]) {
  return toTranscript(
    messages.map((m) => m.toJSON()),
    { format: 'langchain' },
  );
}

/**
 * A fake model that checks every request it gets against the policy, then calls the lookup tool
 * once per turn and answers.
 */
async function checkingModel(stabilizer: ContextStabilizer, seen: Seen, latest: () => string | undefined) {
  const policy = await stabilizer.policy();
  const tokenizer = await loadPolicyTokenizer(policy);
  const model = fakeModel();
  let call = 0;
  const check = (messages: BaseMessage[]): void => {
    seen.calls.push(messages);
    const t = readBack(messages);
    const tokens = t.artifacts.reduce((n, a) => n + countArtifactTokens(a, tokenizer, policy), 0);
    seen.tokens.push(tokens);
    expect(tokens).toBeLessThanOrEqual(policy.budget);
    expect(SystemMessage.isInstance(messages[0])).toBe(true);
    expect(messages[0]!.text).toBe(SYSTEM);
    const id = latest();
    expect(messages.some((m) => HumanMessage.isInstance(m) && m.id === id)).toBe(true);
    // No orphan: every result answers a call before it, every call is answered.
    expect(t.pairing.unpairedCalls).toEqual([]);
    expect(t.pairing.unpairedResults).toEqual([]);
    const calls = new Set(
      messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []).map((c) => c.id)),
    );
    const answered = new Set(
      messages.filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).tool_call_id),
    );
    expect(answered).toEqual(calls);
    const text = JSON.stringify(messages.map((m) => m.toJSON()));
    for (const pii of RAW_PII) expect(text).not.toContain(pii);
  };
  for (let turn = 0; turn < QUESTIONS.length; turn++) {
    model.respond((messages) => {
      check(messages);
      return new AIMessage({
        content: '',
        tool_calls: [{ id: `call_${turn}`, name: 'lookup', args: { turn }, type: 'tool_call' }],
      });
    });
    model.respond((messages) => {
      check(messages);
      call++;
      return new AIMessage(`Answer ${call}: the record says plan Business; nothing else is pending.`);
    });
  }
  return model;
}

/** Runs the four turns on one thread of a MemorySaver; returns the agent and the thread config. */
async function runConversation(stabilizer: ContextStabilizer, seen: Seen) {
  let latestId: string | undefined;
  const model = await checkingModel(stabilizer, seen, () => latestId);
  const agent = createAgent({
    model,
    tools: [lookup],
    systemPrompt: SYSTEM,
    checkpointer: new MemorySaver(),
    middleware: [contextStabilityMiddleware(stabilizer)],
  });
  const config = { configurable: { thread_id: 'thread-7' } };
  for (const [i, q] of QUESTIONS.entries()) {
    latestId = `human-${i}`;
    await agent.invoke({ messages: [new HumanMessage({ content: q, id: latestId })] }, config);
  }
  return { agent, config, model };
}

/** The messages the checkpointer holds for the thread: the agent's state after the run. */
async function threadMessages(
  agent: { graph: { getState(config: object): Promise<{ values: unknown }> } },
  config: object,
): Promise<BaseMessage[]> {
  const state = await agent.graph.getState(config);
  return (state.values as { messages: BaseMessage[] }).messages;
}

function quietStabilizer(extra: Parameters<typeof createContextStabilizer>[0] = {}) {
  const warnings: RuntimeWarning[] = [];
  const stabilizer = createContextStabilizer({
    policyFile: path.join(dir, 'policy.yml'),
    onWarning: (w) => warnings.push(w),
    ...extra,
  });
  return { stabilizer, warnings };
}

describe('the middleware in an agent loop', () => {
  it('keeps every model call within budget, with the system prompt, the latest request, paired tools and no PII', async () => {
    const { stabilizer, warnings } = quietStabilizer();
    const seen: Seen = { calls: [], tokens: [] };
    const { agent, config } = await runConversation(stabilizer, seen);
    expect(seen.calls).toHaveLength(QUESTIONS.length * 2);
    expect(warnings.filter((w) => w.code !== 'policy')).toEqual([]);

    // The history outgrew the budget: the later calls got a cut of it.
    const full = await threadMessages(agent, config);
    const policy = await stabilizer.policy();
    const tokenizer = await loadPolicyTokenizer(policy);
    const fullTokens = readBack(full).artifacts.reduce(
      (n, a) => n + countArtifactTokens(a, tokenizer, policy),
      0,
    );
    expect(fullTokens).toBeGreaterThan(policy.budget);
    // Unstabilized, the last call would get the system prompt and all but the final answer.
    const last = seen.calls[seen.calls.length - 1]!;
    expect(last.length).toBeLessThan(full.length);
    // Masked, not dropped: the first request is still there, its PII replaced.
    const first = seen.calls[0]!.find((m) => m.id === 'human-0');
    expect(first?.text).toContain('[EMAIL_1]');
  });

  it('leaves the agent state with the full, unmasked history (wrapModelCall is not destructive)', async () => {
    const { stabilizer } = quietStabilizer();
    const seen: Seen = { calls: [], tokens: [] };
    const { agent, config } = await runConversation(stabilizer, seen);
    const full = await threadMessages(agent, config);
    // Four turns of human, call, result, answer.
    expect(full).toHaveLength(QUESTIONS.length * 4);
    expect(full.filter((m) => ToolMessage.isInstance(m))).toHaveLength(QUESTIONS.length);
    expect(full[0]!.text).toBe(QUESTIONS[0]);
    expect(full.filter((m) => ToolMessage.isInstance(m)).every((m) => m.text.includes(TOOL_EMAIL))).toBe(
      true,
    );
    // The model's last request (system prompt included) left part of it out.
    expect(seen.calls[seen.calls.length - 1]!.length).toBeLessThan(full.length);
  });
});

describe('recording', () => {
  it('records the thread as a transcript that passes the CLI check and holds no raw PII', async () => {
    const { stabilizer } = quietStabilizer({ record: path.join(dir, 'transcripts') });
    await runConversation(stabilizer, { calls: [], tokens: [] });
    const files = readdirSync(path.join(dir, 'transcripts'));
    expect(files).toEqual(['thread-7.jsonl']);
    const file = 'transcripts/thread-7.jsonl';
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const pii of RAW_PII) expect(text).not.toContain(pii);
    // The whole history up to the last model call: 4 turns, less the last answer, plus the system prompt.
    expect(text.trim().split('\n')).toHaveLength(1 + 1 + QUESTIONS.length * 4 - 1);

    const { update, check } = await updateThenCheck(dir, file, 'policy.yml');
    expect(update.code, update.err).toBe(0);
    expect(check.code, check.out).toBe(0);
    const report = JSON.parse(check.out) as { transcripts: { path: string; outcome: string }[] };
    expect(report.transcripts.map((t) => t.outcome)).toEqual(['pass']);
    for (const pii of RAW_PII) expect(check.out + update.out).not.toContain(pii);
  });
});

describe('escalation', () => {
  const tight = (extra: string) => {
    writeFileSync(path.join(dir, 'policy.yml'), `budget: 30\n${extra}`);
  };

  it('rejects the run before the model is called when system prompt and request cannot fit', async () => {
    tight('');
    const { stabilizer } = quietStabilizer();
    const model = fakeModel().respond(new AIMessage('never sent'));
    const agent = createAgent({
      model,
      tools: [lookup],
      systemPrompt: SYSTEM,
      middleware: [contextStabilityMiddleware(stabilizer)],
    });
    const error = await agent.invoke({ messages: [new HumanMessage(QUESTIONS[0]!)] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const escalated = contextEscalationOf(error);
    expect(escalated).toBeInstanceOf(ContextEscalatedError);
    expect(escalated?.result.status).toBe('escalated');
    expect((error as Error).name).toBe('ContextEscalatedError');
    for (const pii of RAW_PII) expect(String((error as Error).message)).not.toContain(pii);
    expect(model.callCount).toBe(0);
  });

  it('sends it anyway with on_escalated: continue, warning with code escalated', async () => {
    tight('runtime: { on_escalated: continue }\n');
    const { stabilizer, warnings } = quietStabilizer();
    const model = fakeModel().respond(new AIMessage('sent anyway'));
    const agent = createAgent({
      model,
      tools: [lookup],
      systemPrompt: SYSTEM,
      middleware: [contextStabilityMiddleware(stabilizer)],
    });
    const out = await agent.invoke({ messages: [new HumanMessage(QUESTIONS[0]!)] });
    expect(out.messages[out.messages.length - 1]!.text).toBe('sent anyway');
    expect(model.callCount).toBe(1);
    const escalated = warnings.filter((w) => w.code === 'escalated');
    expect(escalated).toHaveLength(1);
    expect(escalated[0]!.session).toBe('default');
    for (const pii of RAW_PII) expect(escalated[0]!.message).not.toContain(pii);
  });
});

/** The OpenAI-shaped copy of a call that providers leave in additional_kwargs. */
function openaiCall(id: string, query: string) {
  return {
    id,
    type: 'function' as const,
    function: { name: 'search', arguments: JSON.stringify({ query }) },
  };
}

/** A call's arguments holding PII, and as the model must get them. */
const ASKED = `plan of ${EMAIL}`;
const MASKED = 'plan of [EMAIL_1]';

describe('messages back from the context', () => {
  it.each([
    ['AIMessage', AIMessage],
    ['AIMessageChunk', AIMessageChunk],
  ] as const)(
    'keeps class, ids, blocks and extras; masks text; drops a call that lost its result with its blocks (%s)',
    async (_name, Ai) => {
      // The history is about 1,845 tokens: a budget of 1,800 puts it under pressure, without which
      // tool_output.max_tokens cuts nothing (issue 27).
      writeFileSync(path.join(dir, 'policy.yml'), 'budget: 1800\nkeep_recent: 1\n');
      const { stabilizer } = quietStabilizer();
      const image = { type: 'image_url', image_url: { url: 'https://example.net/chart.png' } };
      const human = new HumanMessage({
        id: 'h1',
        content: [{ type: 'text', text: `Please check the chart, reply to ${EMAIL}.` }, image],
      });
      // Both classes take the same fields; the cast picks one constructor signature.
      const ai = new (Ai as typeof AIMessage)({
        id: 'a1',
        content: [
          { type: 'text', text: 'Looking both up.', cache_control: { type: 'ephemeral' } },
          { type: 'tool_use', id: 'c_small', name: 'search', input: { query: ASKED } },
          { type: 'tool_use', id: 'c_big', name: 'search', input: { query: 'invoices' } },
        ],
        tool_calls: [
          { id: 'c_small', name: 'search', args: { query: ASKED }, type: 'tool_call' },
          { id: 'c_big', name: 'search', args: { query: 'invoices' }, type: 'tool_call' },
        ],
        additional_kwargs: {
          tool_calls: [openaiCall('c_small', ASKED), openaiCall('c_big', 'invoices')],
          provider_note: 'kept',
        },
      });
      const small = new ToolMessage({
        id: 't1',
        tool_call_id: 'c_small',
        name: 'search',
        content: 'plan Business',
      });
      // A lookup (no command outcome) over tool_output.max_tokens: it leaves, and its call with it.
      const big = new ToolMessage({
        id: 't2',
        tool_call_id: 'c_big',
        name: 'search',
        content: record(2).repeat(4),
      });
      const answer = new AIMessage({ id: 'a2', content: 'You are on Business.' });
      const next = new HumanMessage({ id: 'h2', content: 'Thanks, and the renewal date?' });
      const system = new SystemMessage(SYSTEM);
      const out = await stabilizeLangChainMessages(stabilizer, [human, ai, small, big, answer, next], {
        systemMessage: system,
      });

      expect(out.systemMessage).toBe(system);
      expect(out.messages.map((m) => m.id)).toEqual(['h1', 'a1', 't1', 'a2', 'h2']);
      const [h, a, t, a2, h2] = out.messages as [
        HumanMessage,
        AIMessage,
        ToolMessage,
        AIMessage,
        HumanMessage,
      ];
      expect(a.constructor).toBe(Ai);
      // Unchanged messages are the very objects of the history.
      expect(t).toBe(small);
      expect(a2).toBe(answer);
      expect(h2).toBe(next);
      // The masked one is a copy of the same class, its image block kept as it was.
      expect(h).not.toBe(human);
      expect(HumanMessage.isInstance(h)).toBe(true);
      expect(h.content).toEqual([
        { type: 'text', text: 'Please check the chart, reply to [EMAIL_1].' },
        image,
      ]);
      expect((h.content as unknown[])[1]).toBe(image);
      // The call whose result left is gone from tool_calls, the content blocks and additional_kwargs;
      // the one still made has its arguments masked in all three.
      expect(AIMessage.isInstance(a)).toBe(true);
      expect(a.tool_calls).toEqual([
        { id: 'c_small', name: 'search', args: { query: MASKED }, type: 'tool_call' },
      ]);
      expect(a.content).toEqual([
        { type: 'text', text: 'Looking both up.', cache_control: { type: 'ephemeral' } },
        { type: 'tool_use', id: 'c_small', name: 'search', input: { query: MASKED } },
      ]);
      expect(a.additional_kwargs).toEqual({
        tool_calls: [openaiCall('c_small', MASKED)],
        provider_note: 'kept',
      });
      // The history itself is untouched.
      expect(ai.tool_calls).toHaveLength(2);
      expect(ai.tool_calls?.[0]?.args).toEqual({ query: ASKED });
      expect(human.text).toContain(EMAIL);
    },
  );

  it('sends a placeholder in place of a result its protected call still needs, in a ToolMessage that answers it', async () => {
    // Under pressure (issue 27: nothing is cut while the history fits), the big search output is
    // dropped; its call stays because the failed lookup beside it is protected evidence (tag:error).
    writeFileSync(path.join(dir, 'policy.yml'), 'budget: 700\nkeep_recent: 1\n');
    const { stabilizer } = quietStabilizer();
    const ai = new AIMessage({
      id: 'a1',
      content: '',
      tool_calls: [
        { id: 'c_run', name: 'lookup', args: { turn: 1 }, type: 'tool_call' },
        { id: 'c_big', name: 'search', args: { query: 'invoices' }, type: 'tool_call' },
      ],
    });
    const run = new ToolMessage({
      id: 't1',
      tool_call_id: 'c_run',
      name: 'lookup',
      status: 'error',
      content: 'plan Business',
    });
    const big = new ToolMessage({
      id: 't2',
      tool_call_id: 'c_big',
      name: 'search',
      status: 'success',
      artifact: { rows: 32 },
      content: [{ type: 'text', text: record(2).repeat(4) }],
    });
    const history = [
      new HumanMessage('Which plan am I on?'),
      ai,
      run,
      big,
      new AIMessage('Business.'),
      new HumanMessage('Thanks!'),
    ];
    const out = await stabilizeLangChainMessages(stabilizer, history);
    expect(out.systemMessage).toBeUndefined();
    expect(out.messages).toHaveLength(history.length);
    const placeholder = out.messages[3] as ToolMessage;
    expect(out.call.result.context[3]?.placeholder).toBe(true);
    expect(ToolMessage.isInstance(placeholder)).toBe(true);
    expect(placeholder).not.toBe(big);
    expect([placeholder.id, placeholder.tool_call_id, placeholder.name, placeholder.artifact]).toEqual([
      't2',
      'c_big',
      'search',
      { rows: 32 },
    ]);
    expect(placeholder.content).toBe(out.call.result.context[3]?.content);
    expect(placeholder.text.length).toBeLessThan(200);
    expect(out.messages[1]).toBe(ai);
  });

  it('names the session after the thread id, or as the option says', async () => {
    const sessions: string[] = [];
    const stabilizer = createContextStabilizer({ policy: { budget: 4000 }, onWarning: () => {} });
    const spy = new Proxy(stabilizer, {
      get(target, key, receiver) {
        if (key === 'stabilize')
          return (input: unknown, emit: never, call: { session?: string }) => {
            sessions.push(call.session ?? '(none)');
            return target.stabilize(input as never, emit, call);
          };
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const run = async (opts: Parameters<typeof contextStabilityMiddleware>[1], config?: object) => {
      const model = fakeModel().respond(new AIMessage('ok'));
      const agent = createAgent({ model, tools: [], middleware: [contextStabilityMiddleware(spy, opts)] });
      await agent.invoke({ messages: [new HumanMessage('hello')] }, config);
    };
    await run(undefined, { configurable: { thread_id: 't-42' } });
    await run(undefined);
    await run({ session: 'fixed' }, { configurable: { thread_id: 't-42' } });
    await run({ session: (r) => `n${r.messages.length}` });
    expect(sessions).toEqual(['t-42', 'default', 'fixed', 'n1']);
  });
});
