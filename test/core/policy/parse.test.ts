import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostics.js';
import { DEFAULT_POLICY } from '../../../src/core/policy/default.js';
import { parsePolicy, policyFromObject } from '../../../src/core/policy/parse.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/policy');

function parseFixture(name: string) {
  const text = readFileSync(path.join(FIXTURES, name), 'utf8');
  return parsePolicy(text, { file: name });
}

const RANGE = 'Hint: Use a value within the accepted range.';
const STRINGS_256 = 'a list of non-empty strings (at most 256, each at most 200 characters)';
const typo = (key: string): string =>
  `did you mean \`${key}\`? A misspelt key is an error, since the setting would otherwise be silently ignored. Hint: Rename it to \`${key}\`, or delete it to use the default.`;
const RE2_HINT =
  'Hint: Fix the pattern; the syntax is RE2 (https://github.com/google/re2/wiki/Syntax), use (?i) for case-insensitive.';

// Every diagnostic of every bad fixture, exactly: message, hint and line:column.
const BAD: Record<string, string[]> = {
  'bad/wrong-enum.yml': [
    'bad/wrong-enum.yml:2:12: error[invalid-value]: tokenizer: "o200k" is not valid; expected one of o200k_base, cl100k_base, p50k_base, r50k_base. Hint: Did you mean `o200k_base`?',
    'bad/wrong-enum.yml:4:20: error[invalid-value]: resilience.truncation_mode: "agressive" is not valid; expected one of default, aggressive. Hint: Did you mean `aggressive`?',
    'bad/wrong-enum.yml:5:23: error[invalid-value]: resilience.notification_level: "loud" is not valid; expected one of quiet, normal, verbose. Hint: Use one of the accepted values.',
  ],
  'bad/wrong-type.yml': [
    'bad/wrong-type.yml:1:9: error[invalid-value]: budget: "8000" is a string; expected an integer from 1 to 10000000. Hint: Write the number without quotes.',
    'bad/wrong-type.yml:3:12: error[invalid-value]: dedup.enabled: "yes" is a string; expected true or false. Hint: Write true or false without quotes (YAML 1.2 reads yes, no, on and off as text).',
    'bad/wrong-type.yml:4:13: error[invalid-value]: resilience: found a list; expected a mapping with the keys enabled, truncation_mode, protected_tools, protected_message_kinds, notification_level. Hint: Write the keys of resilience indented under it (`context-stability policy print-default` shows the layout).',
    `bad/wrong-type.yml:6:16: error[invalid-value]: tool_output.keep_fields: "result" is a string; expected ${STRINGS_256}. Hint: Write a list: \`[a, b]\`, or one \`- item\` per line.`,
  ],
  'bad/list-empty-string.yml': [
    `bad/list-empty-string.yml:4:7: error[invalid-value]: resilience.protected_tools[1]: "" is not valid; expected ${STRINGS_256}. Hint: Remove the empty entry, or give it a value.`,
    `bad/list-empty-string.yml:5:36: error[invalid-value]: resilience.protected_message_kinds[1]: 42 is a number; expected ${STRINGS_256}. Hint: Quote the value to make it text.`,
  ],
  'bad/negative-budget.yml': [
    `bad/negative-budget.yml:1:9: error[invalid-value]: budget: -500 is not valid; expected an integer from 1 to 10000000. ${RANGE}`,
    'bad/negative-budget.yml:2:14: error[invalid-value]: keep_recent: 1.5 is a number; expected an integer from 0 to 100000. Hint: Use a whole number.',
    `bad/negative-budget.yml:3:19: error[invalid-value]: summaries.ttl: -1 is not valid; expected an integer from 0 to 1000000. ${RANGE}`,
  ],
  'bad/bad-regex.yml': [
    `bad/bad-regex.yml:4:16: error[invalid-value]: pii.rules[0].pattern: "EMP-(\\\\d{6}" is not a valid RE2 regular expression: missing closing ). ${RE2_HINT}`,
    'bad/bad-regex.yml:6:16: error[invalid-value]: pii.rules[1].pattern: "(?<!#)T-\\\\d+" is not a valid RE2 regular expression: invalid named capture. Hint: RE2 has no lookaround and no backreferences: rewrite the pattern without them.',
  ],
  'bad/too-long-regex.yml': [
    `bad/too-long-regex.yml:4:16: error[invalid-value]: pii.rules[0].pattern: "${'a'.repeat(37)}…" is not valid; expected a non-empty RE2 regular expression of at most 500 characters. Hint: Shorten it to at most 500 characters.`,
  ],
  'bad/duplicate-rule-names.yml': [
    'bad/duplicate-rule-names.yml:5:15: error[invalid-value]: pii.rules[2].name: "employee_id" is already the name of pii.rules[0]; rule names must be unique. Hint: Rename one of the rules: the name is the `{TYPE}` of its replacements.',
  ],
  'bad/family-uncalibrated.yml': [
    "bad/family-uncalibrated.yml:4:15: error[invalid-value]: model_family: anthropic has no local tokenizer, so a budget in anthropic tokens needs a calibration: how many anthropic tokens one o200k_base token is. Hint: Measure it from the provider's reported input tokens (context-stability calibrate, docs/tokenizers.md) and add e.g. calibration: 1.2 next to model_family.",
  ],
  'bad/calibration-decimals.yml': [
    'bad/calibration-decimals.yml:2:14: error[invalid-value]: calibration: 1.2345 has more than 3 decimals; counts are scaled in thousandths. Hint: Round it up to 3 decimals (1.235); calibrate prints 2.',
  ],
  'bad/family-enum.yml': [
    'bad/family-enum.yml:1:15: error[invalid-value]: model_family: "claude" is not valid; expected one of openai, anthropic, gemini, other. Hint: Use one of the accepted values.',
    `bad/family-enum.yml:2:14: error[invalid-value]: calibration: 9 is not valid; expected a number from 0.25 to 4 with at most 3 decimals (provider tokens per local token). ${RANGE}`,
  ],
  'bad/guardian-order.yml': [
    'bad/guardian-order.yml:2:12: error[invalid-value]: guardian.warning: 0.8 is above compress (0.7). Hint: Order the thresholds so that warning ≤ compress ≤ critical.',
    'bad/guardian-order.yml:3:13: error[invalid-value]: guardian.compress: 0.7 is above critical (0.6). Hint: Order the thresholds so that warning ≤ compress ≤ critical.',
  ],
  'bad/order-system-last.yml': [
    'bad/order-system-last.yml:3:9: error[invalid-value]: order[0]: task comes before system; the system prompt and constraints must come first, then the task, then the conversation and summaries. Hint: Start order with system, policy, task: order: [system, policy, task, conversation, summaries] (summaries may come before conversation).',
  ],
  'bad/yaml-syntax.yml': [
    'bad/yaml-syntax.yml:4:3: error[yaml-syntax]: YAML syntax: bad indentation, or a bracket or brace that is never closed. Hint: Fix the YAML at this position: indent with spaces, quote values that contain `: ` or start with a special character.',
  ],
  'bad/duplicate-key.yml': [
    'bad/duplicate-key.yml:4:3: error[duplicate-key]: duplicate key pii.digit_run: it is already set at line 3. Hint: Keep one of the two entries: a policy must say one thing per key.',
    'bad/duplicate-key.yml:5:1: error[duplicate-key]: duplicate key budget: it is already set at line 1. Hint: Keep one of the two entries: a policy must say one thing per key.',
  ],
  'bad/bad-value.json': [
    `bad/bad-value.json:4:45: error[invalid-value]: dedup.similarity: 1.5 is not valid; expected a number from 0 to 1. ${RANGE}`,
    'bad/bad-value.json:5:22: error[invalid-value]: checks.pii: "fatal" is not valid; expected one of error, warning, off. Hint: Use one of the accepted values.',
  ],
  'bad/json-syntax.json': [
    'bad/json-syntax.json:3:31: error[json-syntax]: JSON syntax: bad indentation, or a bracket or brace that is never closed. Hint: Fix the JSON at this position (a JSON linter shows the exact token).',
    'bad/json-syntax.json:5:1: error[json-syntax]: JSON syntax: a closing quote, bracket or brace is missing. Hint: Fix the JSON at this position (a JSON linter shows the exact token).',
  ],
  'bad/version-2.yml': [
    'bad/version-2.yml:1:10: error[unsupported-version]: version 2 is not supported: this release reads policy version 1. Hint: Upgrade context-stability to a release that reads version 2, or rewrite the policy for version 1.',
  ],
  'bad/replacement.yml': [
    'bad/replacement.yml:2:16: error[invalid-value]: pii.replacement: "[MASKED_{TYPE}_2]" contains a digit; a replacement must not contain quotes, backslashes, control characters or digits. Hint: Use plain text such as \'[REDACTED_{TYPE}]\': it is written inside JSON strings and must not be masked again.',
    'bad/replacement.yml:3:14: error[invalid-value]: pii.digit_run: 1 would mask every single digit; expected 0 (off) or an integer from 2 to 64. Hint: Set digit_run to 0 to turn it off, or to 3 for the strict rule.',
  ],
  'bad/null-values.yml': [
    'bad/null-values.yml:2:3: error[invalid-value]: pii.allow is empty (null); expected a list of non-empty strings (at most 1000, each at most 500 characters). Hint: Give it a value, or delete the key to use the default. Write [] for an empty list.',
    'bad/null-values.yml:3:1: error[invalid-value]: resilience is empty (null); expected a mapping with the keys enabled, truncation_mode, protected_tools, protected_message_kinds, notification_level. Hint: Give it a value, or delete the key to use the default. Write {} to keep every default.',
  ],
  'bad/not-a-mapping.yml': [
    'bad/not-a-mapping.yml:1:1: error[invalid-value]: the policy must be a mapping of keys; found a list. Hint: Start from the output of `context-stability policy print-default`.',
  ],
  'bad/duplicate-list-items.yml': [
    'bad/duplicate-list-items.yml:1:43: error[invalid-value]: order[4]: "memory" is not valid; expected a non-empty list of system, policy, task, conversation, summaries (each at most once). Hint: Use one of the accepted values.',
    'bad/duplicate-list-items.yml:3:22: error[invalid-value]: pii.detectors[1]: "email" is listed more than once; each value may appear once. Hint: Remove the repeated entry.',
  ],
  'bad/rule-not-idempotent.yml': [
    'bad/rule-not-idempotent.yml:3:34: error[invalid-value]: pii.rules[0].pattern: "REDACTED_[A-Z]+" matches the replacement text "[REDACTED_EMAIL]", so masking would not be idempotent. Hint: Make the pattern stricter, or change pii.replacement.',
    'bad/rule-not-idempotent.yml:4:31: error[invalid-value]: pii.rules[1].pattern: "x?" matches empty text, so it would insert replacements everywhere. Hint: Make the pattern require at least one character, e.g. `+` instead of `*`.',
  ],
  'bad/typo-keys.yml': [
    `bad/typo-keys.yml:1:1: error[unknown-key-typo]: unknown key budjet: ${typo('budget')}`,
    `bad/typo-keys.yml:2:1: error[unknown-key-typo]: unknown key Keep-Recent: ${typo('keep_recent')}`,
    `bad/typo-keys.yml:4:3: error[unknown-key-typo]: unknown key resilience.truncation-mode: ${typo('truncation_mode')}`,
    `bad/typo-keys.yml:5:3: error[unknown-key-typo]: unknown key resilience.protected_tool: ${typo('protected_tools')}`,
    'bad/typo-keys.yml:8:7: error[invalid-value]: pii.rules[0].pattern is missing; expected a non-empty RE2 regular expression of at most 500 characters. Hint: Add `pattern:` here.',
    `bad/typo-keys.yml:8:28: error[unknown-key-typo]: unknown key pii.rules[0].patern: ${typo('pattern')}`,
    `bad/typo-keys.yml:9:11: error[unknown-key-typo]: unknown key checks.Drift: ${typo('drift')}`,
    `bad/typo-keys.yml:10:14: error[unknown-key-typo]: unknown key summaries.tl: ${typo('ttl')}`,
  ],
  'bad/many-at-once.yml': [
    'bad/many-at-once.yml:1:12: error[invalid-value]: tokenizer: "gpt4" is not valid; expected one of o200k_base, cl100k_base, p50k_base, r50k_base. Hint: Use one of the accepted values.',
    `bad/many-at-once.yml:2:9: error[invalid-value]: budget: 0 is not valid; expected an integer from 1 to 10000000. ${RANGE}`,
    `bad/many-at-once.yml:3:1: error[unknown-key-typo]: unknown key bugdet: ${typo('budget')}`,
    'bad/many-at-once.yml:6:15: error[invalid-value]: pii.rules[0].name: "Bad-Name" is not valid; expected a name of lower-case letters, digits and _ that starts with a letter (at most 64 characters). Hint: Use lower-case letters, digits and underscores, starting with a letter, e.g. `employee_id`.',
    `bad/many-at-once.yml:6:34: error[invalid-value]: pii.rules[0].pattern: "[z-a]" is not a valid RE2 regular expression: invalid character class range "z-a". ${RE2_HINT}`,
    `bad/many-at-once.yml:7:22: error[invalid-value]: guardian.warning: 2 is not valid; expected a number from 0 to 1. ${RANGE}`,
  ],
};

