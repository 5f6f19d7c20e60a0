// The guardian link: the stabilizer's pressure (must-keep tokens ÷ budget) through the guardian's
// gate at every adapter call; fresh-summary at compress, the halt rule at critical (checkpoint
// under the lock, ContextHaltedError before the model is called, latched until resumed), and the
// in-memory mode without a state file.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { contextStabilityMiddleware } from '../../src/adapters/ai-sdk.js';
import { contextHaltOf } from '../../src/adapters/langchain.js';
import { stabilizeAnthropicRequest, stabilizeOpenAIRequest } from '../../src/adapters/request-body.js';
import { main } from '../../src/cli/main.js';
import { DEFAULT_THRESHOLDS } from '../../src/core/guardian/gate.js';
import { contextPressure } from '../../src/core/guardian/pressure.js';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import { ContextEscalatedError, ContextHaltedError } from '../../src/runtime/errors.js';
import type { RuntimeWarning } from '../../src/runtime/errors.js';
import { createGuardianLink } from '../../src/runtime/guardian-link.js';
import type { GuardianLinkOptions } from '../../src/runtime/guardian-link.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import { fakeIO } from '../cli/fake-io.js';

const EMAIL = 'jane.roe@example.com';
const NOW = '2025-05-01T12:00:00.000Z';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-guardian-link-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Msg = Record<string, unknown>;

/** A tool result of about `lines` × 8 tokens that the model is about to read (the open loop). */
function withOpenLoop(lines: number, id = 'c1'): Msg[] {
  return [
    { role: 'system', content: 'You audit logs.' },
    { role: 'user', content: 'Audit the log.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'read_log', arguments: '{"file":"a.log"}' } }],
    },
    {
      role: 'tool',
      tool_call_id: id,
      content: Array.from({ length: lines }, (_, i) => `GET /api/orders/${1000 + i} 200 ok`).join('\n'),
    },
  ];
}

async function cliIn(root: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const io = fakeIO(dir);
  const code = await main(['guardian', ...args, '--root', root], io);
  return { code, out: io.out() };
}

function state(root: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, 'task-state.json'), 'utf8')) as Record<string, unknown>;
}

function setup(link: GuardianLinkOptions = {}, budget = 1000, warnings: RuntimeWarning[] = []) {
  const guardian = createGuardianLink({ now: () => NOW, ...link });
  const cs = createContextStabilizer({ policy: { budget }, guardian, onWarning: (w) => warnings.push(w) });
  return { guardian, cs, warnings };
}

function entry(id: string, protectedBy: string[], tokens: number, extra: object = {}) {
  return {
    id,
    stage: 'protect' as const,
    action: 'kept' as const,
    reason: 'protected',
    tokens_before: tokens,
    tokens_after: tokens,
    line: 1,
    ...(protectedBy.length ? { protected_by: protectedBy } : {}),
    ...extra,
  };
}

function item(id: string, kind: 'system' | 'user' | 'assistant' | 'tool' | 'summary', tokens: number) {
  return { id, kind, tokens, content: '', line: 1 };
}

describe('contextPressure: what cannot be trimmed, over the budget', () => {
  const result: StabilizeResult = {
    transcript: 't',
    status: 'ok',
    budget: { limit: 1000, used: 990 },
    context: [
      item('s', 'system', 50),
      item('u', 'user', 40),
      item('old', 'tool', 400),
      item('recent', 'assistant', 300),
      item('sum', 'summary', 60),
      item('call', 'assistant', 20),
      item('res', 'tool', 100),
    ],
    ledger: [
      entry('s', ['system'], 50),
      entry('u', ['task_statement', 'latest_request'], 40),
      entry('old', ['tag:error'], 400),
      entry('recent', ['recent'], 300),
      entry('call', ['pair:res'], 20),
      entry('res', ['open_loop'], 100, { action: 'excerpted', reason: 'excerpt', tokens_before: 180 }),
    ],
    summaries: [],
    events: [],
  };

  it('counts system, task, latest request, the open loop with its call and summaries; not protected evidence or recent turns', () => {
    const p = contextPressure(result, DEFAULT_THRESHOLDS);
    // 50 + 40 + 60 + 20 + 180 (the open-loop result cut to an excerpt counts whole): not 990 / 1000.
    expect(p).toEqual({ value: 0.35, level: 'normal', mustKeepTokens: 350, budget: 1000, escalated: false });
  });

  it('is 1.0 when escalated, and takes its level from the thresholds', () => {
    expect(contextPressure({ ...result, status: 'escalated' }, DEFAULT_THRESHOLDS)).toMatchObject({
      value: 1,
      level: 'critical',
      escalated: true,
    });
    const t = { warning: 0.2, compress: 0.3, critical: 0.9 };
    expect(contextPressure(result, t).level).toBe('compress');
  });

  it('stays low for a long trimmed session whose context fills the budget', async () => {
    const cs = createContextStabilizer({ policy: { budget: 600 }, onWarning: () => {} });
    const history: Msg[] = [{ role: 'system', content: 'You are a careful coding agent.' }];
    for (let t = 1; t <= 12; t++) {
      history.push({ role: 'user', content: `Turn ${t}: go on with part ${t}.` });
      history.push({
        role: 'assistant',
        content: `Part ${t} done. ${'Checked the output line by line. '.repeat(8)}`,
      });
    }
    const out = await cs.stabilize({ messages: history }, 'openai', { format: 'openai' });
    expect(out.result.budget.used / out.result.budget.limit).toBeGreaterThan(0.8);
    expect(out.pressure.value).toBeLessThan(0.2);
    expect(out.pressure.level).toBe('normal');
    expect(out.guardian).toBeUndefined();
  });
});

