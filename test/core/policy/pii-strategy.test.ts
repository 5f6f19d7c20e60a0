// `pii.strategy` and the replacement template it needs (issue 29): the default template of each
// strategy, and every template the strategy cannot use refused with its fix, at its line.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostics.js';
import { DEFAULT_PII_STRATEGY, DEFAULT_TEMPLATES, piiStrategyOf } from '../../../src/core/pii/aliases.js';
import { DEFAULT_POLICY } from '../../../src/core/policy/default.js';
import { parsePolicy } from '../../../src/core/policy/parse.js';
import { compileRules } from '../../../src/core/policy/rules.js';

function parse(yaml: string) {
  return parsePolicy(yaml, { file: 'p.yml' });
}

function errors(yaml: string): string[] {
  const r = parse(yaml);
  return r.ok ? [] : r.diagnostics.map(formatDiagnostic);
}

describe('pii.strategy', () => {
  it('fills the replacement of each strategy when the policy sets none', () => {
    for (const strategy of ['numbered', 'redact', 'hash', 'block'] as const) {
      const r = parse(`pii:\n  strategy: ${strategy}\n`);
      expect(r.ok && r.policy.pii.replacement).toBe(DEFAULT_TEMPLATES[strategy]);
      expect(r.ok && r.policy.pii.strategy).toBe(strategy);
    }
    expect(DEFAULT_TEMPLATES).toEqual({
      numbered: '[{TYPE}_{N}]',
      redact: '[REDACTED_{TYPE}]',
      hash: '[{TYPE}_{HASH}]',
      block: '[REDACTED_{TYPE}]',
    });
  });

  it('a policy that names no strategy has none in its normalized form (its hash stays) and the default template', () => {
    expect(DEFAULT_POLICY.pii.strategy).toBeUndefined();
    expect(DEFAULT_POLICY.pii.replacement).toBe(DEFAULT_TEMPLATES[DEFAULT_PII_STRATEGY]);
  });

  it('accepts templates that fit the strategy', () => {
    for (const yaml of [
      "pii:\n  strategy: numbered\n  replacement: '<{TYPE}:{N}>'\n",
      "pii:\n  strategy: numbered\n  replacement: '[REDACTED_{TYPE}_{N}]'\n",
      "pii:\n  strategy: hash\n  replacement: '[{TYPE}_{HASH}]'\n",
      "pii:\n  strategy: redact\n  replacement: '***'\n",
      "pii:\n  strategy: block\n  replacement: '[HIDDEN_{TYPE}]'\n",
    ]) {
      expect(errors(yaml), yaml).toEqual([]);
    }
  });

  it('an unknown strategy is refused with the accepted values', () => {
    expect(errors('pii:\n  strategy: mask\n')).toEqual([
      expect.stringMatching(
        /^p\.yml:2:13: error\[invalid-value\]: pii\.strategy: .*numbered, redact, hash, block/,
      ),
    ]);
  });

  it('a policy that names no strategy takes the one its replacement implies (written before strategies: redact)', () => {
    const before = parse("pii:\n  replacement: '[REDACTED_{TYPE}]'\n");
    expect(before.ok).toBe(true);
    if (!before.ok) return;
    expect(before.policy.pii.strategy).toBeUndefined();
    expect(piiStrategyOf(before.policy.pii)).toBe('redact');
    const numbered = parse("pii:\n  replacement: '<{TYPE}:{N}>'\n");
    expect(numbered.ok && piiStrategyOf(numbered.policy.pii)).toBe('numbered');
    const hashed = parse("pii:\n  replacement: '<{TYPE}:{HASH}>'\n");
    expect(hashed.ok && piiStrategyOf(hashed.policy.pii)).toBe('hash');
    const none = parse('pii:\n  detectors: [email]\n');
    expect(none.ok && piiStrategyOf(none.policy.pii)).toBe('numbered');
  });

  it('numbered without {N}: an error at the replacement with the fix', () => {
    expect(errors("pii:\n  strategy: numbered\n  replacement: '[REDACTED_{TYPE}]'\n")).toEqual([
      `p.yml:3:16: error[invalid-value]: pii.replacement: "[REDACTED_{TYPE}]" has no {N}: under pii.strategy numbered each value is written with its number. Hint: Add {N}, e.g. '[{TYPE}_{N}]' or '[REDACTED_{TYPE}_{N}]', or set pii.strategy: redact for one text per type.`,
    ]);
  });

  it('hash without {HASH}, {N} or {HASH} under another strategy, twice, without {TYPE}, glued to a letter', () => {
    expect(errors("pii:\n  strategy: hash\n  replacement: '[{TYPE}]'\n")[0]).toMatch(/has no \{HASH\}/);
    expect(errors("pii:\n  strategy: redact\n  replacement: '[{TYPE}_{N}]'\n")[0]).toMatch(
      /holds \{N\}, which only pii.strategy numbered fills in \(the strategy is redact\)/,
    );
    expect(errors("pii:\n  strategy: numbered\n  replacement: '[{TYPE}_{HASH}_{N}]'\n")[0]).toMatch(
      /holds \{HASH\}, which only pii.strategy hash fills in/,
    );
    expect(errors("pii:\n  strategy: numbered\n  replacement: '[{TYPE}_{N}_{N}]'\n")[0]).toMatch(
      /more than once/,
    );
    expect(errors("pii:\n  strategy: numbered\n  replacement: '[PII_{N}]'\n")[0]).toMatch(/has no \{TYPE\}/);
    expect(errors("pii:\n  strategy: numbered\n  replacement: '[{TYPE}{N}]'\n")[0]).toMatch(
      /right next to a letter, digit or another placeholder/,
    );
    expect(errors("pii:\n  strategy: numbered\n  replacement: '[{TYPE}_n{N}]'\n")[0]).toMatch(
      /right next to/,
    );
  });

  it('a rule is checked against the fixed text of a numbered alias and the label form', () => {
    const numbered = parse(
      "pii:\n  strategy: numbered\n  rules:\n    - { name: pin, pattern: '[0-9]{4}' }\n",
    );
    expect(numbered.ok).toBe(true);
    const policy = parse('pii:\n  strategy: numbered\n');
    if (!policy.ok) throw new Error('default policy');
    const withRule = {
      ...policy.policy,
      pii: { ...policy.policy.pii, rules: [{ name: 'label', pattern: 'REDACTED_[A-Z]+' }] },
    };
    expect(compileRules(withRule, { file: 'p.yml' }).diagnostics.map((d) => d.message)).toEqual([
      'pii.rules[0].pattern: "REDACTED_[A-Z]+" matches the replacement text "[REDACTED_EMAIL]", so masking would not be idempotent.',
    ]);
  });
});
