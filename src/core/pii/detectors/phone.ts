// Phone numbers, read by libphonenumber (max metadata: full per-country number plans).
//
// International numbers (`+…`, or `00…` written with separators) count anywhere, for every
// region libphonenumber knows, when `isValid` (a number that can be assigned). With a context
// word before them (or the `phone` key hint) a merely possible one counts too: a user's typo is
// still their number.
//
// NATIONAL numbers (the configured regions, phone-regions.ts) count in three ways:
// - after a PHONE word in the CONTEXT_WINDOW characters before them (phone-context.ts: phone,
//   tel, mobile, fax, Handy, téléphone, 電話…) or under the `phone` key hint: when possible
//   (libphonenumber's `isPossible`: the right length, trunk prefix stripped) for a listed region,
//   else whenever written in a phone shape of 7–15 digits (`call 555-0132`): a typo or a local
//   number is still the user's number;
// - after the word NUMBER (`my number is`, not `order number`): when valid for a listed region;
// - with no context word, when written in a phone shape that agrees with the national format
//   of a listed region where it is valid (phone-shape.ts): `(415) 555-0132`, `090-1234-5678`.
// A bare digit run without a context word never counts: transcripts are full of dialable-looking
// values (order numbers, unix timestamps such as 1718000000, ids). Fictional ranges (the US
// 555-01xx) are valid numbers to libphonenumber, and masked like any other. A contiguous `00…` string without separators or
// context is read as a zero-padded id for the same reason; `#4155552671` is a numbered
// identifier whatever precedes it; dates (`2024-06-10 12`) and dotted quads are not phones.
//
// Speed: a cheap regex finds runs of digits and separators; only runs that are international or
// have context reach libphonenumber, and a per-region table of possible lengths keeps it to
// about one parse per national candidate.

import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { phoneCueAt } from './phone-context.js';
import type { PhoneCue } from './phone-context.js';
import { DEFAULT_PHONE_REGIONS, isPhoneRegion, nationalNumberLengths } from './phone-regions.js';
import { isPhoneLayout, isWrittenNationalNumber, lengthsOf } from './phone-shape.js';
import type { Group } from './phone-shape.js';
import { forEachMatch, isAsciiAlnum, isAsciiLetter, isDigit } from './scan.js';

export { DEFAULT_PHONE_REGIONS, isPhoneRegion, phoneRegionCodes } from './phone-regions.js';

const SEPARATORS = '\\-. ()/\\u00a0\\u2010-\\u2015';
// Optional international prefix, digits and separators, ending in a digit. The boundary before
// it is checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const RUN = new RegExp(`(?:\\+|00)?\\(?\\d[\\d${SEPARATORS}]{4,}\\d`, 'g');
/** Fewest digits of a number, international (country code included) or national. */
const MIN_DIGITS = 7;
/** Most digits of a national number, trunk prefix included (`0151 23456789` has twelve). */
const NATIONAL_MAX_DIGITS = 13;
/** E.164: at most fifteen digits, country code included. */
const INTERNATIONAL_MAX_DIGITS = 15;
/** Most digits of a number in a phone shape after a phone word, whatever its validity. */
const SHAPE_MAX_DIGITS = 15;
/** How many shorter windows to try when the longest one holds no number. */
const MAX_TRIMS = 2;
/** Digits a national trunk prefix may add (`0` in most regions, `06` in Hungary). */
const TRUNK_SLACK = 2;

interface Window {
  /** Index of the window's last group. */
  last: number;
  end: number;
  digits: number;
  /** Where the number starts, when not where its reading started (a `(` left out). */
  start?: number;
}

/**
 * Regions to try per national digit count: those whose possible lengths hold the count first,
 * then those that hold it once a trunk prefix is stripped. libphonenumber decides; the table
 * only saves it the regions that cannot fit.
 */
type NationalPlan = readonly (readonly CountryCode[])[];

function nationalPlan(regions: readonly string[]): NationalPlan {
  const exact: CountryCode[][] = [];
  const slack: CountryCode[][] = [];
  for (let n = 0; n <= NATIONAL_MAX_DIGITS; n++) {
    exact.push([]);
    slack.push([]);
  }
  for (const region of new Set(regions)) {
    if (!isPhoneRegion(region)) {
      throw new RangeError(
        `unknown phone region "${region}"; expected an ISO 3166-1 alpha-2 code such as US`,
      );
    }
    const lengths = nationalNumberLengths(region);
    for (let n = MIN_DIGITS; n <= NATIONAL_MAX_DIGITS; n++) {
      if (lengths.includes(n)) exact[n]?.push(region);
      else if (lengths.some((l) => l < n && n - l <= TRUNK_SLACK)) slack[n]?.push(region);
    }
  }
  return exact.map((regs, n) => [...regs, ...(slack[n] ?? [])]);
}

