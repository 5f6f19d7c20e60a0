// US ABA routing transit numbers: nine digits whose first two are a Federal Reserve routing
// symbol prefix (00–12, 21–32, 61–72 or 80) and that pass the 3-7-1 weighted checksum
// (3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 mod 10). Contiguous (`021000021`) or in the
// Fed's 4-4-1 grouping (`0210-0002-1`, `0210 0002 1`).
//
// Context: ALWAYS needs a context word (routing, ABA, RTN, transit, bank) in the 30 characters
// before, or the `us_aba_routing` hint. Bare nine-digit runs are everywhere (ids, zip+4 codes)
// and one in ten passes the checksum. A routing number identifies a bank, not a person, but
// next to an account number it is half of the pair that moves money.
//
// Deliberately not matched: one digit repeated (`000000000` passes the checksum), numbers
// glued to letters or digits, and stretches of longer grouped numbers.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { allSameDigit, contextWords, hasContext, numberStandsAlone } from './context-word.js';
import { forEachMatch } from './scan.js';

const TYPE = 'us_aba_routing';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const ABA = /\d{4}([- ]?)\d{4}\1\d/g;
const CONTEXT = contextWords(['routing', 'aba', 'rtn', 'transit', 'bank']);
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

/** Valid Federal Reserve prefix and 3-7-1 checksum of a nine-digit routing number. */
export function abaRoutingValid(digits: string): boolean {
  if (digits.length !== 9) return false;
  const prefix = Number(digits.slice(0, 2));
  const prefixOk =
    prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
  if (!prefixOk) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (digits.charCodeAt(i) - 48) * WEIGHTS[i]!;
  return sum % 10 === 0;
}

export function findUsAbaRoutingNumbers(text: string, hint?: TypeHint): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(ABA, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    const sep = m[1] ?? '';
    if (!numberStandsAlone(text, start, end, sep)) return;
    const digits = sep === '' ? m[0] : m[0].split(sep).join('');
    if (allSameDigit(digits) || !abaRoutingValid(digits)) return;
    if (!hasContext(text, start, CONTEXT, TYPE, hint)) return;
    out.push({ type: TYPE, start, end });
  });
  return out;
}

export function usAbaRoutingDetector(): Detector {
  return { type: TYPE, find: findUsAbaRoutingNumbers };
}
