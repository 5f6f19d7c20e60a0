// Whether digit groups are written the way a phone number is (issue 30): `(415) 555-0132`,
// `415-555-0132`, `090-1234-5678`, `020 7946 0958`. Such a number needs no context word when
// libphonenumber calls it valid for one of the policy's regions AND its written grouping agrees
// with that region's national format: every break the writer put between digits is a break of
// the formatted number (`09-7625400` joins two groups of `09-762-5400`, and counts). The format
// check is what keeps precision without a context word: ids, sizes and part numbers that happen
// to be valid somewhere are rarely grouped like a phone number of that place.
//
// Never a phone shape: mixed separators (`415-555.0132`), a thousands grouping with spaces or
// dots (`912 345 678`, `1.234.567`: a number, in any region), the SSN layout (`123-45-6789`, the
// SSN detector's), one group alone (a bare digit run still needs a context word).

import { Metadata, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import { isDigit } from './scan.js';

export interface Group {
  start: number;
  end: number;
}

/** The separator shared by every break of a plain layout, or undefined for a mixed one. */
const PLAIN_SEPARATORS = new Set(['-', '.', ' ', '\u00a0']);

function groupLength(group: Group | undefined): number {
  return group ? group.end - group.start : 0;
}

/**
 * Whether groups[first..last], written from `from` (which may be the `(` of an area code), are
 * laid out as a phone number: two to five groups, a `(…)` first group or none, and one separator
 * (`-`, `.`, space) between all the others. `allow.thousands`: after a phone word, `912 345 678`
 * is a phone number too.
 */
export function isPhoneLayout(
  text: string,
  from: number,
  groups: readonly Group[],
  first: number,
  last: number,
  allow: { thousands?: boolean } = {},
): boolean {
  const count = last - first + 1;
  if (count < 2 || count > 5) return false;
  const head = groups[first];
  if (!head) return false;
  let k = first;
  if (text.charCodeAt(from) === 40) {
    // `(415) 555-0132`, `(415)555-0132`, `(090) 1234-5678`: `)` closes the first group.
    if (from + 1 !== head.start || text.charCodeAt(head.end) !== 41) return false;
    const next = groups[first + 1];
    if (!next || next.start - head.end > 2) return false;
    if (next.start - head.end === 2 && !PLAIN_SEPARATORS.has(text.charAt(head.end + 1))) return false;
    k = first + 1;
  }
  let sep: string | undefined;
  for (; k < last; k++) {
    const a = groups[k];
    const b = groups[k + 1];
    if (!a || !b || b.start - a.end !== 1) return false;
    const s = text.charAt(a.end);
    if (!PLAIN_SEPARATORS.has(s) || (sep !== undefined && s !== sep)) return false;
    sep = s;
  }
  if (allow.thousands !== true && isThousands(groups, first, last, sep)) return false;
  return !isSsnLayout(groups, first, last, sep);
}

/** `912 345 678`, `1.234.567`: an integer with thousands separators. */
function isThousands(
  groups: readonly Group[],
  first: number,
  last: number,
  sep: string | undefined,
): boolean {
  if (sep === undefined || sep === '-') return false;
  if (groupLength(groups[first]) > 3) return false;
  for (let k = first + 1; k <= last; k++) if (groupLength(groups[k]) !== 3) return false;
  return true;
}

function isSsnLayout(
  groups: readonly Group[],
  first: number,
  last: number,
  sep: string | undefined,
): boolean {
  return (
    last - first === 2 &&
    (sep === '-' || sep === ' ') &&
    groupLength(groups[first]) === 3 &&
    groupLength(groups[first + 1]) === 2 &&
    groupLength(groups[first + 2]) === 4
  );
}

/** Digit counts before each break of a layout: `415-555-0132` → [3, 6]. */
function breaksOf(lengths: readonly number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (let i = 0; i < lengths.length - 1; i++) {
    at += lengths[i] ?? 0;
    out.push(at);
  }
  return out;
}

/** Lengths of the digit groups of a formatted number: `(415) 555-0132` → [3, 3, 4]. */
function formattedLengths(formatted: string): number[] {
  const out: number[] = [];
  let run = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (isDigit(formatted.charCodeAt(i))) run++;
    else if (run > 0) {
      out.push(run);
      run = 0;
    }
  }
  if (run > 0) out.push(run);
  return out;
}

