// Context and boundary helpers for the opt-in national-id detectors.
//
// Many ids are bare digit runs that ids, order numbers and timestamps also produce; such a
// detector reports a candidate only when a CONTEXT WORD ends in the few characters before it
// (`NHS number 9434765919`, `routing: 021000021`), or when the JSON key the text sits under names
// the detector's type (the hint). Context words are matched case-insensitively as whole words,
// where a word is delimited by anything but a letter, or by a camelCase hump: `NHS_number`,
// `nhsNumber`, `tfn:` and `[REDACTED_PASSPORT]` count, `bank` in `banking` or `riverbank` does
// not. A word the window cuts at its start never counts (the letters left of it are unknown).
//
// Cost: the test runs a precompiled regex over at most `window` characters, so it stays constant
// per candidate whatever the text's length.

import type { TypeHint } from '../types.js';
import { alnumAt, digitAt } from './scan.js';

/** How many characters before a candidate may hold its context word. */
export const CONTEXT_WINDOW = 30;

const LETTER = /\p{L}/u;

function letterAt(text: string, index: number): boolean {
  return index >= 0 && index < text.length && LETTER.test(text.charAt(index));
}

/**
 * A case-insensitive whole-word regex for `words`. Inside a phrase, a space (or `_`, `-`) matches
 * any run (possibly empty) of spaces, `_`, `-` and `.`, so `tax file number` also matches
 * `tax_file_number`, `Tax-File-Number` and `taxFileNumber`.
 */
export function contextWords(words: readonly string[]): RegExp {
  const alternatives = words.map((w) =>
    w
      .trim()
      .split(/[\s_-]+/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('[\\s_.-]*'),
  );
  return new RegExp(`(?<!\\p{L})(?:${alternatives.join('|')})(?!\\p{L})`, 'iu');
}

/**
 * True when a word `re` matches (built with `contextWords`, or any non-global regex with its own
 * word boundaries) lies within the `window` characters before `start`. A word cut by the
 * window's start is skipped, never half-matched.
 */
export function precededBy(text: string, start: number, re: RegExp, window = CONTEXT_WINDOW): boolean {
  let from = Math.max(0, start - window);
  if (letterAt(text, from - 1)) while (from < start && letterAt(text, from)) from++;
  re.lastIndex = 0;
  return re.test(splitHumps(text.slice(from, start)));
}

/** `taxFileNumber` → `tax File Number`, `NHSNumber` → `NHS Number`: humps are word boundaries. */
function splitHumps(window: string): string {
  return window.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
}

/** The hint names `type`, or a context word precedes `start` (see `precededBy`). */
export function hasContext(
  text: string,
  start: number,
  re: RegExp,
  type: string,
  hint?: TypeHint,
  window = CONTEXT_WINDOW,
): boolean {
  return hint?.has(type) === true || precededBy(text, start, re, window);
}

/** Characters that join digit groups into one longer number: `1,234`, `1.5`, `12:30`, `06/10`. */
const JOINERS = '-./:,';

/**
 * True when the number at [start, end) stands alone: not glued to a letter or digit, and not a
 * part of a longer number (a joiner or the layout's own group separator `sep` followed by a
 * digit on either side: `2024-06-10`, `1.5`, `12 943 476 5919`).
 */
export function numberStandsAlone(text: string, start: number, end: number, sep = ''): boolean {
  if (alnumAt(text, start - 1) || alnumAt(text, end)) return false;
  const before = text.charAt(start - 1);
  if (before !== '' && (JOINERS.includes(before) || before === sep) && digitAt(text, start - 2)) return false;
  const after = text.charAt(end);
  if (after !== '' && (JOINERS.includes(after) || after === sep) && digitAt(text, end + 1)) return false;
  return true;
}

/** True when `digits` is one digit repeated (`000000000`, `1111 1111 1111`): a placeholder. */
export function allSameDigit(digits: string): boolean {
  for (let i = 1; i < digits.length; i++) if (digits.charCodeAt(i) !== digits.charCodeAt(0)) return false;
  return true;
}

// Six digits, in one run or two groups of three: what every numeric national id (NHS, Aadhaar,
// TFN, DNI/NIE) holds. Most texts hold none, and one scan answers for all four detectors, which
// findPii runs one after another on the same text (hence the one-text memo).
const SIX_DIGITS = /\d{3}[ -]?\d{3}/;
let lastText: string | undefined;
let lastAnswer = false;

/** Whether `text` may hold a numeric national id at all (a cheap, shared pre-check). */
export function mayHoldIdNumber(text: string): boolean {
  if (text !== lastText) {
    // Answer first: a scan stopped by the watchdog (src/cli/check/watchdog.ts) must not leave
    // the text recorded with another text's answer.
    const answer = SIX_DIGITS.test(text);
    lastText = text;
    lastAnswer = answer;
  }
  return lastAnswer;
}