describe('parsePolicy: bad policies', () => {
  it.each(Object.entries(BAD))('%s: reports every problem at its line:column', (name, expected) => {
    const result = parseFixture(name);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual(expected);
  });

  it('covers at least a dozen distinct mistakes', () => {
    expect(Object.keys(BAD).length).toBeGreaterThanOrEqual(12);
  });

  it('never quotes a value longer than 40 characters', () => {
    const long = `budget: "${'9'.repeat(30)}${'x'.repeat(200)}"\n`;
    const result = parsePolicy(long, { file: 'p.yml' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics[0]?.message).toBe(
      `budget: "${'9'.repeat(30)}xxxxxxx…" is a string; expected an integer from 1 to 10000000.`,
    );
  });

  it('masks PII in a quoted value and in a key (issue 11)', () => {
    const result = parsePolicy(
      'budget: "+44 20 7946 0958"\nbob@example.com: 1\npii:\n  detectors: [email, "ann@example.org"]\n',
      { file: 'p.yml' },
    );
    expect(result.ok).toBe(false);
    const text = result.diagnostics.map((d) => `${d.message} ${d.hint}`).join('\n');
    expect(text).toContain('budget: "[REDACTED_PHONE]" is a string');
    expect(text).toContain('[REDACTED_EMAIL]');
    for (const leak of ['7946', 'bob@', 'ann@']) expect(text).not.toContain(leak);
  });

  it('masks what escaping makes look like PII (fuzz seed 557277992: a NUL inside an address)', () => {
    const result = parsePolicy('pii:\n  "rules{x\\u0000@example.org": 1\n', { file: 'p.yml' });
    const text = result.diagnostics.map((d) => d.message).join('\n');
    expect(text).toContain('unknown key');
    expect(text).not.toContain('@example.org');
  });

  it('masks what shortening makes look like PII (fuzz seed 222548240: a cut after the TLD)', () => {
    const result = parsePolicy('pii:\n  "p-canary.fuzz@example.orgcanary.fuzzy-thing-more-text": 1\n', {
      file: 'p.yml',
    });
    const text = result.diagnostics.map((d) => d.message).join('\n');
    expect(text).toContain('unknown key');
    expect(text).not.toContain('@example.org');
    expect(text).toContain('[REDACTED_EMAIL]');
  });

  it('reports a region the phone detector does not know at its line:column', () => {
    const result = parsePolicy('pii:\n  regions: [GB, XX, GB]\n', { file: 'p.yml' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.line, d.column, d.message])).toEqual([
      [2, 17, 'pii.regions[1]: "XX" is not a region code the phone detector knows.'],
      [2, 21, 'pii.regions[2]: "GB" is listed more than once; each value may appear once.'],
    ]);
  });

  it('escapes control and bidi characters in a quoted value', () => {
    const result = parsePolicy('tokenizer: "o200k\\u202e\\u0007"\n', { file: 'p.yml' });
    expect(result.diagnostics[0]?.message).toContain('"o200k\\u202e\\u0007"');
  });

  it('does not pass the YAML library messages through (they quote the source)', () => {
    const secret = 'alice@example.com';
    const result = parsePolicy(`pii:\n  allow: [${secret}\n  replacement: x\n`, { file: 'p.yml' });
    expect(result.ok).toBe(false);
    for (const d of result.diagnostics) expect(`${d.message} ${d.hint}`).not.toContain(secret);
  });

  it('reports an alias to an undefined anchor instead of throwing', () => {
    const result = parsePolicy('budget: 10\nkeep_recent: *nope\n', { file: 'p.yml' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:2:14: error[yaml-syntax]: YAML syntax: keep_recent is an alias to an anchor that is not defined before it. Hint: Define the anchor (`&name`) earlier in the file, or write the value out.',
    ]);
  });

  it('refuses alias bombs', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const k of 'bcdefg')
      bomb.push(
        `${k}: &${k} [${Array(10)
          .fill(`*${String.fromCharCode(k.charCodeAt(0) - 1)}`)
          .join(', ')}]`,
      );
    const result = parsePolicy(`${bomb.join('\n')}\n`, { file: 'p.yml' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.some((d) => d.code === 'yaml-syntax' && /aliases expand/.test(d.message))).toBe(
      true,
    );
  });

  it('refuses deep nesting before the YAML composer can overflow the stack', () => {
    const deep = `pii: { allow: ${'['.repeat(20_000)}${']'.repeat(20_000)} }\n`;
    const result = parsePolicy(deep, { file: 'p.yml' });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:1:45: error[yaml-syntax]: YAML syntax: values are nested more than 32 levels deep. Hint: A policy is at most four levels deep: check for unclosed brackets or runaway indentation.',
    ]);
    // A second parse in the same process must work too (a caught stack overflow can poison it).
    expect(parsePolicy(deep, { file: 'p.yml' }).ok).toBe(false);
  });

  it('refuses a file with more than one document', () => {
    const result = parsePolicy('budget: 1\n---\nbudget: 2\n', { file: 'p.yml' });
    expect(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      '2:1 yaml-syntax YAML syntax: the file holds more than one document.',
    ]);
  });

  it('survives a self-referencing alias', () => {
    const result = parsePolicy('resilience: &r { enabled: *r }\n', { file: 'p.yml' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'resilience.enabled: found a mapping; expected true or false.',
    ]);
  });

  it('reports a rule without a pattern at the rule itself', () => {
    const result = parsePolicy('pii:\n  rules:\n    - { name: badge }\n', { file: 'p.yml' });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:3:7: error[invalid-value]: pii.rules[0].pattern is missing; expected a non-empty RE2 regular expression of at most 500 characters. Hint: Add `pattern:` here.',
    ]);
  });

  it('reports a non-integer version as unsupported with a plain fix', () => {
    const result = parsePolicy('version: "one"\n', { file: 'p.yml' });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:1:10: error[unsupported-version]: version "one" is not supported: this release reads policy version 1. Hint: Set `version: 1`.',
    ]);
  });
});

