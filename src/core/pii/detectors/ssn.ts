// US Social Security numbers within the SSA's issuing rules (area 001–899 but not 666, group
// not 00, serial not 0000; ITIN areas 900–999 are never SSNs).
//
// - With an SSN context word (ssn, social security, social, SSA, SS#) in the CONTEXT_WINDOW
//   characters before it, or the `ssn` key hint: `123-45-6789`, `123 45 6789` and the
//   contiguous `123456789` all count.
// - Without one: only the separated layout counts, and not after a part-number cue: a specific
//   one (part, p/n, sku, model, serial, order, invoice, ticket, ref, catalog, product, lot,
//   batch…) within PART_WINDOW characters, or a generic one (id, #, no., nr, number) that labels
//   the number: right before it, with only spaces, `:`, `=`, quotes or an opening bracket
//   between. `ddd-dd-dddd` part and catalogue numbers are common, SSNs written without any label
//   rare; but a generic word further away (`card number back. ddd-dd-dddd`), glued on with a
//   hyphen (`id-ddd-dd-dddd`, an id holding an SSN) or a heading's `####` labels nothing (issue 34).
// Bare nine-digit runs without context are deliberately NOT matched: zip+4 codes, order numbers,
// ids and timestamps produce far too many of them (enable `digit_run` to mask every long digit
// run instead).

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { alnumAt, digitAt, forEachMatch, windowBefore } from './scan.js';

// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
// The separator is optional: the contiguous form is kept only with context.
const SSN = /\d{3}([- ]?)\d{2}\1\d{4}/g;
/** How far before a number its SSN context word may stand. */
const CONTEXT_WINDOW = 40;
/** How far before a separated number a part-number cue makes it a part number. */
const PART_WINDOW = 25;

const CONTEXT = /(?<![a-z])(?:ssns?|ssa|ss\s?#|social)(?![a-z])/gi;
/** Any context word in a text: a text without one skips the contiguous form's context tests. */
const CONTEXT_ANYWHERE = /ssn|ssa|ss\s?#|social/i;
// Part and catalogue labels specific enough to outweigh an earlier SSN word (`SSN on file; part
// 123-45-6789`). The generic ones (`#`, `no.`, `number`, `id`) do not: `SSN number`, `SS#`.
// A cue is a word of its own: glued to digits (`ID5`, the tail of an IBAN) it is part of a token.
const PART_SPECIFIC =
  /(?<![a-z0-9])(?:part|p\/n|pn|sku|model|item|serial|order|invoice|ticket|case|ref|reference|catalog(?:ue)?|cat\.?\s?no|product|lot|batch)(?![a-z0-9])/gi;
const PART_SPECIFIC_ANYWHERE = new RegExp(PART_SPECIFIC.source, 'i');
// A generic cue labels the number only at the end of the window: `id: `, `number `, `#`, `no. `,
// `"id":"`. A `#` of a run (`#### Error`, a markdown heading) is no number sign.
const GENERIC_LABEL =
  /(?:(?<![a-z0-9])(?:id|nr|num(?:ber)?)(?![a-z0-9])|(?<![a-z0-9])(?:no|nr)\.|(?<![a-z0-9])no\s*:|(?<!#)#(?!#)|№)[\s:="'([]*$/i;

function issuable(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  return a !== 0 && a !== 666 && a < 900 && group !== '00' && serial !== '0000';
}

/** Whether an SSN word stands before `start` with no specific part label after the last one. */
function hasSsnContext(text: string, start: number): boolean {
  const before = windowBefore(text, start, CONTEXT_WINDOW);
  let after = -1;
  forEachMatch(CONTEXT, before, 0, (m) => {
    after = m.index + m[0].length;
  });
  if (after === -1) return false;
  PART_SPECIFIC.lastIndex = after;
  return !PART_SPECIFIC.test(before);
}

function hasPartContext(text: string, start: number): boolean {
  const before = windowBefore(text, start, PART_WINDOW);
  return PART_SPECIFIC_ANYWHERE.test(before) || GENERIC_LABEL.test(before);
}

export function findSsns(text: string, hint?: TypeHint): PiiMatch[] {
  const hinted = hint?.has('ssn') ?? false;
  let contextual: boolean | undefined; // whether the text holds a context word at all
  const out: PiiMatch[] = [];
  forEachMatch(SSN, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    if (digitAt(text, start - 1) || digitAt(text, end)) return;
    const sep = m[1] ?? '';
    const contiguous = sep === '';
    if (contiguous) {
      // `id123456789`, `123456789abc`: part of an identifier.
      if (alnumAt(text, start - 1) || alnumAt(text, end)) return;
    } else {
      // Part of a longer grouped number (`12 123 45 6789`, `123-45-6789-01`): not an SSN.
      if (text[start - 1] === sep && digitAt(text, start - 2)) return;
      if (text[end] === sep && digitAt(text, end + 1)) return;
    }
    const w = sep.length;
    if (!issuable(m[0].slice(0, 3), m[0].slice(3 + w, 5 + w), m[0].slice(5 + 2 * w))) return;
    if (contiguous && !hinted) {
      contextual ??= CONTEXT_ANYWHERE.test(text);
      if (!contextual) return;
    }
    const context = hinted || hasSsnContext(text, start);
    if (context || (!contiguous && !hasPartContext(text, start))) out.push({ type: 'ssn', start, end });
  });
  return out;
}

export function ssnDetector(): Detector {
  return { type: 'ssn', find: findSsns };
}
