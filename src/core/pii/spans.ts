// Span arithmetic for findPii: literal occurrences, coverage, subtraction and the priority merge
// of overlapping matches (DESIGN §3: one replacement per masked region, typed by the strongest
// detector).

import { DIGIT_RUN_TYPE } from './types.js';
import type { Detector, PiiMatch } from './types.js';

export interface Interval {
  start: number;
  end: number;
}

// When spans overlap, the union is masked once with the type of the highest-priority detector:
// the most specific and most sensitive kind names the region.
// Opt-in types sit next to the built-in they resemble: a credential in a URL with secrets, national
// ids with the SSN, network identifiers last.
// prettier-ignore
const BUILTIN_PRIORITY: readonly string[] = [
  'secret', 'url_credentials', 'credit_card', 'iban', 'crypto_wallet', 'us_aba_routing', 'ssn',
  'us_itin', 'uk_nino', 'uk_nhs', 'in_pan', 'in_aadhaar', 'es_nif', 'it_fiscal_code', 'au_tfn',
  'passport', 'phone', 'email', 'ip_address', 'mac',
];
const USER_RULE_BASE = BUILTIN_PRIORITY.length;

/** Lower is stronger: built-ins in BUILTIN_PRIORITY order, then user rules as listed, then digit_run. */
export function priorityOf(detectors: readonly Detector[]): (type: string) => number {
  const ruleOrder = new Map<string, number>();
  for (const d of detectors) {
    const builtin = BUILTIN_PRIORITY.includes(d.type);
    if (!builtin && d.type !== DIGIT_RUN_TYPE && !ruleOrder.has(d.type))
      ruleOrder.set(d.type, ruleOrder.size);
  }
  return (type) => {
    const builtin = BUILTIN_PRIORITY.indexOf(type);
    if (builtin !== -1) return builtin;
    if (type === DIGIT_RUN_TYPE) return Number.MAX_SAFE_INTEGER;
    return USER_RULE_BASE + (ruleOrder.get(type) ?? ruleOrder.size);
  };
}

/** Every occurrence (overlapping ones too) of each non-empty literal, as a sorted union. */
export function literalOccurrences(text: string, literals: readonly string[]): Interval[] {
  const found: Interval[] = [];
  for (const literal of new Set(literals)) {
    if (literal.length === 0) continue;
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1)) {
      found.push({ start: at, end: at + literal.length });
    }
  }
  return union(found);
}

/** Sorted, merged intervals (a union), from any list; the list is sorted in place. */
export function union(intervals: Interval[]): Interval[] {
  intervals.sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const iv of intervals) {
    const last = out[out.length - 1];
    if (last && iv.start <= last.end) last.end = Math.max(last.end, iv.end);
    else out.push({ start: iv.start, end: iv.end });
  }
  return out;
}

/** Index of the last interval starting at or before `pos`, or -1. `sorted` is a union. */
function lastStartingAtOrBefore(sorted: readonly Interval[], pos: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid]?.start ?? 0) <= pos) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

export function isCovered(span: Interval, sorted: readonly Interval[]): boolean {
  const iv = sorted[lastStartingAtOrBefore(sorted, span.start)];
  return iv !== undefined && span.end <= iv.end;
}

/** The parts of `match` outside every interval of `sorted` (a union). */
export function subtract(match: PiiMatch, sorted: readonly Interval[]): PiiMatch[] {
  const out: PiiMatch[] = [];
  let pos = match.start;
  let i = Math.max(0, lastStartingAtOrBefore(sorted, match.start));
  for (; i < sorted.length && pos < match.end; i++) {
    const iv = sorted[i];
    if (!iv || iv.end <= pos) continue;
    if (iv.start >= match.end) break;
    if (iv.start > pos) out.push({ type: match.type, start: pos, end: iv.start });
    pos = Math.max(pos, iv.end);
  }
  if (pos < match.end) out.push({ type: match.type, start: pos, end: match.end });
  return out;
}

/**
 * Overlapping matches (sharing at least one character) become one span over their union, typed
 * by the strongest member; touching spans stay separate. Result sorted and disjoint.
 */
export function mergeByPriority(matches: PiiMatch[], priority: (type: string) => number): PiiMatch[] {
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: PiiMatch[] = [];
  let current: PiiMatch | undefined;
  let currentRank = 0;
  for (const m of matches) {
    const rank = priority(m.type);
    if (current && m.start < current.end) {
      current.end = Math.max(current.end, m.end);
      if (rank < currentRank || (rank === currentRank && m.type < current.type)) {
        current.type = m.type;
        currentRank = rank;
      }
      continue;
    }
    current = { type: m.type, start: m.start, end: m.end };
    currentRank = rank;
    out.push(current);
  }
  return out;
}