describe('levels through the link', () => {
  it('normal: continue; warning: a fresh summary is due, silently; compress: due, with a fresh_summary warning', async () => {
    const { cs, warnings } = setup();
    const normal = await cs.stabilize({ messages: withOpenLoop(10) }, 'openai', { format: 'openai' });
    expect(normal.guardian).toMatchObject({ action: 'continue', freshSummaryDue: false });
    expect(normal.pressure.level).toBe('normal');

    const warning = await cs.stabilize({ messages: withOpenLoop(55) }, 'openai', { format: 'openai' });
    expect(warning.pressure.level).toBe('warning');
    expect(warning.guardian).toMatchObject({ action: 'fresh_summary', freshSummaryDue: true });
    expect(warnings.filter((w) => w.code === 'fresh_summary')).toEqual([]);

    const compress = await cs.stabilize({ messages: withOpenLoop(70) }, 'openai', { format: 'openai' });
    expect(compress.pressure.level).toBe('compress');
    expect(compress.guardian).toMatchObject({ action: 'fresh_summary', freshSummaryDue: true });
    const w = warnings.filter((x) => x.code === 'fresh_summary');
    expect(w).toHaveLength(1);
    expect(w[0]?.message).toMatch(/pressure 0\.\d+ is at or above compress \(0\.7\): write a fresh summary/);
  });

  it('takes the thresholds from the policy, then from the link', async () => {
    const guardian = createGuardianLink({ thresholds: { critical: 0.95 } });
    const cs = createContextStabilizer({
      policy: { budget: 1000, guardian: { warning: 0.1, compress: 0.2, critical: 0.9 } },
      guardian,
      onWarning: () => {},
    });
    const out = await cs.stabilize({ messages: withOpenLoop(10) }, 'openai', { format: 'openai' });
    expect(out.guardian?.thresholds).toEqual({ warning: 0.1, compress: 0.2, critical: 0.95 });
    expect(guardian.last).toBe(out.guardian);
    const bad = createContextStabilizer({ guardian: { thresholds: { warning: 0.9 } } });
    await expect(
      bad.stabilize({ messages: withOpenLoop(1) }, 'openai', { format: 'openai' }),
    ).rejects.toThrow(/guardian thresholds: warning must not be above compress/);
  });
});