/**
 * Whether the written groups agree with `formatted`, the number's national format: the digits are
 * the same (or the writer added a trunk prefix of their own, `1-415-555-0132`, as a group of its
 * own, or, given `trunk`, left the format's trunk prefix out of a grouped number) and every
 * written break is a break of the format.
 */
export function agreesWithFormat(written: readonly number[], formatted: string, trunk = ''): boolean {
  let format = formattedLengths(formatted);
  const writtenDigits = written.reduce((a, b) => a + b, 0);
  const formatDigits = format.reduce((a, b) => a + b, 0);
  let extra = writtenDigits - formatDigits;
  // `98765 69784` for India's `098765 69784`: grouped as the format, the trunk prefix left out.
  if (
    extra < 0 &&
    trunk !== '' &&
    -extra === trunk.length &&
    written.length > 1 &&
    digitsOf(formatted).startsWith(trunk)
  ) {
    const head = (format[0] ?? 0) - trunk.length;
    format = head > 0 ? [head, ...format.slice(1)] : format.slice(1);
    extra = 0;
  }
  if (extra < 0) return false;
  const formatBreaks = new Set(breaksOf(format));
  let first = true;
  for (const at of breaksOf(written)) {
    const shifted = at - extra;
    if (first && extra > 0) {
      if (shifted !== 0) return false;
      first = false;
      continue;
    }
    first = false;
    if (!formatBreaks.has(shifted)) return false;
  }
  return extra === 0 || written.length > 1;
}

// Numbers of a person or a household. Toll-free, premium, shared-cost, UAN and voicemail
// numbers belong to businesses and services, and ids that happen to be valid mostly land there.
const PERSONAL_TYPES = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE', 'PERSONAL_NUMBER', 'VOIP']);

/** A region's national prefix and the pattern every national significant number of it matches. */
interface RegionShape {
  prefix: string;
  nsn: RegExp;
}

const shapes = new Map<CountryCode, RegionShape>();

function regionShape(region: CountryCode): RegionShape {
  let shape = shapes.get(region);
  if (!shape) {
    const metadata = new Metadata();
    metadata.selectNumberingPlan(region);
    const plan = metadata.numberingPlan as unknown as {
      nationalPrefix(): string | undefined;
      nationalNumberPattern(): string;
    };
    shape = { prefix: plan.nationalPrefix() ?? '', nsn: new RegExp(`^(?:${plan.nationalNumberPattern()})$`) };
    shapes.set(region, shape);
  }
  return shape;
}

/**
 * Whether `digits` (or `digits` without the region's national prefix) matches the region's
 * general number pattern: what every valid number of it matches, tested in a fraction of a
 * microsecond where a parse takes tens. Most regions fail it, so most parses are skipped.
 */
function mayBeOf(region: CountryCode, digits: string): boolean {
  const { prefix, nsn } = regionShape(region);
  if (nsn.test(digits)) return true;
  return prefix !== '' && digits.startsWith(prefix) && nsn.test(digits.slice(prefix.length));
}

function digitsOf(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) if (isDigit(text.charCodeAt(i))) out += text[i];
  return out;
}

/**
 * Whether the written number text[from, end) (laid out as `lengths`) is a valid national number
 * of one of `regions`, of a personal type, whose national format agrees with how it is written
 * (`trunkless`: its trunk prefix may be left out of a grouped number).
 */
export function isWrittenNationalNumber(
  text: string,
  from: number,
  end: number,
  lengths: readonly number[],
  regions: readonly CountryCode[],
  trunkless = false,
): boolean {
  const slice = text.slice(from, end);
  const digits = digitsOf(slice);
  for (const region of regions) {
    if (!mayBeOf(region, digits)) continue;
    const number = parsePhoneNumberFromString(slice, { defaultCountry: region, extract: false });
    if (!number?.isValid()) continue;
    const formatted = number.formatNational();
    if (
      !agreesWithFormat(lengths, formatted) &&
      !(trunkless && agreesWithFormat(lengths, formatted, regionShape(region).prefix))
    )
      continue;
    if (PERSONAL_TYPES.has(number.getType() ?? '')) return true;
  }
  return false;
}

/** Lengths of groups[first..last]. */
export function lengthsOf(groups: readonly Group[], first: number, last: number): number[] {
  const out: number[] = [];
  for (let k = first; k <= last; k++) out.push(groupLength(groups[k]));
  return out;
}
