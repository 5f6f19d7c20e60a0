import { describe, expect, it } from 'vitest';
import { findItFiscalCodes, fiscalCodeValid } from '../../../../src/core/pii/detectors/it-fiscal-code.js';
import { matchedTexts } from '../helpers.js';

// The ministerial odd-position table, written as a string over 0-9 then A-Z.
const ODD = '1,0,5,7,9,13,15,17,19,21,1,0,5,7,9,13,15,17,19,21,2,4,18,20,11,3,6,8,12,14,16,10,22,25,24,23'
  .split(',')
  .map(Number);
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The first 15 characters completed with their check letter. */
function withCheck(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const index = ALPHABET.indexOf(first15[i]!);
    const even = index < 10 ? index : index - 10;
    sum += i % 2 === 0 ? ODD[index]! : even;
  }
  return first15 + String.fromCharCode(65 + (sum % 26));
}

const MALE = withCheck('RSSMRA80A01H501'); // Rossi Mario, 1 Jan 1980, Rome
const FEMALE = withCheck('BNCLRA92M45F205'); // Bianchi Laura, 5 Aug 1992 (+40), Milan
const OMOCODE = withCheck('RSSMRA80A01H50M'); // last birthplace digit 1 replaced by M
const OMOCODE_DAY = withCheck('VRDGPP8LT1MZ404'); // year and day digits replaced

function wrongCheck(code: string): string {
  return code.slice(0, 15) + (code[15] === 'A' ? 'B' : 'A');
}

describe('it_fiscal_code detector', () => {
  it('builds valid fixtures', () => {
    expect([MALE, FEMALE, OMOCODE, OMOCODE_DAY].map(fiscalCodeValid)).toEqual([true, true, true, true]);
  });

  it.each([
    [`codice fiscale: ${MALE}`, [MALE]],
    [`CF ${FEMALE}.`, [FEMALE]],
    [`omocodia ${OMOCODE} and ${OMOCODE_DAY}`, [OMOCODE, OMOCODE_DAY]],
    [`"cf":"${MALE}"`, [MALE]],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findItFiscalCodes, text)).toEqual(expected);
  });

  it.each([
    [wrongCheck(MALE), 'wrong check letter'],
    [withCheck('RSSMRA80F01H501'), 'F is no month letter'],
    [withCheck('RSSMRA80A32H501'), 'day 32'],
    [withCheck('RSSMRA80A00H501'), 'day 00'],
    [withCheck('RSSMRA80A72H501'), 'day 72 (31 + 40 is the last)'],
    [withCheck('RSSMRA80A01H5O1'), 'O is no omocodia letter'],
    [MALE.toLowerCase(), 'lower case'],
    [`X${MALE}`, 'glued to a letter before'],
    [`${MALE}1`, 'glued to a digit after'],
    ['ABCDEFGHIJKLMNOP QRSTUVWXYZABCDEF', 'sixteen-letter runs'],
    ['IT12345678901', 'company VAT number'],
  ])('ignores %j (%s)', (text) => {
    expect(findItFiscalCodes(text)).toEqual([]);
  });

  it('reports the type and offsets', () => {
    expect(findItFiscalCodes(`cf ${MALE}`)).toEqual([{ type: 'it_fiscal_code', start: 3, end: 19 }]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findItFiscalCodes('A'.repeat(1 << 20))).toEqual([]);
    expect(findItFiscalCodes(MALE.repeat(65_536))).toEqual([]);
    expect(findItFiscalCodes(`${MALE} `.repeat(61_680))).toHaveLength(61_680);
  });
});
