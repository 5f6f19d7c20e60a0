import { describe, expect, it } from 'vitest';
import { classifySpanishId, findEsNifs } from '../../../../src/core/pii/detectors/es-nif.js';

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

function dni(eight: string): string {
  return eight + LETTERS[Number(eight) % 23];
}

function nie(prefix: 'X' | 'Y' | 'Z', seven: string): string {
  return prefix + seven + LETTERS[Number(`${'XYZ'.indexOf(prefix)}${seven}`) % 23];
}

/** CIF control: doubled digits at odd positions (digit sums), plain at even ones. */
function cif(entity: string, seven: string, asLetter: boolean): string {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(seven[i]);
    sum += i % 2 === 0 ? Math.floor((2 * d) / 10) + ((2 * d) % 10) : d;
  }
  const control = (10 - (sum % 10)) % 10;
  return entity + seven + (asLetter ? 'JABCDEFGHI'[control] : String(control));
}

function texts(text: string, hint?: ReadonlySet<string>): string[] {
  return findEsNifs(text, hint).map((m) => text.slice(m.start, m.end));
}

const DNI = dni('12345678'); // the documentation example 12345678Z
const DNI2 = dni('87654321');
const NIE_X = nie('X', '1234567');
const NIE_Y = nie('Y', '7654321');
const CIF_B = cif('B', '1234567', false);
const CIF_P = cif('P', '2345678', true);
const NIF_K = 'K1234567' + LETTERS[1234567 % 23];

function wrongLetter(id: string): string {
  const last = id[id.length - 1]!;
  return id.slice(0, -1) + (last === 'A' ? 'B' : 'A');
}

describe('es_nif detector', () => {
  it('builds valid fixtures', () => {
    expect(DNI).toBe('12345678Z');
    expect(nie('X', '1234567')).toBe('X1234567L');
    expect([DNI, NIE_X, NIE_Y].map(classifySpanishId)).toEqual(['personal', 'personal', 'personal']);
    expect([CIF_B, CIF_P, NIF_K].map(classifySpanishId)).toEqual([
      'needs-context',
      'needs-context',
      'needs-context',
    ]);
  });

  it.each([
    [`DNI ${DNI}`, [DNI]],
    [`${DNI2}, ${NIE_X} and ${NIE_Y}`, [DNI2, NIE_X, NIE_Y]],
    [`dashed ${DNI.slice(0, 8)}-${DNI[8]}`, [`${DNI.slice(0, 8)}-${DNI[8]}`]],
    [
      `dashed NIE ${NIE_X[0]}-${NIE_X.slice(1, 8)}-${NIE_X[8]}`,
      [`${NIE_X[0]}-${NIE_X.slice(1, 8)}-${NIE_X[8]}`],
    ],
    [`NIF: ${DNI.slice(0, 8)} ${DNI[8]}`, [`${DNI.slice(0, 8)} ${DNI[8]}`]],
    [`CIF ${CIF_B}`, [CIF_B]],
    [`cif: ${CIF_P}`, [CIF_P]],
    [`NIF ${NIF_K}`, [NIF_K]],
    [`"nif":"${DNI}"`, [DNI]],
    [`VAT ES-${DNI.slice(0, 8)}-${DNI[8]}`, [`${DNI.slice(0, 8)}-${DNI[8]}`]],
  ])('finds %j', (text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it('takes context-needing forms under the es_nif hint', () => {
    expect(texts(CIF_B, new Set(['es_nif']))).toEqual([CIF_B]);
  });

  it.each([
    [wrongLetter(DNI), 'DNI with the wrong letter'],
    [wrongLetter(NIE_X), 'NIE with the wrong letter'],
    [`${DNI.slice(0, 8)} ${DNI[8]}`, 'space before the letter, no context'],
    [CIF_B, 'CIF without context'],
    [NIF_K, 'NIF K without context'],
    [`CIF ${cif('B', '1234567', true)}`, 'entity B takes a digit control'],
    [`CIF ${cif('P', '2345678', false)}`, 'entity P takes a letter control'],
    [`CIF ${wrongLetter(CIF_P)}`, 'wrong CIF control'],
    ['00000000T and X0000000T', 'one digit repeated'],
    [DNI.toLowerCase(), 'lower case'],
    [`A${DNI}`, 'glued to a letter before'],
    [`${DNI}9`, 'glued to a digit after'],
    [`1${DNI}`, 'nine digits'],
    ['order 12345678 A new one', 'an article after an order number'],
  ])('ignores %j (%s)', (text) => {
    expect(texts(text)).toEqual([]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findEsNifs('1'.repeat(1 << 20))).toEqual([]);
    expect(findEsNifs('X-1234567-'.repeat(104_857))).toEqual([]);
    expect(findEsNifs(`B1234567A`.repeat(116_508))).toEqual([]);
    expect(findEsNifs(`${DNI} `.repeat(100_000))).toHaveLength(100_000);
  });
});