describe('the halt rule with a state file', () => {
  it('writes the halt checkpoint under the lock and throws ContextHaltedError through the request-body adapter', async () => {
    const root = path.join(dir, 'task');
    expect((await cliIn(root, 'ensure', '--goal', 'Audit the logs')).code).toBe(0);
    const { cs, guardian } = setup({ root });
    const session = `support ${EMAIL}`;
    const call = stabilizeOpenAIRequest(cs, { model: 'm', messages: withOpenLoop(85) }, { session });
    const error = (await call.catch((e: unknown) => e)) as ContextHaltedError;
    expect(error).toBeInstanceOf(ContextHaltedError);
    expect(error.status).toBe('STATUS:HALT_CONTEXT_LIMIT');
    expect(error.code).toBe('context_halted');
    expect(error.checkpoint).toBe('written');
    expect(error.session).toBe(session);
    expect(error.pressure?.value).toBeGreaterThanOrEqual(0.85);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^context-stability: STATUS:HALT_CONTEXT_LIMIT for session support \[REDACTED_EMAIL\]: context pressure 0\.\d+ is at or above critical \(0\.85\): must-keep \d+ of 1000 tokens\.$/,
    );
    expect(lines[1]).toContain('Checkpoint written');
    expect(lines[2]).toContain(`guardian resume --root ${root} --by WHO --why TEXT`);
    // Details are not printed with an uncaught error; no PII anywhere in what is printed.
    expect(Object.keys(error).sort()).toEqual(['code', 'status']);
    expect(inspect(error)).not.toContain(EMAIL);
    expect(guardian.last?.action).toBe('halt');

    const written = state(root);
    expect(written['halt']).toEqual({
      at: NOW,
      pressure: error.pressure?.value,
      threshold: 0.85,
      reason: `pressure ${error.pressure?.value} is at or above critical (0.85)`,
    });
    expect(written['turn']).toBe(1);
    expect(readFileSync(path.join(root, 'summaries/latest-summary.md'), 'utf8')).toContain(`- Turn: 1`);
    expect(existsSync(path.join(root, '.guardian.lock'))).toBe(false);
    expect((await cliIn(root, 'status', '--pressure', '0.1')).out).toMatch(/STATUS:HALT_CONTEXT_LIMIT\n$/);
  });

  it('a latched halt stops later calls, whatever their pressure, until resumed (the link or the CLI)', async () => {
    const root = path.join(dir, 'task');
    await cliIn(root, 'ensure');
    const { cs, guardian } = setup({ root });
    await expect(
      cs.stabilize({ messages: withOpenLoop(85) }, 'openai', { format: 'openai' }),
    ).rejects.toThrow(ContextHaltedError);
    const small = () =>
      stabilizeAnthropicRequest(cs, { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    const latched = (await small().catch((e: unknown) => e)) as ContextHaltedError;
    expect(latched).toBeInstanceOf(ContextHaltedError);
    expect(latched.checkpoint).toBe('latched');
    expect(latched.pressure).toBeUndefined();
    expect(latched.message.split('\n')[0]).toMatch(
      /the task is halted since 2025-05-01T12:00:00.000Z \(pressure 0\.\d+, critical 0\.85\)/,
    );
    expect(state(root)['turn']).toBe(1); // a latched halt writes nothing more

    expect(await guardian.resume({ by: 'ops', why: 'context compacted' })).toMatchObject({ resumed: true });
    expect(state(root)['halt']).toBeUndefined();
    expect(state(root)['resumes']).toEqual([
      { at: NOW, by: 'ops', why: 'context compacted', halted_at: NOW },
    ]);
    expect((await small()).messages).toHaveLength(1);

    await expect(
      cs.stabilize({ messages: withOpenLoop(85) }, 'openai', { format: 'openai' }),
    ).rejects.toThrow(ContextHaltedError);
    expect((await cliIn(root, 'resume', '--by', 'ops', '--why', 'again')).code).toBe(0);
    expect((await small()).messages).toHaveLength(1);
    expect(await guardian.resume({ by: 'ops', why: 'nothing' })).toMatchObject({ resumed: false });
  });

  it('halts a generateText call through the AI SDK middleware before the model is called', async () => {
    const root = path.join(dir, 'task');
    await cliIn(root, 'ensure');
    const { cs } = setup({ root }, 280);
    const model = new MockLanguageModelV3({
      doGenerate: () => Promise.reject(new Error('the model must not be called')),
    });
    const wrapped = wrapLanguageModel({ model, middleware: contextStabilityMiddleware(cs) });
    const prompt = `Summarize: ${'the order shipped late and the customer asked for a refund. '.repeat(20)}`;
    const call = generateText({ model: wrapped, system: 'Be brief.', prompt, maxRetries: 0 });
    await expect(call).rejects.toBeInstanceOf(ContextHaltedError);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(state(root)['halt']).toMatchObject({ threshold: 0.85 });
    const again = generateText({ model: wrapped, prompt: 'hi', maxRetries: 0 });
    await expect(again).rejects.toMatchObject({ checkpoint: 'latched' });
  });

  it('an escalated context throws ContextEscalatedError and latches the halt (pressure 1.0)', async () => {
    const root = path.join(dir, 'task');
    await cliIn(root, 'ensure');
    const { cs } = setup({ root }, 20);
    const messages = [
      { role: 'system', content: 'Always quote the policy in full. '.repeat(6) },
      { role: 'user', content: 'hi' },
    ];
    await expect(stabilizeOpenAIRequest(cs, { messages })).rejects.toBeInstanceOf(ContextEscalatedError);
    expect(state(root)['halt']).toMatchObject({
      pressure: 1,
      reason: expect.stringMatching(/^the context is escalated \(/),
    });
    await expect(
      stabilizeOpenAIRequest(cs, { messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toBeInstanceOf(ContextHaltedError);
  });

  it('with on_escalated: continue the halt still stops the call, without an "escalated" warning', async () => {
    const warnings: RuntimeWarning[] = [];
    const cs = createContextStabilizer({
      policy: { budget: 20 },
      onEscalated: 'continue',
      guardian: createGuardianLink(),
      onWarning: (w) => warnings.push(w),
    });
    const messages = [
      { role: 'system', content: 'Always quote the policy in full. '.repeat(6) },
      { role: 'user', content: 'hi' },
    ];
    await expect(stabilizeOpenAIRequest(cs, { messages })).rejects.toMatchObject({ checkpoint: 'memory' });
    expect(warnings.map((w) => w.code)).not.toContain('escalated');
  });

  it('keeps the halt in memory when the checkpoint cannot be written, with a guardian warning', async () => {
    const root = path.join(dir, 'task');
    await cliIn(root, 'ensure');
    // A summaries folder replaced by a link: the store refuses to write through it.
    renameSync(path.join(root, 'summaries'), path.join(dir, 'elsewhere'));
    mkdirSync(path.join(dir, 'target'));
    symlinkSync(path.join(dir, 'target'), path.join(root, 'summaries'));
    const { cs, warnings } = setup({ root });
    const error = (await cs
      .stabilize({ messages: withOpenLoop(85) }, 'openai', { format: 'openai' })
      .catch((e: unknown) => e)) as ContextHaltedError;
    expect(error.checkpoint).toBe('failed');
    expect(error.message.split('\n')[2]).toBe('Resume after review: guardianLink.resume({ by, why }).');
    expect(warnings.find((w) => w.code === 'guardian')?.message).toMatch(
      /could not be written \(guardian-symlink\)/,
    );
  });
});

describe('without a state file: in memory only', () => {
  it('measures, halts and resumes in memory; writes nothing', async () => {
    const { cs, guardian, warnings } = setup();
    const error = (await cs
      .stabilize({ messages: withOpenLoop(85) }, 'openai', { format: 'openai' })
      .catch((e: unknown) => e)) as ContextHaltedError;
    expect(error.checkpoint).toBe('memory');
    expect(error.root).toBeUndefined();
    expect(error.message.split('\n').slice(1)).toEqual([
      'No guardian root: the halt is kept in memory by this stabilizer.',
      'Resume after review: guardianLink.resume({ by, why }).',
    ]);
    expect(await guardian.halted()).toMatchObject({ at: NOW, threshold: 0.85 });
    await expect(
      cs.stabilize({ messages: withOpenLoop(1) }, 'openai', { format: 'openai' }),
    ).rejects.toMatchObject({
      checkpoint: 'memory',
    });
    await expect(guardian.checkpoint({})).rejects.toThrow(/needs a guardian root/);
    await expect(guardian.resume({ by: '', why: 'x' })).rejects.toThrow(/needs `by` and `why`/);
    expect(await guardian.resume({ by: 'ops', why: 'reviewed' })).toEqual({ resumed: true });
    const out = await cs.stabilize({ messages: withOpenLoop(1) }, 'openai', { format: 'openai' });
    expect(out.guardian?.action).toBe('continue');
    expect(warnings.filter((w) => w.code === 'guardian')).toEqual([]);
  });

  it('a root with no task state warns once and keeps a halt in memory', async () => {
    const root = path.join(dir, 'none');
    const { cs, warnings } = setup({ root });
    await cs.stabilize({ messages: withOpenLoop(1) }, 'openai', { format: 'openai' });
    await expect(
      cs.stabilize({ messages: withOpenLoop(85) }, 'openai', { format: 'openai' }),
    ).rejects.toMatchObject({
      checkpoint: 'memory',
    });
    expect(existsSync(root)).toBe(false);
    const w = warnings.filter((x) => x.code === 'guardian');
    expect(w).toHaveLength(1);
    expect(w[0]?.message).toContain('no usable task state (no task state yet)');
  });
});

describe('checkpoints through the link', () => {
  it('applies a patch under the lock and writes a fresh summary; refuses without a state', async () => {
    const root = path.join(dir, 'task');
    const { guardian } = setup({ root });
    await expect(guardian.checkpoint({ next_action: 'x' })).rejects.toThrow(/no usable task state/);
    await cliIn(root, 'ensure');
    const saved = await guardian.checkpoint({
      next_action: 'read a.log',
      append: { completed_steps: ['planned'] },
    });
    expect(saved).toMatchObject({ turn: 1, next_action: 'read a.log', updated_at: NOW });
    expect(state(root)['completed_steps']).toEqual(['planned']);
    expect(readFileSync(path.join(root, 'summaries/latest-summary.md'), 'utf8')).toContain('read a.log');
  });
});

describe('LangChain wraps middleware errors', () => {
  it('contextHaltOf finds the ContextHaltedError in the cause chain', async () => {
    const { cs } = setup();
    const error = await cs
      .stabilize({ messages: withOpenLoop(85) }, 'openai', { format: 'openai' })
      .catch((e: unknown) => e);
    expect(contextHaltOf(new Error('MiddlewareError', { cause: error }))).toBe(error);
    expect(contextHaltOf(new Error('other'))).toBeUndefined();
  });
});
