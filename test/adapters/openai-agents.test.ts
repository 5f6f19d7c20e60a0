// The OpenAI Agents SDK adapter against the real SDK (`@openai/agents-core`) with a scripted fake
// model: no network, no API key. What an agent loop relies on (each model call within budget, with
// the instructions, the latest request, valid call/result pairs and no PII), what the recording
// leaves for CI, and escalation stopping the run before the model is called.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, Usage, run, setTracingDisabled, tool, user } from '@openai/agents-core';
import type {
  AgentInputItem,
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentsInputToResponses, contextStabilityInputFilter } from '../../src/adapters/openai-agents.js';
import { toTranscript } from '../../src/api/input.js';
import { countArtifactTokens } from '../../src/core/tokens/count.js';
import { ContextEscalatedError } from '../../src/runtime/errors.js';
import type { RuntimeWarning } from '../../src/runtime/errors.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import { loadPolicyTokenizer } from '../../src/tokens/load.js';
import { updateThenCheck } from '../support/check-recording.js';

const EMAIL = 'jane.roe@example.com';
const PHONE = '+1 415 555 0134';
const INSTRUCTIONS = 'You are a careful support agent. Look orders up with the lookup tool before answering.';

let dir: string;
beforeAll(() => {
  // The SDK's default trace exporter would post to the OpenAI API.
  setTracingDisabled(true);
});
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-agents-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Item = Record<string, unknown>;
const asItem = (i: AgentInputItem): Item => i as unknown as Item;

/** A Model that answers from a script and checks every request it gets. */
class FakeModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(
    private readonly answer: (req: ModelRequest, n: number) => AgentOutputItem[],
    private readonly inspect: (req: ModelRequest) => void | Promise<void> = () => {},
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    await this.inspect(request);
    const n = this.requests.length;
    return { usage: new Usage(), output: this.answer(request, n), responseId: `resp_${n}` };
  }

  // The tests run without streaming; the SDK only calls this for `stream: true`.
  getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('the fake model does not stream');
  }
}

function inputItems(req: ModelRequest): Item[] {
  return typeof req.input === 'string' ? [{ role: 'user', content: req.input }] : req.input.map(asItem);
}

/** Call a function tool for a user message; answer once its result is there. */
function toolLoop(req: ModelRequest, n: number): AgentOutputItem[] {
  const last = inputItems(req).at(-1);
  if (last?.['type'] === 'function_call_result') {
    return [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: `Order ${n} is on its way.` }],
      },
    ];
  }
  return [
    {
      type: 'function_call',
      callId: `call_${n}`,
      name: 'lookup',
      arguments: JSON.stringify({ order: n }),
      status: 'completed',
    },
  ];
}

const lookup = tool({
  name: 'lookup',
  description: 'Look an order up.',
  parameters: z.object({ order: z.number() }),
  execute: ({ order }) =>
    `order ${order}: shipped\n` +
    `tracking event ${order}: in transit\n`.repeat(30) +
    `courier phone ${PHONE}`,
});

/** Every function_call has its result and every result its call. */
function orphans(items: readonly Item[]): string[] {
  const calls = items.filter((i) => i['type'] === 'function_call').map((i) => String(i['callId']));
  const results = items.filter((i) => i['type'] === 'function_call_result').map((i) => String(i['callId']));
  return [...calls.filter((c) => !results.includes(c)), ...results.filter((r) => !calls.includes(r))];
}

/** What a request costs under the policy: the stabilizer's own count of the items it would read. */
async function costOf(req: ModelRequest, budget: number): Promise<number> {
  const cs = createContextStabilizer({ policy: { budget }, onWarning: () => {} });
  const policy = await cs.policy();
  const tokenizer = await loadPolicyTokenizer(policy);
  const body = agentsInputToResponses({ input: inputItems(req), instructions: req.systemInstructions });
  const read = toTranscript(body, { format: 'responses' });
  const cfg = { message_overhead: policy.message_overhead, part_tokens: policy.part_tokens };
  return read.artifacts.reduce((s, a) => s + countArtifactTokens(a, tokenizer, cfg), 0);
}

