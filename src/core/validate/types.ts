export const VALIDATE_CHECKS = [
  'budget',
  'order',
  'pii',
  'protected',
  'pairing',
  'summaries',
  'ledger',
  'guardian',
] as const;
export type ValidateCheckName = (typeof VALIDATE_CHECKS)[number];

export interface Violation {
  id: string;
  line: number;
  message: string;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  severity: 'error' | 'warning' | 'off';
  violations: Violation[];
}
