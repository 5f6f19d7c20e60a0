import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import {
  DEFAULT_PII_DETECTORS,
  builtinDetectors,
  checkDetectors,
  createDetectors,
  defaultDetectors,
} from '../../../src/core/pii/registry.js';
import { BUILTIN_PII_TYPES } from '../../../src/core/pii/types.js';
import { maskText } from '../../../src/core/pii/mask.js';

const opts = { replacement: '[REDACTED_{TYPE}]', allow: [] };

describe('createDetectors', () => {
  it('builds the enabled built-ins in a fixed order, then digit_run, then the rules as listed', () => {
    const detectors = createDetectors({
      detectors: ['secret', 'email', 'secret'],
      digit_run: 3,
      rules: [
        { name: 'employee_id', re: RE2JS.compile('EMP-\\d{6}') },
        { name: 'badge', re: RE2JS.compile('B\\d{4}') },
      ],
    });
    expect(detectors.map((d) => d.type)).toEqual(['email', 'secret', 'digit_run', 'employee_id', 'badge']);
  });

  it('leaves digit_run off at 0 and runs only what the policy enables', () => {
    const detectors = createDetectors({ detectors: ['email'], digit_run: 0, rules: [] });
    const text = 'mail a@b.io, call +44 20 7946 0958, order 12345';
    expect(maskText(text, detectors, opts).text).toBe(
      'mail [REDACTED_EMAIL], call +44 20 7946 0958, order 12345',
    );
  });

  it('rejects an unknown detector name without quoting it', () => {
    const attempt = () => createDetectors({ detectors: ['emial-of-jane@x.io'], digit_run: 0, rules: [] });
    expect(attempt).toThrow(RangeError);
    expect(attempt).toThrow(/expected one of: email, phone/);
    expect(attempt).not.toThrow(/jane/);
  });

  it('rejects a digit_run below 2 (other than 0)', () => {
    expect(() => createDetectors({ detectors: [], digit_run: 1, rules: [] })).toThrow(RangeError);
  });
});

describe('builtinDetectors', () => {
  it('returns all seven typed detectors, whatever a policy enables', () => {
    expect(builtinDetectors().map((d) => d.type)).toEqual([...BUILTIN_PII_TYPES]);
  });
});

describe('the default set (issue 30)', () => {
  it('is the seven built-ins and the checksummed national ids, in a fixed order', () => {
    expect(DEFAULT_PII_DETECTORS).toEqual([
      ...BUILTIN_PII_TYPES,
      'uk_nhs',
      'in_aadhaar',
      'es_nif',
      'it_fiscal_code',
      'au_tfn',
    ]);
    expect(defaultDetectors().map((d) => d.type)).toEqual(DEFAULT_PII_DETECTORS);
  });

  it('is what the pii check searches whatever the policy enables, plus the opt-in ones it enables', () => {
    const types = (detectors: string[]) =>
      checkDetectors({ detectors, digit_run: 0, rules: [] }).map((d) => d.type);
    expect(types([])).toEqual(DEFAULT_PII_DETECTORS);
    expect(types(['email', 'mac'])).toEqual([
      ...DEFAULT_PII_DETECTORS.slice(0, 7),
      'mac',
      ...DEFAULT_PII_DETECTORS.slice(7),
    ]);
  });
});
