// The `retention` check (issue 28): one violation per fact the model lacked when it needed it, at
// the line of the call that used it, naming the line it came from and what the stabilizer did to it.
import type { CheckResult, Violation } from '../validate/types.js';
import { quotedValue } from './replay.js';
import type { LostFact } from './replay.js';

export function lostFactMessage(f: LostFact): string {
  return (
    `the ${f.needed.tool} call at line ${f.needed.line} used ${quotedValue(f.value)}, first seen at line ` +
    `${f.source.line} (${f.source.kind}); the context at that call had lost it: ${f.cause}`
  );
}

/** The check over a replay's lost facts and any summary findings, in line order. */
export function retentionCheck(
  lost: readonly LostFact[],
  summaryFindings: readonly Violation[],
  severity: 'error' | 'warning',
): CheckResult {
  const violations: Violation[] = [
    ...lost.map((f) => ({
      id: f.needed.id,
      line: f.needed.line,
      column: f.needed.column,
      message: lostFactMessage(f),
    })),
    ...summaryFindings,
  ].sort((a, b) => a.line - b.line);
  return { name: 'retention', ok: violations.length === 0, severity, violations };
}
