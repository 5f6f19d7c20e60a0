// The AI SDK adapter against the real `ai` package and its own mock model (no network): every call
// of an agent loop (generateText with tools, streamText) gets a prompt within budget, with its
// system prompt and latest request, no orphan tool call or result and no PII; the recording passes
// the real CLI check; escalation stops the call or warns; file bytes pass through untouched.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateText, simulateReadableStream, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import type { LanguageModelMiddleware, ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { contextStabilityMiddleware } from '../../src/adapters/ai-sdk.js';
import type { AiSdkPrompt } from '../../src/adapters/ai-sdk.js';
import { toTranscript } from '../../src/api/input.js';
import type { Policy } from '../../src/core/policy/index.js';
import { countArtifactTokens } from '../../src/core/tokens/count.js';
import { ContextEscalatedError } from '../../src/runtime/errors.js';
import type { RuntimeWarning } from '../../src/runtime/errors.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import type { ContextStabilizer } from '../../src/runtime/stabilizer.js';
import { loadPolicyTokenizer } from '../../src/tokens/load.js';
import { updateThenCheck } from '../support/check-recording.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const EMAIL = 'jane.doe@example.com';
const PHONE = '+1 415 555 0142';
const SYSTEM = 'You are the support agent of Acme. Look customers up before you answer.';

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function answer(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

function toolCall(id: string, customer: string): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'lookup', input: JSON.stringify({ customer }) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A tool output long enough that a few of them overflow the budget, with PII in it. */
function lookupOutput(customer: string): string {
  const history = Array.from(
    { length: 12 },
    (_, i) => `order ${i} of ${customer} shipped on day ${i + 1}`,
  ).join('; ');
  return `Customer ${customer}: contact ${EMAIL}, phone ${PHONE}. History: ${history}.`;
}

const tools = {
  lookup: tool({
    description: 'Looks a customer up',
    inputSchema: z.object({ customer: z.string() }),
    execute: ({ customer }) => Promise.resolve(lookupOutput(customer)),
  }),
};

/** Parts of a message as records (the SDK's part interfaces have no index signature). */
function parts(message: AiSdkPrompt[number]): Record<string, unknown>[] {
  return Array.isArray(message.content) ? (message.content as unknown as Record<string, unknown>[]) : [];
}

function textOf(message: AiSdkPrompt[number] | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return parts(message)
    .filter((p) => p['type'] === 'text')
    .map((p) => p['text'] as string)
    .join('\n');
}

/** Client tool calls without a later result, and results without an earlier call. */
function orphans(prompt: AiSdkPrompt): string[] {
  const open = new Set<string>();
  const out: string[] = [];
  for (const m of prompt) {
    for (const p of parts(m)) {
      if (m.role === 'assistant' && p['type'] === 'tool-call' && p['providerExecuted'] !== true)
        open.add(p['toolCallId'] as string);
      if (m.role === 'tool' && p['type'] === 'tool-result') {
        const id = p['toolCallId'] as string;
        if (!open.delete(id)) out.push(`result ${id}`);
      }
    }
    // A call must be answered before the next user or assistant turn.
    if (m.role === 'user' || m.role === 'system') for (const id of open) out.push(`call ${id}`);
    if (m.role === 'user' || m.role === 'system') open.clear();
  }
  for (const id of open) out.push(`call ${id}`);
  return out;
}

/** Tokens of a prompt as the stabilizer counts them (the reader's artifacts, the policy's costs). */
async function promptTokens(prompt: AiSdkPrompt, policy: Policy): Promise<number> {
  const tokenizer = await loadPolicyTokenizer(policy);
  const t = toTranscript(prompt as unknown as unknown[], { format: 'vercel-ai' });
  return t.artifacts.reduce((n, a) => n + countArtifactTokens(a, tokenizer, policy), 0);
}

/** Keeps the prompt the SDK built, before the stabilizer (the first middleware transforms first). */
function spy(seen: AiSdkPrompt[]): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    transformParams: ({ params }) => {
      seen.push(params.prompt);
      return Promise.resolve(params);
    },
  };
}

