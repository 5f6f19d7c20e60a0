import { describe, expect, it } from 'vitest';
import { findCreditCards, luhnValid } from '../../../../src/core/pii/detectors/credit-card.js';
import { luhnComplete, matchedTexts } from '../helpers.js';

describe('credit card detector', () => {
  it.each([
    ['visa 4111111111111111', ['4111111111111111']],
    ['visa grouped 4111 1111 1111 1111 exp 12/29', ['4111 1111 1111 1111']],
    ['mastercard 5555-5555-5555-4444', ['5555-5555-5555-4444']],
    ['amex 3782 822463 10005', ['3782 822463 10005']],
    ['amex contiguous 378282246310005', ['378282246310005']],
    ['diners 4-6-4: 3056-930902-5904', ['3056-930902-5904']],
    [
      `19 digits 4-4-4-4-3: ${luhnComplete('601100099013942413').replace(/^(\d{4})(\d{4})(\d{4})(\d{4})/, '$1 $2 $3 $4 ')}`,
      [luhnComplete('601100099013942413').replace(/^(\d{4})(\d{4})(\d{4})(\d{4})/, '$1 $2 $3 $4 ')],
    ],
    ['mastercard 2-series 2223000048400011', ['2223000048400011']],
    ['"card":"4012888888881881"', ['4012888888881881']],
    ['card 4111 1111 1111 1111. Thanks', ['4111 1111 1111 1111']],
    // Fifteen digits (issue 30): UATP numbers from 1, contiguous and in its 4-5-6 grouping;
    // Amex in 4-4-4-3.
    ['uatp 122000000000003', ['122000000000003']],
    ['uatp 1220 00000 000003 on file', ['1220 00000 000003']],
    ['amex 3782-8224-6310-005', ['3782-8224-6310-005']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findCreditCards, text)).toEqual(expected);
  });

  // Every look-alike below passes Luhn (luhnComplete), so only the rule named next to it can
  // be what rejects it.
  it.each([
    [luhnComplete('411111111111111').replace(/.$/, (d) => String((Number(d) + 1) % 10)), 'fails Luhn'],
    ['6666666666666', 'all-same digits: a placeholder (passes Luhn, network digit 6)'],
    ['0000 0000 0000 0000', 'placeholder of zeros'],
    [luhnComplete('171800000012'), 'millisecond timestamp: major industry identifier 1, not a card network'],
    [luhnComplete('123456789012345678'), 'snowflake-style id starting with 1'],
    [luhnComplete('123456789012345'), 'fifteen digits from 1 are UATP; sixteen are not'],
    [luhnComplete('171800000000'), 'thirteen digits from 1: a millisecond timestamp'],
    [luhnComplete('911111111111111'), 'major industry identifier 9 (national use), not a card network'],
    [`score 0.${luhnComplete('411111111111111')}`, 'decimal fraction of a float'],
    [`${luhnComplete('411111111111111')}.5`, 'integer part of a float'],
    [`sha a${luhnComplete('411111111111111')}b`, 'digits inside a hex/base64 token'],
    [`id_${luhnComplete('411111111111111')}x`, 'digits glued to an identifier'],
    [
      luhnComplete('411111111111111').replace(/^(\d{4})(\d{4})(\d{4})/, '$1 $2-$3 '),
      'inconsistent separators',
    ],
    [luhnComplete('411111111111111').replace(/^(\d{4})(\d{4})(\d{4})/, '$1  $2  $3  '), 'double spaces'],
    [
      luhnComplete('411111111111111').replace(/^(\d{5})(\d{4})(\d{4})/, '$1 $2 $3 '),
      'a grouping no card uses',
    ],
    [luhnComplete('41111111111'), 'too short (12 digits)'],
    ['HU22-3001-5450-0038-0276-0040-6038', 'the groups of a dashed IBAN'],
    ['HU22 3001 5450 0038 0276 0040 6038', 'the groups of a spaced IBAN'],
    [luhnComplete('4111111111111111111'), 'too long (20 digits)'],
  ])('ignores %j (%s)', (text) => {
    expect(findCreditCards(text)).toEqual([]);
  });

  it('a card right after a whole spaced IBAN is the next item, not the IBAN running on (seed 1386073082)', () => {
    const text = 'ES43 6958 3649 0881 6865 3035 3400 866329 02175';
    expect(matchedTexts(findCreditCards, text)).toEqual(['3400 866329 02175']);
    // The same groups after an IBAN that is one group short of whole still continue it.
    expect(findCreditCards('ES43 6958 3649 0881 6865 3400 866329 02175')).toEqual([]);
  });

  it('the look-alikes above are rejected by their rule, not by chance', () => {
    // Same numbers in card form are found: the negatives differ only in the named aspect.
    expect(matchedTexts(findCreditCards, luhnComplete('411111111111111'))).toHaveLength(1);
    expect(matchedTexts(findCreditCards, `score ${luhnComplete('411111111111111')} x`)).toHaveLength(1);
    expect(
      matchedTexts(
        findCreditCards,
        luhnComplete('411111111111111').replace(/^(\d{4})(\d{4})(\d{4})/, '$1 $2 $3 '),
      ),
    ).toHaveLength(1);
  });

  it('an E.164 phone number and the value of a phone key are not cards', () => {
    const digits = luhnComplete('495451921900');
    expect(findCreditCards(`call +${digits}`)).toEqual([]);
    expect(findCreditCards(digits, new Set(['phone']))).toEqual([]);
    expect(matchedTexts(findCreditCards, `call ${digits}`)).toEqual([digits]);
  });

  it('a contiguous number under an id key is an identifier; a grouped one is still a card', () => {
    const digits = luhnComplete('453914880343646');
    const id = new Set(['identifier']);
    expect(findCreditCards(digits, id)).toEqual([]);
    expect(matchedTexts((t) => findCreditCards(t, id), `order-a ${digits}`)).toEqual([digits]);
    const grouped = digits.replace(/^(\d{4})(\d{4})(\d{4})/, '$1 $2 $3 ');
    expect(matchedTexts((t) => findCreditCards(t, id), grouped)).toEqual([grouped]);
  });

  it('implements Luhn', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });
});
