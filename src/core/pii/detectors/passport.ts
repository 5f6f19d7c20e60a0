// Passport numbers next to a context word: 6–9 upper-case letters and digits with at least one
// digit (US and UK: 9 digits; Germany: `C01X00T47`; France: `12AB34567`; India: `A1234567`).
// Passport numbers have no common structure or public checksum, so ONLY context makes one:
// - the number directly follows a context word (passport, passport no/number/#, pasaporte,
//   passeport, passaporto, paspoort, Reisepass, Reisepassnummer, Passnummer), with only
//   punctuation and the connectors no/nr/n°/num/number/numero/nummer/is/of/id in between
//   (`Passport No.: C01X00T47`, `passport number is 123456789`, `passeport n° 12AB34567`);
// - or the text is the value of a key naming the type (the `passport` hint): then every such
//   token in it is taken.
// The context must be adjacent, not merely within 30 characters as for the number detectors:
// with no checksum, `passport expires 20300101` or `passport photo 2 of 3` would otherwise mask
// dates and counters.
//
// Deliberately not matched: tokens without a digit (words), lower-case tokens, tokens glued to
// letters or digits, anything without context.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { precededBy } from './context-word.js';
import { forEachMatch } from './scan.js';

const TYPE = 'passport';
// A run of 6–9 upper-case letters and digits; length and boundaries are checked in code.
const TOKEN = /[A-Z0-9]+/g;
const MIN_LENGTH = 6;
const MAX_LENGTH = 9;
// A context word, then only separators and connectors up to the candidate (the end of the
// window). Words are delimited by non-letters; alternatives are disjoint (letters vs. not), so
// the trailing repetition cannot backtrack badly on the short window.
const WORDS = 'passports?|pasaporte|passeport|passaporto|paspoort|reisepass(?:nummer)?|passnummer';
const CONNECTORS = 'no|nr|n|num|number|numero|número|numéro|nummer|is|of|id';
const CONTEXT = new RegExp(
  `(?<!\\p{L})(?:${WORDS})(?:[^\\p{L}\\p{N}]|(?<!\\p{L})(?:${CONNECTORS})(?!\\p{L}))*$`,
  'iu',
);
/** Pre-filter: where the first context word starts (nothing before it can have context). */
const ANY_WORD = new RegExp(WORDS, 'i');
const CONTEXT_WINDOW = 40;

function isUpperAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
}

function isGlue(code: number): boolean {
  return isUpperAlnum(code) || (code >= 97 && code <= 122);
}

export function findPassports(text: string, hint?: TypeHint): PiiMatch[] {
  const out: PiiMatch[] = [];
  const hinted = hint?.has(TYPE) === true;
  const from = hinted ? 0 : text.search(ANY_WORD);
  if (from === -1) return out;
  forEachMatch(TOKEN, text, from, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    if (m[0].length < MIN_LENGTH || m[0].length > MAX_LENGTH) return;
    if (isGlue(text.charCodeAt(start - 1)) || isGlue(text.charCodeAt(end))) return;
    if (!/\d/.test(m[0])) return;
    if (!hinted && !precededBy(text, start, CONTEXT, CONTEXT_WINDOW)) return;
    out.push({ type: TYPE, start, end });
  });
  return out;
}

export function passportDetector(): Detector {
  return { type: TYPE, find: findPassports };
}
