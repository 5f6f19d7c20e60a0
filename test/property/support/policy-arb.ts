// Arbitrary policies over the knobs the stabilizer's invariants depend on. Budgets and limits are
// small so that a few dozen words already force drops, placeholders and recovery warnings.
import fc from 'fast-check';
import { policyFromObject } from '../../../src/core/policy/index.js';
import type { OrderSection, Policy } from '../../../src/core/policy/index.js';

export const TOOL_NAMES = ['bash', 'read', 'edit', 'get_order', 'search'] as const;
export const TAGS = ['error', 'result', 'decision', 'note'] as const;

/**
 * `order` lists the schema accepts: system and policy (either way round) before the task, the task
 * before conversation and summaries (either way round). The sections left out follow the listed
 * ones in default order, so a valid list is a non-empty prefix of such a permutation: every prefix
 * is drawn, from `[system]` to all five.
 */
export const orderArb: fc.Arbitrary<OrderSection[]> = fc
  .record({
    head: fc.constantFrom<OrderSection[]>(['system', 'policy'], ['policy', 'system']),
    tail: fc.constantFrom<OrderSection[]>(['conversation', 'summaries'], ['summaries', 'conversation']),
    length: fc.integer({ min: 1, max: 5 }),
  })
  .map(({ head, tail, length }) => [...head, 'task' as const, ...tail].slice(0, length));

/** A policy object as a user would write it (validated through policyFromObject). */
export const policyInputArb = fc.record({
  budget: fc.oneof(
    fc.integer({ min: 1, max: 60 }),
    fc.integer({ min: 60, max: 400 }),
    fc.integer({ min: 400, max: 3000 }),
  ),
  message_overhead: fc.integer({ min: 0, max: 3 }),
  keep_recent: fc.integer({ min: 0, max: 3 }),
  order: orderArb,
  resilience: fc.record({
    enabled: fc.boolean(),
    truncation_mode: fc.constantFrom('default', 'aggressive'),
    protected_tools: fc.subarray([...TOOL_NAMES]),
    protected_message_kinds: fc.subarray([...TAGS]),
    notification_level: fc.constantFrom('quiet', 'normal', 'verbose'),
  }),
  tool_output: fc.record({
    max_tokens: fc.integer({ min: 1, max: 40 }),
    keep_fields: fc.subarray(['result', 'status', 'error']),
  }),
  dedup: fc.record({ enabled: fc.boolean(), similarity: fc.double({ min: 0.3, max: 1, noNaN: true }) }),
  summaries: fc.record({ ttl: fc.integer({ min: 0, max: 6 }) }),
});

export function toPolicy(input: unknown): Policy {
  const parsed = policyFromObject(input, { file: 'property-policy.yml' });
  if (!parsed.ok)
    throw new Error(`the policy arbitrary produced an invalid policy: ${parsed.diagnostics[0]?.message}`);
  return parsed.policy;
}

/** Policies; a counterexample prints as the policy input (the fields not listed are defaults). */
export const policyArb: fc.Arbitrary<Policy> = policyInputArb.map((input) => {
  const policy = { ...toPolicy(input) };
  Object.defineProperty(policy, fc.toStringMethod, { value: () => JSON.stringify(input) });
  return policy;
});

/**
 * The policy fast-check shrinks a failing case to, for seed regressions: nothing on but the budget,
 * no overhead, no recent window, every optional stage off. `overrides` replace whole sections.
 */
export function shrunkPolicy(budget: number, overrides: Record<string, unknown> = {}): Policy {
  return toPolicy({
    budget,
    message_overhead: 0,
    keep_recent: 0,
    order: ['system'],
    resilience: { enabled: false },
    tool_output: { max_tokens: 1, keep_fields: [] },
    dedup: { enabled: false, similarity: 0.3 },
    summaries: { ttl: 0 },
    ...overrides,
  });
}