/**
 * The support agent: it looks the customer up when the last message is the user's, and answers
 * once the lookup is back. Every prompt it receives is checked before it answers.
 */
function agentModel(check: (prompt: AiSdkPrompt) => Promise<void>): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      await check(prompt);
      calls++;
      const last = prompt[prompt.length - 1];
      if (last?.role === 'tool') return answer(`Done: the customer record ${calls} is up to date.`);
      // Asked about their own account, it looks the customer up by email: a call whose input holds PII.
      const own = /\[EMAIL_\d+\]/.test(textOf(last));
      return toolCall(`call_${calls}`, own ? EMAIL : `C${calls}`);
    },
  });
}

const TURNS = [
  'Please check the account of customer C1.',
  `My email is ${EMAIL} and my phone is ${PHONE}; is my order late?`,
  'Look up customer C3 and tell me if anything is pending.',
  'One more: what is the status of customer C4?',
  'Last question: has customer C5 paid?',
];

/** Runs the turns as a chat: each turn a generateText tool loop on the history so far. */
async function runChat(
  model: ReturnType<typeof wrapLanguageModel>,
  turns: readonly string[],
): Promise<ModelMessage[]> {
  const messages: ModelMessage[] = [];
  for (const turn of turns) {
    messages.push({ role: 'user', content: turn });
    const result = await generateText({ model, system: SYSTEM, messages, tools, stopWhen: stepCountIs(4) });
    messages.push(...result.response.messages);
  }
  return messages;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-ai-sdk-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function quiet(into: RuntimeWarning[] = []): (w: RuntimeWarning) => void {
  return (w) => {
    into.push(w);
  };
}

async function checkedAgent(stabilizer: ContextStabilizer, seen: AiSdkPrompt[], received: AiSdkPrompt[]) {
  const policy = await stabilizer.policy();
  const model = agentModel(async (prompt) => {
    received.push(prompt);
    const original = seen[seen.length - 1] ?? [];
    expect(await promptTokens(prompt, policy)).toBeLessThanOrEqual(policy.budget);
    expect(prompt[0]).toEqual({ role: 'system', content: SYSTEM });
    const latest = [...original].reverse().find((m) => m.role === 'user');
    const kept = [...prompt].reverse().find((m) => m.role === 'user');
    expect(kept).toBeDefined();
    // The latest request is there (masked when it holds PII).
    if (!textOf(latest).includes(EMAIL)) expect(kept).toEqual(latest);
    else expect(textOf(kept)).toContain('is my order late?');
    expect(orphans(prompt)).toEqual([]);
    expect(JSON.stringify(prompt)).not.toContain(EMAIL);
    expect(JSON.stringify(prompt)).not.toContain(PHONE);
  });
  return wrapLanguageModel({ model, middleware: [spy(seen), contextStabilityMiddleware(stabilizer)] });
}

describe('contextStabilityMiddleware: a generateText agent loop', () => {
  it('sends every step a prompt within budget with the system prompt, the latest request, paired tools and no PII', async () => {
    const stabilizer = createContextStabilizer({
      policy: { budget: 420, keep_recent: 1 },
      onWarning: quiet(),
    });
    const seen: AiSdkPrompt[] = [];
    const received: AiSdkPrompt[] = [];
    const model = await checkedAgent(stabilizer, seen, received);
    const messages = await runChat(model, TURNS);

    // Every turn called the tool and answered: two model calls per turn.
    expect(received).toHaveLength(TURNS.length * 2);
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(TURNS.length);
    // The history outgrew the budget: later prompts left messages out, earlier ones went as they were.
    expect(received[0]).toEqual(seen[0]);
    const last = received[received.length - 1] ?? [];
    expect(last.length).toBeLessThan(seen[seen.length - 1]?.length ?? 0);
    // Kept tool results still carry their original output shape and options.
    const results = last.filter((m) => m.role === 'tool').flatMap(parts);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect((r['output'] as { type: string }).type).toMatch(/^(text|json)$/);
  });
});

describe('recording', () => {
  it('records a JSONL transcript without raw PII that the CLI update and check accept', async () => {
    const policyFile = 'policy.yml';
    writeFileSync(path.join(dir, policyFile), 'budget: 420\nkeep_recent: 1\n');
    const stabilizer = createContextStabilizer({
      policyFile,
      cwd: dir,
      record: path.join(dir, 'transcripts'),
      onWarning: quiet(),
    });
    const model = await checkedAgent(stabilizer, [], []);
    await runChat(model, TURNS.slice(0, 3));

    const files = readdirSync(path.join(dir, 'transcripts'));
    expect(files).toEqual(['default.jsonl']);
    const file = path.join('transcripts', 'default.jsonl');
    const text = readFileSync(path.join(dir, file), 'utf8');
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain(PHONE);
    // One line per artifact after the meta line: the system prompt, then user, call, result and
    // answer of each turn but the last answer, which no model call has sent yet.
    expect(text.trimEnd().split('\n')).toHaveLength(1 + 1 + 3 * 4 - 1);

    const { update, check } = await updateThenCheck(dir, file, policyFile);
    expect(update.code, update.err).toBe(0);
    const report = JSON.parse(check.out) as { transcripts: { outcome: string }[] };
    expect(report.transcripts.map((t) => t.outcome)).toEqual(['pass']);
    expect(check.code, check.out).toBe(0);
  });
});

describe('sessions', () => {
  it('names the session from the call (providerOptions.contextStability.session) or the option', async () => {
    const record = path.join(dir, 'rec');
    const model = new MockLanguageModelV3({ doGenerate: answer('ok') });
    const byCall = wrapLanguageModel({
      model,
      middleware: contextStabilityMiddleware(createContextStabilizer({ record, onWarning: quiet() })),
    });
    for (const session of ['chat-1', 'chat-2'])
      await generateText({
        model: byCall,
        prompt: `Hello from ${session}.`,
        providerOptions: { contextStability: { session } },
      });
    const byOption = wrapLanguageModel({
      model,
      middleware: contextStabilityMiddleware(createContextStabilizer({ record, onWarning: quiet() }), {
        session: (params) => (params.prompt.length > 1 ? 'long' : 'short'),
      }),
    });
    await generateText({ model: byOption, prompt: 'Hi.' });
    await generateText({ model: byOption, system: SYSTEM, prompt: 'Hi.' });
    expect(readdirSync(record).sort()).toEqual(['chat-1.jsonl', 'chat-2.jsonl', 'long.jsonl', 'short.jsonl']);
  });
});

describe('escalation', () => {
  const policy = { budget: 30, keep_recent: 1 };
  const long = `${SYSTEM} ${'Always be exact and quote the policy in full. '.repeat(6)}`;

  it('rejects the call with ContextEscalatedError before the model is called', async () => {
    const model = agentModel(() => Promise.resolve());
    const wrapped = wrapLanguageModel({
      model,
      middleware: contextStabilityMiddleware(createContextStabilizer({ policy, onWarning: quiet() })),
    });
    const call = generateText({ model: wrapped, system: long, prompt: 'Check customer C1.', maxRetries: 0 });
    await expect(call).rejects.toBeInstanceOf(ContextEscalatedError);
    expect(model.doGenerateCalls).toHaveLength(0);

    // streamText hands it to onError; what is awaited of the stream rejects with the SDK's own error.
    const errors: unknown[] = [];
    const stream = streamText({
      model: wrapped,
      system: long,
      prompt: 'Check customer C1.',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await expect(stream.text).rejects.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ContextEscalatedError);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it('with on_escalated: continue sends the context and warns with code escalated', async () => {
    const warnings: RuntimeWarning[] = [];
    const model = agentModel(() => Promise.resolve());
    const stabilizer = createContextStabilizer({
      policy: { ...policy, runtime: { on_escalated: 'continue' } },
      onWarning: quiet(warnings),
    });
    const wrapped = wrapLanguageModel({ model, middleware: contextStabilityMiddleware(stabilizer) });
    const result = await generateText({ model: wrapped, system: long, prompt: 'Check customer C1.' });
    expect(result.text).toBe('');
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(warnings.map((w) => w.code)).toContain('escalated');
    expect(warnings.find((w) => w.code === 'escalated')?.session).toBe('default');
  });
});

describe('non-text parts', () => {
  it('passes file bytes, URLs and provider options through untouched while masking the text beside them', async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0xff, 0x00, 0x80]);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    const model = new MockLanguageModelV3({
      // The model takes URLs itself, so the SDK downloads nothing.
      supportedUrls: { '*': [/^https:\/\//] },
      doGenerate: answer('Read both files.'),
    });
    const stabilizer = createContextStabilizer({ policy: { budget: 8000 }, onWarning: quiet() });
    const wrapped = wrapLanguageModel({ model, middleware: contextStabilityMiddleware(stabilizer) });
    const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    await generateText({
      model: wrapped,
      system: SYSTEM,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `Files from ${EMAIL}:`, providerOptions: cache },
            {
              type: 'file',
              data: pdf,
              mediaType: 'application/pdf',
              filename: `invoice for ${EMAIL} (May).pdf`,
            },
            { type: 'image', image: png, mediaType: 'image/png' },
            { type: 'file', data: new URL('https://example.org/spec.pdf'), mediaType: 'application/pdf' },
          ],
        },
      ],
    });
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    const user = parts(prompt[1]!);
    expect(user.map((p) => p['type'])).toEqual(['text', 'file', 'file', 'file']);
    expect(user[0]).toEqual({ type: 'text', text: 'Files from [EMAIL_1]:', providerOptions: cache });
    // The bytes are the caller's own, byte for byte; the filename that held an email is masked.
    expect(user[1]?.['data']).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(user[1]?.['data'] as Uint8Array).equals(Buffer.from(pdf))).toBe(true);
    expect(user[1]?.['filename']).toBe('invoice for [EMAIL_1] (May).pdf');
    expect(user[2]?.['data']).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(user[2]?.['data'] as Uint8Array).equals(Buffer.from(png))).toBe(true);
    expect(user[3]?.['data']).toBeInstanceOf(URL);
    expect(String(user[3]?.['data'])).toBe('https://example.org/spec.pdf');
    expect(JSON.stringify(prompt)).not.toContain(EMAIL);
  });
});

