// Seed 004 ("Long Session Stability Harness") key scenarios 1-4 under the default policy and the
// o200k tokenizer, each with the context it must produce; then the PRD's own example, in its own
// artifact shape (kinds system, task, message, tool_output), under the policy it describes.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import { DEFAULT_POLICY, parsePolicy } from '../../src/core/policy/index.js';
import type { Policy } from '../../src/core/policy/index.js';
import { readTranscript } from '../../src/core/readers/index.js';
import type { Transcript } from '../../src/core/types.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { asst, call, calls, result, sys, t, user } from '../support/artifacts.js';
import { check, entry, ids, run } from '../core/stabilize/helpers.js';

let o200k: Tokenizer;
beforeAll(async () => {
  o200k = await loadTokenizer('o200k_base');
});

const SYSTEM = 'You are the billing assistant of Acme. Never promise refunds; escalate disputes to a human.';

describe('seed 004, scenario 1: a long conversation', () => {
  it('keeps the system prompt, the task and the latest request within the budget, all checks passing', () => {
    const turns = [];
    for (let i = 0; i < 300; i++) {
      turns.push(
        user(`u${i}`, `Question ${i}: what does line ${i} of invoice 7 mean, and is the amount right?`),
      );
      turns.push(
        asst(`a${i}`, `Line ${i} is a usage charge for week ${i % 52}; the amount matches the tariff.`),
      );
    }
    const tr = t(
      sys('s', SYSTEM),
      ...turns,
      user('last', 'Thanks. Now please explain the late fee on the last page.'),
    );
    const r = run(tr, DEFAULT_POLICY, o200k);
    const kept = ids(r);
    expect(kept[0]).toBe('s');
    expect(kept).toContain('u0'); // the task statement: the first user message
    expect(kept.at(-1)).toBe('last'); // the latest request, last in chronology
    expect(r.budget.used).toBeLessThanOrEqual(8000);
    expect(r.context.length).toBeLessThan(tr.artifacts.length);
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, DEFAULT_POLICY, o200k)).filter((c) => !c.ok)).toEqual([]);
  });
});

describe('seed 004, scenario 2: PII pasted into the chat', () => {
  it('masks a phone number and an ID number before the model sees them', () => {
    const tr = t(
      sys('s', SYSTEM),
      user('u1', 'My invoice is wrong. Call me at +1 415 555 2671; my SSN is 078-05-1120 if you need it.'),
      asst('a1', 'I will look at the invoice now.'),
    );
    const r = run(tr, DEFAULT_POLICY, o200k);
    const text = JSON.stringify(emitContext(r.context, 'openai'));
    expect(text).not.toContain('415 555 2671');
    expect(text).not.toContain('078-05-1120');
    expect(text).toContain('[PHONE_1]');
    expect(text).toContain('[SSN_1]');
    expect(r.ledger.find((e) => e.id === 'u1')).toMatchObject({
      action: 'masked',
      pii: { phone: 1, ssn: 1 },
    });
    expect(check(tr, r, DEFAULT_POLICY, o200k)['pii']).toMatchObject({ ok: true });
  });
});

describe('seed 004, scenario 3: a verbose tool output', () => {
  // "The system should drop this tool output to stay within budget." How it comes about:
  // - protect: the query result is a table, contents rather than a command outcome (outcome.ts), and
  //   sql_query is no protected tool: nothing protects it (nor its call).
  // - tool output: the history is over the budget (pressure), but the result belongs to the recent
  //   window (keep_recent 2), which tool_output.max_tokens never cuts.
  // - budget (stable_prefix): the call and its result are one unit of about 15,400 tokens, larger
  //   than the room the conversation has on its own: that unit is dropped by itself and does not move
  //   the cut point, so every chat message stays.
  it('drops a 12,800-token query result and keeps the whole conversation within a 2,000 budget', () => {
    const rows = Array.from(
      { length: 640 },
      (_, i) =>
        `| ${1000 + i} | customer-${i} | 2026-0${(i % 9) + 1}-1${i % 10} | ${(i * 37) % 1000}.00 | open |`,
    );
    const output = ['| id | customer | date | amount | state |', ...rows, '(640 rows)'].join('\n');
    const chat = [];
    for (let i = 0; i < 6; i++) {
      chat.push(user(`u${i}`, `Question ${i}: which invoices of batch ${i} are still open?`));
      chat.push(asst(`a${i}`, `Batch ${i} has a few open invoices; I will list them for you.`));
    }
    const tr = t(
      sys('s', SYSTEM),
      ...chat,
      calls('q', [call('c1', 'sql_query', { sql: 'SELECT * FROM invoices WHERE state = open' })]),
      result('r', 'c1', output),
      user('last', 'Summarise the open amounts by month, please.'),
    );
    const policy = { ...DEFAULT_POLICY, budget: 2000 };
    const r = run(tr, policy, o200k);
    expect(o200k.count(output)).toBeGreaterThan(12_000);
    // Every chat message stays; the query result, larger than the whole budget, is dropped at the
    // tool-output stage (it could never go out whole), and its call leaves with it.
    expect(ids(r)).toEqual(['s', ...chat.map((c) => c.id), 'last']);
    expect(entry(r, 'r')).toMatchObject({
      stage: 'tool_output',
      action: 'dropped',
      reason: 'verbose_tool_output',
    });
    expect(entry(r, 'q')).toMatchObject({ action: 'dropped', reason: 'pair_unit' });
    expect(r.budget.used).toBeLessThanOrEqual(2000);
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, policy, o200k)).filter((c) => !c.ok)).toEqual([]);
  });
});

