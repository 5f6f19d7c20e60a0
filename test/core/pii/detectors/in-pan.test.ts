import { describe, expect, it } from 'vitest';
import { findInPans } from '../../../../src/core/pii/detectors/in-pan.js';
import { matchedTexts } from '../helpers.js';

describe('in_pan detector', () => {
  it.each([
    ['PAN: ABCPE1234F', ['ABCPE1234F']],
    ['"pan":"AAACB5678K"', ['AAACB5678K']],
    [
      'holder types PCHFATBLJG: XYZHA0001Z XYZFA0001Z XYZTA0001Z XYZGA0001Z',
      ['XYZHA0001Z', 'XYZFA0001Z', 'XYZTA0001Z', 'XYZGA0001Z'],
    ],
    ['(QWEPR9876T).', ['QWEPR9876T']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findInPans, text)).toEqual(expected);
  });

  it.each([
    ['ABCDE1234F', 'fourth letter D is no holder type'],
    ['ABCXE1234F', 'fourth letter X is no holder type'],
    ['abcpe1234f', 'lower case'],
    ['AbCPE1234F', 'mixed case'],
    ['XABCPE1234F', 'glued to a letter before'],
    ['ABCPE1234F9', 'glued to a digit after'],
    ['ABCPE12345F', 'five digits'],
    ['ABCP1234F', 'four letters'],
    ['HTTPS2024 UTF8 SHA256 ISO8601', 'format names'],
    ['3f786850e387550fdab836ed7e6dc881de23001b', 'git SHA'],
  ])('ignores %j (%s)', (text) => {
    expect(findInPans(text)).toEqual([]);
  });

  it('reports the type and offsets', () => {
    expect(findInPans('pan ABCPE1234F')).toEqual([{ type: 'in_pan', start: 4, end: 14 }]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findInPans('A'.repeat(1 << 20))).toEqual([]);
    expect(findInPans('ABCPE1234F'.repeat(104_857))).toEqual([]);
    expect(findInPans('ABCPE1234F '.repeat(95_325))).toHaveLength(95_325);
  });
});
