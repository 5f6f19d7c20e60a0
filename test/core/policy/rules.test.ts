import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostics.js';
import { DEFAULT_POLICY } from '../../../src/core/policy/default.js';
import { parsePolicy } from '../../../src/core/policy/parse.js';
import { compileRules, replacementText } from '../../../src/core/policy/rules.js';
import type { Policy } from '../../../src/core/policy/schema.js';

function withRules(rules: { name: string; pattern: string }[], pii: Partial<Policy['pii']> = {}): Policy {
  return { ...DEFAULT_POLICY, pii: { ...DEFAULT_POLICY.pii, ...pii, rules } };
}

function rulesYaml(count: number): string {
  const lines = ['pii:', '  rules:'];
  for (let i = 0; i < count; i++)
    lines.push(
      `    - { name: r${String.fromCharCode(97 + (i % 26))}_${'x'.repeat(Math.floor(i / 26) + 1)}, pattern: 'ID${'Q'.repeat(i + 1)}' }`,
    );
  return `${lines.join('\n')}\n`;
}

describe('compileRules', () => {
  it('returns { name, pattern, re } objects whose re finds matches', () => {
    const { rules, diagnostics } = compileRules(withRules([{ name: 'employee_id', pattern: 'EMP-\\d{6}' }]), {
      file: 'p.yml',
    });
    expect(diagnostics).toEqual([]);
    expect(rules).toHaveLength(1);
    const rule = rules[0];
    expect(rule?.name).toBe('employee_id');
    expect(rule?.pattern).toBe('EMP-\\d{6}');
    expect([...(rule?.re.matchAll('EMP-123456 and EMP-654321, not EMP-12') ?? [])].map((m) => m[0])).toEqual([
      'EMP-123456',
      'EMP-654321',
    ]);
  });

  it('matches in linear time where a backtracking engine would hang', () => {
    const { rules } = compileRules(withRules([{ name: 'evil', pattern: '(a+)+b' }]), { file: 'p.yml' });
    const input = 'a'.repeat(20_000);
    const started = performance.now();
    expect(rules[0]?.re.test(input)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reports a syntax error with the reason, at 1:1 when there is no source', () => {
    const { rules, diagnostics } = compileRules(withRules([{ name: 'bad', pattern: 'a{2,1}' }]), {
      file: '<inline>',
    });
    expect(rules).toEqual([]);
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      '<inline>:1:1: error[invalid-value]: pii.rules[0].pattern: "a{2,1}" is not a valid RE2 regular expression: invalid repeat count "{2,1}". Hint: Fix the pattern; the syntax is RE2 (https://github.com/google/re2/wiki/Syntax), use (?i) for case-insensitive.',
    ]);
  });

  it('points backreferences at RE2 limits', () => {
    const { diagnostics } = compileRules(withRules([{ name: 'twice', pattern: '(a)\\1' }]), {
      file: 'p.yml',
    });
    expect(diagnostics[0]?.hint).toBe(
      'RE2 has no lookaround and no backreferences: rewrite the pattern without them.',
    );
  });

  it('rejects a pattern that matches empty text somewhere, not only on empty input', () => {
    const { diagnostics } = compileRules(withRules([{ name: 'edge', pattern: '\\b' }]), { file: 'p.yml' });
    expect(diagnostics.map((d) => d.message)).toEqual([
      'pii.rules[0].pattern: "\\\\b" matches empty text, so it would insert replacements everywhere.',
    ]);
  });

  it('rejects a rule that would match its own replacement (masking must be idempotent)', () => {
    const policy = withRules([{ name: 'hidden', pattern: 'hidden:[A-Z]+' }], {
      replacement: '<hidden:{TYPE}>',
    });
    const { rules, diagnostics } = compileRules(policy, { file: 'p.yml' });
    expect(rules).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'pii.rules[0].pattern: "hidden:[A-Z]+" matches the replacement text "<hidden:EMAIL>", so masking would not be idempotent.',
    ]);
  });

  it('rejects a rule name whose digits digit_run would mask inside the replacement', () => {
    const policy = withRules([{ name: 'badge_2024', pattern: 'B-[A-Z]{3}' }], { digit_run: 3 });
    expect(compileRules(policy, { file: 'p.yml' }).diagnostics.map((d) => d.message)).toEqual([
      'pii.rules[0].name: "badge_2024" holds a run of 4 digits that digit_run (3) would mask again inside its replacement.',
    ]);
    // Shorter runs, digit_run off, or a replacement without {TYPE} are all fine.
    expect(
      compileRules(withRules([{ name: 'badge_24', pattern: 'B-[A-Z]{3}' }], { digit_run: 3 }), { file: 'p' })
        .diagnostics,
    ).toEqual([]);
    expect(
      compileRules(withRules([{ name: 'badge_2024', pattern: 'B-[A-Z]{3}' }]), { file: 'p' }).diagnostics,
    ).toEqual([]);
    expect(
      compileRules(
        withRules([{ name: 'badge_2024', pattern: 'B-[A-Z]{3}' }], { digit_run: 3, replacement: '[HIDDEN]' }),
        {
          file: 'p',
        },
      ).diagnostics,
    ).toEqual([]);
  });
});

describe('rule limits (through parsePolicy)', () => {
  it('accepts 50 rules and refuses 51', () => {
    const fifty = parsePolicy(rulesYaml(50), { file: 'p.yml' });
    expect(fifty.diagnostics).toEqual([]);
    expect(fifty.ok && fifty.rules).toHaveLength(50);

    const fiftyOne = parsePolicy(rulesYaml(51), { file: 'p.yml' });
    expect(fiftyOne.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yml:3:5: error[invalid-value]: pii.rules: a list of 51 entries is not valid; expected a list of { name, pattern } rules (at most 50). Hint: Keep at most 50 entries.',
    ]);
  });

  it('accepts a 500-character pattern', () => {
    const result = parsePolicy(`pii:\n  rules:\n    - { name: long, pattern: '${'Z'.repeat(500)}' }\n`, {
      file: 'p.yml',
    });
    expect(result.diagnostics).toEqual([]);
  });

  it('refuses rule names that are not lower-case identifiers', () => {
    for (const name of ['Employee', '1st', '_x', 'has-dash', 'x'.repeat(65)]) {
      const result = parsePolicy(`pii: { rules: [{ name: '${name}', pattern: 'Q+' }] }\n`, { file: 'p.yml' });
      expect(result.ok, name).toBe(false);
      expect(result.diagnostics[0]?.message, name).toMatch(/^pii\.rules\[0\]\.name: /);
    }
  });
});

describe('replacementText', () => {
  it('puts the upper-case type in place of every {TYPE}', () => {
    expect(replacementText('[REDACTED_{TYPE}]', 'employee_id')).toBe('[REDACTED_EMPLOYEE_ID]');
    expect(replacementText('{TYPE}:{TYPE}', 'ip_address')).toBe('IP_ADDRESS:IP_ADDRESS');
    expect(replacementText('[HIDDEN]', 'email')).toBe('[HIDDEN]');
  });
});
