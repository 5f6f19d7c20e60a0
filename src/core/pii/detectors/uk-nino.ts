// UK National Insurance numbers: two prefix letters, six digits and a suffix letter A–D, either
// contiguous (`AB123456C`) or in HMRC's printed grouping (`AB 12 34 56 C`). The prefix follows
// HMRC's allocation rules: first letter not D, F, I, Q, U or V; second letter not D, F, I, O, Q,
// U or V; and never BG, GB, NK, KN, TN, NT or ZZ (administrative / temporary prefixes).
//
// No context word is needed: the letter-digit-letter shape with these letter rules is rare
// outside NINOs. Deliberately not matched:
// - lower case (`ab123456c`): identifiers, not NI numbers as people write them;
// - the number without its suffix letter (`AB123456`): too generic (part and order numbers);
// - other groupings (`AB 123456 C`: a trailing ` A` is as often the article that starts the
//   next sentence), and anything glued to letters or digits.

import type { Detector, PiiMatch } from '../types.js';
import { alnumAt, forEachMatch } from './scan.js';

// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const NINO = /[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?: ?\d\d){3} ?[A-D]/g;
const EXCLUDED_PREFIXES = new Set(['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ']);
const COMPACT_LENGTH = 9;
const SPACED_LENGTH = 13;

function layoutValid(candidate: string): boolean {
  if (candidate.length === COMPACT_LENGTH) return true;
  if (candidate.length !== SPACED_LENGTH) return false;
  return candidate[2] === ' ' && candidate[5] === ' ' && candidate[8] === ' ' && candidate[11] === ' ';
}

export function findUkNinos(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(NINO, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    if (alnumAt(text, start - 1) || alnumAt(text, end)) return;
    if (!layoutValid(m[0]) || EXCLUDED_PREFIXES.has(m[0].slice(0, 2))) return;
    out.push({ type: 'uk_nino', start, end });
  });
  return out;
}

export function ukNinoDetector(): Detector {
  return { type: 'uk_nino', find: findUkNinos };
}
