// Goldens are committed and their diffs go to CI logs and pull-request comments, so a golden must
// never hold raw PII (DESIGN §6) — whatever the policy masks and whatever severity it gives the
// `pii` check (even `off`). Before a golden is written or diffed, its context is searched with
// every built-in typed detector; only the types and artifact ids are reported, never the values.
import type { ReportViolation } from '../../core/golden/check-report.js';
import type { Golden } from '../../core/golden/golden.js';
import { builtinDetectors, findPii } from '../../core/pii/index.js';
import { jsonTextLeaves } from '../../core/pii/mask-json.js';
import type { Policy } from '../../core/policy/index.js';
import type { ContextItem } from '../../core/stabilize/types.js';

export const GOLDEN_PII_CHECK = 'golden-pii';

function texts(item: ContextItem): string[] {
  const out: string[] = [];
  if (typeof item.content === 'string') out.push(item.content);
  else
    for (const part of item.content)
      if (part.type === 'text' && typeof part['text'] === 'string') out.push(part['text']);
  for (const call of item.tool_calls ?? []) out.push(call.arguments);
  // JSON texts are searched raw and decoded: an escape (`\u0040`) must not hide a value.
  return out.flatMap((t) => [t, ...(jsonTextLeaves(t) ?? [])]);
}

/**
 * One violation per context artifact that still holds PII a built-in detector finds (values in
 * the policy's `pii.allow` excepted). Non-empty means: do not write or diff this golden.
 */
export function unmaskedPii(golden: Golden, policy: Policy): ReportViolation[] {
  const detectors = builtinDetectors();
  const out: ReportViolation[] = [];
  for (const item of golden.context) {
    const types = new Set<string>();
    for (const text of texts(item)) {
      for (const match of findPii(text, detectors, policy.pii.allow, policy.pii.replacement))
        types.add(match.type);
    }
    if (types.size === 0) continue;
    out.push({
      check: GOLDEN_PII_CHECK,
      severity: 'error',
      id: item.id,
      line: item.line,
      message:
        `unmasked PII (${[...types].sort().join(', ')}) in the stabilized context: the golden is not written ` +
        'or compared, so that no PII reaches the repository or CI logs. Enable these pii.detectors in the policy.',
    });
  }
  return out;
}
