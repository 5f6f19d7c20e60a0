import { describe, expect, it } from 'vitest';
import { findIbans, ibanChecksumValid } from '../../../../src/core/pii/detectors/iban.js';
import { matchedTexts, withIbanCheck } from '../helpers.js';

describe('iban detector', () => {
  it.each([
    ['DE89370400440532013000', ['DE89370400440532013000']],
    ['grouped: DE89 3704 0044 0532 0130 00 is mine', ['DE89 3704 0044 0532 0130 00']],
    ['GB82WEST12345698765432', ['GB82WEST12345698765432']],
    ['GB82 WEST 1234 5698 7654 32', ['GB82 WEST 1234 5698 7654 32']],
    ['FR1420041010050500013M02606', ['FR1420041010050500013M02606']],
    ['Norway, shortest: NO9386011117947', ['NO9386011117947']],
    ['Malta, long: MT84MALT011000012345MTLCAST001S', ['MT84MALT011000012345MTLCAST001S']],
    ['"iban":"NL91ABNA0417164300"', ['NL91ABNA0417164300']],
    // Any one separator between the groups (issue 30): dashes, dots, no-break spaces.
    ['IBAN AL47-2121-1009-0000-0002-3569-8741.', ['AL47-2121-1009-0000-0002-3569-8741']],
    ['GB82-WEST-1234-5698-7654-32', ['GB82-WEST-1234-5698-7654-32']],
    ['DE89.3704.0044.0532.0130.00', ['DE89.3704.0044.0532.0130.00']],
    [
      'DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000',
      ['DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000'],
    ],
    // A space does not join: a number after a spaced IBAN is the next item (seed 1386073082).
    ['ES43 6958 3649 0881 6865 3035 3400 866329 02175', ['ES43 6958 3649 0881 6865 3035']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findIbans, text)).toEqual(expected);
  });

  it.each([
    ['DE89370400440532013001', 'fails mod-97'],
    [withIbanCheck('DE', '37040044053201300'), 'valid mod-97 but one character short for DE'],
    [withIbanCheck('DE', '3704004405320130001'), 'valid mod-97 but one character too long for DE'],
    [withIbanCheck('ZZ', '370400440532013000'), 'valid mod-97 but not an IBAN country'],
    ['de89370400440532013000', 'lower case: identifiers, not account numbers'],
    ['DE89 3704 0044 0532013000', 'grouping abandoned half-way'],
    ['DE893 7040 0440 5320 1300 0', 'groups not of four'],
    ['DE89-3704 0044 0532 0130 00', 'separators mixed'],
    ['AL47-2121-1009-0000-0002-3569-8741-5555', 'the grouping runs on: a longer identifier'],
    ['DE89.3704.0044.0532.0130.00.7', 'a dotted grouping runs on'],
    ['DE89_3704_0044_0532_0130_00', 'underscores join an identifier'],
    ['XDE89370400440532013000', 'glued to a letter'],
    ['AB12 CD34', 'short code-like token'],
    ['UTF8 and SHA256 and ISO8601', 'format names'],
  ])('ignores %j (%s)', (text) => {
    expect(findIbans(text)).toEqual([]);
  });

  it('the length table decides, not the checksum', () => {
    expect(matchedTexts(findIbans, withIbanCheck('DE', '370400440532013000'))).toHaveLength(1);
  });

  it('checks mod-97 and the check-digit range', () => {
    expect(ibanChecksumValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanChecksumValid('GB00WEST12345698765432')).toBe(false);
  });
});
