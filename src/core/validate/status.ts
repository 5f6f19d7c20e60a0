// `status`: the stabilizer's own verdict as a check, so that every gate (stabilize, check, the
// Action) fails on `escalated` and reports `warning` the same way: escalated is an error (the policy
// could not be honoured without dropping authority or the request), warning is a warning
// (protected evidence had to be cut to fit).
import type { StabilizeResult } from '../stabilize/types.js';
import type { Locator } from './locate.js';
import type { CheckResult, Violation } from './types.js';

/** Why a run escalated, by its safety events, the most fundamental first. */
const CAUSES: readonly (readonly [string, string])[] = [
  ['authority_over_budget', 'the system prompt and constraints alone exceed the budget'],
  [
    'protected_over_budget',
    'what must be kept does not fit the budget even with protected evidence cut to excerpts',
  ],
  ['scope_ambiguous', 'the scope is ambiguous'],
  ['empty_context', 'the context holds no conversation'],
  ['provider_rejects', 'the target API would refuse the request'],
  ['pii_unmaskable', 'PII in a thinking block that can be neither masked nor left out'],
  ['pii_unmasked', 'PII the masker could not reach stays in the context'],
  ['pii_blocked', 'the context holds PII and pii.strategy is block'],
];

export function statusCheck(result: StabilizeResult, where: Locator): CheckResult {
  if (result.status === 'ok') return { name: 'status', ok: true, severity: 'error', violations: [] };
  const safety = result.events.filter((e) => e.level === 'safety');
  // A warning is about the evidence that was cut: the first excerpt the budget made.
  const cut = result.ledger.find(
    (e) => (e.action === 'excerpted' && e.stage === 'budget') || e.reason === 'degraded',
  )?.id;
  const about = (result.status === 'warning' ? cut : undefined) ?? safety.find((e) => e.id !== undefined)?.id;
  const reasons = safety.map((e) => e.code).join(', ') || 'see the events';
  const codes = new Set(safety.map((e) => e.code));
  const why = CAUSES.find(([code]) => codes.has(code))?.[1] ?? 'the stabilizer cannot honour the policy';
  const message =
    result.status === 'escalated'
      ? `status escalated: ${why} (${reasons})`
      : `status warning: protected evidence was cut to excerpts or dropped (oldest first) to fit the budget (${reasons})`;
  // Where there is no single artifact to blame, the largest system or constraint artifact is
  // what the budget could not hold.
  const largest = [...result.context]
    .filter((c) => c.kind === 'system' || c.kind === 'policy')
    .sort((a, b) => b.tokens - a.tokens)[0];
  const violation: Violation =
    about !== undefined
      ? where.at(about, message)
      : largest
        ? where.at(largest.id, message)
        : { id: '*', line: 1, column: 1, message };
  return {
    name: 'status',
    ok: false,
    severity: result.status === 'escalated' ? 'error' : 'warning',
    violations: [violation],
  };
}