function isGlue(code: number): boolean {
  return isAsciiAlnum(code) || code === 95 || code === 43;
}

/**
 * A run right after `-` that follows a segment of letters and digits (`…-a456-426614174000`) is the
 * next segment of the same identifier (a UUID, a hash, a slug), not a number of its own (property
 * seed 1623421117: `tlf 123e4567-e89b-12d3-a456-426614174000`). `Tel-4155552671` still counts.
 */
function afterIdSegment(text: string, at: number): boolean {
  if (at < 2 || text.charCodeAt(at - 1) !== 45) return false;
  let letter = false;
  let digit = false;
  for (let i = at - 2; i >= 0 && isAsciiAlnum(text.charCodeAt(i)); i--) {
    if (isDigit(text.charCodeAt(i))) digit = true;
    else letter = true;
  }
  return letter && digit;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 0xa0;
}

/** Digit groups of text[from, to), absolute offsets. */
function digitGroups(text: string, from: number, to: number): Group[] {
  const groups: Group[] = [];
  for (let i = from; i < to; i++) {
    if (!isDigit(text.charCodeAt(i))) continue;
    const start = i;
    while (i < to && isDigit(text.charCodeAt(i))) i++;
    groups.push({ start, end: i });
  }
  return groups;
}

function groupLength(group: Group | undefined): number {
  return group ? group.end - group.start : 0;
}

/**
 * Whether the separators between two groups end one national number and start another: a slash
 * between spaces (`… 2671 / 415 …`), two spaces (table columns), or a parenthesis opened after a
 * space (`ext 12 34 (415) 555-2671`). `0151/23456789` and `(415) 555` stay one number.
 */
function isBreak(text: string, from: number, to: number): boolean {
  let spaces = 0;
  let run = 0;
  let slash = false;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      spaces++;
      run++;
      if (run >= 2) return true;
      continue;
    }
    run = 0;
    if (code === 47) slash = true;
    if (code === 40 && spaces > 0) return true;
  }
  return slash && spaces > 0;
}

/** `2024-06-10`, `10/06/2024`, `10.06.2024` starting at group g: a date, not a phone. */
function isDateAt(text: string, groups: readonly Group[], g: number): boolean {
  const a = groups[g];
  const b = groups[g + 1];
  const c = groups[g + 2];
  if (!a || !b || !c || groupLength(b) !== 2) return false;
  const sep = text[a.end];
  if (b.start !== a.end + 1 || c.start !== b.end + 1 || text[b.end] !== sep) return false;
  if (sep !== '-' && sep !== '/' && sep !== '.') return false;
  return (isYear(text, a) && groupLength(c) === 2) || (groupLength(a) <= 2 && isYear(text, c));
}

function isYear(text: string, group: Group): boolean {
  if (groupLength(group) !== 4) return false;
  const head = text.charCodeAt(group.start) * 10 + text.charCodeAt(group.start + 1) - 48 * 11;
  return head === 19 || head === 20;
}

/** `192.168.100.200` starting at group g: the IP detector's, not a phone. */
function isDottedQuadAt(text: string, groups: readonly Group[], g: number): boolean {
  for (let k = g; k < g + 4; k++) {
    const group = groups[k];
    if (!group || groupLength(group) > 3) return false;
    if (k > g && (groups[k - 1]?.end ?? -1) + 1 !== group.start) return false;
    if (k > g && text.charCodeAt(group.start - 1) !== 46) return false;
  }
  return true;
}

function parseInternational(
  text: string,
  from: number,
  end: number,
  doubleZero: boolean,
): PhoneNumber | undefined {
  // `00` is the international call prefix; libphonenumber reads the `+` form.
  const slice = doubleZero ? `+${text.slice(from + 2, end)}` : text.slice(from, end);
  return parsePhoneNumberFromString(slice, { extract: false });
}

