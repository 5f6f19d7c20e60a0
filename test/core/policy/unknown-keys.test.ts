// Unknown keys (issue 15): a misspelling of a known key is an error, so a run never silently
// uses a default; any other unknown key is a warning (forward compatibility), or an error in
// strict mode. A top-level `$schema` string (an editor's schema reference) is no key at all.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostics.js';
import { DEFAULT_POLICY } from '../../../src/core/policy/default.js';
import { knownKeysAt } from '../../../src/core/policy/issues.js';
import { parsePolicy, policyFromObject } from '../../../src/core/policy/parse.js';
import { typoLimit, typoOf } from '../../../src/core/policy/suggest.js';

const parse = (text: string, strict = false) => parsePolicy(text, { file: 'p.yml', strict });
const codes = (result: ReturnType<typeof parse>) =>
  result.diagnostics.map((d) => `${d.line}:${d.column} ${d.severity}[${d.code}]`);

/** Every mapping level of the schema, as the path knownKeysAt takes. */
const LEVELS: (readonly PropertyKey[])[] = [
  [],
  ['resilience'],
  ['pii'],
  ['pii', 'rules', 0],
  ['tool_output'],
  ['dedup'],
  ['summaries'],
  ['guardian'],
  ['checks'],
  ['part_tokens'],
];

describe('typoOf', () => {
  const TOP = knownKeysAt([]);

  it.each([
    ['budjet', 'budget'],
    ['bugdet', 'budget'],
    ['Budget', 'budget'],
    ['BUDGET', 'budget'],
    ['budgett', 'budget'],
    ['keep-recent', 'keep_recent'],
    ['keeprecent', 'keep_recent'],
    ['keepRecent', 'keep_recent'],
    ['Keep Recent', 'keep_recent'],
    ['keep_recnt', 'keep_recent'],
    ['tokeniser', 'tokenizer'],
    ['part-tokens', 'part_tokens'],
    ['resillience', 'resilience'],
    ['pi', 'pii'],
  ])('%s is a misspelling of %s', (key, known) => {
    expect(typoOf(key, TOP)).toBe(known);
  });

  it.each(['trunc_mode', 'telemetry', 'x-custom', 'budget_hard', 'api', 'tokens', ''])(
    '%j is not a misspelling of a top-level key',
    (key) => {
      expect(typoOf(key, TOP)).toBeUndefined();
    },
  );

  it('allows one edit for keys of four letters or fewer, two for longer ones', () => {
    expect(typoLimit('ttl')).toBe(1);
    expect(typoLimit('name')).toBe(1);
    expect(typoLimit('order')).toBe(2);
    expect(typoOf('tl', ['ttl'])).toBe('ttl');
    expect(typoOf('url', ['ttl'])).toBeUndefined();
    expect(typoOf('nmae', ['name'])).toBe('name');
    expect(typoOf('nm', ['name'])).toBeUndefined();
  });

  it('never takes one known key for a misspelling of another at the same level', () => {
    for (const level of LEVELS) {
      const known = knownKeysAt(level);
      expect(known.length).toBeGreaterThan(0);
      for (const key of known) {
        expect(
          typoOf(
            key,
            known.filter((k) => k !== key),
          ),
        ).toBeUndefined();
      }
    }
  });
});

