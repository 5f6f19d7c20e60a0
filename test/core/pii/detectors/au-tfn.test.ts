import { describe, expect, it } from 'vitest';
import { findAuTfns, tfnChecksumValid } from '../../../../src/core/pii/detectors/au-tfn.js';

/** `digits` (7 or 8) completed with a last digit that makes the weighted sum a multiple of 11. */
function tfnComplete(digits: string): string | undefined {
  const weights = digits.length === 8 ? [1, 4, 3, 7, 5, 8, 6, 9, 10] : [10, 7, 8, 4, 6, 3, 5, 1];
  for (let d = 0; d <= 9; d++) {
    const candidate = digits + String(d);
    let sum = 0;
    for (let i = 0; i < candidate.length; i++) sum += Number(candidate[i]) * weights[i]!;
    if (sum % 11 === 0) return candidate;
  }
  return undefined;
}

function spaced(nine: string, sep = ' '): string {
  return `${nine.slice(0, 3)}${sep}${nine.slice(3, 6)}${sep}${nine.slice(6)}`;
}

function texts(text: string, hint?: ReadonlySet<string>): string[] {
  return findAuTfns(text, hint).map((m) => text.slice(m.start, m.end));
}

const NINE = '123456782'; // the ATO's published example
const NINE2 = tfnComplete('87654321')!;
const EIGHT = tfnComplete('1234567')!;
const WRONG = '123456783';

describe('au_tfn detector', () => {
  it('builds valid fixtures', () => {
    expect([NINE, NINE2, EIGHT].map(tfnChecksumValid)).toEqual([true, true, true]);
    expect(EIGHT).toHaveLength(8);
    expect(tfnChecksumValid(WRONG)).toBe(false);
  });

  it.each([
    [`TFN: ${spaced(NINE)}`, [spaced(NINE)]],
    [`tax file number ${NINE2}`, [NINE2]],
    [`Tax File No. ${spaced(NINE, '-')}`, [spaced(NINE, '-')]],
    [`old TFN ${EIGHT}`, [EIGHT]],
    [`"tfn":"${NINE}"`, [NINE]],
    [`taxFileNumber=${NINE2}`, [NINE2]],
  ])('finds %j', (text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it('takes a bare number under the au_tfn hint', () => {
    expect(texts(NINE, new Set(['au_tfn']))).toEqual([NINE]);
  });

  it.each([
    [NINE, 'no context'],
    [spaced(NINE), 'grouped, still no context'],
    [`TFN ${WRONG}`, 'fails the check'],
    ['TFN 999 999 999', 'one digit repeated'],
    [`TFN x${NINE}`, 'glued to a letter'],
    [`TFN ${NINE}0`, 'ten digits'],
    [`TFN 1 ${spaced(NINE)}`, 'stretch of a longer grouped number'],
    [`TFN ${spaced(NINE)} 7`, 'followed by another group'],
    [`TFN ${NINE.slice(0, 3)} ${NINE.slice(3, 6)}-${NINE.slice(6)}`, 'mixed separators'],
    [`tfnx ${NINE}`, 'context word must be whole'],
  ])('ignores %j (%s)', (text) => {
    expect(texts(text)).toEqual([]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findAuTfns(`TFN ${'1'.repeat(1 << 20)}`)).toEqual([]);
    expect(findAuTfns(`TFN ${'123 '.repeat(262_144)}`)).toEqual([]);
    expect(findAuTfns(`TFN ${NINE} `.repeat(75_000))).toHaveLength(75_000);
  });
});
