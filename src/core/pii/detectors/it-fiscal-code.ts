// Italian fiscal codes (codice fiscale) of natural persons: 16 characters
// `CCCNNNYYMDDZZZZK` — three surname and three name letters, the birth year, a month letter
// (A B C D E H L M P R S T), the birth day (plus 40 for women), the birthplace code (a letter and
// three digits) and the check letter: odd positions (1st, 3rd, …, 15th) mapped through the
// ministerial odd table, even positions through their plain value (digits 0–9, letters A=0 …
// Z=25), summed mod 26 as a letter.
//
// Omocodia: when two persons would share a code, digits in the numeric positions (year, day,
// birthplace number) are replaced from the right by L M N P Q R S T U V (0–9); such codes are
// accepted, the day decoded through the same table and the check computed over the letters.
//
// No context word is needed: the shape, the month letter, a valid day and the check letter
// leave essentially no false positives. Deliberately not matched: lower case, the 11-digit
// fiscal codes of companies (identical to their VAT numbers, not personal), anything glued to
// letters or digits.

import type { Detector, PiiMatch } from '../types.js';
import { alnumAt, forEachMatch } from './scan.js';

// A digit or its omocodia letter.
const N = '[0-9LMNP-V]';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const CODE = new RegExp(`[A-Z]{6}${N}{2}[ABCDEHLMPRST]${N}{2}[A-Z]${N}{3}[A-Z]`, 'g');
const OMOCODIA = 'LMNPQRSTUV';
/** Odd-position values of 0–9 and A–Z alike (digits share the values of A–J). */
// prettier-ignore
const ODD_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/** 0–9 for a digit, 0–25 for a letter. */
function plainValue(code: number): number {
  return code <= 57 ? code - 48 : code - 65;
}

/** The check letter of the first 15 characters of an upper-case fiscal code. */
export function fiscalCheckLetter(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const value = plainValue(first15.charCodeAt(i));
    sum += i % 2 === 0 ? ODD_VALUES[value]! : value;
  }
  return String.fromCharCode(65 + (sum % 26));
}

function decodedDigit(ch: string): number {
  const omocodia = OMOCODIA.indexOf(ch);
  return omocodia !== -1 ? omocodia : ch.charCodeAt(0) - 48;
}

export function fiscalCodeValid(code: string): boolean {
  if (code.length !== 16) return false;
  const day = decodedDigit(code.charAt(9)) * 10 + decodedDigit(code.charAt(10));
  if (!((day >= 1 && day <= 31) || (day >= 41 && day <= 71))) return false;
  return fiscalCheckLetter(code.slice(0, 15)) === code.charAt(15);
}

export function findItFiscalCodes(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(CODE, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    if (alnumAt(text, start - 1) || alnumAt(text, end) || !fiscalCodeValid(m[0])) return;
    out.push({ type: 'it_fiscal_code', start, end });
  });
  return out;
}

export function itFiscalCodeDetector(): Detector {
  return { type: 'it_fiscal_code', find: findItFiscalCodes };
}
