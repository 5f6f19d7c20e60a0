export const VALIDATE_CHECKS = [
  'budget',
  'order',
  'pii',
  'protected',
  'pairing',
  'summaries',
  'ledger',
  'guardian',
  'task',
  'recency',
  'nonempty',
  'provider',
  'fresh_results',
] as const;
export type ValidateCheckName = (typeof VALIDATE_CHECKS)[number];

export interface Violation {
  id: string;
  line: number;
  /** 1-based column of the artifact the violation is annotated at (absent: the start of the line). */
  column?: number;
  message: string;
  /**
   * A finding that is a warning whatever the check's severity (a `fresh_results` excerpt): it never
   * fails the run. Absent: the check's severity.
   */
  severity?: 'warning';
}

export interface CheckResult {
  name: string;
  ok: boolean;
  severity: 'error' | 'warning' | 'off';
  violations: Violation[];
}
