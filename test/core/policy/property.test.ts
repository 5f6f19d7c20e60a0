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
  TOKENIZERS,
  TRUNCATION_MODES,
} from '../../../src/core/policy/schema.js';

// CI pins the seed with FC_SEED; otherwise fast-check picks one and prints it on failure.
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const RUNS = { numRuns: 300, ...(seed === undefined ? {} : { seed }) };

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

const partialPolicy = fc.record(
  {
    version: fc.constant(1),
    tokenizer: fc.constantFrom(...TOKENIZERS),
    budget: fc.integer({ min: 1, max: 10_000_000 }),
    message_overhead: fc.integer({ min: 0, max: 1000 }),
    keep_recent: fc.integer({ min: 0, max: 100_000 }),
    authority: someOf(AUTHORITY_KINDS),
    order: someOf(ORDER_SECTIONS),
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
    pii: fc.record(
      {
        detectors: fc.shuffledSubarray([...PII_DETECTORS]),
        digit_run: fc.oneof(fc.constant(0), fc.integer({ min: 2, max: 64 })),
        rules,
        allow: names,
        replacement: fc.stringMatching(/^[A-Za-z_<>[\]{}: #-]{1,20}$/),
      },
      { requiredKeys: [] },
    ),
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
