// Spanish tax identification numbers, each with its control character:
// - DNI/NIF of Spanish citizens: eight digits and the mod-23 letter (`12345678Z`, `12345678-Z`);
// - NIE of foreign residents: X, Y or Z (read as 0, 1, 2), seven digits and the mod-23 letter
//   (`X1234567L`, `X-1234567-L`);
// - NIF K/L/M (minors, non-residents, foreigners without NIE): the letter, seven digits and the
//   mod-23 letter of the seven digits;
// - CIF of legal entities: an entity letter, seven digits and the control character (a digit or
//   a letter of `JABCDEFGHI`, as the entity type requires).
//
// Context: DNI and NIE count on their own in their compact and dashed forms (the mod-23 letter
// rejects 22 in 23 look-alikes). A DNI with a space before its letter (`12345678 Z`), NIF K/L/M
// and CIFs need a context word (DNI, NIF, NIE, CIF) in the 30 characters before, or the `es_nif`
// hint: a one-letter word after an eight-digit number is ordinary prose, letter + 7 digits +
// character is a common part-number shape, and the CIF's control digit rejects only 9 in 10.
//
// Deliberately not matched: lower case, one digit repeated (`00000000T`), anything glued to
// letters or digits.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { allSameDigit, contextWords, hasContext, mayHoldIdNumber } from './context-word.js';
import { alnumAt, forEachMatch } from './scan.js';

const TYPE = 'es_nif';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const CANDIDATE = /[A-Z]-?\d{7}-?[0-9A-Z]|\d{8}[- ]?[A-Z]/g;
const CONTEXT = contextWords(['dni', 'nif', 'nie', 'cif']);
const MOD23_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_LETTERS = 'JABCDEFGHI';
/** Entity letters whose CIF control is always a letter / always a digit; the rest take either. */
const CIF_LETTER_CONTROL = 'NPQRSW';
const CIF_DIGIT_CONTROL = 'ABEH';
const CIF_ENTITIES = 'ABCDEFGHJNPQRSUVW';

/** The mod-23 control letter of a DNI/NIE number. */
export function mod23Letter(n: number): string {
  return MOD23_LETTERS.charAt(n % 23);
}

/** The CIF control digit (0–9) of seven digits. */
export function cifControlDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = digits.charCodeAt(i) - 48;
    if (i % 2 === 1) sum += d;
    else sum += d * 2 > 9 ? d * 2 - 9 : d * 2;
  }
  return (10 - (sum % 10)) % 10;
}

type Kind = 'personal' | 'needs-context';

/** Which id `compact` (separators removed) is, if valid; undefined when not valid. */
export function classifySpanishId(compact: string): Kind | undefined {
  const first = compact.charAt(0);
  const last = compact.charAt(compact.length - 1);
  if (compact.length !== 9) return undefined;
  if (first >= '0' && first <= '9') {
    const body = compact.slice(0, 8);
    return !allSameDigit(body) && mod23Letter(Number(body)) === last ? 'personal' : undefined;
  }
  const body = compact.slice(1, 8);
  if (allSameDigit(body)) return undefined;
  const nie = 'XYZ'.indexOf(first);
  if (nie !== -1) return mod23Letter(Number(`${nie}${body}`)) === last ? 'personal' : undefined;
  if ('KLM'.includes(first)) return mod23Letter(Number(body)) === last ? 'needs-context' : undefined;
  if (!CIF_ENTITIES.includes(first)) return undefined;
  const control = cifControlDigit(body);
  const digitOk = !CIF_LETTER_CONTROL.includes(first) && last === String(control);
  const letterOk = !CIF_DIGIT_CONTROL.includes(first) && last === CIF_LETTERS.charAt(control);
  return digitOk || letterOk ? 'needs-context' : undefined;
}

export function findEsNifs(text: string, hint?: TypeHint): PiiMatch[] {
  if (!mayHoldIdNumber(text)) return [];
  const out: PiiMatch[] = [];
  forEachMatch(CANDIDATE, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    const kind = classifySpanishId(m[0].replace(/[- ]/g, ''));
    const needsContext = kind === 'needs-context' || m[0].includes(' ');
    if (
      alnumAt(text, start - 1) ||
      alnumAt(text, end) ||
      kind === undefined ||
      (needsContext && !hasContext(text, start, CONTEXT, TYPE, hint))
    ) {
      // Retry one character on: `ES-12345678-Z` first matches `S-12345678`. Matches are at most
      // eleven characters long, so the retries keep the scan linear.
      CANDIDATE.lastIndex = start + 1;
      return;
    }
    out.push({ type: TYPE, start, end });
  });
  return out;
}

export function esNifDetector(): Detector {
  return { type: TYPE, find: findEsNifs };
}
