import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PHONE_REGIONS,
  findPhones,
  isPhoneRegion,
  phoneDetector,
} from '../../../../src/core/pii/detectors/phone.js';
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

  describe('national numbers need a context word within 30 characters before', () => {
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
      ['contact number: 415-555-2671', ['415-555-2671']],
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
    ['number of rows: 123-456-7890', '"number" alone is no context'],
    ['contact: 4155552671', '"contact" alone is no context'],
    [`phone${' '.repeat(40)}4155552671`, 'context word more than 30 characters before'],
    ['hotel 4155552671', '"tel" inside another word is not a context word'],
    ['recall 4155552671', '"call" inside another word is not a context word'],
    ['telemetry 4155552671', '"tel" starting another word is not a context word'],
    ['id 00442079460958', '00-prefixed contiguous digits without context: zero-padded id'],
    ['x+14155552671', 'glued to a word'],
    ['id4155552671 call', 'digits glued to an identifier'],
    // Regression, property seed 1623421117: the last group of a UUID after a phone cue word.
    ['tlf 123e4567-e89b-12d3-a456-426614174000', 'the last segment of a UUID'],
    ['phone build-7f3a9-4155552671', 'a segment of a hyphenated id'],
    ['+1 555 0100', 'too short to be valid'],
    ['2024-06-10 12:30:45+0000', 'timestamp with zone offset'],
    ['version 1.2.3.4567890', 'version string'],
    ['sha 3f786850e387550fdab836ed7e6dc881de23001b', 'git SHA'],
    ['[REDACTED_PHONE]', 'already masked'],
  ])('ignores %j (%s)', (text) => {
    expect(findPhones(text)).toEqual([]);
  });
});

describe('phone detector: numbers written as their region writes them (issue 30)', () => {
  it.each([
    ['(415) 555-0132', ['(415) 555-0132']],
    ['(415)555-0132', ['(415)555-0132']],
    ['415-555-0132', ['415-555-0132']],
    ['415.555.0132', ['415.555.0132']],
    ['1-415-555-0132', ['1-415-555-0132']],
    ['US: (415) 555-0132', ['(415) 555-0132']],
    ['"to": "212-555-0199"', ['212-555-0199']],
    ['Voicemail from Hazle (930-402-2671): call back', ['930-402-2671']],
    ['(1-312-555-0108)', ['1-312-555-0108']],
    ['at 2024-06-10 415-555-0132', ['415-555-0132']],
    ['090-1234-5678', ['090-1234-5678']], // JP
    ['09-7625400', ['09-7625400']], // IL: the format's 09-762-5400 with two groups joined
    ['020 7946 0958', ['020 7946 0958']], // GB
    ['06 12 34 56 78', ['06 12 34 56 78']], // FR
  ])('finds %j without a context word', (text, expected) => {
    expect(matchedTexts(findPhones, text)).toEqual(expected);
  });

  it.each([
    ['123-456-7890', 'not a valid US number'],
    ['415-5550-132', 'not grouped as the US writes it'],
    ['415-555.0132', 'mixed separators'],
    ['912 345 678', 'thousands'],
    ['1.234.567.890', 'thousands'],
    ['123-45-6789', 'the SSN layout'],
    ['94105-1234', 'a ZIP+4 code: two groups need a trunk prefix or parentheses'],
    ['ports 8080-8090', 'a range'],
    ['12-415-555-0132', 'part of a longer number'],
    ['415-555-0132-7', 'part of a longer number'],
    ['1024 2048 4096', 'a list of sizes'],
    ['"timestamp": "2025-01-27T23:17:02.182015"', 'seconds and microseconds of a time'],
    ['x = 0.1234567', 'a decimal'],
    ['ratio 1:090-1234-5678', 'after a joiner and a digit'],
    ['+1 171 800 0000', 'the groups of an unassigned international number'],
    ['4155550132', 'contiguous: needs a context word'],
    ['98765 69784', 'two groups without a trunk prefix'],
  ])('ignores %j (%s)', (text) => {
    expect(findPhones(text)).toEqual([]);
  });

  it('after a phone word, any phone shape counts, a local number or an unknown region', () => {
    expect(matchedTexts(findPhones, 'call 555-0132')).toEqual(['555-0132']);
    expect(matchedTexts(findPhones, 'tel: 912 345 678')).toEqual(['912 345 678']);
    expect(matchedTexts(findPhones, 'WhatsApp 12345678901234')).toEqual(['12345678901234']);
  });
});

