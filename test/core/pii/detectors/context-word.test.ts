import { describe, expect, it } from 'vitest';
import {
  allSameDigit,
  contextWords,
  hasContext,
  numberStandsAlone,
  precededBy,
} from '../../../../src/core/pii/detectors/context-word.js';

const BANK = contextWords(['bank', 'routing number', 'tax-file']);

/** precededBy at the position of the first digit of `text`. */
function before(text: string, window?: number): boolean {
  return precededBy(text, text.search(/\d/), BANK, window);
}

describe('context words', () => {
  it.each([
    'bank 123',
    'BANK: 123',
    'my Bank account no. 123',
    'routing number 123',
    'routing_number=123',
    'RoutingNumber: 123',
    'bankAccount 123',
    'BANKAccount 123',
    'taxFile 123',
    'tax file 123',
    'TAX_FILE 123',
    '[REDACTED_BANK] 123',
    'bank123',
  ])('counts %j', (text) => {
    expect(before(text)).toBe(true);
  });

  it.each([
    ['banking 123', 'longer word'],
    ['riverbank 123', 'longer word'],
    ['routing 123', 'half a phrase'],
    ['no context 123', 'no word'],
    ['bank is mentioned far, far, far, far too early: 123', 'outside the window'],
  ])('ignores %j (%s)', (text) => {
    expect(before(text)).toBe(false);
  });

  it('never half-matches a word cut by the window start', () => {
    // The window starts inside `riverbank`: `bank` must not count.
    const text = `riverbank${' '.repeat(26)}123`;
    expect(text.indexOf('1') - 30).toBe(5);
    expect(before(text)).toBe(false);
    expect(before(`bank${' '.repeat(26)}123`)).toBe(true);
  });

  it('takes a custom window', () => {
    expect(before('bank and then some text 123', 10)).toBe(false);
    expect(before('bank 123', 10)).toBe(true);
  });

  it('the hint naming the type counts as context', () => {
    expect(hasContext('123', 0, BANK, 'au_tfn', new Set(['au_tfn']))).toBe(true);
    expect(hasContext('123', 0, BANK, 'au_tfn', new Set(['phone']))).toBe(false);
    expect(hasContext('123', 0, BANK, 'au_tfn')).toBe(false);
  });

  it('is not confused by a global regex', () => {
    const global = /bank/gi;
    expect(precededBy('bank 1', 5, global)).toBe(true);
    expect(precededBy('bank 1', 5, global)).toBe(true);
  });
});

describe('numberStandsAlone', () => {
  function alone(text: string, sep = ''): boolean {
    const start = text.indexOf('[');
    const end = text.indexOf(']') - 1;
    const plain = text.replace('[', '').replace(']', '');
    return numberStandsAlone(plain, start, end, sep);
  }

  it.each([
    ['id [123456789] ok'],
    ['[123456789]'],
    ['(x:[123456789])'],
    ['sentence [123456789].'],
    ['[123456789], next'],
    ['routing [021000021] 12345678'],
  ])('%j stands alone', (text) => {
    expect(alone(text)).toBe(true);
  });

  it.each([
    ['a[123456789]'],
    ['[123456789]b'],
    ['1[23456789]'],
    ['2024-[06]-10'],
    ['1.[5]'],
    ['[1],234'],
    ['12:[30]'],
    ['06/[10]'],
  ])('%j does not', (text) => {
    expect(alone(text)).toBe(false);
  });

  it('the layout separator joins groups too', () => {
    expect(alone('12 [943 476 5919]', ' ')).toBe(false);
    expect(alone('[943 476 5919] 12', ' ')).toBe(false);
    expect(alone('12 [9434765919]')).toBe(true);
  });

  it('allSameDigit', () => {
    expect(allSameDigit('000000000')).toBe(true);
    expect(allSameDigit('000000001')).toBe(false);
  });
});
