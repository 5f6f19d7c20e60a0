// US Social Security numbers written with separators (`123-45-6789`, `123 45 6789`) and within
// the SSA's issuing rules. Bare nine-digit runs are deliberately NOT matched: zip+4 codes,
// order numbers, ids and timestamps produce far too many of them (enable `digit_run` to mask
// every long digit run instead).

import type { Detector, PiiMatch } from '../types.js';
import { digitAt, forEachMatch } from './scan.js';

// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const SSN = /\d{3}([- ])\d{2}\1\d{4}/g;

function issuable(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  return a !== 0 && a !== 666 && a < 900 && group !== '00' && serial !== '0000';
}

export function findSsns(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(SSN, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    if (digitAt(text, start - 1) || digitAt(text, end)) return;
    const sep = m[1];
    // Part of a longer grouped number (`12 123 45 6789`, `123-45-6789-01`): not an SSN.
    if (text[start - 1] === sep && digitAt(text, start - 2)) return;
    if (text[end] === sep && digitAt(text, end + 1)) return;
    if (issuable(m[0].slice(0, 3), m[0].slice(4, 6), m[0].slice(7, 11)))
      out.push({ type: 'ssn', start, end });
  });
  return out;
}

export function ssnDetector(): Detector {
  return { type: 'ssn', find: findSsns };
}