describe('phone detector: a hyphen after a word is not an id', () => {
  it('still finds a number written right after a cue word and a hyphen', () => {
    expect(findPhones('Tel-4155552671').map((m) => m.type)).toEqual(['phone']);
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

describe('phone detector: national numbers of other regions', () => {
  it.each([
    ['phone: 020 7946 0958', ['020 7946 0958']], // GB
    ['téléphone : 06 12 34 56 78', ['06 12 34 56 78']], // FR
    ['Handy: 0151 23456789', ['0151 23456789']], // DE
    ['Telefon 030 12345678', ['030 12345678']],
    ['Rufnummer 089 1234567', ['089 1234567']],
    ['móvil 612 34 56 78', ['612 34 56 78']], // ES
    ['cellulare 347 123 4567', ['347 123 4567']], // IT
    ['telefoon 06-12345678', ['06-12345678']], // NL
    ['mobile 0412 345 678', ['0412 345 678']], // AU
    ['cell 98765 43210', ['98765 43210']], // IN
    ['電話 03-1234-5678', ['03-1234-5678']], // JP
    ['sms 07700 900123', ['07700 900123']],
    ['tel. number 4155552671', ['4155552671']],
    ['phone number 4155552671', ['4155552671']],
    ['mobile number: 07700 900123', ['07700 900123']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findPhones, text)).toEqual(expected);
  });

  it.each(['02079460958', 'see 0612345678', '0151 23456789 rows', 'row 2048 4096'])(
    'leaves %j alone without a context word (not grouped as its region writes it)',
    (text) => {
      expect(findPhones(text)).toEqual([]);
    },
  );

  it('masks a possible but unassigned number next to a context word (a typo is still a number)', () => {
    expect(matchedTexts(findPhones, 'phone 1718000000')).toEqual(['1718000000']);
    expect(matchedTexts(findPhones, 'phone +1 171 800 0000')).toEqual(['+1 171 800 0000']);
  });

  it.each([
    ['phone 123456', 'too short for any region'],
    ['phone 12345678901234567', 'too long for any region'],
    ['"created": 1718000000', 'unassigned and no context word'],
    ['+1 171 800 0000', 'international, unassigned and no context word'],
  ])('ignores %j (%s)', (text) => {
    expect(findPhones(text)).toEqual([]);
  });

  it('reads a list of numbers in one run as separate numbers', () => {
    expect(matchedTexts(findPhones, 'phone 415.555.2671 415.555.2672')).toEqual([
      '415.555.2671',
      '415.555.2672',
    ]);
    expect(matchedTexts(findPhones, 'tél 06 12 34 56 78 06 12 34 56 79')).toEqual([
      '06 12 34 56 78',
      '06 12 34 56 79',
    ]);
    expect(matchedTexts(findPhones, 'call 415 555 2671 415 555 2672 415 555 2673')).toEqual([
      '415 555 2671',
      '415 555 2672',
      '415 555 2673',
    ]);
  });

  it.each([
    ['call 2024-06-10 12:30', 'a date after a context word'],
    ['phone 192.168.100.200', 'a dotted quad after a context word'],
  ])('ignores %j (%s)', (text) => {
    expect(findPhones(text)).toEqual([]);
  });
});

describe('phone detector: international numbers of any region', () => {
  it.each([
    '+81 3-1234-5678',
    '+91 98765 43210',
    '+55 11 91234-5678',
    '+27 21 123 4567',
    '+49 151 23456789',
    '+61 412 345 678',
    '+34 612 34 56 78',
  ])('finds %j without context', (text) => {
    expect(matchedTexts(findPhones, text)).toEqual([text]);
  });

  it('finds them whatever the national regions', () => {
    expect(matchedTexts((t) => phoneDetector(['US']).find(t), 'x +44 20 7946 0958')).toEqual([
      '+44 20 7946 0958',
    ]);
  });
});

describe('phone detector: generic words are no context', () => {
  it.each([
    'order number 4155552671',
    'build number 4155552671',
    'ticket number 4155552671',
    'account number 4155552671',
    'invoice number 4155552671',
    'tracking number 4155552671',
    'case number 4155552671',
    'reference number 4155552671',
    'PR number 4155552671',
    'issue number 4155552671',
    'contact 4155552671',
    'number of rows: 4155552671',
    'line number 4155552671',
    'card number 4155552671',
    'My NHS number is 4155552671',
    'social security number: 4155552671',
    'number: 1718000000', // valid in DE only with its trunk 0: not written as a number there
    'tool call took 1718000000 ns',
    'calls: 4155552671',
    'call me about order 4155552671',
    'phone: "order_id": "4155552671"',
    'TFN 123 456 789', // an Australian tax file number, not a Swedish `tfn` (telefon)
    'kyc: tfn=123456789',
  ])('leaves %j alone', (text) => {
    expect(findPhones(text)).toEqual([]);
  });

  it.each([
    ['call me at 4155552671', ['4155552671']],
    ['contact number 4155552671', ['4155552671']],
    ['number: 4155552671', ['4155552671']],
    ['My Japanese number is 090-1234-5678', ['090-1234-5678']],
    ['my number 13812345678', ['13812345678']],
    ['su número es 612 34 56 78', ['612 34 56 78']],
    ['meine Nummer: 030 12345678', ['030 12345678']],
    ['My Indian number is 98765 69784', ['98765 69784']], // grouped as India writes it, trunk 0 left out
    ['call us: 020 7946 0958', ['020 7946 0958']],
    ['Customer asked us to call back at (415) 555-2671 tomorrow', ['(415) 555-2671']],
  ])('finds %j: a phone word or compound', (text, expected) => {
    expect(matchedTexts(findPhones, text)).toEqual(expected);
  });
});

describe('phone detector: the phone key hint', () => {
  const phone = new Set(['phone']);
  const find = (text: string) => findPhones(text, phone);

  it.each([
    ['4155552671', ['4155552671']], // a JSON number's text
    ['020 7946 0958', ['020 7946 0958']],
    ['1718000000', ['1718000000']], // possible, unassigned
    ['+1 171 800 0000', ['+1 171 800 0000']],
  ])('finds %j without a context word', (text, expected) => {
    expect(matchedTexts(find, text)).toEqual(expected);
  });

  it.each(['12345', '2024-06-10', '12345678901234567'])('still ignores %j', (text) => {
    expect(find(text)).toEqual([]);
  });

  it('ignores another type hint', () => {
    expect(findPhones('4155552671', new Set(['ssn']))).toEqual([]);
  });
});

describe('phone detector: regions', () => {
  it('reads national numbers of the listed regions only, unless a phone word says it is one', () => {
    const bare = 'see 020 7946 0958';
    expect(phoneDetector(['US']).find(bare)).toEqual([]);
    expect(matchedTexts((t) => phoneDetector(['GB']).find(t), bare)).toEqual(['020 7946 0958']);
    expect(matchedTexts((t) => phoneDetector().find(t), bare)).toEqual(['020 7946 0958']);
    expect(matchedTexts((t) => phoneDetector(['US']).find(t), 'phone: 020 7946 0958')).toEqual([
      '020 7946 0958',
    ]);
    expect(phoneDetector(['US']).find('number: 020 7946 0958')).toEqual([]);
  });

  it('passes the hint through the detector', () => {
    expect(matchedTexts((t) => phoneDetector(['GB']).find(t, new Set(['phone'])), '020 7946 0958')).toEqual([
      '020 7946 0958',
    ]);
  });

  it('rejects a region libphonenumber does not know', () => {
    expect(() => phoneDetector(['XX'])).toThrow(RangeError);
    expect(() => phoneDetector(['gb'])).toThrow(RangeError);
  });

  it('knows region codes', () => {
    expect(isPhoneRegion('GB')).toBe(true);
    expect(isPhoneRegion('gb')).toBe(false);
    expect(isPhoneRegion('XX')).toBe(false);
  });

  it('has a wide, sorted default of known regions', () => {
    expect([...DEFAULT_PHONE_REGIONS]).toEqual([...DEFAULT_PHONE_REGIONS].sort());
    expect(DEFAULT_PHONE_REGIONS.every(isPhoneRegion)).toBe(true);
    for (const region of [
      'US',
      'CA',
      'GB',
      'IE',
      'DE',
      'FR',
      'IT',
      'ES',
      'NL',
      'CH',
      'NO',
      'AU',
      'NZ',
      'IN',
      'SG',
      'JP',
      'BR',
      'MX',
      'ZA',
    ]) {
      expect(DEFAULT_PHONE_REGIONS).toContain(region);
    }
  });
  it('a last digit group glued to letters is a word, not part of the number', () => {
    expect(findPhones('phone: n/a, street: 25913 13th Street')).toEqual([]);
    expect(matchedTexts(findPhones, 'call +44 20 7946 0958 1st')).toEqual(['+44 20 7946 0958']);
  });
});