const QUESTIONS = [
  `Where is my order? Write to ${EMAIL} if anything goes wrong.`,
  'And the second order?',
  'What about the third one?',
  'One more: the fourth order, please.',
  'Last one: the fifth order.',
];

describe('an agent loop through the SDK', () => {
  it('each model call is within budget, keeps the instructions and the latest request, pairs every call, holds no PII', async () => {
    const budget = 700;
    const cs = createContextStabilizer({ policy: { budget }, onWarning: () => {} });
    const filter = contextStabilityInputFilter(cs, { session: 'loop' });
    let latest = '';
    const model = new FakeModel(toolLoop, async (req) => {
      expect(await costOf(req, budget)).toBeLessThanOrEqual(budget);
      expect(req.systemInstructions).toBe(INSTRUCTIONS);
      const items = inputItems(req);
      expect(items.some((i) => i['role'] === 'user' && JSON.stringify(i['content']).includes(latest))).toBe(
        true,
      );
      expect(orphans(items)).toEqual([]);
      const text = JSON.stringify(req);
      expect(text).not.toContain(EMAIL);
      expect(text).not.toContain('555 0134');
    });
    const agent = new Agent({ name: 'support', instructions: INSTRUCTIONS, model, tools: [lookup] });
    let history: AgentInputItem[] = [];
    let cut = false;
    for (const q of QUESTIONS) {
      latest = q.slice(0, 20).replace(EMAIL, '');
      const input = [...history, user(q)];
      const result = await run(agent, input, {
        callModelInputFilter: async (args) => {
          const out = await filter(args);
          if (out.input.length < args.modelData.input.length) cut = true;
          return out;
        },
      });
      history = result.history;
    }
    expect(model.requests).toHaveLength(QUESTIONS.length * 2);
    expect(cut).toBe(true);
    // The history the host keeps is its own: the adapter changes only what is sent.
    expect(JSON.stringify(history)).toContain(EMAIL);
  });

  it('keeps items it does not change byte for byte (the same objects), and changes only the text it masks', async () => {
    const cs = createContextStabilizer({ policy: { budget: 8000 }, onWarning: () => {} });
    const filter = contextStabilityInputFilter(cs);
    const input: Item[] = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: `Mail ${EMAIL} please` },
          { type: 'input_image', image: 'https://img.test/a.png', providerData: { k: 1 } },
        ],
      },
      {
        type: 'reasoning',
        id: 'rs_1',
        content: [{ type: 'input_text', text: 'Look it up first.' }],
        providerData: { encrypted_content: 'enc' },
      },
      {
        type: 'hosted_tool_call',
        id: 'ws_1',
        name: 'web_search_call',
        status: 'completed',
        providerData: { type: 'web_search_call' },
      },
      {
        type: 'function_call',
        id: 'fc_1',
        callId: 'c1',
        name: 'lookup',
        arguments: `{"email":"${EMAIL}"}`,
        status: 'completed',
        providerData: { x: 2 },
      },
      {
        type: 'function_call_result',
        callId: 'c1',
        name: 'lookup',
        status: 'completed',
        output: { type: 'text', text: `found, phone ${PHONE}`, providerData: { y: 3 } },
      },
      {
        type: 'shell_call',
        callId: 's1',
        status: 'completed',
        action: { commands: ['ls'], timeoutMs: 1000 },
      },
      {
        type: 'shell_call_output',
        callId: 's1',
        output: [{ stdout: 'a.txt', stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
      },
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Done.', providerData: { z: 4 } }],
      },
      { role: 'user', content: 'Thanks, all good.' },
    ];
    const out = await filter({
      modelData: { input, instructions: INSTRUCTIONS },
      agent: { name: 'a' },
      context: undefined,
    });
    expect(out.instructions).toBe(INSTRUCTIONS);
    expect(out.input).toHaveLength(input.length);
    for (const k of [1, 2, 5, 6, 7, 8]) expect(out.input[k]).toBe(input[k]);
    const [msg, , , call, result] = out.input as Item[];
    expect(msg).toEqual({
      ...input[0],
      content: [{ type: 'input_text', text: 'Mail [EMAIL_1] please' }, (input[0]!['content'] as Item[])[1]],
    });
    expect((msg!['content'] as Item[])[1]).toBe((input[0]!['content'] as Item[])[1]);
    expect(call).toEqual({ ...input[3], arguments: '{"email":"[EMAIL_1]"}' });
    expect(result).toEqual({
      ...input[4],
      output: { type: 'text', text: 'found, phone [PHONE_1]', providerData: { y: 3 } },
    });
    // The items given were not touched.
    expect(JSON.stringify(input)).toContain(EMAIL);
  });
});

