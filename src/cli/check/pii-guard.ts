// Goldens are committed and their diffs go to CI logs and pull-request comments, so a golden must
// never hold raw PII (DESIGN §6) — whatever the policy masks and whatever severity it gives the
// `pii` check (even `off`). Before a golden is written or diffed, its context is searched with
// every default detector (the built-ins and the checksummed national ids), in every text an output holds (thinking, documents, arguments,
// ids and names: visible-texts.ts); only the types and artifact ids are reported, never the values.
import type { ReportViolation } from '../../core/golden/check-report.js';
import type { Golden } from '../../core/golden/golden.js';
import { defaultDetectors, findPiiIn } from '../../core/pii/index.js';
import { visibleTexts } from '../../core/pii/visible-texts.js';
import type { Policy } from '../../core/policy/index.js';

export const GOLDEN_PII_CHECK = 'golden-pii';

/**
 * One violation per context artifact that still holds PII a default detector finds (values in
 * the policy's `pii.allow` excepted). Non-empty means: do not write or diff this golden.
 */
export function unmaskedPii(golden: Golden, policy: Policy): ReportViolation[] {
  const detectors = defaultDetectors();
  const out: ReportViolation[] = [];
  for (const item of golden.context) {
    const types = new Set<string>();
    for (const text of visibleTexts(item)) {
      for (const match of findPiiIn(text, detectors, policy.pii.allow, policy.pii.replacement))
        types.add(match.type);
    }
    if (types.size === 0) continue;
    const found = [...types].sort();
    const off = found.filter((t) => !(policy.pii.detectors as readonly string[]).includes(t));
    // Enabling a detector helps only when it is off; PII a detector that is on left in place sits
    // where the masker does not rewrite (thinking, documents): the fix is elsewhere.
    const fix =
      off.length > 0
        ? `Enable ${off.join(', ')} in pii.detectors of the policy.`
        : 'Its detectors are enabled, so it sits where the masker does not rewrite (thinking or document blocks, ids, names): remove it from the recording or mask it before committing.';
    out.push({
      check: GOLDEN_PII_CHECK,
      severity: 'error',
      id: item.id,
      line: item.line,
      message: `unmasked PII (${found.join(', ')}) in the stabilized context: the golden is not written or compared, so that no PII reaches the repository or CI logs. ${fix}`,
    });
  }
  return out;
}
