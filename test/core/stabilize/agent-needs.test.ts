// Issue 27: decisions an agent can work with. The result the agent just asked for arrives whole,
// different commands never supersede each other, should-keep evidence degrades before anything
// escalates, and a growing history keeps its prefix from call to call.
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalRequest } from '../../../src/core/cache/prefix.js';
import { emitContext } from '../../../src/core/emit/index.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../../src/core/types.js';
import { loadTokenizer } from '../../../src/tokens/load.js';
import { asst, call, calls, result, sys, t, user } from '../../support/artifacts.js';
import { check, entry, fate, ids, item, policy, run } from './helpers.js';

let o200k: Tokenizer;
beforeAll(async () => {
  o200k = await loadTokenizer('o200k_base');
});

function sourceFile(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `def function_${i}(x):\n    return x * ${i} + ${(i * 7) % 13}  # step ${i}`,
  ).join('\n');
}

describe('fresh results: the open tool loop arrives whole', () => {
  it('keeps a 3,000-token read result the agent just asked for, with room to spare', () => {
    const file = sourceFile(200);
    const tr = t(
      sys('s', 'You are a coding agent.'),
      user('u', 'read src/app.py and tell me what function_150 does'),
      calls('a', [call('c1', 'read_file', { path: 'src/app.py' })]),
      result('r', 'c1', file),
    );
    const p = policy({ budget: 30_000, message_overhead: 3 });
    const r = run(tr, p, o200k);
    expect(o200k.count(file)).toBeGreaterThan(2_500);
    expect(ids(r)).toEqual(['s', 'u', 'a', 'r']);
    expect(item(r, 'r').content).toBe(file);
    expect(entry(r, 'r').protected_by).toContain('open_loop');
    expect(r.status).toBe('ok');
    expect(Object.values(check(tr, r, p, o200k)).filter((c) => !c.ok)).toEqual([]);
  });

  it('cuts no older output over tool_output.max_tokens while the history fits', () => {
    const file = sourceFile(60);
    const tr = t(
      sys('s', 'You are a coding agent.'),
      user('u1', 'read src/app.py'),
      calls('a1', [call('c1', 'read_file', { path: 'src/app.py' })]),
      result('r1', 'c1', file),
      asst('a2', 'It defines sixty small functions.'),
      user('u2', 'and what does function_12 return?'),
    );
    const r = run(tr, policy({ budget: 30_000, message_overhead: 3 }), o200k);
    expect(fate(r, 'r1')).toBe('kept/in_budget');
    expect(item(r, 'r1').content).toBe(file);
  });

  it('cuts an older output over the limit once the history does not fit, never the open loop', () => {
    const big = sourceFile(50);
    const tr = t(
      sys('s', 'You are a coding agent.'),
      user('u1', 'read a.py'),
      calls('a1', [call('c1', 'read_file', { path: 'a.py' })]),
      result('r1', 'c1', big),
      asst('a1b', 'a.py holds the helpers.'),
      user('u2', 'now read b.py'),
      asst('a2t', 'Reading b.py.'),
      user('u3', 'go on'),
      calls('a3', [call('c3', 'read_file', { path: 'b.py' })]),
      result('r3', 'c3', big.replace(/function_/g, 'method_')),
    );
    const p = policy({ budget: 1_500, message_overhead: 3 });
    const r = run(tr, p, o200k);
    expect(o200k.count(big)).toBeGreaterThan(700);
    expect(r.budget.used).toBeLessThanOrEqual(1_500);
    // The fresh result is whole although it is over tool_output.max_tokens.
    expect(item(r, 'r3').content).toBe(big.replace(/function_/g, 'method_'));
    expect(entry(r, 'r1').reason).toBe('verbose_tool_output');
  });
});

describe('supersession by the identical invocation only', () => {
  it('keeps kubectl -n web after kubectl -n db ran, and both psql queries', () => {
    const pods = (ns: string): string =>
      [
        'NAME READY STATUS RESTARTS AGE',
        `${ns}-api-7d9f 1/1 Running 0 3d`,
        `${ns}-worker-5c2b 1/1 Running 2 3d`,
      ].join('\n');
    const tr = t(
      sys('s', 'You operate the cluster.'),
      user('u', 'why is the web api slow? check the pods and the database'),
      calls('a1', [call('c1', 'bash', { command: 'kubectl get pods -n web' })]),
      result('r1', 'c1', pods('web')),
      calls('a2', [call('c2', 'bash', { command: 'kubectl get pods -n db' })]),
      result('r2', 'c2', pods('db')),
      calls('a3', [call('c3', 'bash', { command: "psql -c 'select count(*) from users'" })]),
      result('r3', 'c3', ' count \n-------\n 48213\n(1 row)'),
      calls('a4', [call('c4', 'bash', { command: "psql -c 'select count(*) from orders'" })]),
      result('r4', 'c4', ' count \n-------\n 912044\n(1 row)'),
      calls('a5', [call('c5', 'bash', { command: 'kubectl logs web-api-7d9f -n web --tail 50' })]),
      result('r5', 'c5', 'GET /health 200 3ms'),
    );
    const r = run(tr, policy({ budget: 8_000, message_overhead: 3 }), o200k);
    expect(ids(r)).toEqual(['s', 'u', 'a1', 'r1', 'a2', 'r2', 'a3', 'r3', 'a4', 'r4', 'a5', 'r5']);
  });

  it('drops an earlier result of the same command, whitespace and quoting aside', () => {
    const tr = t(
      sys('s', 'You operate the cluster.'),
      user('u', 'watch the web pods'),
      calls('a1', [call('c1', 'bash', { command: 'kubectl get pods  -n "web"' })]),
      result('r1', 'c1', 'web-api-7d9f 0/1 Pending 0 1m'),
      calls('a2', [call('c2', 'bash', { command: "kubectl get pods -n 'web'" })]),
      result('r2', 'c2', 'web-api-7d9f 1/1 Running 0 2m'),
      asst('a3', 'The pod is running now.'),
    );
    // With room to spare the history goes out unchanged.
    const roomy = run(tr, policy({ budget: 8_000, message_overhead: 3 }), o200k);
    expect(fate(roomy, 'r1')).toBe('kept/in_budget');
    // Under pressure the stale result goes first.
    const r = run(tr, policy({ budget: roomy.budget.used - 5, message_overhead: 3 }), o200k);
    expect(fate(r, 'r1')).toBe('dropped/superseded');
    expect(ids(r)).toContain('r2');
  });
});

