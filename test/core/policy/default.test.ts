import { describe, expect, it } from 'vitest';
import { DEFAULT_PHONE_REGIONS } from '../../../src/core/pii/detectors/phone-regions.js';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from '../../../src/core/policy/default.js';
import { parsePolicy } from '../../../src/core/policy/parse.js';

describe('DEFAULT_POLICY_YAML', () => {
  it('parses to exactly DEFAULT_POLICY, with no diagnostics', () => {
    const result = parsePolicy(DEFAULT_POLICY_YAML, { file: 'default.yml' });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok && result.policy).toStrictEqual(DEFAULT_POLICY);
  });

  it('spells out every field, so a user edits values rather than guessing keys', () => {
    // Every key of DEFAULT_POLICY, at any depth, is written in the YAML (no field left to the schema).
    const written = parseYaml(DEFAULT_POLICY_YAML) as unknown;
    expect(written).toStrictEqual(JSON.parse(JSON.stringify(DEFAULT_POLICY)));
  });

  it('documents part_tokens with a comment', () => {
    expect(DEFAULT_POLICY_YAML).toMatch(/^part_tokens: +# .*token cost.*non-text/m);
  });

  it('shows the rule example commented out, since the default has no rules', () => {
    expect(DEFAULT_POLICY.pii.rules).toEqual([]);
    expect(DEFAULT_POLICY_YAML).toMatch(/^ {2}# +- \{ name: employee_id, pattern: 'EMP-\\d\{6\}' \}$/m);
  });
});

describe('DEFAULT_POLICY', () => {
  it('holds the values of DESIGN §3', () => {
    expect(DEFAULT_POLICY).toStrictEqual({
      version: 1,
      tokenizer: 'o200k_base',
      target: 'same',
      budget: 8000,
      message_overhead: 3,
      keep_recent: 2,
      authority: ['system', 'policy', 'tool', 'retrieval', 'user'],
      order: ['system', 'policy', 'task', 'conversation', 'summaries'],
      resilience: {
        enabled: true,
        truncation_mode: 'default',
        protected_tools: ['bash', 'read', 'edit', 'write', 'apply_patch'],
        protected_message_kinds: ['error', 'result', 'decision'],
        notification_level: 'normal',
      },
      pii: {
        // The seven built-ins and, since issue 30, the checksummed national ids.
        detectors: [
          'email',
          'phone',
          'ssn',
          'credit_card',
          'iban',
          'ip_address',
          'secret',
          'uk_nhs',
          'in_aadhaar',
          'es_nif',
          'it_fiscal_code',
          'au_tfn',
        ],
        regions: [...DEFAULT_PHONE_REGIONS],
        digit_run: 0,
        rules: [],
        allow: [],
        replacement: '[{TYPE}_{N}]',
      },
      tool_output: { max_tokens: 256, keep_fields: ['result', 'status', 'error'] },
      dedup: { enabled: true, similarity: 0.9 },
      summaries: { ttl: 50 },
      guardian: { warning: 0.55, compress: 0.7, critical: 0.85 },
      checks: {
        budget: 'error',
        order: 'error',
        pii: 'error',
        protected: 'error',
        pairing: 'error',
        summaries: 'error',
        guardian: 'error',
        task: 'error',
        recency: 'error',
        nonempty: 'error',
        provider: 'error',
        drift: 'error',
      },
      stable_prefix: { enabled: true, low_water: 0.85 },
      repair: { leading_user_text: '[The conversation continues from earlier turns.]' },
      part_tokens: { image: 765, audio: 1000, file: 1000, other: 256 },
    });
  });

  it('is deeply frozen: a stage cannot change the default for everyone', () => {
    expect(Object.isFrozen(DEFAULT_POLICY.pii.detectors)).toBe(true);
    expect(() => {
      (DEFAULT_POLICY.checks as { budget: string }).budget = 'off';
    }).toThrow(TypeError);
  });

  it('round-trips through JSON', () => {
    const result = parsePolicy(JSON.stringify(DEFAULT_POLICY), { file: 'default.json' });
    expect(result.ok && result.policy).toStrictEqual(DEFAULT_POLICY);
  });
});
