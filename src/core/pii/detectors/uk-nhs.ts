// NHS numbers (England, Wales, Isle of Man; the same scheme as Scotland's CHI and Northern
// Ireland's H&C numbers): ten digits whose last is the modulus-11 check digit (weights 10…2 over
// the first nine; 11 − remainder, 11 → 0, 10 → never issued).
//
// Context: the NHS prints the number as 3-3-4 with single spaces (`943 476 5919`); that layout
// counts on its own. Contiguous (`9434765919`) and dashed (`943-476-5919`) forms need a context
// word (NHS, health, patient) in the 30 characters before, or the `uk_nhs` hint: one random
// ten-digit run in eleven passes modulus 11, and transcripts are full of ten-digit ids, unix
// timestamps and US phone numbers (dashed 3-3-4 is the US layout). What the spaced layout still
// catches wrongly is mostly space-separated phone numbers, themselves personal data.
//
// Deliberately not matched: one digit repeated (`000 000 0000` passes the check), numbers
// glued to letters or digits, and stretches of longer grouped numbers.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import {
  allSameDigit,
  contextWords,
  hasContext,
  mayHoldIdNumber,
  numberStandsAlone,
} from './context-word.js';
import { forEachMatch } from './scan.js';

const TYPE = 'uk_nhs';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const NHS = /\d{3}([ -]?)\d{3}\1\d{4}/g;
const CONTEXT = contextWords(['nhs', 'health', 'patient']);

/** Modulus-11 check of a ten-digit NHS number. */
export function nhsChecksumValid(digits: string): boolean {
  if (digits.length !== 10) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (digits.charCodeAt(i) - 48) * (10 - i);
  const check = 11 - (sum % 11);
  if (check === 10) return false;
  return (check === 11 ? 0 : check) === digits.charCodeAt(9) - 48;
}

export function findUkNhsNumbers(text: string, hint?: TypeHint): PiiMatch[] {
  if (!mayHoldIdNumber(text)) return [];
  const out: PiiMatch[] = [];
  forEachMatch(NHS, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    const sep = m[1] ?? '';
    if (!numberStandsAlone(text, start, end, sep)) return;
    const digits = sep === '' ? m[0] : m[0].split(sep).join('');
    if (allSameDigit(digits) || !nhsChecksumValid(digits)) return;
    if (sep !== ' ' && !hasContext(text, start, CONTEXT, TYPE, hint)) return;
    out.push({ type: TYPE, start, end });
  });
  return out;
}

export function ukNhsDetector(): Detector {
  return { type: TYPE, find: findUkNhsNumbers };
}
