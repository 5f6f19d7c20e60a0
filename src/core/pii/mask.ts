// Finding and masking PII in one text (DESIGN §4 stage 4 and the §5 `pii` check).
//
// Idempotence: maskText(maskText(x).text).text === maskText(x).text for every x. Two rules make it
// hold for any detector set and any replacement:
// 1. Replacement tokens are inert: detection ignores every character inside an occurrence of a
//    rendered token (matches are clipped around them), so a token is never masked again, even
//    when it contains digits or a user rule matches it. An alias (`[EMAIL_3]`, template.ts) is a
//    token too: it is never detected, so never numbered again.
// 2. maskText repeats detection until nothing is found. A replacement can change what its
//    neighbours look like (digits joined after a deletion, `[REDACTED_PHONE]` being a context
//    word for a nearby national number); the fixed point is by construction stable.
// The loop terminates: token characters are never replaced and each pass that changes the text
// replaces at least one non-token character by token characters (or deletes it, with an empty
// replacement), so the count of non-token characters strictly decreases.

import type { AliasOf } from './aliases.js';
import { isCovered, literalOccurrences, mergeByPriority, priorityOf, subtract } from './spans.js';
import { renderTemplate, replacementOccurrences } from './template.js';
import type { Detector, PiiMatch, TypeHint } from './types.js';

export interface MaskOptions {
  /**
   * Replacement template; `{TYPE}` becomes the upper-cased type, e.g. `[REDACTED_{TYPE}]`. With
   * `{N}` or `{HASH}`, `alias` renders each value and the template only makes its aliases inert.
   */
  replacement: string;
  /** Literal values never masked: a match lying inside an occurrence of one is dropped. */
  allow: readonly string[];
  /** Renders a found value (aliases.ts aliasOf); absent: the template with its type. */
  alias?: AliasOf | undefined;
}

/** The masked text and how many regions of each type were replaced. Never holds the values. */
export interface MaskResult {
  text: string;
  counts: Record<string, number>;
}

export function renderReplacement(replacement: string, type: string): string {
  return renderTemplate(replacement, type);
}

/** What replaces one found value: its alias, or the template rendered for its type. */
export function replacementOf(opts: MaskOptions, type: string, value: string): string {
  return opts.alias ? opts.alias(type, value) : renderReplacement(opts.replacement, type);
}

/**
 * Every PII region of `text`: the detectors' matches minus those inside an `allow` literal,
 * merged into sorted, disjoint spans typed by priority. With `replacement`, occurrences of its
 * rendered tokens are inert (what the `pii` check needs on masked output). `hint`: the types the
 * text's JSON key names (key-hints.ts).
 */
export function findPii(
  text: string,
  detectors: readonly Detector[],
  allow: readonly string[],
  replacement?: string,
  hint?: TypeHint,
): PiiMatch[] {
  let matches: PiiMatch[] = [];
  for (const detector of detectors) {
    for (const m of detector.find(text, hint)) {
      if (m.start >= 0 && m.end <= text.length && m.start < m.end) matches.push(m);
    }
  }
  if (matches.length === 0) return [];
  const allowed = literalOccurrences(text, allow);
  if (allowed.length > 0) matches = matches.filter((m) => !isCovered(m, allowed));
  if (replacement !== undefined) {
    // Types of the matches too: a detector reporting a type other than its own must not be able
    // to re-mask its own token forever.
    const types = new Set([...detectors.map((d) => d.type), ...matches.map((m) => m.type)]);
    const tokens = replacementOccurrences(text, replacement, [...types]);
    if (tokens.length > 0) matches = matches.flatMap((m) => subtract(m, tokens));
  }
  return mergeByPriority(matches, priorityOf(detectors));
}

export function maskText(
  text: string,
  detectors: readonly Detector[],
  opts: MaskOptions,
  hint?: TypeHint,
): MaskResult {
  const counts = new Map<string, number>();
  let current = text;
  for (;;) {
    const spans = findPii(current, detectors, opts.allow, opts.replacement, hint);
    if (spans.length === 0) break;
    const parts: string[] = [];
    let pos = 0;
    for (const span of spans) {
      const value = current.slice(span.start, span.end);
      parts.push(current.slice(pos, span.start), replacementOf(opts, span.type, value));
      pos = span.end;
      counts.set(span.type, (counts.get(span.type) ?? 0) + 1);
    }
    parts.push(current.slice(pos));
    current = parts.join('');
  }
  const sorted = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { text: current, counts: Object.fromEntries(sorted) };
}
