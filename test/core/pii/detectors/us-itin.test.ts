import { describe, expect, it } from 'vitest';
import { findUsItins, itinGroupValid } from '../../../../src/core/pii/detectors/us-itin.js';

function texts(text: string, hint?: ReadonlySet<string>): string[] {
  return findUsItins(text, hint).map((m) => text.slice(m.start, m.end));
}

describe('us_itin detector', () => {
  it.each([
    ['ITIN 912-70-1234', ['912-70-1234']],
    ['filed with 999 94 5678.', ['999 94 5678']],
    [
      'groups 950-50-1111, 951-65-2222, 952-88-3333, 953-90-4444',
      ['950-50-1111', '951-65-2222', '952-88-3333', '953-90-4444'],
    ],
    ['ITIN: 912701234', ['912701234']],
    ['taxpayer id 900991234', ['900991234']],
    ['"tax_id":"912-92-1234"', ['912-92-1234']],
  ])('finds %j', (text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it('takes a bare number under the us_itin hint', () => {
    expect(texts('912701234', new Set(['us_itin']))).toEqual(['912701234']);
  });

  it.each([
    ['912701234', 'bare nine digits without context'],
    ['912-66-1234 912-69-1234 912-89-1234 912-93-1234 912-49-1234', 'groups outside the issued ranges'],
    ['812-70-1234', 'area below 900 (an SSN shape)'],
    ['912-70-0000', 'serial 0000'],
    ['912-70 1234', 'mixed separators'],
    ['1912-70-1234', 'glued to a digit'],
    ['a912-70-1234', 'glued to a letter'],
    ['912-70-1234-5', 'part of a longer dash-grouped number'],
    ['12-912-70-1234', 'part of a longer dash-grouped number'],
    ['zip 99501-1234 and order 912701234', 'zip+4 and order numbers'],
  ])('ignores %j (%s)', (text) => {
    expect(findUsItins(text)).toEqual([]);
  });

  it('itinGroupValid', () => {
    expect([49, 50, 65, 66, 70, 88, 89, 90, 92, 93, 94, 99].map(itinGroupValid)).toEqual([
      false,
      true,
      true,
      false,
      true,
      true,
      false,
      true,
      true,
      false,
      true,
      true,
    ]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findUsItins('9'.repeat(1 << 20))).toEqual([]);
    expect(findUsItins('912-70-'.repeat(149_797))).toEqual([]);
    expect(findUsItins('912-70-1234 '.repeat(87_381))).toHaveLength(87_381);
  });
});
