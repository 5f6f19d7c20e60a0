import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { parsePolicy } from '../../../src/core/policy/parse.js';
import {
  AUTHORITY_KINDS,
  CHECK_NAMES,
  CHECK_SEVERITIES,
  NOTIFICATION_LEVELS,
  ORDER_SECTIONS,
  PII_DETECTORS,
  PolicySchema,
  PROVIDER_TARGETS,
  TOKENIZERS,
  TRUNCATION_MODES,
} from '../../../src/core/policy/schema.js';
import { fcOptions } from '../../support/fc.js';

// A new seed each run, printed (test/support/fc.ts); FC_SEED=<seed> replays one.
const RUNS = fcOptions(300);

const name = fc.stringMatching(/^[A-Za-z0-9_.:@ -]{1,20}$/);
const names = fc.array(name, { maxLength: 5 });
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const someOf = <T>(values: readonly T[]) => fc.shuffledSubarray([...values], { minLength: 1 });

// Patterns that compile in RE2 and need a digit, so they never match empty text nor a
// replacement (replacements hold no digits; rule names here hold none either).
const pattern = fc.constantFrom('EMP-\\d{6}', '(?i)tkt-\\d{3}', '\\bAC[0-9]{4,8}\\b', 'x+\\d', '[#]{2}\\d+');
const rules = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z_]{0,15}$/), { maxLength: 4 })
  .chain((ruleNames) =>
    fc.tuple(...ruleNames.map((ruleName) => pattern.map((p) => ({ name: ruleName, pattern: p })))),
  );

// The order invariant, modelled here independently of the schema: the system prompt and constraints
// (system, policy) first, then the task, then the conversation and summaries. Sections left out of
// `order` follow the listed ones in default order.
type Section = (typeof ORDER_SECTIONS)[number];
const GROUP: Record<Section, number> = { system: 0, policy: 0, task: 1, conversation: 2, summaries: 2 };
const effectiveOrder = (list: readonly Section[]): Section[] => [
  ...list,
  ...ORDER_SECTIONS.filter((s) => !list.includes(s)),
];
const orderIsValid = (list: readonly Section[]): boolean =>
  effectiveOrder(list).every((s, i, all) => i === 0 || GROUP[all[i - 1] as Section] <= GROUP[s]);

/** Orders that keep the invariant: a non-empty prefix of a permutation within the groups. */
const validOrder = fc
  .tuple(
    fc.shuffledSubarray<Section>(['system', 'policy'], { minLength: 2 }),
    fc.shuffledSubarray<Section>(['conversation', 'summaries'], { minLength: 2 }),
    fc.integer({ min: 1, max: 5 }),
  )
  .map(([head, tail, n]) => [...head, 'task' as const, ...tail].slice(0, n));

