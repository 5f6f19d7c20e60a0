import { describe, expect, it } from 'vitest';
import { findPhones } from '../../../../src/core/pii/detectors/phone.js';
import { matchedTexts } from '../helpers.js';

describe('phone detector', () => {
  describe('international numbers count anywhere', () => {
    it.each([
      ['ping +1 415-555-2671 now', ['+1 415-555-2671']],
      ['London +44 20 7946 0958.', ['+44 20 7946 0958']],
      ['E.164 "+14155552671"', ['+14155552671']],
      ['Paris tel:+33 1 23 45 67 89', ['+33 1 23 45 67 89']],
      ['Zurich +41 44 668 18 00', ['+41 44 668 18 00']],
      ['00 prefix with separators: 0044 20 7946 0958', ['0044 20 7946 0958']],
      ['followed by an unrelated digit: +1 415 555 2671 4 times', ['+1 415 555 2671']],
      ['two in a row: +1 415 555 2671 +44 20 7946 0958', ['+1 415 555 2671', '+44 20 7946 0958']],
      ['followed by more digit groups: +44 20 7946 0958 (4111 1111 1111)', ['+44 20 7946 0958']],
    ])('finds %j', (text, expected) => {
      expect(matchedTexts(findPhones, text)).toEqual(expected);
    });
  });

  describe('national (US) numbers need a context word within 30 characters before', () => {
    it.each([
      ['call me: (415) 555-2671', ['(415) 555-2671']],
      ['Tel. 415.555.2671', ['415.555.2671']],
      ['{"phone_number": "4155552671"}', ['4155552671']],
      ['Mobile 1-415-555-2671', ['1-415-555-2671']],
      ['CELL: 415 555 2671', ['415 555 2671']],
      ['calling 415 555 2671', ['415 555 2671']],
      ['tel-415-555-2671', ['415-555-2671']],
      ['fax 415-555-2671', ['415-555-2671']],
      ['WhatsApp 415 555 2671', ['415 555 2671']],
      ['teléfono 415 555 2671', ['415 555 2671']],
      ['téléphone : 415 555 2671', ['415 555 2671']],
      ['Handy 415 555 2671', ['415 555 2671']],
      ['☎ 415-555-2671', ['415-555-2671']],
      ['contact: 415-555-2671', ['415-555-2671']],
      ['text me at 415 555 2671', ['415 555 2671']],
      ['two in one run: call 415 555 2671 / 415 555 2672', ['415 555 2671', '415 555 2672']],
      ['after unrelated groups: phone ext 12 34 (415) 555-2671', ['(415) 555-2671']],
      ['00 prefix without separators but with context: phone 00442079460958', ['00442079460958']],
    ])('finds %j', (text, expected) => {
      expect(matchedTexts(findPhones, text)).toEqual(expected);
    });
  });

  it.each([
    ['order 4155552671', 'national number without a context word: order ids look dialable'],
    ['"created": 1718000000', 'unix timestamp'],
    ['phone 1718000000', 'context but not a valid number (area code 171)'],
    ['number of rows: 123-456-7890', 'context but not a valid number (area code 123)'],
    [`phone${' '.repeat(40)}4155552671`, 'context word more than 30 characters before'],
    ['hotel 4155552671', '"tel" inside another word is not a context word'],
    ['recall 4155552671', '"call" inside another word is not a context word'],
    ['telemetry 4155552671', '"tel" starting another word is not a context word'],
    ['id 00442079460958', '00-prefixed contiguous digits without context: zero-padded id'],
    ['x+14155552671', 'glued to a word'],
    ['id4155552671 call', 'digits glued to an identifier'],
    ['+1 555 0100', 'too short to be valid'],
    ['2024-06-10 12:30:45+0000', 'timestamp with zone offset'],
    ['version 1.2.3.4567890', 'version string'],
    ['sha 3f786850e387550fdab836ed7e6dc881de23001b', 'git SHA'],
    ['[REDACTED_PHONE]', 'already masked'],
  ])('ignores %j (%s)', (text) => {
    expect(findPhones(text)).toEqual([]);
  });
});

describe('phone detector: numbered identifiers', () => {
  // Regression, property seed 1635188209: `call order #4155552671` was masked as a phone.
  it.each(['call order #4155552671', 'phone ticket #4155552671 today', 'tel: see issue #4155552671'])(
    'leaves %j alone: a number right after # is an identifier',
    (text) => {
      expect(matchedTexts(findPhones, text)).toEqual([]);
    },
  );

  it('still finds a phone after a # that is not directly before it', () => {
    expect(matchedTexts(findPhones, 'room # call (415) 555-2671')).toEqual(['(415) 555-2671']);
  });
});
