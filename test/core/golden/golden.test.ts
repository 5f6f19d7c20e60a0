import { describe, expect, it } from 'vitest';
import { buildGolden, GOLDEN_SCHEMA, parseGolden, policyHash } from '../../../src/core/golden/golden.js';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { asst, bash, calls, result, sys, t, user, words as text } from '../../support/artifacts.js';
import { handReport, policy, realReport, TOKENIZER } from './support.js';

const META = { transcript: 'examples/session.jsonl', policy: policy(), tokenizer: TOKENIZER };

function session() {
  return t(
    sys('s', 'You are a careful agent.'),
    user('u1', 'Please write to alice@example.com about the build'),
    calls('a1', [bash('c1', 'npm test')]),
    result('r1', 'c1', 'all tests passed'),
    asst('a2', text(30, 'chatter')),
    user('u2', 'thanks, now call me on 555-0100'),
  );
}

describe('buildGolden', () => {
  it('records the report, the policy hash and the tokenizer, and leaves events out', () => {
    const report = handReport();
    const golden = buildGolden(report, META);
    expect(golden.schema).toBe(GOLDEN_SCHEMA);
    expect(golden.transcript).toBe('examples/session.jsonl');
    expect(golden.policy_hash).toBe(policyHash(META.policy));
    expect(golden.tokenizer).toEqual(TOKENIZER);
    expect(golden.ledger).toEqual(report.ledger);
    expect(golden.context).toEqual(report.context);
    expect(golden.checks).toEqual(report.checks);
    expect(golden).not.toHaveProperty('events');
    expect(stableStringify(golden)).not.toContain('ignored/by/golden.jsonl');
  });

  it('is a plain copy: undefined fields gone, no object shared with the report', () => {
    const report = handReport();
    report.context[0] = { ...report.context[0]!, tool: undefined };
    const golden = buildGolden(report, META);
    expect(Object.keys(golden.context[0]!)).not.toContain('tool');
    golden.ledger[0]!.reason = 'changed';
    expect(report.ledger[0]!.reason).toBe('in_budget');
  });

  it('holds no raw PII, no absolute path and no timestamp for a real stabilized session', () => {
    const golden = buildGolden(realReport(session(), META.policy), META);
    const written = stableStringify(golden);
    expect(written).not.toContain('alice@example.com');
    expect(written).toContain('[EMAIL_1]');
    expect(written).not.toMatch(/"\/|[A-Za-z]:\\\\/);
    expect(written).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });
});

describe('policyHash', () => {
  it('is stable for the same policy and changes with any effective edit', () => {
    expect(policyHash(policy())).toBe(policyHash(policy()));
    expect(policyHash(policy())).toMatch(/^[0-9a-f]{16}$/);
    expect(policyHash(policy({ budget: 7999 }))).not.toBe(policyHash(policy()));
    expect(policyHash(policy({ dedup: { enabled: false } }))).not.toBe(policyHash(policy()));
  });
});

describe('parseGolden', () => {
  it('round-trips a golden written with stableStringify', () => {
    const golden = buildGolden(realReport(session(), META.policy), META);
    const text = stableStringify(golden);
    const parsed = parseGolden(text, 'golden/examples/session.jsonl.golden.json');
    expect(parsed).toEqual({ ok: true, golden });
    if (parsed.ok) expect(stableStringify(parsed.golden)).toBe(text);
  });

  it('reports broken JSON at its position without quoting the input', () => {
    const parsed = parseGolden('{\n  "schema": 1,\n  "transcript": "secret@corp.example" oops\n}\n', 'g.json');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.diagnostic).toMatchObject({ severity: 'error', code: 'json-syntax', file: 'g.json', line: 3 });
    expect(parsed.diagnostic.message + parsed.diagnostic.hint).not.toContain('secret');
    expect(parsed.diagnostic.hint).toContain('context-stability update');
  });

  it('rejects a golden of another schema version, telling a newer one apart', () => {
    const golden = buildGolden(handReport(), META);
    const newer = parseGolden(stableStringify({ ...golden, schema: 2 }), 'g.json');
    expect(newer.ok === false && newer.diagnostic.code).toBe('golden-schema-version');
    expect(newer.ok === false && newer.diagnostic.message).toContain('newer version');
    const odd = parseGolden(stableStringify({ ...golden, schema: 'one' }), 'g.json');
    expect(odd.ok === false && odd.diagnostic.message).toContain('unsupported schema version');
  });

  it('points at the object holding a wrongly shaped field, naming the field path only', () => {
    const golden = buildGolden(handReport(), META);
    const broken = JSON.parse(stableStringify(golden)) as { ledger: Record<string, unknown>[] };
    broken.ledger[1]!['action'] = 'vaporized-alice@example.com';
    const text = stableStringify(broken);
    const parsed = parseGolden(text, 'g.json');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.diagnostic.code).toBe('golden-shape');
    expect(parsed.diagnostic.message).toContain('$.ledger[1].action');
    expect(parsed.diagnostic.message).toContain('expected one of');
    expect(parsed.diagnostic.message).not.toContain('alice');
    const lines = text.split('\n');
    // The second ledger entry's opening brace.
    const ledgerLine = lines.indexOf('  "ledger": [');
    const second = lines.findIndex((l, i) => i > ledgerLine && l === '    {' && lines[i - 1] === '    },');
    expect(parsed.diagnostic.line).toBe(second + 1);
  });

  it('says when a required field is missing rather than mistyped', () => {
    const golden = JSON.parse(stableStringify(buildGolden(handReport(), META))) as Record<string, unknown>;
    delete golden['policy_hash'];
    const missing = parseGolden(stableStringify(golden), 'g.json');
    expect(missing.ok === false && missing.diagnostic.message).toMatch(/\$\.policy_hash .*required field is missing \(expected a string\)/);
    golden['policy_hash'] = 42;
    const wrong = parseGolden(stableStringify(golden), 'g.json');
    expect(wrong.ok === false && wrong.diagnostic.message).toMatch(/\$\.policy_hash .*: expected a string\.$/);
  });

  it('rejects a negative token count and a fractional line', () => {
    const golden = JSON.parse(stableStringify(buildGolden(handReport(), META))) as {
      budget: Record<string, unknown>;
      context: Record<string, unknown>[];
    };
    golden.budget['used'] = -1;
    expect(parseGolden(stableStringify(golden), 'g.json').ok).toBe(false);
    golden.budget['used'] = 1;
    golden.context[0]!['line'] = 1.5;
    const parsed = parseGolden(stableStringify(golden), 'g.json');
    expect(parsed.ok === false && parsed.diagnostic.message).toContain('$.context[0].line');
  });

  it('accepts fields it does not know (a newer report model) and keeps them', () => {
    const golden = JSON.parse(stableStringify(buildGolden(handReport(), META))) as Record<string, unknown>;
    golden['extra'] = { note: 1 };
    const parsed = parseGolden(stableStringify(golden), 'g.json');
    expect(parsed.ok && (parsed.golden as unknown as Record<string, unknown>)['extra']).toEqual({ note: 1 });
  });
});
