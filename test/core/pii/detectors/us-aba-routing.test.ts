import { describe, expect, it } from 'vitest';
import {
  abaRoutingValid,
  findUsAbaRoutingNumbers,
} from '../../../../src/core/pii/detectors/us-aba-routing.js';

/** Eight digits completed with the ABA 3-7-1 check digit. */
function abaComplete(eight: string): string {
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(eight[i]) * w[i]!;
  return eight + String((10 - (sum % 10)) % 10);
}

function texts(text: string, hint?: ReadonlySet<string>): string[] {
  return findUsAbaRoutingNumbers(text, hint).map((m) => text.slice(m.start, m.end));
}

const R1 = abaComplete('02100002'); // New York district
const R2 = abaComplete('32227182'); // thrift range
const R3 = abaComplete('80000001'); // traveller's cheques
const BAD_PREFIX = abaComplete('13000001');
const WRONG = R1.slice(0, 8) + String((Number(R1[8]) + 1) % 10);

describe('us_aba_routing detector', () => {
  it('builds valid fixtures', () => {
    expect([R1, R2, R3].map(abaRoutingValid)).toEqual([true, true, true]);
    expect(abaRoutingValid(BAD_PREFIX)).toBe(false);
    expect(abaRoutingValid(WRONG)).toBe(false);
  });

  it.each([
    [`routing number ${R1}`, [R1]],
    [`ABA: ${R2}, account 12345678`, [R2]],
    [`RTN ${R3}.`, [R3]],
    [`"bank_routing":"${R1}"`, [R1]],
    [
      `transit ${R1.slice(0, 4)}-${R1.slice(4, 8)}-${R1[8]}`,
      [`${R1.slice(0, 4)}-${R1.slice(4, 8)}-${R1[8]}`],
    ],
    [`Bank: ${R1} ${R2}`, [R1, R2]],
  ])('finds %j', (text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it('takes a bare number under the us_aba_routing hint', () => {
    expect(texts(R1, new Set(['us_aba_routing']))).toEqual([R1]);
  });

  it.each([
    [R1, 'bare nine digits without context'],
    [`order ${R1}`, 'other context'],
    [`routing ${WRONG}`, 'fails the checksum'],
    [`routing ${BAD_PREFIX}`, 'prefix outside the Federal Reserve ranges'],
    ['routing 000000000', 'one digit repeated'],
    [`bankruptcy case ${R1}`, 'context word must be whole'],
    [`abacus ${R1}`, 'context word must be whole'],
    [`routing x${R1}`, 'glued to a letter'],
    [`routing ${R1}0`, 'ten digits'],
    [`routing 1.${R1}`, 'decimal'],
    [`routing ${R1.slice(0, 4)}-${R1.slice(4, 8)} ${R1[8]}`, 'mixed separators'],
  ])('ignores %j (%s)', (text) => {
    expect(texts(text)).toEqual([]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findUsAbaRoutingNumbers(`routing ${'0'.repeat(1 << 20)}`)).toEqual([]);
    expect(findUsAbaRoutingNumbers(`bank ${R1} `.repeat(70_000))).toHaveLength(70_000);
    expect(findUsAbaRoutingNumbers(`${R1} `.repeat(100_000))).toEqual([]);
  });
});
