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
    ['SSN 900-12-3456, ssn 912345678', 'ITIN areas 900-999 stay excluded with context'],
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

describe('ssn detector: context', () => {
  it.each([
    ['SSN: 123456789', ['123456789']],
    ['social security number 123456789', ['123456789']],
    ['SS# 123456789', ['123456789']],
    ['{"ssn_number": "123456789"}', ['123456789']],
    ['SSA record 123-45-6789', ['123-45-6789']],
    ['SSN number: 123-45-6789', ['123-45-6789']], // `number` after an SSN word is part of its label
    ['SSN on file: #123-45-6789', ['123-45-6789']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findSsns, text)).toEqual(expected);
  });

  it.each([
    [`ssn${' '.repeat(45)}123456789`, 'context word more than 40 characters before'],
    ['ssn 1234567890', 'ten digits'],
    ['ssn id123456789', 'glued to an identifier'],
    ['ssn 123456789abc', 'glued to an identifier'],
    ['ssn 000000000 and ssn 123004567', 'not issuable'],
    ['SSN on file; part 123-45-6789', 'a part label after the SSN word'],
  ])('ignores %j (%s)', (text) => {
    expect(findSsns(text)).toEqual([]);
  });

  it('takes the contiguous form with the ssn key hint', () => {
    const ssn = new Set(['ssn']);
    expect(matchedTexts((t) => findSsns(t, ssn), '123456789')).toEqual(['123456789']);
    expect(matchedTexts((t) => findSsns(t, ssn), 'part 123-45-6789')).toEqual(['123-45-6789']);
    expect(findSsns('912345678', ssn)).toEqual([]);
    expect(findSsns('123456789', new Set(['phone']))).toEqual([]);
  });
});

describe('ssn detector: part numbers', () => {
  it.each([
    'Part no. 123-45-6789',
    'part 123-45-6789',
    'P/N 123-45-6789',
    'PN: 123-45-6789',
    'sku: 123-45-6789',
    'model 123-45-6789',
    'item 123-45-6789',
    'serial 123-45-6789',
    'order #123-45-6789',
    'invoice 123-45-6789',
    'ticket 123-45-6789',
    'case 123-45-6789',
    'ref 123-45-6789',
    'reference: 123-45-6789',
    'catalog 123-45-6789',
    'cat. no. 123-45-6789',
    'product 123-45-6789',
    'lot 123-45-6789',
    'batch 123-45-6789',
    'id: 123-45-6789',
    'no. 123-45-6789',
    'the number 123-45-6789',
    'Part: ACME bracket, 123-45-6789',
  ])('leaves %j alone', (text) => {
    expect(findSsns(text)).toEqual([]);
  });

  it('finds a separated SSN when the part word is further than 25 characters away', () => {
    expect(matchedTexts(findSsns, `part list reviewed.${' '.repeat(10)}Mine: 123-45-6789`)).toEqual([
      '123-45-6789',
    ]);
  });
  it('a word cut by the context window is no cue (fast-check seed 998457019: `Arvid_` is not `id_`)', () => {
    expect(matchedTexts(findSsns, ' Arvid_Nienow@gmail.com (and (494 71 6028 and ')).toEqual(['494 71 6028']);
  });

  it('a cue glued to digits is part of a token, not a label (fast-check seed 1823395665: an IBAN ending `ID5`)', () => {
    expect(matchedTexts(findSsns, ' GR35 0180 3037 2155 0378 86E1 ID5 and 494 71 6028 and')).toEqual([
      '494 71 6028',
    ]);
    expect(matchedTexts(findSsns, 'see PART7 then 123-45-6789')).toEqual(['123-45-6789']);
    // Still cues: the word alone, and `no.`/`nr.` right before the number.
    expect(findSsns('ID 494 71 6028')).toEqual([]);
    expect(findSsns('no.123-45-6789')).toEqual([]);
    expect(findSsns('nr.123-45-6789')).toEqual([]);
  });
});

// Issue 34 item 5: an outside campaign's SSNs were let through after a hyphen, a markdown heading
// and a sentence, because a generic cue (`id`, `#`, `number`) anywhere in the 25 characters before
// made the number a part number. A generic cue now counts only as the number's label: right before
// it, with nothing but spaces, `:`, `=`, quotes or an opening bracket between. The specific cues
// (`part`, `sku`, `order`…) still count anywhere in the window.
describe('ssn detector: boundaries (issue 34)', () => {
  it.each([
    ['id-296-44-2192', '296-44-2192'],
    ['#### Error 181-90-1081', '181-90-1081'],
    ['Please read the card number back. 187-24-2083', '187-24-2083'],
    ['my number is 187-24-2083', '187-24-2083'],
    ['call_187-24-2083', '187-24-2083'],
    ['x=187-24-2083;', '187-24-2083'],
    ['(187-24-2083)', '187-24-2083'],
    ["'187-24-2083'", '187-24-2083'],
    ['/users/187-24-2083/', '187-24-2083'],
    ['first line\n187-24-2083\n', '187-24-2083'],
    ['{"note":"187-24-2083"}', '187-24-2083'],
    ['187-24-2083.0', '187-24-2083'],
    ['#### 187 24 2083', '187 24 2083'],
    ['id-note: x. 187-24-2083', '187-24-2083'],
  ])('finds the SSN in %j', (text, ssn) => {
    expect(matchedTexts(findSsns, text)).toEqual([ssn]);
  });

  it.each([
    'id: 123-45-6789',
    'ID=123-45-6789',
    '"id":"123-45-6789"',
    'id (123-45-6789)',
    'number: 123-45-6789',
    'the number 123-45-6789',
    'No: 123-45-6789',
    '#123-45-6789',
    '# 123-45-6789',
    'ticket #123-45-6789',
    'id #123-45-6789',
    '№ 123-45-6789',
    'sku-123-45-6789',
    'part-123-45-6789',
    'Part: ACME bracket, 123-45-6789',
    'order\n123-45-6789',
  ])('still reads %j as a labelled part or record number', (text) => {
    expect(findSsns(text)).toEqual([]);
  });
});
