// Indian Permanent Account Numbers (PAN): five letters, four digits, one letter
// (`ABCPE1234F`), upper case, where the fourth letter is the holder type the Income Tax
// Department assigns: P (person), C (company), H (Hindu undivided family), F (firm),
// A (association of persons), T (trust), B (body of individuals), L (local authority),
// J (artificial juridical person) or G (government).
//
// No context word is needed: the 5-4-1 letter/digit shape with a holder-type letter is rare
// outside PANs. The last letter is a check character, but its algorithm is not published, so
// it is not verified. Deliberately not matched: lower or mixed case, anything glued to letters
// or digits (`XABCPE1234F`, `ABCPE1234F9`), other fourth letters.

import type { Detector, PiiMatch } from '../types.js';
import { alnumAt, forEachMatch } from './scan.js';

// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const PAN = /[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]/g;

export function findInPans(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(PAN, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    if (alnumAt(text, start - 1) || alnumAt(text, end)) return;
    out.push({ type: 'in_pan', start, end });
  });
  return out;
}

export function inPanDetector(): Detector {
  return { type: 'in_pan', find: findInPans };
}
