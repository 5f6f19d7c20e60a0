// PII strategies inside the agent (issue 29): numbered aliases that stay put over a session, the
// host-side restore map (a tool call's aliases back to the values before the tool runs; never
// secrets, never written anywhere), hash with and without a key, and block refusing the call. No
// error, warning or recording ever holds a value.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contextStabilityMiddleware } from '../../src/adapters/ai-sdk.js';
import type { AiSdkPrompt } from '../../src/adapters/ai-sdk.js';
import { InputError } from '../../src/core/diagnostics.js';
import type { PiiStrategy } from '../../src/core/pii/aliases.js';
import { ContextBlockedError } from '../../src/runtime/errors.js';
import type { RuntimeWarning } from '../../src/runtime/errors.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import type { ContextStabilizerOptions } from '../../src/runtime/stabilizer.js';
import { body } from '../core/pii/helpers.js';

const ANN = 'ann.lee@example.org';
const BOB = 'bob.kane@example.com';
const PHONE = '+44 20 7946 0958';
const TOKEN = `ghp_${body(36)}`;
const RAW = /ann\.lee@|bob\.kane@|7946|ghp_/i;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-pii-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Msg = Record<string, unknown>;
type Body = {
  messages: { role: string; content?: unknown; tool_calls?: { function: { arguments: string } }[] }[];
};

const warnings: RuntimeWarning[] = [];
function stabilizer(strategy: PiiStrategy, extra: Partial<ContextStabilizerOptions> = {}) {
  return createContextStabilizer({
    policy: { pii: { strategy } },
    onWarning: (w) => warnings.push(w),
    ...extra,
  });
}

const history: Msg[] = [
  { role: 'system', content: 'You are a support agent.' },
  { role: 'user', content: `Ann (${ANN}) asks: forward it to ${BOB}, token ${TOKEN}.` },
];

/** The model's next turn: a send_mail call naming what it saw (aliases), and its result. */
function modelTurn(id: string, args: string, result: string): Msg[] {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'send_mail', arguments: args } }],
    },
    { role: 'tool', tool_call_id: id, content: result },
  ];
}

describe('numbered, inside the agent', () => {
  it('sends aliases, keeps them over the session, and restores a tool call before it runs', async () => {
    const s = stabilizer('numbered');
    const first = await s.stabilize<Body>(history, 'openai', { session: 'chat-1' });
    const text = JSON.stringify(first.payload);
    expect(text).toContain('Ann ([EMAIL_1]) asks: forward it to [EMAIL_2], token [SECRET_1].');
    expect(text).not.toMatch(RAW);

    // The model answers with what it saw; the history grows with its call and the tool's result.
    const args = '{"to":"[EMAIL_2]","cc":["[EMAIL_1]"],"auth":"[SECRET_1]","note":"[EMAIL_9]"}';
    const grown = [...history, ...modelTurn('c1', args, `sent to ${BOB} (${PHONE})`)];
    const second = await s.stabilize<Body>(grown, 'openai', { session: 'chat-1' });
    const shown = JSON.stringify(second.payload);
    expect(shown).toContain('Ann ([EMAIL_1]) asks: forward it to [EMAIL_2]');
    expect(shown).toContain('sent to [EMAIL_2] ([PHONE_1])');
    expect(shown).not.toMatch(RAW);

    // Restore: the value the tool needs, in the object the framework parsed and in the JSON text.
    const parsed = JSON.parse(args) as unknown;
    expect(second.restore(parsed)).toEqual({
      to: BOB,
      cc: [ANN],
      auth: '[SECRET_1]', // secrets are never restored
      note: '[EMAIL_9]', // an alias the session never gave out stays
    });
    expect(parsed).toEqual(JSON.parse(args)); // the input is not changed
    const restoredText = second.restore(args) as string;
    expect(JSON.parse(restoredText)).toEqual({ to: BOB, cc: [ANN], auth: '[SECRET_1]', note: '[EMAIL_9]' });
    expect(s.restore('chat-1', 'call [PHONE_1]')).toBe(`call ${PHONE}`);
    // Other sessions number on their own and restore nothing of this one.
    expect(s.restore('chat-2', '[EMAIL_1]')).toBe('[EMAIL_1]');
    const other = await s.stabilize<Body>(
      [history[0] as Msg, { role: 'user', content: `Hi, I am ${BOB}.` }],
      'openai',
      { session: 'chat-2' },
    );
    expect(JSON.stringify(other.payload)).toContain('Hi, I am [EMAIL_1].');
    expect(s.restore('chat-2', '[EMAIL_1]')).toBe(BOB);
    expect(s.restore('chat-1', '[EMAIL_1]')).toBe(ANN);
    // Ending a session drops its restore map.
    s.endSession('chat-1');
    expect(s.restore('chat-1', '[EMAIL_1]')).toBe('[EMAIL_1]');
  });

  it('records aliases, never the values (and never the restore map)', async () => {
    const s = stabilizer('numbered', { record: dir });
    await s.stabilize(history, 'openai', { session: 'rec' });
    await s.stabilize([...history, ...modelTurn('c1', '{"to":"[EMAIL_2]"}', `sent to ${BOB}`)], 'openai', {
      session: 'rec',
    });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const recorded = readFileSync(path.join(dir, files[0] as string), 'utf8');
    expect(recorded).toContain('[EMAIL_1]');
    expect(recorded).toContain('sent to [EMAIL_2]');
    expect(recorded).not.toMatch(RAW);
  });

  it('the AI SDK: a tool wrapped with restore gets the address the model only saw as an alias', async () => {
    const s = stabilizer('numbered');
    const prompts: string[] = [];
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: ({ prompt }: { prompt: AiSdkPrompt }) => {
        prompts.push(JSON.stringify(prompt));
        const alias = /forward it to (\[EMAIL_\d+\])/.exec(prompts[0] ?? '')?.[1] ?? 'none';
        const usage = {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        };
        const content =
          step++ === 0
            ? [
                {
                  type: 'tool-call' as const,
                  toolCallId: 't1',
                  toolName: 'send_mail',
                  input: JSON.stringify({ to: alias }),
                },
              ]
            : [{ type: 'text' as const, text: 'Done.' }];
        const finish = step === 1 ? 'tool-calls' : 'stop';
        return Promise.resolve({
          content,
          finishReason: { unified: finish, raw: finish },
          usage,
          warnings: [],
        });
      },
    });
    const received: string[] = [];
    const send_mail = tool({
      description: 'Sends a mail',
      inputSchema: z.object({ to: z.string() }),
      // The host-side restore: the model's aliases become the values before the tool runs.
      execute: (input) => {
        const { to } = s.restore('support', input);
        received.push(to);
        return Promise.resolve(`sent to ${to}`);
      },
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware: contextStabilityMiddleware(s, { session: 'support' }) }),
      system: 'You are a support agent.',
      prompt: `Ann (${ANN}) asks: forward it to ${BOB}.`,
      tools: { send_mail },
      stopWhen: stepCountIs(3),
    });
    expect(received).toEqual([BOB]);
    expect(prompts).toHaveLength(2);
    for (const p of prompts) expect(p).not.toMatch(RAW);
    expect(prompts[1]).toContain('sent to [EMAIL_2]');
  });
});

