// The in-agent stabilizer and the plain request-body adapter: what an agent loop relies on before
// each model call (a valid request within budget, PII masked, escalation stops the call) and what
// the recording leaves for CI (a native transcript the CLI checks, with no raw PII).
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stabilizeAnthropicRequest, stabilizeOpenAIRequest } from '../../src/adapters/request-body.js';
import { main } from '../../src/cli/main.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { ContextEscalatedError } from '../../src/runtime/errors.js';
import type { RuntimeWarning } from '../../src/runtime/errors.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import { fakeIO } from '../cli/fake-io.js';
import { updateThenCheck } from '../support/check-recording.js';

const EMAIL = 'jane.roe@example.com';
const PHONE = '+1 415 555 0134';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-runtime-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Msg = Record<string, unknown>;

/** An OpenAI chat history of `turns` user turns, each with a bash call and a long result. */
function openaiHistory(turns: number): Msg[] {
  const out: Msg[] = [{ role: 'system', content: 'You are a careful coding agent.' }];
  for (let t = 1; t <= turns; t++) {
    out.push({
      role: 'user',
      content: t === 1 ? `Fix the flaky test. Reach me at ${EMAIL}.` : `Turn ${t}: go on.`,
    });
    out.push({
      role: 'assistant',
      content: `Running step ${t}.`,
      tool_calls: [
        {
          id: `call_${t}`,
          type: 'function',
          function: { name: 'bash', arguments: `{"cmd":"npm test -- part${t}"}` },
        },
      ],
    });
    out.push({
      role: 'tool',
      tool_call_id: `call_${t}`,
      content: `part${t}: ok\n` + `log line ${t}\n`.repeat(40) + `owner ${PHONE}`,
    });
    out.push({ role: 'assistant', content: `Step ${t} passed; moving on to the next part of the suite.` });
  }
  return out;
}

describe('the request-body adapter in an agent loop', () => {
  it('sends, at every call, a valid OpenAI request within budget that keeps the system prompt and the latest request, with no PII', async () => {
    const cs = createContextStabilizer({ policy: { budget: 600 }, onWarning: () => {} });
    const history = openaiHistory(12);
    let cut = false;
    for (let n = 2; n <= history.length; n++) {
      if (history[n - 1]!['role'] !== 'user' && history[n - 1]!['role'] !== 'tool') continue;
      const body = { model: 'gpt-test', temperature: 0, messages: history.slice(0, n) };
      const out = await stabilizeOpenAIRequest(cs, body, { session: 'loop' });
      expect(out.model).toBe('gpt-test');
      expect(out.temperature).toBe(0);
      expect(verifyOpenAI(out.messages)).toEqual([]);
      expect(out.messages[0]).toMatchObject({ role: 'system' });
      const lastUser = [...history.slice(0, n)].reverse().find((m) => m['role'] === 'user')!;
      expect(
        out.messages.some(
          (m) =>
            m.role === 'user' && JSON.stringify(m.content).includes(String(lastUser['content']).slice(0, 8)),
        ),
      ).toBe(true);
      const text = JSON.stringify(out.messages);
      expect(text).not.toContain(EMAIL);
      expect(text).not.toContain('555 0134');
      if (out.messages.length < n) cut = true;
    }
    expect(cut).toBe(true);
  });

  it('an Anthropic body keeps its other fields and its system prompt, and passes the API rules', async () => {
    const cs = createContextStabilizer({ policy: { budget: 2000 }, onWarning: () => {} });
    const body = {
      model: 'claude-test',
      max_tokens: 512,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: `Look up the order for ${EMAIL}` },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu1', name: 'lookup', input: { q: 'order' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'order 7 shipped' }] },
      ],
    };
    const out = await stabilizeAnthropicRequest(cs, body, { session: 'a' });
    expect(out.model).toBe('claude-test');
    expect(out.max_tokens).toBe(512);
    expect(out.system).toBe('Be brief.');
    expect(verifyAnthropic(out)).toEqual([]);
    expect(JSON.stringify(out)).not.toContain(EMAIL);
    expect(out.messages).toHaveLength(3);
  });

  it('the same history gives the same request, whatever was stabilized before in the session', async () => {
    const history = openaiHistory(6);
    const warm = createContextStabilizer({ policy: { budget: 500 }, onWarning: () => {} });
    for (let n = 2; n < history.length; n++)
      await stabilizeOpenAIRequest(warm, { messages: history.slice(0, n) });
    const fresh = createContextStabilizer({ policy: { budget: 500 }, onWarning: () => {} });
    const a = await stabilizeOpenAIRequest(warm, { messages: history });
    const b = await stabilizeOpenAIRequest(fresh, { messages: history });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});

