// Indian Aadhaar numbers: twelve digits, the first 2–9, the last a Verhoeff check digit.
//
// Context: UIDAI prints the number as 4-4-4 with single spaces (`2345 6789 0124`); that layout
// counts on its own (a fourth group after it, as in a card number, disqualifies it). Contiguous
// (`234567890124`) and dashed forms need a context word (Aadhaar, Aadhar, UIDAI, UID) in the 30
// characters before, or the `in_aadhaar` hint: one random twelve-digit run in ten passes
// Verhoeff, and twelve-digit ids and millisecond-ish timestamps are common.
//
// Deliberately not matched: one digit repeated, numbers glued to letters or digits, stretches of
// longer grouped numbers, the 16-digit Virtual ID (a different scheme).

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import {
  allSameDigit,
  contextWords,
  hasContext,
  mayHoldIdNumber,
  numberStandsAlone,
} from './context-word.js';
import { forEachMatch } from './scan.js';

const TYPE = 'in_aadhaar';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const AADHAAR = /[2-9]\d{3}([ -]?)\d{4}\1\d{4}/g;
const CONTEXT = contextWords(['aadhaar', 'aadhar', 'uidai', 'uid']);

// Verhoeff: multiplication in the dihedral group D5 and the position permutation (its powers).
// prettier-ignore
const D5 = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const PERMUTATION = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4];
/** PERMUTATIONS[i] = PERMUTATION applied i times (i = 0…7; the eighth power is the identity). */
const PERMUTATIONS: number[][] = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]];
for (let i = 1; i < 8; i++) PERMUTATIONS.push(PERMUTATIONS[i - 1]!.map((d) => PERMUTATION[d]!));

/** Verhoeff check over a digit string, check digit last. */
export function verhoeffValid(digits: string): boolean {
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = D5[c]![PERMUTATIONS[i % 8]![digit]!]!;
  }
  return c === 0;
}

export function findInAadhaars(text: string, hint?: TypeHint): PiiMatch[] {
  if (!mayHoldIdNumber(text)) return [];
  const out: PiiMatch[] = [];
  forEachMatch(AADHAAR, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    const sep = m[1] ?? '';
    if (!numberStandsAlone(text, start, end, sep)) return;
    const digits = sep === '' ? m[0] : m[0].split(sep).join('');
    if (allSameDigit(digits) || !verhoeffValid(digits)) return;
    if (sep !== ' ' && !hasContext(text, start, CONTEXT, TYPE, hint)) return;
    out.push({ type: TYPE, start, end });
  });
  return out;
}

export function inAadhaarDetector(): Detector {
  return { type: TYPE, find: findInAadhaars };
}
