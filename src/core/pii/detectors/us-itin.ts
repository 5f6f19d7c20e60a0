// US Individual Taxpayer Identification Numbers: nine digits shaped like an SSN but with area
// 900–999 and a group (digits 4–5) in 50–65, 70–88, 90–92 or 94–99, the IRS's issued ranges.
// (The `ssn` detector never matches areas 9xx, so the two never overlap.)
//
// Context: written with separators (`912-70-1234`, `912 70 1234`, one separator used
// consistently) an ITIN counts on its own. A bare nine-digit run needs a context word (ITIN,
// taxpayer, tax id) in the 30 characters before, or the `us_itin` hint: nine-digit ids, zip+4
// codes and order numbers starting with 9 are everywhere.
//
// Deliberately not matched: serial 0000, numbers glued to letters or digits, and stretches of
// longer grouped numbers (`12-912-70-1234`, `912-70-1234-5`).

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { contextWords, hasContext, numberStandsAlone } from './context-word.js';
import { forEachMatch } from './scan.js';

const TYPE = 'us_itin';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const ITIN = /9\d\d([- ]?)\d\d\1\d{4}/g;
const CONTEXT = contextWords(['itin', 'taxpayer', 'tax id', 'tax identification']);

/** Whether the group (digits 4–5 of an ITIN) is in an IRS-issued range. */
export function itinGroupValid(group: number): boolean {
  return (
    (group >= 50 && group <= 65) ||
    (group >= 70 && group <= 88) ||
    (group >= 90 && group <= 92) ||
    (group >= 94 && group <= 99)
  );
}

export function findUsItins(text: string, hint?: TypeHint): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(ITIN, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    const sep = m[1] ?? '';
    if (!numberStandsAlone(text, start, end, sep)) return;
    const digits = sep === '' ? m[0] : m[0].split(sep).join('');
    if (!itinGroupValid(Number(digits.slice(3, 5))) || digits.endsWith('0000')) return;
    if (sep === '' && !hasContext(text, start, CONTEXT, TYPE, hint)) return;
    out.push({ type: TYPE, start, end });
  });
  return out;
}

export function usItinDetector(): Detector {
  return { type: TYPE, find: findUsItins };
}