describe('what the stabilizer changes, in the SDK shapes', () => {
  const rows = Array.from({ length: 30 }, (_, i) => `row ${i} value`).join('\n');
  const options = { openai: { itemId: 'msg_1' } };
  /** Three turns that each looked the same thing up (identical outputs), then a new request. */
  function history(output: { type: 'json'; value: { result: string } } | { type: 'text'; value: string }) {
    const messages: ModelMessage[] = [];
    for (const n of [1, 2, 3]) {
      messages.push(
        { role: 'user', content: `Question number ${n}, please.` },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: `Looking it up (${n}).`, providerOptions: options },
            { type: 'tool-call', toolCallId: `c${n}`, toolName: 'lookup', input: { customer: 'C1' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${n}`, toolName: 'lookup', output }] },
      );
    }
    messages.push({ role: 'user', content: 'And now?' });
    return messages;
  }

  async function send(policy: { budget: number; keep_recent: number }, messages: ModelMessage[]) {
    const model = new MockLanguageModelV3({ doGenerate: answer('ok') });
    const stabilizer = createContextStabilizer({ policy, onWarning: quiet() });
    const wrapped = wrapLanguageModel({ model, middleware: contextStabilityMiddleware(stabilizer) });
    await generateText({ model: wrapped, system: SYSTEM, messages });
    return model.doGenerateCalls[0]?.prompt ?? [];
  }

  it('an assistant whose result was folded as a duplicate keeps its text and options and loses only that call', async () => {
    const prompt = await send({ budget: 300, keep_recent: 1 }, history({ type: 'text', value: rows }));
    expect(orphans(prompt)).toEqual([]);
    const assistants = prompt.filter((m) => m.role === 'assistant').map(parts);
    expect(assistants).toHaveLength(3);
    // The first two results are duplicates of the third: their calls go, the words stay.
    expect(assistants.map((a) => a.map((p) => p['type']))).toEqual([
      ['text'],
      ['text'],
      ['text', 'tool-call'],
    ]);
    for (const a of assistants) expect(a[0]?.['providerOptions']).toEqual(options);
    expect(
      prompt
        .filter((m) => m.role === 'tool')
        .flatMap(parts)
        .map((p) => p['toolCallId']),
    ).toEqual(['c3']);
  });

  it('a JSON result replaced by a placeholder or cut to an excerpt goes out as text; one kept whole stays JSON', async () => {
    const output = { type: 'json' as const, value: { result: rows } };
    const prompt = await send({ budget: 330, keep_recent: 4 }, history(output));
    expect(orphans(prompt)).toEqual([]);
    const results = prompt.filter((m) => m.role === 'tool').flatMap(parts);
    expect(results.map((p) => p['toolCallId'])).toEqual(['c1', 'c2', 'c3']);
    const outputs = results.map((p) => p['output'] as { type: string; value: unknown });
    expect(outputs.slice(0, 2).map((o) => o.type)).toEqual(['text', 'text']);
    for (const o of outputs.slice(0, 2)) expect(o.value).toMatch(/^\[tool result omitted: /);
    expect(outputs[2]).toEqual(output);

    // With less room a must-keep result is cut: an excerpt of JSON is no longer JSON. Since issue 27
    // only the open tool loop's results are cut this way (older should-keep results leave with their
    // step), so the history ends at the third lookup's result, which the model is about to read.
    const open = history(output).slice(0, -1);
    const tight = await send({ budget: 200, keep_recent: 4 }, open);
    expect(tight.at(-1)?.role).toBe('tool');
    const latest = tight
      .filter((m) => m.role === 'tool')
      .flatMap(parts)
      .at(-1);
    expect(latest?.['toolCallId']).toBe('c3');
    expect(latest?.['output']).toMatchObject({
      type: 'text',
      value: expect.stringContaining('characters left out') as unknown,
    });
  });
});

describe('streamText', () => {
  it('stabilizes each step of a streamed tool loop the same way', async () => {
    const stabilizer = createContextStabilizer({
      policy: { budget: 420, keep_recent: 1 },
      onWarning: quiet(),
    });
    const policy = await stabilizer.policy();
    const received: AiSdkPrompt[] = [];
    const seen: AiSdkPrompt[] = [];
    let calls = 0;
    const stream = (chunks: StreamPart[]) => ({ stream: simulateReadableStream({ chunks }) });
    const finish = (reason: 'stop' | 'tool-calls'): StreamPart => ({
      type: 'finish',
      usage,
      finishReason: { unified: reason, raw: reason },
    });
    const model = new MockLanguageModelV3({
      doStream: async ({ prompt }) => {
        received.push(prompt);
        expect(await promptTokens(prompt, policy)).toBeLessThanOrEqual(policy.budget);
        expect(prompt[0]).toEqual({ role: 'system', content: SYSTEM });
        expect(orphans(prompt)).toEqual([]);
        expect(JSON.stringify(prompt)).not.toContain(EMAIL);
        calls++;
        if (prompt[prompt.length - 1]?.role === 'tool')
          return stream([
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: `Done with record ${calls}.` },
            { type: 'text-end', id: 't' },
            finish('stop'),
          ]);
        return stream([
          {
            type: 'tool-call',
            toolCallId: `call_${calls}`,
            toolName: 'lookup',
            input: JSON.stringify({ customer: `C${calls}` }),
          },
          finish('tool-calls'),
        ]);
      },
    });
    const wrapped = wrapLanguageModel({
      model,
      middleware: [spy(seen), contextStabilityMiddleware(stabilizer)],
    });
    const messages: ModelMessage[] = [];
    for (const turn of TURNS) {
      messages.push({ role: 'user', content: turn });
      const result = streamText({
        model: wrapped,
        system: SYSTEM,
        messages,
        tools,
        stopWhen: stepCountIs(4),
      });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      expect(text).toMatch(/^Done with record \d+\.$/);
      messages.push(...(await result.response).messages);
    }
    expect(received).toHaveLength(TURNS.length * 2);
    const last = received[received.length - 1] ?? [];
    expect(last.length).toBeLessThan(seen[seen.length - 1]?.length ?? 0);
  });
});
