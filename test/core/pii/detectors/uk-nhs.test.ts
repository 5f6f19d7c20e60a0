import { describe, expect, it } from 'vitest';
import { findUkNhsNumbers, nhsChecksumValid } from '../../../../src/core/pii/detectors/uk-nhs.js';

/** Nine digits completed with their modulus-11 check digit, or undefined when none exists. */
function nhsComplete(nine: string): string | undefined {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(nine[i]) * (10 - i);
  const check = 11 - (sum % 11);
  if (check === 10) return undefined;
  return nine + String(check === 11 ? 0 : check);
}

function spaced(ten: string, sep = ' '): string {
  return `${ten.slice(0, 3)}${sep}${ten.slice(3, 6)}${sep}${ten.slice(6)}`;
}

function texts(text: string, hint?: ReadonlySet<string>): string[] {
  return findUkNhsNumbers(text, hint).map((m) => text.slice(m.start, m.end));
}

const A = nhsComplete('401023456')!;
const B = nhsComplete('612345678')!;
/** A valid number with its last digit changed: fails modulus 11. */
const WRONG = A.slice(0, 9) + String((Number(A[9]) + 1) % 10);

describe('uk_nhs detector', () => {
  it('builds valid fixtures', () => {
    expect(nhsChecksumValid(A)).toBe(true);
    expect(nhsChecksumValid(B)).toBe(true);
    expect(nhsChecksumValid('9434765919')).toBe(true); // the NHS's documented example
    expect(nhsChecksumValid(WRONG)).toBe(false);
  });

  it.each([
    [`NHS printed layout ${spaced(A)} counts alone`, [spaced(A)]],
    [`${spaced(B)}.`, [spaced(B)]],
    [`NHS number: ${A}`, [A]],
    [`nhs_no=${B}`, [B]],
    [`patient id ${spaced(A, '-')}`, [spaced(A, '-')]],
    [`Health record ${A} and ${spaced(B)}`, [A, spaced(B)]],
  ])('finds %j', (text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it('takes a contiguous number under the uk_nhs hint', () => {
    expect(texts(A, new Set(['uk_nhs']))).toEqual([A]);
    expect(texts(A, new Set(['phone']))).toEqual([]);
  });

  it.each([
    [A, 'contiguous without context'],
    [`call ${spaced(A, '-')}`, 'dashed (US phone layout) without NHS context'],
    [`NHS number ${WRONG}`, 'fails modulus 11'],
    [`NHS ${spaced(WRONG)}`, 'spaced but fails modulus 11'],
    ['NHS 000 000 0000 and 111 111 1111', 'one digit repeated'],
    [`NHS x${A}`, 'glued to a letter'],
    [`NHS ${A}1`, 'glued to a digit'],
    [`+44 ${spaced(A)}`, 'stretch of a longer grouped number'],
    [`${spaced(A)} 12`, 'followed by another group'],
    [`NHS ${A.slice(0, 3)} ${A.slice(3)}`, 'other grouping'],
    [`timestamp 1718000000 order 4010234567`, 'ten-digit ids without context'],
    [`nhsx ${A}`, 'context word must be whole'],
    [`NHS, said the long preamble before ${A}`, 'context beyond 30 characters'],
    [`2024-${A}`, 'joined by a dash to a longer number'],
  ])('ignores %j (%s)', (text) => {
    expect(texts(text)).toEqual([]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findUkNhsNumbers('9'.repeat(1 << 20))).toEqual([]);
    expect(findUkNhsNumbers('NHS '.repeat(1 << 18))).toEqual([]);
    expect(findUkNhsNumbers(`${spaced(A)} `.repeat(80_000))).toEqual([]);
    expect(findUkNhsNumbers(`NHS ${A}, `.repeat(60_000))).toHaveLength(60_000);
  });
});