describe('recording', () => {
  it('the recorded JSONL transcript passes the CLI check and holds no raw PII', async () => {
    const rec = path.join(dir, 'recorded');
    const budget = 700;
    const cs = createContextStabilizer({ policy: { budget }, record: rec, onWarning: () => {} });
    const model = new FakeModel(toolLoop);
    const agent = new Agent({ name: 'support', instructions: INSTRUCTIONS, model, tools: [lookup] });
    const callModelInputFilter = contextStabilityInputFilter(cs, { session: 'run-1' });
    let history: AgentInputItem[] = [];
    for (const q of QUESTIONS.slice(0, 3)) {
      const result = await run(agent, [...history, user(q)], { callModelInputFilter });
      history = result.history;
    }
    const files = readdirSync(rec);
    expect(files).toEqual(['run-1.jsonl']);
    const text = readFileSync(path.join(rec, 'run-1.jsonl'), 'utf8');
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain('555 0134');
    expect(text).toContain('[EMAIL_1]');

    writeFileSync(path.join(dir, 'policy.yml'), `budget: ${budget}\n`);
    const { update, check } = await updateThenCheck(dir, 'recorded/run-1.jsonl', 'policy.yml');
    expect(update.code).toBe(0);
    expect(check.code).toBe(0);
    const report = JSON.parse(check.out) as { transcripts: { outcome: string; violations: unknown[] }[] };
    expect(report.transcripts).toHaveLength(1);
    expect(report.transcripts[0]).toMatchObject({ outcome: 'pass', violations: [] });
    expect(check.out).not.toContain(EMAIL);
  });
});

describe('escalation', () => {
  const tiny = { budget: 12, keep_recent: 0 };
  const request = 'Please fix the failing build of the payments service before the release today.';

  it('rejects the run with ContextEscalatedError and never calls the model (default: stop)', async () => {
    const cs = createContextStabilizer({ policy: tiny, onWarning: () => {} });
    const model = new FakeModel(toolLoop);
    const agent = new Agent({ name: 'a', instructions: INSTRUCTIONS, model });
    const error = await run(agent, request, {
      callModelInputFilter: contextStabilityInputFilter(cs, { session: 's1' }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextEscalatedError);
    expect((error as ContextEscalatedError).session).toBe('s1');
    expect(model.requests).toHaveLength(0);
  });

  it('goes through with an `escalated` warning when the policy says continue', async () => {
    const warnings: RuntimeWarning[] = [];
    const cs = createContextStabilizer({
      policy: { ...tiny, runtime: { on_escalated: 'continue' } },
      onWarning: (w) => warnings.push(w),
    });
    const model = new FakeModel(() => [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'On it.' }],
      },
    ]);
    const agent = new Agent({ name: 'a', instructions: INSTRUCTIONS, model });
    const result = await run(agent, request, { callModelInputFilter: contextStabilityInputFilter(cs) });
    expect(result.finalOutput).toBe('On it.');
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.systemInstructions).toBe(INSTRUCTIONS);
    expect(warnings.map((w) => w.code)).toContain('escalated');
  });
});