describe('parsePolicy: warnings', () => {
  it('warns about an abbreviated key with a suggestion and still applies the rest', () => {
    // Not a misspelling (more than two edits away): it may be a key of a later release.
    const result = parseFixture('warn/abbreviated-key.yml');
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'warn/abbreviated-key.yml:3:3: warning[unknown-key]: unknown key resilience.trunc_mode: it is ignored. Hint: Did you mean `truncation_mode`?',
      'warn/abbreviated-key.yml:4:1: warning[unknown-key]: unknown key msg_overhead: it is ignored. Hint: Did you mean `message_overhead`?',
    ]);
    expect(result.ok && result.policy).toEqual(DEFAULT_POLICY);
  });

  it('warns about nested unknown keys with the accepted keys when nothing is close', () => {
    const result = parseFixture('warn/nested-unknown-key.yml');
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'warn/nested-unknown-key.yml:5:7: warning[unknown-key]: unknown key pii.rules[0].flags: it is ignored. Hint: Remove it; the keys accepted in pii.rules[0] are name, pattern.',
      'warn/nested-unknown-key.yml:7:3: warning[unknown-key]: unknown key guardian.halt: it is ignored. Hint: Remove it; the keys accepted in guardian are warning, compress, critical.',
      'warn/nested-unknown-key.yml:8:1: warning[unknown-key]: unknown key telemetry: it is ignored. Hint: Remove it; the keys accepted at the top level are version, tokenizer, model_family, calibration, target, budget, message_overhead, keep_recent, authority, order, resilience, pii, tool_output, dedup, summaries, guardian, checks, compaction, runtime, cache_prefix, retention, watchdog, stable_prefix, repair, part_tokens.',
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.policy.pii.rules).toEqual([{ name: 'employee_id', pattern: 'EMP-\\d{6}' }]);
    expect(result.rules.map((r) => r.name)).toEqual(['employee_id']);
  });

  it('reads an empty (comment-only) file as the default policy, with a warning', () => {
    const result = parseFixture('warn/empty.yml');
    expect(result.ok && result.policy).toEqual(DEFAULT_POLICY);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'warn/empty.yml:1:1: warning[empty-policy]: the policy file is empty: the built-in default policy applies. Hint: Add the settings you want to change (`context-stability policy print-default` shows them all), or delete the file.',
    ]);
  });

  it('warns about an unknown tag and reads the value as text', () => {
    const result = parsePolicy('tokenizer: !enc cl100k_base\n', { file: 'p.yml' });
    expect(result.ok && result.policy.tokenizer).toBe('cl100k_base');
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:1:12: warning[unknown-tag]: unknown tag: it is ignored and the value is read as text. Hint: Remove the `!tag`: a policy needs no tags.',
    ]);
  });
});