describe('escalation', () => {
  const tiny = { budget: 12, keep_recent: 0 };
  const history = [
    { role: 'system', content: 'You are a careful agent that follows every rule of the repository exactly.' },
    {
      role: 'user',
      content: 'Please fix the failing build of the payments service before the release today.',
    },
  ];

  it('stops the call with ContextEscalatedError when the policy cannot be honoured (default: stop)', async () => {
    const cs = createContextStabilizer({ policy: tiny, onWarning: () => {} });
    const error = await stabilizeOpenAIRequest(cs, { messages: history }, { session: 's1' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContextEscalatedError);
    const e = error as ContextEscalatedError;
    expect(e.code).toBe('context_escalated');
    expect(e.session).toBe('s1');
    expect(e.result.status).toBe('escalated');
    expect(e.reasons.length).toBeGreaterThan(0);
  });

  it('an uncaught escalation prints a few lines, never the context or a raw session id (issue 29)', async () => {
    const session = `thread-${EMAIL}`;
    const cs = createContextStabilizer({ policy: tiny, onWarning: () => {}, record: dir });
    const e = (await stabilizeOpenAIRequest(cs, { messages: history }, { session }).catch(
      (x: unknown) => x,
    )) as ContextEscalatedError;
    expect(e).toBeInstanceOf(ContextEscalatedError);
    const lines = e.message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^context-stability: the context of session \S*\[REDACTED_EMAIL\] is escalated \(authority_over_budget\): 34 of 12 tokens, 2 of 2 artifacts kept\.$/,
    );
    expect(lines[2]).toMatch(
      /^Investigate: npx context-stability stabilize .+\.jsonl --policy <your policy>/,
    );
    expect(lines[2]).not.toContain(EMAIL);
    // What Node prints for an uncaught error: the stack and the enumerable fields. The details stay
    // on the error, not enumerable: the context (3,000 lines before), the raw session id.
    const printed = inspect(e);
    expect(printed.split('\n').length).toBeLessThan(25);
    expect(printed).not.toContain(EMAIL);
    expect(printed).not.toContain('payments service');
    expect(Object.keys(e)).toEqual(['code']);
    expect(e.session).toBe(session);
    expect(e.result.status).toBe('escalated');
    expect(e.reasons.length).toBeGreaterThan(0);
    expect(e.recording).toMatch(/\.jsonl$/);
  });

  it('goes on with a warning when the policy says continue', async () => {
    const warnings: RuntimeWarning[] = [];
    const cs = createContextStabilizer({
      policy: { ...tiny, runtime: { on_escalated: 'continue' } },
      onWarning: (w) => warnings.push(w),
    });
    const out = await stabilizeOpenAIRequest(cs, { messages: history });
    expect(out.messages.length).toBeGreaterThan(0);
    expect(warnings.map((w) => w.code)).toContain('escalated');
  });

  it('never shows a session id that holds PII in the error or warnings', async () => {
    const session = `thread-${EMAIL}`;
    const stop = createContextStabilizer({ policy: tiny, onWarning: () => {} });
    const e = (await stabilizeOpenAIRequest(stop, { messages: history }, { session }).catch(
      (x: unknown) => x,
    )) as ContextEscalatedError;
    expect(e).toBeInstanceOf(ContextEscalatedError);
    expect(e.session).toBe(session);
    expect(e.message).not.toContain(EMAIL);
    expect(e.message).toContain('[REDACTED_EMAIL]');
    const warnings: RuntimeWarning[] = [];
    const go = createContextStabilizer({
      policy: { ...tiny, runtime: { on_escalated: 'continue' } },
      onWarning: (w) => warnings.push(w),
    });
    const out = await stabilizeOpenAIRequest(go, { messages: history }, { session });
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) expect(w.message).not.toContain(EMAIL);
    expect(JSON.stringify(out)).not.toContain(EMAIL);
  });

  it('the option overrides the policy', async () => {
    const cs = createContextStabilizer({
      policy: { ...tiny, runtime: { on_escalated: 'continue' } },
      onEscalated: 'stop',
      onWarning: () => {},
    });
    await expect(stabilizeOpenAIRequest(cs, { messages: history })).rejects.toBeInstanceOf(
      ContextEscalatedError,
    );
  });
});

describe('policy', () => {
  it('reads the repo policy file under cwd, and reports a bad one as an InputError with its line', async () => {
    writeFileSync(path.join(dir, 'p.yml'), 'budget: 123\n');
    const cs = createContextStabilizer({ cwd: dir, policyFile: 'p.yml' });
    expect((await cs.policy()).budget).toBe(123);
    writeFileSync(path.join(dir, 'bad.yml'), 'budget: lots\n');
    const bad = createContextStabilizer({ cwd: dir, policyFile: 'bad.yml' });
    await expect(bad.policy()).rejects.toThrow(/bad\.yml:1:9/);
  });
});

