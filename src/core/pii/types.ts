// Shared shapes of the PII stage (DESIGN §3 `pii:`, §4 stage 4, §5 `pii` check).

/** The typed detectors; the `pii` check always runs all of them, whatever the policy enables. */
export const BUILTIN_PII_TYPES = [
  'email',
  'phone',
  'ssn',
  'credit_card',
  'iban',
  'ip_address',
  'secret',
] as const;
export type BuiltinPiiType = (typeof BUILTIN_PII_TYPES)[number];

/** Type of the `digit_run` detector's matches. */
export const DIGIT_RUN_TYPE = 'digit_run';

/** A detected span: UTF-16 offsets into the scanned text, `end` exclusive. Never carries the value. */
export interface PiiMatch {
  type: string;
  start: number;
  end: number;
}

/**
 * The types a label names for a whole text: the text is the value of a JSON member whose key says
 * what it holds (`"phone": …`, `"ssn": …`, `"password": …`). A detector whose type is in the hint
 * may relax the context it otherwise needs (a national phone number without a context word, a
 * secret whatever its shape).
 */
export type TypeHint = ReadonlySet<string>;

/**
 * One kind of PII. `find` is pure and may return overlapping or unsorted matches; `findPii`
 * merges them. Every match it returns has `type === this.type`.
 */
export interface Detector {
  type: string;
  find(text: string, hint?: TypeHint): PiiMatch[];
}