describe('two tiers: should-keep degrades before anything escalates', () => {
  it('drops old protected evidence (a warning) where system, task and latest request fit', () => {
    const err = (n: number): string => `Error: test ${n} failed\n${'  at frame\n'.repeat(120)}`;
    const drafts = [sys('s', 'You fix tests.'), user('u0', 'make the suite pass')];
    for (let i = 0; i < 6; i++) {
      drafts.push(calls(`a${i}`, [call(`c${i}`, 'bash', { command: `npm test -- --shard ${i}` })]));
      drafts.push(result(`r${i}`, `c${i}`, err(i), { is_error: true }));
    }
    drafts.push(user('last', 'status?'));
    const tr = t(...drafts);
    const p = policy({ budget: 400, message_overhead: 3 });
    const r = run(tr, p, o200k);
    expect(r.status).toBe('warning');
    expect(r.budget.used).toBeLessThanOrEqual(400);
    expect(ids(r)).toEqual(expect.arrayContaining(['s', 'u0', 'last']));
    expect(r.ledger.filter((e) => e.reason === 'degraded').length).toBeGreaterThan(0);
    // The oldest evidence goes first.
    expect(fate(r, 'r0')).toBe('dropped/degraded');
    expect(r.events.map((e) => e.code)).toContain('protected_dropped');
    const failing = Object.values(check(tr, r, p, o200k)).filter((c) => !c.ok);
    expect(failing.map((c) => [c.name, c.severity])).toEqual([['status', 'warning']]);
  });
});

describe('a stable prefix across calls', () => {
  function session(turns: number): Transcript {
    const drafts = [sys('s', 'You are a support agent.')];
    for (let i = 0; i < turns; i++) {
      drafts.push(user(`u${i}`, `Question ${i}: ${'please look at order details again '.repeat(6)}`));
      drafts.push(
        asst(`a${i}`, `Answer ${i}: ${'the order is on its way and should arrive soon '.repeat(6)}`),
      );
    }
    return t(...drafts);
  }
  const request = (tr: Transcript, budget: number): string => {
    const r = run(tr, policy({ budget, message_overhead: 3 }), o200k);
    expect(r.budget.used).toBeLessThanOrEqual(budget);
    return canonicalRequest('openai', emitContext(r.context, 'openai', tr));
  };

  it('repeats the previous request as a prefix on most calls once the history is over budget', () => {
    let previous: string | undefined;
    let appended = 0;
    let calls = 0;
    for (let n = 20; n < 60; n++) {
      const now = request(session(n), 2_000);
      if (previous !== undefined) {
        calls++;
        if (now.startsWith(previous)) appended++;
      }
      previous = now;
    }
    expect(calls).toBe(39);
    // Each cut frees a quarter of the budget (low_water 0.75): about four calls of growth.
    expect(appended / calls).toBeGreaterThan(0.6);
  });

  it('re-cuts every call with stable_prefix off (newest first)', () => {
    let previous: string | undefined;
    let appended = 0;
    for (let n = 20; n < 30; n++) {
      const tr = session(n);
      const r = run(
        tr,
        policy({ budget: 2_000, message_overhead: 3, stable_prefix: { enabled: false } }),
        o200k,
      );
      const now = canonicalRequest('openai', emitContext(r.context, 'openai', tr));
      if (previous !== undefined && now.startsWith(previous)) appended++;
      previous = now;
    }
    expect(appended).toBe(0);
  });
});

describe('outcome versus contents: a protected tool that only returns contents', () => {
  it('says so in a policy event, and its results compete on budget', () => {
    const tr = t(
      sys('s', 'You answer from the handbook.'),
      user('u', 'what is the refund window?'),
      calls('a1', [call('c1', 'read_doc', { path: 'handbook/refunds.md' })]),
      result('r1', 'c1', 'Refunds are accepted within 30 days of delivery for unused items.'),
      asst('a2', 'Thirty days from delivery.'),
    );
    const p = policy({ budget: 8_000, resilience: { protected_tools: ['bash', 'read_doc'] } });
    const r = run(tr, p, o200k);
    const event = r.events.find((e) => e.code === 'policy');
    expect(event?.message).toContain('read_doc');
    expect(entry(r, 'r1').protected_by ?? []).not.toContain('tool:read_doc');
  });
});
