// Property tests of numbered and hashed aliases (issue 29): masking stays idempotent whatever the
// text, the detectors, digit_run and greedy user rules, with a table that keeps numbering across
// passes; the same value always gets the same alias; findPii reports nothing in the result.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { PiiAliases, aliasOf } from '../../../src/core/pii/aliases.js';
import { maskJsonText } from '../../../src/core/pii/mask-json.js';
import { findPii, maskText } from '../../../src/core/pii/mask.js';
import { createDetectors } from '../../../src/core/pii/registry.js';
import { BUILTIN_PII_TYPES } from '../../../src/core/pii/types.js';
import { fcOptions } from '../../support/fc.js';
import { body } from './helpers.js';

const params = fcOptions(500);

const FRAGMENTS = [
  ...'aZx0123456789 -.:@+()_/\\\n\t[]#<>"',
  'bob@x.io',
  'Bob@X.io',
  'ann@y.org',
  '+44 20 7946 0958',
  '+442079460958',
  '4111 1111 1111 1111',
  '123-45-6789',
  'phone ',
  `ghp_${body(36)}`,
  '[EMAIL_1]',
  '[EMAIL_12]',
  '[SECRET_3]',
  '<PHONE:2>',
  '[EMAIL_abcdefgh]',
  '[REDACTED_EMAIL]',
  '_1]',
  'EMAIL_',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 2, unit: 'binary' })), {
    maxLength: 30,
  })
  .map((parts) => parts.join(''));

const RULES = [
  { name: 'digits', pattern: '\\d+' },
  { name: 'caps', pattern: '[A-Z_]+' },
  { name: 'bracketed', pattern: '\\[[^\\]]*\\]' },
  { name: 'any_char', pattern: '.' },
];
const config = fc.record({
  detectors: fc.subarray([...BUILTIN_PII_TYPES]),
  digitRun: fc.constantFrom(0, 2, 3),
  rules: fc.subarray(RULES, { maxLength: 2 }),
  replacement: fc.constantFrom('[{TYPE}_{N}]', '<{TYPE}:{N}>', '#{N}-{TYPE}#', '[{TYPE}_{HASH}]'),
});

type Config = typeof config extends fc.Arbitrary<infer C> ? C : never;

function setup(cfg: Config) {
  const detectors = createDetectors({
    detectors: cfg.detectors,
    digit_run: cfg.digitRun,
    rules: cfg.rules.map((r) => ({ name: r.name, re: RE2JS.compile(r.pattern) })),
  });
  const table = new PiiAliases();
  const alias = aliasOf(cfg.replacement, { aliases: table, key: 'k' });
  return { detectors, table, opts: { replacement: cfg.replacement, allow: [], alias } };
}

describe('numbered and hashed aliases (property)', () => {
  it('masking is idempotent, also with a fresh table, and leaves nothing findPii reports', () => {
    fc.assert(
      fc.property(text, config, (input, cfg) => {
        const { detectors, opts } = setup(cfg);
        const once = maskText(input, detectors, opts);
        const twice = maskText(once.text, detectors, opts);
        expect(twice).toEqual({ text: once.text, counts: {} });
        expect(maskText(once.text, detectors, setup(cfg).opts).text).toBe(once.text);
        expect(findPii(once.text, detectors, [], cfg.replacement)).toEqual([]);
      }),
      params,
    );
  });

  it('in JSON texts too', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), config, (values, cfg) => {
        const { detectors, opts } = setup(cfg);
        const json = JSON.stringify({ to: values, note: values.join(' ') });
        const once = maskJsonText(json, detectors, opts);
        expect(once).not.toBeNull();
        expect(() => JSON.parse(once?.text ?? '') as unknown).not.toThrow();
        expect(maskJsonText(once?.text ?? '', detectors, opts)?.text).toBe(once?.text);
      }),
      params,
    );
  });

  it('gives a value the same alias wherever it stands, and two values two aliases', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(['bob@x.io', 'ann@y.org', 'cy@z.net'], { minLength: 2 }), (order) => {
        const detectors = createDetectors({ detectors: ['email'], digit_run: 0, rules: [] });
        const table = new PiiAliases();
        const opts = {
          replacement: '[{TYPE}_{N}]',
          allow: [],
          alias: aliasOf('[{TYPE}_{N}]', { aliases: table }),
        };
        const first = maskText(order.join(' and '), detectors, opts).text;
        const again = maskText([...order].reverse().join(' or '), detectors, opts).text;
        expect(first).toBe(order.map((_, i) => `[EMAIL_${i + 1}]`).join(' and '));
        expect(again).toBe(order.map((_, i) => `[EMAIL_${order.length - i}]`).join(' or '));
        order.forEach((value, i) => expect(table.original('EMAIL', String(i + 1))).toBe(value));
      }),
      params,
    );
  });
});
