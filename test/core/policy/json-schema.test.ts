// The committed JSON Schema (schema/context-policy.schema.json) is what the generator writes from
// the zod schema today — the CI check that it is not stale — and it agrees with the parser: it
// accepts every policy the parser accepts without warnings, and flags misspelt or unknown keys
// and wrong types, as an editor would.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// ajv 6 (draft-07) is in the tree through eslint; it is the validator the schema is checked with.
import Ajv from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { renderPolicySchema } from '../../../scripts/policy-schema.mjs';
import { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from '../../../src/core/policy/default.js';
import { knownKeysAt } from '../../../src/core/policy/issues.js';
import {
  POLICY_FIELD_DESCRIPTIONS,
  POLICY_JSON_SCHEMA_FILE,
  policyJsonSchema,
} from '../../../src/core/policy/json-schema.js';
import { parsePolicy } from '../../../src/core/policy/parse.js';
import { policyArb, policyInputArb } from '../../property/support/policy-arb.js';
import { fcOptions } from '../../support/fc.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/policy');
const EXAMPLE_POLICY = path.join(ROOT, '.github/context-policy.yml');
const committedText = readFileSync(path.join(ROOT, POLICY_JSON_SCHEMA_FILE), 'utf8');
const committed = JSON.parse(committedText) as Record<string, unknown>;

const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile(committed);

function errorsOf(value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.dataPath || '(root)'} ${e.message ?? ''}`.trim());
}

/** A fixture as its parser reads it: YAML (JSON is YAML) into a plain value. */
function readFixture(file: string): unknown {
  return parseYaml(readFileSync(file, 'utf8')) as unknown;
}

type Node = { properties?: Record<string, Node>; items?: Node; description?: string };

/** Every property path of the schema, in the notation of POLICY_FIELD_DESCRIPTIONS. */
function propertyPaths(node: Node, at = ''): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const here = at === '' ? key : `${at}.${key}`;
    out.push(here, ...propertyPaths(child, here));
    if (child.items?.properties) out.push(`${here}[]`, ...propertyPaths(child.items, `${here}[]`));
  }
  return out;
}

describe('schema/context-policy.schema.json', () => {
  it('is what the generator writes (run npm run schema when this fails)', async () => {
    const expected = await renderPolicySchema();
    expect(committedText, `${POLICY_JSON_SCHEMA_FILE} is stale: run npm run schema`).toBe(expected);
  });

  it('is a draft-07 schema with an $id, a title and a description for every field', () => {
    expect(ajv.validateSchema(committed)).toBe(true);
    expect(committed['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(committed['$id']).toMatch(/^https:\/\/.+\/schema\/context-policy\.schema\.json$/);
    expect(committed['title']).toBe('context-stability policy');
    const paths = propertyPaths(committed as Node);
    expect([...paths].sort()).toEqual(Object.keys(POLICY_FIELD_DESCRIPTIONS).sort());
  });

  it('knows exactly the keys the parser knows, at every level ($schema aside)', () => {
    const schema = policyJsonSchema() as Node;
    const keys = (node: Node | undefined) => Object.keys(node?.properties ?? {});
    expect(keys(schema)).toEqual([...knownKeysAt([]), '$schema']);
    for (const key of knownKeysAt([])) {
      expect(keys(schema.properties?.[key]), key).toEqual(knownKeysAt([key]));
    }
    const rule = schema.properties?.['pii']?.properties?.['rules']?.items;
    expect(keys(rule)).toEqual(knownKeysAt(['pii', 'rules', 0]));
  });
});

describe('the policy JSON Schema accepts', () => {
  it('the default policy, as a value and as the printed YAML, and an empty policy', () => {
    expect(errorsOf(JSON.parse(JSON.stringify(DEFAULT_POLICY)))).toEqual([]);
    expect(errorsOf(parseYaml(DEFAULT_POLICY_YAML))).toEqual([]);
    expect(errorsOf({})).toEqual([]);
  });

  it('the example policy .github/context-policy.yml', () => {
    expect(errorsOf(readFixture(EXAMPLE_POLICY))).toEqual([]);
  });

  it.each(readdirSync(path.join(FIXTURES, 'valid')))('test/fixtures/policy/valid/%s', (name) => {
    const file = path.join(FIXTURES, 'valid', name);
    expect(parsePolicy(readFileSync(file, 'utf8'), { file: name }).diagnostics).toEqual([]);
    expect(errorsOf(readFixture(file))).toEqual([]);
  });

  it('every policy the parser accepts from the policy generator, as written and with defaults filled', () => {
    fc.assert(
      fc.property(policyInputArb, policyArb, (input, policy) => {
        expect(errorsOf(input)).toEqual([]);
        expect(errorsOf(JSON.parse(JSON.stringify(policy)))).toEqual([]);
      }),
      fcOptions(200),
    );
  });
});

describe('the policy JSON Schema rejects', () => {
  it.each([
    ['a misspelt key', { budjet: 5000 }, '(root) should NOT have additional properties'],
    ['a case variant', { Budget: 5000 }, '(root) should NOT have additional properties'],
    [
      'a nested misspelt key',
      { resilience: { truncation_mod: 'aggressive' } },
      '.resilience should NOT have additional properties',
    ],
    ['a string for a number', { budget: '8000' }, '.budget should be integer'],
    ['a value out of range', { budget: 0 }, '.budget should be >= 1'],
    [
      'an unknown enum value',
      { tokenizer: 'gpt4' },
      '.tokenizer should be equal to one of the allowed values',
    ],
    [
      'a repeated list entry',
      { authority: ['system', 'system'] },
      '.authority should NOT have duplicate items (items ## 1 and 0 are identical)',
    ],
    ['digit_run 1', { pii: { digit_run: 1 } }, '.pii.digit_run should NOT be valid'],
    [
      'a lower-case region',
      { pii: { regions: ['gb'] } },
      '.pii.regions[0] should match pattern "^[A-Z]{2}$"',
    ],
    [
      'a rule without a pattern',
      { pii: { rules: [{ name: 'emp' }] } },
      ".pii.rules[0] should have required property 'pattern'",
    ],
    ['another policy version', { version: 2 }, '.version should be equal to constant'],
  ])('%s', (_what, value, error) => {
    expect(errorsOf(value)).toContain(error);
  });

  it('the unknown keys the parser only warns about (the editor flags every key this release does not know)', () => {
    for (const name of readdirSync(path.join(FIXTURES, 'warn'))) {
      const file = path.join(FIXTURES, 'warn', name);
      const value = readFixture(file);
      if (value === null) continue; // the empty policy
      const warnings = parsePolicy(readFileSync(file, 'utf8'), { file: name }).diagnostics;
      expect(warnings.map((d) => d.code)).toContain('unknown-key');
      expect(errorsOf(value).join('\n')).toContain('should NOT have additional properties');
    }
  });
});

describe('the example policy .github/context-policy.yml', () => {
  const text = readFileSync(EXAMPLE_POLICY, 'utf8');

  it('points yaml-language-server at the committed schema on its first line', () => {
    const first = text.split('\n')[0] ?? '';
    const match = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
    expect(match).not.toBeNull();
    const target = path.resolve(path.dirname(EXAMPLE_POLICY), match?.[1] ?? '');
    expect(target).toBe(path.join(ROOT, POLICY_JSON_SCHEMA_FILE));
  });

  it('parses without diagnostics (the modeline is a comment)', () => {
    expect(parsePolicy(text, { file: '.github/context-policy.yml' }).diagnostics).toEqual([]);
  });
});