/** What one run knows about its context. */
interface RunState {
  hinted: boolean;
  text: string;
  runStart: number;
  /** The cue before the run, once computed (null: none): without one, no group of the run has any. */
  runCue: PhoneCue | null | undefined;
  /** A national number of this run matched after a phone word: the numbers after it are its list. */
  listed: boolean;
}

function cueAt(run: RunState, at: number): PhoneCue {
  if (run.hinted || run.listed) return 'phone';
  if (run.runCue === undefined) run.runCue = phoneCueAt(run.text, run.runStart) ?? null;
  if (run.runCue === null) return undefined;
  return at === run.runStart ? run.runCue : phoneCueAt(run.text, at);
}

function hasContextAt(run: RunState, at: number): boolean {
  return cueAt(run, at) === 'phone';
}

/** The window holding the international number starting at `from`, if any. */
function readInternational(
  run: RunState,
  from: number,
  windows: readonly Window[],
  doubleZero: boolean,
): Window | undefined {
  const text = run.text;
  const tried: [Window, PhoneNumber | undefined][] = [];
  for (let w = windows.length - 1; w >= 0 && w >= windows.length - 1 - MAX_TRIMS; w--) {
    const window = windows[w];
    if (!window) break;
    const number = parseInternational(text, from, window.end, doubleZero);
    if (number?.isValid()) return window;
    tried.push([window, number]);
  }
  if (tried.length === 0 || !hasContextAt(run, from)) return undefined;
  return tried.find(([, number]) => number?.isPossible())?.[0];
}

function isPossibleNational(plan: NationalPlan, text: string, from: number, window: Window): boolean {
  const slice = text.slice(from, window.end);
  for (const region of plan[window.digits] ?? []) {
    const number = parsePhoneNumberFromString(slice, { defaultCountry: region, extract: false });
    if (number && (number.isPossible() || number.isValid())) return true;
  }
  return false;
}

/** Whether the group lengths of groups[first..last] come again right after them, within the segment. */
function repeatsAfter(groups: readonly Group[], first: number, last: number, segmentLast: number): boolean {
  const count = last - first + 1;
  if (last + count > segmentLast) return false;
  for (let i = 0; i < count; i++) {
    if (groupLength(groups[first + i]) !== groupLength(groups[last + 1 + i])) return false;
  }
  return true;
}

interface Segment {
  groups: readonly Group[];
  /** Index of the candidate's first group. */
  first: number;
  /** Index of the segment's last group (counted no further than needed). */
  last: number;
  /** Digits of groups[first..last]. */
  digits: number;
}

/**
 * The national number starting at `from`: the longest window possible for a listed region that
 * takes its whole segment or is followed by the same grouping again (a list such as
 * `415 555 2671 415 555 2672` is two numbers, not thirteen digits and a stray seven); else one
 * that leaves at least as many digits as it takes; else the longest possible one.
 */
function readNational(
  plan: NationalPlan,
  text: string,
  from: number,
  windows: readonly Window[],
  segment: Segment,
): Window | undefined {
  let spare: Window | undefined;
  let fallback: Window | undefined;
  for (let w = windows.length - 1; w >= 0 && w >= windows.length - 1 - MAX_TRIMS; w--) {
    const window = windows[w];
    if (!window || !isPossibleNational(plan, text, from, window)) continue;
    const rest = segment.digits - window.digits;
    if (rest === 0 || repeatsAfter(segment.groups, segment.first, window.last, segment.last)) return window;
    if (rest >= window.digits) spare ??= window;
    fallback ??= window;
  }
  return spare ?? fallback;
}

/**
 * The whole segment after a phone word, when no listed region calls it possible: any number of
 * 7–15 digits written in one group or a phone layout (`call 555-0132`, a local number).
 */
function readAnyShape(text: string, from: number, segment: Segment): Window | undefined {
  const { groups, first, last, digits } = segment;
  const end = groups[last]?.end;
  if (end === undefined || digits < MIN_DIGITS || digits > SHAPE_MAX_DIGITS) return undefined;
  if (last > first && !isPhoneLayout(text, from, groups, first, last, { thousands: true })) return undefined;
  return { last, end, digits };
}

/** `23:17:02.182015`, `1,415-555-0132`: the digits go on past a joiner, a time or a longer number. */
function partOfNumber(text: string, from: number, end: number): boolean {
  const joiners = ':.,/-';
  const before = text.charAt(from - 1);
  if (before !== '' && joiners.includes(before) && isDigit(text.charCodeAt(from - 2))) return true;
  const after = text.charAt(end);
  return after !== '' && joiners.includes(after) && isDigit(text.charCodeAt(end + 1));
}

