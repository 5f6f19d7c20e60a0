import { describe, expect, it } from 'vitest';
import { findSsns } from '../../../../src/core/pii/detectors/ssn.js';
import { matchedTexts } from '../helpers.js';

describe('ssn detector', () => {
  it.each([
    ['SSN: 123-45-6789', ['123-45-6789']],
    ['ssn 123 45 6789.', ['123 45 6789']],
    ['"ssn":"078-05-1120"', ['078-05-1120']],
    ['area 899 is issuable: 899-12-3456', ['899-12-3456']],
    ['two: 111-22-3333, 222-33-4444', ['111-22-3333', '222-33-4444']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findSsns, text)).toEqual(expected);
  });

  it.each([
    ['123456789', 'bare nine-digit run: ids and zip+4 codes, not SSNs'],
    ['000-12-3456', 'area 000 is never issued'],
    ['666-12-3456', 'area 666 is never issued'],
    ['900-12-3456 and 999-12-3456', 'areas 900-999 are never issued'],
    ['123-00-4567', 'group 00 is never issued'],
    ['123-45-0000', 'serial 0000 is never issued'],
    ['123-45 6789', 'mixed separators'],
    ['1123-45-6789', 'digits glued before'],
    ['123-45-67890', 'digits glued after'],
    ['12-123-45-6789', 'part of a longer dash-grouped number'],
    ['123-45-6789-01', 'part of a longer dash-grouped number'],
    ['2024-06-10', 'ISO date'],
    ['123e4567-e89b-12d3-a456-426614174000', 'UUID'],
  ])('ignores %j (%s)', (text) => {
    expect(findSsns(text)).toEqual([]);
  });
});