describe('recording', () => {
  it('appends each call once, masks PII at write time, and the recording passes check', async () => {
    const rec = path.join(dir, 'recorded');
    const cs = createContextStabilizer({ policy: { budget: 600 }, record: rec, onWarning: () => {} });
    const history = openaiHistory(5);
    for (let n = 2; n <= history.length; n++) {
      await stabilizeOpenAIRequest(cs, { messages: history.slice(0, n) }, { session: 'run-1' });
    }
    expect(readdirSync(rec)).toEqual(['run-1.jsonl']);
    const text = readFileSync(path.join(rec, 'run-1.jsonl'), 'utf8');
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain('555 0134');
    expect(text).toContain('[EMAIL_1]');
    const lines = text.trimEnd().split('\n');
    // One meta line, then each artifact once.
    expect(lines).toHaveLength(1 + history.length);
    const read = readTranscript(text, { file: 'run-1.jsonl' });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.transcript.format).toBe('native');
    expect(read.transcript.artifacts.map((a) => a.id)).toEqual(history.map((_, i) => `m${i}`));
    expect(read.transcript.pairing.unpairedCalls).toEqual([]);

    writeFileSync(path.join(dir, 'policy.yml'), 'budget: 600\n');
    const { update, check } = await updateThenCheck(dir, 'recorded/run-1.jsonl', 'policy.yml');
    expect(update.code).toBe(0);
    expect(check.code).toBe(0);
    const report = JSON.parse(check.out) as {
      transcripts: { outcome: string; status: string; violations: unknown[] }[];
    };
    // The five turns are over the budget of 600: the stable cut (stable_prefix, the default since
    // issue 27) drops the older steps with their should-keep bash results, so the run is a warning
    // and the one finding is the status check's (a warning, which does not fail the check).
    expect(report.transcripts[0]).toMatchObject({
      outcome: 'pass',
      status: 'warning',
      violations: [
        expect.objectContaining({
          check: 'status',
          severity: 'warning',
          message: expect.stringContaining('(protected_dropped)') as unknown,
        }),
      ],
    });
  });

  it('without masking, the recording keeps the text as sent; its golden still holds no PII', async () => {
    const rec = path.join(dir, 'raw');
    const cs = createContextStabilizer({
      policy: { budget: 4000 },
      record: { dir: rec, maskPii: false },
      onWarning: () => {},
    });
    await stabilizeOpenAIRequest(cs, { messages: openaiHistory(1) }, { session: 'r' });
    const text = readFileSync(path.join(rec, 'r.jsonl'), 'utf8');
    expect(text).toContain(EMAIL);
    // The stabilizer masks it in the context, so the checks pass; the fixture itself is what leaks,
    // which is why masking at write time is the default.
    writeFileSync(path.join(dir, 'policy.yml'), 'budget: 4000\n');
    const io = fakeIO(dir);
    await main(['update', 'raw/r.jsonl', '--policy', 'policy.yml'], io);
    expect(readFileSync(path.join(dir, 'golden/raw/r.jsonl.golden.json'), 'utf8')).not.toContain(EMAIL);
  });

  it('a rewritten history starts a new file instead of mixing two histories', async () => {
    const rec = path.join(dir, 'rec');
    const cs = createContextStabilizer({ policy: { budget: 4000 }, record: rec, onWarning: () => {} });
    const history = openaiHistory(2);
    await stabilizeOpenAIRequest(cs, { messages: history }, { session: 's' });
    const rewritten = [history[0]!, { role: 'user', content: 'A summary of what happened so far.' }];
    await stabilizeOpenAIRequest(cs, { messages: rewritten }, { session: 's' });
    expect(readdirSync(rec).sort()).toEqual(['s.2.jsonl', 's.jsonl']);
    expect(readFileSync(path.join(rec, 's.2.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(3);
  });

  it('a session id with PII or path characters becomes a safe file name without the PII', async () => {
    const rec = path.join(dir, 'rec');
    const cs = createContextStabilizer({ policy: { budget: 4000 }, record: rec, onWarning: () => {} });
    await stabilizeOpenAIRequest(cs, { messages: openaiHistory(1) }, { session: `../${EMAIL}/x` });
    const [name] = readdirSync(rec);
    expect(name).toBeDefined();
    expect(name).not.toContain('example.com');
    expect(name).not.toContain('/');
    expect(name!.endsWith('.jsonl')).toBe(true);
  });

  it('a recording that cannot be written warns (code, never content) and the call goes on', async () => {
    const blocker = path.join(dir, 'file');
    writeFileSync(blocker, 'not a folder');
    const warnings: RuntimeWarning[] = [];
    const cs = createContextStabilizer({
      policy: { budget: 4000 },
      record: path.join(blocker, 'sub'),
      onWarning: (w) => warnings.push(w),
    });
    const out = await stabilizeOpenAIRequest(cs, { messages: openaiHistory(1) }, { session: 's' });
    expect(out.messages.length).toBeGreaterThan(0);
    expect(warnings.map((w) => w.code)).toEqual(['recording']);
    expect(warnings[0]!.message).not.toContain(EMAIL);
  });
});
