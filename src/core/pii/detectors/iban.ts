// IBANs: country code, two check digits and the country's BBAN, contiguous or printed in groups
// of four separated by one separator used throughout (a space, a no-break space, `-` or `.`:
// `AL47 2121 …`, `AL47-2121-…`), with the ISO 13616 mod-97 checksum. Upper case only:
// lower-case look-alikes are far more often identifiers than account numbers.

import type { Detector, PiiMatch } from '../types.js';
import { alnumAt, forEachMatch } from './scan.js';

// Total IBAN length per country, from the SWIFT IBAN registry (IR: national format, not in the
// registry but in wide use and produced by common test-data generators).
// prettier-ignore
const IBAN_LENGTH: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22,
  IL: 23, IQ: 23, IR: 26, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20,
  LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NL: 18,
  NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31,
  SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20,
};

const HEAD = /(?<![A-Za-z0-9])([A-Z]{2})\d{2}/g;
const HEAD_AT = /(?<![A-Za-z0-9])([A-Z]{2})\d{2}/y;

function isUpperAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
}

/** ISO 7064 mod 97-10 over the rearranged IBAN; a valid IBAN leaves 1. */
export function ibanChecksumValid(compact: string): boolean {
  const check = Number(compact.slice(2, 4));
  if (check < 2 || check > 98) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let rem = 0;
  for (let i = 0; i < rearranged.length; i++) {
    const code = rearranged.charCodeAt(i);
    rem = code >= 65 ? (rem * 100 + (code - 55)) % 97 : (rem * 10 + (code - 48)) % 97;
  }
  return rem === 1;
}

/** Space, no-break space, `-`, `.`: what people and banks print between the groups of four. */
function isGroupSeparator(code: number): boolean {
  return code === 32 || code === 0xa0 || code === 45 || code === 46;
}

/**
 * End offset of an IBAN of `length` characters printed in groups of four from `start`, every
 * group after the first opened by the separator `sep`, or -1.
 */
function scanGrouped(text: string, start: number, length: number, sep: number): number {
  let i = start;
  for (let count = 0; count < length; count++) {
    if (count > 0 && count % 4 === 0) {
      if (text.charCodeAt(i) !== sep) return -1;
      i++;
    }
    if (!isUpperAlnum(text.charCodeAt(i))) return -1;
    i++;
  }
  return i;
}

/** End offset of a contiguous IBAN of `length` characters from `start`, or -1. */
function scanContiguous(text: string, start: number, length: number): number {
  for (let i = start; i < start + length; i++) if (!isUpperAlnum(text.charCodeAt(i))) return -1;
  return start + length;
}

/**
 * `AL47-2121-…-8741-5555`: a dash or dot grouping that runs on is one longer identifier. A space
 * does not join: what follows is the next item of a list or sentence (`… 3035 3400 866329 02175`,
 * an IBAN then a card), so a spaced IBAN never runs on.
 */
function runsOn(text: string, at: number, sep: number): boolean {
  return (sep === 45 || sep === 46) && text.charCodeAt(at - 1) === sep && isUpperAlnum(text.charCodeAt(at));
}

function removeSeparators(grouped: string): string {
  let out = '';
  for (let i = 0; i < grouped.length; i++) if (!isGroupSeparator(grouped.charCodeAt(i))) out += grouped[i];
  return out;
}

export function findIbans(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(HEAD, text, 0, (m) => {
    const length = IBAN_LENGTH[m[1] ?? ''];
    if (length === undefined) return;
    const start = m.index;
    // Decide the layout at the first group boundary: a separator there means grouped.
    const sep = text.charCodeAt(start + 4);
    const grouped = isGroupSeparator(sep);
    const end = grouped ? scanGrouped(text, start, length, sep) : scanContiguous(text, start, length);
    if (end === -1 || alnumAt(text, end)) return;
    if (grouped && runsOn(text, end + 1, sep)) return;
    const compact = grouped ? removeSeparators(text.slice(start, end)) : text.slice(start, end);
    if (!ibanChecksumValid(compact)) return;
    out.push({ type: 'iban', start, end });
    HEAD.lastIndex = end;
  });
  return out;
}

/**
 * Whether a spaced IBAN with a valid checksum ends exactly at `end`: the groups before a card
 * number are then a whole account number, not the card's own leading groups.
 */
export function spacedIbanEndsAt(text: string, end: number): boolean {
  // The longest IBAN (34 characters) printed in groups of four spans 42.
  for (let start = Math.max(0, end - 42); start <= end - 15; start++) {
    HEAD_AT.lastIndex = start;
    const m = HEAD_AT.exec(text);
    const length = m ? IBAN_LENGTH[m[1] ?? ''] : undefined;
    if (length === undefined || text.charCodeAt(start + 4) !== 32) continue;
    if (scanGrouped(text, start, length, 32) !== end) continue;
    if (ibanChecksumValid(removeSeparators(text.slice(start, end)))) return true;
  }
  return false;
}

export function ibanDetector(): Detector {
  return { type: 'iban', find: findIbans };
}
