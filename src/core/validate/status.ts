// `status`: the stabilizer's own verdict as a check, so that every gate (stabilize, check, the
// Action) fails on `escalated` and reports `warning` the same way: escalated is an error (the policy
// could not be honoured without dropping authority or the request), warning is a warning
// (protected evidence had to be cut to fit).
import type { StabilizeResult } from '../stabilize/types.js';
import type { Locator } from './locate.js';
import type { CheckResult, Violation } from './types.js';

export function statusCheck(result: StabilizeResult, where: Locator): CheckResult {
  if (result.status === 'ok') return { name: 'status', ok: true, severity: 'error', violations: [] };
  const safety = result.events.filter((e) => e.level === 'safety');
  const about = safety.find((e) => e.id !== undefined)?.id;
  const reasons = safety.map((e) => e.code).join(', ') || 'see the events';
  const message =
    result.status === 'escalated'
      ? `status escalated: the stabilizer cannot honour the policy without violating authority (${reasons})`
      : `status warning: protected evidence had to be cut or kept over the budget to fit (${reasons})`;
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
