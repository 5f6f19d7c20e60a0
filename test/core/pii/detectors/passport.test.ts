import { describe, expect, it } from 'vitest';
import { findPassports } from '../../../../src/core/pii/detectors/passport.js';

function texts(text: string, hint?: ReadonlySet<string>): string[] {
  return findPassports(text, hint).map((m) => text.slice(m.start, m.end));
}

describe('passport detector', () => {
  it.each([
    ['Passport No.: C01X00T47', ['C01X00T47']],
    ['passport number is 123456789', ['123456789']],
    ['PASSPORT #987654321 issued', ['987654321']],
    ['Reisepass-Nr. C4J9K2L7M', ['C4J9K2L7M']],
    ['Reisepassnummer: CF1234567', ['CF1234567']],
    ['pasaporte: AB1234567', ['AB1234567']],
    ['numéro de passeport 12AB34567', ['12AB34567']],
    ['passportNumber=X12345678', ['X12345678']],
    ['passeport n° 12AB34567', ['12AB34567']],
    ['"passport_no": "A1234567"', ['A1234567']],
    ['passport: 123456, passport: 654321', ['123456', '654321']],
  ])('finds %j', (text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it('takes every candidate under the passport hint', () => {
    expect(texts('C01X00T47', new Set(['passport']))).toEqual(['C01X00T47']);
    expect(texts('old 123456789 new 987654321', new Set(['passport']))).toEqual(['123456789', '987654321']);
    expect(texts('C01X00T47', new Set(['phone']))).toEqual([]);
  });

  it.each([
    ['C01X00T47', 'no context'],
    ['order 123456789', 'other context'],
    ['passport expires 20300101', 'a word between context and number'],
    ['passport photo 2 of 3 123456', 'digits between context and number'],
    ['passport: ABCDEFGH', 'no digit'],
    ['passport: c01x00t47', 'lower case'],
    ['passport: 12345', 'too short'],
    ['passport: 1234567890', 'too long'],
    ['passport: C01X00T47x', 'glued to a letter'],
    ['passportal 123456789', 'context word must be whole'],
    ['the passport office, see ticket 123456789', 'context not adjacent'],
  ])('ignores %j (%s)', (text) => {
    expect(texts(text)).toEqual([]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findPassports(`passport: ${'A1'.repeat(1 << 19)}`)).toEqual([]);
    expect(findPassports('A1B2C3 '.repeat(150_000))).toEqual([]);
    expect(findPassports('passport '.repeat(116_508))).toEqual([]);
    expect(findPassports('passport 123456 '.repeat(65_536))).toHaveLength(65_536);
  });
});