// A strategy and a replacement it accepts (docs/pii.md): {N} only under numbered (the default),
// {HASH} only under hash, neither under redact and block.
const plainTemplate = fc
  .stringMatching(/^[A-Za-z_<>[\]{}: #-]{1,20}$/)
  .filter((t) => !t.includes('{N}') && !t.includes('{HASH}'));
const piiTemplate = fc.oneof(
  fc.record(
    { strategy: fc.constantFrom('redact' as const, 'block' as const), replacement: plainTemplate },
    { requiredKeys: ['strategy'] },
  ),
  fc.record(
    {
      strategy: fc.constant('numbered' as const),
      replacement: fc.constantFrom('[{TYPE}_{N}]', '<{TYPE}:{N}>'),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      strategy: fc.constant('hash' as const),
      replacement: fc.constantFrom('[{TYPE}_{HASH}]', '#{HASH}:{TYPE}'),
    },
    { requiredKeys: ['strategy'] },
  ),
);

const partialPolicy = fc.record(
  {
    version: fc.constant(1),
    tokenizer: fc.constantFrom(...TOKENIZERS),
    budget: fc.integer({ min: 1, max: 10_000_000 }),
    message_overhead: fc.integer({ min: 0, max: 1000 }),
    keep_recent: fc.integer({ min: 0, max: 100_000 }),
    authority: someOf(AUTHORITY_KINDS),
    target: fc.constantFrom(...PROVIDER_TARGETS),
    order: validOrder,
    resilience: fc.record(
      {
        enabled: fc.boolean(),
        truncation_mode: fc.constantFrom(...TRUNCATION_MODES),
        protected_tools: names,
        protected_message_kinds: names,
        notification_level: fc.constantFrom(...NOTIFICATION_LEVELS),
      },
      { requiredKeys: [] },
    ),
    pii: fc
      .tuple(
        fc.record(
          {
            detectors: fc.shuffledSubarray([...PII_DETECTORS]),
            digit_run: fc.oneof(fc.constant(0), fc.integer({ min: 2, max: 64 })),
            rules,
            allow: names,
          },
          { requiredKeys: [] },
        ),
        piiTemplate,
      )
      .map(([pii, template]) => ({ ...pii, ...template })),
    tool_output: fc.record(
      { max_tokens: fc.integer({ min: 1, max: 100_000 }), keep_fields: names },
      { requiredKeys: [] },
    ),
    dedup: fc.record({ enabled: fc.boolean(), similarity: fraction }, { requiredKeys: [] }),
    summaries: fc.record({ ttl: fc.integer({ min: 0, max: 1_000_000 }) }, { requiredKeys: [] }),
    guardian: fc
      .tuple(fraction, fraction, fraction)
      .map((t) => [...t].sort((a, b) => a - b))
      .map(([warning, compress, critical]) => ({ warning, compress, critical })),
    checks: fc.record(Object.fromEntries(CHECK_NAMES.map((c) => [c, fc.constantFrom(...CHECK_SEVERITIES)])), {
      requiredKeys: [],
    }),
    part_tokens: fc.record(
      {
        image: fc.nat(1_000_000),
        audio: fc.nat(1_000_000),
        file: fc.nat(1_000_000),
        other: fc.nat(1_000_000),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

describe('policy serialization (property)', () => {
  it('a valid partial policy written as YAML or as JSON parses to the same Policy', () => {
    fc.assert(
      fc.property(partialPolicy, (input) => {
        const fromYaml = parsePolicy(toYaml(input), { file: 'p.yml' });
        const fromJson = parsePolicy(JSON.stringify(input, null, 2), { file: 'p.json' });
        expect(fromYaml.diagnostics).toEqual([]);
        expect(fromJson.diagnostics).toEqual([]);
        if (!fromYaml.ok || !fromJson.ok) return;
        expect(fromYaml.policy).toStrictEqual(fromJson.policy);
        // …and that Policy is the schema's reading of the object itself.
        expect(fromYaml.policy).toStrictEqual(PolicySchema.parse(input));
        expect(fromYaml.rules.map((r) => r.name)).toEqual(fromYaml.policy.pii.rules.map((r) => r.name));
      }),
      RUNS,
    );
  });
});

describe('policy order invariant (property)', () => {
  it('the order generator draws only orders the model accepts, of every length', () => {
    const lengths = new Set<number>();
    fc.assert(
      fc.property(validOrder, (order) => {
        expect(orderIsValid(order)).toBe(true);
        lengths.add(order.length);
      }),
      RUNS,
    );
    expect([...lengths].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('an order is accepted exactly when it keeps the invariant; a refusal names a misplaced section at its entry', () => {
    let refused = 0;
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(someOf(ORDER_SECTIONS), validOrder), fc.boolean(), (order, asJson) => {
        const text = asJson ? JSON.stringify({ order }, null, 2) : toYaml({ order });
        const parsed = parsePolicy(text, { file: asJson ? 'p.json' : 'p.yml' });
        if (orderIsValid(order)) {
          accepted++;
          expect(parsed.diagnostics).toEqual([]);
          if (parsed.ok) expect(parsed.policy.order).toEqual(order);
          return parsed.ok;
        }
        refused++;
        expect(parsed.ok).toBe(false);
        expect(parsed.diagnostics).toHaveLength(1);
        const d = parsed.diagnostics[0];
        expect(d).toMatchObject({ severity: 'error', code: 'invalid-value' });
        // `order[i]: <then> comes before <first>`, where <first> belongs earlier: <then> is listed at
        // i (`order:` when it is not listed), and the pair breaks the invariant in the effective order.
        const m = /^order(?:\[(\d+)\])?: (\w+) comes before (\w+)[ ;(]/.exec(d?.message ?? '');
        expect(m, d?.message).not.toBeNull();
        if (!m) return false;
        const [, index, then, first] = m as unknown as [string, string | undefined, Section, Section];
        expect(ORDER_SECTIONS).toContain(then);
        expect(ORDER_SECTIONS).toContain(first);
        expect(GROUP[first]).toBeLessThan(GROUP[then]);
        const effective = effectiveOrder(order);
        expect(effective.indexOf(then)).toBeLessThan(effective.indexOf(first));
        if (order.includes(then)) {
          expect(index).toBe(String(order.indexOf(then)));
          // …and it is reported at that entry's line (one entry per line in both writings).
          expect(text.split('\n')[(d?.line ?? 0) - 1]).toContain(then);
        } else expect(index).toBeUndefined();
        if (!order.includes(first)) expect(d?.message).toContain(`(${first} is not listed`);
        return true;
      }),
      RUNS,
    );
    // Both branches are exercised (any list of sections, or one drawn to keep the invariant).
    expect(refused).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
  });
});