/**
 * A number written as its nation writes it (phone-shape.ts): groups from `first` to the next
 * break, valid for a listed region, and grouped (or not) as its national format groups it, trunk
 * prefix included. With no context word (`bare`) the number must also be the whole run, in two to
 * five groups, and two groups only with a trunk prefix or an area code in parentheses
 * (`09-7625400`, `(415)555-0132`): `8080-8090`, `94105-1234` and `2048 4096` are ranges, ZIP
 * codes and sizes that happen to be valid in some region.
 */
function readWritten(
  plan: NationalPlan,
  text: string,
  from: number,
  groups: readonly Group[],
  first: number,
  bare: boolean,
): Window | undefined {
  const head = groups[first];
  if (!head) return undefined;
  // `(930-402-2671)`: a parenthesis around the whole number, not around an area code.
  const start = text.charCodeAt(from) === 40 && text.charCodeAt(head.end) !== 41 ? from + 1 : from;
  // A group right after another one's `-` or `.` continues that number (`12-415-555-0132`).
  if (groups[first - 1] && !isSpace(text.charCodeAt(start - 1))) return undefined;
  let last = first;
  let digits = head.end - head.start;
  for (let k = first + 1; k < groups.length; k++) {
    const group = groups[k];
    if (!group || isBreak(text, groups[k - 1]?.end ?? group.start, group.start)) break;
    digits += group.end - group.start;
    if (digits > NATIONAL_MAX_DIGITS) return undefined;
    last = k;
  }
  const end = groups[last]?.end;
  if (end === undefined || digits < MIN_DIGITS) return undefined;
  if (bare) {
    if (last !== groups.length - 1 || last === first || partOfNumber(text, start, end)) return undefined;
    // Two groups: `0.1234567` and `02.182015` are decimals; `8080-8090` a range.
    const paren = text.charCodeAt(start) === 40;
    if (
      last === first + 1 &&
      !paren &&
      (text.charCodeAt(head.start) !== 48 || text.charCodeAt(head.end) === 46)
    )
      return undefined;
  }
  if (last > first && !isPhoneLayout(text, start, groups, first, last)) return undefined;
  const lengths = lengthsOf(groups, first, last);
  // After `number` the writer may leave the trunk prefix out (`98765 69784`); without a cue, not.
  if (!isWrittenNationalNumber(text, start, end, lengths, plan[digits] ?? [], !bare)) return undefined;
  return { last, end, digits, start };
}

/**
 * Numbers of one run, trying windows that start at each digit group: `+44 20 7946 0958 (4111 …)`
 * or `+1 415 555 2671 4` only parse once the trailing groups are cut. Windows hold at most a
 * number's worth of digits.
 */
