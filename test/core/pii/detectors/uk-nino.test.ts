import { describe, expect, it } from 'vitest';
import { findUkNinos } from '../../../../src/core/pii/detectors/uk-nino.js';
import { matchedTexts } from '../helpers.js';

describe('uk_nino detector', () => {
  it.each([
    ['NI number: CE123456A', ['CE123456A']],
    ['ni: CE 12 34 56 D.', ['CE 12 34 56 D']],
    ['"nino":"JK987654B"', ['JK987654B']],
    ['prefixes OA and ZY: OA000001C, ZY999999D', ['OA000001C', 'ZY999999D']],
    ['(WX102938C)', ['WX102938C']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findUkNinos, text)).toEqual(expected);
  });

  it.each(['D', 'F', 'I', 'Q', 'U', 'V'])('ignores first letter %s', (letter) => {
    expect(findUkNinos(`${letter}A123456A`)).toEqual([]);
  });

  it.each(['D', 'F', 'I', 'O', 'Q', 'U', 'V'])('ignores second letter %s', (letter) => {
    expect(findUkNinos(`A${letter}123456A`)).toEqual([]);
  });

  it.each(['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'])('ignores excluded prefix %s', (prefix) => {
    expect(findUkNinos(`${prefix}123456A`)).toEqual([]);
  });

  it.each([
    ['CE123456E', 'suffix other than A-D'],
    ['CE123456', 'no suffix'],
    ['ce123456a', 'lower case'],
    ['XCE123456A', 'glued to a letter before'],
    ['CE123456A1', 'glued to a digit after'],
    ['CE1234567A', 'seven digits'],
    ['CE 123456 A', 'other grouping'],
    ['CE 12 3456 A', 'grouping abandoned half-way'],
    ['CE12 34 56A', 'inconsistent spacing'],
    ['SHA256 ISO8601 UTF16LE', 'format names'],
    ['order AB-123456-C', 'dashed order numbers'],
  ])('ignores %j (%s)', (text) => {
    expect(findUkNinos(text)).toEqual([]);
  });

  it('reports the type and offsets', () => {
    expect(findUkNinos('x CE123456A')).toEqual([{ type: 'uk_nino', start: 2, end: 11 }]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findUkNinos('CE123456A'.repeat(116_508))).toEqual([]);
    expect(findUkNinos('CE 12 34 56 '.repeat(87_382))).toEqual([]);
    expect(findUkNinos('CE 12 34 56 A '.repeat(74_898))).toHaveLength(74_898);
  });
});
