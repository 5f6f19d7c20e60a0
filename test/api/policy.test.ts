import { describe, it, expect } from 'vitest';
import { POLICY_OBJECT_FILE, resolvePolicy } from '../../src/api/policy.js';
import { InputError } from '../../src/core/diagnostics.js';
import { DEFAULT_POLICY, parsePolicy } from '../../src/core/policy/index.js';
import type { PolicyInput } from '../../src/core/policy/index.js';

describe('resolvePolicy', () => {
  it('uses the built-in default when no policy is given', () => {
    const parsed = resolvePolicy(undefined);
    expect(parsed.policy).toEqual(DEFAULT_POLICY);
    expect(parsed.diagnostics).toEqual([]);
  });

  it('fills every default around a partial policy and compiles its PII rules', () => {
    const parsed = resolvePolicy({
      budget: 4000,
      pii: { rules: [{ name: 'ticket', pattern: 'TCK-\\d{5}' }] },
    });
    expect(parsed.policy.budget).toBe(4000);
    expect(parsed.policy.keep_recent).toBe(DEFAULT_POLICY.keep_recent);
    expect(parsed.policy.pii.detectors).toEqual(DEFAULT_POLICY.pii.detectors);
    expect(parsed.rules.map((r) => r.name)).toEqual(['ticket']);
    expect(parsed.rules[0]?.re.matcher('see TCK-12345').find()).toBe(true);
  });

  it('accepts a complete Policy as is', () => {
    const file = parsePolicy('version: 1\nbudget: 1234\n', { file: 'p.yml' });
    expect(file.ok).toBe(true);
    if (!file.ok) return;
    expect(resolvePolicy(file.policy).policy).toEqual(file.policy);
  });

  it('throws an InputError listing every problem, with the field path and a hint', () => {
    let error: unknown;
    try {
      resolvePolicy({
        budget: -5,
        keep_recent: 'two',
        budgett: 1,
        resilience: { trunc_mode: 'aggressive' },
      } as unknown as PolicyInput);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const { diagnostics, message } = error as InputError;
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([
      expect.stringContaining('budget'),
      expect.stringContaining('keep_recent'),
      expect.stringContaining('unknown key budgett: did you mean `budget`?'),
    ]);
    // The warning (an unknown key that is no misspelling) stays in the list, next to the errors.
    expect(diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code)).toEqual(['unknown-key']);
    expect(diagnostics.every((d) => d.file === POLICY_OBJECT_FILE && d.hint !== '')).toBe(true);
    expect(message).toContain('Did you mean `truncation_mode`?');
  });

  it('refuses a misspelt key rather than silently using the default (issue 15)', () => {
    expect(() => resolvePolicy({ budjet: 5000 } as unknown as PolicyInput)).toThrow(
      /^<policy object>:1:1: error\[unknown-key-typo\]: unknown key budjet: did you mean `budget`\?/,
    );
  });

  it('reports other unknown keys of a valid policy as warnings and ignores them', () => {
    const parsed = resolvePolicy({ budget: 500, telemetry: 1 } as unknown as PolicyInput);
    expect(parsed.policy.budget).toBe(500);
    expect(parsed.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'unknown-key']]);
  });

  it('validates a frozen policy once, but a mutable object on every call', () => {
    expect(resolvePolicy(DEFAULT_POLICY)).toBe(resolvePolicy(DEFAULT_POLICY));
    const mutable: { budget: number } = { budget: 700 };
    expect(resolvePolicy(mutable).policy.budget).toBe(700);
    mutable.budget = 900;
    expect(resolvePolicy(mutable).policy.budget).toBe(900);
    mutable.budget = -1;
    expect(() => resolvePolicy(mutable)).toThrow(InputError);
  });
});
