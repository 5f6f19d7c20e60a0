// Payment card numbers: 13–19 digits, contiguous or in the printed groupings (4-4-4-4,
// 4-4-4-4-3, 4-4-4-3, 4-6-5 / 4-6-4, and UATP's 4-5-6) with one consistent single space or dash,
// passing Luhn.
// Extra false-positive guards, each for a common look-alike in agent transcripts:
// - the first digit must be an ISO/IEC 7812 major industry identifier used by card networks
//   (2–6): millisecond timestamps (17…) and snowflake ids (1…) start with 1. The one network
//   numbering from 1, UATP (airline cards, `1220 00000 000003`), issues exactly fifteen digits,
//   a length neither of those look-alikes has (13 and 17–19 digits), so 1 counts at fifteen;
// - all-same-digit numbers are placeholders (`0000 0000 0000 0000`);
// - a digit run glued to letters is part of a hash, base64 or identifier;
// - a digit run next to a decimal point is a float (`0.4111111111111111`);
// - a number written after `+` is an international phone number (`+4954519219004`), and so is the
//   value of a key naming a phone (the `phone` hint);
// - a contiguous run that is the whole value of an id key (`"order_id": 5…`, the `identifier` hint)
//   is an identifier: about one random 16-digit id in ten passes Luhn.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { spacedIbanEndsAt } from './iban.js';
import { alnumAt, digitAt, forEachMatch } from './scan.js';

const CARD =
  /(?:\d{4}([ -])\d{4}\1\d{4}\1\d{1,4}(?:\1\d{1,3})?|\d{4}([ -])\d{6}\2\d{4,5}|\d{4}([ -])\d{5}\3\d{6}|\d{13,19})(?!\d)/g;
/** UATP cards: fifteen digits starting with 1. */
const UATP_LENGTH = 15;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function allSame(digits: string): boolean {
  for (let i = 1; i < digits.length; i++) if (digits[i] !== digits[0]) return false;
  return true;
}

/**
 * Whether the grouped number at [start, end) is a stretch of a longer grouped identifier: an
 * IBAN's groups (`HU22-3001-5450-0038-0276-…`, `GB82 WEST 1234 5698 7654 32`) or a dashed serial.
 * A dash glued to letters or digits on either side, or, with spaces, a group of four capitals
 * and digits (a digit among them: `VISA 4111 …` stays a card) right before it that does not end
 * a whole IBAN.
 */
function continuesGroups(text: string, start: number, end: number, sep: string): boolean {
  if (sep === '-') {
    return (
      (text[start - 1] === '-' && alnumAt(text, start - 2)) || (text[end] === '-' && alnumAt(text, end + 1))
    );
  }
  if (text[start - 1] !== ' ' || start < 5 || alnumAt(text, start - 6)) return false;
  const group = text.slice(start - 5, start - 1);
  // A whole IBAN before the card (`ES43 … 3035 3400 866329 02175`) is a list of two numbers.
  return /^[A-Z0-9]{4}$/.test(group) && /\d/.test(group) && !spacedIbanEndsAt(text, start - 1);
}

export function findCreditCards(text: string, hint?: TypeHint): PiiMatch[] {
  const out: PiiMatch[] = [];
  if (hint?.has('phone')) return out;
  const identifier = hint?.has('identifier') === true;
  forEachMatch(CARD, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    // Bounded by non-alphanumerics (checked here, not by a lookbehind, to keep V8's fast scan).
    if (alnumAt(text, start - 1) || alnumAt(text, end)) return;
    if (text[start - 1] === '+') return;
    const sep = m[1] ?? m[2] ?? m[3];
    if (sep !== undefined && continuesGroups(text, start, end, sep)) return;
    // The whole value is the number: the id itself (`order-a 5372…` under `order_id` is not).
    const whole = text.trim().length === m[0].length;
    if (identifier && whole && m[1] === undefined && m[2] === undefined && m[3] === undefined) return;
    if (text[start - 1] === '.' && digitAt(text, start - 2)) return;
    if (text[end] === '.' && digitAt(text, end + 1)) return;
    const digits = m[0].replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19) return;
    const mii = digits.charCodeAt(0) - 48;
    const network = (mii >= 2 && mii <= 6) || (mii === 1 && digits.length === UATP_LENGTH);
    if (!network || allSame(digits) || !luhnValid(digits)) return;
    out.push({ type: 'credit_card', start, end });
  });
  return out;
}

export function creditCardDetector(): Detector {
  return { type: 'credit_card', find: findCreditCards };
}
