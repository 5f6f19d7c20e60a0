// The prompt-cache prefix replay: a history that only grows keeps the cache warm (share 1), a policy
// that drops early content breaks it at the turn it starts, the check reports that turn, and the
// replay is deterministic and capped.
import { describe, expect, it } from 'vitest';
import {
  cachePrefixCheck,
  callPoints,
  canonicalRequest,
  commonPrefixLength,
  pickMeasured,
  replayCachePrefix,
} from '../../../src/core/cache/prefix.js';
import { describeCachePrefix } from '../../../src/core/cache/describe.js';
import { policyFromObject } from '../../../src/core/policy/index.js';
import type { Policy } from '../../../src/core/policy/index.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import { asst, bash, calls, result, summary, sys, t, user, words } from '../../support/artifacts.js';

/** About four characters a token, as BPE gives for English: prefix shares stay easy to reason about. */
const chars: Tokenizer = { name: 'chars', version: '1', count: (text) => Math.ceil(text.length / 4) };

function policy(overrides: Record<string, unknown> = {}): Policy {
  const parsed = policyFromObject({ message_overhead: 0, ...overrides }, { file: 'policy.yml' });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  return parsed.policy;
}

/** Six turns of an agent, each a request, a command, its output and an answer. */
const session = t(
  sys('s', 'You are a careful coding agent.'),
  ...[1, 2, 3, 4, 5, 6].flatMap((n) => [
    user(`u${n}`, `Step ${n}: ${words(30, `ask${n}`)}`),
    calls(`a${n}`, [bash(`c${n}`, `make step${n}`)], `Running step ${n}.`),
    result(`r${n}`, `c${n}`, words(40, `out${n}`)),
    asst(`b${n}`, `Step ${n} done: ${words(20, `done${n}`)}`),
  ]),
);

describe('callPoints', () => {
  it('is every point where the agent calls the model: after a user message and after tool results', () => {
    const points = callPoints(session.artifacts).map((p) => session.artifacts[p.index]?.id);
    expect(points).toEqual(['u1', 'r1', 'u2', 'r2', 'u3', 'r3', 'u4', 'r4', 'u5', 'r5', 'u6', 'r6']);
    const turns = callPoints(session.artifacts).map((p) => p.turn?.id);
    expect(turns).toEqual(['u1', 'u1', 'u2', 'u2', 'u3', 'u3', 'u4', 'u4', 'u5', 'u5', 'u6', 'u6']);
  });

  it('counts a history that ends waiting for the model as a call', () => {
    const open = t(sys('s', 'x'), user('u1', 'hello'), asst('a1', 'hi'), user('u2', 'again'));
    expect(callPoints(open.artifacts).map((p) => open.artifacts[p.index]?.id)).toEqual(['u1', 'u2']);
  });
});

