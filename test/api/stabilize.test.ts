import { describe, it, expect } from 'vitest';
import { stabilize, validate } from '../../src/api/stabilize.js';
import { toTranscript } from '../../src/api/input.js';
import { resolvePolicy } from '../../src/api/policy.js';
import { InputError } from '../../src/core/diagnostics.js';
import type { Diagnostic } from '../../src/core/types.js';
import { emitContext } from '../../src/core/emit/index.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import { verifyOpenAI } from '../../src/core/emit/verify.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import { loadTokenizer } from '../../src/tokens/load.js';

const RUSSIAN = 'Заказ отправлен вчера и прибудет завтра.';

function chat(): OpenAIMessage[] {
  return [
    { role: 'system', content: 'You are the support agent of a shop. Be polite.' },
    { role: 'user', content: 'Hello, my order did not arrive. Mail me at kim.api@example.com please.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'find_order', arguments: '{"email":"kim.api@example.com"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"result":"order 7","status":"shipped"}' },
    { role: 'assistant', content: RUSSIAN },
    { role: 'user', content: 'Thanks! When will it arrive?' },
  ];
}

describe('stabilize (library)', () => {
  it('stabilizes an OpenAI messages array with the default policy, PII masked', async () => {
    const result = await stabilize(chat());
    expect(result.transcript).toBe('<memory>');
    expect(result.status).toBe('ok');
    expect(result.budget.limit).toBe(8000);
    expect(result.ledger.map((e) => e.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    const text = JSON.stringify(result.context);
    expect(text).not.toContain('kim.api@example.com');
    expect(text).toContain('[EMAIL_1]');
    const body = emitContext(result.context, 'openai') as { messages: OpenAIMessage[] };
    expect(verifyOpenAI(body.messages)).toEqual([]);
    expect(body.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });

  it('gives exactly what the pure stabilizer gives for the same transcript and policy', async () => {
    const policy = { budget: 120, keep_recent: 1 };
    const parsed = resolvePolicy(policy);
    const tokenizer = await loadTokenizer(parsed.policy.tokenizer);
    const expected = stabilizeTranscript(toTranscript(chat()), {
      policy: parsed.policy,
      tokenizer,
      rules: parsed.rules,
    });
    expect(await stabilize(chat(), { policy })).toEqual(expected);
  });

  it('applies a partial policy: a smaller budget drops what does not fit', async () => {
    // keep_recent 1: the assistant's last answer is the one thing not protected (system, task,
    // latest request, the latest find_order outcome are). With stable_prefix off the stabilizer
    // re-decides newest first and drops just that answer.
    const wide = await stabilize(chat(), { policy: { budget: 8000, keep_recent: 1 } });
    const budget = wide.budget.used - 1;
    const narrow = await stabilize(chat(), {
      policy: { budget, keep_recent: 1, stable_prefix: { enabled: false } },
    });
    expect(narrow.status).toBe('ok');
    expect(narrow.budget.limit).toBe(budget);
    expect(narrow.budget.used).toBeLessThanOrEqual(budget);
    expect(narrow.context.length).toBeLessThan(wide.context.length);
    expect(narrow.ledger.filter((e) => e.action === 'dropped').map((e) => [e.id, e.reason])).toEqual([
      ['m4', 'budget'],
    ]);
  });

  it('under the default stable cut, a smaller budget drops the steps before the cut point, evidence too', async () => {
    // stable_prefix on (issue 27): only must-keep (system, task, latest request) is placed first;
    // the conversation is kept from the earliest grid point from which it fits, so the find_order
    // call and its outcome (should-keep) leave with their step, as `degraded`, and the answer after
    // them stays. The status says so: warning.
    const wide = await stabilize(chat(), { policy: { budget: 8000, keep_recent: 1 } });
    const budget = wide.budget.used - 1;
    const narrow = await stabilize(chat(), { policy: { budget, keep_recent: 1 } });
    expect(narrow.status).toBe('warning');
    expect(narrow.budget.used).toBeLessThanOrEqual(budget);
    expect(narrow.ledger.filter((e) => e.action === 'dropped').map((e) => [e.id, e.reason])).toEqual([
      ['m2', 'degraded'],
      ['m3', 'degraded'],
    ]);
    expect(narrow.context.map((c) => c.id)).toEqual(['m0', 'm1', 'm4', 'm5']);
    expect(narrow.events.map((e) => e.code)).toContain('protected_dropped');
  });

  it('counts tokens with the tokenizer the policy names', async () => {
    for (const name of ['o200k_base', 'cl100k_base'] as const) {
      const result = await stabilize(chat(), { policy: { tokenizer: name } });
      const tokenizer = await loadTokenizer(name);
      const item = result.context.find((c) => c.id === 'm4');
      expect(item?.tokens).toBe(tokenizer.count(RUSSIAN) + 3);
    }
    const o200k = await loadTokenizer('o200k_base');
    const cl100k = await loadTokenizer('cl100k_base');
    expect(o200k.count(RUSSIAN)).not.toBe(cl100k.count(RUSSIAN));
  });

  it('fills a shared token cache and gives the same result with it', async () => {
    const cache = new Map<string, number>();
    const first = await stabilize(chat(), { cache });
    expect(cache.size).toBeGreaterThan(0);
    const second = await stabilize(chat(), { cache });
    expect(second).toEqual(first);
  });

  it('reports policy warnings and transcript diagnostics through onDiagnostic', async () => {
    const seen: Diagnostic[] = [];
    const messages = chat().slice(0, 3); // the call c1 has no result
    await stabilize(messages, {
      policy: { budget: 500, telemetry: 1 } as never,
      file: 'turn-3',
      onDiagnostic: (d) => seen.push(d),
    });
    expect(seen.map((d) => [d.severity, d.code, d.file])).toEqual([
      ['warning', 'unknown-key', '<policy object>'],
      ['warning', 'unpaired-call', 'turn-3'],
    ]);
  });

  it('rejects an invalid policy or payload with an InputError, never quoting the input', async () => {
    await expect(stabilize(chat(), { policy: { budget: -5 } })).rejects.toThrow(InputError);
    const bad = stabilize({ notes: 'CANARY-API-77' });
    await expect(bad).rejects.toThrow(/^<memory>:1:1: error\[unknown-format\]/);
    await expect(bad).rejects.not.toThrow(/CANARY-API-77/);
  });

  it('keeps every emitted request valid while an agent conversation grows under a small budget', async () => {
    const messages: OpenAIMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
    const cache = new Map<string, number>();
    for (let turn = 0; turn < 12; turn++) {
      messages.push({
        role: 'user',
        content: `Step ${turn}: run the tests and report what fails in module ${turn}.`,
      });
      messages.push({
        role: 'assistant',
        content: `Running the tests for module ${turn}.`,
        tool_calls: [
          {
            id: `call_${turn}`,
            type: 'function',
            function: { name: 'bash', arguments: JSON.stringify({ cmd: `npm test -- module${turn}` }) },
          },
        ],
      });
      messages.push({
        role: 'tool',
        tool_call_id: `call_${turn}`,
        content: `module${turn}: 3 passed, 1 failed`,
      });
      const result = await stabilize(messages, { policy: { budget: 300 }, cache });
      const body = emitContext(result.context, 'openai') as { messages: OpenAIMessage[] };
      expect(verifyOpenAI(body.messages), `turn ${turn}`).toEqual([]);
      expect(result.budget.used, `turn ${turn}`).toBeLessThanOrEqual(300);
      const checks = await validate(messages, result, { policy: { budget: 300 } });
      // The task statement (the first user message) is must-keep (issue 27): it never falls out.
      expect(
        result.context.some((c) => c.content === messages[1]?.content),
        `turn ${turn}`,
      ).toBe(true);
      // Once the history is over the budget, the stable cut drops the older steps, should-keep
      // tool outcomes (`tool:bash`) with them: the run is a warning, every such drop is `degraded`,
      // and the one check that fails is `status`, which reports the warning. Never escalated.
      const degraded = result.ledger.filter((e) => e.action === 'dropped' && e.protected_by);
      expect(result.status, `turn ${turn}`).toBe(degraded.length > 0 ? 'warning' : 'ok');
      expect(
        degraded.every((e) => e.reason === 'degraded'),
        `turn ${turn}`,
      ).toBe(true);
      expect(
        checks.filter((c) => !c.ok).map((c) => c.name),
        `turn ${turn}`,
      ).toEqual(result.status === 'warning' ? ['status'] : []);
      if (turn < 5) expect(result.status, `turn ${turn}: the history fits`).toBe('ok');
      else expect(result.status, `turn ${turn}: the history is over the budget`).toBe('warning');
    }
  });
});

describe('validate (library)', () => {
  it('passes every check on a result of stabilize', async () => {
    const result = await stabilize(chat());
    const checks = await validate(chat(), result);
    expect(checks.map((c) => c.name)).toEqual([
      'budget',
      'order',
      'pii',
      'protected',
      'pairing',
      'summaries',
      'ledger',
      'guardian',
      'task',
      'recency',
      'nonempty',
      'provider',
      'fresh_results',
      'status',
    ]);
    expect(checks.every((c) => c.ok)).toBe(true);
  });

  it('finds what a tampered result breaks, with the severities of the policy', async () => {
    const result = await stabilize(chat());
    const tampered: StabilizeResult = {
      ...result,
      context: result.context.filter((c) => c.id !== 'm0' && c.id !== 'm3'),
    };
    const checks = await validate(chat(), tampered, { policy: { checks: { pairing: 'warning' } } });
    const byName = new Map(checks.map((c) => [c.name, c]));
    expect(byName.get('protected')).toMatchObject({ ok: false, severity: 'error' });
    expect(byName.get('protected')?.violations.map((v) => v.id)).toContain('m0');
    expect(byName.get('pairing')).toMatchObject({ ok: false, severity: 'warning' });
  });

  it('accepts the Transcript itself, so a payload is read once for both calls', async () => {
    const transcript = toTranscript(chat(), { file: 'turn.json' });
    const result = await stabilize(transcript);
    expect(result.transcript).toBe('turn.json');
    expect((await validate(transcript, result)).every((c) => c.ok)).toBe(true);
  });
});