describe('parsePolicy: valid policies', () => {
  const expectedFull = {
    ...DEFAULT_POLICY,
    tokenizer: 'cl100k_base',
    budget: 12000,
    message_overhead: 4,
    keep_recent: 3,
    authority: ['system', 'policy', 'tool', 'user'],
    order: ['system', 'policy', 'task', 'conversation'],
    resilience: {
      enabled: true,
      truncation_mode: 'aggressive',
      protected_tools: ['bash', 'apply_patch'],
      protected_message_kinds: ['error'],
      notification_level: 'verbose',
    },
    pii: {
      detectors: ['email', 'secret', 'mac', 'uk_nino'],
      regions: ['GB', 'IE'],
      digit_run: 3,
      rules: [
        { name: 'employee_id', pattern: 'EMP-\\d{6}' },
        { name: 'ticket', pattern: '(?i)tkt-[a-z]{3}' },
      ],
      allow: ['support@example.com'],
      strategy: 'redact',
      replacement: '<hidden:{TYPE}>',
    },
    tool_output: { max_tokens: 512, keep_fields: ['result'] },
    dedup: { enabled: false, similarity: 0.75 },
    summaries: { ttl: 20 },
    guardian: { warning: 0.5, compress: 0.5, critical: 0.9 },
    checks: { ...DEFAULT_POLICY.checks, budget: 'warning', drift: 'off' },
    part_tokens: { image: 1000, audio: 1000, file: 1000, other: 0 },
  };

  it.each(['valid/full.yml', 'valid/full.json'])(
    '%s: every field set, defaults filled in the rest',
    (name) => {
      const result = parseFixture(name);
      expect(result.diagnostics).toEqual([]);
      expect(result.ok && result.policy).toEqual(expectedFull);
    },
  );

  it('compiles the rules in policy order, ready for masking', () => {
    const result = parseFixture('valid/full.yml');
    if (!result.ok) throw new Error('expected a valid policy');
    expect(result.rules.map((r) => [r.name, r.pattern])).toEqual([
      ['employee_id', 'EMP-\\d{6}'],
      ['ticket', '(?i)tkt-[a-z]{3}'],
    ]);
    expect(result.rules[0]?.re.test('badge EMP-123456 here')).toBe(true);
    expect(result.rules[1]?.re.test('TKT-abc')).toBe(true);
    expect(result.rules[1]?.re.test('tkt-12')).toBe(false);
  });

  it('fills every default for a minimal policy', () => {
    const result = parseFixture('valid/minimal.yml');
    expect(result.ok && result.policy).toEqual({
      ...DEFAULT_POLICY,
      budget: 4000,
      resilience: { ...DEFAULT_POLICY.resilience, truncation_mode: 'aggressive' },
    });
  });

  it('returns a frozen policy, so no stage can change it for the next transcript', () => {
    const result = parseFixture('valid/minimal.yml');
    if (!result.ok) throw new Error('expected a valid policy');
    expect(Object.isFrozen(result.policy)).toBe(true);
    expect(Object.isFrozen(result.policy.resilience.protected_tools)).toBe(true);
    expect(() => (result.policy.resilience.protected_tools as string[]).push('x')).toThrow(TypeError);
  });

  it('accepts boundary values', () => {
    const text = [
      'budget: 1',
      'keep_recent: 0',
      'message_overhead: 0',
      'pii: { digit_run: 2, detectors: [] }',
      'dedup: { similarity: 0 }',
      'summaries: { ttl: 0 }',
      'guardian: { warning: 1, compress: 1, critical: 1 }',
      'part_tokens: { image: 0, audio: 0, file: 0, other: 0 }',
    ].join('\n');
    const result = parsePolicy(text, { file: 'p.yml' });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('parsePolicy: model family and calibration', () => {
  it('keeps a calibrated family and leaves both keys out when unset (so policy hashes and goldens stay)', () => {
    const calibrated = parsePolicy('model_family: anthropic\ncalibration: 1.25\n', { file: 'p.yml' });
    expect(calibrated.diagnostics).toEqual([]);
    expect(calibrated.ok && calibrated.policy).toMatchObject({
      model_family: 'anthropic',
      calibration: 1.25,
    });
    expect(Object.keys(DEFAULT_POLICY)).not.toContain('model_family');
    expect(Object.keys(DEFAULT_POLICY)).not.toContain('calibration');
  });

  it('accepts openai without a calibration, and a calibration alone (an openai budget scaled)', () => {
    for (const text of ['model_family: openai\n', 'calibration: 1.05\n']) {
      expect(parsePolicy(text, { file: 'p.yml' }).diagnostics).toEqual([]);
    }
  });
});

describe('policyFromObject', () => {
  it('validates an in-code policy with the same rules, at 1:1 of the given name', () => {
    const result = policyFromObject(
      { budget: 0, resilience: { trunc_mode: 'aggressive' } },
      { file: '<inline>' },
    );
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `<inline>:1:1: error[invalid-value]: budget: 0 is not valid; expected an integer from 1 to 10000000. ${RANGE}`,
      '<inline>:1:1: warning[unknown-key]: unknown key resilience.trunc_mode: it is ignored. Hint: Did you mean `truncation_mode`?',
    ]);
  });

  it('refuses a value that is not an object', () => {
    expect(policyFromObject(undefined, { file: '<inline>' }).diagnostics.map((d) => d.message)).toEqual([
      'the policy must be a mapping of keys; found nothing.',
    ]);
  });

  it('fills defaults for a partial object', () => {
    const result = policyFromObject({ checks: { drift: 'off' } }, { file: '<inline>' });
    expect(result.ok && result.policy.checks).toEqual({ ...DEFAULT_POLICY.checks, drift: 'off' });
  });
});
