// Phone numbers, validated by libphonenumber (max metadata: full per-country number plans, so
// `isValid` means "a number that can be assigned", not merely "has a plausible length").
//
// International numbers (`+…`, or `00…` written with separators) count anywhere. NATIONAL
// numbers (default country US) count only after a context word (phone, tel, call…) in the 30
// characters before them: transcripts are full of bare 10-digit values (order numbers, unix
// timestamps such as 1718000000, ids) that happen to be dialable. A contiguous `00…` string
// without separators or context is read as a zero-padded id for the same reason.
//
// Speed: a cheap regex finds runs of digits and separators; libphonenumber only sees short
// windows of the few runs that are international or have context.

import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import type { Detector, PiiMatch } from '../types.js';
import { forEachMatch, isAsciiAlnum, isDigit } from './scan.js';

const SEPARATORS = '\\-. ()/\\u00a0\\u2010-\\u2015';
// Optional international prefix, digits and separators, ending in a digit. The boundary before
// it is checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const RUN = new RegExp(`(?:\\+|00)?\\(?\\d[\\d${SEPARATORS}]{4,}\\d`, 'g');
const CONTEXT_WINDOW = 30;
// Whole words for the short ones (`hotel`, `recall`, `telemetry` and `cellar` are no context).
const CONTEXT =
  /\b(?:tel|call(?:ed|ing|s)?|cell(?:ular)?|fax|sms|handy)\b|phone|mobile|whats\s?app|text me|contact|number|telefon|tel[ée]fono|t[ée]l[ée]phone|☎/i;
const MIN_DIGITS = 7;
/** A national (US) number has ten digits, eleven with the trunk prefix 1. */
const NATIONAL_MIN_DIGITS = 10;
const NATIONAL_MAX_DIGITS = 11;
/** E.164: at most fifteen digits, country code included. */
const INTERNATIONAL_MAX_DIGITS = 15;
/** How many shorter windows to try when the longest one holds no valid number. */
const MAX_TRIMS = 2;

interface Group {
  start: number;
  end: number;
  /** Digits from the window start through this group. */
  digits: number;
}

function isGlue(code: number): boolean {
  return isAsciiAlnum(code) || code === 95 || code === 43;
}

function hasContext(text: string, start: number): boolean {
  return CONTEXT.test(text.slice(Math.max(0, start - CONTEXT_WINDOW), start));
}

/** Digit groups of text[from, to), absolute offsets. */
function digitGroups(text: string, from: number, to: number): { start: number; end: number }[] {
  const groups: { start: number; end: number }[] = [];
  for (let i = from; i < to; i++) {
    if (!isDigit(text.charCodeAt(i))) continue;
    const start = i;
    while (i < to && isDigit(text.charCodeAt(i))) i++;
    groups.push({ start, end: i });
  }
  return groups;
}

/** Valid numbers in text[from, to) as absolute [start, end), or none. */
function validNumbers(text: string, from: number, to: number, doubleZero: boolean): [number, number][] {
  // `00` is the international call prefix; libphonenumber reads the `+` form (same length).
  const slice = doubleZero ? ` +${text.slice(from + 2, to)}` : text.slice(from, to);
  const found: [number, number][] = [];
  for (const hit of findPhoneNumbersInText(slice, { defaultCountry: 'US' })) {
    if (!hit.number.isValid()) continue;
    const start = doubleZero && hit.startsAt === 1 ? 0 : hit.startsAt;
    found.push([from + start, from + hit.endsAt]);
  }
  return found;
}

/**
 * Numbers of one run, trying windows that start at each digit group: libphonenumber reads a
 * window as a whole, so `+44 20 7946 0958 (4111 …)` or `+1 415 555 2671 4` only parse once the
 * trailing groups are cut. Windows hold at most a number's worth of digits.
 */
function phonesInRun(text: string, runStart: number, runEnd: number, out: PiiMatch[]): void {
  // `order #4155552671`, `ticket #…`: a number written right after `#` is a numbered identifier,
  // whatever context word precedes it.
  if (text.charCodeAt(runStart - 1) === 35) return;
  const groups = digitGroups(text, runStart, runEnd);
  let g = 0;
  while (g < groups.length) {
    const first = groups[g];
    if (!first) break;
    let from = g === 0 ? runStart : first.start;
    if (g > 0 && text.charCodeAt(from - 1) === 40) from--; // keep `(` of `(415)`
    const plus = text.charCodeAt(from) === 43;
    const doubleZero = !plus && text.startsWith('00', from);
    const context = !plus && hasContext(text, from);
    const separated = doubleZero && groups.length > g + 1;
    const international = plus || (doubleZero && (separated || context));
    if (!international && !context) {
      g++;
      continue;
    }
    const maxDigits = international ? INTERNATIONAL_MAX_DIGITS + (doubleZero ? 2 : 0) : NATIONAL_MAX_DIGITS;
    const minDigits = international ? MIN_DIGITS : NATIONAL_MIN_DIGITS;
    const windows: Group[] = [];
    let digits = 0;
    for (let k = g; k < groups.length; k++) {
      const group = groups[k];
      if (!group) break;
      digits += group.end - group.start;
      if (digits > maxDigits) break;
      if (digits >= minDigits) windows.push({ start: group.start, end: group.end, digits });
    }
    let found: [number, number][] = [];
    for (let w = windows.length - 1; w >= 0 && w >= windows.length - 1 - MAX_TRIMS; w--) {
      found = validNumbers(text, from, windows[w]?.end ?? from, doubleZero);
      if (found.length > 0) break;
    }
    if (found.length === 0) {
      g++;
      continue;
    }
    for (const [start, end] of found) out.push({ type: 'phone', start, end });
    const lastEnd = found[found.length - 1]?.[1] ?? from;
    while (g < groups.length && (groups[g]?.start ?? 0) < lastEnd) g++;
  }
}

export function findPhones(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(RUN, text, 0, (m) => {
    if (m.index > 0 && isGlue(text.charCodeAt(m.index - 1))) {
      // Glued to a word (`id4155552671`, `1+415…`): skip the glued digits, retry after them.
      let i = m.index;
      while (i < text.length && !isDigit(text.charCodeAt(i))) i++;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      RUN.lastIndex = i;
      return;
    }
    const run = m[0];
    let digits = 0;
    for (let i = 0; i < run.length; i++) if (isDigit(run.charCodeAt(i))) digits++;
    if (digits < MIN_DIGITS) return;
    // Dates, versions and UUID pieces (fewer than ten digits, no `+`/`00`) never reach the
    // comparatively costly context test.
    const prefixed = run.charCodeAt(0) === 43 || run.startsWith('00');
    if (!prefixed && digits < NATIONAL_MIN_DIGITS) return;
    phonesInRun(text, m.index, m.index + run.length, out);
  });
  return out;
}

export function phoneDetector(): Detector {
  return { type: 'phone', find: findPhones };
}