describe('parsePolicy: misspelt keys are errors', () => {
  it('refuses `budjet: 5000` at the key, naming the key meant and never the value', () => {
    const result = parse('version: 1\nbudjet: 5000\n');
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:2:1: error[unknown-key-typo]: unknown key budjet: did you mean `budget`? A misspelt key is an error, since the setting would otherwise be silently ignored. Hint: Rename it to `budget`, or delete it to use the default.',
    ]);
    expect(result.diagnostics[0]?.message).not.toContain('5000');
  });

  it('finds misspellings at every level, with every other problem of the file', () => {
    const result = parse(
      [
        'Budget: 5000',
        'resilience: { notification-level: quiet }',
        'pii: { rules: [{ nmae: emp, pattern: x+ }] }',
        'guardian: { warnng: 0.5 }',
        'budget: 0',
      ].join('\n'),
    );
    expect(codes(result)).toEqual([
      '1:1 error[unknown-key-typo]',
      '2:15 error[unknown-key-typo]',
      '3:16 error[invalid-value]', // pii.rules[0].name is missing
      '3:18 error[unknown-key-typo]',
      '4:13 error[unknown-key-typo]',
      '5:9 error[invalid-value]',
    ]);
  });

  it('masks a key that looks like PII and never shows the values', () => {
    const result = parse('budjet: "bob@example.com"\npii:\n  allow: ["+44 20 7946 0958"]\n  alow: []\n');
    const text = result.diagnostics.map(formatDiagnostic).join('\n');
    expect(codes(result)).toEqual(['1:1 error[unknown-key-typo]', '4:3 error[unknown-key-typo]']);
    for (const leak of ['bob@', '7946']) expect(text).not.toContain(leak);
  });

  it('is an error for an in-code policy too (library callers)', () => {
    const result = policyFromObject({ budjet: 5000 }, { file: '<policy object>' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['unknown-key-typo']);
  });
});

describe('parsePolicy: other unknown keys', () => {
  const TEXT = 'budget: 5000\ntelemetry: { enabled: false }\nguardian:\n  halt: 0.95\n';

  it('are warnings by default, and the rest of the policy applies', () => {
    const result = parse(TEXT);
    expect(codes(result)).toEqual(['2:1 warning[unknown-key]', '4:3 warning[unknown-key]']);
    expect(result.ok && result.policy.budget).toBe(5000);
  });

  it('are errors in strict mode, with the same hints', () => {
    const result = parse(TEXT, true);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:2:1: error[unknown-key]: unknown key telemetry: strict mode accepts only the keys this release knows. Hint: Remove it; the keys accepted at the top level are version, tokenizer, model_family, calibration, target, budget, message_overhead, keep_recent, authority, order, resilience, pii, tool_output, dedup, summaries, guardian, checks, compaction, runtime, cache_prefix, retention, watchdog, stable_prefix, repair, part_tokens.',
      'p.yml:4:3: error[unknown-key]: unknown key guardian.halt: strict mode accepts only the keys this release knows. Hint: Remove it; the keys accepted in guardian are warning, compress, critical.',
    ]);
  });

  it('strict mode changes nothing for a policy without unknown keys', () => {
    const result = parse('budget: 5000\nchecks: { drift: warning }\n', true);
    expect(result.diagnostics).toEqual([]);
    expect(result.ok && result.policy.budget).toBe(5000);
  });

  it('strict mode applies to in-code policies', () => {
    const result = policyFromObject({ telemetry: true }, { file: '<inline>', strict: true });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => `${d.severity}[${d.code}]`)).toEqual(['error[unknown-key]']);
  });
});

describe('parsePolicy: a $schema reference', () => {
  const URL = 'https://cdn.jsdelivr.net/npm/context-stability@0.1.0/schema/context-policy.schema.json';

  it('is ignored at the top level when it is a string, in JSON and YAML, strict or not', () => {
    for (const text of [`{ "$schema": "${URL}" }`, `$schema: ${URL}\n`]) {
      for (const strict of [false, true]) {
        const result = parse(text, strict);
        expect(result.diagnostics).toEqual([]);
        expect(result.ok && result.policy).toStrictEqual(DEFAULT_POLICY);
      }
    }
  });

  it('is an unknown key anywhere else, or when it is not a string', () => {
    expect(codes(parse('$schema: 5\n'))).toEqual(['1:1 warning[unknown-key]']);
    expect(codes(parse(`pii:\n  $schema: ${URL}\n`))).toEqual(['2:3 warning[unknown-key]']);
  });
});