describe('seed 004, scenario 4: control degradation', () => {
  const tr = t(
    sys('s', SYSTEM),
    user('u1', 'Why was I charged twice?'),
    asst('a1', 'Let me check.'),
    user('u2', 'Any news?'),
  );

  it('fails when the system prompt was pushed out of the context', () => {
    const r = run(tr, DEFAULT_POLICY, o200k);
    const broken = { ...structuredClone(r), context: r.context.filter((c) => c.id !== 's') };
    broken.ledger = broken.ledger.map((e) =>
      e.id === 's' ? { ...e, action: 'dropped', reason: 'budget', tokens_after: 0 } : e,
    );
    expect(check(tr, broken, DEFAULT_POLICY, o200k)['protected']).toMatchObject({
      ok: false,
      violations: [expect.objectContaining({ id: 's', line: 1 })],
    });
  });

  it('fails when the system prompt no longer comes first', () => {
    const r = run(tr, DEFAULT_POLICY, o200k);
    const moved = { ...structuredClone(r) };
    moved.context = [...r.context.filter((c) => c.id !== 's'), ...r.context.filter((c) => c.id === 's')];
    expect(check(tr, moved, DEFAULT_POLICY, o200k)['order']).toMatchObject({ ok: false });
  });
});

describe("seed 004: the PRD's example in its own artifact shape (examples/prd)", () => {
  const ROOT = new URL('../../', import.meta.url);
  let tr: Transcript;
  let policy: Policy;
  let lastTwo: string[];
  const PHONE = '+44 20 7946 0958';

  beforeAll(() => {
    const file = 'examples/prd/session.json';
    const read = readTranscript(readFileSync(new URL(file, ROOT), 'utf8'), { file });
    const policyFile = 'examples/prd/context-policy.yml';
    const parsed = parsePolicy(readFileSync(new URL(policyFile, ROOT), 'utf8'), { file: policyFile });
    if (!read.ok) throw new Error(read.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`).join('\n'));
    if (!parsed.ok) throw new Error(`${policyFile} is not a valid policy`);
    tr = read.transcript;
    policy = parsed.policy;
    lastTwo = messagesOf(tr)
      .slice(-2)
      .map((a) => a.id);
  });

  const messagesOf = (transcript: Transcript) =>
    transcript.artifacts.filter((a) => a.kind === 'user' || a.kind === 'assistant');

  /** Every text the model is sent, without the aliases masking left (`[DIGIT_RUN_3]`, `[PHONE_1]`). */
  function sent(policyUsed: Policy): string {
    const r = run(tr, policyUsed, o200k);
    return JSON.stringify(emitContext(r.context, 'openai')).replace(/\[[A-Z_]+_\d+\]/g, '[alias]');
  }

  it('reads as native: a system prompt, a task, messages and two call-less tool outputs', () => {
    expect(tr.format).toBe('native');
    expect(tr.diagnostics).toEqual([]);
    expect(tr.artifacts.slice(0, 2).map((a) => a.kind)).toEqual(['system', 'task']);
    expect(messagesOf(tr).length).toBeGreaterThanOrEqual(15);
    expect(tr.artifacts.filter((a) => a.kind === 'tool').map((a) => a.id)).toEqual([
      'plan-lookup',
      'usage-export',
    ]);
    expect(tr.pairing).toEqual({ resultToCall: {}, unpairedCalls: [], unpairedResults: [] });
    expect(policy).toMatchObject({ budget: 1000, keep_recent: 2, pii: { digit_run: 3 } });
  });

  it('keeps system and task first and the 2 latest messages, drops the verbose output, masks every digit run', () => {
    const r = run(tr, policy, o200k);
    const kept = ids(r);
    expect(kept.slice(0, 2)).toEqual(['system', 'task']);
    expect(kept.slice(-2)).toEqual(lastTwo);
    for (const id of lastTwo) expect(entry(r, id).protected_by).toContain('recent');
    // FR3 / scenario 3: the verbose tool output is dropped; the short one fits and is kept.
    expect(o200k.count(String(tr.artifacts.find((a) => a.id === 'usage-export')?.content))).toBeGreaterThan(
      policy.budget * 5,
    );
    expect(entry(r, 'usage-export')).toMatchObject({
      stage: 'tool_output',
      action: 'dropped',
      reason: 'verbose_tool_output',
    });
    expect(entry(r, 'plan-lookup')).toMatchObject({ action: 'kept', reason: 'in_budget' });
    expect(r.ledger.some((e) => e.reason === 'unpaired_result')).toBe(false);
    // FR2 / scenario 2: the pasted phone number, the account number and every other run of 3+ digits.
    const text = sent(policy);
    expect(text).not.toContain(PHONE);
    expect(text).not.toMatch(/\d{3,}/);
    expect(r.ledger.find((e) => e.pii?.['phone'])).toMatchObject({ pii: { phone: 1, digit_run: 1 } });
    // FR4, FR6: the budget is met and every check passes.
    expect(r.budget.used).toBeLessThanOrEqual(1000);
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, policy, o200k)).filter((c) => !c.ok)).toEqual([]);
  });

  it('under a smaller budget, cuts the older messages and still keeps system, task and the latest turns', () => {
    const small = { ...policy, budget: 400 };
    const r = run(tr, small, o200k);
    const kept = ids(r);
    expect(kept.slice(0, 2)).toEqual(['system', 'task']);
    expect(kept.slice(-2)).toEqual(lastTwo);
    expect(entry(r, 'm1')).toMatchObject({ stage: 'budget', action: 'dropped', reason: 'budget' });
    expect(entry(r, 'usage-export')).toMatchObject({ action: 'dropped', reason: 'verbose_tool_output' });
    expect(sent(small)).not.toMatch(/\d{3,}/);
    expect(r.budget.used).toBeLessThanOrEqual(400);
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, small, o200k)).filter((c) => !c.ok)).toEqual([]);
  });
});
