// The order in which findings are listed in every report (text, markdown, GitHub): what a
// reviewer must see first. Leaks first, then a context that no longer holds the task or the
// request, or that a provider would refuse, then budget and protection, then the rest.
export const FINDING_ORDER = [
  'input',
  'golden-pii',
  'pii',
  'task',
  'recency',
  'nonempty',
  'provider',
  'budget',
  'protected',
  'fresh_results',
  'retention',
  'status',
  'pairing',
  'ledger',
  'summaries',
  'order',
  'guardian',
  'drift',
  'new',
  'obsolete',
] as const;

/** Rank of a check or finding kind; unknown names (a future check) sort just before drift. */
export function findingRank(check: string): number {
  const i = (FINDING_ORDER as readonly string[]).indexOf(check);
  return i === -1 ? FINDING_ORDER.indexOf('drift') - 0.5 : i;
}

/** Errors before warnings, then by finding rank, then by line. Stable for equal keys. */
export function compareFindings(
  a: { severity: string; check: string; line?: number },
  b: { severity: string; check: string; line?: number },
): number {
  const sev = (s: string): number => (s === 'error' ? 0 : s === 'warning' ? 1 : 2);
  return (
    sev(a.severity) - sev(b.severity) ||
    findingRank(a.check) - findingRank(b.check) ||
    (a.line ?? 0) - (b.line ?? 0)
  );
}