describe('redact and hash, inside the agent', () => {
  it('redact: one text per type, and restore gives the value back unchanged', async () => {
    const s = stabilizer('redact');
    const call = await s.stabilize<Body>(history, 'openai');
    expect(JSON.stringify(call.payload)).toContain(
      'Ann ([REDACTED_EMAIL]) asks: forward it to [REDACTED_EMAIL]',
    );
    expect(call.restore({ to: '[REDACTED_EMAIL]' })).toEqual({ to: '[REDACTED_EMAIL]' });
  });

  it('hash without a key: an InputError naming the option, before anything is sent', async () => {
    const s = stabilizer('hash');
    const error = await s.stabilize(history, 'openai').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/pii\.strategy is hash, which needs a key.*piiKey/);
    expect((error as Error).message).not.toMatch(RAW);
  });

  it('hash with a key: keyed aliases, restorable, secrets excepted', async () => {
    const s = stabilizer('hash', { piiKey: 'test-key' });
    const call = await s.stabilize<Body>(history, 'openai');
    const text = JSON.stringify(call.payload);
    const bob = /forward it to (\[EMAIL_[a-z2-7]{8}\])/.exec(text)?.[1];
    const secret = /token (\[SECRET_[a-z2-7]{8}\])/.exec(text)?.[1];
    expect(bob).toBeDefined();
    expect(text).not.toMatch(RAW);
    expect(call.restore(`to ${bob}`)).toBe(`to ${BOB}`);
    expect(call.restore(`auth ${secret}`)).toBe(`auth ${secret}`);
  });
});

describe('block, inside the agent', () => {
  it('throws ContextBlockedError with counts by type and no value anywhere', async () => {
    const s = stabilizer('block', { onEscalated: 'continue' });
    const error = await s.stabilize(history, 'openai', { session: `${ANN}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextBlockedError);
    const e = error as ContextBlockedError;
    expect(e.message.split('\n')).toEqual([
      'context-stability: the call of session [REDACTED_EMAIL] is blocked: its context holds PII (2 email, 1 secret) and pii.strategy is block.',
      '1 of 2 artifacts hold it; nothing was sent to the model.',
      'Remove the PII from the history before the call, or choose another pii.strategy (numbered, redact, hash): docs/pii.md.',
    ]);
    expect(e.counts).toEqual({ email: 2, secret: 1 });
    expect(e.session).toBe(ANN);
    expect(inspect(e)).not.toMatch(RAW);
    expect(JSON.stringify(e)).not.toMatch(RAW);
    expect(JSON.stringify(e.result)).not.toMatch(RAW);
    expect(warnings.map((w) => w.message).join('\n')).not.toMatch(RAW);
  });

  it('a history without PII goes out', async () => {
    const s = stabilizer('block');
    const call = await s.stabilize<Body>(
      [history[0] as Msg, { role: 'user', content: 'Summarize the notes.' }],
      'openai',
    );
    expect(call.payload.messages).toHaveLength(2);
  });
});