describe('replayCachePrefix', () => {
  it('gives share 1.0 at every call after the first when the history only grows', () => {
    const { summary, points } = replayCachePrefix(session, {
      policy: policy({ budget: 100_000 }),
      tokenizer: chars,
    });
    expect(summary.calls).toBe(12);
    expect(summary.replayed).toBe(11);
    expect(points.map((p) => p.share)).toEqual(Array(11).fill(1));
    expect(summary.mean_share).toBe(1);
    expect(summary.min_share).toBe(1);
    expect(summary.reused_tokens).toBeGreaterThan(0);
    expect(summary.reused_tokens).toBeLessThan(summary.sent_tokens);
    expect(summary.format).toBe('openai');
    const check = cachePrefixCheck(points, 'error', 0.5);
    expect(check).toEqual({ name: 'cache_prefix', ok: true, severity: 'error', violations: [] });
  });

  it('drops under a tight budget break the prefix, and the check goes red at the turn it happens', () => {
    const tight = policy({ budget: 420, keep_recent: 1 });
    const { summary, points } = replayCachePrefix(session, { policy: tight, tokenizer: chars });
    expect(summary.min_share).toBeLessThan(0.5);
    const check = cachePrefixCheck(points, 'error', 0.5);
    expect(check.name).toBe('cache_prefix');
    expect(check.ok).toBe(false);
    // One violation per turn, at the user message that started it (line = position in the file).
    const lines = new Map(session.artifacts.map((a) => [a.id, a.source.line]));
    for (const v of check.violations) {
      expect(v.id).toMatch(/^u\d$/);
      expect(v.line).toBe(lines.get(v.id));
    }
    expect(check.violations.map((v) => v.id)).toEqual([...new Set(check.violations.map((v) => v.id))]);
    const first = points.find((p) => p.share < 0.5);
    expect(check.violations[0]?.id).toBe(first?.turn_id);
    expect(check.violations[0]?.message).toMatch(
      /^the model call after [ur]\d \(line \d+\) starts with only \d+\.\d% of the previous request as a byte-identical prefix \(\d+ of its \d+ tokens; this request has \d+\); cache_prefix\.min_share is 50\.0%/,
    );
    // The same replay under a generous budget has nothing to report.
    const generous = replayCachePrefix(session, {
      policy: policy({ budget: 100_000, keep_recent: 1 }),
      tokenizer: chars,
    });
    expect(cachePrefixCheck(generous.points, 'error', 0.5).ok).toBe(true);
  });

  it('summaries ordered after the conversation (the default) cost the prefix at every call; before it, none', () => {
    const withSummary = t(
      ...session.artifacts.slice(0, 9).map((a) => ({ ...a })),
      summary('sum1', 'Turns 1-2: steps one and two ran clean.', [
        'u1',
        'a1',
        'r1',
        'b1',
        'u2',
        'a2',
        'r2',
        'b2',
      ]),
      ...session.artifacts.slice(9).map((a) => ({ ...a })),
    );
    const after = replayCachePrefix(withSummary, { policy: policy({ budget: 100_000 }), tokenizer: chars });
    const before = replayCachePrefix(withSummary, {
      policy: policy({ budget: 100_000, order: ['system', 'policy', 'task', 'summaries', 'conversation'] }),
      tokenizer: chars,
    });
    // Calls after the one that first sends the summary: only growth, unless the summary sits at the end.
    const later = (points: typeof after.points): number[] =>
      points
        .filter((p) => (withSummary.artifacts.findIndex((a) => a.id === p.id) ?? 0) > 10)
        .map((p) => p.share);
    expect(later(before.points).length).toBeGreaterThan(3);
    expect(later(before.points).every((s) => s === 1)).toBe(true);
    expect(later(after.points).every((s) => s < 1)).toBe(true);
  });

  it('a warning-level check reports the same turns at severity warning', () => {
    const { points } = replayCachePrefix(session, {
      policy: policy({ budget: 420, keep_recent: 1 }),
      tokenizer: chars,
    });
    const warning = cachePrefixCheck(points, 'warning', 0.5);
    expect(warning.severity).toBe('warning');
    expect(warning.violations).toEqual(cachePrefixCheck(points, 'error', 0.5).violations);
    expect(cachePrefixCheck(points, 'error', 0).ok).toBe(true);
  });

  it('is deterministic', () => {
    const p = policy({ budget: 420, keep_recent: 1 });
    const a = replayCachePrefix(session, { policy: p, tokenizer: chars });
    const b = replayCachePrefix(session, { policy: p, tokenizer: chars });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('measures at most maxPoints calls: spread over the session and always the newest', () => {
    const long = t(
      sys('s', 'x'),
      ...Array.from({ length: 60 }, (_, n) => [
        user(`u${n}`, `question ${n}`),
        asst(`a${n}`, `answer ${n}`),
      ]).flat(),
    );
    const { summary, points } = replayCachePrefix(long, {
      policy: policy({ budget: 100_000 }),
      tokenizer: chars,
      maxPoints: 12,
    });
    expect(summary.calls).toBe(60);
    expect(summary.replayed).toBe(12);
    expect(points.at(-1)?.id).toBe('u59');
    expect(points[0]?.id).toBe('u1');
    expect(points.slice(-8).map((p) => p.id)).toEqual([
      'u52',
      'u53',
      'u54',
      'u55',
      'u56',
      'u57',
      'u58',
      'u59',
    ]);
  });

  it('has nothing to measure with a single call', () => {
    const one = t(sys('s', 'x'), user('u1', 'hello'), asst('a1', 'hi'));
    const { summary } = replayCachePrefix(one, { policy: policy(), tokenizer: chars });
    expect(summary).toMatchObject({ calls: 1, replayed: 0, mean_share: null, min_share: null });
    expect(summary.lowest).toBeUndefined();
    expect(describeCachePrefix(summary)).toBe(
      'prompt cache prefix (openai requests): no two model calls to compare (1 call)',
    );
  });
});

describe('helpers', () => {
  it('pickMeasured takes all when they fit, else the tail and an even spread', () => {
    expect(pickMeasured(1, 5)).toEqual([]);
    expect(pickMeasured(4, 5)).toEqual([1, 2, 3]);
    expect(pickMeasured(30, 10, 4)).toEqual([1, 5, 9, 13, 17, 21, 26, 27, 28, 29]);
  });

  it('canonicalRequest writes Anthropic system first, one line per message', () => {
    const text = canonicalRequest('anthropic', {
      messages: [{ role: 'user', content: 'hi' }],
      system: 'be brief',
    });
    expect(text).toBe('"be brief"\n{"role":"user","content":"hi"}\n');
    expect(canonicalRequest('openai', { messages: [{ role: 'user', content: 'hi' }] })).toBe(
      '{"role":"user","content":"hi"}\n',
    );
  });

  it('commonPrefixLength never ends inside a surrogate pair', () => {
    expect(commonPrefixLength('ab😀', 'ab😁')).toBe(2);
    expect(commonPrefixLength('abc', 'abd')).toBe(2);
    expect(commonPrefixLength('abc', 'abc')).toBe(3);
  });
});
