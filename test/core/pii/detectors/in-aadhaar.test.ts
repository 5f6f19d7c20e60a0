import { describe, expect, it } from 'vitest';
import { findInAadhaars, verhoeffValid } from '../../../../src/core/pii/detectors/in-aadhaar.js';

// Verhoeff tables written out independently of the detector (which derives its permutations).
// prettier-ignore
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
// prettier-ignore
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

/** `digits` followed by its Verhoeff check digit. */
function verhoeffComplete(digits: string): string {
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    c = D[c]![P[(i + 1) % 8]![Number(digits[digits.length - 1 - i])]!]!;
  }
  return digits + String(INV[c]);
}

function spaced(twelve: string, sep = ' '): string {
  return `${twelve.slice(0, 4)}${sep}${twelve.slice(4, 8)}${sep}${twelve.slice(8)}`;
}

function texts(text: string, hint?: ReadonlySet<string>): string[] {
  return findInAadhaars(text, hint).map((m) => text.slice(m.start, m.end));
}

const A = verhoeffComplete('23456789012');
const B = verhoeffComplete('98765432101');
const WRONG = A.slice(0, 11) + String((Number(A[11]) + 1) % 10);

describe('in_aadhaar detector', () => {
  it('verifies Verhoeff', () => {
    expect(verhoeffValid('2363')).toBe(true); // the textbook example: check digit of 236 is 3
    expect(verhoeffValid('2364')).toBe(false);
    expect(verhoeffComplete('236')).toBe('2363');
    expect(verhoeffValid(A)).toBe(true);
    expect(verhoeffValid(WRONG)).toBe(false);
  });

  it.each([
    [`card ${spaced(A)}`, [spaced(A)]],
    [`${spaced(B)}.`, [spaced(B)]],
    [`Aadhaar: ${A}`, [A]],
    [`aadhar no ${B}`, [B]],
    [`UIDAI ${spaced(A, '-')}`, [spaced(A, '-')]],
    [`"uid":"${A}"`, [A]],
  ])('finds %j', (text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it('takes a contiguous number under the in_aadhaar hint', () => {
    expect(texts(A, new Set(['in_aadhaar']))).toEqual([A]);
  });

  it.each([
    [A, 'contiguous without context'],
    [spaced(A, '-'), 'dashed without context'],
    [spaced(WRONG), 'fails Verhoeff'],
    [spaced(verhoeffComplete('12345678901')), 'first digit 1'],
    [spaced(verhoeffComplete('03456789012')), 'first digit 0'],
    ['2222 2222 2222', 'one digit repeated'],
    [`4111 ${spaced(A)}`, 'last groups of a card number'],
    [`${spaced(A)} 1234`, 'first groups of a card number'],
    [`Aadhaar x${A}`, 'glued to a letter'],
    [`Aadhaar ${A}5`, 'thirteen digits'],
    [`uuid ${A}`, 'context word must be whole'],
  ])('ignores %j (%s)', (text) => {
    expect(texts(text)).toEqual([]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findInAadhaars('2'.repeat(1 << 20))).toEqual([]);
    expect(findInAadhaars('2345 '.repeat(209_715))).toEqual([]);
    expect(findInAadhaars(`${spaced(A)}, `.repeat(65_000))).toHaveLength(65_000);
  });
});
