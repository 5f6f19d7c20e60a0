// Australian Tax File Numbers: nine digits (`123 456 782`, `123-456-782`, `123456782`) whose
// weighted sum (weights 1, 4, 3, 7, 5, 8, 6, 9, 10) is a multiple of 11, or the older eight
// digits (contiguous only) with weights 10, 7, 8, 4, 6, 3, 5, 1. The eight-digit weights are
// the ones in common use by validators; the ATO does not publish either set.
//
// Context: ALWAYS needs a context word (TFN, tax file number, tax file no) in the 30 characters
// before, or the `au_tfn` hint: one random eight- or nine-digit run in eleven passes, and the
// 3-3-3 grouping is an ordinary number layout.
//
// Deliberately not matched: one digit repeated, numbers glued to letters or digits, stretches
// of longer grouped numbers.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import {
  allSameDigit,
  contextWords,
  hasContext,
  mayHoldIdNumber,
  numberStandsAlone,
} from './context-word.js';
import { forEachMatch } from './scan.js';

const TYPE = 'au_tfn';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const TFN = /\d{3}([ -]?)\d{3}\1\d{3}|\d{8}/g;
const CONTEXT = contextWords(['tfn', 'tax file', 'tax file number', 'tax file no']);
const WEIGHTS_9 = [1, 4, 3, 7, 5, 8, 6, 9, 10];
const WEIGHTS_8 = [10, 7, 8, 4, 6, 3, 5, 1];

/** Weighted mod-11 check of an eight- or nine-digit TFN. */
export function tfnChecksumValid(digits: string): boolean {
  const weights = digits.length === 9 ? WEIGHTS_9 : digits.length === 8 ? WEIGHTS_8 : undefined;
  if (weights === undefined) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits.charCodeAt(i) - 48) * weights[i]!;
  return sum % 11 === 0;
}

export function findAuTfns(text: string, hint?: TypeHint): PiiMatch[] {
  if (!mayHoldIdNumber(text)) return [];
  const out: PiiMatch[] = [];
  forEachMatch(TFN, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    const sep = m[1] ?? '';
    if (!numberStandsAlone(text, start, end, sep)) return;
    const digits = sep === '' ? m[0] : m[0].split(sep).join('');
    if (allSameDigit(digits) || !tfnChecksumValid(digits)) return;
    if (!hasContext(text, start, CONTEXT, TYPE, hint)) return;
    out.push({ type: TYPE, start, end });
  });
  return out;
}

export function auTfnDetector(): Detector {
  return { type: TYPE, find: findAuTfns };
}
