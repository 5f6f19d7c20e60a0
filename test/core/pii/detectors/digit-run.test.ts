import { describe, expect, it } from 'vitest';
import { digitRunDetector } from '../../../../src/core/pii/detectors/digit-run.js';
import { matchedTexts } from '../helpers.js';

describe('digit_run detector', () => {
  it('matches maximal runs of at least N ASCII digits (the strict rule N = 3)', () => {
    const d = digitRunDetector(3);
    expect(d.type).toBe('digit_run');
    expect(matchedTexts(d.find, 'a1 b22 c333 d4444 12-345 6789012')).toEqual([
      '333',
      '4444',
      '345',
      '6789012',
    ]);
  });

  it('honours N', () => {
    expect(matchedTexts(digitRunDetector(2).find, '1 22 333')).toEqual(['22', '333']);
    expect(matchedTexts(digitRunDetector(5).find, '1234 12345')).toEqual(['12345']);
  });

  it('ignores non-ASCII digits', () => {
    expect(digitRunDetector(2).find('٣٤٥ ３４５')).toEqual([]);
  });

  it.each([1, -3, 2.5, Number.NaN])('rejects N = %s', (n) => {
    expect(() => digitRunDetector(n)).toThrow(RangeError);
  });
});
