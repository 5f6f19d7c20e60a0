// `pii.digit_run`: every run of at least N ASCII digits, whatever it is (the seed documents'
// strict rule is N = 3). Runs are maximal, so a long number is one match, not several.

import { DIGIT_RUN_TYPE } from '../types.js';
import type { Detector, PiiMatch } from '../types.js';
import { forEachMatch } from './scan.js';

/** Smallest meaningful N: a run of one digit would mask every number. */
export const MIN_DIGIT_RUN = 2;

export function digitRunDetector(minDigits: number): Detector {
  if (!Number.isInteger(minDigits) || minDigits < MIN_DIGIT_RUN) {
    throw new RangeError(`digit_run must be an integer >= ${MIN_DIGIT_RUN} (0 turns it off)`);
  }
  const re = new RegExp(`[0-9]{${minDigits},}`, 'g');
  return {
    type: DIGIT_RUN_TYPE,
    find(text: string): PiiMatch[] {
      const out: PiiMatch[] = [];
      forEachMatch(re, text, 0, (m) =>
        out.push({ type: DIGIT_RUN_TYPE, start: m.index, end: m.index + m[0].length }),
      );
      return out;
    },
  };
}
