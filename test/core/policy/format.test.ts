import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_SHOWN_CHARS, formatPath, showString, showValue } from '../../../src/core/policy/format.js';
import { closest, editDistance } from '../../../src/core/policy/suggest.js';
import { fcOptions } from '../../support/fc.js';

// Any UTF-16 sequence, lone surrogates and control characters included.
const utf16 = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 })
  .map((codes) => String.fromCharCode(...codes));

describe('showValue', () => {
  it('quotes strings and shows scalars as written', () => {
    expect(showValue('agressive')).toBe('"agressive"');
    expect(showValue(-5)).toBe('-5');
    expect(showValue(true)).toBe('true');
    expect(showValue(null)).toBe('null');
  });

  it('describes collections by their shape, never by their content', () => {
    expect(showValue([])).toBe('an empty list');
    expect(showValue(['secret@example.com'])).toBe('a list of 1 entry');
    expect(showValue([1, 2])).toBe('a list of 2 entries');
    expect(showValue({ token: 'abc' })).toBe('a mapping');
  });

  it('never shows more than 40 characters, whatever the string', () => {
    fc.assert(
      fc.property(utf16, (text) => {
        expect(showString(text).length).toBeLessThanOrEqual(MAX_SHOWN_CHARS);
      }),
      fcOptions(500),
    );
  });

  it('does not split a surrogate pair when shortening', () => {
    const shown = showString(`${'a'.repeat(37)}😀😀😀`);
    expect(shown).toBe(`"${'a'.repeat(37)}…"`);
    expect(shown.length).toBeLessThanOrEqual(MAX_SHOWN_CHARS);
  });

  it('escapes quotes, control characters and invisible reordering characters', () => {
    expect(showString('a"b\n')).toBe('"a\\"b\\n"');
    expect(showString('x\u202ey\u0085')).toBe('"x\\u202ey\\u0085"');
  });
});

describe('formatPath', () => {
  it('joins keys with dots and indexes with brackets', () => {
    expect(formatPath(['pii', 'rules', 2, 'pattern'])).toBe('pii.rules[2].pattern');
    expect(formatPath([])).toBe('(top level)');
  });

  it('quotes keys that are not plain identifiers', () => {
    expect(formatPath(['pii', 'my key'])).toBe('pii."my key"');
  });
});

describe('closest', () => {
  it('suggests the known word a typo comes from', () => {
    expect(closest('trunc_mode', ['enabled', 'truncation_mode', 'notification_level'])).toBe(
      'truncation_mode',
    );
    expect(closest('agressive', ['default', 'aggressive'])).toBe('aggressive');
    expect(closest('budegt', ['budget', 'order'])).toBe('budget');
    expect(closest('keep-recent', ['keep_recent', 'budget'])).toBe('keep_recent');
    expect(closest('o200k', ['o200k_base', 'cl100k_base'])).toBe('o200k_base');
  });

  it('suggests nothing for an unrelated word', () => {
    expect(closest('telemetry', ['version', 'tokenizer', 'budget', 'order'])).toBeUndefined();
    expect(closest('foo', ['ttl'])).toBeUndefined();
  });

  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('budegt', 'budget')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