function phonesInRun(
  plan: NationalPlan,
  hinted: boolean,
  text: string,
  runStart: number,
  runEnd: number,
  out: PiiMatch[],
): void {
  // `order #4155552671`, `ticket #…`: a number written right after `#` is a numbered identifier,
  // whatever context word precedes it.
  if (!hinted && text.charCodeAt(runStart - 1) === 35) return;
  const groups = digitGroups(text, runStart, runEnd);
  const run: RunState = { hinted, text, runStart, runCue: undefined, listed: false };
  let g = 0;
  // Where a number with no context word may start: the run's start, or right after a date or a
  // dotted quad at its start.
  let open = 0;
  while (g < groups.length) {
    const first = groups[g];
    if (!first) break;
    let from = g === 0 ? runStart : first.start;
    if (g > 0 && text.charCodeAt(from - 1) === 40) from--; // keep `(` of `(415)`
    const plus = text.charCodeAt(from) === 43;
    const doubleZero = !plus && text.startsWith('00', from);
    const international = plus || (doubleZero && (groups.length > g + 1 || hasContextAt(run, from)));
    let cue: PhoneCue;
    if (!international) {
      if (isDateAt(text, groups, g)) {
        if (open === g) open += 3;
        g += 3;
        continue;
      }
      if (isDottedQuadAt(text, groups, g)) {
        if (open === g) open += 4;
        g += 4;
        continue;
      }
      cue = cueAt(run, from);
      if (cue === undefined) {
        const shaped = g === open ? readWritten(plan, text, from, groups, g, true) : undefined;
        if (shaped) out.push({ type: 'phone', start: shaped.start ?? from, end: shaped.end });
        g = shaped ? shaped.last + 1 : g + 1;
        continue;
      }
    }
    const maxDigits = international ? INTERNATIONAL_MAX_DIGITS + (doubleZero ? 2 : 0) : NATIONAL_MAX_DIGITS;
    const windows: Window[] = [];
    // Digits of the segment (up to a break; the whole run for an international number), counted
    // only as far as readNational needs: a window and as many digits again.
    const segment: Segment = { groups, first: g, last: g, digits: 0 };
    for (let k = g; k < groups.length && segment.digits < 2 * maxDigits; k++) {
      const group = groups[k];
      if (!group) break;
      if (!international && k > g && isBreak(text, groups[k - 1]?.end ?? group.start, group.start)) break;
      segment.last = k;
      segment.digits += group.end - group.start;
      if (segment.digits <= maxDigits && segment.digits >= MIN_DIGITS) {
        windows.push({ last: k, end: group.end, digits: segment.digits });
      }
    }
    const found = international
      ? readInternational(run, from, windows, doubleZero)
      : cue === 'number'
        ? readWritten(plan, text, from, groups, g, false)
        : (readNational(plan, text, from, windows, segment) ?? readAnyShape(text, from, segment));
    if (!found) {
      g++;
      continue;
    }
    out.push({ type: 'phone', start: found.start ?? from, end: found.end });
    if (cue === 'phone') run.listed = true;
    g = found.last + 1;
  }
}

function scanPhones(plan: NationalPlan, text: string, hint: TypeHint | undefined): PiiMatch[] {
  const hinted = hint?.has('phone') ?? false;
  const out: PiiMatch[] = [];
  forEachMatch(RUN, text, 0, (m) => {
    if (m.index > 0 && (isGlue(text.charCodeAt(m.index - 1)) || afterIdSegment(text, m.index))) {
      // Glued to a word (`id4155552671`, `1+415…`): skip the glued digits, retry after them.
      let i = m.index;
      while (i < text.length && !isDigit(text.charCodeAt(i))) i++;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      RUN.lastIndex = i;
      return;
    }
    let run = m[0];
    // A last group glued to letters is a word (`25913 13th Street`, `4 155 2671st`), not digits
    // of the number: the run ends before it.
    if (isAsciiLetter(text.charCodeAt(m.index + run.length))) {
      let cut = run.length;
      while (cut > 0 && isDigit(run.charCodeAt(cut - 1))) cut--;
      while (cut > 0 && !isDigit(run.charCodeAt(cut - 1))) cut--;
      run = run.slice(0, cut);
    }
    let digits = 0;
    for (let i = 0; i < run.length; i++) if (isDigit(run.charCodeAt(i))) digits++;
    // Short runs (times, small versions, UUID pieces) never reach the costlier tests.
    if (digits < MIN_DIGITS) return;
    phonesInRun(plan, hinted, text, m.index, m.index + run.length, out);
  });
  return out;
}

let defaultPlan: NationalPlan | undefined;

/** Phones with national numbers of DEFAULT_PHONE_REGIONS; `hint` as in `Detector.find`. */
export function findPhones(text: string, hint?: TypeHint): PiiMatch[] {
  defaultPlan ??= nationalPlan(DEFAULT_PHONE_REGIONS);
  return scanPhones(defaultPlan, text, hint);
}

/**
 * The phone detector, reading national numbers of `regions` (codes libphonenumber knows, see
 * `isPhoneRegion`; throws a RangeError on another). International numbers count for every
 * region whatever the list.
 */
/**
 * Plans by region list: a pure function of it, and a few milliseconds of metadata walks each time,
 * which a run paid once per stabilization (the retention replay stabilizes up to 24 times each).
 */
const PLANS = new Map<string, NationalPlan>();

function planOf(regions: readonly string[]): NationalPlan {
  const key = regions.join(',');
  let plan = PLANS.get(key);
  if (plan === undefined) {
    plan = nationalPlan(regions);
    PLANS.set(key, plan);
  }
  return plan;
}

export function phoneDetector(regions: readonly string[] = DEFAULT_PHONE_REGIONS): Detector {
  const plan = planOf(regions);
  return { type: 'phone', find: (text, hint) => scanPhones(plan, text, hint) };
}
